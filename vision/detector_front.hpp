// The detector's first five layers computed by hand, and the rest by cv::dnn (model.json's "tail").
//
// The detector (vision/train/model.py, CornerNet) opens with a stem (3 x 3, stride 2, 3 -> 12) and the
// s4 stage (depthwise 3 x 3 stride 2, pointwise 12 -> 32, depthwise 3 x 3, pointwise 32 -> 32), each with
// its bias (batch norm folded in at export) and a ReLU. They run at full resolution on few channels, the
// shape OpenCV 4.6 handles worst: 10 of the detector's 23 ms on one core for 79 M multiply-adds. Written
// out here they read the 8-bit frame directly (no float blob of it) and keep each output row's vectors
// in registers (vision/README.md, "Speed"). The weights are the detector's own, taken from the ONNX
// file cv::dnn loaded, so the front and the whole network cannot drift apart: the same numbers within
// float rounding (tests/unit/vision/detector_front_test.cpp compares them).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>

#include "vision/conv_kernels.hpp"
#include "vision/hand_layers.hpp"

namespace cardtable::vision {

class DetectorFront {
 public:
  static constexpr int kChannels = 32;  // of its output, the s4 stage's
  static constexpr int kStride = 4;     // its output's cells, in input pixels
  static constexpr int kAlign = 32;     // the input's sides must be multiples of this (the network's deepest stride)

  // The front of `detector`, the whole network as read from its ONNX file; `scale` is the model's input
  // scale (model.json), folded into the stem's weights. Throws std::runtime_error naming the layer that
  // is missing or not the CornerNet's.
  DetectorFront(const cv::dnn::Net& detector, double scale, Kernels kernels = Kernels::best);

  // Whether a detector input of this size can go through the front (else the caller runs the whole net).
  static bool fits(cv::Size input) { return input.width % kAlign == 0 && input.height % kAlign == 0 && !input.empty(); }

  // image: 8-bit BGR, fits(). out: [1, 32, rows/4, cols/4] float, made or reused in place.
  void run(const cv::Mat& image, cv::Mat& out);

  // "avx2+fma" or "baseline": which build of the kernels runs on this processor.
  const char* kernels() const { return avx2_ ? "avx2+fma" : "baseline"; }

 private:
  std::vector<float> weights_;  // the five layers' weights and biases, plan_ points into it
  kernels::FrontPlan plan_{};
  std::vector<float> scratch_;  // sized for plan_.rows x plan_.cols
  bool avx2_ = false;
};

}  // namespace cardtable::vision
