// Drivers that live in a plug-in: a shared object the daemon dlopen()s only when a device names its driver.
// Why: the camera driver pulls in OpenCV (~70 MB mapped and resident once its libraries' constructors run);
// linked into cardtabled it made every daemon, camera or not, weigh ~79 MB where the bar is 30 MB. As a
// plug-in (cardtable-camera.so) it costs nothing until a `--device NAME=camera:...` asks for it.
//
// The plug-in exports one C-callable entry point, `cardtable_device_plugin`, which registers its drivers
// with the host: it is handed the host's ABI string and log function, and returns its driver table. The
// drivers pass C++ objects (DeviceConfig, Device) across, so a plug-in is only loaded by the build of
// cardtable it came from: a different ABI string is refused with the path and both strings.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "devices/device.hpp"

// Same compiler, same interface revision: bump the number when device.hpp's classes change shape.
#define CARDTABLE_PLUGIN_ABI "cardtable-device-plugin/1 " __VERSION__

extern "C" {
// What the host lends a plug-in: its log, so a plug-in's lines go where the daemon's devices' lines go.
struct cardtable_plugin_host {
  const char* abi;                                                 // CARDTABLE_PLUGIN_ABI of the host
  void (*log)(int level, const char* device, const char* message);  // devices::log of the host
};
// What a plug-in registers: its drivers (null when it refuses the host, with `error` saying why).
struct cardtable_plugin_drivers {
  const char* abi;                                  // CARDTABLE_PLUGIN_ABI of the plug-in
  const cardtable::devices::DriverEntry* drivers;   // `count` entries, alive as long as the plug-in is loaded
  std::size_t count;
};
// The entry point's name and type.
using cardtable_device_plugin_fn = const cardtable_plugin_drivers* (*)(const cardtable_plugin_host* host);
}
#define CARDTABLE_PLUGIN_ENTRY "cardtable_device_plugin"

namespace cardtable::devices {

// Where the plug-in `file` is looked for, in order, for a program at `self` (/proc/self/exe): the build
// tree (build/daemon/cardtabled -> build/devices/FILE), beside the program, then the package's place
// (CARDTABLE_PLUGIN_DIR, /usr/lib/<multiarch>/cardtable). The build tree first: a plug-in must come from
// the same build as the program, and a developer's build must not pick up an older installed one.
std::vector<std::filesystem::path> plugin_candidates(const std::string& file, const std::filesystem::path& self);
// The package's place for plug-ins.
std::filesystem::path installed_plugin_dir();

// Loads (once per process; never unloaded, as devices made by it run its code) the plug-in `file` and
// returns the factory of `driver` from it; null with `error` naming the path(s) and the reason.
DeviceFactory plugin_driver(const std::string& driver, const std::string& file, const std::filesystem::path& self,
                            std::string& error);
// The same for the running program.
DeviceFactory plugin_driver(const std::string& driver, const std::string& file, std::string& error);

}  // namespace cardtable::devices
