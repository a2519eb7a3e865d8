// pos_load_reorder: ds_reads before the global loads in source order (Triton pingpong_small_load_reorder, ACCEPTED -> OnePP).
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
#define VARIANT load_reorder
#include "gemm.hip"
