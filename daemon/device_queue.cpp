#include "daemon/device_queue.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace cardtable::daemon {

DeviceQueue::DeviceQueue() : fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  if (fd_ < 0) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
}

DeviceQueue::~DeviceQueue() { ::close(fd_); }

void DeviceQueue::push(table::TableInput input) {
  {
    std::lock_guard lock(mutex_);
    items_.push_back({std::move(input), std::chrono::steady_clock::now()});
  }
  std::uint64_t one = 1;
  (void)!::write(fd_, &one, sizeof one);
}

std::deque<DeviceQueue::Queued> DeviceQueue::take() {
  std::uint64_t n;
  (void)!::read(fd_, &n, sizeof n);
  std::lock_guard lock(mutex_);
  std::deque<Queued> out;
  out.swap(items_);
  return out;
}

}  // namespace cardtable::daemon
