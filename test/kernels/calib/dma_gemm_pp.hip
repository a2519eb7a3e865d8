// Calibration kernel (gfx950 only): an LDS-DMA, double-buffered GEMM main
// loop with and without a hand-written 8-wave ping-pong, for the published
// pairs of bench/calib.sh (issue 25):
//   - AMD's CDNA4 FP8 GEMM blog (rocm-blogs "cdna4-gemm-kernels", Mar 2026,
//     Tables 4 and 5) and the gpuaidev notebook fp8_gemm_hip_cdna4: FP8 E4M3,
//     256x256x128 tile, 512 threads (8 waves, 2x4 wave grid, 128x64 per wave),
//     direct-to-LDS loads, two LDS stages, 16x16x128 f8f6f4 MFMA; 8-wave
//     ping-pong on top (HipKittens' pattern: waves 4-7 one barrier behind, the
//     dot at s_setprio 1). Also the table's 128x128 / 8-wave and 256x256 /
//     16-wave rows.
//   - HipKittens' micro-benchmark (MI355X): 4-wave (one wave per SIMD, a
//     128x128 register tile per wave) vs 8-wave ping-pong, FP8 and BF16.
//
//   Y[M,N] (f32) = X[M,K] * W[N,K]^T, X and W K-contiguous (TN, "C = A B^T").
//
// -D parameters:
//   ELEM            fp8 (v_mfma_f32_16x16x128_f8f6f4, 32 clk) | bf16 (v_mfma_f32_16x16x32_bf16, 16 clk)
//   BM, BN, BK      block tile (BK in elements)
//   WAVES, WAVES_M  4 | 8 | 16 waves; wave grid WAVES_M x WAVES/WAVES_M
//   PINGPONG        0: every wave: wait, barrier, next tile's copies, reads, dot
//                   1: the same with a barrier between the memory phase and the
//                      dot, the dot at s_setprio 1, waves 4..7 one barrier
//                      behind (conditional s_barrier before the loop)
//
// Per K tile every lane issues (BM+BN)*BK*size / (16*64*WAVES) 16-byte
// global_load_lds (LDS DMA, counts on vmcnt) into the other stage, reads its
// fragments (ds_read_b128) from the current stage and runs
// (WTM/16)*(WTN/16)*KS MFMAs. The two stages are separate LDS objects (the
// loop is unrolled by two), so LLVM's waits tell them apart. Timing is the
// point: there is no GPU here to check numerics; the LDS layout is not
// swizzled (the model has no bank conflicts).

#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define DEV static inline __attribute__((device, always_inline))

#define ELEM_fp8 1
#define ELEM_bf16 2
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#ifndef ELEM
#define ELEM fp8
#endif
#define EL CAT(ELEM_, ELEM)
#ifndef BM
#define BM 256
#endif
#ifndef BN
#define BN 256
#endif
#ifndef BK
#define BK 128
#endif
#ifndef WAVES
#define WAVES 8
#endif
#ifndef WAVES_M
#define WAVES_M 2
#endif
#define WAVES_N (WAVES / WAVES_M)
#ifndef PINGPONG
#define PINGPONG 0
#endif
#ifndef KNAME
#define KNAME dma_gemm_pp
#endif

typedef unsigned int u32;
typedef int v8i __attribute__((ext_vector_type(8)));
typedef int v4i __attribute__((ext_vector_type(4)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef __bf16 bf8 __attribute__((ext_vector_type(8)));

#if EL == ELEM_fp8
#define ESZ 1
#define MK 128                              // K per MFMA
typedef v8i frag_t;                         // 32 fp8 per lane
#else
#define ESZ 2
#define MK 32
typedef bf8 frag_t;                         // 8 bf16 per lane
#endif
#define FRAGB ((int)sizeof(frag_t))
#define NT (64 * WAVES)
#define ROWB (BK * ESZ)                     // bytes per row of a K tile
#define WTM (BM / WAVES_M)
#define WTN (BN / WAVES_N)
#define TM (WTM / 16)
#define TN (WTN / 16)
#define KS (BK / MK)
#define CP_A (BM * ROWB / (16 * NT))        // 16-byte copies per lane per tile
#define CP_B (BN * ROWB / (16 * NT))

_Static_assert(WAVES_M * WAVES_N == WAVES, "wave grid");
_Static_assert(!PINGPONG || WAVES == 8, "pingpong needs 8 waves (2 per SIMD)");
_Static_assert(BK % MK == 0 && WTM % 16 == 0 && WTN % 16 == 0, "tile");
_Static_assert(CP_A >= 1 && CP_B >= 1 && BM * ROWB % (16 * NT) == 0 && BN * ROWB % (16 * NT) == 0, "copies");

__shared__ __attribute__((aligned(16))) unsigned char a0[BM * ROWB], a1[BM * ROWB];
__shared__ __attribute__((aligned(16))) unsigned char b0[BN * ROWB], b1[BN * ROWB];

DEV void copy_tile(const unsigned char *X, const unsigned char *W, unsigned char *la, unsigned char *lb,
                   u32 tid, u32 wave, int ldx, int kb) {
#pragma unroll
  for (int i = 0; i < CP_A; ++i) {
    u32 c = (i * NT + tid) * 16;
    u32 row = c / ROWB, col = c % ROWB;
    __builtin_amdgcn_global_load_lds((void *)(X + row * ldx + kb + col),
                                     (__attribute__((address_space(3))) void *)(la + (i * NT + wave * 64) * 16),
                                     16, 0, 0);
  }
#pragma unroll
  for (int i = 0; i < CP_B; ++i) {
    u32 c = (i * NT + tid) * 16;
    u32 row = c / ROWB, col = c % ROWB;
    __builtin_amdgcn_global_load_lds((void *)(W + row * ldx + kb + col),
                                     (__attribute__((address_space(3))) void *)(lb + (i * NT + wave * 64) * 16),
                                     16, 0, 0);
  }
}

struct Frags { frag_t a[KS][TM]; frag_t b[KS][TN]; };

// Fragment of row (lane % 16) at K byte offset (lane / 16) * FRAGB of K step k.
DEV void read_frags(Frags &f, const unsigned char *la, const unsigned char *lb, u32 wm, u32 wn, u32 lane) {
#pragma unroll
  for (int k = 0; k < KS; ++k) {
#pragma unroll
    for (int m = 0; m < TM; ++m)
      f.a[k][m] = *(const frag_t *)(la + (wm * WTM + m * 16 + lane % 16) * ROWB + k * MK * ESZ + (lane / 16) * FRAGB);
#pragma unroll
    for (int n = 0; n < TN; ++n)
      f.b[k][n] = *(const frag_t *)(lb + (wn * WTN + n * 16 + lane % 16) * ROWB + k * MK * ESZ + (lane / 16) * FRAGB);
  }
}

DEV f4 mfma(frag_t a, frag_t b, f4 c) {
#if EL == ELEM_fp8
  // cbsz = blgp = 0: A and B are FP8 E4M3; zero scales select the unscaled form.
  return __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, c, 0, 0, 0, 0, 0, 0);
#else
  return __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c, 0, 0, 0);
#endif
}

