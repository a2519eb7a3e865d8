// neg_small_tile: 16x32x16 f16 tile (131072 bits < minTile 262144), 4 waves in a 1x2 grid replicated twice (Triton broadcast layout).
// Wrapper around gemm.hip; every -D of gemm.hip may still be overridden.
#ifndef BM
#define BM 16
#endif
#ifndef BN
#define BN 32
#endif
#ifndef BK
#define BK 16
#endif
#ifndef WAVES
#define WAVES 4
#endif
#ifndef WAVES_M
#define WAVES_M 1
#endif
#ifndef WAVES_N
#define WAVES_N 2
#endif
#define VARIANT base
#include "gemm.hip"
