// `cardtablectl enroll`: walks a person through a pack at the scan reader and writes its deck file
// atomically (devices/enrolment.hpp holds the logic, docs/hardware.md the deck file format).
#pragma once

#include <string>
#include <vector>

namespace cardtable::tools {

int run_enroll(const std::vector<std::string>& args);

}  // namespace cardtable::tools
