// Devices run in their own threads and hand what they read to the event loop through this queue; an
// eventfd wakes the loop's poll.
#pragma once

#include <chrono>
#include <deque>
#include <mutex>

#include "table/input.hpp"  // the input record only: the queue knows nothing of scenarios

namespace cardtable::daemon {

class DeviceQueue {
 public:
  DeviceQueue();
  ~DeviceQueue();
  DeviceQueue(const DeviceQueue&) = delete;
  DeviceQueue& operator=(const DeviceQueue&) = delete;

  // An input and when it was queued: a reader queues right after its transfer completes and is decoded,
  // so the loop can tell how long a reading waits before the table sees it (status: input_latency).
  struct Queued {
    table::TableInput input;
    std::chrono::steady_clock::time_point at;
  };
  void push(table::TableInput input);
  // Everything queued so far (and the wake-up cleared).
  std::deque<Queued> take();
  int fd() const { return fd_; }  // readable when something is queued

 private:
  std::mutex mutex_;
  std::deque<Queued> items_;
  int fd_ = -1;
};

}  // namespace cardtable::daemon
