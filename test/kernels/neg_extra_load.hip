// neg_extra_load: a third buffer/global load per iteration that does not feed the dot (summed by VALU, stored after the loop); single-block body (Triton pingpong_reject_small_three_load).
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
#define VARIANT extra_load
#include "gemm.hip"
