// The committed model on card images the test renders itself from Debian's card art (the standard deck
// of kdegames-card-data-kf5, rsvg-convert): upright, turned, upside down (6 and 9), overlapping, fanned.
#include <cstdlib>
#include <iostream>
#include <optional>
#include <vector>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/recogniser.hpp"

using cardtable::bridge::Card;
using cardtable::bridge::Hand;
using namespace cardtable::vision;
namespace fs = std::filesystem;

namespace {

const char* kDeck = "/usr/share/carddecks/svg-standard/standard.svgz";

fs::path work_dir() {
  static const fs::path d = [] {
    auto p = fs::temp_directory_path() / ("cardtable-rendered-" + std::to_string(::getpid()));
    fs::create_directories(p);
    return p;
  }();
  return d;
}

// One face, 200 px wide, BGRA; empty when the art or rsvg-convert is missing.
cv::Mat face(const std::string& svg_id) {
  const auto svg = work_dir() / "standard.svg";
  if (!fs::exists(svg) && std::system(("zcat " + std::string(kDeck) + " > " + svg.string() + " 2>/dev/null").c_str()) != 0) return {};
  const auto png = work_dir() / (svg_id + ".png");
  if (!fs::exists(png) &&
      std::system(("rsvg-convert -i " + svg_id + " -w 200 " + svg.string() + " -o " + png.string() + " 2>/dev/null").c_str()) != 0)
    return {};
  return cv::imread(png.string(), cv::IMREAD_UNCHANGED);
}

// Paste a face onto the frame, turned by `angle` degrees about (cx, cy).
void place(cv::Mat& frame, const cv::Mat& f, double cx, double cy, double angle) {
  cv::Mat M = cv::getRotationMatrix2D(cv::Point2f(static_cast<float>(f.cols) / 2, static_cast<float>(f.rows) / 2), angle, 1.0);
  M.at<double>(0, 2) += cx - f.cols / 2.0;
  M.at<double>(1, 2) += cy - f.rows / 2.0;
  cv::Mat w;
  cv::warpAffine(f, w, M, frame.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(0, 0, 0, 0));
  for (int y = 0; y < frame.rows; ++y)
    for (int x = 0; x < frame.cols; ++x) {
      const auto& p = w.at<cv::Vec4b>(y, x);
      const double a = p[3] / 255.0;
      auto& q = frame.at<cv::Vec3b>(y, x);
      for (int c = 0; c < 3; ++c) q[c] = cv::saturate_cast<uchar>(q[c] * (1 - a) + p[c] * a);
    }
}

cv::Mat cloth() {
  cv::Mat m(640, 640, CV_8UC3, cv::Scalar(40, 90, 30));
  cv::Mat noise(640, 640, CV_8UC3);
  cv::RNG rng(10);  // the same grain in every test, whatever ran before (the global RNG's state is not)
  rng.fill(noise, cv::RNG::NORMAL, 0, 6);
  return m + noise;
}

struct Scene {
  cv::Mat frame;
  Hand truth;
};

}  // namespace

class RenderedCards : public ::testing::Test {
 protected:
  void SetUp() override {
    if (face("1_spade").empty()) GTEST_SKIP() << "needs kdegames-card-data-kf5 and rsvg-convert";
  }
  Recogniser rec{CARDTABLE_VISION_MODEL};

  Scene scene(std::initializer_list<std::tuple<const char*, const char*, double, double, double>> cards) {
    Scene s{cloth(), {}};
    for (const auto& [id, name, x, y, angle] : cards) {
      place(s.frame, face(id), x, y, angle);
      s.truth.add(*Card::parse(name));
    }
    return s;
  }
};

#include "rendered_cards_laws.inc"
