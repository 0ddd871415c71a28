#include "vision/detector_front.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string_view>

#include <opencv2/dnn/all_layers.hpp>

namespace cardtable::vision {

namespace {

// The five convolutions, by the names torch gives the ONNX nodes of model.py's modules (cv::dnn 4.6
// prefixes them "onnx_node!"), with their shapes: out, in per group, kernel side, stride.
struct Expected {
  std::string_view conv, relu;
  int out, in, kernel, stride;
};
constexpr std::array<Expected, 5> kLayers{{
    {"/stem/stem.0/Conv", "/stem/stem.2/Relu", 12, 3, 3, 2},
    {"/s4/s4.0/s4.0.0/Conv", "/s4/s4.0/s4.0.2/Relu", 12, 1, 3, 2},
    {"/s4/s4.0/s4.0.3/Conv", "/s4/s4.0/s4.0.5/Relu", 32, 12, 1, 1},
    {"/s4/s4.1/s4.1.0/Conv", "/s4/s4.1/s4.1.2/Relu", 32, 1, 3, 1},
    {"/s4/s4.1/s4.1.3/Conv", "/s4/s4.1/s4.1.5/Relu", 32, 32, 1, 1},
}};

std::string named(const std::vector<std::string>& names, std::string_view suffix) {
  for (const auto& n : names)
    if (n.size() >= suffix.size() && std::string_view(n).substr(n.size() - suffix.size()) == suffix) return n;
  throw std::runtime_error("the detector has no layer " + std::string(suffix) + ", so it is not the CornerNet the front computes");
}

bool cpu_has_avx2_fma() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

}  // namespace

DetectorFront::DetectorFront(const cv::dnn::Net& detector, double scale, Kernels kernels)
    : avx2_(kernels == Kernels::best && cpu_has_avx2_fma()) {
  const auto names = detector.getLayerNames();
  std::array<std::size_t, 10> at{};  // offsets of each layer's weights and bias in weights_
  for (std::size_t i = 0; i < kLayers.size(); ++i) {
    const auto& e = kLayers[i];
    const std::string name = named(names, e.conv);
    if (detector.getLayer(named(names, e.relu))->type != "ReLU")
      throw std::runtime_error("the detector's " + std::string(e.relu) + " is not a ReLU");
    const cv::Ptr<cv::dnn::Layer> layer = detector.getLayer(name);
    const auto* conv = dynamic_cast<const cv::dnn::BaseConvolutionLayer*>(layer.get());
    const auto k = static_cast<std::size_t>(e.kernel), s = static_cast<std::size_t>(e.stride), p = k / 2;
    if (conv == nullptr || conv->kernel_size != std::vector<std::size_t>{k, k} || conv->strides != std::vector<std::size_t>{s, s} ||
        conv->pads_begin != std::vector<std::size_t>{p, p} || conv->pads_end != std::vector<std::size_t>{p, p} ||
        conv->dilations != std::vector<std::size_t>{1, 1} || layer->blobs.empty())
      throw std::runtime_error("the detector's " + std::string(e.conv) + " is not the " + std::to_string(e.kernel) + " x " +
                               std::to_string(e.kernel) + ", stride " + std::to_string(e.stride) + " convolution the front computes");
    const cv::Mat& w = layer->blobs[0];
    const int want[] = {e.out, e.in, e.kernel, e.kernel};
    if (w.type() != CV_32F || w.dims != 4 || !std::equal(want, want + 4, w.size.p))
      throw std::runtime_error("the detector's " + std::string(e.conv) + " has weights of another shape than the front's");
    at[2 * i] = weights_.size();
    const float* wp = w.ptr<float>();
    const double f = i == 0 ? scale : 1.0;  // the stem reads 8-bit pixels: the input scale goes in its weights
    for (std::size_t j = 0; j < w.total(); ++j) weights_.push_back(static_cast<float>(wp[j] * f));
    at[2 * i + 1] = weights_.size();
    if (layer->blobs.size() > 1) {
      const cv::Mat& b = layer->blobs[1];
      if (b.type() != CV_32F || b.total() != static_cast<std::size_t>(e.out))
        throw std::runtime_error("the detector's " + std::string(e.conv) + " has a bias of another shape than the front's");
      weights_.insert(weights_.end(), b.ptr<float>(), b.ptr<float>() + e.out);
    } else {
      weights_.insert(weights_.end(), static_cast<std::size_t>(e.out), 0.0f);
    }
  }
  const float* base = weights_.data();
  plan_.stem_w = base + at[0], plan_.stem_b = base + at[1];
  plan_.dw1_w = base + at[2], plan_.dw1_b = base + at[3];
  plan_.pw1_w = base + at[4], plan_.pw1_b = base + at[5];
  plan_.dw2_w = base + at[6], plan_.dw2_b = base + at[7];
  plan_.pw2_w = base + at[8], plan_.pw2_b = base + at[9];
}

void DetectorFront::run(const cv::Mat& image, cv::Mat& out) {
  if (image.type() != CV_8UC3 || !fits(image.size()))
    throw std::runtime_error("the detector's front takes an 8-bit BGR image whose sides are multiples of " + std::to_string(kAlign));
  if (image.rows != plan_.rows || image.cols != plan_.cols) {
    // Scratch for this size, kept for the frames after: see front::Plan for each part's layout.
    const std::size_t q = static_cast<std::size_t>(image.cols) / 4, r4 = static_cast<std::size_t>(image.rows) / 4;
    const std::size_t phases = 4 * 3 * (4 * q + 1);
    const std::size_t stem = 12 * (2 * q + 1) * (2 * r4);
    const std::size_t dw1 = 12 * q * r4;
    const std::size_t pw1 = 32 * (q + 2) * r4;
    const std::size_t dw2 = 32 * q * r4;
    scratch_.assign(phases + stem + dw1 + pw1 + dw2, 0.0f);  // zeros: the padding the kernels never write
    float* s = scratch_.data();
    plan_.phases = s;
    plan_.stem_out = s + phases;
    plan_.dw1_out = plan_.stem_out + stem;
    plan_.pw1_out = plan_.dw1_out + dw1;
    plan_.dw2_out = plan_.pw1_out + pw1;
    plan_.rows = image.rows;
    plan_.cols = image.cols;
  }
  const int dims[] = {1, kChannels, image.rows / kStride, image.cols / kStride};
  out.create(4, dims, CV_32F);
#if defined(__x86_64__)
  if (avx2_) {
    front::run_avx2(plan_, image.ptr<std::uint8_t>(), image.step[0], out.ptr<float>());
    return;
  }
#endif
  front::run_baseline(plan_, image.ptr<std::uint8_t>(), image.step[0], out.ptr<float>());
}

}  // namespace cardtable::vision
