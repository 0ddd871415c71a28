#include "devices/device_worker.hpp"

#include <utility>

namespace cardtable::devices {

void DeviceWorker::start(std::function<void()> body) {
  stop();
  {
    std::lock_guard lock(mutex_);
    stopping_ = false;
  }
  thread_ = std::thread(std::move(body));
}

void DeviceWorker::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool DeviceWorker::sleep_until(std::chrono::steady_clock::time_point due) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_until(lock, due, [&] { return stopping_; });
}

bool DeviceWorker::stopping() const {
  std::lock_guard lock(mutex_);
  return stopping_;
}

}  // namespace cardtable::devices
