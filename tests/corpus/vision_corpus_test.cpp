// The recogniser on real photographs it never trained on: the held-out captures of the corpus
// (vision/model/held_out_images.txt, a fixed split by capture written by the training script).
// The bars are the goal; where the committed model does not reach a bar, the test asserts the
// figure measured for that model as a regression floor, named as such (see vision/README.md).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>

#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>

#include "vision/evaluation.hpp"
#include "vision/recogniser.hpp"
#include "vision/yolo_dataset.hpp"

namespace fs = std::filesystem;
using namespace cardtable::vision;

namespace {

const fs::path kImages = fs::path(CARDTABLE_CORPUS_DIR) / "images" / "roboflow_card_detection_v12";
const fs::path kModelDir = fs::path(CARDTABLE_VISION_MODEL).parent_path();

const Evaluation& held_out() {
  static const Evaluation ev = [] {
    Recogniser rec(CARDTABLE_VISION_MODEL);
    const auto groups = read_yolo_dataset(kImages, read_name_list(kModelDir / "held_out_images.txt"));
    auto e = evaluate(rec, groups);
    std::cout << evaluation_text(e);
    return e;
  }();
  return ev;
}

const Score& group(const std::string& name) {
  for (const auto& [n, s] : held_out().groups)
    if (n == name) return s;
  throw std::runtime_error("no held-out group " + name);
}

#define SKIP_WITHOUT_CORPUS() \
  if (std::string(CARDTABLE_CORPUS_DIR).empty() || !fs::exists(kImages)) GTEST_SKIP() << "no corpus (CARDTABLE_CORPUS)"

}  // namespace

// The bars, and the committed model's measured figures (vision/model/metrics.json) used as
// regression floors where the model falls short of a bar. A floor below its bar is a known gap, printed
// as such on every run, not a pass of the bar.
struct Bar {
  const char* group;   // "overall" or a group name
  const char* figure;  // precision, recall, exact_share
  double bar;          // the issue's
  double floor;        // what the committed model measured (rounded down), asserted when below the bar
};

// Measured with the committed model on the held-out captures (see vision/README.md, "Figures").
constexpr Bar kBars[] = {
#include "vision_corpus_floors.inc"
};

double figure(const Score& s, const std::string& f) {
  if (f == "precision") return s.precision();
  if (f == "recall") return s.recall();
  return s.exact_share();
}

TEST(VisionHeldOut, MeetsTheBarsOrTheCommittedModelsFloors) {
  SKIP_WITHOUT_CORPUS();
  for (const auto& b : kBars) {
    const Score& s = std::string(b.group) == "overall" ? held_out().overall : group(b.group);
    const double got = figure(s, b.figure);
    const double required = std::min(b.bar, b.floor);
    if (b.floor < b.bar)
      std::cout << "BELOW THE ISSUE'S BAR: " << b.group << " " << b.figure << " " << got << " (bar " << b.bar
                << ", regression floor " << b.floor << ")\n";
    EXPECT_GE(got, required) << b.group << " " << b.figure;
  }
}

TEST(VisionHeldOut, EveryHeldOutImageIsReadAndNoneTrainedOn) {
  SKIP_WITHOUT_CORPUS();
  const auto held = read_name_list(kModelDir / "held_out_images.txt");
  const auto trained = read_name_list(kModelDir / "train_images.txt");
  EXPECT_EQ(held_out().overall.images, static_cast<int>(held.size()));
  for (const auto& h : held) EXPECT_EQ(std::count(trained.begin(), trained.end(), h), 0) << h << " is in both lists";
}

namespace {

// Every held-out photograph read with the default options (or `one_options`) and with `other`, which must
// agree: the same cards, without and (the tie-break path) with the master deal given as the expected cards.
void expect_the_same_cards_as_the_default(const RecogniserOptions& other_options, const RecogniserOptions& one_options = {}) {
  Recogniser one(CARDTABLE_VISION_MODEL, one_options), other(CARDTABLE_VISION_MODEL, other_options);
  int images = 0, cards = 0;
  for (const auto& g : read_yolo_dataset(kImages, read_name_list(kModelDir / "held_out_images.txt"))) {
    for (const auto& im : g.images) {
      const cv::Mat frame = cv::imread(im.image.string(), cv::IMREAD_COLOR);
      ASSERT_FALSE(frame.empty()) << im.image;
      std::optional<cardtable::bridge::Hand> expected;
      for (const auto& b : im.boxes)
        if (b.card) (expected ? *expected : expected.emplace()).add(*b.card);
      for (const auto& exp : {std::optional<cardtable::bridge::Hand>{}, expected}) {
        const auto a = one.read(frame, exp).hand(), b = other.read(frame, exp).hand();
        EXPECT_EQ(a.bits(), b.bits()) << im.image << (exp ? " (with the expected cards)" : "");
        cards += static_cast<int>(a.size());
      }
      ++images;
    }
  }
  std::cout << images << " images, " << cards << " cards read the same both ways\n";
}

}  // namespace

// The reader reads an index's odd views only where they could still make it a card
// (RecogniserOptions::early_refusal): on every held-out photograph it reads exactly the cards that
// reading every view reads.
TEST(VisionHeldOut, ReadingTheOddViewsOnlyWhereTheyCouldMakeACardReadsTheSameCards) {
  SKIP_WITHOUT_CORPUS();
  RecogniserOptions every;
  every.early_refusal = false;
  expect_the_same_cards_as_the_default(every);
}

// The reader reads its crops side by side in strips (RecogniserOptions::strip_reader, the default): on
// every held-out photograph it reads exactly the cards that the batch reader (one crop per row) reads.
TEST(VisionHeldOut, TheStripReaderReadsTheSameCardsAsTheBatchReader) {
  SKIP_WITHOUT_CORPUS();
  RecogniserOptions strip, batch;
  strip.hand_reader = batch.hand_reader = false;  // both forms in cv::dnn
  batch.strip_reader = false;
  expect_the_same_cards_as_the_default(batch, strip);
}

// The whole detector computed by hand (RecogniserOptions::detector_front and detector_tail, the
// default): on every held-out photograph the same cards as the whole detector in cv::dnn reads, and as
// the front computed by hand with the rest in cv::dnn (cards_tail.onnx) reads.
TEST(VisionHeldOut, TheDetectorComputedHereReadsTheSameCardsAsTheWholeDetectorInOpenCV) {
  SKIP_WITHOUT_CORPUS();
  RecogniserOptions whole, dnn_tail;
  whole.detector_front = false;
  dnn_tail.detector_tail = false;
  expect_the_same_cards_as_the_default(whole);
  expect_the_same_cards_as_the_default(dnn_tail);
}

// The index reader computed by the program (RecogniserOptions::hand_reader, the default): on every
// held-out photograph the same cards as the reader in cv::dnn (its strips) reads.
TEST(VisionHeldOut, TheReaderComputedHereReadsTheSameCardsAsTheReaderInOpenCV) {
  SKIP_WITHOUT_CORPUS();
  RecogniserOptions dnn;
  dnn.hand_reader = false;
  expect_the_same_cards_as_the_default(dnn);
}
