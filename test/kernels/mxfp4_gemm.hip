// Scaled MXFP4 GEMM (issue 10), gfx950: C = (A * SA) (B * SB)^T, A [M][K] and
// B [N][K] e2m1 (fp4) packed 2 per byte (element 2j in the low nibble of byte
// j), both K-contiguous; SA [M][K/32] and SB [N][K/32] e8m0 scales, one byte
// per 32 K elements of a row. One v_mfma_scale_f32_16x16x128_f8f6f4 per
// (k step, m, n) with cbsz = blgp = 4 (fp4).
//
// MFMA operand layout (16x16x128, fp4): lane l holds row l%16 of the A tile
// (column l%16 of B), K elements (l/16)*32 .. +31 = 16 bytes; its scale
// operand is the e8m0 of that row and that 32-element block, taken from byte
// op_sel of the 32-bit register (op_sel = K step: see lane_scales). The result: acc[i] = C[(l/16)*4+i][l%16].
//
// LDS tile of one stage: A [BM][ROWB], B [BN][ROWB], SA [BM][SROWB],
// SB [BN][SROWB] bytes. A/B rows are 16-byte chunks XOR-swizzled by row
// (chunk q of row r at q ^ (r & 7)) so that the 16 rows an MFMA reads do not
// hit the same banks; the copies are lane-linear in LDS (LDS DMA writes lane
// l's data at base + 16*l), so the swizzle is applied to the global address.
// Scale rows are not swizzled: one dword = 4 blocks = one MFMA K step of a row.
//
// Two ways to fill LDS, same reads and MFMAs (COPY):
//   regs: the next tile's global loads into registers at the top of the body,
//         the reads and the dot, barrier, the LDS writes, barrier (Triton's
//         num_stages=2 without async copy: one LDS buffer).
//   dma:  __builtin_amdgcn_global_load_lds into STAGES rotating buffers of one
//         arena (buffer pointers carried through the loop, as dma_gemm.hip):
//         wait for the tile about to be read, drain LDS, barrier; the next
//         tile's DMA, the reads, the dot.
// Per lane and tile: CP_A (CP_B) 16-byte copies of A (B) and CP_SA (CP_SB)
// 4-byte copies of the scales; copy i of lane t moves LDS bytes
// (i*NT + t)*16 .. +15 of the A tile = row c/ROWB, logical chunk
// (c%ROWB/16) ^ (row&7) of global row row, K bytes kt*ROWB + chunk*16 .. +15;
// for the scales c = (i*NT + t)*4: row c/SROWB, bytes kt*SROWB + c%SROWB .. +3.
//   BM, BN (256), BK (256), WAVES (8; 4), COPY (regs; dma), STAGES (2, dma),
//   KNAME (mxfp4_gemm)
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
#define BK 256
#endif
#ifndef WAVES
#define WAVES 8
#endif
#ifndef COPY
#define COPY regs
#endif
#ifndef STAGES
#define STAGES 2
#endif
#ifndef KNAME
#define KNAME mxfp4_gemm
#endif
#if WAVES == 8
#define WAVES_M 2
#define WAVES_N 4
#else
#define WAVES_M 2
#define WAVES_N 2
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define COPY_regs 1
#define COPY_dma 2
#define CP_KIND CAT(COPY_, COPY)

