#include "vision/face_reader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <numbers>
#include <stdexcept>

#include <opencv2/imgproc.hpp>

namespace cardtable::vision {

namespace {

// What is not cloth. The camera's zones lie inside its frame, so the frame's edge is cloth: the cloth's
// colour is the median of a band along the edge (not of the whole frame: a station's four spread hands
// cover more than half of it). A card is whatever differs from it by more than the cloth's own grain and
// shading. (Not "what is white": a court card's picture leaves only a thin white border, which breaks.)
cv::Mat not_cloth(const cv::Mat& bgr) {
  std::array<std::vector<uchar>, 3> samples;
  const int band = std::max(2, std::min(bgr.rows, bgr.cols) / 50);
  for (int y = 0; y < bgr.rows; y += 2)
    for (int x = 0; x < bgr.cols; x += 2) {
      if (y >= band && y < bgr.rows - band && x >= band && x < bgr.cols - band) continue;
      for (int k = 0; k < 3; ++k) samples[static_cast<std::size_t>(k)].push_back(bgr.at<cv::Vec3b>(y, x)[k]);
    }
  cv::Vec3f cloth;
  for (std::size_t k = 0; k < 3; ++k) {
    auto& v = samples[k];
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    cloth[static_cast<int>(k)] = v[v.size() / 2];
  }
  cv::Mat smooth, diff, dist;
  cv::GaussianBlur(bgr, smooth, cv::Size(5, 5), 0);
  smooth.convertTo(diff, CV_32FC3);
  diff -= cv::Scalar(cloth[0], cloth[1], cloth[2]);
  cv::Mat sq;
  cv::multiply(diff, diff, sq);
  std::vector<cv::Mat> ch;
  cv::split(sq, ch);
  cv::sqrt(ch[0] + ch[1] + ch[2], dist);
  cv::Mat mask;
  cv::threshold(dist, mask, 60, 255, cv::THRESH_BINARY);
  mask.convertTo(mask, CV_8U);
  return mask;
}

// The index corner, cut from the straightened face at 4x the thumbnail's scale (rank over suit: the only
// place a club differs from a spade by more than a few pixels of a thumbnail), and the slack around it
// that a reading searches for it in (the card's outline is found to a pixel or two).
constexpr int kSlack = 4;
std::pair<int, int> corner_size(int width, int height) { return {width * 4 * 22 / 100, height * 4 * 30 / 100}; }

}  // namespace

int face_dim(int width, int height) {
  const auto [cw, ch] = corner_size(width, height);
  return width * height * 3 + cw * ch;
}

namespace {

// One way up of a card in the frame: its whole-face thumbnail (a descriptor's first part) and its index
// corner with the slack around it (grey).
struct FaceView {
  std::vector<float> whole;
  cv::Mat corner_region;  // CV_32F, (cw + 2 slack) x (ch + 2 slack)
};

std::vector<float> zero_mean_unit(const cv::Mat& m) {  // m: CV_8UC3 or CV_32F
  std::vector<float> v;
  const cv::Scalar mean = cv::mean(m);
  if (m.type() == CV_8UC3) {
    for (int y = 0; y < m.rows; ++y)
      for (int x = 0; x < m.cols; ++x)
        for (int k = 0; k < 3; ++k) v.push_back(static_cast<float>(m.at<cv::Vec3b>(y, x)[k] - mean[k]));
  } else {
    for (int y = 0; y < m.rows; ++y)
      for (int x = 0; x < m.cols; ++x) v.push_back(static_cast<float>(m.at<float>(y, x) - mean[0]));
  }
  normalise(v);
  return v;
}

FaceView view_of(const cv::Mat& bgr, const cv::RotatedRect& where, int width, int height, bool turned) {
  float w = where.size.width, h = where.size.height, angle = where.angle;
  if (w > h) {  // upright: the long side runs down the thumbnail
    std::swap(w, h);
    angle += 90;
  }
  if (turned) angle += 180;
  // Inset by 5 %: the rounded corners and the cloth along the edge are no part of the face.
  w *= 0.95f;
  h *= 0.95f;
  const double th = angle * std::numbers::pi / 180;
  const cv::Point2f u(static_cast<float>(std::cos(th)), static_cast<float>(std::sin(th)));
  const cv::Point2f v(-u.y, u.x);
  const cv::Point2f c = where.center;
  const int big_w = width * 4, big_h = height * 4;
  const cv::Point2f src[3] = {c - u * (w / 2) - v * (h / 2), c + u * (w / 2) - v * (h / 2), c - u * (w / 2) + v * (h / 2)};
  const cv::Point2f dst[3] = {{0, 0}, {static_cast<float>(big_w), 0}, {0, static_cast<float>(big_h)}};
  cv::Mat big, whole, grey;
  cv::warpAffine(bgr, big, cv::getAffineTransform(src, dst), cv::Size(big_w, big_h), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  cv::resize(big, whole, cv::Size(width, height), 0, 0, cv::INTER_AREA);
  const auto [cw, ch] = corner_size(width, height);
  cv::cvtColor(big(cv::Rect(0, 0, cw + 2 * kSlack, ch + 2 * kSlack)), grey, cv::COLOR_BGR2GRAY);
  FaceView out{zero_mean_unit(whole), {}};
  grey.convertTo(out.corner_region, CV_32F);
  return out;
}

// A prototype's numbers from a view: the whole face, then the index corner (its slack cut away).
std::vector<float> descriptor_of(const FaceView& view) {
  std::vector<float> d = view.whole;
  const cv::Mat corner = view.corner_region(cv::Rect(kSlack, kSlack, view.corner_region.cols - 2 * kSlack, view.corner_region.rows - 2 * kSlack));
  const auto c = zero_mean_unit(corner.clone());
  d.insert(d.end(), c.begin(), c.end());
  return d;
}

double cosine(const std::vector<float>& a, const std::vector<float>& b, std::size_t from, std::size_t to) {
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t i = from; i < to; ++i) {
    ab += static_cast<double>(a[i]) * b[i];
    aa += static_cast<double>(a[i]) * a[i];
    bb += static_cast<double>(b[i]) * b[i];
  }
  return aa > 0 && bb > 0 ? ab / std::sqrt(aa * bb) : -1;
}

// A view against a prototype: the lesser of the whole faces' cosine and the index corner's best
// normalised correlation within the slack -- both the layout (the rank's pips or picture, the colour)
// and the index (the suit's shape) must agree. `whole_only`: the first part alone (a quick bound).
double view_similarity(const FaceView& v, const std::vector<float>& proto, int width, int height, bool whole_only) {
  const auto whole = static_cast<std::size_t>(width * height * 3);
  if (proto.size() != static_cast<std::size_t>(face_dim(width, height)) || v.whole.size() != whole) return -1;
  const double face = cosine(v.whole, proto, 0, whole);
  if (whole_only) return face;
  const auto [cw, ch] = corner_size(width, height);
  const cv::Mat templ(ch, cw, CV_32F, const_cast<float*>(proto.data() + whole));
  // The index's upper half (the rank) and lower half (the suit) are matched apart: matched together, the
  // shared "2" of the two of clubs and the two of spades makes them 95 % alike.
  double least = face;
  for (const cv::Rect half : {cv::Rect(0, 0, cw, ch / 2), cv::Rect(0, ch / 2, cw, ch - ch / 2)}) {
    cv::Mat scores;
    cv::matchTemplate(v.corner_region(cv::Rect(half.x, half.y, half.width + 2 * kSlack, half.height + 2 * kSlack)), templ(half), scores,
                      cv::TM_CCOEFF_NORMED);
    double best = -1;
    cv::minMaxLoc(scores, nullptr, &best);
    least = std::min(least, best);
  }
  return least;
}

// Where a face lies between its best match A and the runner-up B, along the line from B to A: 0.5 at A,
// -0.5 at B. Look-alikes (the two of clubs and the two of spades) are near-equally similar to a face as a
// whole; the line between them runs through the few pixels where they differ -- the suits' shapes -- and
// the face must lie well over towards A there.
double separation(std::vector<float> d, const std::vector<float>& a, const std::vector<float>& b) {
  normalise(d);
  double num = 0, den = 0;
  for (std::size_t k = 0; k < d.size() && k < a.size() && k < b.size(); ++k) {
    const double diff = static_cast<double>(a[k]) - b[k];
    num += (d[k] - (static_cast<double>(a[k]) + b[k]) / 2) * diff;
    den += diff * diff;
  }
  return den > 0 ? num / den : 0;
}

}  // namespace

double face_similarity(const std::vector<float>& a, const std::vector<float>& b, int width, int height) {
  const auto whole = static_cast<std::size_t>(width * height * 3), all = static_cast<std::size_t>(face_dim(width, height));
  if (a.size() != all || b.size() != all) return -1;
  const auto [cw, ch] = corner_size(width, height);
  const std::size_t middle = whole + static_cast<std::size_t>(cw * (ch / 2));
  return std::min({cosine(a, b, 0, whole), cosine(a, b, whole, middle), cosine(a, b, middle, all)});
}

std::vector<FacePatch> find_faces(const cv::Mat& bgr, const FaceReaderOptions& options) {
  std::vector<FacePatch> out;
  if (bgr.empty() || bgr.type() != CV_8UC3) return out;
  cv::Mat mask = not_cloth(bgr);
  // Specks of grain go; the anti-aliased edge of a card's white border, a pixel wide, is bridged.
  cv::morphologyEx(mask, mask, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3)));
  cv::morphologyEx(mask, mask, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(5, 5)));
  std::vector<std::vector<cv::Point>> contours;
  cv::findContours(mask, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
  const double frame_area = static_cast<double>(bgr.cols) * bgr.rows;
  for (const auto& c : contours) {
    const double area = cv::contourArea(c);
    if (area < options.min_area * frame_area || area > options.max_area * frame_area) continue;
    FacePatch p;
    p.where = cv::minAreaRect(c);
    const double w = std::min(p.where.size.width, p.where.size.height), h = std::max(p.where.size.width, p.where.size.height);
    // Cards are 57-64 mm by 89 mm (bridge and poker sizes): 0.64-0.72; a little slack for the camera's
    // angle. Their corners are rounded, so a lone card fills ~98 % of its rectangle; two overlapping
    // cards or a card half under a hand fill much less.
    const double ratio = h > 0 ? w / h : 0, fill = area / (w * h);
    p.lone = ratio >= 0.55 && ratio <= 0.85 && fill >= 0.90;
    out.push_back(p);
  }
  return out;
}

