#include <gtest/gtest.h>

#include "bridge/pbn_reader.hpp"

using namespace cardtable::bridge;

namespace {
constexpr const char* kDeal = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85";

RecordSet read(const std::string& sections) {
  return read_pbn("[Board \"1\"]\n[Dealer \"N\"]\n[Deal \"" + std::string(kDeal) + "\"]\n" + sections, "t.pbn");
}
}  // namespace

TEST(Auction, CallsNotesAndAllPass) {
  RecordSet s = read("[Auction \"N\"]\n1D 1S =1= 2D! 2S\nPass 3S $1 Pass 4S\nX AP\n[Note \"1:five spades\"]\n");
  ASSERT_EQ(s.boards.size(), 1u);
  EXPECT_TRUE(s.diagnostics.empty()) << s.diagnostics[0].str();
  const Auction& a = *s.boards[0].auction;
  ASSERT_EQ(a.calls.size(), 12u);
  EXPECT_TRUE(a.calls[2].alerted);
  EXPECT_EQ(a.calls[1].note, "five spades");
  EXPECT_TRUE(a.complete());
  auto c = contract_of(a);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->str(), "4SX");
  EXPECT_EQ(c->declarer, Seat::East);  // West bid 4S, but East named spades first
}

TEST(Auction, PassedOutHasNoContract) {
  RecordSet s = read("[Auction \"N\"]\nPass Pass Pass Pass\n");
  EXPECT_TRUE(s.boards[0].auction->complete());
  EXPECT_FALSE(contract_of(*s.boards[0].auction));
}

TEST(Auction, InsufficientBidAndNonsenseAreErrors) {
  RecordSet s = read("[Auction \"N\"]\n2C 1D Pass Xyz\n");
  ASSERT_EQ(s.diagnostics.size(), 2u);
  EXPECT_NE(s.diagnostics[0].message.find("1D is insufficient after 2C"), std::string::npos);
  EXPECT_NE(s.diagnostics[1].message.find("'Xyz' is not a call"), std::string::npos);
}

TEST(Play, ColumnsAreSeatsFromTheOpeningLeaderWithMarksAndDashes) {
  // North declares 6D; East leads. Marks (^R), dashes for cards not played, and "*" to end.
  RecordSet s = read("[Contract \"6D\"]\n[Declarer \"N\"]\n[Play \"E\"]\nS4^R S3 SK -\nHK - HA H3\n*\n");
  ASSERT_EQ(s.boards.size(), 1u);
  EXPECT_TRUE(s.diagnostics.empty()) << s.diagnostics[0].str();
  const Play& p = *s.boards[0].play;
  EXPECT_EQ(p.leader, Seat::East);
  ASSERT_EQ(p.tricks.size(), 2u);
  EXPECT_EQ(p.tricks[0][static_cast<std::size_t>(index(Seat::South))], Card(Suit::Spades, Rank::Three));
  EXPECT_FALSE(p.tricks[0][static_cast<std::size_t>(index(Seat::North))]);
  EXPECT_EQ(p.card_count(), 6);
}

TEST(Play, ACardFromTheWrongHandIsReported) {
  RecordSet s = read("[Play \"E\"]\nSK - - -\n");
  ASSERT_EQ(s.diagnostics.size(), 1u);
  EXPECT_EQ(s.diagnostics[0].message, "Play: SK is played by East, who does not hold it");
}

TEST(Play, TrickWinnerAndPlayedOrder) {
  // East leads the spade ace and wins in notrump, then leads again.
  std::vector<Card> cards = {*Card::parse("SA"), *Card::parse("S3"), *Card::parse("SK"), *Card::parse("H3"),
                             *Card::parse("S4"), *Card::parse("S9"), *Card::parse("SQ"), *Card::parse("D7")};
  Play p = Play::from_order(Seat::East, cards, std::nullopt);
  ASSERT_EQ(p.tricks.size(), 2u);
  EXPECT_EQ(p.tricks[1][static_cast<std::size_t>(index(Seat::East))], *Card::parse("S4"));
  EXPECT_EQ(p.in_order(std::nullopt), cards);
  // With diamonds trumps, North's D7 ruffs the second trick.
  EXPECT_EQ(trick_winner(p.tricks[1], Seat::East, Suit::Diamonds), Seat::North);
  EXPECT_EQ(trick_winner(p.tricks[1], Seat::East, std::nullopt), Seat::West);
}
