// The rest of the detector after its front (detector_front.hpp) computed by hand: the s8, s16 and s32
// stages, the two lateral layers, the neck and the heads (vision/train/model.py, CornerNet.tail).
//
// Why: with the front computed here, cv::dnn's run of the tail (model/cards_tail.onnx) was the largest
// part of a frame left -- 39 % of its time on one core (perf, vision/README.md "Speed") for 0.18 G
// multiply-adds, in 30-odd layers of its bookkeeping. Written out with the kernels the front and the
// reader use (conv_kernels.inc), each layer's rows are vectors held in registers, and nothing is
// allocated per frame. The weights are the detector's own, taken from the ONNX file cv::dnn loaded
// (cards.onnx, the whole network), so the front, the tail and the whole network cannot drift apart:
// the same maps within float rounding (tests/unit/vision/detector_tail_test.cpp compares them).
#pragma once

#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>

#include "vision/conv_kernels.hpp"
#include "vision/hand_layers.hpp"

namespace cardtable::vision {

class DetectorTail {
 public:
  static constexpr int kChannels = kernels::kTailOut;  // of its output: heat, rank 13, suit 4, size 2, features 64

  // The tail of `detector`, the whole network as read from its ONNX file. Throws std::runtime_error
  // naming the layer that is missing or not the CornerNet's.
  explicit DetectorTail(const cv::dnn::Net& detector, Kernels kernels = Kernels::best);

  // s4: the front's output, [1, 32, R, C] float with R and C multiples of 8 (a detector input whose
  // sides are multiples of 32). maps: [1, 84, R/2, C/2] float, the detector's output, made or reused.
  void run(const cv::Mat& s4, cv::Mat& maps);

  const char* kernels() const { return avx2_ ? "avx2+fma" : "baseline"; }

 private:
  std::vector<float> weights_;  // the layers' weights and biases, plan_ points into it
  kernels::TailPlan plan_{};
  std::vector<float> scratch_;  // sized for plan_.rows x plan_.cols
  bool avx2_ = false;
};

}  // namespace cardtable::vision
