// The table calls a zone silent when no reading has come from it for --silence (table/table_config.hpp).
// A reader polled every P ms misses a poll now and then (a reply lost, a transfer timed out and retried:
// docs/hardware.md): its zones then go 2P, and a slow transfer more, between two readings. A silence
// under three polls calls such zones silent and heard again whenever a poll or two go unanswered -- a
// reading.uncertain and a reading.resumed on every director's screen each time, nothing saying why. A
// period the daemon knows at start (poll_ms=, model=, the quirk file's one period for the driver; a
// recording's period_ms= or a video file's own frame rate) is checked then and the start refused; one
// it learns only when the reader arrives (a board whose HELLO says it scans slower, a model the quirk
// file polls slowly) is said once in the log, naming the --silence to give.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "devices/device.hpp"
#include "table/observation.hpp"

namespace cardtable::daemon {

inline constexpr int kPollsInASilence = 3;

class PollSilence {
 public:
  explicit PollSilence(table::Millis silence_ms) : silence_ms_(silence_ms) {}
  // Why --silence cannot serve `device` as it is configured (its period known before the hardware is
  // there), or nothing.
  std::optional<std::string> at_start(const devices::Device& device) const;
  // Said once per device and period, when it arrives polled slower than the silence allows.
  std::optional<std::string> on_added(const devices::Device& device);

 private:
  bool covers(int poll_ms) const { return poll_ms <= 0 || silence_ms_ >= static_cast<table::Millis>(kPollsInASilence) * poll_ms; }
  std::string shortfall(const devices::Device& device, int poll_ms) const;

  table::Millis silence_ms_;
  std::map<std::string, int> said_;  // device → the period last said of it
};

}  // namespace cardtable::daemon
