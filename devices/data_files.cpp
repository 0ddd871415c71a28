#include "devices/data_files.hpp"

#include <filesystem>
#include <system_error>

namespace cardtable::devices {

std::string source_or_installed(const std::string& source, const std::string& installed) {
  std::error_code ec;
  if (!source.empty() && std::filesystem::is_regular_file(source, ec)) return source;
  return installed;
}

}  // namespace cardtable::devices
