// The detector's front (vision/detector_front.hpp), the stem and s4 stage computed by hand, against the
// same layers run by cv::dnn from cards.onnx, and the front followed by the tail (cards_tail.onnx)
// against the whole detector: one network, whichever way it is run. Both builds of the kernels are
// checked, the one this processor runs and the baseline one arm64 runs.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/detector_front.hpp"
#include "busy_maps.hpp"
#include "model_net.hpp"
#include "vision/model_info.hpp"

using namespace cardtable::vision;
namespace fs = std::filesystem;
using cardtable::test::busy_frame;
using cardtable::test::relative_gap;

namespace {

const fs::path kModel = CARDTABLE_VISION_MODEL;

cv::dnn::Net load(const std::string& file) { return cardtable::test::model_net(kModel, file); }

// cv::dnn's output of the front's last layer (s4's last ReLU) for `frame`.
cv::Mat dnn_front(cv::dnn::Net& whole, const cv::Mat& frame, double scale) {
  whole.setInput(cv::dnn::blobFromImage(frame, scale));
  std::string last;
  for (const auto& n : whole.getLayerNames())
    if (n.ends_with("/s4/s4.1/s4.1.5/Relu")) last = n;
  return whole.forward(last).clone();
}

class DetectorFrontTest : public ::testing::TestWithParam<Kernels> {
 protected:
  ModelInfo info = read_model_info(kModel);
  cv::dnn::Net whole = load(info.onnx);
};

}  // namespace

TEST_P(DetectorFrontTest, ComputesWhatTheDetectorsOwnFirstLayersCompute) {
  DetectorFront front(whole, info.scale, GetParam());
  // Square, the camera's 4:3 and a small frame: every size the recogniser may hand it.
  for (const cv::Size size : {cv::Size(640, 640), cv::Size(640, 480), cv::Size(320, 256)}) {
    const cv::Mat frame = busy_frame(size, size.width + size.height);
    cv::Mat out;
    front.run(frame, out);
    EXPECT_LT(relative_gap(out, dnn_front(whole, frame, info.scale)), 1e-5) << size << ", kernels " << front.kernels();
  }
}

// Its scratch is kept from frame to frame (and remade for a new size): a frame's output is the same
// whatever frames came before, so no padding column is left holding an earlier frame's values.
TEST_P(DetectorFrontTest, AFramesOutputDoesNotDependOnTheFramesBefore) {
  DetectorFront front(whole, info.scale, GetParam()), fresh(whole, info.scale, GetParam());
  const cv::Mat a = busy_frame({640, 640}, 1), b = busy_frame({320, 320}, 2), c = busy_frame({640, 640}, 3);
  cv::Mat out, alone;
  for (const cv::Mat* f : {&a, &b, &c, &a}) front.run(*f, out);
  fresh.run(a, alone);
  EXPECT_EQ(relative_gap(out, alone), 0.0);
}

// The front, then cards_tail.onnx in cv::dnn, gives the whole detector's maps: heat, rank, suit, size
// and features. Why the split holds: export_tail.py exports the tail from the weights cards.onnx was
// made of, and refuses when they are not.
TEST_P(DetectorFrontTest, ThenTheTailGivesTheWholeDetectorsMaps) {
  ASSERT_TRUE(info.tail) << "the committed model has a tail";
  DetectorFront front(whole, info.scale, GetParam());
  cv::dnn::Net tail = load(info.tail->onnx);
  for (const cv::Size size : {cv::Size(640, 640), cv::Size(640, 480)}) {
    const cv::Mat frame = busy_frame(size, 7);
    cv::Mat s4;
    front.run(frame, s4);
    tail.setInput(s4);
    const cv::Mat maps = tail.forward().clone();
    whole.setInput(cv::dnn::blobFromImage(frame, info.scale));
    const cv::Mat want = whole.forward().clone();
    EXPECT_LT(relative_gap(maps, want), 1e-4) << size;
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, DetectorFrontTest, ::testing::Values(Kernels::best, Kernels::baseline),
                         [](const auto& p) { return std::string(p.param == Kernels::best ? "Best" : "Baseline"); });

// A network that is not the CornerNet (here: the index reader) has no front to compute: a clear error
// naming the layer it lacks, never a run with weights of the wrong shape.
TEST(DetectorFront, RefusesANetworkThatIsNotTheCornerNet) {
  const auto info = read_model_info(kModel);
  ASSERT_TRUE(info.reader);
  try {
    DetectorFront front(load(info.reader->onnx), info.scale);
    ADD_FAILURE() << "the reader was taken for a detector";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/stem/stem.0/Conv"), std::string::npos) << e.what();
  }
}

// Sides that are not multiples of 32 do not fit the network's strides; the recogniser then runs the
// whole detector, and run() refuses them rather than read past a row.
TEST(DetectorFront, RefusesAFrameItDoesNotFit) {
  const auto info = read_model_info(kModel);
  DetectorFront front(load(info.onnx), info.scale);
  EXPECT_TRUE(DetectorFront::fits({640, 480}));
  EXPECT_FALSE(DetectorFront::fits({630, 640}));
  EXPECT_FALSE(DetectorFront::fits({640, 600}));
  cv::Mat out;
  EXPECT_THROW(front.run(cv::Mat(640, 630, CV_8UC3, cv::Scalar::all(0)), out), std::runtime_error);
  EXPECT_THROW(front.run(cv::Mat(640, 640, CV_8UC1, cv::Scalar::all(0)), out), std::runtime_error);
}
