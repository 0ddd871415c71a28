// Real RFID readers lose a poll now and then (drop), read an empty zone for one poll (flicker) or name
// another card for one poll (misread). A director must never be called to a table for that: a reader's
// fault may make a reading uncertain, never an irregularity, and it must not lose a trick or return a
// board twice. A whole session generated from the master record (Spring Pairs/1, as the daemon's
// --simulate-session plays it) is passed through the sim's FaultInjector, input by input, into a table,
// over a sweep of rates and seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

#include "devices/sim/session_script.hpp"
#include "devices/sim/simulator_device.hpp"
#include "table/scenario.hpp"
#include "table/table.hpp"

namespace cardtable::devices {
namespace {

const bridge::MasterRecord& spring_pairs() {
  static const bridge::MasterRecord m = [] {
    bridge::MasterRecord r;
    r.load({SCENARIO_DIR "/master/spring-pairs.pbn"});
    return r;
  }();
  return m;
}

const std::vector<table::TableInput>& session_inputs(const std::set<int>& fouled) {
  static std::map<std::set<int>, std::vector<table::TableInput>> cache;
  auto it = cache.find(fouled);
  if (it != cache.end()) return it->second;
  std::string error;
  auto text = session_scenario(spring_pairs(), {"Spring Pairs", "1", "3NT S", fouled, 80}, error);
  EXPECT_TRUE(text) << error;
  std::vector<table::ScenarioError> errors;
  auto sc = table::parse_scenario(text.value_or(""), ".", [](const auto&) -> const bridge::MasterRecord& { return spring_pairs(); }, errors);
  EXPECT_TRUE(sc);
  auto& inputs = cache[fouled];
  if (sc) inputs = table::scenario_inputs(*sc);
  return inputs;
}

// What a director's screen shows of the session: the irregularities by board, the tricks counted by board
// (play.trick with a winner: what the daemon's board.trick counts), the boards returned, in order.
struct Session {
  std::map<int, std::vector<std::string>> irregularities;
  std::map<int, std::vector<int>> tricks;
  std::vector<int> returned;
  std::size_t uncertain = 0;
  std::size_t flicker = 0;  // reading.uncertain, cause flicker
  table::Table::ReaderReads sim;  // what the table counted of the sim reader's reads
};

Session play(const SimFaults& faults, const std::set<int>& fouled = {}) {
  table::Table table(spring_pairs(), table::TableConfig::playing_table());
  FaultInjector injector(faults);
  for (const table::TableInput& in : session_inputs(fouled))
    if (auto faulty = injector.apply(in)) table::apply(table, *faulty);
  Session s;
  for (const auto& [source, reads] : table.reader_reads()) s.sim = reads;  // one reader: the sim
  for (const table::Event& e : table.take_events()) {
    if (e.event_class() == "irregularity") s.irregularities[e.board].push_back(e.type);
    if (e.type == "reading.uncertain") {
      ++s.uncertain;
      for (const auto& [k, v] : e.evidence) s.flicker += k == "cause" && v == "flicker";
    }
    if (e.type == "board.returned") s.returned.push_back(e.board);
    if (e.type == "play.trick") {
      std::string number, winner;
      for (const auto& [k, v] : e.evidence) {
        if (k == "trick") number = v;
        if (k == "winner") winner = v;
      }
      if (!winner.empty() && winner != "unknown") s.tricks[e.board].push_back(std::stoi(number));
    }
  }
  return s;
}

std::string describe(const SimFaults& f) {
  std::ostringstream o;
  o << "flicker=" << f.flicker << ",drop=" << f.drop << ",misread=" << f.misread << ",seed=" << f.seed;
  return o.str();
}

std::string irregular(const Session& s) {
  std::string all;
  for (const auto& [board, types] : s.irregularities)
    for (const auto& t : types) all += " board " + std::to_string(board) + ": " + t + ";";
  return all;
}

const std::vector<int> kBoards{1, 2, 3, 4, 5, 6, 7, 8};

std::vector<int> one_to_thirteen() {
  std::vector<int> v(13);
  std::iota(v.begin(), v.end(), 1);
  return v;
}

// The rates swept, 20 seeds each: flicker and drop together at 3, 5 and 10 %, each with and without 5 %
// misreads on top. (At 10 % and 5 % misreads, seeds 5 and 10 had a card never steady in the second it
// lay there -- two misreads among its reads -- and a false lead out of turn or revoke: docs/hardware.md,
// bench/reader_faults_sweep.)
std::vector<SimFaults> sweep(double max_rate = 0.1) {
  std::vector<SimFaults> out;
  for (double rate : {0.03, 0.05, 0.1})
    for (double misread : {0.0, 0.05})
      for (std::uint32_t seed = 1; seed <= 20; ++seed) {
        if (rate > max_rate) continue;
        SimFaults f;
        f.flicker = rate;
        f.drop = rate;
        f.misread = misread;
        f.seed = seed;
        out.push_back(f);
      }
  return out;
}

TEST(ReaderFaults, ReaderDropoutsUpToTenPercentNeverMakeAnIrregularity) {
  for (const SimFaults& f : sweep()) {
    Session s = play(f);
    EXPECT_TRUE(s.irregularities.empty()) << describe(f) << ":" << irregular(s);
  }
}

TEST(ReaderFaults, EveryTrickIsCountedUnderFlickerAndDrops) {
  for (const SimFaults& f : sweep()) {
    Session s = play(f);
    for (int board : kBoards) EXPECT_EQ(s.tricks[board], one_to_thirteen()) << describe(f) << ", board " << board;
  }
}

// Law 7: the board goes back once -- also at 10 %, where three flickers running on a full pocket in the
// session's first second (seed 20), before the reader had missed any other reply, once made the board go
// back twice: a reader is noisy until it has heard tags steady_after_reads times.
TEST(ReaderFaults, EachBoardIsReturnedExactlyOnceUnderFlickerAndDrops) {
  for (const SimFaults& f : sweep()) EXPECT_EQ(play(f).returned, kBoards) << describe(f);
}

// A fouled board (North's and East's hands exchanged, Law 87A) is still reported under the same faults,
// and it is the only irregular one.
TEST(ReaderFaults, AFouledBoardIsStillReportedAndTheOnlyIrregularOneUnderFlickerAndDrops) {
  for (const SimFaults& f : sweep()) {
    Session s = play(f, {3});
    ASSERT_EQ(s.irregularities.size(), 1u) << describe(f) << ":" << irregular(s);
    EXPECT_EQ(s.irregularities.begin()->first, 3) << describe(f) << ":" << irregular(s);
    const auto& types = s.irregularities[3];
    EXPECT_NE(std::find(types.begin(), types.end(), "irregularity.card_from_other_hand"), types.end()) << describe(f) << ":" << irregular(s);
    for (int board : kBoards) EXPECT_EQ(s.tricks[board], one_to_thirteen()) << describe(f) << ", board " << board;
  }
}

// A reply missed for a poll (the sim's flicker: a zone read empty once) is no change of reading: the table
// keeps the card and concludes rightly from the same reads, so it does not say that the zone "keeps
// changing; nothing is concluded from it" -- at 3 % missed replies it said so 28 times a session, at 5 %
// 70 times, noise a director learns to ignore. The faults are still seen: the table counts, by reader,
// the tags it heard again after missing them (status's reads_by_device).
TEST(ReaderFaults, MissedRepliesAreCountedByReaderNotSaidAsAZoneThatKeepsChanging) {
  SimFaults f;
  f.flicker = 0.05;
  f.drop = 0.05;
  f.seed = 3;
  const Session s = play(f);
  EXPECT_EQ(s.flicker, 0u) << "missed replies said as flicker";
  EXPECT_GT(s.sim.missed_replies, 0u) << "the missed replies were not counted";
  // The sim misses 5 % of its reads of a card: counted against the reads that heard one, about that.
  EXPECT_GT(s.sim.reads, s.sim.heard);
  EXPECT_GT(s.sim.missed_replies * 100, s.sim.heard * 2) << s.sim.missed_replies << " of " << s.sim.heard;
  EXPECT_LT(s.sim.missed_replies * 100, s.sim.heard * 8) << s.sim.missed_replies << " of " << s.sim.heard;
  f.flicker = 0;
  f.drop = 0;
  EXPECT_EQ(play(f).sim.missed_replies, 0u) << "a reader that misses nothing is counted as missing replies";
}

// Two cards taken for each other, read after read, are a zone that keeps changing: that is still said.
TEST(ReaderFaults, MisreadsBackAndForthAreStillReportedAsFlicker) {
  SimFaults f;
  f.misread = 0.1;
  f.seed = 3;
  EXPECT_GT(play(f).flicker, 0u);
}

}  // namespace
}  // namespace cardtable::devices
