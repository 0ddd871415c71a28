// The simulated table: plays a script through the sink like a reader, loops without looking like a silent
// reader, and injects faults deterministically.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "devices/sim/simulator_device.hpp"
#include "recording_sink.hpp"

namespace cardtable::devices {
namespace {

using table::TableInput;

Zone zone(const char* text) { return *Zone::parse(text); }

// Ticks every 100 ms from 0 to 1000; play:N reads the spade ace from 500 on, as a scenario whose first
// step for that zone comes late.
std::vector<TableInput> late_zone_script() {
  std::vector<TableInput> s;
  for (table::Millis t = 0; t <= 1000; t += 100) {
    if (t >= 500) {
      TableInput in;
      in.kind = TableInput::Kind::Observe;
      in.observation.zone = zone("play:N");
      in.observation.cards.add(*bridge::Card::parse("SA"));
      in.observation.time = t;
      in.observation.source = "sim";
      in.time = t;
      s.push_back(in);
    }
    TableInput tick;
    tick.time = t;
    s.push_back(tick);
  }
  return s;
}

bool finishes(const SimulatorDevice& sim) {
  for (int i = 0; i < 1000 && !sim.finished(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return sim.finished();
}

DeviceConfig sim_config() { return DeviceConfig{"sim0", "sim", {{0, zone("play:N")}}, {}}; }

TEST(Simulator, PlaysTheScriptThroughTheSinkAndSaysItWasAdded) {
  SimulatorDevice sim(sim_config(), fixed_script(late_zone_script()), 100.0, false, {}, steady_millis);
  test::RecordingSink sink;
  std::string error;
  ASSERT_TRUE(sim.start(sink, error));
  ASSERT_TRUE(finishes(sim));
  sim.stop();
  EXPECT_EQ(sink.inputs().size(), late_zone_script().size());
  ASSERT_EQ(sink.events().size(), 1u);
  EXPECT_EQ(sink.events()[0].kind, DeviceEvent::Kind::Added);
}

TEST(Simulator, ALoopedPassReadsAZoneEmptyUntilTheNewPassReadsIt) {
  SimulatorDevice sim(sim_config(), fixed_script(late_zone_script()), 100.0, true, {}, steady_millis);
  test::RecordingSink sink;
  std::string error;
  ASSERT_TRUE(sim.start(sink, error));
  ASSERT_TRUE(sink.wait([&](auto& in, auto&) { return !in.empty() && in.back().time > 3000; }));
  sim.stop();
  // From the first reading on, play:N never goes more than one period without a reading; in the second
  // pass it reads empty until the pass reads the ace again.
  table::Millis last = -1;
  bool empty_seen = false;
  for (const TableInput& in : sink.inputs()) {
    if (in.kind != TableInput::Kind::Observe) continue;
    if (in.time > 1000 && in.time < 1600) {
      EXPECT_TRUE(in.observation.cards.empty()) << in.time;
      empty_seen = true;
    }
    if (last >= 0) {
      EXPECT_LE(in.time - last, 200) << "a gap at " << in.time;
    }
    last = in.time;
  }
  EXPECT_TRUE(empty_seen);
}

TEST(Simulator, SimulatedUnplugIsLostThenAddedAndSilentBetween) {
  SimFaults faults;
  faults.unplug = std::pair<table::Millis, table::Millis>{600, 200};
  SimulatorDevice sim(sim_config(), fixed_script(late_zone_script()), 100.0, false, faults, steady_millis);
  test::RecordingSink sink;
  std::string error;
  ASSERT_TRUE(sim.start(sink, error));
  ASSERT_TRUE(finishes(sim));
  sim.stop();
  auto ev = sink.events();
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[1].kind, DeviceEvent::Kind::Lost);
  EXPECT_EQ(ev[2].kind, DeviceEvent::Kind::Added);
  for (const TableInput& in : sink.inputs())
    if (in.kind == TableInput::Kind::Observe) {
      EXPECT_TRUE(in.time < 600 || in.time >= 800) << in.time;
    }
}

TEST(FaultInjection, TheSameSeedGivesTheSameFaults) {
  SimFaults f;
  f.drop = 0.2;
  f.misread = 0.2;
  f.flicker = 0.1;
  f.seed = 42;
  auto run = [&] {
    FaultInjector inj(f);
    std::vector<std::string> out;
    for (const TableInput& in : late_zone_script()) {
      auto o = inj.apply(in);
      out.push_back(!o ? "-" : o->observation.cards.empty() ? "0" : std::to_string(o->observation.cards.bits()));
    }
    return out;
  };
  EXPECT_EQ(run(), run());
  auto faulty = run();
  EXPECT_NE(std::count(faulty.begin(), faulty.end(), "-"), 0);
}

TEST(FaultInjection, NoFaultsChangeNothing) {
  FaultInjector inj({});
  for (const TableInput& in : late_zone_script()) {
    auto o = inj.apply(in);
    ASSERT_TRUE(o);
    EXPECT_EQ(o->observation.cards, in.observation.cards);
  }
}

TEST(DriverTable, KnowsTheSimBothReadersAndTheCameraAndNamesTheUnknown) {
  std::vector<std::string> names;
  for (const DriverEntry& d : drivers()) names.push_back(d.name);
#if CARDTABLE_HAS_CAMERA
  EXPECT_EQ(names, (std::vector<std::string>{"sim", "acr122u", "cardtable-board", "camera"}));
  const std::string known = "sim, acr122u, cardtable-board, camera";
#else  // a build without vision/ (-DCARDTABLE_VISION=OFF)
  EXPECT_EQ(names, (std::vector<std::string>{"sim", "acr122u", "cardtable-board"}));
  const std::string known = "sim, acr122u, cardtable-board";
#endif
  std::string error;
  EXPECT_EQ(make_device(DeviceConfig{"nfc0", "pcsc", {}, {}}, {}, error), nullptr);
  EXPECT_EQ(error, "nfc0: unknown driver 'pcsc' (known: " + known + ")");
  EXPECT_EQ(make_device(DeviceConfig{"sim0", "sim", {}, {}}, {}, error), nullptr);
  EXPECT_EQ(error, "sim0: the sim driver needs script=PATH");
  EXPECT_EQ(make_device(DeviceConfig{"r", "acr122u", {{1, zone("scan")}}, {}}, {}, error), nullptr);
  EXPECT_EQ(error, "r: an ACR122U has one antenna (antenna0)");
}

}  // namespace
}  // namespace cardtable::devices
