#include "devices/device_options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace cardtable::devices {

namespace {

std::string shown(double v) {
  std::ostringstream s;
  s << v;  // 0.001, 1, 10000: as an operator would write them
  return s.str();
}

}  // namespace

DeviceOptions::DeviceOptions(const DeviceConfig& config, std::initializer_list<const char*> known) : config_(config) {
  for (const auto& option : config.options) {
    const std::string& key = option.first;  // not a structured binding: clang 14 cannot capture one
    if (std::find_if(known.begin(), known.end(), [&](const char* k) { return key == k; }) != known.end()) continue;
    std::string list;
    for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    fail(config.driver + " option '" + key + "' is unknown (" + list + ")");
    break;
  }
}

void DeviceOptions::fail(const std::string& why) {
  if (error_.empty()) error_ = config_.name + ": " + why;
}

std::optional<std::string> DeviceOptions::text(const std::string& key) const { return config_.option(key); }

std::optional<long long> DeviceOptions::whole(const std::string& key, long long lo, long long hi) {
  const auto t = config_.option(key);
  if (!t) return std::nullopt;
  long long v = 0;
  const auto [end, ec] = std::from_chars(t->data(), t->data() + t->size(), v);
  if (ec == std::errc{} && end == t->data() + t->size() && v >= lo && v <= hi) return v;
  fail(key + "=" + *t + " is not a whole number in " + std::to_string(lo) + ".." + std::to_string(hi));
  return std::nullopt;
}

std::optional<double> DeviceOptions::number(const std::string& key, double lo, double hi) {
  const auto t = config_.option(key);
  if (!t) return std::nullopt;
  double v = 0;
  // from_chars: no leading blanks, no locale; "nan" and "inf" parse, and isfinite turns them away.
  const auto [end, ec] = std::from_chars(t->data(), t->data() + t->size(), v);
  if (ec == std::errc{} && end == t->data() + t->size() && std::isfinite(v) && v >= lo && v <= hi) return v;
  fail(key + "=" + *t + " is not a number in " + shown(lo) + ".." + shown(hi));
  return std::nullopt;
}

std::optional<bool> DeviceOptions::yes_no(const std::string& key) {
  const auto t = config_.option(key);
  if (!t) return std::nullopt;
  if (*t == "yes") return true;
  if (*t == "no") return false;
  fail(key + "=" + *t + " is not yes or no");
  return std::nullopt;
}

}  // namespace cardtable::devices
