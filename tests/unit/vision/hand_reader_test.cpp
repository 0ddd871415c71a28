// The index reader computed by the program (vision/hand_reader.hpp) against the same network run by
// cv::dnn from reader.onnx: the same rank, suit and is-index logits and the same embedding, within float
// rounding, in both builds of the kernels, whatever crops came before, at the committed reader's 48
// pixels and at the other crop sides a reader may read (train_reader.py --crop; 32 before): the weights
// are all convolutions and one average pool, so cv::dnn runs the same file on 16 to 64 pixels, and the
// sides whose maps are not whole vectors (40: 20, 10, 5; 48: 24, 12, 6) take the kernels' scalar tails.
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
std::vector<cv::Mat> crops(int side) {
  std::vector<cv::Mat> out;
  cv::RNG rng(5);
  for (int k = 0; k < 6; ++k) {
    cv::Mat c(32, 32, CV_8UC3, cv::Scalar(235, 235, 230));
    if (k % 2 == 0) rng.fill(c, cv::RNG::UNIFORM, 0, 256);
    cv::putText(c, k < 3 ? "10" : "Q", cv::Point(3, 16), cv::FONT_HERSHEY_SIMPLEX, 0.5, cv::Scalar(20, 20, 200), 2);
    cv::circle(c, cv::Point(16, 24), 5, cv::Scalar(30, 30, 30), cv::FILLED);
    cv::rectangle(c, cv::Rect(28, 0, 4, 32), cv::Scalar(0, 0, 0), cv::FILLED);
    if (side != 32) cv::resize(c, c, cv::Size(side, side), 0, 0, cv::INTER_NEAREST);
    out.push_back(c);
  }
  return out;
}

}  // namespace

struct Case {
  Kernels kernels;
  int crop;
};

class HandReaderTest : public ::testing::TestWithParam<Case> {};

TEST_P(HandReaderTest, ReadsWhatTheReaderNetworkReads) {
  const auto info = read_model_info(kModel);
  ASSERT_TRUE(info.reader);
  ASSERT_EQ(info.reader->channels, HandReader::kChannels);
  // The committed reader's weights at every side (its own is model.json's reader.crop, 48 since 2026-11-27).
  cv::dnn::Net net = reader_net();
  HandReader hand(net, info.scale, GetParam().crop, GetParam().kernels);
  const auto cs = crops(GetParam().crop);
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

INSTANTIATE_TEST_SUITE_P(KernelsAndCrops, HandReaderTest,
                         ::testing::Values(Case{Kernels::best, 32}, Case{Kernels::baseline, 32}, Case{Kernels::best, 16},
                                           Case{Kernels::best, 40}, Case{Kernels::baseline, 40}, Case{Kernels::best, 48},
                                           Case{Kernels::baseline, 48}, Case{Kernels::best, 64}),
                         [](const auto& p) {
                           return std::string(p.param.kernels == Kernels::best ? "Best" : "Baseline") + std::to_string(p.param.crop);
                         });

// A model whose reader reads 48-pixel crops is still computed here; one of 36 or 72 pixels goes to cv::dnn.
TEST(HandReader, ComputesTheCropsItsKernelsCanRead) {
  auto reader = *read_model_info(kModel).reader;
  for (const int crop : {16, 32, 40, 48, 64}) {
    reader.crop = crop;
    EXPECT_TRUE(HandReader::computes(reader)) << crop;
  }
  for (const int crop : {8, 36, 72}) {
    reader.crop = crop;
    EXPECT_FALSE(HandReader::computes(reader)) << crop;
  }
  EXPECT_THROW(HandReader(reader_net(), 1.0 / 255, 36), std::runtime_error);
}

// The detector is not the reader: a clear error naming the layer it lacks.
TEST(HandReader, RefusesANetworkThatIsNotTheIndexReader) {
  const auto info = read_model_info(kModel);
  try {
    HandReader r(cv::dnn::readNetFromONNX((kModel.parent_path() / info.onnx).string()), info.scale, 32);
    ADD_FAILURE() << "the detector was taken for the reader";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/body/body.0/body.0.0/Conv"), std::string::npos) << e.what();
  }
}

TEST(HandReader, RefusesACropOfAnotherSize) {
  const auto info = read_model_info(kModel);
  HandReader r(reader_net(), info.scale, 32);
  float out[HandReader::kChannels];
  EXPECT_THROW(r.read(cv::Mat(48, 48, CV_8UC3, cv::Scalar::all(0)), out), std::runtime_error);
  EXPECT_THROW(r.read(cv::Mat(24, 24, CV_8UC3, cv::Scalar::all(0)), out), std::runtime_error);
  EXPECT_THROW(r.read(cv::Mat(32, 32, CV_8UC1, cv::Scalar::all(0)), out), std::runtime_error);
}
