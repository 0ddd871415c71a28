// The simulated table from the options: a scenario file or a session generated from the master record,
// refused with the reason (and the scenario's line) when it cannot be played.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <thread>

#include "daemon/device_manager.hpp"
#include "daemon/simulation.hpp"
#include "daemon/startup_error.hpp"
#include "devices/sim/simulator_device.hpp"

using namespace cardtable;
namespace fs = std::filesystem;

namespace {
bridge::MasterRecord sample() {
  bridge::MasterRecord m;
  m.load({CARDTABLE_SAMPLE_PBN});
  return m;
}

// Every input of one pass through a script, as the sim plays them.
std::vector<table::TableInput> all_inputs(const devices::InputScript& script) {
  std::vector<table::TableInput> out;
  const devices::InputCursor inputs = script();
  while (auto in = inputs()) out.push_back(*std::move(in));
  return out;
}
}  // namespace

TEST(Simulation, WithoutSimulateOrSimulateSessionThereIsNoSimulatedTable) {
  daemon::Options o;
  EXPECT_FALSE(daemon::prepare_simulation(o, sample()));
}

TEST(Simulation, ASessionOfTheMasterRecordIsPlayedByTheDeviceSimWithItsFaults) {
  daemon::Options o;
  o.simulate_session = "cardtable sample pairs/1";
  o.session_contract = "3NT S";
  o.sim_faults = "flicker=0.02,seed=4";
  o.speed = 50;
  auto sim = daemon::prepare_simulation(o, sample());
  ASSERT_TRUE(sim);
  EXPECT_EQ(sim->device.name, "sim");
  EXPECT_EQ(sim->device.driver, "sim");
  EXPECT_EQ(sim->device.option("flicker"), "0.02");
  EXPECT_EQ(sim->device.option("seed"), "4");
  EXPECT_EQ(sim->device.option("clock"), "script") << "sped up: the scenario brings its own ticks";
  EXPECT_FALSE(sim->real_clock);
  EXPECT_GT(all_inputs(sim->script).size(), 100u);
  EXPECT_FALSE(sim->config.zones.empty());
}

TEST(Simulation, ASessionNotInTheMasterRecordIsRefusedNamingIt) {
  daemon::Options o;
  o.simulate_session = "cardtable sample pairs/9";
  try {
    daemon::prepare_simulation(o, sample());
    FAIL() << "no error";
  } catch (const daemon::StartupError& e) {
    EXPECT_NE(std::string(e.what()).find("no session '9'"), std::string::npos) << e.what();
  }
}

TEST(Simulation, AScenarioWithErrorsIsRefusedWithEachErrorsLine) {
  fs::path file = fs::temp_directory_path() / ("simulation-test-" + std::to_string(::getpid()) + ".scn");
  std::ofstream(file) << "zones playing-table\nat 0 play N ZZ\n";
  daemon::Options o;
  o.simulate = file.string();
  try {
    daemon::prepare_simulation(o, sample());
    FAIL() << "no error";
  } catch (const daemon::StartupError& e) {
    EXPECT_NE(std::string(e.what()).find(file.string() + ":2:"), std::string::npos) << e.what();
  }
  fs::remove(file);
}

TEST(Simulation, AScenarioThatCannotBeReadIsRefusedNamingTheFile) {
  daemon::Options o;
  o.simulate = "/nonexistent/table.scn";
  EXPECT_THROW(daemon::prepare_simulation(o, sample()), daemon::StartupError);
}

// One path from a device to the table: the simulated table's inputs reach the loop through the same
// bounded DeviceQueue the readers' do (DeviceManager, the device "sim"), all of them and in order, so a
// simulated session tests the real readers' path -- the bound, the wait for room, the latency stamp.
TEST(Simulation, TheSimulatedTableFeedsTheReadersQueueEveryInputInOrder) {
  daemon::Options o;
  o.simulate_session = "cardtable sample pairs/1";
  o.session_contract = "3NT S";
  o.speed = 10000;
  const bridge::MasterRecord master = sample();
  auto sim = daemon::prepare_simulation(o, master);
  ASSERT_TRUE(sim);
  devices::set_script_loader([&](const std::string&, std::string&) { return std::optional(sim->script); });
  daemon::DeviceQueue queue(64);  // far fewer than the session's inputs: the sim waits for room, as a reader does
  daemon::DeviceManager devices(queue);
  devices.create({sim->device}, {});
  devices.start();
  std::vector<table::TableInput> got;
  while (!devices.find("sim")->health()["finished"].get<bool>() || queue.size() > 0) {
    for (const auto& q : queue.take()) got.push_back(q.input);
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  devices.stop();
  devices::set_script_loader(nullptr);
  const std::vector<table::TableInput> played = all_inputs(sim->script);
  ASSERT_EQ(got.size(), played.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].kind, played[i].kind) << "input " << i;
    ASSERT_EQ(got[i].time, played[i].time) << "input " << i;
  }
  EXPECT_GT(queue.waits(), 0u) << "the sim found the queue full and waited, as a reader would";
  const auto events = devices.take_events();
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.front().kind, devices::DeviceEvent::Kind::Added);
}
