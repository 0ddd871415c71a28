// Devices come and go (DESIGN.md): an unplugged reader makes its zones unknown, never an irregularity, and a
// re-plugged one resumes them. This holds which zones are unknown because their device was lost, so that
// each is said once with its real cause: device.lost is followed by reading.uncertain (cause "device
// lost") for each of its zones, device.added by reading.resumed (cause "device back") for those. The
// table, which knows nothing of devices, later finds the same zones silent and says so itself; those
// reports (reading.uncertain with cause "silent" while the device is lost, and the table's reading.resumed
// that ends such a silence) are left out: a director sees one cause, not two.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "daemon/options.hpp"
#include "devices/device.hpp"
#include "protocol/wire_event.hpp"
#include "table/event.hpp"

namespace cardtable::daemon {

class DeviceLoss {
 public:
  // The events a device event makes, to publish in this order: device.added/lost/error (`driver`: the
  // device's driver, empty when it is unknown), then a reading.uncertain per zone of a lost device or a
  // reading.resumed per zone of a device back whose loss made it unknown.
  std::vector<protocol::WireEvent> on_device_event(const devices::DeviceEvent& d, const std::string& driver,
                                                   const Options& identity, double wall, double mono);
  // True when the table's event is to be left out (said by on_device_event with its real cause instead).
  // `lost`: whether a zone's device is lost now.
  bool leaves_out(const table::Event& e, const std::function<bool(const table::Zone&)>& lost);

 private:
  std::set<std::string> unknown_;  // zones said unknown because their device was lost (until it is back)
  std::set<std::string> silent_by_loss_;  // zones the table found silent while their device was lost
};

}  // namespace cardtable::daemon