std::vector<float> face_descriptor(const cv::Mat& bgr, const cv::RotatedRect& where, int width, int height, bool turned) {
  return descriptor_of(view_of(bgr, where, width, height, turned));
}

std::optional<FaceViews> enrolment_face(const cv::Mat& bgr, int width, int height, const FaceReaderOptions& options) {
  std::optional<FaceViews> found;
  for (const auto& p : find_faces(bgr, options)) {
    if (!p.lone) continue;
    if (found) return std::nullopt;  // two cards: which one is it?
    found = FaceViews{face_descriptor(bgr, p.where, width, height, false), face_descriptor(bgr, p.where, width, height, true)};
  }
  return found;
}

FrameReading read_faces(const cv::Mat& bgr, const Deck& deck, const FaceReaderOptions& options) {
  if (!deck.faces()) throw std::runtime_error("deck '" + deck.name + "' holds network embeddings, not faces");
  if (const auto lacks = missing_cards(deck); !lacks.empty())
    throw std::runtime_error("deck '" + deck.name + "' lacks " + lacks + ": a faces deck must hold the whole pack");
  FrameReading r;
  std::map<int, CardReading> cards;
  for (const auto& p : find_faces(bgr, options)) {
    IndexReading i;
    i.box = p.where.boundingRect2f();
    i.presence = 1;
    i.refused = true;
    if (p.lone) {
      const int fw = deck.face_width, fh = deck.face_height;
      const FaceView views[2] = {view_of(bgr, p.where, fw, fh, false), view_of(bgr, p.where, fw, fh, true)};
      // Whole faces first, for every card; the index corners only for the closest few (the look-alikes:
      // the same rank in another suit). A card left out scores at most its whole-face cosine, which
      // bounds the runner-up from above: refusal errs towards not reading.
      std::vector<std::pair<double, int>> quick;
      for (const auto& [id, proto] : deck.prototypes)
        quick.emplace_back(std::max(view_similarity(views[0], proto, fw, fh, true), view_similarity(views[1], proto, fw, fh, true)), id);
      std::sort(quick.begin(), quick.end(), std::greater<>());
      constexpr std::size_t kClosest = 6;
      double best = -2, second = quick.size() > kClosest ? quick[kClosest].first : -2;
      int best_id = -1, second_id = -1, best_view = 0;
      for (std::size_t k = 0; k < quick.size() && k < kClosest; ++k) {
        const int id = quick[k].second;
        const auto& proto = deck.prototypes.at(id);
        const double up = view_similarity(views[0], proto, fw, fh, false), down = view_similarity(views[1], proto, fw, fh, false);
        const double s = std::max(up, down);
        if (s > best) {
          if (best > second) { second = best; second_id = best_id; }
          best = s;
          best_id = id;
          best_view = down > up ? 1 : 0;
        } else if (s > second) {
          second = s;
          second_id = id;
        }
      }
      if (best_id >= 0) {
        i.best[0] = {bridge::Card::from_id(best_id), best};
        if (second_id >= 0) i.best[1] = {bridge::Card::from_id(second_id), second};
        i.confidence = std::clamp(best, 0.0, 1.0);
        i.refused = best < options.min_score ||
                    (second_id >= 0 && separation(descriptor_of(views[best_view]), deck.prototypes.at(best_id), deck.prototypes.at(second_id)) <
                                           options.separation);
      }
    }
    if (i.refused) {
      ++r.refused;
    } else {
      auto& c = cards[i.best[0].card.id()];
      c.card = i.best[0].card;
      c.corners = 2;  // the whole face: both its corners and everything between agree
      if (i.confidence > c.confidence) { c.confidence = i.confidence; c.box = i.box; }
    }
    r.indices.push_back(std::move(i));
  }
  for (auto& [id, c] : cards) r.cards.push_back(c);
  return r;
}

Deck make_face_deck(const std::string& name, const std::map<int, std::vector<FaceViews>>& photos, int width, int height) {
  std::map<int, std::vector<std::vector<float>>> samples;
  for (const auto& [id, list] : photos)
    for (const auto& views : list) {
      // Photos of a card taken both ways up are averaged the same way up: each as it best matches the first.
      if (samples[id].empty()) { samples[id].push_back(views.upright); continue; }
      const auto& first = samples[id].front();
      samples[id].push_back(face_similarity(views.turned, first, width, height) > face_similarity(views.upright, first, width, height)
                                ? views.turned : views.upright);
    }
  Deck d = make_deck(name, samples);
  d.face_width = width;
  d.face_height = height;
  d.dim = face_dim(width, height);
  if (const auto lacks = missing_cards(d); !lacks.empty())
    throw std::runtime_error("no photo of " + lacks + ": a faces deck must hold the whole pack (a missing card would be read as its look-alike)");
  return d;
}

}  // namespace cardtable::vision
