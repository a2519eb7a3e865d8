// Calibration kernel (gfx950 only): a 4-wave interleaved GEMM main loop, the
// "4-wave interleave" side of HipKittens' ping-pong micro-benchmark (arXiv
// 2511.08083; bench/calib.sh pairs hk.fp8 and hk.bf16), written from the
// published description:
//   - 256 threads, one wave per SIMD, 2x2 wave grid, 256x256 block tile;
//   - each wave owns 128x128 of C as four 64x64 accumulator blocks c[h][g]:
//     rows h*128 + wm*64 + [0,64), columns g*128 + wn*64 + [0,64), i.e. the
//     A and B tiles are held in LDS as two 128-row halves each;
//   - LDS DMA (buffer_load ... lds) into two LDS stages, prefetch distance two:
//     the copy of a half of tile k+2 is issued as soon as every wave has read
//     that half of tile k into registers;
//   - register double buffering a[0..1], b[0..1] (64 x BK each): four dot
//     clusters per K tile, c00 = a0 b0, c01 = a0 b1, c10 = a1 b0, c11 = a1 b1;
//     each cluster's MFMAs are interleaved, one by one and pinned with
//     sched_barrier, with the ds_reads of the register tile the next cluster
//     needs and with a quarter of the next-but-one tile's copies;
//   - two s_barriers per K tile, each after a vmcnt wait that lets exactly
//     one K tile of copies (16 per lane) stay in flight, and lgkmcnt(0) so no
//     wave refills a half another wave may still read; the waits for the
//     fragments inside a phase are llc's (exact with buffer_load ... lds;
//     with global_load_lds llc-22 waited lgkmcnt(10) where pingpong-sim
//     verify needs 6, so this kernel uses the buffer form).
//
//   Y[M,N] (f32) = X[M,K] * W[N,K]^T, X and W K-contiguous (TN).
//
// -D parameters:
//   ELEM  fp8 (v_mfma_scale_f32_16x16x128_f8f6f4, BK 128) |
//         bf16 (v_mfma_f32_16x16x32_bf16, BK 64); 128 bytes per row of a K tile.
//
// The bf16 build keeps the fp8 kernel's structure (HipKittens publishes the
// FP8 4-wave source; the bf16 one is assumed alike). Registers (llc-22 -O3):
// no scratch; fp8 432 of 512 (176 AGPRs), bf16 446 (190 AGPRs); llc picks the
// VGPR form of the MFMA and moves some accumulators between AGPRs and VGPRs
// (83 / 73 copies per two K tiles, the loop being unrolled by two). As in
// dma_gemm_pp.hip, timing is the point (no GPU here to check numerics), the
// LDS layout is not swizzled (the model has no bank conflicts), and the tail
// iterations re-copy tile 0 instead of peeling the loop.

#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define DEV static inline __attribute__((device, always_inline))
#define LDS __attribute__((address_space(3)))

#define ELEM_fp8 1
#define ELEM_bf16 2
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#ifndef ELEM
#define ELEM fp8
#endif
#define EL CAT(ELEM_, ELEM)
#ifndef KNAME
#define KNAME hk_gemm_4wave
#endif

