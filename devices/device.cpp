#include "devices/device.hpp"

#include <ctime>

namespace cardtable::devices {

const char* to_string(DeviceEvent::Kind kind) {
  switch (kind) {
    case DeviceEvent::Kind::Added: return "added";
    case DeviceEvent::Kind::Lost: return "lost";
    case DeviceEvent::Kind::Error: return "error";
  }
  return "?";
}

nlohmann::json DeviceCounters::json() const {
  return {{"frames", frames.load()},           {"observations", observations.load()},
          {"garbage", garbage.load()},         {"short_frames", short_frames.load()},
          {"out_of_sequence", out_of_sequence.load()}, {"crc_errors", crc_errors.load()},
          {"timeouts", timeouts.load()},       {"resets", resets.load()},
          {"crosstalk", crosstalk.load()},     {"unknown_tags", unknown_tags.load()}};
}

Millis steady_millis() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<Millis>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

std::optional<std::string> DeviceConfig::option(const std::string& key) const {
  auto it = options.find(key);
  if (it == options.end()) return std::nullopt;
  return it->second;
}

std::vector<Zone> Device::zones() const {
  std::vector<Zone> out;
  for (const auto& [antenna, zone] : config_.antennas) out.push_back(zone);
  return out;
}

DeviceEvent Device::event_of(DeviceEvent::Kind kind, std::string reason, Millis time) const {
  DeviceEvent e;
  e.kind = kind;
  e.device = name();
  e.zones = zones();
  e.reason = std::move(reason);
  e.time = time;
  return e;
}

nlohmann::json Device::status() const {
  nlohmann::json zones_json = nlohmann::json::array();
  for (const auto& [antenna, zone] : config_.antennas) zones_json.push_back({{"antenna", antenna}, {"zone", zone.str()}});
  nlohmann::json j = {{"name", name()}, {"driver", driver()}, {"present", present()}, {"zones", zones_json},
                      {"counters", counters_.json()}};
  const nlohmann::json h = health();  // named: items() of a temporary would dangle in the loop
  for (auto& [key, value] : h.items()) j[key] = value;
  return j;
}

}  // namespace cardtable::devices
