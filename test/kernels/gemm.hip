// Block-pingpong test kernel: Triton-shaped GEMM main loop (num_stages=2,
// one LDS buffer per operand), written as device-only HIP without headers.
//
//   C[M,N] (f32) = A[M,K] * B[N,K]^T      (A and B both K-contiguous, "TN")
//
// Build (see MANIFEST.md for the full matrix):
//   clang++ -x hip --offload-arch=gfx942 -nogpulib -nogpuinc \
//       --offload-device-only -O3 -S -emit-llvm gemm.hip -o k.ll [-D...]
//   llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O3 k.ll -o k.s
//
// Parameters (-D):
//   BM, BN, BK        block tile (default 128x128x64)
//   WAVES             4 | 8 (workgroup = 64*WAVES lanes)
//   WAVES_M, WAVES_N  wave grid (default 2x2 for 4 waves, 4x2 / 2x4 for 8);
//                     if WAVES_M*WAVES_N < WAVES the extra waves replicate the
//                     work (Triton-style broadcast for tiny tiles); only the
//                     first replica stores C.
//   MFMA              16 (16x16 instruction) | 32 (32x32 instruction)
//   DTYPE             f16 | bf16
//   KDOUBLE           0 | 1 (1: gfx950 16x16x32 / 32x32x16, ds_read_b128)
//   KPACK             1 | 2 (KDOUBLE=0 only; 2 = Triton kpack=2 / kWidth=8:
//                     one ds_read_b128 of 8 K-elements feeds two MFMAs)
//   LOADS             buffer | global
//   VARIANT           base | cast | if_load | variant_mask | epilogue |
//                     load_reorder | extra_load   (see the neg_*/pos_* wrappers)
//   CAST_KIND         neg (default, Triton's arith.negf) | scale (v_pk_mul by
//                     a kernel argument) -- only for VARIANT=cast
//   KNAME             kernel symbol name (default derived from the config)
//
// Loop body per iteration kt (source order, VARIANT=base):
//   (1) global/buffer loads of tile kt+1 into registers (A then B)
//   (2) ds_read of the current tile (A and B MFMA fragments)
//   (3) MFMA chain; accumulators are loop-carried registers
//   (4) __syncthreads; ds_write of the prefetched registers; __syncthreads
// LDS: A as [BM][BK], B as [BN][BK] elements, 16-byte chunks XOR-swizzled by
// (row % 8) so 256x256x64 f16 fits exactly in 64 KiB (no padding). Each lane
// reads one contiguous K-chunk (ds_read_b64 for 4 elements, ds_read_b128 for 8)
// that is bit-cast straight into the MFMA operand.

#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define DEV static inline __attribute__((device, always_inline))

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

// ---- defaults --------------------------------------------------------------
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
#ifndef MFMA
#define MFMA 16
#endif
#ifndef DTYPE
#define DTYPE f16
#endif
#ifndef KDOUBLE
#define KDOUBLE 0
#endif
#ifndef KPACK
#define KPACK 1
#endif
#ifndef LOADS
#define LOADS buffer
#endif
#ifndef VARIANT
#define VARIANT base
#endif
#ifndef CAST_KIND
#define CAST_KIND neg
#endif

#ifndef WAVES_M
#if WAVES == 4
#define WAVES_M 2
#define WAVES_N 2
#elif BM > BN || (BM == 256 && BN == 128)
#define WAVES_M 4
#define WAVES_N 2
#else
#define WAVES_M 2
#define WAVES_N 4
#endif
#endif

// Symbolic macro values -> integers for #if.
#define DT_f16 1
#define DT_bf16 2
#define DT CAT(DT_, DTYPE)
#define LD_buffer 1
#define LD_global 2
#define LD CAT(LD_, LOADS)
#define V_base 0
#define V_cast 1
#define V_if_load 2
#define V_variant_mask 3
#define V_epilogue 4
#define V_load_reorder 5
#define V_extra_load 6
#define VAR CAT(V_, VARIANT)
#define CK_neg 1
#define CK_scale 2
#define CK CAT(CK_, CAST_KIND)

