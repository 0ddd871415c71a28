// `cardtable-vision read`: the cards the recogniser reads in each image given.
#pragma once

#include <string>
#include <vector>

namespace cardtable::vision_tool {

int read_command(const std::vector<std::string>& args);

}  // namespace cardtable::vision_tool
