// A reader's dropped frames in the log: a few lines a window, the rest said as one count, none left out.
#include "devices/drop_log.hpp"

#include <gtest/gtest.h>

namespace cardtable::devices {
namespace {
using namespace std::chrono_literals;
const DropLog::Clock::time_point t0 = DropLog::Clock::time_point{} + 1000s;

TEST(DropLog, ABurstIsSaidInAFewLinesAndOneCountOnceTheWindowIsOver) {
  DropLog log;
  int lines = 0;
  for (int i = 0; i < 1000; ++i) lines += log.take(t0 + i * 1ms) ? 1 : 0;  // a second of garbage
  EXPECT_EQ(lines, DropLog::kSaid);
  EXPECT_FALSE(log.held(t0 + 5s)) << "the window goes on";
  auto held = log.held(t0 + 12s);  // a poll after the burst, no frame dropped since
  ASSERT_TRUE(held);
  EXPECT_EQ(held->frames, 1000u - DropLog::kSaid) << "every frame: said, or counted";
  EXPECT_EQ(held->over, 12s);
  EXPECT_FALSE(log.held(t0 + 30s)) << "said once";
}

TEST(DropLog, AReaderThatStopsSaysWhatItHeldAtOnce) {
  DropLog log;
  for (int i = 0; i < 8; ++i) log.take(t0);
  auto held = log.held(t0 + 1s, true);
  ASSERT_TRUE(held);
  EXPECT_EQ(held->frames, 3u);
  EXPECT_FALSE(log.held(t0 + 1s, true)) << "nothing held, nothing said";
}

TEST(DropLog, AFrameDroppedInANewWindowIsSaidAgain) {
  DropLog log;
  for (int i = 0; i < 7; ++i) log.take(t0);
  ASSERT_TRUE(log.held(t0 + 10s));
  EXPECT_TRUE(log.take(t0 + 10s));
  EXPECT_TRUE(log.take(t0 + 25s));
}

// A window over with frames still held (no poll said them) keeps counting them: none is lost.
TEST(DropLog, FramesHeldPastTheirWindowAreStillCounted) {
  DropLog log;
  for (int i = 0; i < 6; ++i) log.take(t0);
  EXPECT_FALSE(log.take(t0 + 20s));
  auto held = log.held(t0 + 20s);
  ASSERT_TRUE(held);
  EXPECT_EQ(held->frames, 2u);
}

}  // namespace
}  // namespace cardtable::devices
