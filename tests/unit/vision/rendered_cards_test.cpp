// The committed model on card images the test renders itself from Debian's card art (the standard deck
// of kdegames-card-data-kf5, rsvg-convert): upright, turned, upside down (6 and 9), overlapping, fanned.
#include <cstdlib>
#include <iostream>
#include <optional>
#include <vector>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "rendered_table.hpp"
#include "vision/hand_layers.hpp"
#include "vision/recogniser.hpp"

using cardtable::bridge::Card;
using cardtable::bridge::Hand;
using namespace cardtable::vision;
using cardtable::test::place;
namespace fs = std::filesystem;

namespace {

const char* kDeck = "/usr/share/carddecks/svg-standard/standard.svgz";

// The rendered faces, kept for the process's life and removed at its end.
fs::path work_dir() {
  static const cardtable::test::ProcessFolder folder("cardtable-rendered");
  return folder.path();
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
