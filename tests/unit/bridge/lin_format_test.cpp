#include <gtest/gtest.h>

#include "bridge/lin_format.hpp"

using namespace cardtable::bridge;

namespace {
// Hands as LIN lists them: South, West, North, East.
constexpr const char* kHands = "S25H79TD35AC357JA,S368JQH28ADJKC68Q,S79TAH356KD26789C,SK4HQJ4DQT4CKT942";
}

TEST(LinReader, DealerDigitAndHandsInLinOrder) {
  RecordSet s = read_lin(std::string("pn|a,b,c,d|st||md|3") + kHands + "|rh||ah|Board 7|sv|b|pg||\n", "t.lin");
  ASSERT_EQ(s.boards.size(), 1u);
  EXPECT_TRUE(s.diagnostics.empty()) << s.diagnostics[0].str();
  const BoardRecord& r = s.boards[0];
  EXPECT_EQ(r.dealer, Seat::North);  // 3 = North
  EXPECT_EQ(r.board, 7);
  EXPECT_EQ(r.vulnerability, Vulnerability::Both);
  EXPECT_EQ(r.deal->hand(Seat::South).pbn(), "52.T97.A53.AJ753");
  EXPECT_EQ(r.deal->hand(Seat::East).pbn(), "K4.QJ4.QT4.KT942");
  EXPECT_EQ(*r.tag("South"), "a");
  EXPECT_EQ(*r.tag("East"), "d");
}

TEST(LinReader, FourthHandMayBeOmitted) {
  std::string three = "md|1S25H79TD35AC357JA,S368JQH28ADJKC68Q,S79TAH356KD26789C,|sv|o|";
  RecordSet s = read_lin(three, "t.lin");
  ASSERT_EQ(s.boards.size(), 1u);
  EXPECT_TRUE(s.boards[0].deal->valid());
  EXPECT_EQ(s.boards[0].deal->hand(Seat::East).pbn(), "K4.QJ4.QT4.KT942");
  EXPECT_EQ(s.boards[0].dealer, Seat::South);
}

TEST(LinReader, VulnerabilityLetters) {
  const char* letters[] = {"o", "0", "n", "e", "b"};
  Vulnerability want[] = {Vulnerability::None, Vulnerability::None, Vulnerability::NorthSouth, Vulnerability::EastWest, Vulnerability::Both};
  for (int i = 0; i < 5; ++i) {
    RecordSet s = read_lin(std::string("md|1") + kHands + "|sv|" + letters[i] + "|", "t.lin");
    ASSERT_EQ(s.boards.size(), 1u);
    EXPECT_EQ(s.boards[0].vulnerability, want[i]) << letters[i];
  }
}

TEST(LinReader, AuctionAlertsNotesPlayInEitherCaseAndClaim) {
  std::string text = std::string("md|3") + kHands + "|sv|o|mb|1H|mb|p|mb|3C!|an|jacoby 2N|mb|p|mb|4H|mb|p|mb|p|mb|p|"
                     "pc|c2|pc|C3|pc|cA|pc|cJ|pg||mc|10|";
  RecordSet s = read_lin(text, "t.lin");
  ASSERT_EQ(s.boards.size(), 1u);
  EXPECT_TRUE(s.diagnostics.empty()) << s.diagnostics[0].str();
  const BoardRecord& r = s.boards[0];
  ASSERT_EQ(r.auction->calls.size(), 8u);
  EXPECT_TRUE(r.auction->calls[2].alerted);
  EXPECT_EQ(r.auction->calls[2].note, "jacoby 2N");
  EXPECT_EQ(*r.tag("Contract"), "4H");
  EXPECT_EQ(*r.tag("Declarer"), "N");
  EXPECT_EQ(r.play->leader, Seat::East);
  EXPECT_EQ(r.play->card_count(), 4);
  EXPECT_EQ(*r.tag("Result"), "10");
}

TEST(LinReader, VugraphFileWithSeveralBoardsAndUnknownKeys) {
  std::string text = "vg|Bermuda Bowl,Final seg 1,I,1,16,A,0,B,0|\nrs|4HE=,3NW+1|\npn|a,b,c,d,e,f,g,h|pg||\n"
                     "qx|o1|st||md|1" + std::string(kHands) + "|sv|o|zz|whatever|nt|hello|pg||\n"
                     "qx|c1|st||md|1" + std::string(kHands) + "|sv|o|pg||\n"
                     "qx|o2|st||md|2" + std::string(kHands) + "|sv|n|pg||\n";
  RecordSet s = read_lin(text, "t.lin");
  ASSERT_EQ(s.boards.size(), 3u);
  EXPECT_TRUE(s.diagnostics.empty()) << s.diagnostics[0].str();
  EXPECT_EQ(s.boards[0].event, "Bermuda Bowl");
  EXPECT_EQ(s.boards[0].session, "Final seg 1");
  EXPECT_EQ(*s.boards[1].tag("Room"), "Closed");
  EXPECT_EQ(s.boards[2].board, 2);
  EXPECT_EQ(s.boards[2].dealer, Seat::West);
}

TEST(LinReader, GarbageIsReportedNeverFatal) {
  RecordSet s = read_lin("md|9xyz|sv|q|pc|zz|mb|??|md|1SAKQ,,,|nonsense", "t.lin");
  EXPECT_GE(s.diagnostics.size(), 4u);
}

TEST(LinReader, AllPassAfterAPassedOutAuctionEnds) {
  // Found by fuzzing: "ap" after five passes once added passes for ever.
  RecordSet s = read_lin(std::string("md|1") + kHands + "|mb|p|mb|p|mb|p|mb|p|mb|p|mb|ap|mb|1C|mb|ap|", "t.lin");
  ASSERT_EQ(s.boards.size(), 1u);
  EXPECT_LE(s.boards[0].auction->calls.size(), 10u);
}
