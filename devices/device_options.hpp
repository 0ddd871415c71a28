// A device's driver options (cardtabled --device NAME=DRIVER:KEY=VALUE,...), read strictly and the same
// way for every driver: a key the driver does not know (a typo such as `pol_ms=`), a number that is not
// one, is not finite or is out of range, a yes/no that is neither -- each is an error naming the device,
// the option and what it wants, never a silent default. Until 2026-11-27 each driver read its own: the
// USB readers and the sim ignored unknown keys, the sim took `drop=nan` and `seed=abc` (as 0).
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "devices/device.hpp"

namespace cardtable::devices {

class DeviceOptions {
 public:
  // Checks the config's keys against `known` (the driver's options) at once.
  DeviceOptions(const DeviceConfig& config, std::initializer_list<const char*> known);

  // Each returns nullopt when the option is absent, or when it is bad (and then error() says why).
  std::optional<std::string> text(const std::string& key) const;
  std::optional<long long> whole(const std::string& key, long long lo, long long hi);
  std::optional<double> number(const std::string& key, double lo, double hi);
  std::optional<bool> yes_no(const std::string& key);

  bool ok() const { return error_.empty(); }
  // The first error: "NAME: KEY=VALUE is not a whole number in 1..100".
  const std::string& error() const { return error_; }

 private:
  void fail(const std::string& why);
  const DeviceConfig& config_;
  std::string error_;
};

}  // namespace cardtable::devices
