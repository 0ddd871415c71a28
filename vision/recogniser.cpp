#include "vision/recogniser.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <span>
#include <sstream>
#include <stdexcept>

#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/detector_front.hpp"
#include "vision/detector_tail.hpp"
#include "vision/hand_reader.hpp"
#include "vision/index_crop.hpp"

namespace cardtable::vision {

namespace fs = std::filesystem;

struct Recogniser::Net {
  cv::dnn::Net detector;
  // The detector split (RecogniserOptions::detector_front): the stem and s4 here, the rest after it.
  // The whole detector stays loaded for inputs the front does not fit; it costs no buffers until run.
  std::optional<DetectorFront> front;
  // The rest after the front: computed here too (RecogniserOptions::detector_tail), else cv::dnn runs
  // the model's tail (model.json's "tail").
  std::optional<DetectorTail> hand_tail;
  cv::dnn::Net tail;
  cv::Mat front_out;              // the front's output, the tail's input: [1, 32, H/4, W/4] float
  cv::Mat maps;                   // the hand-computed tail's output, the detector's maps (2.2 MB at 640)
  // One reader net a pass: cv::dnn re-plans a net's buffers whenever its input's batch size changes, and
  // the two passes of a frame read different numbers of crops.
  std::array<cv::dnn::Net, 2> reader;
  bool has_reader = false;
  // The strip form of the reader: its input's shape never changes, so one net serves both passes. Only
  // one form is loaded: the strip where the model has it and RecogniserOptions::strip_reader asks for it.
  cv::dnn::Net strip;
  bool has_strip = false;
  // The reader computed here (RecogniserOptions::hand_reader), where the model's reader is the
  // IndexReader the program computes; it takes the place of both cv::dnn forms.
  std::optional<HandReader> hand;
  // A frame's buffers, kept from one frame to the next. They are megabytes (the letterboxed frame 1.2 MB,
  // the detector's float input 4.9 MB): glibc serves blocks that size by mmap and hands them back to the
  // kernel when they are freed, so buffers made afresh for each frame had every page faulted in and
  // zeroed again, frame after frame -- measured, 15 % of the frame's time in the kernel and a third of
  // the whole frame (vision/README.md, "Speed"). cv::dnn::blobFromImage is avoided for the same reason: it
  // converts the image to float in a new buffer on every call.
  cv::Mat input;                  // the letterboxed frame, 8-bit BGR
  cv::Mat resized;                // the frame resized before it is letterboxed
  cv::Mat detector_input;         // the letterboxed frame shrunk for the detector (detector_side)
  std::array<cv::Mat, 3> planes;  // its three colour planes
  cv::Mat blob;                   // the detector's input, [1, 3, H, W] float
  cv::Mat reader_blob;            // the reader's input: [1, 4, crop, crops x pitch] (strip) or [crops, 3, crop, crop] float
};

bridge::Hand FrameReading::hand() const {
  bridge::Hand h;
  for (const auto& c : cards) h.add(c.card);
  return h;
}

namespace {

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

template <std::size_t N>
std::array<double, N> softmax(const float* logits, std::size_t step) {
  std::array<double, N> p{};
  double mx = -1e30;
  for (std::size_t i = 0; i < N; ++i) mx = std::max(mx, p[i] = static_cast<double>(logits[i * step]));
  double sum = 0;
  for (auto& v : p) sum += (v = std::exp(v - mx));
  for (auto& v : p) v /= sum;
  return p;
}

// The ONNX file's bytes, checked against the SHA-256 its metadata names.
std::string verified_bytes(const fs::path& onnx, const std::string& sha256) {
  std::string bytes = read_bytes(onnx);
  const std::string sha = sha256_hex(bytes);
  if (sha != sha256) throw std::runtime_error(onnx.string() + ": SHA-256 " + sha + " is not the " + sha256 + " its metadata names");
  return bytes;
}

// The strip reader's input (vision/train/reader.py, StripReader): crops[first .. first + n) side by side,
// crop k at column k x pitch, scaled as the batch reader's blob; channel 3 is 1 on the crops and 0 in the
// gutters and in the places a last, short strip leaves empty.
void strip_input(const std::vector<cv::Mat>& crops, std::size_t first, std::size_t n, const ModelInfo::Reader::Strip& sp, double scale,
                 cv::Mat& blob) {
  const int side = crops[first].rows;
  const int width = sp.pitch * sp.crops;
  const int dims[] = {1, 4, side, width};
  blob.create(4, dims, CV_32F);
  blob.setTo(0);
  for (std::size_t k = 0; k < n; ++k) {
    const cv::Mat& c = crops[first + k];
    const int x0 = static_cast<int>(k) * sp.pitch;
    for (int y = 0; y < side; ++y) {
      const auto* px = c.ptr<cv::Vec3b>(y);
      float* ch[4];
      for (int p = 0; p < 4; ++p) ch[p] = blob.ptr<float>(0, p, y) + x0;
      for (int x = 0; x < side; ++x) {
        for (int p = 0; p < 3; ++p) ch[p][x] = static_cast<float>(px[x][p] * scale);
        ch[3][x] = 1.0f;
      }
    }
  }
}

// The detector's input blob [1, 3, H, W] from an 8-bit 3-channel image, each value times `scale`, written
// into `blob` (and `planes`) in place when they already have the right shape: no buffer is made per frame.
void image_blob(const cv::Mat& image, double scale, std::array<cv::Mat, 3>& planes, cv::Mat& blob) {
  const int dims[] = {1, 3, image.rows, image.cols};
  blob.create(4, dims, CV_32F);
  cv::split(image, planes.data());
  for (int c = 0; c < 3; ++c) {
    cv::Mat plane(image.rows, image.cols, CV_32F, blob.ptr<float>(0, c));
    planes[static_cast<std::size_t>(c)].convertTo(plane, CV_32F, scale);
  }
}

// The batch reader's input [crops, 3, side, side], scaled as the detector's blob, written into `blob` in
// place (cv::dnn::blobFromImages would convert each crop in a buffer of its own).
void batch_input(const std::vector<cv::Mat>& crops, double scale, cv::Mat& blob) {
  const int side = crops.front().rows;
  const int dims[] = {static_cast<int>(crops.size()), 3, side, side};
  blob.create(4, dims, CV_32F);
  for (std::size_t n = 0; n < crops.size(); ++n) {
    const cv::Mat& c = crops[n];
    for (int y = 0; y < side; ++y) {
      const auto* px = c.ptr<cv::Vec3b>(y);
      float* ch[3];
      for (int p = 0; p < 3; ++p) ch[p] = blob.ptr<float>(static_cast<int>(n), p, y);
      for (int x = 0; x < side; ++x)
        for (int p = 0; p < 3; ++p) ch[p][x] = static_cast<float>(px[x][p] * scale);
    }
  }
}

cv::dnn::Net make_net(const fs::path& onnx, const std::string& bytes) {
  cv::dnn::Net net;
  try {
    net = cv::dnn::readNetFromONNX(bytes.data(), bytes.size());
  } catch (const cv::Exception& e) {
    throw std::runtime_error(onnx.string() + ": OpenCV cannot load it: " + e.what());
  }
  net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
  net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
  return net;
}

}  // namespace

std::vector<IndexReading> find_indices(const cv::Mat& maps, const ModelInfo& info, const RecogniserOptions& opt, double scale) {
  if (maps.dims != 4 || maps.size[0] != 1 || maps.size[1] != info.channels)
    throw std::runtime_error("the network's output is not [1, " + std::to_string(info.channels) + ", H, W]");
  const int H = maps.size[2], W = maps.size[3];
  const std::size_t plane = static_cast<std::size_t>(H) * static_cast<std::size_t>(W);
  const float* base = maps.ptr<float>();
  const cv::Mat heat(H, W, CV_32F, const_cast<float*>(base + plane * static_cast<std::size_t>(info.heat)));
  // Peaks: a cell equal to the maximum of its 3x3 neighbourhood (CenterNet's NMS on the heat map).
  cv::Mat dil;
  cv::dilate(heat, dil, cv::Mat::ones(3, 3, CV_8U));
  std::vector<IndexReading> found;
  std::vector<cv::Rect> boxes;
  std::vector<float> scores;
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x) {
      const float v = heat.at<float>(y, x);
      if (v < opt.presence || v < dil.at<float>(y, x)) continue;
      const std::size_t at = static_cast<std::size_t>(y) * static_cast<std::size_t>(W) + static_cast<std::size_t>(x);
      auto channel = [&](int c) { return base + plane * static_cast<std::size_t>(c) + at; };
      IndexReading r;
      r.presence = v;
      r.rank_p = softmax<13>(channel(info.rank), plane);
      r.suit_p = softmax<4>(channel(info.suit), plane);
      const double bw = std::exp(std::clamp(static_cast<double>(*channel(info.size)), -3.0, 4.0)) * info.stride;
      const double bh = std::exp(std::clamp(static_cast<double>(*channel(info.size + 1)), -3.0, 4.0)) * info.stride;
      const double cx = (x + 0.5) * info.stride, cy = (y + 0.5) * info.stride;
      r.box = cv::Rect2f(static_cast<float>((cx - bw / 2) / scale), static_cast<float>((cy - bh / 2) / scale),
                         static_cast<float>(bw / scale), static_cast<float>(bh / scale));
      if (opt.keep_features && info.feat_dim > 0) {
        r.feature.resize(static_cast<std::size_t>(info.feat_dim));
        for (int f = 0; f < info.feat_dim; ++f) r.feature[static_cast<std::size_t>(f)] = *channel(info.feat + f);
      }
      boxes.emplace_back(r.box);
      scores.push_back(v);
      found.push_back(std::move(r));
    }
  }
  // Two peaks on one index (a large index spans several cells): keep the stronger.
  std::vector<int> keep;
  cv::dnn::NMSBoxes(boxes, scores, static_cast<float>(opt.presence), static_cast<float>(opt.nms_iou), keep);
  std::vector<IndexReading> out;
  for (int i : keep) out.push_back(std::move(found[static_cast<std::size_t>(i)]));
  return out;
}

