#include "vision/deck_file.hpp"

#include <gtest/gtest.h>

#include <map>

using cardtable::bridge::Card;
using namespace cardtable::vision;

namespace {
constexpr int kDim = 56;

IndexReading index_with(std::vector<float> f) {
  IndexReading i;
  i.feature = std::move(f);
  i.box = cv::Rect2f(0, 0, 4, 4);
  return i;
}

// An embedding of kDim numbers: `weights` on the axes named (card k's axis is k).
std::vector<float> along(std::initializer_list<std::pair<int, float>> weights) {
  std::vector<float> v(kDim, 0.0f);
  for (const auto& [axis, w] : weights) v[static_cast<std::size_t>(axis)] = w;
  return v;
}

// Photos' embeddings of the whole pack: card k along axis k, with `extra` added for some cards.
std::map<int, std::vector<std::vector<float>>> pack(std::map<int, std::vector<std::vector<float>>> extra = {}) {
  std::map<int, std::vector<std::vector<float>>> samples;
  for (int id = 0; id < 52; ++id) samples[id] = extra.contains(id) ? extra[id] : std::vector<std::vector<float>>{along({{id, 1.0f}})};
  return samples;
}

const int kSA = Card::parse("SA")->id(), kSK = Card::parse("SK")->id(), kH10 = Card::parse("H10")->id();
}  // namespace

TEST(DeckFile, EnrolledPrototypesRoundTripAndReadTheNearestCard) {
  // Two photos of the ace (the second a little towards axis 53), averaged into one prototype.
  const Deck d = make_deck("test", pack({{kSA, {along({{kSA, 1.0f}}), along({{kSA, 0.9f}, {53, 0.1f}})}}}));
  const Deck again = parse_deck(format_deck(d), "deck");
  EXPECT_EQ(again.dim, kDim);
  EXPECT_EQ(again.prototypes.size(), 52U);
  FrameReading r;
  r.indices.push_back(index_with(along({{kSA, 0.95f}, {kH10, 0.05f}, {54, 0.1f}})));
  apply_deck(r, again, 0.2, 0.9);
  ASSERT_EQ(r.cards.size(), 1U);
  EXPECT_EQ(r.cards[0].card, Card::parse("SA"));
}

TEST(DeckFile, AnEmbeddingBetweenTwoPrototypesIsRefused) {
  const Deck d = make_deck("test", pack());
  FrameReading r;
  r.indices.push_back(index_with(along({{kSA, 1.0f}, {kSK, 1.0f}})));
  apply_deck(r, d, 0.2, 0.9);
  EXPECT_TRUE(r.cards.empty());
  EXPECT_EQ(r.refused, 1);
}

// A deck of two cards was read without a word (2026-11-29): an index of any other card was matched to the
// nearer of the two, so a queen could be read as the ace -- a false card. Every deck holds the pack.
TEST(DeckFile, ADeckLackingACardIsRefusedNamingIt) {
  auto samples = pack();
  samples.erase(Card::parse("C2")->id());
  samples.erase(Card::parse("SQ")->id());
  const Deck d = make_deck("short", samples);
  EXPECT_EQ(missing_cards(d), "C2 SQ");
  try {
    parse_deck(format_deck(d), "short.txt");
    FAIL() << "a deck of 50 cards was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("short.txt: lacks C2 SQ"), std::string::npos) << e.what();
  }
  FrameReading r;
  r.indices.push_back(index_with(along({{Card::parse("SQ")->id(), 1.0f}})));
  EXPECT_THROW(apply_deck(r, d, 0.2, 0.9), std::runtime_error) << "matched against a deck that lacks the card seen";
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
