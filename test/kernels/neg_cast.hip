// neg_cast: VALU op (fneg of B by default, CAST_KIND=scale: v_pk_mul) between ds_read and MFMA. Triton pingpong_medium_cast (8 waves 256x128x64): rejected, dot slicing needs local_load -> dot directly. (At 4 waves Triton's pingpong_small has arith.negf and is accepted.)
// Wrapper around gemm.hip; every -D of gemm.hip may still be overridden.
#ifndef BM
#define BM 256
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 64
#endif
#ifndef WAVES
#define WAVES 8
#endif
#define VARIANT cast
#include "gemm.hip"
