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
#include "model_net.hpp"
#include "vision/model_info.hpp"

using namespace cardtable::vision;

namespace {

const std::filesystem::path kModel = CARDTABLE_VISION_MODEL;

cv::dnn::Net load(const std::string& file) { return cardtable::test::model_net(kModel, file); }

// A frame with something in it for every layer to respond to: noise, a white card with an index on it,
// and a dark corner (the padding edges of a strided convolution are where an off-by-one would show).
cv::Mat busy_frame(cv::Size size, int seed) {
  cv::Mat m(size, CV_8UC3);
  cv::RNG rng(static_cast<std::uint64_t>(seed));
  rng.fill(m, cv::RNG::UNIFORM, 0, 256);
  cv::GaussianBlur(m, m, cv::Size(5, 5), 0);
  cv::rectangle(m, cv::Rect(size.width / 8, size.height / 8, size.width / 3, size.height / 4), cv::Scalar(250, 250, 240), cv::FILLED);
  cv::putText(m, "10", cv::Point(size.width / 6, size.height / 3), cv::FONT_HERSHEY_SIMPLEX, 2.0, cv::Scalar(20, 20, 200), 4);
  cv::rectangle(m, cv::Rect(size.width - 40, size.height - 40, 40, 40), cv::Scalar(0, 0, 0), cv::FILLED);
  return m;
}

// The largest difference between two blobs of the same shape, over the largest value in `want`,
// channel by channel from `first` to `last` (the heat map's probabilities are small beside the logits
// and features: each part is held to its own scale).
double relative_gap(const cv::Mat& got, const cv::Mat& want, int first, int last) {
  EXPECT_EQ(got.dims, want.dims);
  for (int d = 0; d < want.dims; ++d) EXPECT_EQ(got.size[d], want.size[d]) << "dimension " << d;
  const std::size_t plane = static_cast<std::size_t>(want.size[2]) * static_cast<std::size_t>(want.size[3]);
  double gap = 0, top = 0;
  for (std::size_t i = plane * static_cast<std::size_t>(first); i < plane * static_cast<std::size_t>(last); ++i) {
    gap = std::max(gap, static_cast<double>(std::abs(got.ptr<float>()[i] - want.ptr<float>()[i])));
    top = std::max(top, static_cast<double>(std::abs(want.ptr<float>()[i])));
  }
  return top > 0 ? gap / top : gap;
}

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
  // deepest map is 14 x 14: rows that are not whole vectors).
  for (const cv::Size size : {cv::Size(640, 640), cv::Size(640, 480), cv::Size(320, 256), cv::Size(448, 448)}) {
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