typedef unsigned int u32;
typedef int v8i __attribute__((ext_vector_type(8)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef __bf16 bf8 __attribute__((ext_vector_type(8)));

#if EL == ELEM_fp8
#define ESZ 1
#define BK 128
#define MK 128                    // K per MFMA
typedef v8i frag_t;               // 32 fp8 per lane
#else
#define ESZ 2
#define BK 64
#define MK 32
typedef bf8 frag_t;               // 8 bf16 per lane
#endif
#define FRAGB ((int)sizeof(frag_t))
#define NT 256                    // 4 waves
#define ROWB (BK * ESZ)           // bytes per row of a K tile
#define HALF 128                  // rows per LDS half tile
#define RT 64                     // rows of a register tile
#define KS (BK / MK)              // MFMA K steps per tile
#define NFR (4 * KS)              // fragments per register tile (4 row groups)
#define NMF (16 * KS)             // MFMAs per cluster (4x4 16x16 blocks)
#define CPH (HALF * ROWB / (16 * NT)) // 16-byte copies per lane per half tile

_Static_assert(ROWB == 128 && CPH == 4, "layout");
_Static_assert(NMF % (2 * NFR) == 0 && NMF % (2 * CPH) == 0, "interleave");

// [stage][half]; separate objects so LLVM's LDS-DMA waits tell them apart.
__shared__ __attribute__((aligned(16))) unsigned char sa00[HALF * ROWB], sa01[HALF * ROWB],
    sa10[HALF * ROWB], sa11[HALF * ROWB];
__shared__ __attribute__((aligned(16))) unsigned char sb00[HALF * ROWB], sb01[HALF * ROWB],
    sb10[HALF * ROWB], sb11[HALF * ROWB];

// A register tile: NFR fragments as nested struct members, not an array
// (AMDGPUPromoteAlloca would turn an array into one 1024-bit vector, which
// the register allocator then shuffles between AGPRs and VGPRs).
template <int N> struct TileN { frag_t f; TileN<N - 1> rest; };
template <> struct TileN<1> { frag_t f; };
typedef TileN<NFR> Tile;
template <int J, int N> DEV frag_t &at(TileN<N> &t) {
  if constexpr (J == 0) return t.f; else return at<J - 1>(t.rest);
}
template <int J, int N> DEV const frag_t &at(const TileN<N> &t) {
  if constexpr (J == 0) return t.f; else return at<J - 1>(t.rest);
}

struct Ctx {
  __amdgpu_buffer_rsrc_t X, W; // this block's rows of A / B
  u32 voff;                    // lane's byte offset in copy 0 of a half
  int ldx;
  u32 tid, wave, lane, wm, wn;
};

// Copy i (of CPH) of one 128-row half (rows h*128..) of tile kt into lds:
// buffer_load ... lds with the per-lane offset of copy 0 in one VGPR and
// everything uniform (copy, half, K tile) in soffset, as HipKittens' loads do.
DEV void copy_one(const Ctx &c, __amdgpu_buffer_rsrc_t G, unsigned char *lds, int h, int kt, int i) {
  __builtin_amdgcn_raw_ptr_buffer_load_lds(G, (LDS void *)(lds + (i * NT + c.wave * 64) * 16), 16, c.voff,
                                           (h * HALF + i * (NT * 16 / ROWB)) * c.ldx + kt * ROWB, 0, 0);
}

// Fragment j (K step j / 4, row group j % 4) of this wave's 64-row register
// tile of an LDS half: row (lane % 16), K byte offset (lane / 16) * FRAGB.
DEV frag_t read_one(const Ctx &c, const unsigned char *lds, u32 w, int j) {
  int k = j / 4, m = j % 4;
  return *(const frag_t *)(lds + (w * RT + m * 16 + c.lane % 16) * ROWB + k * MK * ESZ + (c.lane / 16) * FRAGB);
}

DEV f4 mfma(frag_t a, frag_t b, f4 acc) {
#if EL == ELEM_fp8
  // cbsz = blgp = 0: FP8 E4M3 operands; zero scales select the unscaled form.
  return __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, acc, 0, 0, 0, 0, 0, 0);
#else
  return __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, acc, 0, 0, 0);
#endif
}

DEV void pin() { __builtin_amdgcn_sched_barrier(0); }
// s_waitcnt immediates (gfx9 encoding: vmcnt[3:0]+[15:14], expcnt[6:4], lgkmcnt[11:8]).
#define VMCNT(n) (((n) & 15) | (((n) >> 4) << 14) | (7 << 4) | (15 << 8))
#define LGKM0 (15 | (3 << 14) | (7 << 4))

// One dot cluster: acc += a * b^T over the K tile. The fragment reads of the
// next register tile (into nr, from lds row block w) and the copies of a half
// of tile kt (from G into dst) follow MFMAs of the first half of the cluster,
// one every RS / CS MFMAs, so the second half covers the reads' latency.
#define RS (NMF / (2 * NFR))
#define CS (NMF / (2 * CPH))
// Step S of a cluster (a template, so every fragment index is a constant).
template <int S>
DEV void cluster(const Ctx &c, f4 (&acc)[4][4], const Tile &a, const Tile &b,
                 Tile &nr, const unsigned char *lds, u32 w,
                 __amdgpu_buffer_rsrc_t G, unsigned char *dst, int h, int kt) {
  // bf16 (two K steps): the two MFMAs of one accumulator two apart, not 16
  // (fewer accumulators live across the cluster: 73 AGPR/VGPR copies per two
  // K tiles instead of 289) nor back to back (a dependence stall each).
  constexpr int k = (S / 2) % KS, m = S / (4 * KS), n = (S / (2 * KS)) % 2 * 2 + S % 2;
  acc[m][n] = mfma(at<k * 4 + m>(a), at<k * 4 + n>(b), acc[m][n]);
  if constexpr (S < NMF / 2 && S % RS == 0) at<S / RS>(nr) = read_one(c, lds, w, S / RS);
  if constexpr (S < NMF / 2 && S % CS == 0) copy_one(c, G, dst, h, kt, S / CS);
  pin();
  if constexpr (S + 1 < NMF) cluster<S + 1>(c, acc, a, b, nr, lds, w, G, dst, h, kt);
}

template <int J = 0>
DEV void read_tile(const Ctx &c, Tile &r, const unsigned char *lds, u32 w) {
  at<J>(r) = read_one(c, lds, w, J);
  if constexpr (J + 1 < NFR) read_tile<J + 1>(c, r, lds, w);
}

DEV void copy_half(const Ctx &c, __amdgpu_buffer_rsrc_t G, unsigned char *lds, int h, int kt) {
#pragma unroll
  for (int i = 0; i < CPH; ++i) copy_one(c, G, lds, h, kt, i);
}

