// Calibration kernel (gfx950 only): MXFP4 GEMM main loop in the shape of
// AITER's Triton gemm_afp4wfp4 with async copy, for the cycle model's
// direction checks against seeds 002 and 004 (docs/cycle-model.md).
//
//   Y[M,N] (f32) = X[M,K] * W[N,K]^T, X and W FP4 E2M1 packed 2 per byte,
//   K-contiguous; E8M0 scales, one per 32 K values (4 per byte-lane dword).
//
// Build:
//   clang++ -x hip --offload-arch=gfx950 -nogpulib -nogpuinc --offload-device-only \
//       -O3 -S -emit-llvm fp4_gemm.hip -o k.ll [-D...]
//   llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 -O3 k.ll -o k.s
//
// -D parameters:
//   BM, BN, BK      block tile; BK counts FP4 elements (BK/2 bytes per row)
//   WAVES           4 | 8; wave grid WAVES_M x WAVES_N
//   LOADPOS         0 = global->LDS copies at the END of the body (seed 002 "orig")
//                   1 = right after the wait that frees their buffer (seed 002 "hack0")
//   PINGPONG        0 = all waves: memory phase, barrier, dot, barrier
//                   1 = 8-wave pingpong as HipKittens writes it by hand: waves
//                       4..7 run one barrier behind (conditional s_barrier
//                       before the loop), the dot runs at s_setprio 1, phases
//                       pinned by sched_barrier(0) (seed 004 "enable pingpong")
//
// Per K tile: every lane issues (BM+BN)*BK/2 / (16*64*WAVES) global_load_lds
// of 16 bytes (gfx950 LDS DMA, counts on vmcnt) into the other LDS stage and
// one dword scale load per operand; reads its MFMA fragments (16 B per
// 16x16x128 operand: ds_read_b128) from the current stage; issues
// (WTM/16)*(WTN/16)*(BK/128) v_mfma_scale_f32_16x16x128_f8f6f4 (FP4 x FP4:
// 16 cycles). Two stages, unrolled by two so each stage is its own LDS object
// (SIInsertWaitcnts then tells the stages apart and does not wait for the
// copy in flight before reading the other stage).
//
// Synchronisation follows the published patterns (Triton async_wait +
// barrier; HipKittens' skewed barriers). Timing is the point; there is no GPU
// here to check the numerics.

#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define DEV static inline __attribute__((device, always_inline))

#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 512
#endif
#ifndef WAVES
#define WAVES 8
#endif
#ifndef WAVES_M
#define WAVES_M 2
#endif
#ifndef WAVES_N
#define WAVES_N (WAVES / WAVES_M)
#endif
// WAITS=1 (default): the author's vmcnt(0) before the barrier that frees a
// stage; WAITS=0: no explicit wait, LLVM places them (per wave, after the
// barrier: a cross-wave race on the DMA'd stage that -amdgpu-pingpong-verify
// reports and -amdgpu-pingpong-waits=place fixes).
#ifndef WAITS
#define WAITS 1
#endif
#if WAITS
#define WAIT_TILE() __builtin_amdgcn_s_waitcnt(0x0f70)
#else
#define WAIT_TILE() ((void)0)
#endif
#ifndef SKEW_WAIT
#define SKEW_WAIT 1
#endif
#ifndef LOADPOS
#define LOADPOS 1
#endif
#ifndef PINGPONG
#define PINGPONG 0
#endif
#ifndef KNAME
#define KNAME fp4_gemm
#endif

typedef unsigned int u32;
typedef int v8i __attribute__((ext_vector_type(8)));
typedef int v4i __attribute__((ext_vector_type(4)));
typedef float f4 __attribute__((ext_vector_type(4)));

#define NT (64 * WAVES)
#define ROWB (BK / 2)                       // bytes per row of a K tile
#define WTM (BM / WAVES_M)
#define WTN (BN / WAVES_N)
#define TM (WTM / 16)
#define TN (WTN / 16)
#define KS (BK / 128)
#define CP_A (BM * ROWB / (16 * NT))        // 16-byte copies per lane per tile
#define CP_B (BN * ROWB / (16 * NT))

_Static_assert(WAVES_M * WAVES_N == WAVES, "wave grid");
_Static_assert(!PINGPONG || WAVES == 8, "pingpong needs 8 waves (2 per SIMD)");
_Static_assert(BK % 128 == 0 && WTM % 16 == 0 && WTN % 16 == 0, "tile");
_Static_assert(CP_A >= 1 && CP_B >= 1 && BM * ROWB % (16 * NT) == 0 && BN * ROWB % (16 * NT) == 0, "copies");
_Static_assert(KS <= 4, "one scale dword holds 4 K-steps");

__shared__ __attribute__((aligned(16))) unsigned char a0[BM * ROWB], a1[BM * ROWB];
__shared__ __attribute__((aligned(16))) unsigned char b0[BN * ROWB], b1[BN * ROWB];

