// The camera plug-in's entry point (devices/plugin.hpp): cardtable-camera.so registers the driver "camera"
// with the daemon that loads it, and sends its log lines to the daemon's.
#include "devices/camera/camera_device.hpp"
#include "devices/log.hpp"
#include "devices/plugin.hpp"

extern "C" __attribute__((visibility("default"))) const cardtable_plugin_drivers* cardtable_device_plugin(
    const cardtable_plugin_host* host) {
  using namespace cardtable::devices;
  static const DriverEntry table[] = {
      {"camera", "a camera reading card faces (V4L2, a video file or a folder of frames; zones from a calibration file)", &make_camera}};
  static const cardtable_plugin_drivers drivers{CARDTABLE_PLUGIN_ABI, table, 1};
  // This object holds its own copy of devices/log.cpp: route it to the host's sink. Only for a host of this
  // build (the host refuses the table otherwise, and its log function might not take these arguments).
  if (host && host->abi && std::string(host->abi) == CARDTABLE_PLUGIN_ABI && host->log) {
    auto host_log = host->log;
    set_log_sink([host_log](LogLevel level, const std::string& device, const std::string& message) {
      host_log(static_cast<int>(level), device.c_str(), message.c_str());
    });
  }
  return &drivers;
}
