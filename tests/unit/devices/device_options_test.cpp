// A device's options are read strictly, the same way by every driver: an operator's typo or a value that
// is no number in the option's range is an error naming the device, the option and what it wants -- never
// a default taken in silence (until 2026-11-27 the sim took drop=nan and seed=abc, and the USB readers and
// the sim ignored keys they did not know).
#include <gtest/gtest.h>

#include "devices/device_options.hpp"
#include "devices/sim/simulator_device.hpp"
#include "devices/usb/acr122u_reader.hpp"
#include "devices/usb/board_reader.hpp"
#include "recording_sink.hpp"

namespace cardtable::devices {
namespace {

DeviceConfig config(std::map<std::string, std::string> options, std::string driver = "sim") {
  return DeviceConfig{"dev0", std::move(driver), {}, std::move(options)};
}

TEST(DeviceOptions, AKeyTheDriverDoesNotKnowIsAnErrorListingTheKnownOnes) {
  const auto c = config({{"pol_ms", "50"}}, "acr122u");
  DeviceOptions o(c, {"model", "port", "poll_ms"});
  EXPECT_FALSE(o.ok());
  EXPECT_EQ(o.error(), "dev0: acr122u option 'pol_ms' is unknown (model, port, poll_ms)");
}

TEST(DeviceOptions, AWholeNumberIsAllDigitsAndInItsRange) {
  for (const char* bad : {"", "x", "12x", " 12", "1.5", "0", "101", "99999999999999999999999"}) {
    const auto c = config({{"settle", bad}});
    DeviceOptions o(c, {"settle"});
    EXPECT_FALSE(o.whole("settle", 1, 100)) << bad;
    EXPECT_EQ(o.error(), "dev0: settle=" + std::string(bad) + " is not a whole number in 1..100");
  }
  const auto c = config({{"settle", "7"}});
  DeviceOptions o(c, {"settle", "period_ms"});
  EXPECT_EQ(o.whole("settle", 1, 100), 7);
  EXPECT_FALSE(o.whole("period_ms", 1, 100)) << "absent";
  EXPECT_TRUE(o.ok());
}

TEST(DeviceOptions, ANumberIsFiniteAndInItsRange) {
  for (const char* bad : {"nan", "NaN", "inf", "-inf", "0.5x", " 0.5", "", "1.01", "-0.1", "0x1p-1"}) {
    const auto c = config({{"drop", bad}});
    DeviceOptions o(c, {"drop"});
    EXPECT_FALSE(o.number("drop", 0, 1)) << bad;
    EXPECT_EQ(o.error(), "dev0: drop=" + std::string(bad) + " is not a number in 0..1");
  }
  const auto c = config({{"drop", "0.25"}, {"speed", "1e-3"}});
  DeviceOptions o(c, {"drop", "speed"});
  EXPECT_EQ(o.number("drop", 0, 1), 0.25);
  EXPECT_EQ(o.number("speed", 0.001, 10000), 0.001);
  EXPECT_TRUE(o.ok());
}

TEST(DeviceOptions, AYesOrNoIsOneOfThoseTwoWordsAndTheFirstErrorIsTheOneSaid) {
  const auto c = config({{"loop", "true"}, {"seed", "abc"}});
  DeviceOptions o(c, {"loop", "seed"});
  EXPECT_FALSE(o.yes_no("loop"));
  EXPECT_FALSE(o.whole("seed", 0, 4294967295LL));
  EXPECT_EQ(o.error(), "dev0: loop=true is not yes or no");
}

// The drivers use it: each refuses, before touching a script or the USB bus.
TEST(DeviceOptions, TheSimRefusesAFaultThatIsNoProbabilityASeedThatIsNoNumberAndATypo) {
  std::string error;
  EXPECT_EQ(make_simulator(config({{"script", "x"}, {"drop", "nan"}}), {}, error), nullptr);
  EXPECT_EQ(error, "dev0: drop=nan is not a number in 0..1");
  EXPECT_EQ(make_simulator(config({{"script", "x"}, {"seed", "abc"}}), {}, error), nullptr);
  EXPECT_EQ(error, "dev0: seed=abc is not a whole number in 0..4294967295");
  EXPECT_EQ(make_simulator(config({{"script", "x"}, {"speed", "inf"}}), {}, error), nullptr);
  EXPECT_EQ(error, "dev0: speed=inf is not a number in 0.001..10000");
  EXPECT_EQ(make_simulator(config({{"script", "x"}, {"flick", "0.1"}}), {}, error), nullptr);
  EXPECT_NE(error.find("sim option 'flick' is unknown"), std::string::npos) << error;
}

TEST(DeviceOptions, AUsbReaderRefusesAnOptionItDoesNotKnowAndAPollPeriodOutOfRange) {
  DeviceEnvironment env;
  env.quirks_path = CARDTABLE_SHIPPED_QUIRKS;
  test::RecordingSink sink;
  std::string error;
  Acr122uReader typo(config({{"pol_ms", "50"}}, "acr122u"), env);
  EXPECT_FALSE(typo.start(sink, error));
  EXPECT_EQ(error, "dev0: acr122u option 'pol_ms' is unknown (model, port, poll_ms)");
  Acr122uReader fast(config({{"poll_ms", "5"}}, "acr122u"), env);
  EXPECT_FALSE(fast.start(sink, error));
  EXPECT_EQ(error, "dev0: poll_ms=5 is not a whole number in 10..10000");
}

// A model of the quirk file that speaks another protocol than the driver's was taken: the reader then waited
// for a device it would never take (offer() wants the driver's protocol), saying "no acr122u reader is
// plugged in" with a board plugged in. Refused at start like a model not in the file.
TEST(DeviceOptions, AUsbReaderRefusesAModelOfAnotherProtocol) {
  DeviceEnvironment env;
  env.quirks_path = CARDTABLE_SHIPPED_QUIRKS;
  test::RecordingSink sink;
  std::string error;
  BoardReader board(config({{"model", "acr122u"}}, "cardtable-board"), env);
  EXPECT_FALSE(board.start(sink, error));
  EXPECT_EQ(error, "dev0: model 'acr122u' is a pn53x-ccid reader; cardtable-board takes cardtable-board-v1");
  Acr122uReader acr(config({{"model", "cardtable-board-v1"}}, "acr122u"), env);
  EXPECT_FALSE(acr.start(sink, error));
  EXPECT_EQ(error, "dev0: model 'cardtable-board-v1' is a cardtable-board reader; acr122u takes acr122u, scl3711");
}

// port= empty or not a port path (port=, port=banana) was taken, and the reader waited for ever for a
// device on a port no device has ("no cardtable-board reader on USB port  is plugged in"). Refused at
// start, in the form UsbBus::port_path writes (and `status` shows), which is what offer() compares.
TEST(DeviceOptions, AUsbReaderRefusesAPortThatIsNoUsbPortPath) {
  DeviceEnvironment env;
  env.quirks_path = CARDTABLE_SHIPPED_QUIRKS;
  test::RecordingSink sink;
  for (const char* bad : {"", "banana", "1", "1-", "-2", "1-2.", "1-2..3", "1.2", "01-2", "1-02", "0-1", "1-0", "256-1", "1-256",
                          "1-1.2.3.4.5.6.7.8", " 1-2", "1-2 ", "1--2", "a-1"}) {
    BoardReader board(config({{"port", bad}}, "cardtable-board"), env);
    std::string error;
    EXPECT_FALSE(board.start(sink, error)) << bad;
    EXPECT_EQ(error, "dev0: port=" + std::string(bad) +
                         " is not a USB port path: BUS-PORT[.PORT...] as status shows it, e.g. 1-2 or 3-1.4.2 (numbers 1..255, up to 7 ports)");
    board.stop();
  }
  for (const char* good : {"1-2", "3-1.4.2", "255-255", "1-1.2.3.4.5.6.7"}) EXPECT_TRUE(UsbBus::is_port_path(good)) << good;
}

}  // namespace
}  // namespace cardtable::devices
