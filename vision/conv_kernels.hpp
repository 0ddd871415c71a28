// The arithmetic of the layers the recogniser computes itself: the detector's front (DetectorFront,
// detector_front.hpp) and tail (DetectorTail, detector_tail.hpp) and the index reader (HandReader,
// hand_reader.hpp). Convolutions with their bias and ReLU on raw float planes. Compiled twice on x86-64 -- once for the baseline the distribution
// builds for (SSE2) and once with AVX2 and FMA, chosen at run time -- and once elsewhere (arm64: NEON),
// from the same source (conv_kernels.inc), written with GCC/Clang vector extensions so each build gets
// the widest vectors its target has.
#pragma once

#include <algorithm>
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

// The detector's tail: everything after the front (s8, s16, s32, the two lateral layers that add the
// deeper maps back, the neck and the heads; vision/train/model.py, CornerNet.tail). Its input is the
// front's output, [32][rows/4][cols/4]; its output the detector's maps, [84][rows/8][cols/8]: heat
// (sigmoid), rank 13, suit 4, size 2 (logits, as the network gives them), then the 64 features.
struct TailPlan {
  int rows = 0, cols = 0;  // the front's output (the detector's input / 4); both multiples of 8
  Conv s8[4];              // (depthwise stride 2, pointwise 32 -> 64), (depthwise, pointwise 64 -> 64)
  Conv s16[6];             // (depthwise stride 2, pointwise 64 -> 96), then two (depthwise, pointwise 96 -> 96)
  Conv s32[4];             // (depthwise stride 2, pointwise 96 -> 128), (depthwise, pointwise 128 -> 128)
  Conv lat32;              // 96 x 128, then added to s16's output, each cell to the 2 x 2 it stands over
  Conv lat16;              // 64 x 96, then added to s8's output likewise
  Conv neck[4];            // (depthwise, pointwise 64 -> 64) twice
  Conv heads;              // 20 x 64: heat, rank, suit and size stacked (DetectorTail stacks them)
  float* scratch = nullptr;  // tail_scratch(rows, cols) floats, zero where DetectorTail made it
};
inline constexpr int kTailOut = 1 + 13 + 4 + 2 + 64;
// The floats run_tail carves its maps from (conv_kernels.inc lists them in the same order).
inline constexpr std::size_t tail_scratch(int rows, int cols) {
  const auto r = static_cast<std::size_t>(rows), q = static_cast<std::size_t>(cols);
  const std::size_t r8 = r / 2, q8 = q / 2, r16 = r / 4, q16 = q / 4, r32 = r / 8, q32 = q / 8;
  return (q + 8) + 64 * r8 * q8 /* depthwise outputs */ + 64 * r8 * q8 /* pointwise_padded's tmp */
         + 64 * r8 * (q8 + 2) /* s8's pointwise, the neck's */ + 96 * r16 * (q16 + 2) + 128 * r32 * (q32 + 2)
         + 64 * r8 * (q8 + 2) /* s8's output, padded for the neck */ + 96 * r16 * q16 + 128 * r32 * q32 /* s16's, s32's */
         + 96 * r32 * q32 + 64 * r16 * q16 /* lat32, lat16 */;
}

// The index reader (vision/train/reader.py, IndexReader) on one crop of `crop` x `crop` pixels: the
// committed reader's 48 (32 before 2026-11-27), or any multiple of 8 from 16 to kReaderMaxCrop
// (train_reader.py --crop; the body is all convolutions and one average pool, so the same layers read
// any of them).
struct ReaderPlan {
  int crop = 32;
  Conv body[11];  // conv 3 -> 16 (the input scale in its weights), then five (depthwise, pointwise) pairs
  Conv emb;       // 64 x 96
  Conv head;      // 18 x 64
  float* scratch = nullptr;  // reader_scratch(crop) floats, zero where HandReader made it
};
inline constexpr int kReaderMaxCrop = 64;
inline constexpr bool reader_crop_fits(int crop) { return crop >= 16 && crop <= kReaderMaxCrop && crop % 8 == 0; }
// The floats run_reader carves its maps from (conv_kernels.inc lists them in the same order).
inline constexpr std::size_t reader_scratch(int crop) {
  const auto s = static_cast<std::size_t>(crop), h = s / 2, f = s / 4, e = s / 8;
  return (s + 8) + 3 * (s + 2) * (s + 2) + 16 * s * s   // zero row, input, body.0
         + 16 * h * h + 32 * h * (h + 2) + 2 * 32 * h * h  // body.1, body.2
         + 32 * f * f + 64 * f * (f + 2) + 2 * 64 * f * f  // body.3, body.4
         + 64 * e * e + 96 * e * e                         // body.5
         + (32 * h * h > 64 * f * f ? 32 * h * h : 64 * f * f);              // pointwise_padded's tmp
}
inline constexpr int kReaderOut = 18 + 64;  // head (rank 13, suit 4, is-index 1), then the embedding

// One pass of the front: the 8-bit BGR image (rows x cols, `step` bytes a row) in, [32][rows/4][cols/4] out.
void run_front_baseline(const FrontPlan& plan, const std::uint8_t* image, std::size_t step, float* out);
// The reader on one 8-bit BGR crop (plan.crop x plan.crop, `step` bytes a row): kReaderOut values out.
void run_reader_baseline(const ReaderPlan& plan, const std::uint8_t* crop, std::size_t step, float* out);
// The tail on the front's output (plan.rows x plan.cols, 32 planes) in, kTailOut planes of rows/2 x cols/2 out.
void run_tail_baseline(const TailPlan& plan, const float* in, float* out);
#if defined(__x86_64__)
void run_front_avx2(const FrontPlan& plan, const std::uint8_t* image, std::size_t step, float* out);
void run_reader_avx2(const ReaderPlan& plan, const std::uint8_t* crop, std::size_t step, float* out);
void run_tail_avx2(const TailPlan& plan, const float* in, float* out);
#endif

}  // namespace cardtable::vision::kernels
