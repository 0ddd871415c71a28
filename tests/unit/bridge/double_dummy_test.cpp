#include <gtest/gtest.h>

#include "bridge/double_dummy.hpp"
#include "test_deals.hpp"

using namespace cardtable::bridge;

using test::four_suits;

TEST(DoubleDummy, EachHandHoldingOneSuit) {
  DdResult r = solve_double_dummy(four_suits());
  ASSERT_TRUE(r.table) << r.error;
  // In its own suit a declarer ruffs the opening lead and takes all thirteen.
  EXPECT_EQ(r.table->at(Seat::North, Strain::Spades), 13);
  EXPECT_EQ(r.table->at(Seat::East, Strain::Hearts), 13);
  // In notrump the opening leader runs a thirteen-card suit.
  EXPECT_EQ(r.table->at(Seat::North, Strain::NoTrump), 0);
  EXPECT_EQ(r.table->at(Seat::West, Strain::NoTrump), 0);
  // North in diamonds: South's diamonds are trumps, so North-South take everything.
  EXPECT_EQ(r.table->at(Seat::North, Strain::Diamonds), 13);
}

TEST(DoubleDummy, BatchesAgreeWithSingleDeals) {
  std::uint64_t seed = 5;
  std::vector<Deal> deals;
  for (int i = 0; i < 45; ++i) deals.push_back(random_deal(seed));  // more than one libdds batch
  std::vector<DdResult> batch = solve_double_dummy(deals);
  ASSERT_EQ(batch.size(), deals.size());
  for (std::size_t i : {0u, 39u, 40u, 44u}) {
    DdResult one = solve_double_dummy(deals[i]);
    ASSERT_TRUE(one.table && batch[i].table);
    EXPECT_EQ(*one.table, *batch[i].table) << "deal " << i;
  }
}

TEST(DoubleDummy, AnInvalidDealIsAnErrorNotACrash) {
  Deal d = four_suits();
  d.hand(Seat::North).remove(Card(Suit::Spades, Rank::Ace));
  DdResult r = solve_double_dummy(d);
  EXPECT_FALSE(r.table);
  EXPECT_FALSE(r.error.empty());
}

TEST(Par, SevenSpadesForNorthSouthWhenNorthDealsAndNobodyIsVulnerable) {
  DdResult r = solve_double_dummy(four_suits());
  ASSERT_TRUE(r.table);
  // Every side can make a grand slam in its own suits; the dealer's side bids it first.
  auto p = par(*r.table, Seat::North, Vulnerability::None);
  ASSERT_TRUE(p);
  EXPECT_GT(p->score_ns, 0);
  EXPECT_FALSE(p->contracts.empty());
}

TEST(DdTable, MakingOnlyFormAgreesWhereCountsUnderSevenAreOne) {
  DdTable computed = *DdTable::parse_pbn("86a9786a975633557335");
  DdTable making_only = *DdTable::parse_pbn("81a9781a971111117111");
  EXPECT_TRUE(making_only.making_only_form());
  EXPECT_TRUE(making_only.agrees_with(computed));
  EXPECT_FALSE(computed.making_only_form());
  DdTable wrong = *DdTable::parse_pbn("91a9781a971111117111");
  EXPECT_FALSE(wrong.agrees_with(computed));
  // BridgeNZ writes 6 where the others write 1.
  EXPECT_TRUE(DdTable::parse_pbn("86a9786a976666667666")->agrees_with(computed));
  EXPECT_FALSE(DdTable::parse_pbn("86a9786a976666667656")->agrees_with(computed));
}
