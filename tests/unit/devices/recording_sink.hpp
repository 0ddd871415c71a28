// A DeviceSink for tests: keeps everything a device hands over and lets a test wait for what it expects.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

#include "devices/device.hpp"

namespace cardtable::devices::test {

class RecordingSink : public DeviceSink {
 public:
  void push(table::TableInput input) override {
    {
      std::lock_guard lock(mutex_);
      inputs_.push_back(std::move(input));
    }
    wake_.notify_all();
  }
  void device_event(DeviceEvent event) override {
    {
      std::lock_guard lock(mutex_);
      events_.push_back(std::move(event));
    }
    wake_.notify_all();
  }
  // Waits (up to `seconds`) until `pred` holds over what has arrived.
  bool wait(const std::function<bool(const std::vector<table::TableInput>&, const std::vector<DeviceEvent>&)>& pred, double seconds = 10) {
    std::unique_lock lock(mutex_);
    return wake_.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return pred(inputs_, events_); });
  }
  bool wait_event(DeviceEvent::Kind kind, std::size_t count = 1, double seconds = 10) {
    return wait([&](auto&, auto& ev) {
      std::size_t n = 0;
      for (auto& e : ev) n += e.kind == kind;
      return n >= count;
    }, seconds);
  }
  // Waits for a reading of `zone` with exactly these cards, arriving after the first `after` inputs.
  bool wait_reading(const Zone& zone, bridge::Hand cards, std::size_t after = 0, double seconds = 10) {
    return wait([&](auto& in, auto&) {
      for (std::size_t i = after; i < in.size(); ++i)
        if (in[i].kind == table::TableInput::Kind::Observe && in[i].observation.zone == zone && in[i].observation.cards == cards &&
            in[i].observation.confidence > 0)
          return true;
      return false;
    }, seconds);
  }
  std::size_t input_count() {
    std::lock_guard lock(mutex_);
    return inputs_.size();
  }
  std::vector<table::TableInput> inputs() {
    std::lock_guard lock(mutex_);
    return inputs_;
  }
  std::vector<DeviceEvent> events() {
    std::lock_guard lock(mutex_);
    return events_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<table::TableInput> inputs_;
  std::vector<DeviceEvent> events_;
};

}  // namespace cardtable::devices::test
