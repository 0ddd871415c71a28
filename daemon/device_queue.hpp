// Devices run in their own threads and hand what they read to the event loop through this queue; an
// eventfd wakes the loop's poll.
//
// The queue is bounded: a device that runs `capacity` inputs ahead of the loop waits in push() until the
// loop has taken some. Nothing is dropped (every reading reaches the table, in order) and the daemon does
// not grow while its disk stalls each journal fdatasync (a loaded SD card, half a second apiece): a reader
// held up there polls later, as a slower reader would. At stop (SIGTERM: `systemctl stop`, a restart) the
// queue is closed, the devices stopped, and what they had already handed over is applied by drain(), in
// order, journalled before the daemon exits: a card read just before a restart still reaches the table.
// Only a stalled disk can cut that short (drain's deadline, within systemd's TimeoutStopSec), and what it
// leaves is counted and said, never silently dropped; so are readings handed over after close(). The
// simulator at --speed 400 is the only source that fills it in practice; a table's readers queue under a
// hundred inputs a second (one per zone every 100 ms poll).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>

#include "table/input.hpp"  // the input record only: the queue knows nothing of scenarios

namespace cardtable::daemon {

class DeviceQueue {
 public:
  static constexpr std::size_t kDefaultCapacity = 4096;
  explicit DeviceQueue(std::size_t capacity = kDefaultCapacity);
  ~DeviceQueue();
  DeviceQueue(const DeviceQueue&) = delete;
  DeviceQueue& operator=(const DeviceQueue&) = delete;

  // An input and when its device handed it over: a reader pushes right after its transfer completes and
  // is decoded, so the loop can tell how long a reading waits, from its read to the table, a wait for room
  // in a full queue included (status: input_latency).
  struct Queued {
    table::TableInput input;
    std::chrono::steady_clock::time_point at;  // push() called, before any wait for room
  };
  // Queues the input, first waiting while the queue is full; after close(), returns at once and drops
  // it (the daemon is stopping: the loop takes nothing more).
  void push(table::TableInput input);
  // The oldest `most` inputs queued. The wake-up is cleared only when nothing is left, so the loop's poll
  // comes back at once for the rest: it serves its control requests between batches, never only after a
  // backlog.
  std::deque<Queued> take(std::size_t most = SIZE_MAX);
  // The loop takes nothing more: a device waiting in push() returns, so stopping it cannot deadlock.
  void close();

  // What drain() did, for the stop's log line.
  struct Drained {
    std::size_t applied = 0;  // queued inputs given to `apply`, in order
    std::size_t left = 0;     // queued inputs the deadline left unapplied
    std::size_t refused = 0;  // inputs pushed after close(): handed over once the daemon was stopping
    std::string str() const;
  };
  // At stop, after close() and the devices' threads are joined: every input still queued, oldest first,
  // given to `apply` (the loop's own path: journalled, published) until `deadline`; each may cost an
  // fdatasync, so a stalled disk must not hold the stop past systemd's TimeoutStopSec. The queue is
  // empty afterwards.
  Drained drain(std::chrono::steady_clock::time_point deadline, const std::function<void(const Queued&)>& apply);
  std::size_t waits() const;  // times a push() found the queue full (status: input_waits)
  std::size_t size() const;   // inputs queued, not yet taken (status: inputs_queued)
  int fd() const { return fd_; }  // readable when something is queued

 private:
  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable room_;
  std::deque<Queued> items_;
  bool closed_ = false;
  std::size_t waits_ = 0;
  std::size_t refused_ = 0;  // push() after close()
  int fd_ = -1;
};

}  // namespace cardtable::daemon
