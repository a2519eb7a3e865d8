// Block-pingpong test kernel: flash-attention forward (one head), written as
// device-only HIP without headers, shaped like Triton's attn_fwd main loop
// (num_stages=2: the next K/V tiles are loaded into registers while the
// current ones are read from LDS).
//
//   O[BM rows of this workgroup, HD] = softmax(Q K^T * scale) V
//
// Build:
//   clang++ -x hip --offload-arch=gfx942 -nogpulib -nogpuinc \
//       --offload-device-only -O3 -S -emit-llvm attention.hip -o k.ll [-D...]
//
// Parameters (-D):
//   BM      query rows per workgroup (default 128)
//   BN      keys per iteration (default 64)
//   HD      head dimension (default 128)
//   WAVES   4 | 8 (workgroup = 64*WAVES lanes); each wave owns BM/WAVES rows
//   DTYPE   f16 | bf16
//   KNAME   kernel symbol name (default derived from the config)
//
// Two chained dots per iteration, both on 16x16x16 MFMAs, both computed
// transposed so that the softmax needs no lane shuffle between them:
//   S^T[n][m] = K[n][:] . Q[m][:]   (A = K fragment from LDS, B = Q in registers)
//   online softmax over n for each m (m = lane % 16 in the S^T layout):
//     row max and row sum across the 4 lane groups with ds_bpermute (xor 16,
//     xor 32), exp2 on the VALU, the running max/sum rescale O^T by alpha
//   O^T[d][m] += V^T[d][n] . P^T[n][m]  (A = V^T fragment from LDS, B = P^T
//     straight from the S^T accumulator layout, converted to 16 bit)
// LDS: K as [BN][HD], V transposed as [HD][BN] (written with ds_write_b16) so
// both dots read their A fragments with one ds_read_b64 per MFMA.

#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define DEV static inline __attribute__((device, always_inline))

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 64
#endif
#ifndef HD
#define HD 128
#endif
#ifndef WAVES
#define WAVES 8
#endif
#ifndef DTYPE
#define DTYPE f16
#endif
#define DT_f16 1
#define DT_bf16 2
#define DT CAT(DT_, DTYPE)

#ifndef KNAME
#define KNAME CAT(CAT(CAT(CAT(CAT(CAT(CAT(CAT(attn_, BM), x), BN), x), HD), CAT(_w, WAVES)), _), DTYPE)
#endif