FrameReading judge(std::vector<IndexReading> indices, const RecogniserOptions& opt, const std::optional<bridge::Hand>& expected) {
  const OperatingPoint pt = operating_point(opt);
  FrameReading out;
  std::map<int, CardReading> cards;
  for (auto& r : indices) {
    if (r.is_index < opt.is_index) continue;  // a back, a joker, a pattern: no card index at all
    // Rank and suit read together: the two best of the 52 joint candidates.
    std::array<Candidate, 2> best{};
    for (int s = 0; s < 4; ++s) {
      for (int k = 0; k < 13; ++k) {
        const double p = r.rank_p[static_cast<std::size_t>(k)] * r.suit_p[static_cast<std::size_t>(s)];
        const Candidate c{bridge::Card(static_cast<bridge::Suit>(s), static_cast<bridge::Rank>(k)), p};
        if (p > best[0].p) { best[1] = best[0]; best[0] = c; }
        else if (p > best[1].p) best[1] = c;
      }
    }
    r.best = best;
    r.confidence = best[0].p * r.is_index;
    r.refused = r.confidence < pt.floor || best[0].p - best[1].p < pt.margin;
    if (r.refused && expected && (best[0].p + best[1].p) * r.is_index >= pt.floor) {
      // The master deal breaks a tie between the two closest candidates, only when exactly one of them
      // is expected; it never names a card the network did not put in its two best.
      const bool e0 = expected->contains(best[0].card), e1 = expected->contains(best[1].card);
      if (e0 != e1) {
        if (e1) std::swap(r.best[0], r.best[1]);
        r.confidence = r.best[0].p * r.is_index;
        r.refused = false;
        r.tie_broken = true;
      }
    }
    out.indices.push_back(std::move(r));
  }
  // Two corners that agree: a card whose indices each read it at the pair floor or above, none of them
  // sure enough alone, is read. Two readings of one card, at two places of the frame, are more evidence
  // than one at the floor. A tie the master deal broke does not count: it is no reading of its own.
  // Nor do two peaks on one index (a large index can keep two that the NMS does not merge): a card's
  // corners lie at its opposite ends and never overlap, so only readings whose boxes are apart are
  // counted as places.
  std::map<int, std::vector<cv::Rect2f>> pair_places;
  for (const auto& r : out.indices) {
    if (r.confidence < pt.pair_floor || r.tie_broken) continue;
    auto& places = pair_places[r.best[0].card.id()];
    if (std::none_of(places.begin(), places.end(), [&](const cv::Rect2f& p) { return (p & r.box).area() > 0; }))
      places.push_back(r.box);
  }
  for (auto& r : out.indices) {
    if (r.refused && !r.tie_broken && r.confidence >= pt.pair_floor && pair_places[r.best[0].card.id()].size() >= 2) {
      r.refused = false;
      r.paired = true;
    }
    if (r.refused) {
      ++out.refused;
    } else {
      auto& c = cards[r.best[0].card.id()];
      c.card = r.best[0].card;
      ++c.corners;
      if (r.confidence > c.confidence) { c.confidence = r.confidence; c.box = r.box; }
    }
  }
  for (auto& [id, c] : cards) {
    // Full confidence only when two corners agree; a single corner is reported, but less sure.
    if (c.corners < 2) c.confidence *= opt.single_corner;
    out.cards.push_back(c);
  }
  return out;
}

