#include "vision/zones_file.hpp"
#include "vision/word_lines.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

namespace cardtable::vision {

namespace {

int to_int(std::string_view s, const std::string& at) {
  int v = 0;
  if (!whole_number(s, v)) throw std::runtime_error(at + ": not a whole number: '" + std::string(s) + "'");
  return v;
}

float to_float(std::string_view s, const std::string& at) {
  float v = 0;
  if (!finite_number(s, v) || v < -1e6f || v > 1e6f)
    throw std::runtime_error(at + ": not a coordinate: '" + std::string(s) + "'");
  return v;
}

double cross(cv::Point2f o, cv::Point2f a, cv::Point2f b) { return double(a.x - o.x) * (b.y - o.y) - double(a.y - o.y) * (b.x - o.x); }

// Do segments ab and cd cross at a point inside both (touching at an end does not count)?
bool segments_cross(cv::Point2f a, cv::Point2f b, cv::Point2f c, cv::Point2f d) {
  const double d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

bool self_crossing(const std::vector<cv::Point2f>& p) {
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // neighbours through the closing edge
      if (segments_cross(p[i], p[(i + 1) % n], p[j], p[(j + 1) % n])) return true;
    }
  return false;
}

// A zone the camera cannot see, or one no card fits in, was read as an empty zone on every frame: the
// table saw a seat with no card, and no warning said why. Two zones that share much of their area give
// a card to whichever is listed first. Each is refused, naming the line.
void check_regions(const ZoneMap& m, const std::vector<std::string>& at) {
  constexpr double kMinArea = 64;  // pixels: under 8 x 8 no card index fits
  const double tolerance = 1;      // a point on the frame's far edge, rounded
  for (std::size_t i = 0; i < m.regions.size(); ++i) {
    const ZoneRegion& r = m.regions[i];
    for (const auto& p : r.polygon)
      if (p.x < -tolerance || p.y < -tolerance || p.x > m.width + tolerance || p.y > m.height + tolerance)
        throw std::runtime_error(at[i] + ": zone " + r.zone.str() + ": point " + std::to_string(std::lround(p.x)) + "," +
                                 std::to_string(std::lround(p.y)) + " is outside the " + std::to_string(m.width) + "x" +
                                 std::to_string(m.height) + " frame (the camera would never see that part of the zone)");
    if (self_crossing(r.polygon))
      throw std::runtime_error(at[i] + ": zone " + r.zone.str() + ": its edges cross (list the points in order around the zone)");
    if (cv::contourArea(r.polygon) < kMinArea)
      throw std::runtime_error(at[i] + ": zone " + r.zone.str() + ": its area is under 64 pixels: no card index fits in it");
  }
  // Overlap, measured on a mask at most 512 pixels across: corners that touch are fine (the calibrated
  // play areas share a little), a tenth of the smaller zone is not.
  const double scale = std::min(1.0, 512.0 / std::max(m.width, m.height));
  const cv::Size size(std::max(1, static_cast<int>(std::ceil(m.width * scale))), std::max(1, static_cast<int>(std::ceil(m.height * scale))));
  std::vector<cv::Mat> masks;
  for (const auto& r : m.regions) {
    cv::Mat mask = cv::Mat::zeros(size, CV_8U);
    std::vector<cv::Point> pts;
    for (const auto& p : r.polygon) pts.emplace_back(static_cast<int>(std::lround(p.x * scale)), static_cast<int>(std::lround(p.y * scale)));
    cv::fillPoly(mask, std::vector<std::vector<cv::Point>>{pts}, cv::Scalar(255));
    masks.push_back(mask);
  }
  for (std::size_t i = 0; i < masks.size(); ++i)
    for (std::size_t j = i + 1; j < masks.size(); ++j) {
      cv::Mat both;
      cv::bitwise_and(masks[i], masks[j], both);
      const int shared = cv::countNonZero(both);
      const int smaller = std::min(cv::countNonZero(masks[i]), cv::countNonZero(masks[j]));
      if (smaller > 0 && shared * 10 > smaller)
        throw std::runtime_error(at[j] + ": zone " + m.regions[j].zone.str() + " overlaps zone " + m.regions[i].zone.str() + " (" +
                                 at[i] + ") over " + std::to_string(shared * 100 / smaller) +
                                 " % of the smaller one: a card there would count for the first listed only");
    }
}

}  // namespace

std::optional<table::Zone> ZoneMap::zone_at(cv::Point2f p) const {
  for (const auto& r : regions)
    if (cv::pointPolygonTest(r.polygon, p, false) >= 0) return r.zone;
  return std::nullopt;
}

ZoneMap parse_zones(std::string_view text, const std::string& where) {
  ZoneMap m;
  bool have_frame = false;
  std::vector<std::string> region_at;  // each zone's line, for the checks once the frame size is known
  for_each_record(text, where, [&](const std::string& at, const Words& w) {
    if (w[0] == "frame") {
      if (w.size() != 3) throw std::runtime_error(at + ": 'frame WIDTH HEIGHT'");
      m.width = to_int(w[1], at);
      m.height = to_int(w[2], at);
      if (m.width < 1 || m.height < 1 || m.width > 16384 || m.height > 16384) throw std::runtime_error(at + ": frame size out of range");
      have_frame = true;
    } else if (w[0] == "zone") {
      if (w.size() < 5) throw std::runtime_error(at + ": 'zone NAME x,y x,y x,y ...' needs at least three points");
      const auto z = table::Zone::parse(w[1]);
      if (!z) throw std::runtime_error(at + ": unknown zone '" + std::string(w[1]) + "' (play:N, dummy, hand:E, pocket:S, scan)");
      ZoneRegion r{*z, {}};
      for (std::size_t i = 2; i < w.size(); ++i) {
        const auto comma = w[i].find(',');
        if (comma == std::string_view::npos) throw std::runtime_error(at + ": a point is 'x,y', not '" + std::string(w[i]) + "'");
        r.polygon.emplace_back(to_float(w[i].substr(0, comma), at), to_float(w[i].substr(comma + 1), at));
      }
      for (const auto& o : m.regions)
        if (o.zone == r.zone) throw std::runtime_error(at + ": zone " + r.zone.str() + " given twice");
      m.regions.push_back(std::move(r));
      region_at.push_back(at);
    } else {
      throw std::runtime_error(at + ": unknown line '" + std::string(w[0]) + "' (frame, zone, # comment)");
    }
  });
  if (!have_frame) throw std::runtime_error(where + ": no 'frame WIDTH HEIGHT' line");
  if (m.regions.empty()) throw std::runtime_error(where + ": no zones");
  check_regions(m, region_at);
  return m;
}

ZoneMap read_zones(const std::filesystem::path& file) {
  return parse_zones(read_text_file(file, "zones file"), file.string());
}

std::string format_zones(const ZoneMap& m) {
  std::ostringstream o;
  o << "# cardtable-vision zones 1\nframe " << m.width << " " << m.height << "\n";
  for (const auto& r : m.regions) {
    o << "zone " << r.zone.str();
    for (const auto& p : r.polygon) o << " " << static_cast<int>(std::lround(p.x)) << "," << static_cast<int>(std::lround(p.y));
    o << "\n";
  }
  return o.str();
}

std::vector<std::pair<table::Zone, std::vector<cv::Point2f>>> table_layout(const std::string& kind, bridge::Seat dummy_seat) {
  auto rect = [](float x0, float y0, float x1, float y1) { return std::vector<cv::Point2f>{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; };
  auto zone = [](const std::string& s) { return *table::Zone::parse(s); };
  std::vector<std::pair<table::Zone, std::vector<cv::Point2f>>> out;
  if (kind == "station") {  // four fanned hands, one per quadrant, named by seat
    out.emplace_back(zone("hand:N"), rect(0.02f, 0.02f, 0.49f, 0.49f));
    out.emplace_back(zone("hand:E"), rect(0.51f, 0.02f, 0.98f, 0.49f));
    out.emplace_back(zone("hand:S"), rect(0.51f, 0.51f, 0.98f, 0.98f));
    out.emplace_back(zone("hand:W"), rect(0.02f, 0.51f, 0.49f, 0.98f));
    return out;
  }
  if (kind != "play") throw std::runtime_error("unknown layout '" + kind + "' (play, station)");
  // Play areas in front of each seat, around the table's centre; dummy along dummy's edge.
  out.emplace_back(zone("play:N"), rect(0.38f, 0.24f, 0.62f, 0.40f));
  out.emplace_back(zone("play:E"), rect(0.60f, 0.38f, 0.76f, 0.62f));
  out.emplace_back(zone("play:S"), rect(0.38f, 0.60f, 0.62f, 0.76f));
  out.emplace_back(zone("play:W"), rect(0.24f, 0.38f, 0.40f, 0.62f));
  std::vector<cv::Point2f> dummy;
  switch (dummy_seat) {
    case bridge::Seat::North: dummy = rect(0.15f, 0.02f, 0.85f, 0.22f); break;
    case bridge::Seat::East: dummy = rect(0.78f, 0.15f, 0.98f, 0.85f); break;
    case bridge::Seat::South: dummy = rect(0.15f, 0.78f, 0.85f, 0.98f); break;
    case bridge::Seat::West: dummy = rect(0.02f, 0.15f, 0.22f, 0.85f); break;
  }
  out.emplace_back(zone("dummy"), dummy);
  return out;
}

ZoneMap calibrate_from_markers(const cv::Mat& bgr, const std::string& layout, bridge::Seat dummy_seat) {
  // The daemon reads frames of at most 16384 pixels a side (parse_zones): a larger frame's file was
  // written with exit 0 and refused at start.
  if (bgr.cols > 16384 || bgr.rows > 16384)
    throw std::runtime_error("the frame is " + std::to_string(bgr.cols) + "x" + std::to_string(bgr.rows) +
                             ": a camera's frames are at most 16384 pixels a side");
  const auto dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  std::vector<int> ids;
  std::vector<std::vector<cv::Point2f>> corners;
  cv::aruco::detectMarkers(bgr, dict, corners, ids);
  std::vector<cv::Point2f> table(4);
  std::vector<bool> seen(4, false);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] > 3) continue;
    cv::Point2f c(0, 0);
    for (const auto& p : corners[i]) c += p * 0.25f;
    table[static_cast<std::size_t>(ids[i])] = c;
    seen[static_cast<std::size_t>(ids[i])] = true;
  }
  std::string missing;
  const char* names[4] = {"0 (NW)", "1 (NE)", "2 (SE)", "3 (SW)"};
  for (std::size_t i = 0; i < 4; ++i)
    if (!seen[i]) missing += std::string(missing.empty() ? "" : ", ") + names[i];
  if (!missing.empty()) throw std::runtime_error("ArUco markers not found in the frame: " + missing + " (DICT_4X4_50, ids 0..3 at the table's corners)");
  // The markers must go round the table in order (NW, NE, SE, SW): two swapped made crossed zones far
  // outside the frame, written with exit 0. In image coordinates (y down) going round clockwise keeps
  // every turn the same way.
  for (std::size_t i = 0; i < 4; ++i) {
    const double turn = cross(table[i], table[(i + 1) % 4], table[(i + 2) % 4]);
    if (turn <= 0)
      throw std::runtime_error(std::string("ArUco markers out of place: going round the table from ") + names[i] + " through " +
                               names[(i + 1) % 4] + " to " + names[(i + 2) % 4] +
                               " does not turn clockwise as seen by the camera; are two markers swapped? Marker 0 goes at "
                               "the table's NW corner, then 1 NE, 2 SE, 3 SW, clockwise seen from above");
  }
  const std::vector<cv::Point2f> unit = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const cv::Mat H = cv::getPerspectiveTransform(unit, table);
  ZoneMap m;
  m.width = bgr.cols;
  m.height = bgr.rows;
  for (auto& [z, poly] : table_layout(layout, dummy_seat)) {
    ZoneRegion r{z, {}};
    cv::perspectiveTransform(poly, r.polygon, H);
    m.regions.push_back(std::move(r));
  }
  check_regions(m, std::vector<std::string>(m.regions.size(), "calibration"));
  return m;
}

cv::Mat draw_zones(const cv::Mat& bgr, const ZoneMap& m) {
  cv::Mat out = bgr.clone();
  for (const auto& r : m.regions) {
    std::vector<cv::Point> pts;
    for (const auto& p : r.polygon) pts.emplace_back(cv::Point(static_cast<int>(std::lround(p.x)), static_cast<int>(std::lround(p.y))));
    cv::polylines(out, pts, true, cv::Scalar(0, 255, 255), 2);
    cv::putText(out, r.zone.str(), pts[0] + cv::Point(4, 18), cv::FONT_HERSHEY_SIMPLEX, 0.6, cv::Scalar(0, 255, 255), 2);
  }
  return out;
}

}  // namespace cardtable::vision
