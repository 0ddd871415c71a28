#pragma once
// The one thread a simple device reads on, and the stop signal it sleeps on. The simulator and the
// camera each had their own copy of this; the USB reader keeps its own (its thread comes and goes
// with the hardware, under the same lock as its attachment).
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace cardtable::devices {

class DeviceWorker {
 public:
  DeviceWorker() = default;
  ~DeviceWorker() { stop(); }
  DeviceWorker(const DeviceWorker&) = delete;
  DeviceWorker& operator=(const DeviceWorker&) = delete;

  // Runs `body` on a new thread (after a stop(): starts again).
  void start(std::function<void()> body);
  // Wakes every wait below and joins the thread; safe to call twice, or before start().
  void stop();
  // Sleep until `due`, or until stop(): true when the time came, false when the thread should end.
  bool sleep_until(std::chrono::steady_clock::time_point due);
  bool sleep_for(std::chrono::milliseconds d) { return sleep_until(std::chrono::steady_clock::now() + d); }
  bool stopping() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace cardtable::devices
