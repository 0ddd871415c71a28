// Reads the cards in one frame: the trained network finds corner indices (rank over suit), each index
// is read as one thing (rank and suit together, so "10" is never "1" and "0"), and a reading below a
// margin over the runner-up is refused rather than guessed (a false card is worse than a missed one).
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "bridge/card.hpp"
#include "bridge/hand.hpp"
#include "vision/model_info.hpp"

namespace cardtable::vision {

struct Candidate {
  bridge::Card card;
  double p = 0;  // rank probability times suit probability
};

// One corner index the network found.
struct IndexReading {
  cv::Rect2f box;                  // in frame pixels
  double presence = 0;             // the heat-map peak: is a corner index here at all
  double is_index = 1;             // the reader's belief that this is a card's index (not a back, joker, pattern)
  std::array<double, 13> rank_p{}; // rank probabilities, two .. ace
  std::array<double, 4> suit_p{};  // suit probabilities, clubs .. spades
  std::array<Candidate, 2> best;   // the two most likely cards
  double confidence = 0;           // calibrated: best[0].p scaled by the temperature in RecogniserOptions
  bool refused = true;             // below the floor or the margin: not read
  bool tie_broken = false;         // the expected deal chose between best[0] and best[1]
  bool paired = false;             // read because another corner of the same card agrees (pair_floor)
  std::vector<float> feature;      // the network's embedding at the peak (deck enrolment)
};

// One card read in the frame, with the corners that agree on it.
struct CardReading {
  bridge::Card card;
  double confidence = 0;  // full (the best corner's) only when two corners agree; one corner: scaled down
  int corners = 0;
  cv::Rect2f box;         // the best corner's box
};

struct FrameReading {
  std::vector<IndexReading> indices;  // every index found, refused ones included
  std::vector<CardReading> cards;     // distinct cards read (not refused)
  int refused = 0;                    // indices found but not read: the table's `unknown`
  bridge::Hand hand() const;
};

struct RecogniserOptions {
  double presence = 0.35;        // heat-map peak to count as an index
  double is_index = 0.5;         // the reader's floor: below it a peak is no card index at all
  // The operating point (model_info.hpp, OperatingPoint): unset, the model's own (model.json's
  // reader.operating_point, chosen with the reader on the training images, precision first, since a false
  // card makes a false alert and a missed one only waits for the next frame), or for a model that names
  // none, OperatingPoint's defaults; set, it overrides the model's (eval --floor, a camera's floor=).
  // The Recogniser fills the unset ones from its model: its options() say the point it reads at.
  std::optional<double> floor;       // a reading below this confidence is refused
  std::optional<double> margin;      // ...and so is one whose runner-up is this close
  // Two corners that agree: a card whose indices each read it at this confidence or above is read,
  // though neither reaches the floor alone; the two must be apart (boxes that do not overlap). 1 turns
  // it off.
  std::optional<double> pair_floor;
  double single_corner = 0.90;   // confidence factor when only one corner of a card shows
  double nms_iou = 0.4;
  // The reader reads each index this many times, turned by 360/views degrees each time, and combines
  // its readings: it was trained on indices at every angle, so the views should agree, and where they
  // do not the combined reading falls under the floor or the margin and is refused. Part of the
  // operating point (unset: the model's; 2, 0 and 180 degrees, since the 48-pixel reader: on the
  // training images it reads more cards at two views than at four; vision/README.md, "Operating point").
  std::optional<int> reader_views;
  // How the views combine: the geometric mean of their rank (and suit) probabilities, normalised, or
  // (false) the arithmetic mean. The geometric mean weighs each candidate by its support in every view:
  // a doubt that one view alone has (a runner-up the other views all but exclude) is outvoted, while a
  // doubt the views share stays, and views that read two cards read neither (tests/unit/vision/
  // decode_test.cpp, CombineViews). On the training images it reads 4 points more of the cards with the
  // same three false cards (vision/README.md, "Operating point"). The is-index sigmoid is averaged
  // either way.
  bool geometric_views = true;
  // Read the odd views only for indices they could still make a card (recogniser.cpp, decided()). With
  // the arithmetic mean that is an exact bound: the same cards as reading every view, for less work.
  // The geometric mean has no such bound (an unread view sure of one candidate can lift it a long way),
  // so the odd views are skipped only where the even views' reading (best joint probability x is-index;
  // with an expected deal, twice that) lies more than odd_view_reach under the lower of the floor and
  // the pair floor (at the defaults: under 0.20). Measured on the corpus's 2,004 indices found in its
  // training and held-out captures: reading the odd views lifted that reading by at most 0.45, and no
  // index read at the pair floor (0.80) or above had started under 0.43; the corpus test checks that
  // every held-out photograph is read the same with and without the early refusal.
  bool early_refusal = true;
  double odd_view_reach = 0.60;
  // The detector's input side in pixels, a multiple of its stride; 0 = the model's own (model.json). The
  // frame is letterboxed to the model's size as always (the reader crops from that), then shrunk to this
  // for the detector alone: its cost goes with the area. Measured from 640 down to 448, with what each
  // costs in precision, in vision/README.md ("Speed").
  int detector_side = 0;
  // Read the crops side by side, in strips of the model's reader.strip.crops (the strip form of the same
  // reader: vision/train/reader.py, StripReader), where the model has one; false, or a model without it:
  // one crop per batch row of reader.onnx. The same readings (within float rounding; the corpus test
  // checks the cards on every held-out photograph), at less than half the reader's cost in OpenCV 4.6,
  // whose depthwise convolutions are slow on many small images (vision/README.md, "Speed").
  bool strip_reader = true;
  // Compute the detector's stem and s4 stage here (detector_front.hpp), and the rest here too
  // (detector_tail) or in cv::dnn (model.json's "tail"), where the detector's input sides are multiples of 32
  // and the processor is one where that is faster (hand_layers.hpp, hand_kernels_pay_off: x86-64 with
  // AVX2 + FMA); false, or elsewhere: the whole detector in cv::dnn. The same maps within float
  // rounding (tests/unit/vision/detector_front_test.cpp; the corpus test checks the cards on every
  // held-out photograph), the detector in about two thirds of the time (vision/README.md, "Speed").
  bool detector_front = true;
  // With the front, compute the rest of the detector here as well (detector_tail.hpp) where the
  // detector is the CornerNet the program computes; false, or another detector: cv::dnn runs the
  // model's tail. The same maps within float rounding (tests/unit/vision/detector_tail_test.cpp; the
  // corpus test checks the cards on every held-out photograph), the tail in about 60 % of cv::dnn's time
  // (vision/README.md, "Speed").
  bool detector_tail = true;
  // Compute the index reader here (hand_reader.hpp) where the model's reader is the IndexReader the
  // program computes and the processor is one where that is faster (as detector_front); false, another
  // reader or another processor: cv::dnn runs it (strip_reader says in which form). The
  // same readings within float rounding (tests/unit/vision/hand_reader_test.cpp; the corpus test checks
  // the cards on every held-out photograph), at less than half the cost of the strips in cv::dnn.
  bool hand_reader = true;
  bool keep_features = false;
};

// The operating point `options` name, each part they leave unset taken from `model` (a model.json's
// reader.operating_point; absent, OperatingPoint's defaults).
OperatingPoint operating_point(const RecogniserOptions& options, const std::optional<OperatingPoint>& model = std::nullopt);

class Recogniser {
 public:
  // Loads model.json and the ONNX file beside it; checks its SHA-256. Throws std::runtime_error.
  explicit Recogniser(const std::filesystem::path& model_json, RecogniserOptions options = {});
  ~Recogniser();
  Recogniser(const Recogniser&) = delete;
  Recogniser& operator=(const Recogniser&) = delete;

