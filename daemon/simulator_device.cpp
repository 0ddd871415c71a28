#include "daemon/simulator_device.hpp"

#include <chrono>

namespace cardtable::daemon {

SimulatorDevice::SimulatorDevice(table::Scenario scenario, double speed, bool loop)
    : scenario_(std::move(scenario)), speed_(speed), loop_(loop) {}

SimulatorDevice::~SimulatorDevice() { stop(); }

void SimulatorDevice::start(DeviceQueue& queue) {
  thread_ = std::thread([this, &queue] { run(queue); });
}

void SimulatorDevice::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void SimulatorDevice::run(DeviceQueue& queue) {
  using clock = std::chrono::steady_clock;
  const auto inputs = table::scenario_inputs(scenario_);
  table::Millis offset = 0;  // each loop continues the table's clock
  auto start = clock::now();
  do {
    for (table::TableInput in : inputs) {
      in.time += offset;
      in.observation.time += offset;
      in.command.time += offset;
      // Sleep until the input's moment, scaled by the speed, waking often enough to stop promptly.
      auto due = start + std::chrono::microseconds(static_cast<long long>(static_cast<double>(in.time) * 1000.0 / speed_));
      while (!stop_ && clock::now() < due) std::this_thread::sleep_for(std::min<clock::duration>(due - clock::now(), std::chrono::milliseconds(50)));
      if (stop_) return;
      queue.push(std::move(in));
    }
    offset += inputs.empty() ? 1000 : inputs.back().time + scenario_.read_period;
  } while (loop_ && !stop_);
  finished_ = true;
}

}  // namespace cardtable::daemon
