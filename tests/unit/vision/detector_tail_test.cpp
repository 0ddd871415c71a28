// The detector's tail (vision/detector_tail.hpp), everything after the front computed by hand, against
// the same network run by cv::dnn: the front then the tail give the whole detector's maps (heat, rank,
// suit, size and features), and the tail alone gives what cards_tail.onnx gives on the same input. Both
// builds of the kernels are checked, the one this processor runs and the baseline one arm64 runs.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/detector_front.hpp"
#include "vision/detector_tail.hpp"
#include "busy_maps.hpp"
#include "model_net.hpp"
#include "vision/model_info.hpp"

using namespace cardtable::vision;
using cardtable::test::busy_frame;
using cardtable::test::relative_gap;

namespace {

const std::filesystem::path kModel = CARDTABLE_VISION_MODEL;

cv::dnn::Net load(const std::string& file) { return cardtable::test::model_net(kModel, file); }

class DetectorTailTest : public ::testing::TestWithParam<Kernels> {
 protected:
  ModelInfo info = read_model_info(kModel);
  cv::dnn::Net whole = load(info.onnx);
};

}  // namespace

TEST_P(DetectorTailTest, TheFrontThenTheTailGiveTheWholeDetectorsMaps) {
  DetectorFront front(whole, info.scale, GetParam());
  DetectorTail tail(whole, GetParam());
  // Square, the camera's 4:3, a small frame and a shrunken detector input (detector_side 448, whose
  // deepest map is 14 x 14: rows that are not whole vectors), and 96 x 64, near the smallest input the
  // recogniser gives it (64 x 64 at detector_side 64; here deepest maps of 3 x 2, narrower than a vector).
  for (const cv::Size size : {cv::Size(640, 640), cv::Size(640, 480), cv::Size(320, 256), cv::Size(448, 448), cv::Size(96, 64)}) {
    const cv::Mat frame = busy_frame(size, size.width + size.height);
    cv::Mat s4, maps;
    front.run(frame, s4);
    tail.run(s4, maps);
    whole.setInput(cv::dnn::blobFromImage(frame, info.scale));
    const cv::Mat want = whole.forward().clone();
    ASSERT_EQ(want.size[1], DetectorTail::kChannels);
    EXPECT_LT(relative_gap(maps, want, 0, 1), 1e-4) << size << " heat, kernels " << tail.kernels();
    EXPECT_LT(relative_gap(maps, want, 1, 18), 1e-4) << size << " rank and suit, kernels " << tail.kernels();
    EXPECT_LT(relative_gap(maps, want, 18, 20), 1e-4) << size << " size, kernels " << tail.kernels();
    EXPECT_LT(relative_gap(maps, want, 20, DetectorTail::kChannels), 1e-4) << size << " features, kernels " << tail.kernels();
  }
}

// The tail alone on the front's output gives what the model's cards_tail.onnx gives in cv::dnn.
TEST_P(DetectorTailTest, GivesWhatTheModelsTailGivesInOpenCV) {
  ASSERT_TRUE(info.tail) << "the committed model has a tail";
  DetectorFront front(whole, info.scale, GetParam());
  DetectorTail tail(whole, GetParam());
  cv::dnn::Net dnn_tail = load(info.tail->onnx);
  const cv::Mat frame = busy_frame({640, 480}, 5);
  cv::Mat s4, maps;
  front.run(frame, s4);
  tail.run(s4, maps);
  dnn_tail.setInput(s4);
  const cv::Mat want = dnn_tail.forward().clone();
  EXPECT_LT(relative_gap(maps, want, 0, DetectorTail::kChannels), 1e-4);
}

// Its scratch is kept from frame to frame (and remade for a new size): a frame's maps are the same
// whatever frames came before, so no padding column is left holding an earlier frame's values.
TEST_P(DetectorTailTest, AFramesMapsDoNotDependOnTheFramesBefore) {
  DetectorFront front(whole, info.scale, GetParam());
  DetectorTail tail(whole, GetParam()), fresh(whole, GetParam());
  const cv::Mat a = busy_frame({640, 640}, 1), b = busy_frame({320, 320}, 2), c = busy_frame({640, 640}, 3);
  cv::Mat s4, maps, alone;
  for (const cv::Mat* f : {&a, &b, &c, &a}) {
    front.run(*f, s4);
    tail.run(s4, maps);
  }
  fresh.run(s4, alone);
  EXPECT_EQ(relative_gap(maps, alone, 0, DetectorTail::kChannels), 0.0);
}

INSTANTIATE_TEST_SUITE_P(Kernels, DetectorTailTest, ::testing::Values(Kernels::best, Kernels::baseline),
                         [](const auto& p) { return std::string(p.param == Kernels::best ? "Best" : "Baseline"); });

// A network that is not the CornerNet (here: the index reader) has no tail to compute: a clear error
// naming the layer it lacks, never a run with weights of the wrong shape.
TEST(DetectorTail, RefusesANetworkThatIsNotTheCornerNet) {
  const auto info = read_model_info(kModel);
  ASSERT_TRUE(info.reader);
  try {
    DetectorTail tail(load(info.reader->onnx));
    ADD_FAILURE() << "the reader was taken for a detector";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/s8/s8.0/s8.0.0/Conv"), std::string::npos) << e.what();
  }
}

// An input that is not the front's output of a frame the network fits is refused, not read past.
TEST(DetectorTail, RefusesAnInputThatIsNotTheFrontsOutput) {
  const auto info = read_model_info(kModel);
  DetectorTail tail(load(info.onnx));
  cv::Mat maps;
  const int wrong_channels[] = {1, 16, 160, 160}, ragged[] = {1, 32, 160, 158};
  EXPECT_THROW(tail.run(cv::Mat(4, wrong_channels, CV_32F, cv::Scalar::all(0)), maps), std::runtime_error);
  EXPECT_THROW(tail.run(cv::Mat(4, ragged, CV_32F, cv::Scalar::all(0)), maps), std::runtime_error);
  EXPECT_THROW(tail.run(cv::Mat(160, 160, CV_32F, cv::Scalar::all(0)), maps), std::runtime_error);
}
