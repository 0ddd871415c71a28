#include <gtest/gtest.h>

#include <bit>

#include "bridge/master_record.hpp"

using namespace cardtable::bridge;

namespace {

BoardRecord board(const std::string& event, const std::string& session, int n, const Deal& d) {
  BoardRecord r;
  r.event = event;
  r.session = session;
  r.board = n;
  r.deal = d;
  return r;
}

class MasterRecordTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::uint64_t seed = 99;
    for (int b = 1; b <= 32; ++b) {
      deals.push_back(random_deal(seed));
      master.add(board("Spring Pairs", "1", b, deals.back()), problems);
    }
  }
  MasterRecord master;
  Diagnostics problems;
  std::vector<Deal> deals;
};

}  // namespace

TEST_F(MasterRecordTest, FindsTheBoardOfADealAsDealt) {
  EXPECT_TRUE(problems.empty());
  auto m = master.lookup(deals[6]);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_TRUE(m[0].exact());
  EXPECT_EQ(master.board(m[0].entry).board, 7);
  EXPECT_EQ(master.describe(m[0].entry), "Spring Pairs / 1, board 7");
  EXPECT_EQ(master.board(m[0].entry).dealer, Seat::South);
}

TEST_F(MasterRecordTest, FindsABoardTurnedByOneTwoOrThreeSeats) {
  for (int steps = 1; steps <= 3; ++steps) {
    auto m = master.lookup_first(deals[11].rotated(steps));
    ASSERT_TRUE(m);
    EXPECT_EQ(master.board(m->entry).board, 12);
    EXPECT_EQ(m->rotation(), steps);
  }
}

TEST_F(MasterRecordTest, FindsHandsSwappedBetweenPocketsAndSaysWhich) {
  SeatMap swap_ns = {Seat::South, Seat::East, Seat::North, Seat::West};
  auto m = master.lookup_first(deals[3].permuted(swap_ns));
  ASSERT_TRUE(m);
  EXPECT_FALSE(m->rotation());
  EXPECT_EQ(m->map, swap_ns);
  EXPECT_EQ(m->describe(), "hands permuted (N<-S E<-E S<-N W<-W)");
}

TEST_F(MasterRecordTest, ADealNotInTheRecordOrNotADealIsNotFound) {
  std::uint64_t other = 12345;
  EXPECT_TRUE(master.lookup(random_deal(other)).empty());
  Deal broken = deals[0];
  Card moved = Card::from_id(63 - std::countl_zero(broken.hand(Seat::North).bits()));  // North's highest card
  broken.hand(Seat::North).remove(moved);
  broken.hand(Seat::East).add(moved);  // 12 and 14 cards: no deal of the record
  EXPECT_TRUE(master.lookup(broken).empty());
  EXPECT_FALSE(master.lookup_first(broken));
}

TEST_F(MasterRecordTest, FindsBoardsByEventSessionAndNumber) {
  auto i = master.find("Spring Pairs", "1", 9);
  ASSERT_TRUE(i);
  EXPECT_EQ(master.board(*i).deal, deals[8]);
  EXPECT_FALSE(master.find("Spring Pairs", "2", 9));
  EXPECT_FALSE(master.find("Spring Pairs", "1", 33));
}

TEST_F(MasterRecordTest, TheSameBoardFromEveryTableIsKeptOnce) {
  master.add(board("Spring Pairs", "1", 5, deals[4]), problems);
  EXPECT_EQ(master.size(), 32u);
  EXPECT_TRUE(problems.empty());
  EXPECT_TRUE(master.duplicates().empty());
}

TEST_F(MasterRecordTest, TheSameBoardWithAnotherDealIsAConflict) {
  master.add(board("Spring Pairs", "1", 5, deals[20]), problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].message.find("board 5 of Spring Pairs / 1 appears again with a different deal"), std::string::npos);
  EXPECT_EQ(master.board(*master.find("Spring Pairs", "1", 5)).deal, deals[4]);
}

TEST_F(MasterRecordTest, DealsThatAppearTwiceAreListed) {
  master.add(board("Spring Pairs", "2", 1, deals[9].rotated(2)), problems);
  ASSERT_EQ(master.duplicates().size(), 1u);
  const DuplicateDeal& d = master.duplicates()[0];
  EXPECT_EQ(master.board(d.first).board, 10);
  EXPECT_EQ(master.describe(d.second), "Spring Pairs / 2, board 1");
  EXPECT_EQ(rotation_of(d.map), 2);
  // Both are found, the exact one first.
  auto m = master.lookup(deals[9]);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_TRUE(m[0].exact());
}

TEST(MasterRecord, AMillionBoardsWouldFitIn200MegabytesByConstruction) {
  static_assert(sizeof(MasterBoard) <= 40);
  MasterRecord m;
  Diagnostics p;
  std::uint64_t seed = 1;
  for (int i = 0; i < 10000; ++i) {
    BoardRecord r;
    r.event = "E";
    r.session = std::to_string(i / 32);
    r.board = i % 32 + 1;
    r.deal = random_deal(seed);
    m.add(r, p);
  }
  EXPECT_EQ(m.size(), 10000u);
  EXPECT_LT(m.memory_bytes() / 10000, 200u);  // bytes per board, indexes included
}
