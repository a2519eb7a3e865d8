// neg_if_load: extra buffer/global load under 'if (kt < kpro)' at the top of the loop body (Triton pingpong_small_prologue_load): control flow in the loop.
// Wrapper around gemm.hip; every -D of gemm.hip may still be overridden.
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 64
#endif
#ifndef WAVES
#define WAVES 4
#endif
#define VARIANT if_load
#include "gemm.hip"