// K tile kt from stage (ca*, cb*); the next tile's halves 0 are in stage
// (na0, nb0); the copies of tile kt + 2 go into this stage.
#define BODY(ca0, ca1, cb0, cb1, na0, nb0, KT)                                          \
  {                                                                                     \
    const int kn = (KT) + 2 < nk ? (KT) + 2 : 0;                                        \
    /* tile KT complete (16 copies of tile KT+1 stay in flight), every wave's */       \
    /* reads of a0/b0 complete: the halves 0 of this stage may be refilled */          \
    __builtin_amdgcn_s_waitcnt(VMCNT(16));                                              \
    __builtin_amdgcn_s_waitcnt(LGKM0);                                                  \
    __builtin_amdgcn_s_barrier();                                                       \
    pin();                                                                              \
    cluster<0>(c, acc[0][0], a0, b0, b1, cb1, c.wn, c.X, ca0, 0, kn);                   \
    cluster<0>(c, acc[0][1], a0, b1, a1, ca1, c.wm, c.W, cb0, 0, kn);                   \
    /* halves 0 of tile KT+1 complete; every wave's b1/a1 reads complete */            \
    __builtin_amdgcn_s_waitcnt(VMCNT(16));                                              \
    __builtin_amdgcn_s_waitcnt(LGKM0);                                                  \
    __builtin_amdgcn_s_barrier();                                                       \
    pin();                                                                              \
    cluster<0>(c, acc[1][0], a1, b0, a0, na0, c.wm, c.W, cb1, 1, kn);                   \
    cluster<0>(c, acc[1][1], a1, b1, b0, nb0, c.wn, c.X, ca1, 1, kn);                   \
  }

extern "C" __global__ __attribute__((amdgpu_flat_work_group_size(NT, NT), amdgpu_waves_per_eu(1, 1)))
void KNAME(const unsigned char *__restrict__ Xg, const unsigned char *__restrict__ Wg,
           float *__restrict__ Y, int M, int N, int K) {
  Ctx c;
  c.tid = __builtin_amdgcn_workitem_id_x();
  c.lane = c.tid % 64;
  c.wave = __builtin_amdgcn_readfirstlane(c.tid / 64);
  c.wm = c.wave / 2;
  c.wn = c.wave % 2;
  c.ldx = K * ESZ;
  const int nk = K / BK;                       // even (unrolled by two)
  const u32 tn = __builtin_amdgcn_workgroup_id_x();
  const u32 tmi = __builtin_amdgcn_workgroup_id_y();
  // Raw buffers over this block's 256 rows (word 3: gfx9 default format).
  c.X = __builtin_amdgcn_make_buffer_rsrc((void *)(Xg + (unsigned long)tmi * 256 * c.ldx), 0, 256 * c.ldx, 0x00020000);
  c.W = __builtin_amdgcn_make_buffer_rsrc((void *)(Wg + (unsigned long)tn * 256 * c.ldx), 0, 256 * c.ldx, 0x00020000);
  c.voff = (c.tid * 16 / ROWB) * c.ldx + c.tid * 16 % ROWB;

  f4 acc[2][2][4][4];
#pragma unroll
  for (int h = 0; h < 2; ++h)
#pragma unroll
    for (int g = 0; g < 2; ++g)
#pragma unroll
      for (int m = 0; m < 4; ++m)
#pragma unroll
        for (int n = 0; n < 4; ++n) acc[h][g][m][n] = (f4){0, 0, 0, 0};

  // Tiles 0 and 1, in the loop's copy order (A0, B0, B1, A1 halves).
  copy_half(c, c.X, sa00, 0, 0);
  copy_half(c, c.W, sb00, 0, 0);
  copy_half(c, c.W, sb01, 1, 0);
  copy_half(c, c.X, sa01, 1, 0);
  copy_half(c, c.X, sa10, 0, 1);
  copy_half(c, c.W, sb10, 0, 1);
  copy_half(c, c.W, sb11, 1, 1);
  copy_half(c, c.X, sa11, 1, 1);
  __builtin_amdgcn_s_waitcnt(VMCNT(24));       // halves 0 of tile 0
  __builtin_amdgcn_s_barrier();
  pin();
  Tile a0, a1, b0, b1;
  read_tile(c, a0, sa00, c.wm);
  read_tile(c, b0, sb00, c.wn);
  pin();

  for (int kt = 0; kt < nk; kt += 2) {
    BODY(sa00, sa01, sb00, sb01, sa10, sb10, kt)
    BODY(sa10, sa11, sb10, sb11, sa00, sb00, kt + 1)
  }
  __builtin_amdgcn_s_waitcnt(VMCNT(0));        // no copy left in flight at exit

#pragma unroll
  for (int h = 0; h < 2; ++h)
#pragma unroll
    for (int g = 0; g < 2; ++g)
#pragma unroll
      for (int m = 0; m < 4; ++m)
#pragma unroll
        for (int n = 0; n < 4; ++n)
#pragma unroll
          for (int i = 0; i < 4; ++i)
            Y[((unsigned long)tmi * 256 + h * HALF + c.wm * RT + m * 16 + (c.lane / 16) * 4 + i) * N +
              tn * 256 + g * HALF + c.wn * RT + n * 16 + c.lane % 16] = acc[h][g][m][n][i];
}
