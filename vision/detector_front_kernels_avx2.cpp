// DetectorFront's kernels compiled with AVX2 and FMA (vision/CMakeLists.txt adds -mavx2 -mfma to this file
// alone); detector_front.cpp runs them only where the processor has both.
#define FRONT_RUN run_avx2
#include "vision/detector_front_kernels.inc"
