// Whole sessions generated from the master record, played with the sim's faults: misreads, dropped reads
// and flicker are absorbed by the table's stability rules, an unplugged reader makes nothing up, and only
// the fouled board has irregularities.
#include <gtest/gtest.h>

#include <map>

#include "bridge/synthetic_record.hpp"
#include "devices/sim/session_script.hpp"
#include "devices/sim/simulator_device.hpp"
#include "table/scenario.hpp"
#include "table/table.hpp"

namespace cardtable::devices {
namespace {

const bridge::MasterRecord& master() {
  static const bridge::MasterRecord m = [] {
    bridge::MasterRecord r;
    bridge::add_synthetic_records(r, 8, 8, 7, "Spring Pairs");
    return r;
  }();
  return m;
}

// The session played through the table, each input passed through the fault injector first (an input
// while the reader is unplugged is lost). Irregularity types by board, and the boards returned.
struct Played {
  std::map<int, std::vector<std::string>> irregularities;
  std::vector<int> returned;
  std::vector<int> arrived;   // board.arrived, by board
  std::vector<int> auctions;  // auction.period_started, by board (0: no board known)
};
Played play(const std::string& text, const SimFaults& faults) {
  std::vector<table::ScenarioError> errors;
  auto sc = table::parse_scenario(text, ".", [](const auto&) -> const bridge::MasterRecord& { return master(); }, errors);
  EXPECT_TRUE(sc) << (errors.empty() ? "" : "line " + std::to_string(errors.front().line) + ": " + errors.front().message);
  Played p;
  if (!sc) return p;
  table::Table table(master(), sc->config);
  FaultInjector injector(faults);
  for (const table::TableInput& in : table::scenario_inputs(*sc)) {
    if (auto faulty = injector.apply(in)) table::apply(table, *faulty);
  }
  for (const table::Event& e : table.take_events()) {
    if (e.event_class() == "irregularity") p.irregularities[e.board].push_back(e.type);
    if (e.type == "board.returned") p.returned.push_back(e.board);
    if (e.type == "board.arrived") p.arrived.push_back(e.board);
    if (e.type == "auction.period_started") p.auctions.push_back(e.board);
  }
  return p;
}

TEST(SessionScript, EveryBoardOfTheSessionIsPlayedAndReturnedCleanly) {
  std::string error;
  auto text = session_scenario(master(), {"Spring Pairs", "1", "3NT S", {}, 80}, error);
  ASSERT_TRUE(text) << error;
  Played p = play(*text, {});
  EXPECT_EQ(p.returned, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_TRUE(p.irregularities.empty()) << p.irregularities.begin()->second.front();
  // Each board is lifted away after its return and the next laid there: one arrival and one auction
  // period a board, none for the board lifted (before: a period of no board at each change of board).
  EXPECT_EQ(p.arrived, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(p.auctions, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(SessionScript, WithMisreadsDropsFlickerAndAnUnpluggedReaderOnlyTheFouledBoardIsIrregular) {
  std::string error;
  auto text = session_scenario(master(), {"Spring Pairs", "1", "3NT S", {3}, 80}, error);
  ASSERT_TRUE(text) << error;
  SimFaults faults;
  faults.drop = 0.05;
  faults.misread = 0.02;
  faults.flicker = 0.02;
  // Board 6's third trick: its fourth card faced at 417 s, the trick gathered at 418 s. The reader is away
  // in between, while nothing changes. (Cards played and gathered while a reader is away are never seen:
  // that the table cannot know -- see devices/README.md.)
  faults.unplug = std::pair<Millis, Millis>{417'200, 700};
  faults.seed = 7;
  Played p = play(*text, faults);
  EXPECT_EQ(p.returned, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}));
  std::string all;
  for (const auto& [board, types] : p.irregularities)
    for (const auto& t : types) all += "board " + std::to_string(board) + ": " + t + "\n";
  ASSERT_EQ(p.irregularities.size(), 1u) << all;
  EXPECT_EQ(p.irregularities.begin()->first, 3);
  EXPECT_FALSE(p.irregularities[3].empty());
}

TEST(SessionScript, ASessionNotInTheRecordIsAnError) {
  std::string error;
  EXPECT_FALSE(session_scenario(master(), {"Spring Pairs", "9", "3NT S", {}, 80}, error));
  EXPECT_EQ(error, "no session '9' of 'Spring Pairs' in the master record");
}

}  // namespace
}  // namespace cardtable::devices
