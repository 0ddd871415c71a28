#include "vision/zones_file.hpp"
#include "vision/word_lines.hpp"

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

}  // namespace

std::optional<table::Zone> ZoneMap::zone_at(cv::Point2f p) const {
  for (const auto& r : regions)
    if (cv::pointPolygonTest(r.polygon, p, false) >= 0) return r.zone;
  return std::nullopt;
}

ZoneMap parse_zones(std::string_view text, const std::string& where) {
  ZoneMap m;
  bool have_frame = false;
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
    } else {
      throw std::runtime_error(at + ": unknown line '" + std::string(w[0]) + "' (frame, zone, # comment)");
    }
  });
  if (!have_frame) throw std::runtime_error(where + ": no 'frame WIDTH HEIGHT' line");
  if (m.regions.empty()) throw std::runtime_error(where + ": no zones");
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
