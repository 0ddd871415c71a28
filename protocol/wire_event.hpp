// An event as it travels: the JSON object of docs/protocol.md and its topic. Fields that are unset are
// left out of the JSON, never null.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace cardtable::protocol {

inline constexpr int kProtoMajor = 1;
inline constexpr int kProtoMinor = 10;

struct WireEvent {
  std::uint64_t seq = 0;          // per table, gap-free, continues across restarts; 0 = not journalled (heartbeat)
  // The identity of the journal `seq` belongs to (Journal::id()): in every event, the heartbeat too, so
  // that a subscriber hearing seq 1 again from a new journal knows it at once, not a heartbeat later.
  std::string journal;
  std::string type;               // "irregularity.wrong_count"; the class is the part before the dot
  std::string severity = "info";  // info, warning, alert
  std::vector<std::string> laws;
  std::string tournament, section, table;  // the table's identity
  std::string event, session;     // where the board belongs in the master record
  int board = 0;
  std::vector<std::string> seats; // "N", "E", ...
  std::vector<std::pair<std::string, std::string>> evidence;
  std::string message;
  // Director-only card-level detail (table::Event's card_message/card_evidence): journalled, returned by
  // the `evidence` request to directors, never on the events endpoint, the hub or a replay.
  std::string card_message;
  std::map<std::string, std::vector<std::string>> hands;  // live.deal only: seat letter -> cards ("SA", ...)
  std::vector<std::pair<std::string, std::string>> card_evidence;
  double time = 0;                // wall clock, seconds since 1970
  double mono = 0;                // the table's clock, seconds since the daemon started

  std::string event_class() const { return type.substr(0, type.find('.')); }
  // "<class>/<tournament>/<section>/<table>/<type>": subscribers filter on prefixes of it.
  std::string topic() const;
};

// The event's JSON; with_card_detail adds card_message/card_evidence (the journal, `evidence` replies).
nlohmann::json to_json(const WireEvent& e, bool with_card_detail = false);
// Removes the director-only fields from an event's JSON (a journalled line on its way to a replay).
void strip_card_detail(nlohmann::json& event);
// Reads an event back (journal, subscribers); nullopt with a reason when a required field is missing.
std::optional<WireEvent> from_json(const nlohmann::json& j, std::string* error = nullptr);

}  // namespace cardtable::protocol
