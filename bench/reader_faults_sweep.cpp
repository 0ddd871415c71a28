// How much reader noise the table absorbs, in process and in a second: Spring Pairs/1 generated from the
// master record (as cardtabled --simulate-session plays it), every input through the sim's FaultInjector
// into a table, once per seed. Counts the sessions with any irregularity (none is real: the play is the
// master's, legal), with a trick not counted, with a board returned other than once, with an auction period
// or a board.arrived other than once a board (the board lifted away after its return taken for an auction
// period), and names their seeds.
// The same session as tests/unit/devices/reader_faults_test.cpp, over more seeds; it measures, never asserts.
// Also how the daemon's device.health (daemon/reply_health.hpp, at its default 15 %) judges the sim reader:
// in how many sessions it is said missing replies, and during which board it first is.
//
//   build/bench/reader_faults_sweep [--flicker 0.1] [--drop 0.1] [--misread 0.05] [--seeds 100] [--first 1]
//                                   [--trace SEED]   (the faulty play-area reads and the events of one seed)
//                                   [--every-zone 1] (with --trace: the pockets' and dummy's reads too; "+1?"
//                                                     is a tag not identified, a pocket's presence)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "daemon/reply_health.hpp"
#include "devices/sim/session_script.hpp"
#include "devices/sim/simulator_device.hpp"
#include "table/scenario.hpp"
#include "table/table.hpp"

using namespace cardtable;

