// LogThrottle: a refusal a client can repeat in a loop gets a line in 10 s; the rest are counted, and the
// count is said -- with the next refusal, or on a line of its own once its window is over (the console's
// tick), or when the console stops. No count is lost, none is said twice.
#include "console/log_throttle.hpp"

#include <gtest/gtest.h>

using cardtable::console::LogThrottle;
using namespace std::chrono_literals;

namespace {
const LogThrottle::Clock::time_point t0{1h};
}

TEST(LogThrottle, TheFirstRefusalOfAWindowIsLoggedTheRestCounted) {
  LogThrottle log("connections refused");
  EXPECT_EQ(log.due(t0), "");
  EXPECT_FALSE(log.due(t0 + 1s));
  EXPECT_FALSE(log.due(t0 + 2s));
}

TEST(LogThrottle, TheNextRefusalAfterTheWindowCarriesTheCount) {
  LogThrottle log("connections refused");
  log.due(t0);
  log.due(t0 + 1s);
  log.due(t0 + 2s);
  EXPECT_EQ(log.due(t0 + 12s), " (and 2 more connections refused in the last 12 s, not logged one by one)");
  EXPECT_FALSE(log.overdue(t0 + 30s)) << "the count was said once already";
}

// The flood's last window: no refusal comes after it, so the count was never said.
TEST(LogThrottle, AFloodThatEndsHasItsCountSaidWhenItsWindowIsOver) {
  LogThrottle log("connections refused");
  log.due(t0);
  for (int i = 1; i <= 40; ++i) log.due(t0 + i * 100ms);
  EXPECT_FALSE(log.overdue(t0 + 9s)) << "its window goes on: more may come into the same count";
  EXPECT_EQ(log.overdue(t0 + 10s), "40 more connections refused in the last 10 s, not logged one by one");
  EXPECT_FALSE(log.overdue(t0 + 11s));
  EXPECT_EQ(log.due(t0 + 12s), "") << "the next refusal starts a window with nothing held";
}

TEST(LogThrottle, StoppingSaysTheCountOfAWindowThatGoesOn) {
  LogThrottle log("logins refused as busy");
  log.due(t0);
  log.due(t0 + 1s);
  EXPECT_EQ(log.overdue(t0 + 3s, true), "1 more logins refused as busy in the last 3 s, not logged one by one");
}

TEST(LogThrottle, NothingHeldNothingSaid) {
  LogThrottle log("connections refused");
  EXPECT_FALSE(log.overdue(t0, true));
  log.due(t0);
  EXPECT_FALSE(log.overdue(t0 + 20s, true)) << "one refusal, logged on its own line: no count";
}
