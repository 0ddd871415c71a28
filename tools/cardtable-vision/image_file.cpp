#include "image_file.hpp"

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <opencv2/imgcodecs.hpp>

namespace cardtable::vision_tool {

cv::Mat read_image(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw std::runtime_error(path + ": no such file");
  if (std::filesystem::is_directory(path, ec)) throw std::runtime_error(path + ": a folder, not an image");
  cv::Mat frame = cv::imread(path, cv::IMREAD_COLOR);
  if (frame.empty()) throw std::runtime_error(path + ": not an image OpenCV can decode");
  return frame;
}

}  // namespace cardtable::vision_tool
