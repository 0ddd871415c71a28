// Where the daemon finds a data file the package installs (the readers' quirk file, the camera's
// recogniser model) when no option names one.
#pragma once

#include <string>

namespace cardtable::devices {

// The source tree's copy when it is there, else the installed one. A daemon run from the build tree
// (the README's examples, before any package is installed) then finds the files it was built with; an
// installed daemon on another machine has no such source path and reads the package's. The tool
// cardtable-vision picks its default model the same way.
std::string source_or_installed(const std::string& source, const std::string& installed);

}  // namespace cardtable::devices