FrameReading decode_maps(const cv::Mat& maps, const ModelInfo& info, const RecogniserOptions& opt, double scale,
                         const std::optional<bridge::Hand>& expected) {
  return judge(find_indices(maps, info, opt, scale), opt, expected);
}

namespace {

// The reader's readings of one index, summed over the views read so far: probabilities for the
// arithmetic mean, log-probabilities for the geometric one (RecogniserOptions::geometric_views).
struct ViewSums {
  std::array<double, 13> rank{};
  std::array<double, 4> suit{};
  double is_index = 0;
  int views = 0;
};

void add_view(std::span<double> sum, std::span<const double> p, bool geometric) {
  // A probability of exactly 0 would make one view's veto absolute; 1e-30 is far below any floor.
  for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += geometric ? std::log(std::max(p[k], 1e-30)) : p[k];
}

// The combined probabilities from the sums of `views` views: their mean, or their geometric mean
// normalised to sum to 1.
void combined(std::span<const double> sum, int views, bool geometric, std::span<double> p) {
  if (!geometric) {
    for (std::size_t k = 0; k < sum.size(); ++k) p[k] = sum[k] / views;
    return;
  }
  const double top = *std::max_element(sum.begin(), sum.end()) / views;
  double total = 0;
  for (std::size_t k = 0; k < sum.size(); ++k) total += (p[k] = std::exp(sum[k] / views - top));
  for (auto& v : p) v /= total;
}

template <std::size_t N>
std::array<double, N> combined(const std::array<double, N>& sum, int views, bool geometric) {
  std::array<double, N> p{};
  combined(sum, views, geometric, p);
  return p;
}

// Can the views not yet read still make the judge read this index as a card?
// - The is-index sigmoid is averaged: each unread view adds at most 1, so (sum + unread)/views bounds it,
//   and under the is-index floor there is no card index whatever the other views say.
// - Arithmetic mean: each unread view adds at most 1 to every probability sum too, so when even the
//   upper bounds of the best joint reading (or, with an expected deal, of the two best together) fall
//   under the floor and the pair floor, no card will be read here.
// - Geometric mean: no such bound exists (an unread view sure of one candidate can lift it a long way),
//   so the reading of the views read so far must lie within odd_view_reach, a measured margin
//   (recogniser.hpp), of the lower floor.
// An index decided early keeps the reading of the views it was read in, which the judge refuses.
bool decided(const ViewSums& s, int views, const RecogniserOptions& opt, bool expected) {
  const OperatingPoint pt = operating_point(opt);
  const double unread = views - s.views;
  const double ub_index = (s.is_index + unread) / views;
  if (ub_index < opt.is_index) return true;  // no card index, whatever the other views say
  if (opt.geometric_views) {
    const auto rank = combined(s.rank, s.views, true);
    const auto suit = combined(s.suit, s.views, true);
    const double best = *std::max_element(rank.begin(), rank.end()) * *std::max_element(suit.begin(), suit.end());
    return (expected ? std::min(1.0, 2 * best) : best) * (s.is_index / s.views) < std::min(pt.floor, pt.pair_floor) - opt.odd_view_reach;
  }
  const double ub_rank = (*std::max_element(s.rank.begin(), s.rank.end()) + unread) / views;
  const double ub_suit = (*std::max_element(s.suit.begin(), s.suit.end()) + unread) / views;
  const double ub_best = ub_rank * ub_suit;
  if (ub_best * ub_index >= std::min(pt.floor, pt.pair_floor)) return false;
  // The master deal may choose between the two best when they add up past the floor (judge()).
  return !(expected && std::min(1.0, 2 * ub_best) * ub_index >= pt.floor);
}

}  // namespace

