#include "vision/detector_front.hpp"

#include <array>
#include <stdexcept>

namespace cardtable::vision {

namespace {

// The five convolutions of model.py's CornerNet front, by the names torch gives their ONNX nodes.
constexpr std::array<ExpectedConv, 5> kLayers{{
    {"/stem/stem.0/Conv", "/stem/stem.2/Relu", 12, 3, 3, 2},
    {"/s4/s4.0/s4.0.0/Conv", "/s4/s4.0/s4.0.2/Relu", 12, 1, 3, 2},
    {"/s4/s4.0/s4.0.3/Conv", "/s4/s4.0/s4.0.5/Relu", 32, 12, 1, 1},
    {"/s4/s4.1/s4.1.0/Conv", "/s4/s4.1/s4.1.2/Relu", 32, 1, 3, 1},
    {"/s4/s4.1/s4.1.3/Conv", "/s4/s4.1/s4.1.5/Relu", 32, 32, 1, 1},
}};

}  // namespace

DetectorFront::DetectorFront(const cv::dnn::Net& detector, double scale, Kernels kernels) : avx2_(use_avx2(kernels)) {
  const auto c = take_convs(detector, kLayers, scale, weights_, "the detector");
  plan_.stem = c[0];
  plan_.dw1 = c[1];
  plan_.pw1 = c[2];
  plan_.dw2 = c[3];
  plan_.pw2 = c[4];
}

void DetectorFront::run(const cv::Mat& image, cv::Mat& out) {
  if (image.type() != CV_8UC3 || !fits(image.size()))
    throw std::runtime_error("the detector's front takes an 8-bit BGR image whose sides are multiples of " + std::to_string(kAlign));
  if (image.rows != plan_.rows || image.cols != plan_.cols) {
    // Scratch for this size, kept for the frames after: see kernels::FrontPlan for each part's layout.
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
    kernels::run_front_avx2(plan_, image.ptr<std::uint8_t>(), image.step[0], out.ptr<float>());
    return;
  }
#endif
  kernels::run_front_baseline(plan_, image.ptr<std::uint8_t>(), image.step[0], out.ptr<float>());
}

}  // namespace cardtable::vision
