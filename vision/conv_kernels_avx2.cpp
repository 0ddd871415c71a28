// The recogniser's own kernels compiled with AVX2 and FMA (vision/CMakeLists.txt adds -mavx2 -mfma to
// this file alone); they run only where the processor has both (detector_front.cpp, detector_tail.cpp, hand_reader.cpp).
#define KERNEL(name) name##_avx2
#define KERNEL_LANES 8
#include "vision/conv_kernels.inc"
