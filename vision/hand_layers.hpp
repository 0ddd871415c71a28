// What the networks the recogniser computes itself (DetectorFront, HandReader) share: their weights,
// taken from the ONNX file as cv::dnn loaded it (so the hand-computed layers cannot drift from the
// network they stand for), and the choice of which build of the kernels runs (conv_kernels.hpp).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <opencv2/dnn.hpp>

#include "vision/conv_kernels.hpp"

namespace cardtable::vision {

// Which build of the kernels runs: the widest this processor has (AVX2 + FMA on x86-64 where it has
// them), or the baseline build, which is what arm64 and older x86-64 run (the tests run both).
enum class Kernels { best, baseline };

// Whether `k` means the AVX2 + FMA build on this processor.
bool use_avx2(Kernels k);

// Whether the hand-computed layers run faster than cv::dnn on this processor, so the recogniser uses
// them by default. Measured (bench/vision_layers_bench.cpp, docs/benchmarks.md): yes on x86-64 with
// AVX2 + FMA (the front 1.6-2.7x, the tail 1.6-1.8x, the reader 2-3x faster). Elsewhere not yet: the baseline build on
// this x86-64 loses to cv::dnn, which picks AVX2 at run time, and against cv::dnn's own baseline code it
// computes the front 1.0-1.3x and reads crops 1.6x faster; but no processor without AVX2 and no arm64 board
// (NEON) has been measured, so cv::dnn runs there until one is.
bool hand_kernels_pay_off();

// One convolution the hand-computed network expects in the ONNX file: the node names torch gives the
// modules (cv::dnn 4.6 prefixes them "onnx_node!"), the ReLU after it (empty: none), and its shape.
struct ExpectedConv {
  std::string_view conv, relu;
  int out, in, kernel, stride;
};

// The weights (times `scale`) and bias of `e` in `net`, appended to `store`; returns where each starts.
// Throws std::runtime_error naming `what` and the layer that is missing or not of the expected shape.
struct ConvAt {
  std::size_t w, b;
};
ConvAt take_conv(const cv::dnn::Net& net, const ExpectedConv& e, double scale, std::vector<float>& store, const std::string& what);

// All of `layers` from `net` into `store` (the first one's weights times `scale`: it reads 8-bit
// pixels), as kernels::Conv pointing into `store`, in order. Throws as take_conv.
std::vector<kernels::Conv> take_convs(const cv::dnn::Net& net, std::span<const ExpectedConv> layers, double scale, std::vector<float>& store,
                                      const std::string& what);

}  // namespace cardtable::vision
