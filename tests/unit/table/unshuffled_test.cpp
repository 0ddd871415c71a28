// Law 6D2: deals from an unshuffled pack are recognised; random deals are not.
#include <gtest/gtest.h>

#include "table/unshuffled.hpp"

using namespace cardtable::bridge;
using cardtable::table::unshuffled_deals;

TEST(UnshuffledDeal, EachHandOneSuit) {
  Deal d;
  for (int r = 0; r < kRanks; ++r) {
    d.hand(Seat::North).add(Card(Suit::Hearts, static_cast<Rank>(r)));
    d.hand(Seat::East).add(Card(Suit::Spades, static_cast<Rank>(r)));
    d.hand(Seat::South).add(Card(Suit::Clubs, static_cast<Rank>(r)));
    d.hand(Seat::West).add(Card(Suit::Diamonds, static_cast<Rank>(r)));
  }
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
  EXPECT_LE(unshuffled_deals().size(), 96u * 52u * 5u);
}
