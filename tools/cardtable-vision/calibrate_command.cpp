#include "calibrate_command.hpp"

#include <fstream>
#include <iostream>
#include <stdexcept>

#include <opencv2/imgcodecs.hpp>

#include "image_file.hpp"
#include "options.hpp"
#include "vision/frame_source.hpp"
#include "vision/zones_file.hpp"

namespace cardtable::vision_tool {

namespace {
constexpr const char* kHelp = R"(usage: cardtable-vision calibrate --frame IMAGE|--source SPEC --out ZONES [--png FILE]
                                  [--layout play|station] [--dummy N|E|S|W]
Finds ArUco markers 0..3 (dictionary DICT_4X4_50) at the table's NW, NE, SE and SW corners, maps the
table layout through them and writes the zones file (play:N/E/S/W and dummy, or hand:N/E/S/W for a
board-checking station). --png writes the frame with the zones drawn and named, to check by eye.
--source takes a camera (v4l2:/dev/video0), a video file or a folder of frames and uses its first frame.
)";
}  // namespace

int calibrate_command(const std::vector<std::string>& args) {
  Options o(args, {"--frame", "--source", "--out", "--png", "--layout", "--dummy"}, {"--help"});
  if (o.flag("--help")) { std::cout << kHelp; return 0; }
  if (!o.has("--out") || (o.has("--frame") == o.has("--source"))) throw UsageError(std::string("needs --out and one of --frame, --source\n") + kHelp);
  // The picture's format is known by its name: checked before anything is written (an unknown one gave
  // OpenCV's raw error, exit 1, after the zones file had been written).
  if (o.has("--png") && !cv::haveImageWriter(o.value("--png", "")))
    throw UsageError("--png " + o.value("--png", "") + ": no image format by that name (use .png or .jpg)");
  cv::Mat frame;
  if (o.has("--frame")) {
    frame = read_image(o.value("--frame", ""));
  } else {
    auto src = vision::open_source(o.value("--source", ""));
    for (int tries = 0; tries < 50 && frame.empty() && !src->finished(); ++tries)
      if (auto f = src->next()) frame = f->image;
    if (frame.empty()) throw std::runtime_error(src->describe() + ": no frame");
  }
  const auto seat = bridge::parse_seat(o.value("--dummy", "N"));
  if (!seat) throw UsageError("--dummy wants N, E, S or W");
  const auto zones = vision::calibrate_from_markers(frame, o.value("--layout", "play"), *seat);
  std::ofstream out(o.value("--out", ""));
  if (!(out << vision::format_zones(zones))) throw std::runtime_error("cannot write " + o.value("--out", ""));
  if (o.has("--png") && !cv::imwrite(o.value("--png", ""), vision::draw_zones(frame, zones)))
    throw std::runtime_error("cannot write " + o.value("--png", ""));
  std::cout << "wrote " << o.value("--out", "") << " (" << zones.regions.size() << " zones)\n";
  return 0;
}

}  // namespace cardtable::vision_tool