// Copy one K tile (byte column kb) of X and W into an LDS stage: each
// global_load_lds moves 64 lanes x 16 B = 1 KiB to a wave-uniform LDS base.
DEV void copy_tile(const unsigned char *X, const unsigned char *W, unsigned char *la, unsigned char *lb,
                   u32 tid, u32 wave, int ldx, int kb) {
#pragma unroll
  for (int i = 0; i < CP_A; ++i) {
    u32 c = (i * NT + tid) * 16;            // byte offset of this lane's chunk in the tile
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

struct Frags { v4i a[KS][TM]; v4i b[KS][TN]; };

DEV void read_frags(Frags &f, const unsigned char *la, const unsigned char *lb, u32 wm, u32 wn, u32 lane) {
#pragma unroll
  for (int k = 0; k < KS; ++k) {
#pragma unroll
    for (int m = 0; m < TM; ++m)
      f.a[k][m] = *(const v4i *)(la + (wm * WTM + m * 16 + lane % 16) * ROWB + k * 64 + (lane / 16) * 16);
#pragma unroll
    for (int n = 0; n < TN; ++n)
      f.b[k][n] = *(const v4i *)(lb + (wn * WTN + n * 16 + lane % 16) * ROWB + k * 64 + (lane / 16) * 16);
  }
}

// cbsz = blgp = 4: A and B are FP4 E2M1; opsel (an immediate) picks the scale
// byte of K-step k. k is a constant after unrolling, so the switch folds.
#define MFS(K) __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, c, 4, 4, K, sa, K, sb)
DEV f4 mfma_scaled(int k, v8i a, v8i b, f4 c, int sa, int sb) {
  switch (k) {
  case 0: return MFS(0);
  case 1: return MFS(1);
  case 2: return MFS(2);
  default: return MFS(3);
  }
}

DEV void dot(f4 (&acc)[TM][TN], const Frags &f, int sa, int sb) {
#pragma unroll
  for (int k = 0; k < KS; ++k)
#pragma unroll
    for (int m = 0; m < TM; ++m)
#pragma unroll
      for (int n = 0; n < TN; ++n) {
        v8i a = {f.a[k][m][0], f.a[k][m][1], f.a[k][m][2], f.a[k][m][3], 0, 0, 0, 0};
        v8i b = {f.b[k][n][0], f.b[k][n][1], f.b[k][n][2], f.b[k][n][3], 0, 0, 0, 0};
        acc[m][n] = mfma_scaled(k, a, b, acc[m][n], sa, sb);
      }
}

DEV void barrier() { __builtin_amdgcn_s_barrier(); }
DEV void pin() { __builtin_amdgcn_sched_barrier(0); }

// One K tile: compute on stage (ca, cb), copy tile kt+1 into stage (na, nb).
#define BODY(ca, cb, na, nb, KT)                                                        \
  {                                                                                     \
    /* the last tile copies tile 0 again (branch-free; the copy is unused) */          \
    const int kt_next = (KT) + 1 < nk ? (KT) + 1 : 0;                                   \
    const int kb_next = kt_next * ROWB;                                                 \
    WAIT_TILE();                        /* vmcnt(0): this tile's copies have landed */  \
    barrier();                          /* ... for every wave; stage n is free */       \
    pin();                                                                              \
    Frags f;                                                                            \
    int sa_next = 0, sb_next = 0;                                                       \
    if (LOADPOS == 1) {                                                                 \
      copy_tile(X, W, na, nb, tid, wave, ldx, kb_next);                                 \
      sa_next = SX[kt_next]; sb_next = SW[kt_next];                                     \
    }                                                                                   \
    read_frags(f, ca, cb, wm, wn, lane);                                                \
    pin();                                                                              \
    if (PINGPONG) { barrier(); pin(); }                                                 \
    if (PINGPONG) __builtin_amdgcn_s_setprio(1);                                        \
    dot(acc, f, sa, sb);                                                                \
    if (PINGPONG) __builtin_amdgcn_s_setprio(0);                                        \
    pin();                                                                              \
    if (LOADPOS == 0) {                                                                 \
      copy_tile(X, W, na, nb, tid, wave, ldx, kb_next);                                 \
      sa_next = SX[kt_next]; sb_next = SW[kt_next];                                     \
    }                                                                                   \
    sa = sa_next; sb = sb_next;                                                         \
  }

extern "C" __global__ __attribute__((amdgpu_flat_work_group_size(NT, NT)))
void KNAME(const unsigned char *__restrict__ Xg, const unsigned char *__restrict__ Wg,
           const int *__restrict__ SXg, const int *__restrict__ SWg,
           float *__restrict__ Y, int M, int N, int K) {
  const u32 tid = __builtin_amdgcn_workitem_id_x();
  const u32 lane = tid % 64;
  const u32 wave = __builtin_amdgcn_readfirstlane(tid / 64);
  const u32 wm = wave / WAVES_N, wn = wave % WAVES_N;
  const int ldx = K / 2;                       // bytes per row of X and W
  const int nk = K / BK;                       // even (unrolled by two)
  const u32 tn = __builtin_amdgcn_workgroup_id_x();
  const u32 tmi = __builtin_amdgcn_workgroup_id_y();
  const unsigned char *X = Xg + (unsigned long)tmi * BM * ldx;
  const unsigned char *W = Wg + (unsigned long)tn * BN * ldx;
  // Scales: one dword per lane per K tile (4 E8M0 bytes = the KS K-steps of
  // this lane's row); row = lane % 16 of each fragment, as the MFMA wants.
  const int *SX = SXg + ((unsigned long)tmi * BM + wm * WTM + lane % 16) * nk;
  const int *SW = SWg + ((unsigned long)tn * BN + wn * WTN + lane % 16) * nk;

  f4 acc[TM][TN];
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) acc[m][n] = (f4){0, 0, 0, 0};

  copy_tile(X, W, a0, b0, tid, wave, ldx, 0);
  int sa = SX[0], sb = SW[0];
  // Skew: waves 4..7 one phase behind. Their tile-0 copies must have landed
  // before this barrier: waves 0..3 read the stage right after the barrier
  // it pairs with (found by `pingpong-sim verify`; SKEW_WAIT=0 keeps the bug).
  if (PINGPONG && wave >= 4) {
    if (SKEW_WAIT)
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
