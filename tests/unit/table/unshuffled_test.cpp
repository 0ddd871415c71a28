// Law 6D2: deals from an unshuffled pack are recognised; random deals are not.
#include <gtest/gtest.h>

#include "../bridge/test_deals.hpp"
#include "table/unshuffled.hpp"

using namespace cardtable::bridge;
using cardtable::table::unshuffled_deals;

TEST(UnshuffledDeal, EachHandOneSuit) {
  // Whoever holds which suit: here East has the spades, North the hearts.
  Deal d = cardtable::bridge::test::four_suits().permuted({Seat::East, Seat::North, Seat::West, Seat::South});
  auto how = unshuffled_deals().match(d);
  ASSERT_TRUE(how);
  EXPECT_NE(how->find("packets of 13"), std::string::npos) << *how;
}

TEST(UnshuffledDeal, SortedByRankCutAndDealtOneAtATime) {
  // Pack A♠ A♥ A♦ A♣ K♠ ... 2♣, cut 5 cards from the top, dealt one at a time.
  std::vector<Card> pack;
  for (int r = kRanks - 1; r >= 0; --r)
    for (Suit s : kDisplaySuits) pack.emplace_back(s, static_cast<Rank>(r));
  std::rotate(pack.begin(), pack.begin() + 5, pack.end());
  Deal d;
  for (std::size_t i = 0; i < pack.size(); ++i) d.hand(static_cast<Seat>(i % 4)).add(pack[i]);
  EXPECT_TRUE(unshuffled_deals().match(d));
}

TEST(UnshuffledDeal, NoRandomDealOfTenThousand) {
  std::uint64_t seed = 123;
  int hits = 0;
  for (int i = 0; i < 10000; ++i) hits += unshuffled_deals().match(random_deal(seed)) ? 1 : 0;
  EXPECT_EQ(hits, 0);
  // The exact count docs/laws.md publishes: 864 pack orders x 52 cuts x 5 ways of dealing give 20,275
  // distinct sets of four hands (x 24 seat assignments / 5.36e28 random deals = 9.1e-24).
  EXPECT_EQ(cardtable::table::UnshuffledDeals::orders(), 864u);
  EXPECT_EQ(unshuffled_deals().size(), 20275u);
}

namespace {
// A pack as it lies face down, top card first, cut and dealt round the table in packets of k.
Deal deal(std::vector<Card> pack, int cut, int k) {
  std::rotate(pack.begin(), pack.begin() + cut, pack.end());
  Deal d;
  std::size_t next = 0;
  for (int seat = 0; next < pack.size(); seat = (seat + 1) % 4)
    for (int i = 0; i < k && d.hand(static_cast<Seat>(seat)).size() < 13 && next < pack.size(); ++i) d.hand(static_cast<Seat>(seat)).add(pack[next++]);
  return d;
}
std::vector<Card> run(Suit s, bool ace_to_king) {
  std::vector<Card> out;
  out.emplace_back(s, Rank::Ace);
  for (int r = 0; r < 12; ++r) out.emplace_back(s, static_cast<Rank>(r));
  if (!ace_to_king) std::reverse(out.begin(), out.end());
  return out;
}
std::vector<Card> cat(std::initializer_list<std::vector<Card>> runs) {
  std::vector<Card> out;
  for (const auto& r : runs) out.insert(out.end(), r.begin(), r.end());
  return out;
}
}  // namespace

TEST(UnshuffledDeal, Law6D2AFreshBicyclePackInNewDeckOrderDealtEveryWay) {
  // Face down, top first: ♥A-K ♣A-K ♦K-A ♠K-A (from the face: ♠A-K ♦A-K ♣K-A ♥K-A).
  auto pack = cat({run(Suit::Hearts, true), run(Suit::Clubs, true), run(Suit::Diamonds, false), run(Suit::Spades, false)});
  for (int k : {1, 2, 3, 4, 13})
    for (int cut : {0, 7, 26, 51}) {
      auto how = unshuffled_deals().match(deal(pack, cut, k));
      ASSERT_TRUE(how) << "packets of " << k << ", cut " << cut;
      EXPECT_NE(how->find("Bicycle/USPCC"), std::string::npos) << *how;
    }
}

TEST(UnshuffledDeal, Law6D2EachSuitItsOwnWayAndHandsSortedByColour) {
  // ♠ ace to king, ♥ king to ace, ♣ ace to king, ♦ king to ace (alternating colours, as a player sorts).
  auto pack = cat({run(Suit::Spades, true), run(Suit::Hearts, false), run(Suit::Clubs, true), run(Suit::Diamonds, false)});
  EXPECT_TRUE(unshuffled_deals().match(deal(pack, 11, 1)));
  EXPECT_TRUE(unshuffled_deals().match(deal(pack, 30, 3)));
}

TEST(UnshuffledDeal, Law6D2RankByRankAceLow) {
  std::vector<Card> pack;
  for (int i = 0; i < 13; ++i)
    for (Suit s : {Suit::Clubs, Suit::Hearts, Suit::Spades, Suit::Diamonds}) pack.emplace_back(s, static_cast<Rank>((i + 12) % 13));
  EXPECT_TRUE(unshuffled_deals().match(deal(pack, 9, 2)));
}

TEST(UnshuffledDeal, Law6D2DealtFromThePreviousBoardsQuittedCards) {
  // The previous board's four piles (each player's cards in the order played), gathered W, N, E, S,
  // South's pile turned over, cut at 20 and dealt one at a time.
  std::uint64_t seed = 99;
  Deal previous_deal = random_deal(seed);
  cardtable::table::PreviousBoard prev;
  prev.name = "Board 6";
  for (Seat s : kAllSeats) previous_deal.hand(s).for_each_descending([&](Card c) { prev.quitted[static_cast<std::size_t>(index(s))].push_back(c); });
  for (std::size_t t = 0; t < 13; ++t)
    for (std::size_t s = 0; s < 4; ++s) prev.tricks.push_back(prev.quitted[s][t]);
  auto south = prev.quitted[2];
  std::reverse(south.begin(), south.end());
  auto pack = cat({prev.quitted[3], prev.quitted[0], prev.quitted[1], south});
  auto how = cardtable::table::UnshuffledDeals::match_previous(deal(pack, 20, 1), prev);
  ASSERT_TRUE(how);
  EXPECT_NE(how->find("Board 6"), std::string::npos) << *how;
  // The tricks gathered in order, dealt in fours.
  EXPECT_TRUE(cardtable::table::UnshuffledDeals::match_previous(deal(prev.tricks, 3, 4), prev));
  // A fresh random deal is none of these.
  EXPECT_FALSE(cardtable::table::UnshuffledDeals::match_previous(random_deal(seed), prev));
}
