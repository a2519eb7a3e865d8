// LDS-DMA GEMM (issue 10): Y = X * W^T, f16, both K-contiguous (TN), gfx950.
// Each K tile reaches LDS by global_load_lds (64 lanes x 16 B = 1 KiB to a
// wave-uniform LDS base per instruction) into one of STAGES rotating buffers
// of one arena, the way Triton's async pipeline rotates them: the buffer
// pointer of each stage is carried through the loop, the next one is the
// last one's successor (wrapping), and the tile copied in iteration kt is
// read in iteration kt + STAGES - 1. The loop's sync is Triton's: wait for
// the tile about to be read (vmcnt: all but the newer stages' copies), drain
// LDS, s_barrier; then this iteration's copies, the LDS reads, the MFMAs.
//   BM, BN (256), BK (64), WAVES (8; 4), STAGES (2; 3), KNAME (dma_gemm), COPY_LOOPS
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define DEV static inline __attribute__((device, always_inline))

#ifndef BM
#define BM 256
#endif
#ifndef BN
#define BN 256
#endif
#ifndef BK
#define BK 64
#endif
#ifndef WAVES
#define WAVES 8
#endif
#ifndef STAGES
#define STAGES 2
#endif
#ifndef KNAME
#define KNAME dma_gemm
#endif
#if WAVES == 8
#define WAVES_M 2
#define WAVES_N 4
#else
#define WAVES_M 2
#define WAVES_N 2
#endif

typedef unsigned int u32;
typedef _Float16 h8 __attribute__((ext_vector_type(8)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef __attribute__((address_space(3))) unsigned char lds_t;

#define NT (64 * WAVES)
#define ROWB (BK * 2)                      // bytes per row of a K tile
#define TILEB ((BM + BN) * ROWB)           // bytes of one stage (X then W)
#define WTM (BM / WAVES_M)
#define WTN (BN / WAVES_N)
#define TM (WTM / 16)
#define TN (WTN / 16)
#define KS (BK / 32)                       // MFMA K steps per tile (16x16x32)
#define CP_X (BM * ROWB / (16 * NT))       // copies per lane per tile
#define CP_W (BN * ROWB / (16 * NT))
#define CP (CP_X + CP_W)
// gfx9 s_waitcnt: vmcnt(N) alone; lgkmcnt(0) alone.
#define VMCNT(N) (((N) & 0xf) | (((N) >> 4) << 14) | 0x0f70)
#define LGKM0 0xc07f

_Static_assert(CP_X >= 1 && CP_W >= 1 && BM * ROWB % (16 * NT) == 0 && BN * ROWB % (16 * NT) == 0,
               "copies");
_Static_assert(STAGES >= 2 && (STAGES - 2) * CP < 64, "stages");

__shared__ __attribute__((aligned(16))) unsigned char smem[STAGES * TILEB];

// -DCOPY_LOOPS keeps the copies as loops (the K loop is then not innermost).
#ifdef COPY_LOOPS
#define COPY_UNROLL _Pragma("nounroll")
#else
#define COPY_UNROLL _Pragma("unroll")
#endif
DEV void copy_tile(const unsigned char *X, const unsigned char *W, lds_t *base, u32 tid, u32 wave,
                   int ldb, int kb) {
COPY_UNROLL
  for (int i = 0; i < CP_X; ++i) {
    u32 c = (i * NT + tid) * 16;
    u32 row = c / ROWB, col = c % ROWB;
    __builtin_amdgcn_global_load_lds((void *)(X + row * ldb + kb + col),
                                     (void __attribute__((address_space(3))) *)(base + (i * NT + wave * 64) * 16),
                                     16, 0, 0);
  }
COPY_UNROLL
  for (int i = 0; i < CP_W; ++i) {
    u32 c = (i * NT + tid) * 16;
    u32 row = c / ROWB, col = c % ROWB;
    __builtin_amdgcn_global_load_lds((void *)(W + row * ldb + kb + col),
                                     (void __attribute__((address_space(3))) *)(base + BM * ROWB + (i * NT + wave * 64) * 16),
                                     16, 0, 0);
  }
}

extern "C" __global__ __attribute__((amdgpu_flat_work_group_size(NT, NT)))
void KNAME(const unsigned char *__restrict__ Xg, const unsigned char *__restrict__ Wg,
           float *__restrict__ Y, int M, int N, int K) {
  const u32 tid = __builtin_amdgcn_workitem_id_x();
  const u32 lane = tid % 64;
  const u32 wave = __builtin_amdgcn_readfirstlane(tid / 64);
  const u32 wm = wave / WAVES_N, wn = wave % WAVES_N;
  const int ldb = K * 2;                    // bytes per row of X and W
  const int nk = K / BK;
  const u32 tn = __builtin_amdgcn_workgroup_id_x();
  const u32 tmi = __builtin_amdgcn_workgroup_id_y();
  const unsigned char *X = Xg + (unsigned long)tmi * BM * ldb;
  const unsigned char *W = Wg + (unsigned long)tn * BN * ldb;
  lds_t *const arena = (lds_t *)smem;

  f4 acc[TM][TN];
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) acc[m][n] = (f4){0, 0, 0, 0};

  // ago[k]: the buffer written k + 1 iterations ago (the prologue's stages).
  lds_t *ago[STAGES - 1];
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    copy_tile(X, W, arena + s * TILEB, tid, wave, ldb, s * ROWB);
    ago[STAGES - 2 - s] = arena + s * TILEB;
  }
  for (int kt = 0; kt < nk; ++kt) {
    __builtin_amdgcn_s_waitcnt(VMCNT((STAGES - 2) * CP)); // tile kt landed (this wave)
    __builtin_amdgcn_s_waitcnt(LGKM0);
    __builtin_amdgcn_s_barrier();                          // ... for every wave; the next buffer is free
    lds_t *wr = ago[0] + TILEB < arena + STAGES * TILEB ? ago[0] + TILEB : arena;
    lds_t *la = ago[STAGES - 2], *lb = la + BM * ROWB;
    // the last tiles copy tile 0 again (branch-free; the copy is unused)
    int kn = kt + STAGES - 1 < nk ? kt + STAGES - 1 : 0;
    copy_tile(X, W, wr, tid, wave, ldb, kn * ROWB);
    h8 a[KS][TM], b[KS][TN];
#pragma unroll
    for (int k = 0; k < KS; ++k) {
#pragma unroll
      for (int m = 0; m < TM; ++m)
        a[k][m] = *(const __attribute__((address_space(3))) h8 *)(la + (wm * WTM + m * 16 + lane % 16) * ROWB + k * 64 + (lane / 16) * 16);
#pragma unroll
      for (int n = 0; n < TN; ++n)
        b[k][n] = *(const __attribute__((address_space(3))) h8 *)(lb + (wn * WTN + n * 16 + lane % 16) * ROWB + k * 64 + (lane / 16) * 16);
    }
#pragma unroll
    for (int k = 0; k < KS; ++k)
#pragma unroll
      for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n)
          acc[m][n] = __builtin_amdgcn_mfma_f32_16x16x32_f16(a[k][m], b[k][n], acc[m][n], 0, 0, 0);
#pragma unroll
    for (int s = STAGES - 2; s > 0; --s) ago[s] = ago[s - 1];
    ago[0] = wr;
  }

#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n)
#pragma unroll
      for (int i = 0; i < 4; ++i)
        Y[((unsigned long)tmi * BM + wm * WTM + m * 16 + (lane / 16) * 4 + i) * N + tn * BN + wn * WTN +
          n * 16 + lane % 16] = acc[m][n][i];
}