#ifndef KNAME
#if KPACK == 1
#define KD_TAG KDOUBLE
#else
#define KD_TAG CAT(KDOUBLE, CAT(_kp, KPACK))
#endif
#define KNAME                                                                  \
  CAT(CAT(CAT(CAT(CAT(CAT(CAT(CAT(CAT(CAT(CAT(CAT(CAT(CAT(CAT(CAT(CAT(gemm_,   \
  VARIANT), _), BM), x), BN), x), BK), _w), WAVES), _m), MFMA), _), DTYPE),    \
  _kd), KD_TAG), _), LOADS)
#endif

// ---- types -----------------------------------------------------------------
typedef unsigned int u32;
typedef unsigned int u2 __attribute__((ext_vector_type(2)));
typedef unsigned int u4 __attribute__((ext_vector_type(4)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef float f16v __attribute__((ext_vector_type(16)));
typedef _Float16 h4 __attribute__((ext_vector_type(4)));
typedef _Float16 h8 __attribute__((ext_vector_type(8)));
typedef _Float16 h2 __attribute__((ext_vector_type(2)));
typedef short s4 __attribute__((ext_vector_type(4)));
typedef __bf16 b8 __attribute__((ext_vector_type(8)));

#define NT (64 * WAVES)           // lanes per workgroup
#define KW (KDOUBLE ? 8 : 4)      // K elements per lane per MFMA operand
#define KGROUPS (64 / MFMA)       // lane groups along K inside one MFMA
#define MK (KW * KGROUPS)         // K of one MFMA instruction
#define KWR (KW * KPACK)          // K elements per lane per ds_read
#define MKR (KWR * KGROUPS)       // K covered by one ds_read per lane group
#define WTM (BM / WAVES_M)        // wave tile
#define WTN (BN / WAVES_N)
#define TM (WTM / MFMA)           // MFMA tiles per wave
#define TN (WTN / MFMA)
#define KS (BK / MKR)             // ds_read k-steps per BK (KPACK MFMAs each)
#define CPR (BK / 8)              // 16-byte chunks per LDS row
#define SWZ_MASK (CPR < 8 ? CPR - 1 : 7)
#define REPL (WAVES / (WAVES_M * WAVES_N))

#if KW == 4
typedef u2 op_raw_t;              // one MFMA operand: 4 x 16 bit
#else
typedef u4 op_raw_t;              // one MFMA operand: 8 x 16 bit
#endif
#if KWR == 4
typedef u2 frag_raw_t;            // ds_read_b64
#else
typedef u4 frag_raw_t;            // ds_read_b128
#endif
#if MFMA == 16
typedef f4 acc_t;
#define ACC_N 4
#else
typedef f16v acc_t;
#define ACC_N 16
#endif

// Global -> register mapping: 16-byte vectors, CPR per row.
#define A_CHUNKS (BM * CPR)
#define B_CHUNKS (BN * CPR)
#define LA ((A_CHUNKS + NT - 1) / NT)
#define LB ((B_CHUNKS + NT - 1) / NT)

_Static_assert(WAVES == 4 || WAVES == 8, "WAVES must be 4 or 8");
_Static_assert(MFMA == 16 || MFMA == 32, "MFMA must be 16 or 32");
_Static_assert(BK % MKR == 0, "BK must be a multiple of the MFMA K (x KPACK)");
_Static_assert(KPACK == 1 || (KPACK == 2 && !KDOUBLE), "KPACK=2 needs KDOUBLE=0");
_Static_assert(BM % (WAVES_M * MFMA) == 0 && BN % (WAVES_N * MFMA) == 0,
               "tile not divisible by the wave grid");
_Static_assert(WAVES % (WAVES_M * WAVES_N) == 0, "bad wave grid");
_Static_assert(BK % 8 == 0 && CPR >= 2, "BK must be >= 16");

DEV void sync_threads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

DEV acc_t mfma(op_raw_t a, op_raw_t b, acc_t c) {
#if MFMA == 16 && !KDOUBLE && DT == 1
  return __builtin_amdgcn_mfma_f32_16x16x16f16(__builtin_bit_cast(h4, a),
                                               __builtin_bit_cast(h4, b), c, 0, 0, 0);
#elif MFMA == 16 && !KDOUBLE && DT == 2
  return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(__builtin_bit_cast(s4, a),
                                                   __builtin_bit_cast(s4, b), c, 0, 0, 0);
#elif MFMA == 32 && !KDOUBLE && DT == 1
  return __builtin_amdgcn_mfma_f32_32x32x8f16(__builtin_bit_cast(h4, a),
                                              __builtin_bit_cast(h4, b), c, 0, 0, 0);
#elif MFMA == 32 && !KDOUBLE && DT == 2
  return __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(__builtin_bit_cast(s4, a),
                                                  __builtin_bit_cast(s4, b), c, 0, 0, 0);
#elif MFMA == 16 && KDOUBLE && DT == 1
  return __builtin_amdgcn_mfma_f32_16x16x32_f16(__builtin_bit_cast(h8, a),
                                                __builtin_bit_cast(h8, b), c, 0, 0, 0);
#elif MFMA == 16 && KDOUBLE && DT == 2
  return __builtin_amdgcn_mfma_f32_16x16x32_bf16(__builtin_bit_cast(b8, a),
                                                 __builtin_bit_cast(b8, b), c, 0, 0, 0);
#elif MFMA == 32 && KDOUBLE && DT == 1
  return __builtin_amdgcn_mfma_f32_32x32x16_f16(__builtin_bit_cast(h8, a),
                                                __builtin_bit_cast(h8, b), c, 0, 0, 0);
#else
  return __builtin_amdgcn_mfma_f32_32x32x16_bf16(__builtin_bit_cast(b8, a),
                                                 __builtin_bit_cast(b8, b), c, 0, 0, 0);
#endif
}

#if VAR == V_cast
// A real VALU op between the LDS read and the MFMA operand (Triton tests
// pingpong_small: arith.negf on B; pingpong_medium_cast: a cast on B).
DEV frag_raw_t cast_b(frag_raw_t b, u32 scale_bits) {
#if CK == CK_neg
  return b ^ (frag_raw_t)0x80008000u;          // fneg of packed 16-bit values
#else
#if DT == 1
  frag_raw_t r;
  h2 s = __builtin_bit_cast(h2, scale_bits);
  for (int i = 0; i < KWR / 2; ++i)
    r[i] = __builtin_bit_cast(u32, __builtin_bit_cast(h2, b[i]) * s);
  return r;                                      // v_pk_mul_f16
#else
  // bf16: scale in f32 then truncate (Triton's upcast/downcast pattern).
  frag_raw_t r;
  float s = __builtin_bit_cast(float, scale_bits);
  for (int i = 0; i < KWR / 2; ++i) {
    float lo = __builtin_bit_cast(float, b[i] << 16) * s;
    float hi = __builtin_bit_cast(float, b[i] & 0xffff0000u) * s;
    r[i] = (__builtin_bit_cast(u32, lo) >> 16) | (__builtin_bit_cast(u32, hi) & 0xffff0000u);
  }
  return r;
#endif
#endif
}
#endif

// LDS buffers (one stage each).
// SMEM=1: one LDS array for both operands, B after A, as Triton's lowering
// does with its single global_smem buffer (no per-operand object or scope).
#ifndef SMEM
#define SMEM 0
#endif
#if SMEM
__shared__ __attribute__((aligned(16))) unsigned short smem[(BM + BN) * BK];
#define lds_a (smem)
#define lds_b (smem + BM * BK)
#else
__shared__ __attribute__((aligned(16))) unsigned short lds_a[BM * BK];
__shared__ __attribute__((aligned(16))) unsigned short lds_b[BN * BK];
#endif

// Byte offset of element (row, k) in a swizzled [rows][BK] LDS array; k must
// be a multiple of 4.
DEV u32 lds_off(u32 row, u32 k) {
  u32 chunk = (k / 8) ^ (row & SWZ_MASK);
  return (row * BK + chunk * 8 + (k % 8)) * 2;
}

#if LD == LD_buffer
typedef __amdgpu_buffer_rsrc_t src_t;
#define RSRC_FLAGS 0x00020000
DEV src_t make_src(const unsigned short *base, u32 bytes) {
  return __builtin_amdgcn_make_buffer_rsrc((void *)base, (short)0, bytes, RSRC_FLAGS);
}
// voff: per-lane byte offset (loop invariant); soff: uniform byte offset.
DEV u4 load16(src_t s, u32 voff, u32 soff) {
  return __builtin_amdgcn_raw_buffer_load_b128(s, voff, soff, 0);
}
#else
typedef const unsigned short *__restrict__ src_t;
DEV src_t make_src(const unsigned short *base, u32 bytes) { return base; }
DEV u4 load16(src_t s, u32 voff, u32 soff) {
  return *(const u4 *)((const char *)s + soff + voff);
}
#endif

extern "C" __global__
__attribute__((amdgpu_flat_work_group_size(NT, NT)))
void KNAME(const unsigned short *__restrict__ A,
           const unsigned short *__restrict__ B,
           float *__restrict__ C, int M, int N, int K
#if VAR == V_if_load || VAR == V_extra_load
           , const unsigned short *__restrict__ X, float *__restrict__ XOut
#endif
#if VAR == V_if_load
           , int kpro
#endif
#if VAR == V_cast
           , u32 scale_bits
#endif
#if VAR == V_epilogue
           , int tiles
#endif
           ) {
  const u32 tid = __builtin_amdgcn_workitem_id_x();
  const u32 lane = tid % 64;
  const u32 wave = __builtin_amdgcn_readfirstlane(tid / 64);
  const u32 wgrid = wave % (WAVES_M * WAVES_N);
  const u32 wm = wgrid / WAVES_N, wn = wgrid % WAVES_N;
  const int nk = K / BK;
  const int tiles_n = N / BN;

#if VAR == V_epilogue
  // Persistent GEMM: each workgroup walks tiles pid, pid+G, ... and the K loop
  // is flattened with them; the C store happens inside the loop.
  const int G = __builtin_amdgcn_readfirstlane(tiles);
  int tile = __builtin_amdgcn_workgroup_id_x();
  const int my_tiles = (M / BM) * tiles_n > tile ? ((M / BM) * tiles_n - tile + G - 1) / G : 0;
  const int total = my_tiles * nk;
#else
  const int tile = __builtin_amdgcn_workgroup_id_x();
#endif

  // ---- global load mapping (loop invariant) ----
  u32 a_voff[LA], a_lds[LA], b_voff[LB], b_lds[LB];
#if VAR == V_variant_mask
  u32 a_kc[LA], b_kc[LB];
#endif
  for (int i = 0; i < LA; ++i) {
    u32 c = (tid + i * NT) % A_CHUNKS;
    u32 row = c / CPR, ch = c % CPR;
    a_voff[i] = (row * (u32)K + ch * 8) * 2;
    a_lds[i] = lds_off(row, ch * 8);
#if VAR == V_variant_mask
    a_kc[i] = ch * 8;
#endif
  }
  for (int i = 0; i < LB; ++i) {
    u32 c = (tid + i * NT) % B_CHUNKS;
    u32 row = c / CPR, ch = c % CPR;
    b_voff[i] = (row * (u32)K + ch * 8) * 2;
    b_lds[i] = lds_off(row, ch * 8);
#if VAR == V_variant_mask
    b_kc[i] = ch * 8;
#endif
  }

  // ---- LDS read mapping (loop invariant) ----
  const u32 frow = lane % MFMA, kgrp = lane / MFMA;
  u32 a_rd[KS], b_rd[KS];
  for (int ks = 0; ks < KS; ++ks) {
    a_rd[ks] = lds_off(wm * WTM + frow, ks * MKR + kgrp * KWR);
    b_rd[ks] = lds_off(wn * WTN + frow, ks * MKR + kgrp * KWR);
  }

  acc_t acc[TM][TN];
  for (int m = 0; m < TM; ++m)
    for (int n = 0; n < TN; ++n)
      acc[m][n] = (acc_t)0.0f;

  u4 ra[LA], rb[LB];
#if VAR == V_if_load || VAR == V_extra_load
  u4 xacc = (u4)0;
  const u32 x_voff = tid * 16;
#if LD == LD_buffer
  src_t xs = make_src(X, (u32)nk * NT * 16);
#else
  src_t xs = X;
#endif
#endif

#define TILE_M0(t) (((t) / tiles_n) * BM)
#define TILE_N0(t) (((t) % tiles_n) * BN)

  // Sources for the current tile (uniform: SGPR base, per-lane voffset).
  src_t sa = make_src(A + (long)TILE_M0(tile) * K, (u32)BM * K * 2);
  src_t sb = make_src(B + (long)TILE_N0(tile) * K, (u32)BN * K * 2);

#if VAR == V_variant_mask
  // K-tail masking like Triton's `offs_k < K - k*BK` (loop variant, per lane).
#if LD == LD_buffer
#define MASKED_LOAD(s, voff, kc, kt)                                          \
  load16(s, ((kt) * BK + (kc) + 8 <= (u32)K) ? (voff) + (kt) * BK * 2 : 0x80000000u, 0)
#else
#define MASKED_LOAD(s, voff, kc, kt)                                          \
  ({ bool ok_ = (kt) * BK + (kc) + 8 <= (u32)K;                               \
     u4 v_ = load16(s, ok_ ? (voff) : 0u, ok_ ? (kt) * BK * 2 : 0u);          \
     ok_ ? v_ : (u4)0; })
#endif
#define LOAD_A(i, kt) ra[i] = MASKED_LOAD(sa, a_voff[i], a_kc[i], (u32)(kt))
#define LOAD_B(i, kt) rb[i] = MASKED_LOAD(sb, b_voff[i], b_kc[i], (u32)(kt))
#else
#define LOAD_A(i, kt) ra[i] = load16(sa, a_voff[i], (u32)(kt) * BK * 2)
#define LOAD_B(i, kt) rb[i] = load16(sb, b_voff[i], (u32)(kt) * BK * 2)
#endif

#define GLOAD(kt)                                                             \
  do {                                                                        \
    for (int i = 0; i < LA; ++i) LOAD_A(i, kt);                               \
    for (int i = 0; i < LB; ++i) LOAD_B(i, kt);                               \
  } while (0)

#define LDS_STORE()                                                           \
  do {                                                                        \
    for (int i = 0; i < LA; ++i)                                              \
      *(u4 *)((char *)lds_a + a_lds[i]) = ra[i]; \
    for (int i = 0; i < LB; ++i)                                              \
      *(u4 *)((char *)lds_b + b_lds[i]) = rb[i]; \
  } while (0)

#define LDS_READ(fa, fb)                                                      \
  do {                                                                        \
    for (int ks = 0; ks < KS; ++ks) {                                         \
      for (int m = 0; m < TM; ++m)                                            \
        fa[m][ks] = *(frag_raw_t *)(                                     \
            (char *)lds_a + a_rd[ks] + m * MFMA * BK * 2); \
      for (int n = 0; n < TN; ++n)                                            \
        fb[n][ks] = *(frag_raw_t *)(                                     \
            (char *)lds_b + b_rd[ks] + n * MFMA * BK * 2); \
    }                                                                         \
  } while (0)

#if VAR == V_cast
#define CAST_B(fb)                                                            \
  for (int n = 0; n < TN; ++n)                                                \
    for (int ks = 0; ks < KS; ++ks) fb[n][ks] = cast_b(fb[n][ks], scale_bits)
#else
#define CAST_B(fb) (void)0
#endif

  // Triton's MFMA emission order: m, n outer, k inner.
#if KPACK == 1
#define OPND(f, p) (f)
#else
#define OPND(f, p) ((p) ? (f).zw : (f).xy)
#endif
#define DOT(fa, fb)                                                           \
  do {                                                                        \
    for (int m = 0; m < TM; ++m)                                              \
      for (int n = 0; n < TN; ++n)                                            \
        for (int ks = 0; ks < KS; ++ks)                                       \
          for (int p = 0; p < KPACK; ++p)                                     \
            acc[m][n] = mfma(OPND(fa[m][ks], p), OPND(fb[n][ks], p), acc[m][n]); \
  } while (0)

#define STORE_C(t)                                                            \
  do {                                                                        \
    if (wave < WAVES_M * WAVES_N) {                                           \
      const u32 m0 = TILE_M0(t) + wm * WTM, n0 = TILE_N0(t) + wn * WTN;       \
      for (int m = 0; m < TM; ++m)                                            \
        for (int n = 0; n < TN; ++n)                                          \
          for (int j = 0; j < ACC_N; ++j) {                                   \
            u32 r = (MFMA == 16) ? (lane / 16) * 4 + j                        \
                                 : (j / 4) * 8 + (lane / 32) * 4 + (j % 4);   \
            C[(long)(m0 + m * MFMA + r) * N + n0 + n * MFMA + lane % MFMA] =  \
                acc[m][n][j];                                                 \
          }                                                                   \
    }                                                                         \
  } while (0)

  frag_raw_t fa[TM][KS], fb[TN][KS];

  // ---- prologue: tile 0 -> registers -> LDS ----
  GLOAD(0);
  LDS_STORE();
  sync_threads();

#if VAR == V_epilogue
  // ---- persistent main loop: flattened (tile, k) iterations ----
  int kt = 0;
  int ntile = tile, nkt = 0;
#pragma clang loop unroll(disable)
  for (int it = 0; it < total - 1; ++it) {
    // advance the prefetch cursor (uniform, selects only)
    nkt = nkt + 1;
    bool wrap = nkt == nk;
    nkt = wrap ? 0 : nkt;
    ntile = wrap ? ntile + G : ntile;
    src_t na = make_src(A + (long)TILE_M0(ntile) * K, (u32)BM * K * 2);
    src_t nb = make_src(B + (long)TILE_N0(ntile) * K, (u32)BN * K * 2);
    for (int i = 0; i < LA; ++i) ra[i] = load16(na, a_voff[i], (u32)nkt * BK * 2);
    for (int i = 0; i < LB; ++i) rb[i] = load16(nb, b_voff[i], (u32)nkt * BK * 2);
    LDS_READ(fa, fb);
    DOT(fa, fb);
    if (kt == nk - 1) {           // epilogue of the finished tile
      STORE_C(tile);
      for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n) acc[m][n] = (acc_t)0.0f;
    }
    kt = wrap ? 0 : kt + 1;
    tile = ntile;
    sync_threads();
    LDS_STORE();
    sync_threads();
  }
  if (total > 0) {
    LDS_READ(fa, fb);
    DOT(fa, fb);
    STORE_C(tile);
  }
#else
  // ---- main loop (Triton num_stages=2 after stream pipelining) ----
#pragma clang loop unroll(disable)
  for (int kt = 0; kt < nk - 1; ++kt) {
#if VAR == V_load_reorder
    // Triton pingpong_small_load_reorder: local loads first in source order.
    LDS_READ(fa, fb);
    GLOAD(kt + 1);
#else
#if VAR == V_if_load
    // Triton pingpong_small_prologue_load: an extra (non-dot) load under a
    // loop-variant uniform condition -> s_cbranch inside the loop.
    if (kt < kpro)
      xacc += load16(xs, x_voff, (u32)kt * NT * 16);
#endif
    GLOAD(kt + 1);
#if VAR == V_extra_load
    // Triton pingpong_reject_small_three_load: a third global load that does
    // not feed the dot (consumed by VALU), body stays one block.
    xacc += load16(xs, x_voff, (u32)kt * NT * 16);
#endif
    LDS_READ(fa, fb);
#endif
    CAST_B(fb);
    DOT(fa, fb);
    sync_threads();
    LDS_STORE();
    sync_threads();
  }

  // ---- epilogue: last tile ----
  LDS_READ(fa, fb);
  CAST_B(fb);
  DOT(fa, fb);
  STORE_C(tile);
#endif

#if VAR == V_if_load || VAR == V_extra_load
  *(u4 *)((char *)XOut + tile * NT * 16 + tid * 16) = xacc;
#endif
}