namespace {

std::string cards_text(const bridge::Hand& h) {
  if (h.empty()) return "-";
  std::string out;
  h.for_each_descending([&](bridge::Card c) { out += (out.empty() ? "" : ",") + c.str(); });
  return out;
}

const bridge::MasterRecord& spring_pairs() {
  static const bridge::MasterRecord m = [] {
    bridge::MasterRecord r;
    r.load({CARDTABLE_MASTER});
    return r;
  }();
  return m;
}

// The generated session's boards are this far apart; late_periods reads the time within each board's slot.
constexpr int kBoardSeconds = 80;

std::vector<table::TableInput> session_inputs() {
  std::string error;
  auto text = devices::session_scenario(spring_pairs(), {"Spring Pairs", "1", "3NT S", {}, kBoardSeconds}, error);
  if (!text) {
    std::fprintf(stderr, "%s\n", error.c_str());
    std::exit(1);
  }
  std::vector<table::ScenarioError> errors;
  auto sc = table::parse_scenario(*text, ".", [](const auto&) -> const bridge::MasterRecord& { return spring_pairs(); }, errors);
  if (!sc) {
    std::fprintf(stderr, "the generated session does not parse\n");
    std::exit(1);
  }
  return table::scenario_inputs(*sc);
}

struct Outcome {
  std::vector<std::string> irregularities;  // "board N: type"
  int tricks = 0;                           // play.trick with a winner
  std::map<int, int> returned;              // board -> times
  std::map<int, int> auctions;              // board (0: none known) -> auction.period_started
  std::map<int, int> arrived;               // board -> board.arrived
  int late_periods = 0;                     // auction.period_started said at the opening lead or after
  int uncertain = 0;
  table::Table::ReaderReads reads;  // what the table counted of the sim reader's reads
  int health_board = 0;             // the board (1-8 of the session) during which device.health first said it missing replies
  int health_changes = 0;           // device.health said, either way
};

Outcome play(const std::vector<table::TableInput>& inputs, const devices::SimFaults& faults, bool trace, bool every_zone = false) {
  table::Table t(spring_pairs(), table::TableConfig::playing_table());
  devices::FaultInjector injector(faults);
  daemon::ReplyHealth health(0.15);
  Outcome out;
  int boards_back = 0;
  for (const table::TableInput& in : inputs) {
    auto faulty = injector.apply(in);
    if (trace && in.kind == table::TableInput::Kind::Observe && (in.observation.zone.kind == table::ZoneKind::Play || every_zone)) {
      auto text = [](const table::Observation& o) { return cards_text(o.cards) + (o.unknown ? "+" + std::to_string(o.unknown) + "?" : ""); };
      std::string was = text(in.observation);
      std::string read = !faulty ? "(dropped)" : text(faulty->observation);
      std::printf("%8lld %-8s %-6s %s%s\n", static_cast<long long>(in.time), in.observation.zone.str().c_str(), was.c_str(), read.c_str(),
                  read != was ? "   <- fault" : "");
    }
    if (faulty) table::apply(t, *faulty);
    if (faulty && faulty->kind == table::TableInput::Kind::Observe)
      if (auto counts = t.reader_reads().find(faulty->observation.source); counts != t.reader_reads().end())
        if (auto change = health.on_read(faulty->observation, counts->second)) {
          ++out.health_changes;
          if (change->missing && !out.health_board) out.health_board = boards_back + 1;
          if (trace) std::printf("         DEVICE.HEALTH %s: %llu of %llu\n", change->missing ? "missing replies" : "good",
                                 static_cast<unsigned long long>(change->missed), static_cast<unsigned long long>(change->heard));
        }
    for (const table::Event& e : t.take_events()) {
      if (trace && e.type != "daemon.heartbeat") std::printf("         EVENT %s: %s\n", e.type.c_str(), (e.card_message.empty() ? e.message : e.card_message).c_str());
      if (e.event_class() == "irregularity") out.irregularities.push_back("board " + std::to_string(e.board) + ": " + e.type);
      if (e.type == "reading.uncertain") ++out.uncertain;
      if (e.type == "auction.period_started") {
        ++out.auctions[e.board];
        // The session's boards are kBoardSeconds apart, the hands taken out 1-2 s into the slot and the opening
        // lead faced 4 s in: a period said then or later was a take-out judged a lift (board_lift_ms),
        // said when the card came.
        const auto into_slot = e.time % (kBoardSeconds * 1000);
        if (e.board != 0 && into_slot >= 4000 && into_slot < 60000) ++out.late_periods;
      }
      if (e.type == "board.arrived") ++out.arrived[e.board];
      if (e.type == "board.returned") {
        ++out.returned[e.board];
        ++boards_back;
      }
      if (e.type == "play.trick")
        for (const auto& [k, v] : e.evidence)
          if (k == "winner" && v != "unknown") ++out.tricks;
    }
  }
  for (const auto& [source, r] : t.reader_reads()) out.reads = r;  // one reader: the sim
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  devices::SimFaults f;
  f.flicker = 0.1;
  f.drop = 0.1;
  f.misread = 0.05;
  int seeds = 100, first = 1, trace = 0;
  bool every_zone = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i];
    double v = std::atof(argv[i + 1]);
    if (k == "--flicker") f.flicker = v;
    else if (k == "--drop") f.drop = v;
    else if (k == "--misread") f.misread = v;
    else if (k == "--seeds") seeds = static_cast<int>(v);
    else if (k == "--first") first = static_cast<int>(v);
    else if (k == "--trace") trace = static_cast<int>(v);
    else if (k == "--every-zone") every_zone = v != 0;
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  const auto inputs = session_inputs();
  if (trace) {
    f.seed = static_cast<std::uint32_t>(trace);
    play(inputs, f, true, every_zone);
    return 0;
  }
  int irregular = 0, lost_sessions = 0, lost_tricks = 0, twice = 0, uncertain = 0;
  std::uint64_t heard = 0, missed = 0;
  int health_said = 0, health_changes = 0;
  std::map<int, int> health_boards;  // the board during which it was first said -> sessions
  std::string irregular_seeds, lost_seeds, twice_seeds, auction_seeds, arrived_seeds;
  int auction_off = 0, arrived_off = 0, late_sessions = 0, late_periods = 0;
  std::string late_seeds;
  for (int s = first; s < first + seeds; ++s) {
    f.seed = static_cast<std::uint32_t>(s);
    Outcome o = play(inputs, f, false);
    uncertain += o.uncertain;
    heard += o.reads.heard;
    missed += o.reads.missed_replies;
    health_changes += o.health_changes;
    if (o.health_board) {
      ++health_said;
      ++health_boards[o.health_board];
    }
    if (!o.irregularities.empty()) {
      ++irregular;
      irregular_seeds += " " + std::to_string(s) + "(";
      for (std::size_t i = 0; i < o.irregularities.size(); ++i) irregular_seeds += (i ? "; " : "") + o.irregularities[i];
      irregular_seeds += ")";
    }
    if (o.tricks != 8 * 13) {
      ++lost_sessions;
      lost_tricks += 8 * 13 - o.tricks;
      lost_seeds += " " + std::to_string(s);
    }
    bool once = o.returned.size() == 8;
    for (const auto& [board, n] : o.returned) once = once && n == 1;
    if (!once) {
      ++twice;
      twice_seeds += " " + std::to_string(s);
    }
    // Each board is laid on the table, taken out (one auction period) and lifted away once: a lift taken
    // for an auction period is one more, of no board known.
    auto once_each = [](const std::map<int, int>& m) {
      bool ok = m.size() == 8 && !m.count(0);
      for (const auto& [board, n] : m) ok = ok && n == 1;
      return ok;
    };
    if (!once_each(o.auctions)) {
      ++auction_off;
      auction_seeds += " " + std::to_string(s);
    }
    if (o.late_periods) {
      ++late_sessions;
      late_periods += o.late_periods;
      late_seeds += " " + std::to_string(s);
    }
    if (!once_each(o.arrived)) {
      ++arrived_off;
      arrived_seeds += " " + std::to_string(s);
    }
  }
  std::printf("flicker=%g drop=%g misread=%g, seeds %d-%d\n", f.flicker, f.drop, f.misread, first, first + seeds - 1);
  std::printf("sessions with an irregularity: %d of %d%s\n", irregular, seeds, irregular_seeds.c_str());
  std::printf("sessions with a trick not counted: %d (%d tricks of %d)%s\n", lost_sessions, lost_tricks, seeds * 104, lost_seeds.c_str());
  std::printf("sessions with a board not returned exactly once: %d%s\n", twice, twice_seeds.c_str());
  std::printf("sessions with an auction period not once a board: %d%s\n", auction_off, auction_seeds.c_str());
  std::printf("sessions with a board not arrived exactly once: %d%s\n", arrived_off, arrived_seeds.c_str());
  std::printf("sessions with an auction period said at the opening lead (a take-out judged a lift): %d (%d periods)%s\n", late_sessions,
              late_periods, late_seeds.c_str());
  std::printf("reading.uncertain events: %d (%.1f a session)\n", uncertain, static_cast<double>(uncertain) / seeds);
  std::printf("missed replies counted (status reads_by_device): %llu of %llu reads that heard a card (%.2f %%)\n",
              static_cast<unsigned long long>(missed), static_cast<unsigned long long>(heard), heard ? 100.0 * static_cast<double>(missed) / static_cast<double>(heard) : 0.0);
  std::string during;
  for (const auto& [board, n] : health_boards) during += (during.empty() ? "; first during board " : ", ") + std::to_string(board) + ": " + std::to_string(n);
  std::printf("device.health (15 %%) said missing replies in %d of %d sessions (%d said either way)%s\n", health_said, seeds,
              health_changes, during.c_str());
  return 0;
}
