#include "vision/hand_reader.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace cardtable::vision {

namespace {

// reader.py's IndexReader: body.0 (conv_bn 3 -> 16), body.1..5 (dw_sep: depthwise, pointwise), then
// the pooled 96 to the 64-d embedding and the head, by the names torch gives their ONNX nodes.
constexpr std::array<ExpectedConv, 13> kLayers{{
    {"/body/body.0/body.0.0/Conv", "/body/body.0/body.0.2/Relu", 16, 3, 3, 1},
    {"/body/body.1/body.1.0/Conv", "/body/body.1/body.1.2/Relu", 16, 1, 3, 2},
    {"/body/body.1/body.1.3/Conv", "/body/body.1/body.1.5/Relu", 32, 16, 1, 1},
    {"/body/body.2/body.2.0/Conv", "/body/body.2/body.2.2/Relu", 32, 1, 3, 1},
    {"/body/body.2/body.2.3/Conv", "/body/body.2/body.2.5/Relu", 32, 32, 1, 1},
    {"/body/body.3/body.3.0/Conv", "/body/body.3/body.3.2/Relu", 32, 1, 3, 2},
    {"/body/body.3/body.3.3/Conv", "/body/body.3/body.3.5/Relu", 64, 32, 1, 1},
    {"/body/body.4/body.4.0/Conv", "/body/body.4/body.4.2/Relu", 64, 1, 3, 1},
    {"/body/body.4/body.4.3/Conv", "/body/body.4/body.4.5/Relu", 64, 64, 1, 1},
    {"/body/body.5/body.5.0/Conv", "/body/body.5/body.5.2/Relu", 64, 1, 3, 2},
    {"/body/body.5/body.5.3/Conv", "/body/body.5/body.5.5/Relu", 96, 64, 1, 1},
    {"/emb/Conv", "", 64, 96, 1, 1},
    {"/head/Conv", "", 18, 64, 1, 1},
}};

}  // namespace

HandReader::HandReader(const cv::dnn::Net& reader, double scale, int crop, Kernels kernels) : avx2_(use_avx2(kernels)) {
  if (!kernels::reader_crop_fits(crop))
    throw std::runtime_error("the reader computed here reads crops of a multiple of 8 from 16 to " + std::to_string(kernels::kReaderMaxCrop) +
                             " pixels, not " + std::to_string(crop));
  const auto c = take_convs(reader, kLayers, scale, weights_, "the reader");
  scratch_.assign(kernels::reader_scratch(crop), 0.0f);
  plan_.crop = crop;
  std::copy(c.begin(), c.begin() + 11, plan_.body);
  plan_.emb = c[11];
  plan_.head = c[12];
  plan_.scratch = scratch_.data();
}

bool HandReader::computes(const ModelInfo::Reader& r) {
  return kernels::reader_crop_fits(r.crop) && r.channels == kChannels && r.rank == 0 && r.suit == 13 && r.is_index == 17 && r.emb == 18 &&
         r.emb_dim == 64;
}

void HandReader::read(const cv::Mat& crop, float* out) {
  if (crop.type() != CV_8UC3 || crop.rows != plan_.crop || crop.cols != plan_.crop)
    throw std::runtime_error("the reader takes an 8-bit BGR crop of " + std::to_string(plan_.crop) + " x " + std::to_string(plan_.crop));
#if defined(__x86_64__)
  if (avx2_) {
    kernels::run_reader_avx2(plan_, crop.ptr<std::uint8_t>(), crop.step[0], out);
    return;
  }
#endif
  kernels::run_reader_baseline(plan_, crop.ptr<std::uint8_t>(), crop.step[0], out);
}

}  // namespace cardtable::vision
