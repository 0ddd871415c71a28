#include <gtest/gtest.h>

#include "bridge/card.hpp"

using namespace cardtable::bridge;

TEST(Card, IsOneByteOrderedFromClubTwoToSpadeAce) {
  EXPECT_EQ(Card(Suit::Clubs, Rank::Two).id(), 0);
  EXPECT_EQ(Card(Suit::Spades, Rank::Ace).id(), 51);
  EXPECT_LT(Card(Suit::Hearts, Rank::Ace), Card(Suit::Spades, Rank::Two));
  EXPECT_LT(Card(Suit::Hearts, Rank::Nine), Card(Suit::Hearts, Rank::Ten));
}

TEST(Card, TextFormsEveryoneUses) {
  EXPECT_EQ(Card(Suit::Spades, Rank::Ace).str(), "SA");
  EXPECT_EQ(Card(Suit::Hearts, Rank::Ten).str(), "HT");
  EXPECT_EQ(Card(Suit::Clubs, Rank::Two).str(), "C2");
  EXPECT_EQ(Card(Suit::Hearts, Rank::Ten).display(), "\u266510");
  EXPECT_EQ(Card(Suit::Spades, Rank::Queen).display(), "\u2660Q");
}

TEST(Card, ParsesLettersSymbolsAndTenAsTen) {
  EXPECT_EQ(Card::parse("SA"), Card(Suit::Spades, Rank::Ace));
  EXPECT_EQ(Card::parse("ht"), Card(Suit::Hearts, Rank::Ten));
  EXPECT_EQ(Card::parse("H10"), Card(Suit::Hearts, Rank::Ten));
  EXPECT_EQ(Card::parse("10H"), Card(Suit::Hearts, Rank::Ten));
  EXPECT_EQ(Card::parse("\u2666K"), Card(Suit::Diamonds, Rank::King));
  EXPECT_EQ(Card::parse("AS"), Card(Suit::Spades, Rank::Ace));
  EXPECT_FALSE(Card::parse("S1"));
  EXPECT_FALSE(Card::parse("X2"));
  EXPECT_FALSE(Card::parse(""));
  EXPECT_FALSE(Card::parse("SAK"));
}

TEST(Card, EveryCardRoundTripsThroughItsText) {
  for (int id = 0; id < kCards; ++id) {
    Card c = Card::from_id(id);
    EXPECT_EQ(Card::parse(c.str()), c);
    EXPECT_EQ(Card::parse(c.display()), c);
  }
}

TEST(Seat, RotationArithmetic) {
  EXPECT_EQ(left_hand_opponent(Seat::North), Seat::East);
  EXPECT_EQ(left_hand_opponent(Seat::West), Seat::North);
  EXPECT_EQ(partner(Seat::East), Seat::West);
  EXPECT_EQ(right_hand_opponent(Seat::North), Seat::West);
  EXPECT_EQ(rotate(Seat::South, -3), Seat::West);
  EXPECT_EQ(side_of(Seat::South), Side::NorthSouth);
  EXPECT_EQ(side_of(Seat::West), Side::EastWest);
}

TEST(Seat, ParsesLettersAndNames) {
  EXPECT_EQ(parse_seat("N"), Seat::North);
  EXPECT_EQ(parse_seat("w"), Seat::West);
  EXPECT_EQ(parse_seat("South"), Seat::South);
  EXPECT_FALSE(parse_seat("Black"));
  EXPECT_FALSE(parse_seat(""));
}
