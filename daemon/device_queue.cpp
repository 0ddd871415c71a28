#include "daemon/device_queue.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iterator>
#include <stdexcept>

namespace cardtable::daemon {

DeviceQueue::DeviceQueue(std::size_t capacity) : capacity_(capacity == 0 ? 1 : capacity), fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  if (fd_ < 0) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
}

DeviceQueue::~DeviceQueue() { ::close(fd_); }

void DeviceQueue::push(table::TableInput input) {
  // Stamped as the device hands the reading over, right after reading it: a wait for room in a full
  // queue (the loop behind a stalled disk) is part of the reading's latency, not hidden from it.
  const auto handed_over = std::chrono::steady_clock::now();
  {
    std::unique_lock lock(mutex_);
    if (items_.size() >= capacity_ && !closed_) {
      ++waits_;
      room_.wait(lock, [&] { return items_.size() < capacity_ || closed_; });
    }
    if (closed_) {
      ++refused_;  // said at stop (drain): the loop takes nothing more
      return;
    }
    items_.push_back({std::move(input), handed_over});
  }
  std::uint64_t one = 1;
  (void)!::write(fd_, &one, sizeof one);
}

std::deque<DeviceQueue::Queued> DeviceQueue::take(std::size_t most) {
  std::uint64_t n;
  (void)!::read(fd_, &n, sizeof n);
  std::deque<Queued> out;
  bool left = false;
  {
    std::lock_guard lock(mutex_);
    if (items_.size() <= most) {
      out.swap(items_);
    } else {
      auto end = items_.begin() + static_cast<std::ptrdiff_t>(most);
      out.assign(std::make_move_iterator(items_.begin()), std::make_move_iterator(end));
      items_.erase(items_.begin(), end);
      left = true;
    }
  }
  room_.notify_all();
  if (left) {
    std::uint64_t one = 1;  // the rest still wakes the loop
    (void)!::write(fd_, &one, sizeof one);
  }
  return out;
}

void DeviceQueue::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  room_.notify_all();
}

DeviceQueue::Drained DeviceQueue::drain(std::chrono::steady_clock::time_point deadline, const std::function<void(const Queued&)>& apply) {
  Drained d;
  std::deque<Queued> rest;
  {
    std::lock_guard lock(mutex_);
    rest.swap(items_);
    d.refused = refused_;
  }
  for (const Queued& q : rest) {
    if (std::chrono::steady_clock::now() >= deadline) break;
    apply(q);
    ++d.applied;
  }
  d.left = rest.size() - d.applied;
  return d;
}

std::string DeviceQueue::Drained::str() const {
  std::string s = std::to_string(applied) + " queued input" + (applied == 1 ? "" : "s") + " applied";
  if (left > 0) s += "; " + std::to_string(left) + " not applied: the stop's deadline passed (a stalled disk?)";
  if (refused > 0) s += "; " + std::to_string(refused) + " handed over after the devices were told to stop, not applied";
  return s;
}

std::size_t DeviceQueue::waits() const {
  std::lock_guard lock(mutex_);
  return waits_;
}

std::size_t DeviceQueue::size() const {
  std::lock_guard lock(mutex_);
  return items_.size();
}

}  // namespace cardtable::daemon