DEV void dot(f4 (&acc)[TM][TN], const Frags &f) {
#pragma unroll
  for (int k = 0; k < KS; ++k)
#pragma unroll
    for (int m = 0; m < TM; ++m)
#pragma unroll
      for (int n = 0; n < TN; ++n) acc[m][n] = mfma(f.a[k][m], f.b[k][n], acc[m][n]);
}

DEV void barrier() { __builtin_amdgcn_s_barrier(); }
DEV void pin() { __builtin_amdgcn_sched_barrier(0); }
#define WAIT_TILE() __builtin_amdgcn_s_waitcnt(0x0f70)   /* vmcnt(0) */

#define BODY(ca, cb, na, nb, KT)                                                        \
  {                                                                                     \
    const int kt_next = (KT) + 1 < nk ? (KT) + 1 : 0;                                   \
    WAIT_TILE();                        /* this tile's copies have landed */            \
    barrier();                          /* ... for every wave; the other stage is free */\
    pin();                                                                              \
    Frags f;                                                                            \
    copy_tile(X, W, na, nb, tid, wave, ldx, kt_next * ROWB);                            \
    read_frags(f, ca, cb, wm, wn, lane);                                                \
    pin();                                                                              \
    if (PINGPONG) { barrier(); pin(); }                                                 \
    if (PINGPONG) __builtin_amdgcn_s_setprio(1);                                        \
    dot(acc, f);                                                                        \
    if (PINGPONG) __builtin_amdgcn_s_setprio(0);                                        \
    pin();                                                                              \
  }

extern "C" __global__ __attribute__((amdgpu_flat_work_group_size(NT, NT)))
void KNAME(const unsigned char *__restrict__ Xg, const unsigned char *__restrict__ Wg,
           float *__restrict__ Y, int M, int N, int K) {
  const u32 tid = __builtin_amdgcn_workitem_id_x();
  const u32 lane = tid % 64;
  const u32 wave = __builtin_amdgcn_readfirstlane(tid / 64);
  const u32 wm = wave / WAVES_N, wn = wave % WAVES_N;
  const int ldx = K * ESZ;
  const int nk = K / BK;                       // even (unrolled by two)
  const u32 tn = __builtin_amdgcn_workgroup_id_x();
  const u32 tmi = __builtin_amdgcn_workgroup_id_y();
  const unsigned char *X = Xg + (unsigned long)tmi * BM * ldx;
  const unsigned char *W = Wg + (unsigned long)tn * BN * ldx;

  f4 acc[TM][TN];
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) acc[m][n] = (f4){0, 0, 0, 0};

  copy_tile(X, W, a0, b0, tid, wave, ldx, 0);
  // Skew: waves 4..7 one phase behind; their tile-0 copies land first.
  if (PINGPONG && wave >= 4) {
    WAIT_TILE();
    barrier();
  }
  for (int kt = 0; kt < nk; kt += 2) {
    BODY(a0, b0, a1, b1, kt)
    BODY(a1, b1, a0, b0, kt + 1)
  }
  if (PINGPONG && wave < 4) barrier();         // re-align the barrier counts

#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n)
#pragma unroll
      for (int i = 0; i < 4; ++i)
        Y[((unsigned long)tmi * BM + wm * WTM + m * 16 + (lane / 16) * 4 + i) * N + tn * BN + wn * WTN + n * 16 + lane % 16] =
            acc[m][n][i];
}
