// board.trick: before the embargo everyone may learn how many tricks were played, only a director which
// side won them (another table may still play the board).
#include <gtest/gtest.h>

#include "daemon/trick_tally.hpp"

using namespace cardtable;

namespace {
protocol::WireEvent trick(int board, int number, const std::string& winner) {
  protocol::WireEvent e;
  e.type = "live.trick";
  e.event = "Club";
  e.session = "1";
  e.board = board;
  e.mono = 12.5;
  e.evidence = {{"trick", std::to_string(number)}, {"winner", winner}};
  return e;
}
std::string value(const std::vector<std::pair<std::string, std::string>>& ev, const std::string& key) {
  for (const auto& [k, v] : ev)
    if (k == key) return v;
  return "";
}
}  // namespace

TEST(TrickTally, ThePublicEventSaysHowManyTricksWerePlayedAndOnlyADirectorLearnsWhichSideWonThem) {
  daemon::TrickTally tally;
  daemon::Options identity;
  tally.on_trick(trick(4, 1, "N"), identity, 0);
  tally.on_trick(trick(4, 2, "W"), identity, 0);
  auto e = tally.on_trick(trick(4, 3, "S"), identity, 0);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->type, "board.trick");
  EXPECT_EQ(e->board, 4);
  EXPECT_EQ(e->event, "Club");
  EXPECT_EQ(e->message, "Board 4: 3 tricks played");
  EXPECT_EQ(value(e->evidence, "tricks"), "3");
  EXPECT_EQ(e->evidence.size(), 1u) << "no side, no winner in what every role receives";
  EXPECT_EQ(value(e->card_evidence, "ns"), "2");
  EXPECT_EQ(value(e->card_evidence, "ew"), "1");
  EXPECT_NE(e->card_message.find("trick 3 to North-South"), std::string::npos) << e->card_message;
}

TEST(TrickTally, ATrickTakenBackAndWonByTheOtherSideCountsOnceForTheSideThatWonItLast) {
  daemon::TrickTally tally;
  daemon::Options identity;
  tally.on_trick(trick(1, 1, "N"), identity, 0);
  auto e = tally.on_trick(trick(1, 1, "E"), identity, 0);  // Law 47: a card withdrawn, the trick re-decided
  ASSERT_TRUE(e);
  EXPECT_EQ(value(e->evidence, "tricks"), "1");
  EXPECT_EQ(value(e->card_evidence, "ns"), "0");
  EXPECT_EQ(value(e->card_evidence, "ew"), "1");
}

TEST(TrickTally, TheNextBoardOfASessionCountsFromOneEvenWithoutBoardArrived) {
  daemon::TrickTally tally;
  daemon::Options identity;
  for (int t = 1; t <= 13; ++t) tally.on_trick(trick(1, t, "N"), identity, 0);
  auto e = tally.on_trick(trick(2, 1, "E"), identity, 0);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message, "Board 2: 1 trick played");
}

TEST(TrickTally, AWinnerTheTableCouldNotTellCountsForNeitherSide) {
  daemon::TrickTally tally;
  daemon::Options identity;
  auto e = tally.on_trick(trick(1, 1, "?"), identity, 0);
  ASSERT_TRUE(e);
  EXPECT_EQ(value(e->evidence, "tricks"), "1");
  EXPECT_EQ(value(e->card_evidence, "ns"), "0");
  EXPECT_EQ(value(e->card_evidence, "ew"), "0");
}

TEST(TrickTally, ATrickWithoutNumberOrWinnerMakesNoEvent) {
  daemon::TrickTally tally;
  daemon::Options identity;
  auto no_winner = trick(1, 1, "N");
  no_winner.evidence = {{"trick", "1"}};
  EXPECT_FALSE(tally.on_trick(no_winner, identity, 0));
  EXPECT_FALSE(tally.on_trick(trick(1, 0, "N"), identity, 0));
}