typedef unsigned int u32;
typedef u32 u4 __attribute__((ext_vector_type(4)));
typedef int i8v __attribute__((ext_vector_type(8)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef __attribute__((address_space(3))) unsigned char lds_t;

#define NT (64 * WAVES)
#define ROWB (BK / 2)                      // bytes per row of an A/B K tile (2 fp4 per byte)
#define SROWB (BK / 32)                    // scale bytes per row of a K tile
#define SWZ (ROWB / 16 < 8 ? ROWB / 16 - 1 : 7)
#define OFF_B (BM * ROWB)
#define OFF_SA (OFF_B + BN * ROWB)
#define OFF_SB (OFF_SA + BM * SROWB)
#define TILEB (OFF_SB + BN * SROWB)        // bytes of one stage
#define WTM (BM / WAVES_M)
#define WTN (BN / WAVES_N)
#define TM (WTM / 16)
#define TN (WTN / 16)
#define KS (BK / 128)                      // MFMA K steps per tile (16x16x128)
#define CP_A (BM * ROWB / (16 * NT))       // copies per lane per tile
#define CP_B (BN * ROWB / (16 * NT))
#define CP_SA (BM * SROWB / (4 * NT))
#define CP_SB (BN * SROWB / (4 * NT))
#define CP (CP_A + CP_B + CP_SA + CP_SB)
// gfx9 s_waitcnt: vmcnt(N) alone; lgkmcnt(0) alone.
#define VMCNT(N) (((N) & 0xf) | (((N) >> 4) << 14) | 0x0f70)
#define LGKM0 0xc07f

_Static_assert(BK % 128 == 0 && KS <= 2, "BK: one or two 16x16x128 K steps");
_Static_assert(BM % (16 * WAVES_M) == 0 && BN % (16 * WAVES_N) == 0, "wave grid");
_Static_assert(CP_A >= 1 && CP_B >= 1 && BM * ROWB % (16 * NT) == 0 && BN * ROWB % (16 * NT) == 0,
               "A/B copies: whole 16-byte chunks per lane");
_Static_assert(CP_SA >= 1 && CP_SB >= 1 && BM * SROWB % (4 * NT) == 0 && BN * SROWB % (4 * NT) == 0,
               "scale copies: whole dwords per lane");
_Static_assert(CP_KIND == COPY_regs || (STAGES >= 2 && (STAGES - 2) * CP < 64), "stages");

#if CP_KIND == COPY_dma
__shared__ __attribute__((aligned(16))) unsigned char smem[STAGES * TILEB];
#else
__shared__ __attribute__((aligned(16))) unsigned char smem[TILEB];
#endif

// Global byte offset (within the block's rows, K tile 0) of the 16 bytes that
// land at LDS byte c of an A/B tile: the swizzle undone on the source side.
DEV u32 ab_src(u32 c, u32 ld) {
  u32 row = c / ROWB, ch = (c % ROWB) / 16;
  return row * ld + (ch ^ (row & SWZ)) * 16;
}
// ... and of the 4 scale bytes that land at LDS byte c of a scale tile.
DEV u32 sc_src(u32 c, u32 ld) { return (c / SROWB) * ld + c % SROWB; }
// LDS byte of logical chunk q (16 bytes) of row r of an A/B tile.
DEV u32 ab_lds(u32 r, u32 q) { return r * ROWB + (q ^ (r & SWZ)) * 16; }

// One MFMA; OPSEL picks the byte of the scale registers (the K step).
template <int OPSEL> DEV f4 mfma(u4 a, u4 b, f4 c, u32 sa, u32 sb) {
  // fp4 uses the low 4 dwords of each operand (clang passes <4 x i32>).
  i8v a8 = {(int)a.x, (int)a.y, (int)a.z, (int)a.w, 0, 0, 0, 0};
  i8v b8 = {(int)b.x, (int)b.y, (int)b.z, (int)b.w, 0, 0, 0, 0};
  return __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a8, b8, c, 4, 4, OPSEL, sa, OPSEL, sb);
}
DEV f4 mfma_k(int k, u4 a, u4 b, f4 c, u32 sa, u32 sb) {
  return k == 0 ? mfma<0>(a, b, c, sa, sb) : mfma<1>(a, b, c, sa, sb);
}

// The scales of one row for one tile: SROWB bytes, block k*4 + g (K step k,
// lane group g) at byte k*4 + g. Lane group g keeps its blocks, byte k = K
// step k, in one register: v_perm_b32 with a per-lane selector.
DEV u32 lane_scales(const lds_t *row, u32 g) {
#if KS == 1
  u32 lo = *(const __attribute__((address_space(3))) u32 *)row;
  return __builtin_amdgcn_perm(0, lo, 0x0c0c0c00u | g);
#else
  typedef u32 u2 __attribute__((ext_vector_type(2)));
  u2 v = *(const __attribute__((address_space(3))) u2 *)row;
  return __builtin_amdgcn_perm(v.y, v.x, 0x0c0c0000u | ((4 + g) << 8) | g);
#endif
}

extern "C" __global__ __attribute__((amdgpu_flat_work_group_size(NT, NT)))
void KNAME(const unsigned char *__restrict__ Ag, const unsigned char *__restrict__ Bg,
           const unsigned char *__restrict__ SAg, const unsigned char *__restrict__ SBg,
           float *__restrict__ C, int M, int N, int K) {
  const u32 tid = __builtin_amdgcn_workitem_id_x();
  const u32 lane = tid % 64;
  const u32 wave = __builtin_amdgcn_readfirstlane(tid / 64);
  const u32 wm = wave / WAVES_N, wn = wave % WAVES_N;
  const u32 ld = (u32)K / 2;               // bytes per row of A and B
  const u32 lds_ = (u32)K / 32;            // bytes per row of SA and SB
  const int nk = K / BK;
  const u32 tn = __builtin_amdgcn_workgroup_id_x();
  const u32 tmi = __builtin_amdgcn_workgroup_id_y();
  const unsigned char *A = Ag + (unsigned long)tmi * BM * ld;
  const unsigned char *B = Bg + (unsigned long)tn * BN * ld;
  const unsigned char *SA = SAg + (unsigned long)tmi * BM * lds_;
  const unsigned char *SB = SBg + (unsigned long)tn * BN * lds_;
  lds_t *const arena = (lds_t *)smem;

  u32 a_src[CP_A], b_src[CP_B], sa_src[CP_SA], sb_src[CP_SB];
#pragma unroll
  for (int i = 0; i < CP_A; ++i) a_src[i] = ab_src((i * NT + tid) * 16, ld);
#pragma unroll
  for (int i = 0; i < CP_B; ++i) b_src[i] = ab_src((i * NT + tid) * 16, ld);
#pragma unroll
  for (int i = 0; i < CP_SA; ++i) sa_src[i] = sc_src((i * NT + tid) * 4, lds_);
#pragma unroll
  for (int i = 0; i < CP_SB; ++i) sb_src[i] = sc_src((i * NT + tid) * 4, lds_);

  f4 acc[TM][TN];
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) acc[m][n] = (f4){0, 0, 0, 0};

  // Reads of one tile: A/B chunk k*4 + lane/16 of the lane's row (16 bytes),
  // the scales of the lane's rows (lane_scales: byte k for K step k).
  u4 fa[KS][TM], fb[KS][TN];
  u32 fsa[TM], fsb[TN];
#define LDS_READ(base)                                                                         \
  do {                                                                                         \
    _Pragma("unroll") for (int m = 0; m < TM; ++m)                                             \
      fsa[m] = lane_scales((base) + OFF_SA + (wm * WTM + m * 16 + lane % 16) * SROWB, lane / 16); \
    _Pragma("unroll") for (int n = 0; n < TN; ++n)                                             \
      fsb[n] = lane_scales((base) + OFF_SB + (wn * WTN + n * 16 + lane % 16) * SROWB, lane / 16); \
    _Pragma("unroll") for (int k = 0; k < KS; ++k) {                                           \
      _Pragma("unroll") for (int m = 0; m < TM; ++m)                                           \
        fa[k][m] = *(const __attribute__((address_space(3))) u4 *)(                            \
            (base) + ab_lds(wm * WTM + m * 16 + lane % 16, k * 4 + lane / 16));                \
      _Pragma("unroll") for (int n = 0; n < TN; ++n)                                           \
        fb[k][n] = *(const __attribute__((address_space(3))) u4 *)(                            \
            (base) + OFF_B + ab_lds(wn * WTN + n * 16 + lane % 16, k * 4 + lane / 16));        \
    }                                                                                          \
  } while (0)
  // K-outer: every (m, n) of step 0, then of step 1 (Triton's order).
#define DOT()                                                                                  \
  do {                                                                                         \
    _Pragma("unroll") for (int k = 0; k < KS; ++k)                                             \
      _Pragma("unroll") for (int m = 0; m < TM; ++m)                                           \
        _Pragma("unroll") for (int n = 0; n < TN; ++n)                                         \
          acc[m][n] = mfma_k(k, fa[k][m], fb[k][n], acc[m][n], fsa[m], fsb[n]);                \
  } while (0)

#if CP_KIND == COPY_regs
  u4 ra[CP_A], rb[CP_B];
  u32 rsa[CP_SA], rsb[CP_SB];
#define GLOAD(kt)                                                                              \
  do {                                                                                         \
    const u32 kb = (u32)(kt) * ROWB, ksb = (u32)(kt) * SROWB;                                  \
    _Pragma("unroll") for (int i = 0; i < CP_A; ++i) ra[i] = *(const u4 *)(A + a_src[i] + kb); \
    _Pragma("unroll") for (int i = 0; i < CP_B; ++i) rb[i] = *(const u4 *)(B + b_src[i] + kb); \
    _Pragma("unroll") for (int i = 0; i < CP_SA; ++i) rsa[i] = *(const u32 *)(SA + sa_src[i] + ksb); \
    _Pragma("unroll") for (int i = 0; i < CP_SB; ++i) rsb[i] = *(const u32 *)(SB + sb_src[i] + ksb); \
  } while (0)
#define LDS_STORE()                                                                            \
  do {                                                                                         \
    _Pragma("unroll") for (int i = 0; i < CP_A; ++i)                                           \
      *(__attribute__((address_space(3))) u4 *)(arena + (i * NT + tid) * 16) = ra[i];          \
    _Pragma("unroll") for (int i = 0; i < CP_B; ++i)                                           \
      *(__attribute__((address_space(3))) u4 *)(arena + OFF_B + (i * NT + tid) * 16) = rb[i];  \
    _Pragma("unroll") for (int i = 0; i < CP_SA; ++i)                                          \
      *(__attribute__((address_space(3))) u32 *)(arena + OFF_SA + (i * NT + tid) * 4) = rsa[i]; \
    _Pragma("unroll") for (int i = 0; i < CP_SB; ++i)                                          \
      *(__attribute__((address_space(3))) u32 *)(arena + OFF_SB + (i * NT + tid) * 4) = rsb[i]; \
  } while (0)
#define SYNC()                                                                                 \
  do {                                                                                         \
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");                                     \
    __builtin_amdgcn_s_barrier();                                                              \
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");                                     \
  } while (0)

  GLOAD(0);
  LDS_STORE();
  SYNC();
