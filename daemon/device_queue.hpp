// Devices run in their own threads and hand what they read to the event loop through this queue; an
// eventfd wakes the loop's poll.
#pragma once

#include <deque>
#include <mutex>

#include "table/scenario.hpp"

namespace cardtable::daemon {

class DeviceQueue {
 public:
  DeviceQueue();
  ~DeviceQueue();
  DeviceQueue(const DeviceQueue&) = delete;
  DeviceQueue& operator=(const DeviceQueue&) = delete;

  void push(table::TableInput input);
  // Everything queued so far (and the wake-up cleared).
  std::deque<table::TableInput> take();
  int fd() const { return fd_; }  // readable when something is queued

 private:
  std::mutex mutex_;
  std::deque<table::TableInput> items_;
  int fd_ = -1;
};

}  // namespace cardtable::daemon
