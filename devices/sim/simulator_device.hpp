// The simulated table, driver "sim": plays a script of table inputs (a scenario, docs/scenarios.md, turned
// into inputs by the daemon's script loader) in real time or faster, once or looped, through the same sink
// a real reader uses, with optional faults so the demo and the tests exercise the paths real readers take.
//
// Options:
//   script=PATH     the scenario to play (required)
//   speed=1         1 real time, 10 ten times faster
//   loop=no         yes: start again after the end; a zone reads empty until the next pass reads it (a
//                   table cleared between boards), so a restart never looks like a silent reader
//   clock=script    script: the inputs carry the scenario's own times (from 0; any speed); daemon: they
//                   carry the daemon's clock (the scenario's time plus the moment it started), so that the
//                   sim runs beside real readers and the daemon's timer (speed 1 only)
//   seed=1          the fault generator's seed (the same seed, the same faults)
//   drop=0          probability that a reading is dropped (a missed poll)
//   misread=0       probability that a reading names another card (one poll; stability absorbs it)
//   flicker=0       probability that a reading is empty for one poll
//   unplug=AT+FOR   at AT ms the simulated reader is unplugged for FOR ms: device lost, no readings, then
//                   added again (e.g. unplug=12000+3000)
#pragma once

#include <atomic>
#include <optional>
#include <random>
#include <vector>

#include "devices/device.hpp"
#include "devices/device_worker.hpp"
#include "devices/sim/input_script.hpp"

namespace cardtable::devices {

struct SimFaults {
  double drop = 0, misread = 0, flicker = 0;
  std::optional<std::pair<Millis, Millis>> unplug;  // at, for (script time)
  std::uint32_t seed = 1;
};

// The inputs of one pass with the faults applied, and where the unplug lies; pure, for tests.
class FaultInjector {
 public:
  explicit FaultInjector(SimFaults faults) : faults_(faults), rng_(faults.seed) {}
  // Null: the input is dropped.
  std::optional<table::TableInput> apply(table::TableInput in);
  bool unplugged_at(Millis script_time) const;

 private:
  SimFaults faults_;
  std::mt19937 rng_;
};

class SimulatorDevice : public Device {
 public:
  SimulatorDevice(DeviceConfig config, InputScript script, double speed, bool loop, SimFaults faults, Clock clock);
  ~SimulatorDevice() override;
  bool start(DeviceSink& sink, std::string& error) override;
  void stop() override;
  bool present() const override { return present_; }
  nlohmann::json health() const override;
  bool finished() const { return finished_; }
  void set_daemon_clock(bool on) { daemon_clock_ = on; }

 private:
  void run(DeviceSink& sink);
  void event(DeviceSink& sink, DeviceEvent::Kind kind, std::string reason);

  InputScript script_;
  double speed_;
  bool loop_;
  SimFaults faults_;
  Clock clock_;
  bool daemon_clock_ = false;
  std::atomic<bool> present_{false};
  std::atomic<bool> finished_{false};
  std::atomic<int> passes_{0};
  DeviceWorker worker_;  // last: stopped (joined) before the fields its thread reads go
};

// Loads a script for the sim driver; the daemon provides one that reads scenario files (devices/ does not
// include the scenario parser). Null with `error` when the file is bad.
using ScriptLoader = std::function<std::optional<InputScript>(const std::string& path, std::string& error)>;
void set_script_loader(ScriptLoader loader);
std::unique_ptr<Device> make_simulator(const DeviceConfig& config, const DeviceEnvironment& env, std::string& error);

}  // namespace cardtable::devices
