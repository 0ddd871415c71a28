// `cardtable-vision enroll`: learn a deck from photographs of its cards, without retraining the network.
#pragma once

#include <string>
#include <vector>

namespace cardtable::vision_tool {

int enroll_command(const std::vector<std::string>& args);

}  // namespace cardtable::vision_tool
