// The driver table (in the manner of gpsd's): every driver this build knows, by name. A new driver is one
// line here. Explicit rather than self-registering, because a static library drops an object file that
// nothing references, and with it a registration done by a static constructor.
#if CARDTABLE_HAS_CAMERA
#include "devices/camera/camera_device.hpp"
#endif
#include "devices/device.hpp"
#include "devices/sim/simulator_device.hpp"
#include "devices/usb/acr122u_reader.hpp"
#include "devices/usb/board_reader.hpp"

namespace cardtable::devices {

const std::vector<DriverEntry>& drivers() {
  static const std::vector<DriverEntry> table = {
      {"sim", "the simulated table: plays a scenario, with faults if asked", &make_simulator},
      {"acr122u", "PN533-family USB readers (ACS ACR122U, SCL3711): one antenna", &make_acr122u},
      {"cardtable-board", "the open cardtable reader board: several antennas (docs/hardware.md)", &make_board},
#if CARDTABLE_HAS_CAMERA
      {"camera", "a camera reading card faces (V4L2, a video file or a folder of frames; zones from a calibration file)", &make_camera},
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
