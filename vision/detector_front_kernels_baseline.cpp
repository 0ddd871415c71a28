// DetectorFront's kernels for the instruction set the whole build targets (SSE2 on x86-64, NEON on arm64).
#define FRONT_RUN run_baseline
#include "vision/detector_front_kernels.inc"
