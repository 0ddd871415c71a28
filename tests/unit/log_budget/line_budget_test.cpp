// The shared log policy: a budget of lines a window, the rest said once as one count, none lost.
#include "log_budget/line_budget.hpp"

#include <gtest/gtest.h>

namespace cardtable::log_budget {
namespace {
using namespace std::chrono_literals;
const LineBudget::Clock::time_point t0 = LineBudget::Clock::time_point{} + 1000s;

TEST(LineBudget, AWindowGivesItsBudgetOfLinesAndCountsTheRest) {
  LineBudget budget(3, 1s);
  int lines = 0;
  for (int i = 0; i < 100; ++i) lines += budget.take(t0 + i * 5ms) ? 1 : 0;
  EXPECT_EQ(lines, 3);
  EXPECT_FALSE(budget.held(t0 + 999ms)) << "the window goes on";
}

TEST(LineBudget, EachWindowHasItsOwnBudget) {
  LineBudget budget(2, 10s);
  for (int i = 0; i < 5; ++i) budget.take(t0);
  ASSERT_TRUE(budget.held(t0 + 10s));
  EXPECT_TRUE(budget.take(t0 + 10s));
  EXPECT_TRUE(budget.take(t0 + 11s));
  EXPECT_FALSE(budget.take(t0 + 12s));
  ASSERT_TRUE(budget.held(t0 + 40s));
  EXPECT_TRUE(budget.take(t0 + 40s)) << "its count said, a new window starts at the next occurrence";
  EXPECT_TRUE(budget.take(t0 + 60s)) << "a quiet window over, with nothing held";
}

TEST(LineBudget, TheCountIsSaidOnceWithTheTimeItCovers) {
  LineBudget budget(1, 10s);
  for (int i = 0; i < 4; ++i) budget.take(t0 + i * 1s);
  auto held = budget.held(t0 + 12s);
  ASSERT_TRUE(held);
  EXPECT_EQ(held->count, 3u);
  EXPECT_EQ(held->over, 12s);
  EXPECT_FALSE(budget.held(t0 + 30s)) << "said once";
  EXPECT_FALSE(budget.held(t0 + 30s, true)) << "said once, even when closing";
}

TEST(LineBudget, ClosingSaysTheCountBeforeTheWindowIsOver) {
  LineBudget budget(1, 10s);
  budget.take(t0);
  budget.take(t0);
  auto held = budget.held(t0 + 1s, true);
  ASSERT_TRUE(held);
  EXPECT_EQ(held->count, 1u);
}

// Whatever the timing: every occurrence is said on a line of its own or in exactly one count.
TEST(LineBudget, NothingIsSilentlyLost) {
  LineBudget budget(4, 1s);
  std::uint64_t said = 0, counted = 0, n = 0;
  for (int ms = 0; ms < 20'000; ms += 7) {
    ++n;
    said += budget.take(t0 + std::chrono::milliseconds(ms)) ? 1u : 0u;
    if (ms % 3 == 0)  // polled now and then, not at every occurrence
      if (auto held = budget.held(t0 + std::chrono::milliseconds(ms))) counted += held->count;
  }
  if (auto held = budget.held(t0 + 20s, true)) counted += held->count;
  EXPECT_EQ(said + counted, n);
  EXPECT_LE(said, 4u * 21u) << "at most the budget in each window";
}

}  // namespace
}  // namespace cardtable::log_budget
