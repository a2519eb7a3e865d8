// neg_fma: the same Triton num_stages=2 loop shape as gemm.hip (buffer/global
// loads of tile k+1, LDS reads of tile k, dot, barrier, LDS store, barrier),
// but the dot is Triton's FMA-layout dot (no MFMA): f16 operands widened to
// f32 and accumulated with v_fma_mix_f32 / v_fma_f32. Triton test fma_dot_neg:
// no pingpong. The loop body is a single block without any MFMA.
//   C[M,N] (f32) = A[M,K] * B[N,K]^T, tile 64x64x32, 4 waves, 4x4 outputs/lane.
// -D: LOADS=buffer|global (default buffer), BK (default 32).
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define DEV static inline __attribute__((device, always_inline))
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#ifndef LOADS
#define LOADS buffer
#endif
#define LD_buffer 1
#define LD_global 2
#define LD CAT(LD_, LOADS)
#ifndef BK
#define BK 32
#endif
#define BM 64
#define BN 64
#define NT 256
#define CPR (BK / 8)
#define SWZ_MASK (CPR < 8 ? CPR - 1 : 7)

typedef unsigned int u32;
typedef unsigned int u4 __attribute__((ext_vector_type(4)));
typedef _Float16 h8 __attribute__((ext_vector_type(8)));

DEV void sync_threads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
DEV u32 lds_off(u32 row, u32 k) { return (row * BK + (((k / 8) ^ (row & SWZ_MASK)) * 8)) * 2; }

__shared__ __attribute__((aligned(16))) unsigned short lds_a[BM * BK];
__shared__ __attribute__((aligned(16))) unsigned short lds_b[BN * BK];

#if LD == LD_buffer
typedef __amdgpu_buffer_rsrc_t src_t;
DEV src_t make_src(const unsigned short *p, u32 bytes) {
  return __builtin_amdgcn_make_buffer_rsrc((void *)p, (short)0, bytes, 0x00020000);
}
DEV u4 load16(src_t s, u32 voff, u32 soff) { return __builtin_amdgcn_raw_buffer_load_b128(s, voff, soff, 0); }
#else
typedef const unsigned short *__restrict__ src_t;
DEV src_t make_src(const unsigned short *p, u32) { return p; }
DEV u4 load16(src_t s, u32 voff, u32 soff) { return *(const u4 *)((const char *)s + soff + voff); }
#endif

extern "C" __global__ __attribute__((amdgpu_flat_work_group_size(NT, NT)))
void CAT(gemm_fma_64x64x, CAT(BK, CAT(_w4_f16_, LOADS)))(
    const unsigned short *__restrict__ A, const unsigned short *__restrict__ B,
    float *__restrict__ C, int M, int N, int K) {
  const u32 tid = __builtin_amdgcn_workitem_id_x();
  const int tile = __builtin_amdgcn_workgroup_id_x();
  const int tiles_n = N / BN;
  const u32 m0 = (tile / tiles_n) * BM, n0 = (tile % tiles_n) * BN;
  const int nk = K / BK;
  src_t sa = make_src(A + (long)m0 * K, (u32)BM * K * 2);
  src_t sb = make_src(B + (long)n0 * K, (u32)BN * K * 2);

  // one 16-byte vector of A and of B per lane per tile (64*32*2 B / 256 lanes)
  const u32 grow = tid / CPR, gch = tid % CPR;
  const u32 voff = (grow * (u32)K + gch * 8) * 2;
  const u32 st = lds_off(grow, gch * 8);
  const u32 ty = tid / 16, tx = tid % 16;   // rows ty+16i, cols tx+16j

  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;

  u4 ra = load16(sa, voff, 0), rb = load16(sb, voff, 0);
  *(u4 *)((char *)lds_a + st) = ra;
  *(u4 *)((char *)lds_b + st) = rb;
  sync_threads();

#define DOT_FMA()                                                             \
  for (int c = 0; c < CPR; ++c) {                                             \
    h8 a[4], b[4];                                                            \
    for (int i = 0; i < 4; ++i)                                               \
      a[i] = *(h8 *)((char *)lds_a + lds_off(ty + 16 * i, c * 8));            \
    for (int j = 0; j < 4; ++j)                                               \
      b[j] = *(h8 *)((char *)lds_b + lds_off(tx + 16 * j, c * 8));            \
    for (int e = 0; e < 8; ++e)                                               \
      for (int i = 0; i < 4; ++i)                                             \
        for (int j = 0; j < 4; ++j)                                           \
          acc[i][j] = __builtin_fmaf((float)a[i][e], (float)b[j][e], acc[i][j]); \
  }

#pragma clang loop unroll(disable)
  for (int kt = 0; kt < nk - 1; ++kt) {
    ra = load16(sa, voff, (u32)(kt + 1) * BK * 2);
    rb = load16(sb, voff, (u32)(kt + 1) * BK * 2);
    DOT_FMA();
    sync_threads();
    *(u4 *)((char *)lds_a + st) = ra;
    *(u4 *)((char *)lds_b + st) = rb;
    sync_threads();
  }
  DOT_FMA();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(long)(m0 + ty + 16 * i) * N + n0 + tx + 16 * j] = acc[i][j];
}
