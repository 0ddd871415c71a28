// Where a program finds a data file or folder the package installs (the readers' quirk file, the
// camera's recogniser model, the web console's page) when no option names one. Header-only (the target
// cardtable_data_files), so every program keeps the one rule without linking devices/: cardtabled, its
// camera plug-in, cardtable-vision, cardtable-console.
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

namespace cardtable::data_files {

// The source tree's copy when it is there, else the installed one. A program run from the build tree
// (the README's examples, before any package is installed) then finds the files it was built with; an
// installed program on another machine has no such source path and reads the package's.
inline std::string source_or_installed(const std::string& source, const std::string& installed) {
  std::error_code ec;
  if (!source.empty() && std::filesystem::exists(source, ec)) return source;
  return installed;
}

}  // namespace cardtable::data_files
