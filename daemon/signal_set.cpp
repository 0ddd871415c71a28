#include "daemon/signal_set.hpp"

#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cardtable::daemon {

SignalSet::SignalSet() {
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &mask, nullptr);
  fd_ = ::signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
  if (fd_ < 0) throw std::runtime_error(std::string("signalfd: ") + std::strerror(errno));
}

SignalSet::~SignalSet() {
  if (fd_ >= 0) ::close(fd_);
}

std::vector<int> SignalSet::take() {
  std::vector<int> out;
  signalfd_siginfo info{};
  while (::read(fd_, &info, sizeof info) == sizeof info) out.push_back(static_cast<int>(info.ssi_signo));
  return out;
}

}  // namespace cardtable::daemon
