#include "vision/hand_layers.hpp"

#include <algorithm>
#include <stdexcept>

#include <opencv2/dnn/all_layers.hpp>

namespace cardtable::vision {

namespace {

std::string named(const std::vector<std::string>& names, std::string_view suffix, const std::string& what) {
  for (const auto& n : names)
    if (std::string_view(n).ends_with(suffix)) return n;
  throw std::runtime_error(what + " has no layer " + std::string(suffix) + ", so it is not the network the program computes");
}

}  // namespace

bool use_avx2(Kernels k) {
#if defined(__x86_64__)
  if (k != Kernels::best) return false;
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  (void)k;
  return false;
#endif
}

bool hand_kernels_pay_off() { return use_avx2(Kernels::best); }

ConvAt take_conv(const cv::dnn::Net& net, const ExpectedConv& e, double scale, std::vector<float>& store, const std::string& what) {
  const auto names = net.getLayerNames();
  const std::string name = named(names, e.conv, what);
  if (!e.relu.empty() && net.getLayer(named(names, e.relu, what))->type != "ReLU")
    throw std::runtime_error(what + "'s " + std::string(e.relu) + " is not a ReLU");
  const cv::Ptr<cv::dnn::Layer> layer = net.getLayer(name);
  const auto* conv = dynamic_cast<const cv::dnn::BaseConvolutionLayer*>(layer.get());
  const auto k = static_cast<std::size_t>(e.kernel), s = static_cast<std::size_t>(e.stride), p = k / 2;
  if (conv == nullptr || conv->kernel_size != std::vector<std::size_t>{k, k} || conv->strides != std::vector<std::size_t>{s, s} ||
      conv->pads_begin != std::vector<std::size_t>{p, p} || conv->pads_end != std::vector<std::size_t>{p, p} ||
      conv->dilations != std::vector<std::size_t>{1, 1} || layer->blobs.empty())
    throw std::runtime_error(what + "'s " + std::string(e.conv) + " is not the " + std::to_string(e.kernel) + " x " + std::to_string(e.kernel) +
                             ", stride " + std::to_string(e.stride) + " convolution the program computes");
  const cv::Mat& w = layer->blobs[0];
  const int want[] = {e.out, e.in, e.kernel, e.kernel};
  if (w.type() != CV_32F || w.dims != 4 || !std::equal(want, want + 4, w.size.p))
    throw std::runtime_error(what + "'s " + std::string(e.conv) + " has weights of another shape than the program computes");
  ConvAt at{store.size(), 0};
  const float* wp = w.ptr<float>();
  for (std::size_t j = 0; j < w.total(); ++j) store.push_back(static_cast<float>(wp[j] * scale));
  at.b = store.size();
  if (layer->blobs.size() > 1) {
    const cv::Mat& b = layer->blobs[1];
    if (b.type() != CV_32F || b.total() != static_cast<std::size_t>(e.out))
      throw std::runtime_error(what + "'s " + std::string(e.conv) + " has a bias of another shape than the program computes");
    store.insert(store.end(), b.ptr<float>(), b.ptr<float>() + e.out);
  } else {
    store.insert(store.end(), static_cast<std::size_t>(e.out), 0.0f);
  }
  return at;
}

std::vector<kernels::Conv> take_convs(const cv::dnn::Net& net, std::span<const ExpectedConv> layers, double scale, std::vector<float>& store,
                                      const std::string& what) {
  std::vector<ConvAt> at;
  for (std::size_t i = 0; i < layers.size(); ++i) at.push_back(take_conv(net, layers[i], i == 0 ? scale : 1.0, store, what));
  std::vector<kernels::Conv> convs;  // pointers taken once `store` has stopped growing
  for (const auto& a : at) convs.push_back({store.data() + a.w, store.data() + a.b});
  return convs;
}

}  // namespace cardtable::vision
