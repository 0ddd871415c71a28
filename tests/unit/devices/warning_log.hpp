// The warnings devices log (devices/log.hpp), kept for a test to read: "device: message" each. The
// log goes back to stderr when the object goes.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "devices/log.hpp"

namespace cardtable::devices::test {

class WarningLog {
 public:
  WarningLog() {
    set_log_sink([this](LogLevel level, const std::string& device, const std::string& message) {
      std::lock_guard lock(mutex_);
      if (level == LogLevel::Warning) lines_.push_back(device + ": " + message);
    });
  }
  ~WarningLog() { set_log_sink(nullptr); }
  WarningLog(const WarningLog&) = delete;
  WarningLog& operator=(const WarningLog&) = delete;
  std::vector<std::string> lines() const {
    std::lock_guard lock(mutex_);
    return lines_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> lines_;
};

}  // namespace cardtable::devices::test
