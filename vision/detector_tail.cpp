#include "vision/detector_tail.hpp"

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace cardtable::vision {

namespace {

// model.py's CornerNet after s4, by the names torch gives its ONNX nodes: each dw_sep is a depthwise
// 3 x 3 (stride 2 where the stage begins) and a pointwise, each followed by a ReLU; the lateral layers
// are 1 x 1 convolutions with a ReLU; the heads have none (heat's sigmoid is computed with them).
constexpr std::array<ExpectedConv, 24> kLayers{{
    {"/s8/s8.0/s8.0.0/Conv", "/s8/s8.0/s8.0.2/Relu", 32, 1, 3, 2},
    {"/s8/s8.0/s8.0.3/Conv", "/s8/s8.0/s8.0.5/Relu", 64, 32, 1, 1},
    {"/s8/s8.1/s8.1.0/Conv", "/s8/s8.1/s8.1.2/Relu", 64, 1, 3, 1},
    {"/s8/s8.1/s8.1.3/Conv", "/s8/s8.1/s8.1.5/Relu", 64, 64, 1, 1},
    {"/s16/s16.0/s16.0.0/Conv", "/s16/s16.0/s16.0.2/Relu", 64, 1, 3, 2},
    {"/s16/s16.0/s16.0.3/Conv", "/s16/s16.0/s16.0.5/Relu", 96, 64, 1, 1},
    {"/s16/s16.1/s16.1.0/Conv", "/s16/s16.1/s16.1.2/Relu", 96, 1, 3, 1},
    {"/s16/s16.1/s16.1.3/Conv", "/s16/s16.1/s16.1.5/Relu", 96, 96, 1, 1},
    {"/s16/s16.2/s16.2.0/Conv", "/s16/s16.2/s16.2.2/Relu", 96, 1, 3, 1},
    {"/s16/s16.2/s16.2.3/Conv", "/s16/s16.2/s16.2.5/Relu", 96, 96, 1, 1},
    {"/s32/s32.0/s32.0.0/Conv", "/s32/s32.0/s32.0.2/Relu", 96, 1, 3, 2},
    {"/s32/s32.0/s32.0.3/Conv", "/s32/s32.0/s32.0.5/Relu", 128, 96, 1, 1},
    {"/s32/s32.1/s32.1.0/Conv", "/s32/s32.1/s32.1.2/Relu", 128, 1, 3, 1},
    {"/s32/s32.1/s32.1.3/Conv", "/s32/s32.1/s32.1.5/Relu", 128, 128, 1, 1},
    {"/lat32/lat32.0/Conv", "/lat32/lat32.2/Relu", 96, 128, 1, 1},
    {"/lat16/lat16.0/Conv", "/lat16/lat16.2/Relu", 64, 96, 1, 1},
    {"/neck/neck.0/neck.0.0/Conv", "/neck/neck.0/neck.0.2/Relu", 64, 1, 3, 1},
    {"/neck/neck.0/neck.0.3/Conv", "/neck/neck.0/neck.0.5/Relu", 64, 64, 1, 1},
    {"/neck/neck.1/neck.1.0/Conv", "/neck/neck.1/neck.1.2/Relu", 64, 1, 3, 1},
    {"/neck/neck.1/neck.1.3/Conv", "/neck/neck.1/neck.1.5/Relu", 64, 64, 1, 1},
    {"/heat/Conv", "", 1, 64, 1, 1},
    {"/rank/Conv", "", 13, 64, 1, 1},
    {"/suit/Conv", "", 4, 64, 1, 1},
    {"/size/Conv", "", 2, 64, 1, 1},
}};

}  // namespace

DetectorTail::DetectorTail(const cv::dnn::Net& detector, Kernels kernels) : avx2_(use_avx2(kernels)) {
  // The layers before the heads, by where each starts in weights_: pointers are taken once it has
  // stopped growing.
  std::vector<ConvAt> at;
  for (std::size_t i = 0; i < 20; ++i) at.push_back(take_conv(detector, kLayers[i], 1.0, weights_, "the detector"));
  // The four heads stacked into one 20 x 64 layer, in the order of the network's output (model.py's
  // torch.cat): their weights, then their biases.
  std::vector<float> heads;
  std::vector<ConvAt> head_at;
  for (std::size_t i = 20; i < kLayers.size(); ++i) head_at.push_back(take_conv(detector, kLayers[i], 1.0, heads, "the detector"));
  const std::size_t heads_w = weights_.size();
  for (const auto& h : head_at) weights_.insert(weights_.end(), heads.begin() + static_cast<std::ptrdiff_t>(h.w), heads.begin() + static_cast<std::ptrdiff_t>(h.b));
  const std::size_t heads_b = weights_.size();
  for (std::size_t i = 0; i < head_at.size(); ++i) {
    const auto b = heads.begin() + static_cast<std::ptrdiff_t>(head_at[i].b);
    weights_.insert(weights_.end(), b, b + kLayers[20 + i].out);
  }
  auto conv = [&](std::size_t i) { return kernels::Conv{weights_.data() + at[i].w, weights_.data() + at[i].b}; };
  for (std::size_t i = 0; i < 4; ++i) plan_.s8[i] = conv(i);
  for (std::size_t i = 0; i < 6; ++i) plan_.s16[i] = conv(4 + i);
  for (std::size_t i = 0; i < 4; ++i) plan_.s32[i] = conv(10 + i);
  plan_.lat32 = conv(14);
  plan_.lat16 = conv(15);
  for (std::size_t i = 0; i < 4; ++i) plan_.neck[i] = conv(16 + i);
  plan_.heads = {weights_.data() + heads_w, weights_.data() + heads_b};
}

void DetectorTail::run(const cv::Mat& s4, cv::Mat& maps) {
  if (s4.type() != CV_32F || s4.dims != 4 || s4.size[0] != 1 || s4.size[1] != 32 || s4.size[2] % 8 != 0 || s4.size[3] % 8 != 0 ||
      s4.size[2] == 0 || s4.size[3] == 0 || !s4.isContinuous())
    throw std::runtime_error("the detector's tail takes the front's output, [1, 32, R, C] float with R and C multiples of 8");
  const int R = s4.size[2], C = s4.size[3];
  if (R != plan_.rows || C != plan_.cols) {
    scratch_.assign(kernels::tail_scratch(R, C), 0.0f);  // zeros: the padding the kernels never write
    plan_.scratch = scratch_.data();
    plan_.rows = R;
    plan_.cols = C;
  }
  const int dims[] = {1, kChannels, R / 2, C / 2};
  maps.create(4, dims, CV_32F);
#if defined(__x86_64__)
  if (avx2_) {
    kernels::run_tail_avx2(plan_, s4.ptr<float>(), maps.ptr<float>());
    return;
  }
#endif
  kernels::run_tail_baseline(plan_, s4.ptr<float>(), maps.ptr<float>());
}

}  // namespace cardtable::vision