  // One frame at a time: the recogniser's networks and its frame buffers (kept from frame to frame, for
  // speed) are its own, so a thread that reads frames needs a recogniser of its own.
  // `expected`: the cards the master deal says may be here. It may choose between a reading's two
  // closest candidates (a refused reading whose two best add up past the floor), never add a card.
  FrameReading read(const cv::Mat& bgr, const std::optional<bridge::Hand>& expected = std::nullopt);

  const ModelInfo& info() const { return info_; }
  // The options it reads with, the operating point filled in from the model where they left it unset.
  const RecogniserOptions& options() const { return options_; }
  // What runs each network, for status and eval: e.g. "detector: here (avx2+fma); reader: here
  // (avx2+fma)", or "detector: s4 front here (avx2+fma), the rest in cv::dnn; ..." with the tail in cv::dnn.
  std::string engines() const;

 private:
  void read_indices(const cv::Mat& input, double scale, std::vector<IndexReading>& indices, bool expected);
  struct Net;
  ModelInfo info_;
  RecogniserOptions options_;
  std::unique_ptr<Net> net_;
};

// The detector's peaks (heat-map maxima, NMS), each with the detector's own rank/suit probabilities.
std::vector<IndexReading> find_indices(const cv::Mat& maps, const ModelInfo& info, const RecogniserOptions& options, double scale);
// From probabilities to a reading: the two best cards of each index, refusal below the floor or the
// margin, the expected deal's tie-break, corners grouped into cards.
FrameReading judge(std::vector<IndexReading> indices, const RecogniserOptions& options, const std::optional<bridge::Hand>& expected);

// The reader's probabilities of one index in each of its views (distributions over the same
// candidates), combined as the judge sees them (RecogniserOptions::geometric_views): their arithmetic
// mean, or their geometric mean normalised. Throws std::invalid_argument without a view or on lengths
// that differ.
std::vector<double> combine_views(const std::vector<std::vector<double>>& views, bool geometric);

// The decoding step alone (tested without a network): output maps [1, C, H, W] of a model laid out as
// `info`, for a frame resized by `scale` (frame pixels = network pixels / scale). find_indices + judge.
FrameReading decode_maps(const cv::Mat& maps, const ModelInfo& info, const RecogniserOptions& options, double scale,
                         const std::optional<bridge::Hand>& expected);

}  // namespace cardtable::vision
