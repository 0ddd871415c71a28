// Frames of a card table rendered by the tests themselves from Debian's free card art (the standard deck
// of kdegames-card-data-kf5, drawn by rsvg-convert): a green cloth, four play areas (North at the top), a
// card face up in each area as a player lays it, turned towards its player. Used by the camera device's
// tests and the replay through cardtabled; the zones file that goes with them is `play_zones()`.
#pragma once

#include <array>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "bridge/card.hpp"
#include "bridge/hand.hpp"
#include "process_folder.hpp"

namespace cardtable::test {

// Pastes a BGRA face onto a BGR frame, centred at (cx, cy) and turned by `angle` degrees, blended by its
// alpha (the rounded corners let the cloth show). An empty face pastes nothing.
inline void place(cv::Mat& frame, const cv::Mat& f, double cx, double cy, double angle) {
  if (f.empty()) return;
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

class TableRenderer {
 public:
  static constexpr int kSize = 640;
  static constexpr const char* kDeck = "/usr/share/carddecks/svg-standard/standard.svgz";

  // `stem` names its folder of rendered faces under the temporary folder; the folder goes with it.
  explicit TableRenderer(const std::string& stem) : folder_(stem), work_(folder_.path()) {}

  // False when the card art or rsvg-convert is missing (the tests then skip, saying so).
  bool available() { return !face(bridge::Card(bridge::Suit::Spades, bridge::Rank::Ace)).empty(); }

  // One face, 120 px wide, BGRA (the svg element ids are "1_spade", "10_diamond", "king_heart").
  cv::Mat face(bridge::Card c) {
    static const char* ranks[] = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "1"};
    static const char* suits[] = {"club", "diamond", "heart", "spade"};
    const std::string id = std::string(ranks[static_cast<int>(c.rank())]) + "_" + suits[static_cast<int>(c.suit())];
    const auto svg = work_ / "standard.svg";
    if (!std::filesystem::exists(svg) && std::system(("zcat " + std::string(kDeck) + " > " + svg.string() + " 2>/dev/null").c_str()) != 0)
      return {};
    const auto png = work_ / (id + ".png");
    if (!std::filesystem::exists(png) &&
        std::system(("rsvg-convert -i " + id + " -w 120 " + svg.string() + " -o " + png.string() + " 2>/dev/null").c_str()) != 0)
      return {};
    // Cut to the visible card: the standard deck's "1_spade" element is drawn 120x325, the card in its
    // lower half and nothing above (placed by its middle, it lay half off the table).
    cv::Mat f = cv::imread(png.string(), cv::IMREAD_UNCHANGED);
    if (f.empty() || f.channels() != 4) return f;
    std::vector<cv::Mat> ch;
    cv::split(f, ch);
    return f(cv::boundingRect(ch[3] > 0)).clone();
  }

  // The cloth, with a fixed grain (the same for every frame: a still camera over a still table).
  cv::Mat cloth(int size = kSize) const {
    cv::Mat m(size, size, CV_8UC3, cv::Scalar(40, 90, 30));
    cv::Mat noise(size, size, CV_8UC3);
    cv::RNG rng(10);
    rng.fill(noise, cv::RNG::NORMAL, 0, 6);
    return m + noise;
  }

  // A frame with the cards in the play areas (a seat absent: its area is empty).
  cv::Mat play_frame(const std::map<bridge::Seat, bridge::Card>& cards) {
    cv::Mat frame = cloth();
    for (const auto& [seat, card] : cards) {
      const auto [cx, cy, angle] = area(seat);
      place(frame, face(card), cx, cy, angle);
    }
    return frame;
  }

  // A card anywhere on the cloth: centre, turn (degrees) and size (1: the 120 px face).
  struct Placed {
    bridge::Card card;
    double cx, cy, angle, scale = 1.0;
  };
  cv::Mat scene(const std::vector<Placed>& cards, int size = kSize) {
    cv::Mat frame = cloth(size);
    for (const auto& p : cards) {
      cv::Mat f = face(p.card);
      if (p.scale != 1.0 && !f.empty()) cv::resize(f, f, cv::Size(), p.scale, p.scale, cv::INTER_AREA);
      place(frame, f, p.cx, p.cy, p.angle);
    }
    return frame;
  }

  // A board-checking station's tray seen from above (kStation px square): each pocket's hand spread
  // face up in its quarter -- North top left, East top right, South bottom right, West bottom left --
  // thirteen cards in rows of five, 0.85 of the play areas' size, every other one turned.
  static constexpr int kStation = 1280;
  cv::Mat station_frame(const std::array<bridge::Hand, 4>& hands) {
    std::vector<Placed> cards;
    for (int s = 0; s < 4; ++s) {
      const auto q = quarter(static_cast<bridge::Seat>(s));
      const int qx = q.first, qy = q.second;  // not a structured binding: clang 14 cannot capture one
      int k = 0;
      hands[static_cast<std::size_t>(s)].for_each_descending([&](bridge::Card c) {
        const int col = k % 5, row = k / 5;
        cards.push_back({c, qx + 85.0 + col * 118.0, qy + 165.0 + row * 155.0, k % 2 ? 180.0 : 0.0, 0.85});
        ++k;
      });
    }
    return scene(cards, kStation);
  }
  static std::string station_zones() {
    std::string out = "# cardtable-vision zones 1\nframe " + std::to_string(kStation) + " " + std::to_string(kStation) + "\n";
    for (auto seat : {bridge::Seat::North, bridge::Seat::East, bridge::Seat::South, bridge::Seat::West}) {
      const auto [x0, y0] = quarter(seat);
      const int x1 = x0 + kStation / 2, y1 = y0 + kStation / 2;
      out += "zone hand:" + std::string(1, bridge::seat_letter(seat)) + " " + std::to_string(x0) + "," + std::to_string(y0) + " " +
             std::to_string(x1) + "," + std::to_string(y0) + " " + std::to_string(x1) + "," + std::to_string(y1) + " " +
             std::to_string(x0) + "," + std::to_string(y1) + "\n";
    }
    return out;
  }

  // The calibration file for these frames: each play area a 220 px square around its card.
  static std::string play_zones() {
    std::string out = "# cardtable-vision zones 1\nframe 640 640\n";
    for (auto seat : {bridge::Seat::North, bridge::Seat::East, bridge::Seat::South, bridge::Seat::West}) {
      const auto [cx, cy, angle] = area(seat);
      (void)angle;
      const int x0 = static_cast<int>(cx) - 110, y0 = static_cast<int>(cy) - 110, x1 = x0 + 220, y1 = y0 + 220;
      out += "zone play:" + std::string(1, bridge::seat_letter(seat)) + " " + std::to_string(x0) + "," + std::to_string(y0) + " " +
             std::to_string(x1) + "," + std::to_string(y0) + " " + std::to_string(x1) + "," + std::to_string(y1) + " " +
             std::to_string(x0) + "," + std::to_string(y1) + "\n";
    }
    return out;
  }

 private:
  struct Area { double cx, cy, angle; };
  static std::pair<int, int> quarter(bridge::Seat s) {
    switch (s) {
      case bridge::Seat::North: return {0, 0};
      case bridge::Seat::East: return {kStation / 2, 0};
      case bridge::Seat::South: return {kStation / 2, kStation / 2};
      case bridge::Seat::West: return {0, kStation / 2};
    }
    return {0, 0};
  }
  // North's card lies at the top, turned to face North (180 degrees), East's at the right, and so on.
  static Area area(bridge::Seat s) {
    switch (s) {
      case bridge::Seat::North: return {320, 150, 180};
      case bridge::Seat::East: return {490, 320, 90};
      case bridge::Seat::South: return {320, 490, 0};
      case bridge::Seat::West: return {150, 320, -90};
    }
    return {320, 320, 0};
  }

  ProcessFolder folder_;
  std::filesystem::path work_;
};

}  // namespace cardtable::test
