#include "daemon/master_loader.hpp"

#include <filesystem>

#include "daemon/log.hpp"
#include "daemon/startup_error.hpp"

namespace cardtable::daemon {
namespace fs = std::filesystem;

LoadedRecord load_master(const std::vector<std::string>& paths) {
  LoadedRecord loaded{std::make_unique<bridge::MasterRecord>(), {}};
  std::vector<fs::path> p(paths.begin(), paths.end());
  for (const auto& path : p)
    if (!fs::exists(path)) throw StartupError("--master " + path.string() + ": no such file or folder");
  bridge::Diagnostics d = loaded.record->load(p);
  std::size_t errors = 0;
  for (const auto& x : d) {
    log(x.is_error() ? Priority::Warning : Priority::Notice, x.str());
    errors += x.is_error() ? 1U : 0U;
  }
  if (loaded.record->size() == 0) throw StartupError("the master record holds no complete deal (" + std::to_string(errors) + " errors)");
  loaded.errors = errors;
  loaded.summary = std::to_string(loaded.record->size()) + " boards in " + std::to_string(loaded.record->session_count()) + " sessions" +
                   (errors ? ", " + std::to_string(errors) + " problems reported" : "");
  return loaded;
}

}  // namespace cardtable::daemon
