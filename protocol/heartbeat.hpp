// The period of daemon.heartbeat: cardtabled sends one every --heartbeat seconds, and cardtablectl watch
// is told the same period to know when a daemon has fallen silent. One set of bounds for both, so a
// period the daemon runs with is never refused by the watch that follows it (or the other way round).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "protocol/json_fields.hpp"

namespace cardtable::protocol {

inline constexpr double kHeartbeatDefaultSeconds = 5.0;
// At least a tenth of a second: the daemon's loop wakes every 100 ms (the table clock's tick), so a
// shorter period cannot be kept -- --heartbeat 1e-9 sent one at every wake-up, and a watch told such a
// period called the table silent between two of them.
inline constexpr double kHeartbeatMinSeconds = 0.1;
// At most an hour: a subscriber learns of a gap or a silence only through heartbeats, and longer than
// that a director would not hear that a table went quiet before the round ended.
inline constexpr double kHeartbeatMaxSeconds = 3600.0;

// Written as one range test so that nan is refused too.
constexpr bool heartbeat_in_bounds(double seconds) { return seconds >= kHeartbeatMinSeconds && seconds <= kHeartbeatMaxSeconds; }

// Said by both programs when the period is refused; each prefixes its own name and option.
inline constexpr const char* kHeartbeatBounds = "must be 0.1 to 3600 seconds";

// The heartbeat says its own period (evidence `every`, protocol 1.7), so that a subscriber knows when a
// table has missed heartbeats without being told each daemon's --heartbeat: watch called a daemon run with
// --heartbeat 30 silent every 15 s unless it was given the same option, and a hub's --silent-after shorter
// than a table's heartbeat called it silent between two of them, unsaid.
inline constexpr const char* kHeartbeatEveryKey = "every";

inline std::string heartbeat_every_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

// The period a heartbeat's `every` names; nothing when it is not a period a daemon can send (an older
// daemon's heartbeat has none; a hostile one may say anything).
inline std::optional<double> heartbeat_every(const std::string& text) {
  if (text.empty() || text.size() > 31) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !heartbeat_in_bounds(v)) return std::nullopt;
  return v;
}

// The period a daemon.heartbeat says in its evidence, read the same way by the hub, watch and the console.
inline std::optional<double> heartbeat_every(const nlohmann::json& heartbeat) {
  if (!heartbeat.is_object()) return std::nullopt;
  const auto evidence = heartbeat.find("evidence");
  if (evidence == heartbeat.end()) return std::nullopt;
  return heartbeat_every(string_field(*evidence, kHeartbeatEveryKey));
}

}  // namespace cardtable::protocol
