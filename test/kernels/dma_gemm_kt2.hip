// Double-buffered LDS-DMA GEMM written the way a HIP user writes it (issue 24,
// item 2), gfx950, f16 TN (Y = X W^T, both K-contiguous):
//   __shared__ char lds[2][STAGE_BYTES];            one array, two stages
//   iteration kt: fence(release, workgroup) + __syncthreads() at the top,
//                 DMA tile kt+1 into lds[(kt + 1) % 2], read tile kt from
//                 lds[kt % 2], MFMAs.
// The DMA and the reads of one iteration touch different stages; the
// barrier at the top of the next iteration orders them across waves, and
// the compiler owes a vmcnt before the reads of the stage the previous
// iteration's DMA wrote.
// -D knobs: BM, BN (128), BK (64), WAVES (4; 8), KNAME (dma_gemm_kt2),
//   SLOT=mod (kt % 2, default) | and (kt & 1) | xor (cur ^= 1 carried),
//   SAME_SLOT (mutation: the DMA writes the stage being read: a race),
//   USER_WAIT (an explicit s_waitcnt vmcnt(0) after the barrier, as many
//   users write it), READS_FIRST (the reads of tile kt issued before the DMA
//   of tile kt+1, the order pinned with sched_barrier as hand-interleaved
//   kernels do, so the DMAs are issued while the reads are in flight).
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
#define BK 64
#endif
#ifndef WAVES
#define WAVES 4
#endif
#ifndef KNAME
#define KNAME dma_gemm_kt2
#endif
#define SLOT_mod 0
#define SLOT_and 1
#define SLOT_xor 2
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#ifdef SLOT
#define SLOT_KIND CAT(SLOT_, SLOT)
#else
#define SLOT_KIND SLOT_mod
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
#define ROWB (BK * 2)
#define STAGE_BYTES ((BM + BN) * ROWB)
#define WTM (BM / WAVES_M)
#define WTN (BN / WAVES_N)
#define TM (WTM / 16)
#define TN (WTN / 16)
#define KS (BK / 32)
#define CP_X (BM * ROWB / (16 * NT))
#define CP_W (BN * ROWB / (16 * NT))

__shared__ __attribute__((aligned(16))) unsigned char lds[2][STAGE_BYTES];

// HIP's __syncthreads() (no HIP headers here: -nogpuinc).
DEV void __syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

DEV void copy_tile(const unsigned char *X, const unsigned char *W, int stage, u32 tid, u32 wave,
                   int ldb, int kb) {
  lds_t *base = (lds_t *)lds[stage];
#pragma unroll
  for (int i = 0; i < CP_X; ++i) {
    u32 c = (i * NT + tid) * 16;
    __builtin_amdgcn_global_load_lds((void *)(X + (c / ROWB) * ldb + kb + c % ROWB),
                                     (void __attribute__((address_space(3))) *)(base + (i * NT + wave * 64) * 16),
                                     16, 0, 0);
  }
#pragma unroll
  for (int i = 0; i < CP_W; ++i) {
    u32 c = (i * NT + tid) * 16;
    __builtin_amdgcn_global_load_lds((void *)(W + (c / ROWB) * ldb + kb + c % ROWB),
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
  const int ldb = K * 2;
  const int nk = K / BK;
  const unsigned char *X = Xg + (unsigned long)__builtin_amdgcn_workgroup_id_y() * BM * ldb;
  const unsigned char *W = Wg + (unsigned long)__builtin_amdgcn_workgroup_id_x() * BN * ldb;

  f4 acc[TM][TN];
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) acc[m][n] = (f4){0, 0, 0, 0};

  copy_tile(X, W, 0, tid, wave, ldb, 0);
#if SLOT_KIND == SLOT_xor
  int cur = 0;
#endif
  for (int kt = 0; kt < nk; ++kt) {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __syncthreads();
#ifdef USER_WAIT
    __builtin_amdgcn_s_waitcnt(0x0f70); // vmcnt(0)
#endif
#if SLOT_KIND == SLOT_mod
    const int rd = kt % 2, wr = (kt + 1) % 2;
#elif SLOT_KIND == SLOT_and
    const int rd = kt & 1, wr = (kt + 1) & 1;
#else
    const int rd = cur, wr = cur ^ 1;
#endif
#ifdef SAME_SLOT
    const int dst = rd;
#else
    const int dst = wr;
#endif
    // The last iteration copies tile 0 again (branch-free; unused).
#ifndef READS_FIRST
    copy_tile(X, W, dst, tid, wave, ldb, (kt + 1 < nk ? kt + 1 : 0) * ROWB);
#endif
    const lds_t *la = (const lds_t *)lds[rd], *lb = la + BM * ROWB;
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
#ifdef READS_FIRST
    __builtin_amdgcn_sched_barrier(0);
    copy_tile(X, W, dst, tid, wave, ldb, (kt + 1 < nk ? kt + 1 : 0) * ROWB);
    __builtin_amdgcn_sched_barrier(0);
#endif
#pragma unroll
    for (int k = 0; k < KS; ++k)
#pragma unroll
      for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n)
          acc[m][n] = __builtin_amdgcn_mfma_f32_16x16x32_f16(a[k][m], b[k][n], acc[m][n], 0, 0, 0);
#if SLOT_KIND == SLOT_xor
    cur ^= 1;
#endif
  }
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n)
#pragma unroll
      for (int i = 0; i < 4; ++i)
        Y[((unsigned long)__builtin_amdgcn_workgroup_id_y() * BM + wm * WTM + m * 16 + (lane / 16) * 4 + i) * N +
          __builtin_amdgcn_workgroup_id_x() * BN + wn * WTN + n * 16 + lane % 16] = acc[m][n][i];
}
