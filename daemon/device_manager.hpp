// The daemon's devices: built from the configuration through devices/'s driver table, started and stopped
// together, and the sink they all report to. Readings go to the DeviceQueue (the loop's input seam);
// device.added/lost/error go to a queue of their own, with an eventfd the loop polls. The loop's poll set
// never changes as devices come and go: each driver does its own I/O on its own thread (the USB drivers
// share one libusb event thread, devices/usb/usb_bus.hpp says why) and only these two fds reach the loop.
//
// Configuration (command line or config file, docs/hardware.md "Zones and devices"):
//   device = NAME=DRIVER[:KEY=VALUE,KEY=VALUE...]   e.g. device = north=acr122u:port=1-1.2
//   zone   = ZONE=NAME[/antennaN]                   e.g. zone = play:N=board0/antenna2
// --simulate SCENARIO adds the device "sim" (driver sim), serving the scenario's zones unless a zone names it.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "daemon/device_queue.hpp"
#include "devices/device.hpp"

namespace cardtable::daemon {

// Parses the device and zone options into device configurations, after `preset` (the sim of --simulate).
// Throws std::invalid_argument naming the option at fault.
std::vector<devices::DeviceConfig> parse_device_options(std::vector<devices::DeviceConfig> preset, const std::vector<std::string>& devices,
                                                        const std::vector<std::string>& zones);

class DeviceManager : public devices::DeviceSink {
 public:
  explicit DeviceManager(DeviceQueue& inputs);
  ~DeviceManager() override;
  DeviceManager(const DeviceManager&) = delete;
  DeviceManager& operator=(const DeviceManager&) = delete;

  // Builds every device; throws std::runtime_error with the device and the reason.
  void create(const std::vector<devices::DeviceConfig>& configs, const devices::DeviceEnvironment& env);
  void start();  // throws std::runtime_error
  void stop();
  void set_decks(std::shared_ptr<const devices::DeckLibrary> decks);

  int events_fd() const { return events_fd_; }  // readable when device events are queued
  std::deque<devices::DeviceEvent> take_events();
  std::vector<table::Zone> zones() const;  // every zone some device serves
  nlohmann::json status() const;
  devices::Device* find(const std::string& name) const;
  const std::vector<std::unique_ptr<devices::Device>>& all() const { return devices_; }
  bool lost(const table::Zone& zone) const;  // the zone's device is lost now

  void push(table::TableInput input) override { inputs_.push(std::move(input)); }
  void device_event(devices::DeviceEvent event) override;

 private:
  DeviceQueue& inputs_;
  std::vector<std::unique_ptr<devices::Device>> devices_;
  mutable std::mutex mutex_;
  std::deque<devices::DeviceEvent> events_;
  std::map<std::string, bool> lost_;  // device → lost now
  int events_fd_ = -1;
};

}  // namespace cardtable::daemon