OperatingPoint operating_point(const RecogniserOptions& o, const std::optional<OperatingPoint>& model) {
  const OperatingPoint m = model.value_or(OperatingPoint{});
  return {o.floor.value_or(m.floor), o.margin.value_or(m.margin), o.pair_floor.value_or(m.pair_floor), o.reader_views.value_or(m.views)};
}

std::vector<double> combine_views(const std::vector<std::vector<double>>& views, bool geometric) {
  if (views.empty()) throw std::invalid_argument("combine_views: no view");
  std::vector<double> sum(views.front().size()), p(sum.size());
  for (const auto& v : views) {
    if (v.size() != sum.size()) throw std::invalid_argument("combine_views: views of different lengths");
    add_view(sum, v, geometric);
  }
  combined(sum, static_cast<int>(views.size()), geometric, p);
  return p;
}

void Recogniser::read_indices(const cv::Mat& input, double scale, std::vector<IndexReading>& indices, bool expected) {
  // The reader reads each index from a square crop around it, in the network's input image (the same
  // crop as vision/train/reader.py: side = crop_scale x the longer side), once per view, each view
  // turned a further 360/views degrees about the index's centre, and combines the views
  // (RecogniserOptions::geometric_views). It reads the even views first (0 and 180 degrees: the index
  // and the index upside down), then the odd ones only for the indices they could still make a card
  // (decided()): an index that will be refused costs half. `early_refusal = false` reads every view of
  // every index.
  const auto& rd = *info_.reader;
  const int views = std::max(1, operating_point(options_).views);
  std::vector<ViewSums> sums(indices.size());
  std::vector<cv::Mat> uprights(indices.size());  // each index's unturned crop, for its other views (index_crop.hpp)
  cv::Mat& blob = net_->reader_blob;
  auto pass = [&](const std::vector<std::size_t>& which, int first_view) {
    auto& net = net_->reader[static_cast<std::size_t>(first_view)];
    std::vector<cv::Mat> crops;
    std::vector<std::pair<std::size_t, int>> at;  // (index, view) of each crop
    for (std::size_t i : which) {
      const auto& r = indices[i];
      const double cx = (r.box.x + r.box.width / 2.0) * scale, cy = (r.box.y + r.box.height / 2.0) * scale;
      const double side = rd.crop_scale * std::max(r.box.width, r.box.height) * scale;
      for (int v = first_view; v < views; v += options_.early_refusal ? 2 : 1) {
        cv::Mat c;
        index_crop(input, cx, cy, side, 360.0 * v / views, rd.crop, rd.crop_filter, uprights[i], c);
        crops.push_back(c);
        at.emplace_back(i, v);
      }
    }
    if (crops.empty()) return;
    // One crop's outputs: channel c of crop n at out[c * step].
    auto take = [&](std::size_t n, const float* out, std::size_t step) {
      const auto [i, v] = at[n];
      auto& s = sums[i];
      const auto rank = softmax<13>(out + static_cast<std::size_t>(rd.rank) * step, step);
      const auto suit = softmax<4>(out + static_cast<std::size_t>(rd.suit) * step, step);
      add_view(s.rank, rank, options_.geometric_views);
      add_view(s.suit, suit, options_.geometric_views);
      s.is_index += 1.0 / (1.0 + std::exp(-static_cast<double>(out[static_cast<std::size_t>(rd.is_index) * step])));
      ++s.views;
      if (options_.keep_features && v == 0) {
        auto& f = indices[i].feature;
        f.resize(static_cast<std::size_t>(rd.emb_dim));
        for (std::size_t e = 0; e < f.size(); ++e) f[e] = out[(static_cast<std::size_t>(rd.emb) + e) * step];
      }
    };
    if (net_->hand) {
      std::array<float, HandReader::kChannels> out;
      for (std::size_t n = 0; n < crops.size(); ++n) {
        net_->hand->read(crops[n], out.data());
        take(n, out.data(), 1);
      }
      return;
    }
    if (net_->has_strip) {
      const auto& sp = *rd.strip;
      const int K = sp.crops;
      for (std::size_t first = 0; first < crops.size(); first += static_cast<std::size_t>(K)) {
        const std::size_t n = std::min(crops.size() - first, static_cast<std::size_t>(K));
        strip_input(crops, first, n, sp, info_.scale, blob);
        net_->strip.setInput(blob);
        const cv::Mat out = net_->strip.forward();  // [1, channels, 1, K]
        if (out.dims != 4 || out.size[0] != 1 || out.size[1] != rd.channels || out.size[2] != 1 || out.size[3] != K)
          throw std::runtime_error(rd.strip->onnx + " does not give [1, " + std::to_string(rd.channels) + ", 1, " + std::to_string(K) +
                                   "] as model.json's reader and reader.strip say");
        const float* o = out.ptr<float>();
        for (std::size_t k = 0; k < n; ++k) take(first + k, o + k, static_cast<std::size_t>(K));
      }
      return;
    }
    batch_input(crops, info_.scale, blob);
    net.setInput(blob);
    const cv::Mat out = net.forward();  // [crops, channels, 1, 1]
    for (std::size_t n = 0; n < at.size(); ++n) take(n, out.ptr<float>(static_cast<int>(n)), 1);
  };
  std::vector<std::size_t> all(indices.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  pass(all, 0);
  if (options_.early_refusal && views > 1) {
    std::vector<std::size_t> open;
    for (std::size_t i : all)
      if (!decided(sums[i], views, options_, expected)) open.push_back(i);
    pass(open, 1);
  }
  // An index decided early keeps the reading of the views it was read in: it lies under the bounds (or
  // the gate) decided() used, so the judge reads no card there either.
  for (std::size_t i = 0; i < indices.size(); ++i) {
    auto& r = indices[i];
    const auto& s = sums[i];
    r.rank_p = combined(s.rank, s.views, options_.geometric_views);
    r.suit_p = combined(s.suit, s.views, options_.geometric_views);
    r.is_index = s.is_index / s.views;
  }
}

Recogniser::Recogniser(const fs::path& model_json, RecogniserOptions options)
    : info_(read_model_info(model_json)), options_(options), net_(std::make_unique<Net>()) {
  // The point it reads at: the options' where they set it, the model's where they leave it unset.
  const OperatingPoint pt = operating_point(options_, info_.reader ? info_.reader->operating_point : std::nullopt);
  options_.floor = pt.floor;
  options_.margin = pt.margin;
  options_.pair_floor = pt.pair_floor;
  options_.reader_views = pt.views;
  // The heat map's cells are stride pixels of the detector's input: another side would misplace them.
  if (options_.detector_side != 0 &&
      (options_.detector_side < 8 * info_.stride || options_.detector_side > 2 * info_.width || options_.detector_side % info_.stride != 0))
    throw std::runtime_error("the detector's side must be 0 (the model's, " + std::to_string(info_.width) + ") or a multiple of " +
                             std::to_string(info_.stride) + " from " + std::to_string(8 * info_.stride) + " to " +
                             std::to_string(2 * info_.width) + ", not " + std::to_string(options_.detector_side));
  const auto detector = model_json.parent_path() / info_.onnx;
  net_->detector = make_net(detector, verified_bytes(detector, info_.sha256));
  if (options_.detector_front && hand_kernels_pay_off()) {
    // The tail is computed here where the options want it and the detector is the CornerNet (its layers
    // are checked); else cv::dnn runs the model's tail; a model with neither runs whole in cv::dnn.
    if (options_.detector_tail) {
      try {
        net_->hand_tail.emplace(net_->detector);
      } catch (const std::runtime_error&) {
        // Not the CornerNet's tail: cv::dnn runs the model's, below, where it has one.
      }
    }
    if (info_.tail) {
      // Checked even where it is computed here: a model.json naming a file that is not there, or not the
      // file it names, is a clear error at start-up whichever way the tail runs.
      const auto tail = model_json.parent_path() / info_.tail->onnx;
      const std::string bytes = verified_bytes(tail, info_.tail->sha256);
      if (!net_->hand_tail) net_->tail = make_net(tail, bytes);
    }
    if (net_->hand_tail || info_.tail) {
      try {
        net_->front.emplace(net_->detector, info_.scale);
      } catch (const std::runtime_error& e) {
        throw std::runtime_error(detector.string() + ": " + e.what());
      }
    }
  }
  if (info_.reader) {
    net_->has_reader = true;
    const auto& rd = *info_.reader;
    // One form of the reader is loaded, the one read_indices() will run: computed here where the options
    // want it and the model's reader is the IndexReader (its outputs where HandReader gives them; a
    // retrained reader of another shape runs in cv::dnn instead, and engines() says so), else the strip
    // form where the model has it and the options want it, else the batch form (two nets, one a pass).
    if (options_.hand_reader && hand_kernels_pay_off() && HandReader::computes(rd)) {
      const auto reader = model_json.parent_path() / rd.onnx;
      const cv::dnn::Net weights = make_net(reader, verified_bytes(reader, rd.sha256));  // a bad file is an error here
      try {
        net_->hand.emplace(weights, info_.scale, rd.crop);
      } catch (const std::runtime_error&) {
        // Not the IndexReader's layers: cv::dnn runs it, below.
      }
    }
    if (net_->hand) {
      // nothing more to load
    } else if (info_.reader->strip && options_.strip_reader) {
      const auto strip = model_json.parent_path() / info_.reader->strip->onnx;
      net_->strip = make_net(strip, verified_bytes(strip, info_.reader->strip->sha256));
      net_->has_strip = true;
    } else {
      const auto reader = model_json.parent_path() / info_.reader->onnx;
      const std::string bytes = verified_bytes(reader, info_.reader->sha256);  // read and checked once, two nets
      for (auto& net : net_->reader) net = make_net(reader, bytes);
    }
  }
}

Recogniser::~Recogniser() = default;

std::string Recogniser::engines() const {
  std::string d = !net_->front     ? std::string("detector: whole in cv::dnn")
                  : net_->hand_tail ? std::string("detector: here (") + net_->front->kernels() + ")"
                                    : std::string("detector: s4 front here (") + net_->front->kernels() + "), the rest in cv::dnn";
  if (!net_->has_reader) return d;
  if (net_->hand) return d + "; reader: here (" + net_->hand->kernels() + ")";
  return d + (net_->has_strip ? "; reader: cv::dnn, strips" : "; reader: cv::dnn, batch");
}

FrameReading Recogniser::read(const cv::Mat& bgr, const std::optional<bridge::Hand>& expected) {
  if (bgr.empty() || bgr.type() != CV_8UC3) throw std::runtime_error("a frame must be an 8-bit BGR image");
  // Letterbox: keep the aspect ratio, pad right and bottom, so card shapes are not squeezed.
  const double scale = std::min(static_cast<double>(info_.width) / bgr.cols, static_cast<double>(info_.height) / bgr.rows);
  cv::Mat& input = net_->input;
  input.create(info_.height, info_.width, CV_8UC3);
  input.setTo(cv::Scalar(114, 114, 114));
  if (scale == 1.0) {
    bgr.copyTo(input(cv::Rect(0, 0, bgr.cols, bgr.rows)));
  } else {
    cv::Mat& resized = net_->resized;
    // At least one pixel each way: a 4000x3 frame's height rounded to 0, and OpenCV's assertion ended a
    // whole `read` run without naming the image.
    cv::resize(bgr, resized,
               cv::Size(std::max(1, static_cast<int>(std::lround(bgr.cols * scale))), std::max(1, static_cast<int>(std::lround(bgr.rows * scale)))),
               0, 0, scale < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
    const cv::Rect fit(0, 0, std::min(resized.cols, info_.width), std::min(resized.rows, info_.height));
    resized(fit).copyTo(input(fit));
  }
  // The detector may see the letterboxed frame smaller (options_.detector_side); its boxes come back in
  // the frame's own coordinates either way.
  double detector_scale = scale;
  const cv::Mat* detector_input = &input;
  if (options_.detector_side > 0 && options_.detector_side != info_.width) {
    const double f = static_cast<double>(options_.detector_side) / info_.width;
    cv::resize(input, net_->detector_input, cv::Size(options_.detector_side, static_cast<int>(std::lround(info_.height * f))), 0, 0,
               f < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
    detector_input = &net_->detector_input;
    detector_scale = scale * f;
  }
  cv::Mat maps;
  if (net_->front && DetectorFront::fits(detector_input->size())) {
    net_->front->run(*detector_input, net_->front_out);
    if (net_->hand_tail) {
      net_->hand_tail->run(net_->front_out, net_->maps);
      maps = net_->maps;
    } else {
      net_->tail.setInput(net_->front_out);
      maps = net_->tail.forward();
    }
  } else {
    image_blob(*detector_input, info_.scale, net_->planes, net_->blob);
    net_->detector.setInput(net_->blob);
    maps = net_->detector.forward();
  }
  auto indices = find_indices(maps, info_, options_, detector_scale);
  if (net_->has_reader && !indices.empty()) read_indices(input, scale, indices, expected.has_value());
  return judge(std::move(indices), options_, expected);
}

}  // namespace cardtable::vision
