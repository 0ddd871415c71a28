// The signals cardtabled acts on (SIGTERM and SIGINT stop it, SIGHUP reloads the master record), read
// from a signalfd in the event loop instead of a handler: nothing runs in signal context.
#pragma once

#include <vector>

namespace cardtable::daemon {

class SignalSet {
 public:
  // Blocks SIGTERM, SIGINT and SIGHUP in this thread (call before any thread starts: threads inherit
  // the mask) and opens the signalfd. Throws std::runtime_error when the kernel refuses.
  SignalSet();
  ~SignalSet();
  SignalSet(const SignalSet&) = delete;
  SignalSet& operator=(const SignalSet&) = delete;

  int fd() const { return fd_; }  // readable when a signal is pending
  std::vector<int> take();        // the pending signals, in arrival order

 private:
  int fd_ = -1;
};

}  // namespace cardtable::daemon
