// A problem found while starting cardtabled (a bad option, an unreadable key or record, an endpoint that
// cannot be bound): printed, and the daemon exits with status 2 (sysexits-like: a usage problem, which
// systemd's RestartPreventExitStatus=2 does not retry).
#pragma once

#include <stdexcept>

namespace cardtable::daemon {

struct StartupError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace cardtable::daemon
