#include "daemon/poll_silence.hpp"

#include <cstdio>

namespace cardtable::daemon {

namespace {

std::string seconds_text(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", seconds);
  return buf;
}

}  // namespace

std::string PollSilence::shortfall(const devices::Device& device, int poll_ms) const {
  return device.name() + " reads its zones every " + std::to_string(poll_ms) + " ms: --silence " + seconds_text(static_cast<double>(silence_ms_) / 1000.0) +
         " is under three of those reads: one or two missed would call its zones silent; give --silence " +
         seconds_text(kPollsInASilence * poll_ms / 1000.0) + " or more";
}

std::optional<std::string> PollSilence::at_start(const devices::Device& device) const {
  const int poll = device.poll_ms();
  if (covers(poll)) return std::nullopt;
  return shortfall(device, poll) + ", or a shorter " + device.poll_option() + "=";
}

std::optional<std::string> PollSilence::on_added(const devices::Device& device) {
  const int poll = device.poll_ms();
  if (covers(poll)) return std::nullopt;
  auto [it, fresh] = said_.try_emplace(device.name(), poll);
  if (!fresh && it->second == poll) return std::nullopt;
  it->second = poll;
  return shortfall(device, poll);
}

}  // namespace cardtable::daemon
