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
  EXPECT_LE(unshuffled_deals().size(), 96u * 52u * 5u);
}
