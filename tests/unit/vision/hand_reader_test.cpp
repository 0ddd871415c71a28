// The index reader computed by the program (vision/hand_reader.hpp) against the same network run by
// cv::dnn from reader.onnx: the same rank, suit and is-index logits and the same embedding, within float
// rounding, in both builds of the kernels, whatever crops came before.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/hand_reader.hpp"
#include "model_net.hpp"
#include "vision/model_info.hpp"

using namespace cardtable::vision;
namespace fs = std::filesystem;

namespace {

const fs::path kModel = CARDTABLE_VISION_MODEL;

cv::dnn::Net reader_net() { return cardtable::test::model_net(kModel, read_model_info(kModel).reader->onnx); }

// Crops with something in them: noise, a drawn index ("10" over a suit-coloured blob), flat card white,
// and a dark edge (the padding of every strided layer meets it).
std::vector<cv::Mat> crops() {
  std::vector<cv::Mat> out;
  cv::RNG rng(5);
  for (int k = 0; k < 6; ++k) {
    cv::Mat c(32, 32, CV_8UC3, cv::Scalar(235, 235, 230));
    if (k % 2 == 0) rng.fill(c, cv::RNG::UNIFORM, 0, 256);
    cv::putText(c, k < 3 ? "10" : "Q", cv::Point(3, 16), cv::FONT_HERSHEY_SIMPLEX, 0.5, cv::Scalar(20, 20, 200), 2);
    cv::circle(c, cv::Point(16, 24), 5, cv::Scalar(30, 30, 30), cv::FILLED);
    cv::rectangle(c, cv::Rect(28, 0, 4, 32), cv::Scalar(0, 0, 0), cv::FILLED);
    out.push_back(c);
  }
  return out;
}

}  // namespace

class HandReaderTest : public ::testing::TestWithParam<Kernels> {};

TEST_P(HandReaderTest, ReadsWhatTheReaderNetworkReads) {
  const auto info = read_model_info(kModel);
  ASSERT_TRUE(info.reader);
  ASSERT_EQ(info.reader->channels, HandReader::kChannels);
  ASSERT_EQ(info.reader->crop, HandReader::kCrop);
  cv::dnn::Net net = reader_net();
  HandReader hand(net, info.scale, GetParam());
  const auto cs = crops();
  net.setInput(cv::dnn::blobFromImages(cs, info.scale));
  const cv::Mat want = net.forward().clone();  // [crops, channels, 1, 1]
  // Twice over: the second time after every other crop, so no scratch is left holding the last one.
  for (int round = 0; round < 2; ++round)
    for (std::size_t n = 0; n < cs.size(); ++n) {
      float got[HandReader::kChannels];
      hand.read(cs[n], got);
      const float* w = want.ptr<float>(static_cast<int>(n));
      for (int c = 0; c < HandReader::kChannels; ++c)
        EXPECT_NEAR(got[c], w[c], 1e-4 * std::max(1.0f, std::abs(w[c]))) << "crop " << n << ", channel " << c << ", kernels " << hand.kernels();
    }
}

INSTANTIATE_TEST_SUITE_P(Kernels, HandReaderTest, ::testing::Values(Kernels::best, Kernels::baseline),
                         [](const auto& p) { return std::string(p.param == Kernels::best ? "Best" : "Baseline"); });

// The detector is not the reader: a clear error naming the layer it lacks.
TEST(HandReader, RefusesANetworkThatIsNotTheIndexReader) {
  const auto info = read_model_info(kModel);
  try {
    HandReader r(cv::dnn::readNetFromONNX((kModel.parent_path() / info.onnx).string()), info.scale);
    ADD_FAILURE() << "the detector was taken for the reader";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/body/body.0/body.0.0/Conv"), std::string::npos) << e.what();
  }
}

TEST(HandReader, RefusesACropOfAnotherSize) {
  const auto info = read_model_info(kModel);
  HandReader r(reader_net(), info.scale);
  float out[HandReader::kChannels];
  EXPECT_THROW(r.read(cv::Mat(48, 48, CV_8UC3, cv::Scalar::all(0)), out), std::runtime_error);
  EXPECT_THROW(r.read(cv::Mat(32, 32, CV_8UC1, cv::Scalar::all(0)), out), std::runtime_error);
}
