// Multi-stage LDS-DMA GEMM written the way HIP users write one (issue 24,
// item 2; held out from dma_gemm_kt2.hip: other arrays, other slot forms),
// gfx950, f16 TN (Y = X W^T, both K-contiguous):
//   __shared__ _Float16 sA[NSTAGE][BM * BK], sB[NSTAGE][BN * BK];
//   before the loop: DMA of tiles 0 .. NSTAGE - 2 into their stages;
//   iteration kt: the user's s_waitcnt vmcnt (the DMA of tile kt done,
//                 the younger ones may stay in flight), fence(release,
//                 workgroup) + __syncthreads(), DMA of tile kt + NSTAGE - 1
//                 into the stage read NSTAGE - 1 iterations ago, reads of
//                 tile kt's stage, MFMAs.
// -D knobs: NSTAGE (2; 3), WAVES (4; 8), BM BN (128) BK (64), KNAME,
//   SLOT=mod  (kt % NSTAGE and (kt + NSTAGE - 1) % NSTAGE)
//        ring (stage counters rd, wr: x + 1 == NSTAGE ? 0 : x + 1)
//        swap (NSTAGE 2: stage pointers swapped every iteration)
//        sel  (NSTAGE 2: (kt & 1) ? s[1] : s[0])
//   SAME_SLOT (mutation: the DMA refills the stage being read: a race),
//   NO_WAIT (no s_waitcnt in the source; LLVM 22.1 adds the one the reads
//   need), NO_BARRIER (mutation: the loop's barrier removed: a race).
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define DEV static inline __attribute__((device, always_inline))

#ifndef NSTAGE
#define NSTAGE 2
#endif
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
#define KNAME dma_gemm_ring
#endif
#define SLOT_mod 0
#define SLOT_ring 1
#define SLOT_swap 2
#define SLOT_sel 3
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
typedef _Float16 half;
typedef _Float16 h8 __attribute__((ext_vector_type(8)));
typedef float f4 __attribute__((ext_vector_type(4)));
#define LDS __attribute__((address_space(3)))

#define NT (64 * WAVES)
#define WTM (BM / WAVES_M)
#define WTN (BN / WAVES_N)
#define TM (WTM / 16)
#define TN (WTN / 16)
#define KS (BK / 32)
// 16-byte chunks (8 halves) per tile, per thread
#define CP_A (BM * BK / (8 * NT))
#define CP_B (BN * BK / (8 * NT))
// DMA instructions per tile: what the wait at the top may leave in flight
// per younger tile
#define CP (CP_A + CP_B)

__shared__ __attribute__((aligned(16))) half sA[NSTAGE][BM * BK];
__shared__ __attribute__((aligned(16))) half sB[NSTAGE][BN * BK];

DEV void __syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// s_waitcnt vmcnt(N) (gfx9 encoding: expcnt and lgkmcnt left at their max).
#define WAIT_VMCNT(N) __builtin_amdgcn_s_waitcnt(0x0f70 | (N))

DEV void copy_tile(const half *X, const half *W, half *a, half *b, u32 tid, u32 wave, int K,
                   int k0) {
#pragma unroll
  for (int i = 0; i < CP_A; ++i) {
    u32 c = (i * NT + tid) * 8; // element of the BM x BK tile
    __builtin_amdgcn_global_load_lds((void *)(X + (c / BK) * K + k0 + c % BK),
                                     (LDS void *)(a + (i * NT + wave * 64) * 8), 16, 0, 0);
  }
#pragma unroll
  for (int i = 0; i < CP_B; ++i) {
    u32 c = (i * NT + tid) * 8;
    __builtin_amdgcn_global_load_lds((void *)(W + (c / BK) * K + k0 + c % BK),
                                     (LDS void *)(b + (i * NT + wave * 64) * 8), 16, 0, 0);
  }
}

#define STAGE_A(s) ((half *)(LDS half *)sA[s])
#define STAGE_B(s) ((half *)(LDS half *)sB[s])

