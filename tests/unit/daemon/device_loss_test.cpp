// A reader unplugged makes its zones unknown, never an irregularity; plugged back, they read again. Each
// is said once, with its real cause, not a second time by the table's own silence.
#include <gtest/gtest.h>

#include "daemon/device_loss.hpp"

namespace cardtable::daemon {
namespace {

table::Zone zone(std::string_view text) {
  return *table::Zone::parse(text);
}

devices::DeviceEvent device_event(devices::DeviceEvent::Kind kind, std::vector<table::Zone> zones,
                                  std::string reason = {}) {
  devices::DeviceEvent d;
  d.kind = kind;
  d.device = "reader0";
  d.zones = std::move(zones);
  d.reason = std::move(reason);
  return d;
}

table::Event table_event(std::string type, std::string zone, std::string cause) {
  table::Event e;
  e.type = std::move(type);
  e.evidence = {{"zone", std::move(zone)}, {"cause", std::move(cause)}};
  return e;
}

std::string value(const protocol::WireEvent& e, const std::string& key) {
  for (const auto& [k, v] : e.evidence)
    if (k == key) return v;
  return "";
}

std::vector<std::string> types(const std::vector<protocol::WireEvent>& events) {
  std::vector<std::string> t;
  for (const auto& e : events) t.push_back(e.type);
  return t;
}

const auto kLost = devices::DeviceEvent::Kind::Lost;
const auto kAdded = devices::DeviceEvent::Kind::Added;

TEST(DeviceLoss, AZoneLostWithItsDeviceIsSaidUnknownAndComesBackWithIt) {
  DeviceLoss loss;
  Options identity;
  auto lost = loss.on_device_event(device_event(kLost, {zone("play:N"), zone("play:E")}, "unplugged"),
                                   "acr122u", identity, 0, 0);
  ASSERT_EQ(types(lost), (std::vector<std::string>{"device.lost", "reading.uncertain", "reading.uncertain"}));
  EXPECT_EQ(lost[0].severity, "warning");
  EXPECT_EQ(value(lost[0], "driver"), "acr122u");
  EXPECT_EQ(value(lost[0], "zones"), "play:N,play:E");
  EXPECT_EQ(value(lost[0], "reason"), "unplugged");
  EXPECT_EQ(value(lost[1], "zone"), "play:N");
  EXPECT_EQ(value(lost[1], "cause"), "device lost");
  EXPECT_EQ(value(lost[2], "zone"), "play:E");

  auto back =
      loss.on_device_event(device_event(kAdded, {zone("play:N"), zone("play:E")}), "acr122u", identity, 0, 0);
  ASSERT_EQ(types(back), (std::vector<std::string>{"device.added", "reading.resumed", "reading.resumed"}));
  EXPECT_EQ(back[0].severity, "info");
  EXPECT_EQ(value(back[1], "zone"), "play:N");
  EXPECT_EQ(value(back[1], "cause"), "device back");
  EXPECT_EQ(value(back[1], "source"), "reader0");
}

TEST(DeviceLoss, ADeviceAddedAtStartResumesNothing) {
  DeviceLoss loss;
  auto added = loss.on_device_event(device_event(kAdded, {zone("play:N")}), "sim", {}, 0, 0);
  EXPECT_EQ(types(added), (std::vector<std::string>{"device.added"}));
}

TEST(DeviceLoss, ADeviceBackResumesOnlyOnceTheZonesItsLossMadeUnknown) {
  DeviceLoss loss;
  loss.on_device_event(device_event(kLost, {zone("play:N")}), "", {}, 0, 0);
  EXPECT_EQ(types(loss.on_device_event(device_event(kAdded, {zone("play:N"), zone("dummy")}), "", {}, 0, 0)),
            (std::vector<std::string>{"device.added", "reading.resumed"}));
  EXPECT_EQ(types(loss.on_device_event(device_event(kAdded, {zone("play:N")}), "", {}, 0, 0)),
            (std::vector<std::string>{"device.added"}));
}

TEST(DeviceLoss, AnErrorIsSaidButMakesNoZoneUnknown) {
  DeviceLoss loss;
  auto error = loss.on_device_event(
      device_event(devices::DeviceEvent::Kind::Error, {zone("play:N")}, "bulk read: timeout"), "", {}, 0, 0);
  ASSERT_EQ(types(error), (std::vector<std::string>{"device.error"}));
  EXPECT_EQ(error[0].severity, "warning");
  EXPECT_EQ(types(loss.on_device_event(device_event(kAdded, {zone("play:N")}), "", {}, 0, 0)),
            (std::vector<std::string>{"device.added"}));
}

TEST(DeviceLoss, TheTablesSilenceOfALostDevicesZoneIsLeftOutAndSoIsItsEnd) {
  DeviceLoss loss;
  auto lost = [](const table::Zone& z) { return z == zone("play:N"); };
  EXPECT_TRUE(loss.leaves_out(table_event("reading.uncertain", "play:N", "silent"), lost))
      << "said already: device lost";
  EXPECT_TRUE(loss.leaves_out(table_event("reading.resumed", "play:N", ""), lost))
      << "said by the device's return";
  EXPECT_FALSE(loss.leaves_out(table_event("reading.resumed", "play:N", ""), lost)) << "once only";
}

TEST(DeviceLoss, TheTableKeepsSayingWhatTheLossDoesNotExplain) {
  DeviceLoss loss;
  auto lost = [](const table::Zone& z) { return z == zone("play:N"); };
  EXPECT_FALSE(loss.leaves_out(table_event("reading.uncertain", "play:E", "silent"), lost))
      << "its device reads";
  EXPECT_FALSE(loss.leaves_out(table_event("reading.resumed", "play:E", ""), lost));
  EXPECT_FALSE(loss.leaves_out(table_event("reading.uncertain", "play:N", "disagreement"), lost))
      << "another cause";
  EXPECT_FALSE(loss.leaves_out(table_event("irregularity.revoke", "play:N", "silent"), lost));
}

}  // namespace
}  // namespace cardtable::daemon
