// A reader with poll_ms=2000 under the default --silence 5 had its zones called silent, and heard again,
// whenever two polls running went unanswered (6 s without a reading); one at 2500 at every unanswered poll.
// The daemon refuses such a start, and says once in the log when a reader arrives polled too slowly for it.
// The real readers and daemon are in usb_readers_test and cardtabled_readers_test; here, the rule.
#include <gtest/gtest.h>

#include "daemon/poll_silence.hpp"

namespace cardtable::daemon {
namespace {

// A device that reads on the beat a test gives it: the one thing PollSilence asks of a device.
class Beat : public devices::Device {
 public:
  explicit Beat(int poll_ms) : Device(devices::DeviceConfig{"board0", "cardtable-board", {}, {}}), poll_ms_(poll_ms) {}
  bool start(devices::DeviceSink&, std::string&) override { return true; }
  void stop() override {}
  bool present() const override { return true; }
  int poll_ms() const override { return poll_ms_; }
  int poll_ms_;
};

TEST(PollSilence, ASilenceOfThreePollsOrMoreServesTheReader) {
  const PollSilence silence(5000);
  EXPECT_FALSE(silence.at_start(Beat(100)));
  EXPECT_FALSE(silence.at_start(Beat(1666)));
  EXPECT_FALSE(silence.at_start(Beat(0))) << "a device on no beat of its own (the sim, a camera)";
}

TEST(PollSilence, ASilenceUnderThreePollsIsRefusedAtStartNamingTheDeviceAndTheSilenceToGive) {
  const PollSilence silence(5000);
  EXPECT_EQ(silence.at_start(Beat(2000)),
            "board0 reads its zones every 2000 ms: --silence 5 is under three of those reads: one or two missed would call its zones silent; "
            "give --silence 6 or more, or a shorter poll_ms=");
  EXPECT_NE(PollSilence(1000).at_start(Beat(500)).value_or("").find("--silence 1 is under three of those reads: one or two missed would call its zones silent; "
                                                                     "give --silence 1.5 or more"),
            std::string::npos);
}

// A recording replayed at one frame every 2 s: the advice names the camera's own option.
TEST(PollSilence, TheAdviceNamesTheOptionThatSetsTheDevicesPeriod) {
  struct Recording : Beat {
    using Beat::Beat;
    std::string poll_option() const override { return "period_ms"; }
  };
  const auto why = PollSilence(5000).at_start(Recording(2000));
  ASSERT_TRUE(why);
  EXPECT_TRUE(why->ends_with("give --silence 6 or more, or a shorter period_ms=")) << *why;
}

TEST(PollSilence, AReaderArrivingPolledTooSlowlyIsSaidOnceAndAgainOnlyWhenItsPeriodChanges) {
  PollSilence silence(5000);
  Beat board(2500);  // its HELLO said it scans no faster
  EXPECT_EQ(silence.on_added(board),
            "board0 reads its zones every 2500 ms: --silence 5 is under three of those reads: one or two missed would call its zones silent; "
            "give --silence 7.5 or more");
  EXPECT_FALSE(silence.on_added(board)) << "plugged back in: said already";
  board.poll_ms_ = 4000;  // another board in its place, slower still
  EXPECT_NE(silence.on_added(board).value_or("").find("give --silence 12 or more"), std::string::npos);
  board.poll_ms_ = 50;
  EXPECT_FALSE(silence.on_added(board));
}

}  // namespace
}  // namespace cardtable::daemon
