#include "vision/zones_file.hpp"

#include <gtest/gtest.h>

#include <array>
#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

using namespace cardtable;
using namespace cardtable::vision;

TEST(ZonesFile, ParsesZonesAndFindsThePointsZone) {
  const auto m = parse_zones("# c\nframe 640 480\nzone play:N 10,10 100,10 100,100 10,100\nzone dummy 200,0 300,0 300,50\n", "z");
  EXPECT_EQ(m.width, 640);
  ASSERT_EQ(m.regions.size(), 2U);
  EXPECT_EQ(m.zone_at({50, 50})->str(), "play:N");
  EXPECT_EQ(m.zone_at({290, 10})->str(), "dummy");
  EXPECT_FALSE(m.zone_at({500, 400}));
  EXPECT_EQ(parse_zones(format_zones(m), "again").regions.size(), 2U) << "what calibrate writes, the daemon reads";
}

TEST(ZonesFile, MistakesAreErrorsWithTheLine) {
  try {
    parse_zones("frame 640 480\nzone play:Q 1,1 2,2 3,3\n", "zones.txt");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("zones.txt:2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_zones("zone dummy 1,1 2,2 3,3\n", "z"), std::runtime_error) << "no frame line";
  EXPECT_THROW(parse_zones("frame 640 480\n", "z"), std::runtime_error) << "no zones";
  EXPECT_THROW(parse_zones("frame 640 480\nzone dummy 1,1 2,2\n", "z"), std::runtime_error) << "two points are no polygon";
  EXPECT_THROW(parse_zones("frame 640 480\nzone dummy 1,1 2;2 3,3\n", "z"), std::runtime_error);
  EXPECT_THROW(parse_zones("frame 640 480\nzone dummy 1,1 2,2 3,nan\n", "z"), std::runtime_error);
  EXPECT_THROW(parse_zones("frame -1 480\nzone dummy 1,1 2,2 3,3\n", "z"), std::runtime_error);
  EXPECT_THROW(parse_zones("frame 640 480\nzone dummy 1,1 2,2 3,3\nzone dummy 1,1 2,2 3,3\n", "z"), std::runtime_error);
  EXPECT_THROW(parse_zones("frame 640 480\nbanana\n", "z"), std::runtime_error);
}

// A zone the camera cannot see (off the frame), one no card fits in, a polygon whose edges cross, and two
// zones sharing much of their area were all accepted: each zone off the frame was read empty on every
// frame, so the table saw a seat with no card and the board was never identified, without a word.
TEST(ZonesFile, AZoneTheCameraCannotUseIsAnErrorWithItsLine) {
  auto error_of = [](const std::string& text) {
    try {
      parse_zones(text, "zones.txt");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string off = error_of("frame 640 640\nzone play:N 10,10 100,10 100,100 10,100\nzone play:E 5000,5000 5100,5000 5100,5100 5000,5100\n");
  EXPECT_NE(off.find("zones.txt:3: zone play:E: point 5000,5000 is outside the 640x640 frame"), std::string::npos) << off;
  const std::string tiny = error_of("frame 640 640\nzone play:S 10,10 15,10 15,15 10,15\n");
  EXPECT_NE(tiny.find("zones.txt:2: zone play:S: its area is under 64 pixels"), std::string::npos) << tiny;
  const std::string flat = error_of("frame 640 640\nzone dummy 10,10 100,10 200,10\n");
  EXPECT_NE(flat.find("its area is under 64 pixels"), std::string::npos) << flat;
  const std::string bowtie = error_of("frame 640 640\nzone play:W 10,10 100,100 100,10 10,100\n");
  EXPECT_NE(bowtie.find("zones.txt:2: zone play:W: its edges cross"), std::string::npos) << bowtie;
  const std::string overlap = error_of("frame 640 640\nzone play:N 10,10 300,10 300,300 10,300\nzone play:E 100,100 400,100 400,400 100,400\n");
  EXPECT_NE(overlap.find("zones.txt:3: zone play:E overlaps zone play:N (zones.txt:2)"), std::string::npos) << overlap;
  // Zones that only touch, or share a sliver, are fine; a point on the far edge of the frame too.
  EXPECT_EQ(error_of("frame 640 640\nzone play:N 0,0 320,0 320,320 0,320\nzone play:E 310,0 640,0 640,640 310,640\n"), "accepted");
}

namespace {

// A rendered table: grey cloth, markers 0..3 at the given centres (NW, NE, SE, SW of the table when in order).
cv::Mat table_with_markers(const std::array<cv::Point, 4>& centres) {
  cv::Mat frame(600, 800, CV_8UC3, cv::Scalar(60, 110, 60));
  const auto dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  for (int id = 0; id < 4; ++id) {
    cv::Mat marker;
    cv::aruco::drawMarker(dict, id, 60, marker, 1);
    cv::Mat framed(80, 80, CV_8U, cv::Scalar(255));
    marker.copyTo(framed(cv::Rect(10, 10, 60, 60)));
    cv::Mat bgr;
    cv::cvtColor(framed, bgr, cv::COLOR_GRAY2BGR);
    const cv::Point c = centres[static_cast<std::size_t>(id)];
    bgr.copyTo(frame(cv::Rect(c.x - 40, c.y - 40, 80, 80)));
  }
  return frame;
}

}  // namespace

TEST(ZonesFile, ArucoMarkersAtTheCornersPlaceTheZones) {
  // Markers 0..3 at NW, NE, SE, SW of a 600x400 table inside an 800x600 frame.
  const cv::Mat frame = table_with_markers({{{100, 100}, {700, 100}, {700, 500}, {100, 500}}});
  const auto m = calibrate_from_markers(frame, "play", bridge::Seat::North);
  // The table's centre line: play:N above the centre, play:S below, dummy along the North edge.
  EXPECT_EQ(m.zone_at({400, 230})->str(), "play:N");
  EXPECT_EQ(m.zone_at({400, 370})->str(), "play:S");
  EXPECT_EQ(m.zone_at({250, 300})->str(), "play:W");
  EXPECT_EQ(m.zone_at({550, 300})->str(), "play:E");
  EXPECT_EQ(m.zone_at({400, 120})->str(), "dummy");
  const auto st = calibrate_from_markers(frame, "station", bridge::Seat::North);
  EXPECT_EQ(st.zone_at({600, 400})->str(), "hand:S");
  EXPECT_FALSE(draw_zones(frame, m).empty());

  cv::Mat no_markers(600, 800, CV_8UC3, cv::Scalar(60, 110, 60));
  EXPECT_THROW(calibrate_from_markers(no_markers, "play", bridge::Seat::North), std::runtime_error);
}

// Two markers swapped (NE and SE) gave crossed zones reaching far outside the frame, written with exit 0.
TEST(ZonesFile, MarkersOutOfOrderAreRefusedNamingThem) {
  const cv::Mat swapped = table_with_markers({{{100, 100}, {700, 500}, {700, 100}, {100, 500}}});
  try {
    calibrate_from_markers(swapped, "play", bridge::Seat::North);
    FAIL() << "swapped markers were calibrated";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("ArUco markers out of place"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("are two markers swapped?"), std::string::npos) << e.what();
  }
}
