// The driver table (in the manner of gpsd's): every driver this build knows, by name. A new driver is one
// line here. Explicit rather than self-registering, because a static library drops an object file that
// nothing references, and with it a registration done by a static constructor. The camera is listed here
// too, but its code is a plug-in (devices/plugin.hpp) loaded when a device first names it: OpenCV stays out
// of the daemon of a table read by RFID.
#include "devices/device.hpp"
#include "devices/plugin.hpp"
#include "devices/sim/simulator_device.hpp"
#include "devices/usb/acr122u_reader.hpp"
#include "devices/usb/board_reader.hpp"

namespace cardtable::devices {

#if CARDTABLE_HAS_CAMERA
namespace {
std::unique_ptr<Device> make_camera_from_plugin(const DeviceConfig& config, const DeviceEnvironment& env, std::string& error) {
  DeviceFactory make = plugin_driver("camera", "cardtable-camera.so", error);
  if (!make) {
    error = config.name + ": " + error;
    return nullptr;
  }
  return make(config, env, error);
}
}  // namespace
#endif

const std::vector<DriverEntry>& drivers() {
  static const std::vector<DriverEntry> table = {
      {"sim", "the simulated table: plays a scenario, with faults if asked", &make_simulator},
      {"acr122u", "PN533-family USB readers (ACS ACR122U, SCL3711): one antenna", &make_acr122u},
      {"cardtable-board", "the open cardtable reader board: several antennas (docs/hardware.md)", &make_board},
#if CARDTABLE_HAS_CAMERA
      {"camera", "a camera reading card faces (V4L2, a video file or a folder of frames; zones from a calibration file)", &make_camera_from_plugin},
#endif
  };
  return table;
}

std::unique_ptr<Device> make_device(const DeviceConfig& config, const DeviceEnvironment& env, std::string& error) {
  for (const DriverEntry& d : drivers())
    if (config.driver == d.name) return d.make(config, env, error);
  std::string known;
  for (const DriverEntry& d : drivers()) known += (known.empty() ? "" : ", ") + std::string(d.name);
  error = config.name + ": unknown driver '" + config.driver + "' (known: " + known + ")";
  return nullptr;
}

}  // namespace cardtable::devices
