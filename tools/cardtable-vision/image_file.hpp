// One image named on the command line, read with a message that says what is wrong with it.
#pragma once

#include <string>

#include <opencv2/core.hpp>

namespace cardtable::vision_tool {

// The image at `path` in BGR. Throws std::runtime_error naming the path: "no such file" when it is
// not there (checked first, so OpenCV's own warning about it is not printed as well), "not an image
// OpenCV can decode" when it is there but cannot be read as one.
cv::Mat read_image(const std::string& path);

}  // namespace cardtable::vision_tool
