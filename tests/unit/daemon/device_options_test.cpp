// --device NAME=DRIVER:KEY=VALUE,... as an operator writes it: a slip is refused at start, naming it.
#include <gtest/gtest.h>

#include "daemon/device_manager.hpp"

using cardtable::daemon::parse_device_options;

namespace {
std::string refusal(const std::vector<std::string>& devices) {
  try {
    parse_device_options({}, devices, {});
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}
}  // namespace

// One USB port holds one reader: a second device given the same port= waited for ever, warning that no
// reader was plugged in there while the first device had it.
TEST(DeviceOptions, TwoDevicesOnOneUsbPortAreRefused) {
  EXPECT_EQ(refusal({"board0=cardtable-board:port=1-1", "board1=cardtable-board:port=1-1"}),
            "--device board1=cardtable-board:port=1-1: port=1-1 is board0's already (one reader to a USB port)");
  EXPECT_EQ(refusal({"board0=cardtable-board:port=1-1", "board1=cardtable-board:port=1-2"}), "accepted");
}

// A key given twice kept its last value without a word.
TEST(DeviceOptions, AKeyGivenTwiceIsRefused) {
  EXPECT_EQ(refusal({"board0=cardtable-board:port=1-1,poll_ms=50,port=1-2"}),
            "--device board0=cardtable-board:port=1-1,poll_ms=50,port=1-2: option 'port' given twice");
}
