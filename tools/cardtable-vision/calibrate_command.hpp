// `cardtable-vision calibrate`: the zones file from a frame showing the table's ArUco markers.
#pragma once

#include <string>
#include <vector>

namespace cardtable::vision_tool {

int calibrate_command(const std::vector<std::string>& args);

}  // namespace cardtable::vision_tool
