// The recogniser's own kernels for the instruction set the whole build targets (SSE2 on x86-64, NEON on
// arm64).
#define KERNEL(name) name##_baseline
#define KERNEL_LANES 4
#include "vision/conv_kernels.inc"
