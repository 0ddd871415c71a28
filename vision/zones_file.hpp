// The calibration file: which image region is which zone of the table. Text, one zone a line:
//   # cardtable-vision zones 1
//   frame 1280 720
//   zone play:N 520,180 760,180 760,330 520,330
// A polygon of at least 3 points in frame pixels. `cardtable-vision calibrate` writes it from the
// table's ArUco markers; an operator may edit it by hand, so the parser checks everything.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <opencv2/core.hpp>

#include "table/zone.hpp"

namespace cardtable::vision {

struct ZoneRegion {
  table::Zone zone;
  std::vector<cv::Point2f> polygon;
};

struct ZoneMap {
  int width = 0, height = 0;  // the frame size the polygons are for
  std::vector<ZoneRegion> regions;
  // The zone holding a point (the first listed wins where polygons overlap).
  std::optional<table::Zone> zone_at(cv::Point2f p) const;
};

// Throws std::runtime_error naming `where` and the line.
ZoneMap parse_zones(std::string_view text, const std::string& where);
ZoneMap read_zones(const std::filesystem::path& file);
std::string format_zones(const ZoneMap& m);

// The table's layout in table coordinates (0..1 square, North at the top): four play areas and dummy
// in front of `dummy_seat` ("play"), or four fanned hands (a board-checking station, "station").
std::vector<std::pair<table::Zone, std::vector<cv::Point2f>>> table_layout(const std::string& kind, bridge::Seat dummy_seat);

// ArUco markers 0..3 (DICT_4X4_50) at the table's corners NW, NE, SE, SW set the table square in the
// frame; the layout is mapped through it. Throws when a marker is missing.
ZoneMap calibrate_from_markers(const cv::Mat& bgr, const std::string& layout, bridge::Seat dummy_seat);
// The frame with the zones drawn on it and named.
cv::Mat draw_zones(const cv::Mat& bgr, const ZoneMap& m);

}  // namespace cardtable::vision
