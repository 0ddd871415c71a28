// The simulated table: replays a scenario (docs/scenarios.md) in real time, or faster, once or looped,
// through the same queue a real reader uses.
#pragma once

#include <atomic>
#include <thread>

#include "daemon/device_queue.hpp"

namespace cardtable::daemon {

class SimulatorDevice {
 public:
  SimulatorDevice(table::Scenario scenario, double speed, bool loop);
  ~SimulatorDevice();
  void start(DeviceQueue& queue);
  void stop();
  bool finished() const { return finished_; }
  const table::Scenario& scenario() const { return scenario_; }

 private:
  void run(DeviceQueue& queue);
  table::Scenario scenario_;
  double speed_;
  bool loop_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> finished_{false};
  std::thread thread_;
};

}  // namespace cardtable::daemon
