// `cardtable-vision eval`: reads every labelled photograph of a YOLO-layout folder and scores it.
#pragma once

#include <string>
#include <vector>

namespace cardtable::vision_tool {

int eval_command(const std::vector<std::string>& args);

}  // namespace cardtable::vision_tool
