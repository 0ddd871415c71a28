// What a watch replays of each table's journal, and what it says it could not: `--since` (each table's
// journal from the seq asked, from the table's own control endpoint, every table's merged in time order
// (TimeOrderedReplay), before any live event), the gaps in
// the live events (GapReplays: one table's replay never holds back the others'), and the tables that no
// endpoint serves (a hub that names no --table-control for them), said on stderr, never filled with another
// table's events. A table --since asked for and did not get makes the watch exit 1.
// A watch stopped during its --since replay (TimeOrderedReplay says what it shows then) leaves the rest of
// each table it did not show whole to the next watch, which its resume line starts at the first seq not
// shown: the live events it held past that point are not shown either (shown, they would move the resume
// line past the seqs between), only those that follow on from what was shown. So does a watch --since
// stopped after its replay with a gap being replayed, or one among the events it had received already:
// the gap and what follows it are the next watch's (the gap's replay, abandoned at once, moved the line
// past the gap, and no watch ever showed its seqs). A gap said mid-watch and not filled (no endpoint serves
// its table, its replay failed) holds the table's line at the gap (ShownEvents::not_shown) while the events
// after it are still shown: the next watch shows them again rather than the gap never.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <zmq.hpp>

#include "gap_replays.hpp"
#include "shown_events.hpp"
#include "since_plan.hpp"
#include "table_controls.hpp"

namespace cardtable::tools {

class VenueReplay {
 public:
  using Clock = std::chrono::steady_clock;
  // One question to a control endpoint, awaited (`to` names its CURVE key): the reply, or nullopt and why.
  using Ask = std::function<std::optional<nlohmann::json>(const TableControl& to, const nlohmann::json& body, std::string& error)>;
  // Whether the watch was stopped (a signal): no page is asked for once it is.
  using Stopped = std::function<bool()>;

  // `command`: replay or replay-live. `replay_hint`: what `cardtablectl replay` needs besides -c to reach a
  // table (" --key FILE --server-key TABLE.pub" with CURVE, else empty), for the notices that name it.
  VenueReplay(zmq::context_t& ctx, std::string command, TableControls& controls, ShownEvents& shown, Ask ask, TableControls::Secure secure,
              std::string replay_hint, Stopped stopped);

  // --since, before any live event. `control`: --control as given; `at`: its address and key. False when
  // the watch ends (exit 1): nothing could be replayed, or a table's own endpoint failed its replay. Stopped
  // before its end, it says on stderr from which seq each table was not shown.
  bool replay_since(const SincePlan& plan, const std::string& control, const TableControl& at);
  // A table heard live for the first time: through a hub that names no endpoint for it, --since N did not
  // replay it (said, and the watch exits 1).
  void first_heard(const std::string& table);
  // One live event (or one held while its table was replayed): a gap it shows is replayed first.
  void handle(nlohmann::json e);
  // The sockets a gap's page is awaited on, to poll with the events.
  std::vector<zmq::pollitem_t> poll_items() const { return gaps_.poll_items(); }
  // After a poll of poll_items(): each page that came is shown; a replay that ended lets its table go on.
  void take(const zmq::pollitem_t* polled, Clock::time_point now);
  // The watch stops: each replay still running ends, and from here no gap is replayed. With --since (a
  // resume line), the gap and the events after it are left to the next watch; without, the gap is said
  // and the events the replay held are shown. Then the caller hands the events received already to handle().
  void stop();
  // After stop() and the last events: the live events left to the next watch are said, and (--since) each
  // table whose line starts at a seq it said and did not show.
  void say_left() const;
  // A table's journal --since asked for was not replayed: the watch exits 1.
  bool incomplete() const { return since_incomplete_; }

 private:
  // One page of a journal from `from`, awaited: nullopt (said) when it fails.
  std::optional<nlohmann::json> page_of(const std::string& table, std::uint64_t since, const TableControl& from);
  // What a page of `table`'s journal from `since` shows its journal no longer holds or cannot read, said.
  void say_losses(const std::string& table, const nlohmann::json& page, std::uint64_t since) const;
  void say_unserved(const std::string& table, std::uint64_t from, const std::string& why);
  // The tables whose --since replay the stop ended, each with its first seq not shown (`unnamed`: the
  // endpoint of the table "", --control's when it never said which tables it serves).
  void say_stopped(const std::map<std::string, std::uint64_t>& stopped, const std::string& unnamed);
  // A gap not shown, said with the replay that fills it; with --since, the line this watch ends with starts
  // at the table's first seq not shown (ShownEvents::not_shown), as said here.
  void say_gap(const std::string& table, std::uint64_t first, std::uint64_t last, const std::string& why);
  // A replay that failed is said, and not tried again for a while (TableControls::failed); then its
  // table's held events go on, in the order they came.
  void end(std::vector<GapReplays::Ended> ended);
  // Whether the rest of this table is the next watch's: its --since replay was stopped before its end ("":
  // --control's table, unnamed), or the watch stopped at one of its gaps.
  bool left_to_next_watch(const std::string& table) const { return left_tables_.count(table) || left_tables_.count(""); }
  // `seq` of `table` and every event past it are the next watch's.
  void leave(const std::string& table, std::uint64_t seq);

  TableControls& controls_;
  ShownEvents& shown_;
  Ask ask_;
  Stopped stopped_;
  GapReplays gaps_;
  std::string command_, replay_hint_;
  std::optional<std::uint64_t> since_every_;  // N of --since N: each table first heard is asked for from N
  std::set<std::string> following_;           // the tables replayed: a heartbeat ahead of what was shown replays the rest
  bool follow_every_ = false;                 // --control never answered: its replay was asked for blindly, every table followed
  bool since_incomplete_ = false;
  bool resumes_ = false;   // --since given: the watch ends with a resume line, which starts at the first seq not shown
  bool stopping_ = false;  // stop() came: no gap is replayed any more
  std::set<std::string> said_unserved_;
  std::set<std::string> left_tables_;
  std::map<std::string, std::set<std::uint64_t>> left_;  // per table, the seqs of the live events left to the next watch
};

}  // namespace cardtable::tools
