// The latency summary in `status`: nearest-rank median and p99 over the last samples, the oldest forgotten.
#include <gtest/gtest.h>

#include "daemon/latency_window.hpp"

namespace cardtable::daemon {
namespace {
using std::chrono::microseconds;

TEST(LatencyWindow, SaysNothingBeforeTheFirstSample) {
  LatencyWindow w;
  EXPECT_EQ(w.summary(), (nlohmann::json{{"samples", 0}}));
}

TEST(LatencyWindow, MedianAndP99AreSamplesByNearestRank) {
  LatencyWindow w;
  for (int us = 1; us <= 100; ++us) w.add(microseconds(us));
  auto s = w.summary();
  EXPECT_EQ(s["samples"], 100);
  EXPECT_EQ(s["median_us"], 50);
  EXPECT_EQ(s["p99_us"], 99);
  EXPECT_EQ(s["max_us"], 100);
}

TEST(LatencyWindow, OnlyTheLastCapacitySamplesCount) {
  LatencyWindow w(4);
  for (int us : {1000, 1000, 1000, 1000, 1, 2, 3, 4}) w.add(microseconds(us));
  auto s = w.summary();
  EXPECT_EQ(s["samples"], 8);
  EXPECT_EQ(s["max_us"], 4);
  EXPECT_EQ(s["median_us"], 2);
}

}  // namespace
}  // namespace cardtable::daemon
