#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "bridge/deal.hpp"

using namespace cardtable::bridge;

namespace {
// The PBN standard's example deal.
constexpr const char* kDeal = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85";
Deal deal(const char* text = kDeal) { return *Deal::parse_pbn(text); }
}  // namespace

// Hand::size and length count in bit arithmetic, not std::popcount (a library call on x86-64 without
// popcnt): the same counts, for no cards, all 52, and any hand.
TEST(Hand, CountsItsCardsAndEachSuitsLength) {
  static_assert(Hand().size() == 0 && Hand::full_deck().size() == 52 && Hand::full_deck().length(Suit::Spades) == 13);
  std::mt19937_64 random(20261129);
  for (int i = 0; i < 10000; ++i) {
    const Hand h = Hand::from_bits(random() >> (i % 64));
    ASSERT_EQ(h.size(), std::popcount(h.bits())) << h.pbn();
    for (Suit s : kDisplaySuits) ASSERT_EQ(h.length(s), std::popcount(h.suit_bits(s))) << h.pbn();
  }
}

TEST(Deal, ParsesPbnStartingAtAnySeat) {
  Deal d = deal();
  EXPECT_TRUE(d.valid());
  EXPECT_EQ(d.hand(Seat::North).pbn(), ".63.AKQ987.A9732");
  EXPECT_EQ(d.hand(Seat::West).pbn(), "KQT2.AT.J6542.85");
  Deal from_west = *Deal::parse_pbn("W:KQT2.AT.J6542.85 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4");
  EXPECT_EQ(from_west, d);
  EXPECT_EQ(d.pbn(Seat::West), "W:KQT2.AT.J6542.85 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4");
}

TEST(Deal, AcceptsRanksInAnyOrderAndTenWrittenAsTen) {
  Deal d = *Deal::parse_pbn("N:.36.QKA789.2379A 84A65.Q5K.10.10JQ6 J973.J98742.3.K4 KQT2.AT.J6542.85");
  EXPECT_EQ(d, deal());
}

TEST(Deal, UnknownHandIsDash) {
  Deal d = *Deal::parse_pbn("N:.63.AKQ987.A9732 - - -");
  EXPECT_FALSE(d.valid());
  EXPECT_TRUE(d.partial_valid());
  EXPECT_EQ(d.pbn(), "N:.63.AKQ987.A9732 - - -");
}

TEST(Deal, ParseErrorsSayWhereAndWhat) {
  Deal::ParseError e;
  EXPECT_FALSE(Deal::parse_pbn("W:vKQT2.AT.J6542.85 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4", &e));
  EXPECT_EQ(e.column, 2u);
  EXPECT_NE(e.message.find("not a rank"), std::string::npos);
  EXPECT_FALSE(Deal::parse_pbn("W:KQT2.AT.J6542.85  - - -", &e));
  EXPECT_NE(e.message.find("one space"), std::string::npos);
  EXPECT_FALSE(Deal::parse_pbn("X:- - - -", &e));
  EXPECT_FALSE(Deal::parse_pbn("N:AKK.... - - -", &e));
  EXPECT_NE(e.message.find("SK appears twice"), std::string::npos);
}

TEST(DealProblems, FourteenInWestTwelveInNorth) {
  Deal d = deal();
  Card c2(Suit::Clubs, Rank::Two);
  d.hand(Seat::North).remove(c2);
  d.hand(Seat::West).add(c2);
  ASSERT_FALSE(d.valid());
  auto p = d.problems();
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].message(), "North holds 12 cards");
  EXPECT_EQ(p[1].message(), "West holds 14 cards");
}

TEST(DealProblems, SameCardTwiceAndMissingCard) {
  Deal d = deal();
  Card c2(Suit::Clubs, Rank::Two), sk(Suit::Spades, Rank::King);
  d.hand(Seat::North).remove(c2);  // North: 12 + the king of spades held by West too = 13 again
  d.hand(Seat::North).add(sk);
  auto p = d.problems();
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].message(), "SK is held by North and West");
  EXPECT_EQ(p[1].message(), "C2 is in no hand");
}

TEST(Deal, RotationTurnsTheBoard) {
  Deal d = deal();
  Deal turned = d.rotated(1);
  // Turned one seat clockwise: East now holds what North was dealt.
  EXPECT_EQ(turned.hand(Seat::East), d.hand(Seat::North));
  EXPECT_EQ(turned.hand(Seat::North), d.hand(Seat::West));
  EXPECT_EQ(rotation_of(rotation_map(1)), 1);
  EXPECT_EQ(rotation_of(rotation_map(3)), 3);
  EXPECT_FALSE(rotation_of(kIdentitySeats));
  EXPECT_EQ(d.rotated(4), d);
}

TEST(Deal, RandomDealsAreValidAndReproducible) {
  std::uint64_t a = 7, b = 7;
  for (int i = 0; i < 1000; ++i) {
    Deal x = random_deal(a);
    EXPECT_TRUE(x.valid());
    EXPECT_EQ(x, random_deal(b));
  }
}
