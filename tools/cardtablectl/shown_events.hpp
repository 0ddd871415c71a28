// What a watch has shown of each table: the last seq of each (each table numbers its own events: through a
// hub, seq 12 of table 2 is not seq 12 of table 1) and the journal those seqs are of. An event already shown
// (replayed, then heard live) is not shown twice; --filter and --heartbeats choose what is shown at all.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cardtable::tools {

class ShownEvents {
 public:
  // How an event is written on standard output (one line for people, or its JSON).
  using Line = std::function<std::string(const nlohmann::json&)>;
  // Whether this event's journal is the one its table's seqs are counted in.
  enum class JournalSeen { Same, Replaced, Stale };

  ShownEvents(Line line, std::vector<std::string> filters, bool heartbeats);
  // Seqs are per journal (protocol 1.4): a table whose journal started again at 1 (its state folder wiped,
  // a spare computer at the table) numbers new events with seqs already shown. Its seqs start again here
  // (said on stderr); an event of a journal replaced before (the old daemon still running) is Stale.
  JournalSeen journal_of(const nlohmann::json& e);
  // Whether an event that came (live, or in a replay's page) has the wire's shape (protocol::from_json:
  // its fields of the types they should be). One of another shape ({"type": 5}: a hub forwards any JSON
  // object under an event's topic) threw out of json::value() and ended the watch; it is said on stderr
  // and not shown, and the watch goes on.
  bool well_formed(const nlohmann::json& e) const;
  // Writes the event unless it is a heartbeat not asked for, or its seq was shown already.
  void show(const nlohmann::json& e);
  // An event of a replay, shown as --filter wants (the replay asks for every topic).
  void show_replayed(const nlohmann::json& e);
  // A page of a replay, shown as --filter wants; its last seq (`since` when it holds none).
  std::uint64_t show_page(const nlohmann::json& events, std::uint64_t since);
  // The last seq shown of a table (0: none), to be moved on when a gap is said rather than shown.
  std::uint64_t& last_seq(const std::string& table) { return last_seqs_[table]; }
  const std::map<std::string, std::uint64_t>& last_seqs() const { return last_seqs_; }
  // Seqs this watch said on stderr and never showed (a gap no endpoint replays, a replay that failed, a
  // --since replay no endpoint serves): the earliest of each table is where the line to go on from starts.
  // A gap said moved the last seq past it, and the line after it: the next watch never showed those seqs.
  // Shown after all (a live event at that seq), it no longer holds the line; a new journal forgets it.
  void not_shown(const std::string& table, std::uint64_t first);
  const std::map<std::string, std::uint64_t>& first_not_shown() const { return not_shown_; }
  // With --filter, seqs skip the events of other topics: a jump is no gap there.
  bool filtered() const { return !filters_.empty(); }

 private:
  Line line_;
  std::vector<std::string> filters_;
  bool heartbeats_;
  std::map<std::string, std::uint64_t> last_seqs_;
  std::map<std::string, std::uint64_t> not_shown_;
  std::map<std::string, std::string> journals_;
  std::set<std::string> replaced_journals_;
};

}  // namespace cardtable::tools
