// The arithmetic of DetectorFront (detector_front.hpp): five convolutions with their bias and ReLU, on
// raw float planes. Compiled twice on x86-64 -- once for the baseline the distribution builds for (SSE2)
// and once with AVX2 and FMA, chosen at run time -- and once elsewhere (arm64: NEON), from the same
// source (detector_front_kernels.inc), written with GCC/Clang vector extensions so each build gets the
// widest vectors its target has.
#pragma once

#include <cstdint>

namespace cardtable::vision::front {

// The front's weights, biases and scratch planes, laid out for the kernels (detector_front.cpp fills it).
struct Plan {
  int rows = 0, cols = 0;  // the detector's input; both multiples of 32
  // Weights as the ONNX file holds them ([out][in][ky][kx]); the stem's already times the input scale.
  const float* stem_w;   // 12 x 3 x 3 x 3
  const float* stem_b;   // 12
  const float* dw1_w;    // 12 x 3 x 3 (stride 2)
  const float* dw1_b;
  const float* pw1_w;    // 32 x 12
  const float* pw1_b;
  const float* dw2_w;    // 32 x 3 x 3 (stride 1)
  const float* dw2_b;
  const float* pw2_w;    // 32 x 32
  const float* pw2_b;
  // Scratch, sized by DetectorFront: see detector_front_kernels.inc for each one's layout.
  float* phases;     // one input row, its 3 colours split by column mod 4
  float* stem_out;   // 12 planes, rows/2 rows, each row its even columns, a zero, its odd columns
  float* dw1_out;    // 12 planes of rows/4 x cols/4
  float* pw1_out;    // 32 planes of rows/4 rows of cols/4 + 2 (a zero column each side)
  float* dw2_out;    // 32 planes of rows/4 x cols/4
};

// One pass: the 8-bit BGR image (rows x cols, `step` bytes a row) in, [32][rows/4][cols/4] out.
void run_baseline(const Plan& plan, const std::uint8_t* image, std::size_t step, float* out);
#if defined(__x86_64__)
void run_avx2(const Plan& plan, const std::uint8_t* image, std::size_t step, float* out);
#endif

}  // namespace cardtable::vision::front
