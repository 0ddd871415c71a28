#include <gtest/gtest.h>

#include "bridge/board.hpp"

using namespace cardtable::bridge;

TEST(Board, DealerFollowsTheBoardNumber) {
  EXPECT_EQ(dealer_of_board(1), Seat::North);
  EXPECT_EQ(dealer_of_board(2), Seat::East);
  EXPECT_EQ(dealer_of_board(3), Seat::South);
  EXPECT_EQ(dealer_of_board(4), Seat::West);
  EXPECT_EQ(dealer_of_board(17), Seat::North);
}

TEST(Board, VulnerabilityFollowsTheSixteenBoardCycle) {
  const char* expected[16] = {"None", "NS", "EW", "All", "NS", "EW", "All", "None",
                              "EW",   "All", "None", "NS", "All", "None", "NS", "EW"};
  for (int b = 1; b <= 32; ++b) EXPECT_EQ(pbn_name(vulnerability_of_board(b)), expected[(b - 1) % 16]) << "board " << b;
}

TEST(Vulnerability, ReadsEverySpellingSeenInRealFiles) {
  EXPECT_EQ(parse_vulnerability("None "), Vulnerability::None);
  EXPECT_EQ(parse_vulnerability("Love"), Vulnerability::None);
  EXPECT_EQ(parse_vulnerability("-"), Vulnerability::None);
  EXPECT_EQ(parse_vulnerability("N-S "), Vulnerability::NorthSouth);
  EXPECT_EQ(parse_vulnerability("NS"), Vulnerability::NorthSouth);
  EXPECT_EQ(parse_vulnerability("E-W"), Vulnerability::EastWest);
  EXPECT_EQ(parse_vulnerability("Both"), Vulnerability::Both);
  EXPECT_EQ(parse_vulnerability("All"), Vulnerability::Both);
  EXPECT_FALSE(parse_vulnerability("E"));
  EXPECT_FALSE(parse_vulnerability("Black"));
  EXPECT_TRUE(is_vulnerable(Vulnerability::NorthSouth, Side::NorthSouth));
  EXPECT_FALSE(is_vulnerable(Vulnerability::NorthSouth, Side::EastWest));
}
