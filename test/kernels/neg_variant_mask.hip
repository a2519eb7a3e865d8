// neg_variant_mask: A/B loads masked with the K-loop-variant per-lane condition kt*BK+k+8 <= K (buffer: OOB voffset select; global: clamped address + select of the result). Single-block loop. Triton pingpong_reject_loop_variant_mask (8 waves 256x128x64): rejected (upstream #10585).
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
#define VARIANT variant_mask
#include "gemm.hip"
