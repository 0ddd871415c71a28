// The arithmetic of the layers the recogniser computes itself: the detector's front (DetectorFront,
// detector_front.hpp) and the index reader (HandReader, hand_reader.hpp). Convolutions with their bias
// and ReLU on raw float planes. Compiled twice on x86-64 -- once for the baseline the distribution
// builds for (SSE2) and once with AVX2 and FMA, chosen at run time -- and once elsewhere (arm64: NEON),
// from the same source (conv_kernels.inc), written with GCC/Clang vector extensions so each build gets
// the widest vectors its target has.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cardtable::vision::kernels {

// A convolution's weights as the ONNX file holds them ([out][in per group][ky][kx]) and its bias.
struct Conv {
  const float* w = nullptr;
  const float* b = nullptr;
};

// The detector's front: the stem and s4 (vision/train/model.py), its scratch sized by DetectorFront.
struct FrontPlan {
  int rows = 0, cols = 0;  // the detector's input; both multiples of 32
  Conv stem;  // 12 x 3 x 3 x 3, stride 2, the input scale already in the weights
  Conv dw1;   // 12 x 1 x 3 x 3, stride 2
  Conv pw1;   // 32 x 12
  Conv dw2;   // 32 x 1 x 3 x 3
  Conv pw2;   // 32 x 32
  // Scratch: see conv_kernels.inc for each one's layout.
  float* phases = nullptr;    // input rows, their 3 colours split by column mod 4
  float* stem_out = nullptr;  // 12 planes, rows/2 rows, each row its even columns, a zero, its odd columns
  float* dw1_out = nullptr;   // 12 planes of rows/4 x cols/4
  float* pw1_out = nullptr;   // 32 planes of rows/4 rows of cols/4 + 2 (a zero column each side)
  float* dw2_out = nullptr;   // 32 planes of rows/4 x cols/4
};

// The index reader (vision/train/reader.py, IndexReader) on one 32 x 32 crop.
struct ReaderPlan {
  Conv body[11];  // conv 3 -> 16 (the input scale in its weights), then five (depthwise, pointwise) pairs
  Conv emb;       // 64 x 96
  Conv head;      // 18 x 64
  float* scratch = nullptr;  // kReaderScratch floats, zero where HandReader made it
};
inline constexpr std::size_t kReaderScratch = 96 * 1024;
inline constexpr int kReaderCrop = 32;
inline constexpr int kReaderOut = 18 + 64;  // head (rank 13, suit 4, is-index 1), then the embedding

// One pass of the front: the 8-bit BGR image (rows x cols, `step` bytes a row) in, [32][rows/4][cols/4] out.
void run_front_baseline(const FrontPlan& plan, const std::uint8_t* image, std::size_t step, float* out);
// The reader on one 8-bit BGR crop (32 x 32, `step` bytes a row): kReaderOut values out.
void run_reader_baseline(const ReaderPlan& plan, const std::uint8_t* crop, std::size_t step, float* out);
#if defined(__x86_64__)
void run_front_avx2(const FrontPlan& plan, const std::uint8_t* image, std::size_t step, float* out);
void run_reader_avx2(const ReaderPlan& plan, const std::uint8_t* crop, std::size_t step, float* out);
#endif

}  // namespace cardtable::vision::kernels
