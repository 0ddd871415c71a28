#include "devices/plugin.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <map>
#include <mutex>

#include "devices/log.hpp"

#ifndef CARDTABLE_PLUGIN_DIR
#define CARDTABLE_PLUGIN_DIR "/usr/lib/cardtable"
#endif

namespace cardtable::devices {
namespace fs = std::filesystem;

namespace {

void host_log(int level, const char* device, const char* message) {
  log(static_cast<LogLevel>(level), device ? device : "", message ? message : "");
}

struct Loaded {
  fs::path path;
  std::map<std::string, DeviceFactory> factories;
};

// Keyed by file name: a plug-in is opened once, whatever the number of devices of its drivers.
std::mutex& loaded_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, Loaded>& loaded() {
  static std::map<std::string, Loaded> l;
  return l;
}

bool open_plugin(const fs::path& path, Loaded& out, std::string& error) {
  // RTLD_LOCAL: the plug-in's own copies of the cardtable libraries it links stay its own. RTLD_NOW: a
  // missing symbol (an OpenCV library absent) is an error here, not a crash at the first frame.
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = ::dlerror();
    error = "plug-in " + path.string() + " cannot be loaded: " + (why ? why : "unknown dlopen error");
    return false;
  }
  auto entry = reinterpret_cast<cardtable_device_plugin_fn>(::dlsym(handle, CARDTABLE_PLUGIN_ENTRY));
  if (!entry) {
    error = "plug-in " + path.string() + " has no entry point " CARDTABLE_PLUGIN_ENTRY;
    ::dlclose(handle);
    return false;
  }
  static const cardtable_plugin_host host{CARDTABLE_PLUGIN_ABI, &host_log};
  const cardtable_plugin_drivers* drivers = entry(&host);
  if (!drivers || !drivers->abi || std::string(drivers->abi) != CARDTABLE_PLUGIN_ABI) {
    error = "plug-in " + path.string() + " is from another build of cardtable (its ABI '" +
            (drivers && drivers->abi ? drivers->abi : "?") + "', the daemon's '" CARDTABLE_PLUGIN_ABI "')";
    ::dlclose(handle);
    return false;
  }
  out.path = path;
  for (std::size_t i = 0; i < drivers->count; ++i) out.factories[drivers->drivers[i].name] = drivers->drivers[i].make;
  return true;  // the handle is kept open for the life of the process
}

}  // namespace

fs::path installed_plugin_dir() { return CARDTABLE_PLUGIN_DIR; }

std::vector<fs::path> plugin_candidates(const std::string& file, const fs::path& self) {
  fs::path here = self.parent_path();
  return {here.parent_path() / "devices" / file, here / file, installed_plugin_dir() / file};
}

DeviceFactory plugin_driver(const std::string& driver, const std::string& file, const fs::path& self, std::string& error) {
  std::lock_guard lock(loaded_mutex());
  auto it = loaded().find(file);
  if (it == loaded().end()) {
    std::vector<fs::path> candidates = plugin_candidates(file, self);
    const fs::path* found = nullptr;
    for (const fs::path& p : candidates)
      if (::access(p.c_str(), R_OK) == 0) {
        found = &p;
        break;
      }
    if (!found) {
      std::string looked;
      for (std::size_t i = 0; i + 1 < candidates.size(); ++i) looked += (looked.empty() ? "" : ", ") + candidates[i].string();
      error = "driver " + driver + ": plug-in " + candidates.back().string() +
              " not found: install the cardtable package (a build with vision/), or build the target cardtable-camera (also looked in " +
              looked + ")";
      return nullptr;
    }
    Loaded l;
    if (!open_plugin(*found, l, error)) {
      error = "driver " + driver + ": " + error;
      return nullptr;
    }
    it = loaded().emplace(file, std::move(l)).first;
  }
  auto f = it->second.factories.find(driver);
  if (f == it->second.factories.end()) {
    error = "driver " + driver + ": plug-in " + it->second.path.string() + " does not register it";
    return nullptr;
  }
  return f->second;
}

DeviceFactory plugin_driver(const std::string& driver, const std::string& file, std::string& error) {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return plugin_driver(driver, file, self, error);
}

}  // namespace cardtable::devices
