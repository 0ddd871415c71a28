#include "vision/deck_file.hpp"

#include <gtest/gtest.h>

using cardtable::bridge::Card;
using namespace cardtable::vision;

namespace {
IndexReading index_with(std::vector<float> f) {
  IndexReading i;
  i.feature = std::move(f);
  i.box = cv::Rect2f(0, 0, 4, 4);
  return i;
}
}  // namespace

TEST(DeckFile, EnrolledPrototypesRoundTripAndReadTheNearestCard) {
  const Deck d = make_deck("test", {{Card::parse("SA")->id(), {{1, 0, 0}, {0.9f, 0.1f, 0}}}, {Card::parse("H10")->id(), {{0, 1, 0}}}});
  const Deck again = parse_deck(format_deck(d), "deck");
  EXPECT_EQ(again.dim, 3);
  EXPECT_EQ(again.prototypes.size(), 2U);
  FrameReading r;
  r.indices.push_back(index_with({0.95f, 0.05f, 0.1f}));
  apply_deck(r, again, 0.2, 0.9);
  ASSERT_EQ(r.cards.size(), 1U);
  EXPECT_EQ(r.cards[0].card, Card::parse("SA"));
}

TEST(DeckFile, AnEmbeddingBetweenTwoPrototypesIsRefused) {
  const Deck d = make_deck("test", {{Card::parse("SA")->id(), {{1, 0, 0}}}, {Card::parse("SK")->id(), {{0, 1, 0}}}});
  FrameReading r;
  r.indices.push_back(index_with({1, 1, 0}));
  apply_deck(r, d, 0.2, 0.9);
  EXPECT_TRUE(r.cards.empty());
  EXPECT_EQ(r.refused, 1);
}

TEST(DeckFile, MistakesAreErrorsWithTheLine) {
  EXPECT_THROW(parse_deck("dim 2\ncard SA 1\n", "d"), std::runtime_error);
  EXPECT_THROW(parse_deck("card SA 1 2\n", "d"), std::runtime_error) << "dim first";
  EXPECT_THROW(parse_deck("dim 2\ncard ZZ 1 2\n", "d"), std::runtime_error);
  EXPECT_THROW(parse_deck("dim 2\ncard SA 1 inf\n", "d"), std::runtime_error);
  EXPECT_THROW(parse_deck("dim 2\ncard SA 1 2\ncard SA 1 2\n", "d"), std::runtime_error);
  EXPECT_THROW(parse_deck("dim 2\n", "d"), std::runtime_error);
  // The prototypes' size is said once: a second 'dim' or 'faces' would make the cards after it another size.
  EXPECT_THROW(parse_deck("dim 2\ndim 3\ncard SA 1 2 3\n", "d"), std::runtime_error);
  EXPECT_THROW(parse_deck("faces 8 8\ndim 2\ncard SA 1 2\n", "d"), std::runtime_error);
  // Face thumbnails of 8..64 pixels a side.
  EXPECT_THROW(parse_deck("faces 4 8\n", "d"), std::runtime_error);
  EXPECT_THROW(parse_deck("faces 8 65\n", "d"), std::runtime_error);
  EXPECT_THROW(parse_deck("faces 8\n", "d"), std::runtime_error);
  try {
    parse_deck("deck x\ndim 2\nbanana\n", "deck.txt");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("deck.txt:3"), std::string::npos);
  }
}
