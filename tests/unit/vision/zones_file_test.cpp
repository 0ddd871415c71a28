#include "vision/zones_file.hpp"

#include <gtest/gtest.h>
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

TEST(ZonesFile, ArucoMarkersAtTheCornersPlaceTheZones) {
  // A rendered table: grey cloth, markers 0..3 at NW, NE, SE, SW of a 600x400 table inside an 800x600 frame.
  cv::Mat frame(600, 800, CV_8UC3, cv::Scalar(60, 110, 60));
  const auto dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  const cv::Point centres[4] = {{100, 100}, {700, 100}, {700, 500}, {100, 500}};
  for (int id = 0; id < 4; ++id) {
    cv::Mat marker;
    cv::aruco::drawMarker(dict, id, 60, marker, 1);
    cv::Mat framed(80, 80, CV_8U, cv::Scalar(255));
    marker.copyTo(framed(cv::Rect(10, 10, 60, 60)));
    cv::Mat bgr;
    cv::cvtColor(framed, bgr, cv::COLOR_GRAY2BGR);
    bgr.copyTo(frame(cv::Rect(centres[id].x - 40, centres[id].y - 40, 80, 80)));
  }
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
