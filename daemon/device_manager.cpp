#include "daemon/device_manager.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

namespace cardtable::daemon {

std::vector<devices::DeviceConfig> parse_device_options(std::vector<devices::DeviceConfig> preset, const std::vector<std::string>& devices,
                                                        const std::vector<std::string>& zones) {
  std::vector<devices::DeviceConfig> out = std::move(preset);
  for (const std::string& d : devices) {
    auto eq = d.find('=');
    if (eq == std::string::npos || eq == 0) throw std::invalid_argument("--device " + d + ": expected NAME=DRIVER[:KEY=VALUE,...]");
    devices::DeviceConfig c;
    c.name = d.substr(0, eq);
    std::string rest = d.substr(eq + 1);
    auto colon = rest.find(':');
    c.driver = rest.substr(0, colon);
    if (c.driver.empty()) throw std::invalid_argument("--device " + d + ": no driver");
    if (colon != std::string::npos) {
      std::string opts = rest.substr(colon + 1);
      std::size_t at = 0;
      while (at <= opts.size()) {
        std::size_t comma = opts.find(',', at);
        std::string kv = opts.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        auto e = kv.find('=');
        if (e == std::string::npos || e == 0) throw std::invalid_argument("--device " + d + ": option '" + kv + "' is not KEY=VALUE");
        // A key given twice kept the last value without a word (port=1-1,...,port=1-2).
        if (!c.options.emplace(kv.substr(0, e), kv.substr(e + 1)).second)
          throw std::invalid_argument("--device " + d + ": option '" + kv.substr(0, e) + "' given twice");
        if (comma == std::string::npos) break;
        at = comma + 1;
      }
    }
    for (const auto& o : out) {
      if (o.name == c.name) throw std::invalid_argument("--device " + d + ": a second device named " + c.name);
      // One USB port holds one reader: the second device given it waited for ever, saying that no reader
      // was plugged in there while one was (the first device had it).
      const auto theirs = o.options.find("port");
      const auto mine = c.options.find("port");
      if (theirs != o.options.end() && mine != c.options.end() && theirs->second == mine->second)
        throw std::invalid_argument("--device " + d + ": port=" + mine->second + " is " + o.name + "'s already (one reader to a USB port)");
    }
    out.push_back(std::move(c));
  }
  for (const std::string& z : zones) {
    auto eq = z.find('=');
    auto zone = eq == std::string::npos ? std::nullopt : table::Zone::parse(z.substr(0, eq));
    if (!zone) throw std::invalid_argument("--zone " + z + ": expected ZONE=DEVICE[/antennaN], e.g. play:N=board0/antenna2");
    std::string target = z.substr(eq + 1);
    int antenna = 0;
    if (auto slash = target.find('/'); slash != std::string::npos) {
      std::string a = target.substr(slash + 1);
      target = target.substr(0, slash);
      if (a.rfind("antenna", 0) != 0 || a.size() == 7 || a.size() > 9 ||
          !std::all_of(a.begin() + 7, a.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
        throw std::invalid_argument("--zone " + z + ": the antenna is antennaN, e.g. antenna2");
      antenna = std::stoi(a.substr(7));
    }
    auto it = std::find_if(out.begin(), out.end(), [&](const devices::DeviceConfig& c) { return c.name == target; });
    if (it == out.end()) throw std::invalid_argument("--zone " + z + ": no device '" + target + "' (give it with --device, or --simulate for sim)");
    if (it->antennas.count(antenna)) throw std::invalid_argument("--zone " + z + ": " + target + "/antenna" + std::to_string(antenna) + " already serves " + it->antennas[antenna].str());
    for (const auto& c : out)
      for (const auto& [a, served] : c.antennas)
        if (served == *zone) throw std::invalid_argument("--zone " + z + ": " + zone->str() + " is already served by " + c.name);
    it->antennas[antenna] = *zone;
  }
  return out;
}

DeviceManager::DeviceManager(DeviceQueue& inputs) : inputs_(inputs), events_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (events_fd_ < 0) throw std::runtime_error("eventfd for device events failed");
}

DeviceManager::~DeviceManager() {
  stop();
  if (events_fd_ >= 0) close(events_fd_);
}

void DeviceManager::create(const std::vector<devices::DeviceConfig>& configs, const devices::DeviceEnvironment& env) {
  for (const auto& c : configs) {
    std::string error;
    auto d = devices::make_device(c, env, error);
    if (!d) throw std::runtime_error(error);
    devices_.push_back(std::move(d));
  }
}

void DeviceManager::start() {
  for (auto& d : devices_) {
    std::string error;
    if (!d->start(*this, error)) throw std::runtime_error(error);
  }
}

void DeviceManager::stop() {
  inputs_.close();  // a device waiting for room in the queue returns, and so can be joined
  for (auto& d : devices_) d->stop();
}

void DeviceManager::set_decks(std::shared_ptr<const devices::DeckLibrary> decks) {
  for (auto& d : devices_) d->set_decks(decks);
}

void DeviceManager::device_event(devices::DeviceEvent event) {
  {
    std::lock_guard lock(mutex_);
    lost_[event.device] = event.kind == devices::DeviceEvent::Kind::Lost;
    if (event.kind == devices::DeviceEvent::Kind::Added) lost_[event.device] = false;
    events_.push_back(std::move(event));
  }
  std::uint64_t one = 1;
  (void)!write(events_fd_, &one, sizeof one);
}

std::deque<devices::DeviceEvent> DeviceManager::take_events() {
  std::uint64_t n = 0;
  (void)!read(events_fd_, &n, sizeof n);
  std::lock_guard lock(mutex_);
  std::deque<devices::DeviceEvent> out;
  out.swap(events_);
  return out;
}

std::vector<table::Zone> DeviceManager::zones() const {
  std::vector<table::Zone> out;
  for (const auto& d : devices_)
    for (const table::Zone& z : d->zones())
      if (std::find(out.begin(), out.end(), z) == out.end()) out.push_back(z);
  return out;
}

nlohmann::json DeviceManager::status() const {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& d : devices_) list.push_back(d->status());
  return list;
}

devices::Device* DeviceManager::find(const std::string& name) const {
  for (const auto& d : devices_)
    if (d->name() == name) return d.get();
  return nullptr;
}

bool DeviceManager::lost(const table::Zone& zone) const {
  std::lock_guard lock(mutex_);
  for (const auto& d : devices_) {
    auto zs = d->zones();
    if (std::find(zs.begin(), zs.end(), zone) == zs.end()) continue;
    auto it = lost_.find(d->name());
    return it != lost_.end() && it->second;
  }
  return false;
}

}  // namespace cardtable::daemon
