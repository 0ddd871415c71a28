// The index reader (vision/train/reader.py, IndexReader) computed by the program itself, crop by crop,
// with the weights of the model's reader.onnx as cv::dnn loaded it.
//
// Why: cv::dnn runs the reader's crops 8 at a time (the strip form) through 27 layers of its
// bookkeeping each time, and its depthwise convolutions are slow on small maps. The reader is 1.5 M
// multiply-adds a 32-pixel crop (3.4 M at the committed reader's 48); here each layer's rows are vectors held in registers (conv_kernels.inc) and
// nothing is allocated per crop (vision/README.md, "Speed"). The same outputs within float rounding
// (tests/unit/vision/hand_reader_test.cpp compares them with cv::dnn's).
#pragma once

#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>

#include "vision/conv_kernels.hpp"
#include "vision/hand_layers.hpp"
#include "vision/model_info.hpp"

namespace cardtable::vision {

class HandReader {
 public:
  static constexpr int kChannels = kernels::kReaderOut;   // its outputs a crop: rank 13, suit 4, is-index, embedding 64

  // The reader in `reader` (the batch form, reader.onnx, as read from its file) on crops of `crop` x
  // `crop` (model.json's reader.crop: 32, or another multiple of 8 up to kernels::kReaderMaxCrop);
  // `scale` is the model's input scale, folded into the first layer's weights. Throws
  // std::runtime_error naming the layer that is missing or not the IndexReader's, or the crop it cannot
  // read.
  HandReader(const cv::dnn::Net& reader, double scale, int crop, Kernels kernels = Kernels::best);

  // Whether a model's reader has this IndexReader's outputs where HandReader gives them, on a crop it
  // can read (its layers are checked when it is made). Another reader runs in cv::dnn.
  static bool computes(const ModelInfo::Reader& reader);

  // One 8-bit BGR crop of crop() x crop() in, kChannels values out (written to `out`).
  void read(const cv::Mat& crop, float* out);

  const char* kernels() const { return avx2_ ? "avx2+fma" : "baseline"; }

 private:
  std::vector<float> weights_;
  std::vector<float> scratch_;
  kernels::ReaderPlan plan_{};
  bool avx2_ = false;
};

}  // namespace cardtable::vision
