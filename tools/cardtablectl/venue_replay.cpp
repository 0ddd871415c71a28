#include "venue_replay.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>

#include "counted_words.hpp"
#include "terminal_text.hpp"
#include "journal_losses.hpp"
#include "protocol/json_fields.hpp"
#include "time_ordered_replay.hpp"

namespace cardtable::tools {
using json = nlohmann::json;

namespace {
// Why a table heard through a hub is not replayed: the hub's --table-control names no endpoint for it.
constexpr const char* kHubNamesNoEndpoint = "the hub names no control endpoint for it: no --table-control";
}  // namespace

VenueReplay::VenueReplay(zmq::context_t& ctx, std::string command, TableControls& controls, ShownEvents& shown, Ask ask,
                         TableControls::Secure secure, std::string replay_hint, Stopped stopped)
    : controls_(controls),
      shown_(shown),
      ask_(std::move(ask)),
      stopped_(std::move(stopped)),
      gaps_(ctx, command, std::move(secure)),
      command_(std::move(command)),
      replay_hint_(std::move(replay_hint)) {}

std::optional<json> VenueReplay::page_of(const std::string& table, std::uint64_t since, const TableControl& from) {
  std::string error;
  auto r = ask_(from, {{"command", command_}, {"since", since}}, error);
  if (r && protocol::is_true(*r, "ok")) {
    say_losses(table.empty() ? from.endpoint : table, *r, since);
    return r;
  }
  if (!r && stopped_()) return std::nullopt;  // not the endpoint's failure: the stop's, said with where each table stands
  std::cerr << "cardtablectl watch: replay from " << printable(from.endpoint) << ": " << printable(r ? protocol::string_field(*r, "error", "?") : error)
            << (r ? " (a hub keeps no journal: give --control the table's own control endpoint)" : "") << '\n';
  return std::nullopt;
}

bool VenueReplay::replay_since(const SincePlan& plan, const std::string& control, const TableControl& at) {
  since_every_ = plan.every();
  resumes_ = !plan.empty();
  if (plan.empty()) return true;
  // Every table's journal merged in time order (a director catching up reads the venue's afternoon as it
  // happened), each from the endpoint that serves it.
  std::map<std::string, TableControl> from;
  TimeOrderedReplay merged([&](const std::string& table, std::uint64_t since) { return page_of(table, since, from.at(table)); },
                           [&](const json& e) { shown_.show_replayed(e); }, stopped_);
  if (!controls_.answered()) {
    // As before 1.5: --control is taken for the table's own endpoint (it may answer a replay yet).
    if (!plan.every()) {
      std::cerr << "cardtablectl watch: --since: --control did not answer which tables it serves: nothing replayed\n";
      return false;
    }
    from.emplace("", at);  // whichever table it is
    merged.add("", *plan.every());
    const auto out = merged.run();
    if (!out.failed.empty()) return false;
    say_stopped(out.stopped, at.endpoint);
    follow_every_ = true;
    return true;
  }
  if (controls_.is_hub() && controls_.tables().empty()) {
    std::cerr << "cardtablectl watch: --since: the hub at " << printable(control) << " names no table's control endpoint (a hub keeps "
              << "no journal: give it --table-control TABLE=ENDPOINT for each table, or give --control a table's own endpoint): nothing replayed\n";
    return false;
  }
  for (const auto& [table, endpoint] : controls_.tables())
    if (const auto first = plan.of(table)) {
      from.emplace(table, endpoint);
      merged.add(table, *first);
    }
  const auto out = merged.run();
  const auto& failed = out.failed;
  say_stopped(out.stopped, at.endpoint);
  for (const auto& [table, endpoint] : from) {
    if (out.stopped.count(table)) continue;
    if (auto f = failed.find(table); f == failed.end()) {
      following_.insert(table);
      // Asked from past its last event: nothing shown, and its heartbeat's last_seq is no gap (it replayed
      // the whole journal from seq 1).
      shown_.last_seq(table) = std::max(shown_.last_seq(table), *plan.of(table) - 1);
    } else if (!controls_.is_hub()) {
      return false;  // the table's own endpoint: as before, a replay that fails ends the watch
    } else {
      controls_.failed(table, Clock::now());
      say_unserved(table, f->second, "its replay from " + endpoint.endpoint + " failed");
    }
  }
  const std::string none = controls_.is_hub() ? kHubNamesNoEndpoint : "--control is another table's";
  for (const auto& [table, first] : plan.tables())
    if (!controls_.tables().count(table)) say_unserved(table, first, none);
  // Every table the hub has heard (its alerts reply names each); each table first heard later: first_heard().
  if (controls_.is_hub() && plan.every()) {
    std::string error;
    if (auto heard = ask_(at, {{"command", "alerts"}}, error); heard && heard->contains("tables") && (*heard)["tables"].is_object())
      for (const auto& [table, _] : (*heard)["tables"].items())
        if (!controls_.tables().count(table)) say_unserved(table, *plan.every(), none);
  }
  return true;
}

void VenueReplay::say_stopped(const std::map<std::string, std::uint64_t>& stopped, const std::string& unnamed) {
  if (stopped.empty()) return;
  std::string where;
  for (const auto& [table, first] : stopped) {
    left_tables_.insert(table);
    // What this watch showed, or (filtered) passed, of the table is before `first`: its resume line starts there.
    if (!table.empty()) shown_.last_seq(table) = std::max(shown_.last_seq(table), first - 1);
    if (!where.empty()) where += ", ";
    where += printable(table.empty() ? unnamed : table);
    where += " from #";
    where += std::to_string(first);
  }
  std::cerr << "cardtablectl watch: --since: the replay was stopped before its end: not shown, " << where
            << " (shown in time order as far as every table's next event was known; the line that goes on from here starts there)\n";
}

void VenueReplay::first_heard(const std::string& table) {
  if (since_every_ && controls_.is_hub() && !controls_.tables().count(table)) say_unserved(table, *since_every_, kHubNamesNoEndpoint);
}

void VenueReplay::say_unserved(const std::string& table, std::uint64_t from, const std::string& why) {
  if (!said_unserved_.insert(table).second) return;
  since_incomplete_ = true;
  shown_.not_shown(table, from);
  std::cerr << "cardtablectl watch: --since: " << printable(table) << ": not replayed (" << why << "); its own control endpoint replays it: "
            << "cardtablectl replay --since " << from << " -c ENDPOINT" << replay_hint_ << '\n';
}

// A gap of a table --control does not serve: said (on stderr, outside --json's lines), never filled with
// another table's events.
void VenueReplay::say_gap(const std::string& table, std::uint64_t first, std::uint64_t last, const std::string& why) {
  shown_.not_shown(table, first);
  std::cerr << "cardtablectl watch: " << printable(table) << ": " << events_numbered(first, last) << " not received (" << why
            << "); that table's own control endpoint replays them: cardtablectl replay --since " << first << " -c ENDPOINT" << replay_hint_;
  // The line to go on from stops at the table's first seq not shown: moved past the gap with the events
  // shown after it, it left the gap to no watch.
  if (resumes_) std::cerr << "; the line to go on from starts at its #" << shown_.first_not_shown().at(table);
  std::cerr << '\n';
}

void VenueReplay::handle(json e) {
  const std::string table = table_of(e);
  if (gaps_.replaying(table)) return gaps_.hold(table, std::move(e));
  const std::uint64_t seq = protocol::seq_field(e);
  if (left_to_next_watch(table)) {
    // Nothing more is asked of its journal, and an event past what was shown is the next watch's (which
    // starts at the first seq not shown).
    if (seq > shown_.last_seq(table) + 1) return leave(table, seq);
    return shown_.show(e);
  }
  // A new journal: what it published before this event (from its seq 1) is replayed as any gap is.
  const bool replaced = shown_.journal_of(e) == ShownEvents::JournalSeen::Replaced;
  const std::uint64_t seen = shown_.last_seq(table);
  auto control_of = [&] { return controls_.of(table, Clock::now()); };
  // `upto` 0: a heartbeat's, whose failure is said alone (the gap is named by the next event).
  auto replay = [&](std::uint64_t from, std::uint64_t upto, const TableControl& c) {
    if (stopping_ && resumes_) {
      // A replay now would be abandoned at once, and the resume line moved past the gap: the next watch's.
      if (seq) return leave(table, seq);
      return shown_.show(e);  // a heartbeat's: the line starts at the first seq not shown already
    }
    if (stopping_) {
      // No --since: nothing resumes from here, the gap is said for `cardtablectl replay` and the event shown.
      if (upto && !shown_.filtered()) say_gap(table, from, upto, "the watch stopped before it was replayed");
      shown_.last_seq(table) = std::max(shown_.last_seq(table), upto);
      return shown_.show(e);
    }
    gaps_.start(table, from, upto, c, Clock::now());
    gaps_.hold(table, std::move(e));
  };
  if (replaced && seq > 1) {
    if (auto c = control_of()) return replay(1, seq - 1, *c);
    if (!shown_.filtered()) say_gap(table, 1, seq - 1, "published by its new journal before this watch heard it");
  } else if (e.value("type", "") == "daemon.heartbeat") {
    std::uint64_t daemon_last = 0;
    if (e.contains("evidence") && e["evidence"].is_object())
      daemon_last = std::strtoull(protocol::string_field(e["evidence"], "last_seq", "0").c_str(), nullptr, 10);
    if (auto c = control_of(); c && daemon_last > seen && (following_.count(table) || follow_every_)) return replay(seen + 1, 0, *c);
  } else if (seq > seen + 1 && seen > 0) {
    if (auto c = control_of()) return replay(seen + 1, seq - 1, *c);
    if (!shown_.filtered()) {
      // Filtered, seqs skip the events of other topics: a jump is no gap there.
      say_gap(table, seen + 1, seq - 1, "lost on the way: a hub restarted, or this watch fell behind");
      shown_.last_seq(table) = seq - 1;
    }
  }
  shown_.show(e);
}

void VenueReplay::end(std::vector<GapReplays::Ended> ended) {
  for (auto& r : ended) {
    if (r.failure) {
      std::cerr << "cardtablectl watch: " << printable(r.table) << ": " << printable(*r.failure) << '\n';
      controls_.failed(r.table, Clock::now());
      if (r.wanted_to >= r.first_missing) {
        say_gap(r.table, r.first_missing, r.wanted_to, "its replay failed");
        shown_.last_seq(r.table) = std::max(shown_.last_seq(r.table), r.wanted_to);  // said once: its held event is no new gap
      }
    }
    for (auto& e : r.held) handle(std::move(e));
  }
}

void VenueReplay::take(const zmq::pollitem_t* polled, Clock::time_point now) {
  end(gaps_.take(polled, now, [&](const std::string& table, const json& page, std::uint64_t since) {
    say_losses(table, page, since);
    shown_.show_page(page["events"], 0);
  }));
}

// On stderr, as a gap is: a replay that showed what came and said nothing of what its journal no longer
// holds let a director take part of a table's afternoon for the whole of it.
void VenueReplay::say_losses(const std::string& table, const json& page, std::uint64_t since) const {
  for (const std::string& lost : journal_losses(page, since)) std::cerr << "cardtablectl watch: " << printable(table) << ": " << lost << '\n';
}

void VenueReplay::leave(const std::string& table, std::uint64_t seq) {
  left_tables_.insert(table);
  left_[table].insert(seq);  // a seq heard twice is one event
}

void VenueReplay::stop() {
  stopping_ = true;
  auto ended = gaps_.abandon("watch stopped before its replay ended");
  if (resumes_)
    for (auto& r : ended) {
      // What its pages showed stays shown; from the first seq not shown, the table is the next watch's.
      left_tables_.insert(r.table);
      r.failure.reset();
    }
  end(std::move(ended));
}

void VenueReplay::say_left() const {
  if (resumes_)
    for (const auto& [table, first] : shown_.first_not_shown())
      if (const std::uint64_t last = shown_.last_seqs().count(table) ? shown_.last_seqs().at(table) : 0; last >= first)
        std::cerr << "cardtablectl watch: " << printable(table) << ": the line to go on from starts at #" << first
                  << ", the first event this watch said and did not show; the next watch shows again what this one showed past it (to #"
                  << last << ")\n";
  for (const auto& [table, left] : left_)
    std::cerr << "cardtablectl watch: " << printable(table) << ": " << counted(left.size(), "live event") << " past #" << shown_.last_seq(table) << " ("
              << seq_run(*left.begin(), *left.rbegin())
              << ") not shown: its replay was stopped before " << (left.size() == 1 ? "it" : "them") << "; the next watch shows "
              << (left.size() == 1 ? "it" : "them") << " from its journal\n";
}

}  // namespace cardtable::tools