typedef unsigned int u32;
typedef unsigned short u16;
typedef unsigned int u2 __attribute__((ext_vector_type(2)));
typedef unsigned int u4 __attribute__((ext_vector_type(4)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef _Float16 h4 __attribute__((ext_vector_type(4)));
typedef short s4 __attribute__((ext_vector_type(4)));

#define NT (64 * WAVES)      // lanes per workgroup
#define WROWS (BM / WAVES)   // query rows per wave
#define MB (WROWS / 16)      // 16-row blocks per wave
#define NB (BN / 16)         // 16-key blocks per iteration
#define DS (HD / 16)         // 16-wide steps of the head dimension
#define CPR (HD / 8)         // 16-byte chunks per K/V row
#define LKV (BN * CPR / NT)  // 16-byte chunks per lane per K (and V) tile

_Static_assert(WAVES == 4 || WAVES == 8, "WAVES must be 4 or 8");
_Static_assert(WROWS % 16 == 0, "BM / WAVES must be a multiple of 16");
_Static_assert(BN % 16 == 0 && HD % 16 == 0, "BN and HD must be multiples of 16");
_Static_assert((BN * CPR) % NT == 0, "a K/V tile must split evenly over the lanes");

DEV void sync_threads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

DEV f4 mfma(u2 a, u2 b, f4 c) {
#if DT == 1
  return __builtin_amdgcn_mfma_f32_16x16x16f16(__builtin_bit_cast(h4, a),
                                               __builtin_bit_cast(h4, b), c, 0, 0, 0);
#else
  return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(__builtin_bit_cast(s4, a),
                                                   __builtin_bit_cast(s4, b), c, 0, 0, 0);
#endif
}

// Four f32 probabilities -> one 16-bit MFMA operand.
DEV u2 pack4(float a, float b, float c, float d) {
#if DT == 1
  h4 h = {(_Float16)a, (_Float16)b, (_Float16)c, (_Float16)d};
  return __builtin_bit_cast(u2, h);
#else
  // bf16: round to nearest even on the upper 16 bits.
  u32 x[4] = {__builtin_bit_cast(u32, a), __builtin_bit_cast(u32, b),
              __builtin_bit_cast(u32, c), __builtin_bit_cast(u32, d)};
  for (int i = 0; i < 4; ++i)
    x[i] = (x[i] + 0x7fffu + ((x[i] >> 16) & 1u)) >> 16;
  return (u2){x[0] | (x[1] << 16), x[2] | (x[3] << 16)};
#endif
}

// Lane shuffle (xor) through the LDS unit's permute network, as Triton does.
DEV float shfl_xor(float v, u32 lane, u32 mask) {
  return __builtin_bit_cast(float, __builtin_amdgcn_ds_bpermute(
                                       (int)((lane ^ mask) << 2), __builtin_bit_cast(int, v)));
}

typedef __amdgpu_buffer_rsrc_t src_t;
#define RSRC_FLAGS 0x00020000
DEV src_t make_src(const u16 *base, u32 bytes) {
  return __builtin_amdgcn_make_buffer_rsrc((void *)base, (short)0, bytes, RSRC_FLAGS);
}
DEV u4 load16(src_t s, u32 voff, u32 soff) {
  return __builtin_amdgcn_raw_buffer_load_b128(s, voff, soff, 0);
}

__shared__ __attribute__((aligned(16))) u16 lds_k[BN * HD];
__shared__ __attribute__((aligned(16))) u16 lds_vt[HD * BN];

extern "C" __global__
__attribute__((amdgpu_flat_work_group_size(NT, NT)))
void KNAME(const u16 *__restrict__ Q, const u16 *__restrict__ K,
           const u16 *__restrict__ V, float *__restrict__ O, int Nkv,
           float scale_log2e) {
  const u32 tid = __builtin_amdgcn_workitem_id_x();
  const u32 lane = tid % 64;
  const u32 wave = __builtin_amdgcn_readfirstlane(tid / 64);
  const u32 q0 = __builtin_amdgcn_workgroup_id_x() * BM + wave * WROWS;
  const int nkb = Nkv / BN;
  const u32 frow = lane % 16, kgrp = lane / 16;

  // Q^T fragments (B operand of S^T), loaded once.
  u2 qf[MB][DS];
  for (int mb = 0; mb < MB; ++mb)
    for (int ds = 0; ds < DS; ++ds)
      qf[mb][ds] = *(const u2 *)(Q + (long)(q0 + mb * 16 + frow) * HD + ds * 16 + kgrp * 4);

  // Global -> LDS mapping of the K and V tiles (loop invariant).
  u32 g_off[LKV], k_lds[LKV], vt_lds[LKV];
  for (int i = 0; i < LKV; ++i) {
    u32 c = tid + i * NT;
    u32 row = c / CPR, ch = c % CPR;
    g_off[i] = (row * HD + ch * 8) * 2;
    k_lds[i] = (row * HD + ch * 8) * 2;
    vt_lds[i] = (ch * 8 * BN + row) * 2;   // element e goes to + e * BN * 2
  }
  src_t sk = make_src(K, (u32)Nkv * HD * 2);
  src_t sv = make_src(V, (u32)Nkv * HD * 2);
  u4 rk[LKV], rv[LKV];

#define GLOAD(j)                                                              \
  do {                                                                        \
    for (int i = 0; i < LKV; ++i) rk[i] = load16(sk, g_off[i], (u32)(j) * BN * HD * 2); \
    for (int i = 0; i < LKV; ++i) rv[i] = load16(sv, g_off[i], (u32)(j) * BN * HD * 2); \
  } while (0)

#define LDS_STORE()                                                           \
  do {                                                                        \
    for (int i = 0; i < LKV; ++i) {                                           \
      *(u4 *)((char *)lds_k + k_lds[i]) = rk[i];                              \
      for (int e = 0; e < 8; ++e)                                             \
        *(u16 *)((char *)lds_vt + vt_lds[i] + e * BN * 2) =                   \
            (u16)(rv[i][e / 2] >> (16 * (e % 2)));                            \
    }                                                                         \
  } while (0)

  f4 o[MB][DS];
  float m_i[MB], l_i[MB];
  for (int mb = 0; mb < MB; ++mb) {
    m_i[mb] = -__builtin_inff();
    l_i[mb] = 0.0f;
    for (int d = 0; d < DS; ++d) o[mb][d] = (f4)0.0f;
  }

  // One iteration on the K/V tiles in LDS: S^T, online softmax, O^T.
#define ATTN_STEP()                                                           \
  do {                                                                        \
    u2 kf[NB][DS];                                                            \
    for (int nb = 0; nb < NB; ++nb)                                           \
      for (int ds = 0; ds < DS; ++ds)                                         \
        kf[nb][ds] = *(u2 *)((char *)lds_k +                                  \
                             ((nb * 16 + frow) * HD + ds * 16 + kgrp * 4) * 2); \
    f4 s[MB][NB];                                                             \
    for (int mb = 0; mb < MB; ++mb)                                           \
      for (int nb = 0; nb < NB; ++nb) {                                       \
        s[mb][nb] = (f4)0.0f;                                                 \
        for (int ds = 0; ds < DS; ++ds)                                       \
          s[mb][nb] = mfma(kf[nb][ds], qf[mb][ds], s[mb][nb]);                \
      }                                                                       \
    u2 pf[MB][NB];                                                            \
    for (int mb = 0; mb < MB; ++mb) {                                         \
      float mx = s[mb][0][0];                                                 \
      for (int nb = 0; nb < NB; ++nb)                                         \
        for (int r = 0; r < 4; ++r) mx = __builtin_fmaxf(mx, s[mb][nb][r]);   \
      mx = __builtin_fmaxf(mx, shfl_xor(mx, lane, 16));                       \
      mx = __builtin_fmaxf(mx, shfl_xor(mx, lane, 32));                       \
      float mnew = __builtin_fmaxf(m_i[mb], mx * scale_log2e);                \
      float alpha = __builtin_amdgcn_exp2f(m_i[mb] - mnew);                   \
      float rs = 0.0f;                                                        \
      for (int nb = 0; nb < NB; ++nb) {                                       \
        float p[4];                                                           \
        for (int r = 0; r < 4; ++r) {                                         \
          p[r] = __builtin_amdgcn_exp2f(s[mb][nb][r] * scale_log2e - mnew);   \
          rs += p[r];                                                         \
        }                                                                     \
        pf[mb][nb] = pack4(p[0], p[1], p[2], p[3]);                           \
      }                                                                       \
      rs += shfl_xor(rs, lane, 16);                                           \
      rs += shfl_xor(rs, lane, 32);                                           \
      l_i[mb] = l_i[mb] * alpha + rs;                                         \
      m_i[mb] = mnew;                                                         \
      for (int d = 0; d < DS; ++d) o[mb][d] *= alpha;                         \
    }                                                                         \
    for (int d = 0; d < DS; ++d) {                                            \
      u2 vf[NB];                                                              \
      for (int nb = 0; nb < NB; ++nb)                                         \
        vf[nb] = *(u2 *)((char *)lds_vt +                                     \
                         ((d * 16 + frow) * BN + nb * 16 + kgrp * 4) * 2);    \
      for (int mb = 0; mb < MB; ++mb)                                         \
        for (int nb = 0; nb < NB; ++nb)                                       \
          o[mb][d] = mfma(vf[nb], pf[mb][nb], o[mb][d]);                      \
    }                                                                         \
  } while (0)

  // ---- prologue: tile 0 -> registers -> LDS ----
  GLOAD(0);
  LDS_STORE();
  sync_threads();

  // ---- main loop ----
#pragma clang loop unroll(disable)
  for (int j = 0; j < nkb - 1; ++j) {
    GLOAD(j + 1);
    ATTN_STEP();
    sync_threads();
    LDS_STORE();
    sync_threads();
  }

  // ---- epilogue: last tile, normalise, store O ----
  ATTN_STEP();
  for (int mb = 0; mb < MB; ++mb) {
    float inv = 1.0f / l_i[mb];
    for (int d = 0; d < DS; ++d)
      for (int r = 0; r < 4; ++r)
        O[(long)(q0 + mb * 16 + frow) * HD + d * 16 + kgrp * 4 + r] = o[mb][d][r] * inv;
  }
}