extern "C" __global__ __attribute__((amdgpu_flat_work_group_size(NT, NT)))
void KNAME(const half *__restrict__ Xg, const half *__restrict__ Wg, float *__restrict__ Y, int M,
           int N, int K) {
  const u32 tid = __builtin_amdgcn_workitem_id_x();
  const u32 lane = tid % 64;
  const u32 wave = __builtin_amdgcn_readfirstlane(tid / 64);
  const u32 wm = wave / WAVES_N, wn = wave % WAVES_N;
  const int nk = K / BK;
  const half *X = Xg + (unsigned long)__builtin_amdgcn_workgroup_id_y() * BM * K;
  const half *W = Wg + (unsigned long)__builtin_amdgcn_workgroup_id_x() * BN * K;

  f4 acc[TM][TN];
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) acc[m][n] = (f4){0, 0, 0, 0};

#pragma unroll
  for (int s = 0; s < NSTAGE - 1; ++s)
    copy_tile(X, W, STAGE_A(s), STAGE_B(s), tid, wave, K, s * BK);

#if SLOT_KIND == SLOT_ring
  int rd = 0, wr = NSTAGE - 1;
#elif SLOT_KIND == SLOT_swap
  static_assert(NSTAGE == 2, "swap: two stages");
  half *ca = STAGE_A(0), *cb = STAGE_B(0), *na = STAGE_A(1), *nb = STAGE_B(1);
#endif
  for (int kt = 0; kt < nk; ++kt) {
#ifndef NO_WAIT
    // Tile kt's DMA (issued NSTAGE - 1 tiles ago) complete; the younger
    // NSTAGE - 2 tiles' may still be in flight.
    WAIT_VMCNT((NSTAGE - 2) * CP);
#endif
#ifndef NO_BARRIER
    __syncthreads();
#endif
#if SLOT_KIND == SLOT_mod
    const int rs = kt % NSTAGE, ws = (kt + NSTAGE - 1) % NSTAGE;
    half *ra = STAGE_A(rs), *rb = STAGE_B(rs), *wa = STAGE_A(ws), *wb = STAGE_B(ws);
#elif SLOT_KIND == SLOT_ring
    half *ra = STAGE_A(rd), *rb = STAGE_B(rd), *wa = STAGE_A(wr), *wb = STAGE_B(wr);
#elif SLOT_KIND == SLOT_swap
    half *ra = ca, *rb = cb, *wa = na, *wb = nb;
#else
    static_assert(NSTAGE == 2, "sel: two stages");
    half *ra = (kt & 1) ? STAGE_A(1) : STAGE_A(0), *rb = (kt & 1) ? STAGE_B(1) : STAGE_B(0);
    half *wa = (kt & 1) ? STAGE_A(0) : STAGE_A(1), *wb = (kt & 1) ? STAGE_B(0) : STAGE_B(1);
#endif
#ifdef SAME_SLOT
    wa = ra;
    wb = rb;
#endif
    // Past the last tile the copy reloads tile 0 (branch-free; unused).
    const int kn = kt + NSTAGE - 1;
    copy_tile(X, W, wa, wb, tid, wave, K, (kn < nk ? kn : 0) * BK);
    h8 a[KS][TM], b[KS][TN];
#pragma unroll
    for (int k = 0; k < KS; ++k) {
#pragma unroll
      for (int m = 0; m < TM; ++m)
        a[k][m] = *(const LDS h8 *)(LDS half *)(ra + (wm * WTM + m * 16 + lane % 16) * BK + k * 32 + (lane / 16) * 8);
#pragma unroll
      for (int n = 0; n < TN; ++n)
        b[k][n] = *(const LDS h8 *)(LDS half *)(rb + (wn * WTN + n * 16 + lane % 16) * BK + k * 32 + (lane / 16) * 8);
    }
#pragma unroll
    for (int k = 0; k < KS; ++k)
#pragma unroll
      for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n)
          acc[m][n] = __builtin_amdgcn_mfma_f32_16x16x32_f16(a[k][m], b[k][n], acc[m][n], 0, 0, 0);
#if SLOT_KIND == SLOT_ring
    rd = rd + 1 == NSTAGE ? 0 : rd + 1;
    wr = wr + 1 == NSTAGE ? 0 : wr + 1;
#elif SLOT_KIND == SLOT_swap
    half *t = ca; ca = na; na = t;
    t = cb; cb = nb; nb = t;
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