#pragma clang loop unroll(disable)
  for (int kt = 0; kt < nk - 1; ++kt) {
    GLOAD(kt + 1);
    LDS_READ(arena);
    DOT();
    SYNC();                                // every wave's reads of this tile done
    LDS_STORE();
    SYNC();                                // the next tile in LDS for every wave
  }
  LDS_READ(arena);
  DOT();
#else
  // Copy i of lane `lane` of wave `wave` lands at base + (i*NT + wave*64)*size
  // + lane*size: the wave-uniform LDS base of global_load_lds.
#define DMA(src, off, size, dst)                                                               \
  __builtin_amdgcn_global_load_lds((void *)(src), (void __attribute__((address_space(3))) *)(dst), size, 0, 0)
#define COPY_TILE(base, kt)                                                                    \
  do {                                                                                         \
    const u32 kb = (u32)(kt) * ROWB, ksb = (u32)(kt) * SROWB;                                  \
    _Pragma("unroll") for (int i = 0; i < CP_A; ++i)                                           \
      DMA(A + a_src[i] + kb, 0, 16, (base) + (i * NT + wave * 64) * 16);                       \
    _Pragma("unroll") for (int i = 0; i < CP_SA; ++i)                                          \
      DMA(SA + sa_src[i] + ksb, 0, 4, (base) + OFF_SA + (i * NT + wave * 64) * 4);             \
    _Pragma("unroll") for (int i = 0; i < CP_B; ++i)                                           \
      DMA(B + b_src[i] + kb, 0, 16, (base) + OFF_B + (i * NT + wave * 64) * 16);               \
    _Pragma("unroll") for (int i = 0; i < CP_SB; ++i)                                          \
      DMA(SB + sb_src[i] + ksb, 0, 4, (base) + OFF_SB + (i * NT + wave * 64) * 4);             \
  } while (0)

  // ago[s]: the buffer written s + 1 iterations ago (the prologue's stages).
  lds_t *ago[STAGES - 1];
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    COPY_TILE(arena + s * TILEB, s);
    ago[STAGES - 2 - s] = arena + s * TILEB;
  }
  for (int kt = 0; kt < nk; ++kt) {
    __builtin_amdgcn_s_waitcnt(VMCNT((STAGES - 2) * CP)); // tile kt landed (this wave)
    __builtin_amdgcn_s_waitcnt(LGKM0);
    __builtin_amdgcn_s_barrier();                          // ... for every wave; the next buffer is free
    lds_t *wr = ago[0] + TILEB < arena + STAGES * TILEB ? ago[0] + TILEB : arena;
    lds_t *rd = ago[STAGES - 2];
    // the last tiles copy tile 0 again (branch-free; the copy is unused)
    const int kn = kt + STAGES - 1 < nk ? kt + STAGES - 1 : 0;
    COPY_TILE(wr, kn);
    LDS_READ(rd);
    DOT();
#pragma unroll
    for (int s = STAGES - 2; s > 0; --s) ago[s] = ago[s - 1];
    ago[0] = wr;
  }
#endif

#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n)
#pragma unroll
      for (int i = 0; i < 4; ++i)
        C[((unsigned long)tmi * BM + wm * WTM + m * 16 + (lane / 16) * 4 + i) * N + tn * BN + wn * WTN +
          n * 16 + lane % 16] = acc[m][n][i];
}
