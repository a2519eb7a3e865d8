// Flash-attention forward (one head) with LDS DMA, gfx950, written the way a
// HIP user writes a double-buffered loop: one __shared__ staging array indexed
// by stage, __builtin_amdgcn_global_load_lds (16 bytes a lane) of the next K/V
// tile into the other stage, __syncthreads(), plain C++ loads from LDS (so
// clang -O3 gives them TBAA). No s_waitcnt in the source: the compiler must
// wait for the DMA before the reads of its stage.
//
//   O[BM rows of this workgroup, HD] = softmax(Q K^T * scale) V
//
// Iteration j: __syncthreads() (every wave is done with stage cur ^ 1, read
// in iteration j-1); DMA K/V tile j+1 into stage cur ^ 1; read K and V of
// stage cur, which the DMA of iteration j-1 (or the prologue) wrote; cur ^= 1.
// The last tile is peeled off the loop (one block: the in-pass checker
// -amdgpu-pingpong-verify reads single-block loops).
//
// This is the shape on which LLVM 22.1's SIInsertWaitcnts emits no vmcnt
// before the reads (issue 24, item 3; llvm/llvm-project PR #170660): the
// reads carry TBAA, the DMA no alias scope (one __shared__ variable: the
// module LDS lowering adds none), so no tracked DMA matches the read.
//
// Build:
//   clang++ -x hip --offload-arch=gfx950 -nogpulib -nogpuinc \
//       --offload-device-only -O3 -S -emit-llvm dma_attention.hip -o k.ll [-D...]
// Parameters (-D): BM (64), BN (32), HD (64), WAVES (4), KNAME.
// Both dots are computed transposed (as in attention.hip) on 16x16x16 f16
// MFMAs: S^T = K Q^T (A = K rows from LDS, ds_read_b64), O^T += V^T P^T
// (A = V^T: four 16-bit reads down a column of V, which the DMA copies
// row-major).

#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define DEV static inline __attribute__((device, always_inline))

#ifndef BM
#define BM 64
#endif
#ifndef BN
#define BN 32
#endif
#ifndef HD
#define HD 64
#endif
#ifndef WAVES
#define WAVES 4
#endif
#ifndef KNAME
#define KNAME dma_attention
#endif

typedef unsigned int u32;
typedef unsigned short u16;
typedef _Float16 h4 __attribute__((ext_vector_type(4)));
typedef float f4 __attribute__((ext_vector_type(4)));

#define NT (64 * WAVES)
#define WROWS (BM / WAVES)
#define MB (WROWS / 16)
#define NB (BN / 16)
#define DS (HD / 16)
#define TILE (BN * HD)                 // elements of one K (or V) tile
#define CPL (TILE * 2 / (16 * NT))     // 16-byte copies per lane per tile

_Static_assert(WROWS % 16 == 0 && BN % 16 == 0 && HD % 16 == 0, "shape");
_Static_assert(CPL >= 1 && TILE * 2 % (16 * NT) == 0, "a tile splits over the lanes");

DEV void __syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// [K, V][stage]: the tiles, row-major [BN][HD].
__shared__ __attribute__((aligned(16))) _Float16 kv[2][2][TILE];

// One tile, row-major, lane-linear: copy i of a wave lands at
// + (i * NT + wave * 64) * 16 bytes, lane l at + l * 16 of that.
DEV void copy_tile(const _Float16 *src, _Float16 *dst, u32 tid, u32 wave) {
#pragma unroll
  for (int i = 0; i < CPL; ++i)
    __builtin_amdgcn_global_load_lds(
        (void *)((const char *)src + (i * NT + tid) * 16),
        (__attribute__((address_space(3))) void *)((char *)dst + (i * NT + wave * 64) * 16),
        16, 0, 0);
}

DEV float shfl_xor(float v, u32 lane, u32 mask) {
  return __builtin_bit_cast(float, __builtin_amdgcn_ds_bpermute(
                                       (int)((lane ^ mask) << 2), __builtin_bit_cast(int, v)));
}

// One iteration on the K/V tiles of one stage: S^T = K Q^T, the online
// softmax, O^T += V^T P^T.
DEV void attn_step(const _Float16 *kt, const _Float16 *vt, const h4 (&qf)[MB][DS],
                   f4 (&o)[MB][DS], float (&m_i)[MB], float (&l_i)[MB], u32 lane,
                   float scale_log2e) {
  const u32 frow = lane % 16, kgrp = lane / 16;
  // S^T[n][m] = K[n][:] . Q[m][:]
  f4 s[MB][NB];
  for (int nb = 0; nb < NB; ++nb) {
    h4 kf[DS];
    for (int ds = 0; ds < DS; ++ds)
      kf[ds] = *(const h4 *)(kt + (nb * 16 + frow) * HD + ds * 16 + kgrp * 4);
    for (int mb = 0; mb < MB; ++mb) {
      s[mb][nb] = (f4)0.0f;
      for (int ds = 0; ds < DS; ++ds)
        s[mb][nb] = __builtin_amdgcn_mfma_f32_16x16x16f16(kf[ds], qf[mb][ds], s[mb][nb], 0, 0, 0);
    }
  }
  // online softmax over n (m = lane % 16 in the S^T layout)
  h4 pf[MB][NB];
  for (int mb = 0; mb < MB; ++mb) {
    float mx = s[mb][0][0];
    for (int nb = 0; nb < NB; ++nb)
      for (int r = 0; r < 4; ++r) mx = __builtin_fmaxf(mx, s[mb][nb][r]);
    mx = __builtin_fmaxf(mx, shfl_xor(mx, lane, 16));
    mx = __builtin_fmaxf(mx, shfl_xor(mx, lane, 32));
    float mnew = __builtin_fmaxf(m_i[mb], mx * scale_log2e);
    float alpha = __builtin_amdgcn_exp2f(m_i[mb] - mnew);
    float rs = 0.0f;
    for (int nb = 0; nb < NB; ++nb) {
      float p[4];
      for (int r = 0; r < 4; ++r) {
        p[r] = __builtin_amdgcn_exp2f(s[mb][nb][r] * scale_log2e - mnew);
        rs += p[r];
      }
      pf[mb][nb] = (h4){(_Float16)p[0], (_Float16)p[1], (_Float16)p[2], (_Float16)p[3]};
    }
    rs += shfl_xor(rs, lane, 16);
    rs += shfl_xor(rs, lane, 32);
    l_i[mb] = l_i[mb] * alpha + rs;
    m_i[mb] = mnew;
    for (int d = 0; d < DS; ++d) o[mb][d] *= alpha;
  }
  // O^T[d][m] += V^T[d][n] . P^T[n][m]
  for (int d = 0; d < DS; ++d)
    for (int nb = 0; nb < NB; ++nb) {
      h4 vf;
      for (int r = 0; r < 4; ++r)
        vf[r] = vt[(nb * 16 + kgrp * 4 + r) * HD + d * 16 + frow];
      for (int mb = 0; mb < MB; ++mb)
        o[mb][d] = __builtin_amdgcn_mfma_f32_16x16x16f16(vf, pf[mb][nb], o[mb][d], 0, 0, 0);
    }
}

extern "C" __global__ __attribute__((amdgpu_flat_work_group_size(NT, NT)))
void KNAME(const _Float16 *__restrict__ Q, const _Float16 *__restrict__ K,
           const _Float16 *__restrict__ V, float *__restrict__ O, int Nkv,
           float scale_log2e) {
  const u32 tid = __builtin_amdgcn_workitem_id_x();
  const u32 lane = tid % 64;
  const u32 wave = __builtin_amdgcn_readfirstlane(tid / 64);
  const u32 q0 = __builtin_amdgcn_workgroup_id_x() * BM + wave * WROWS;
  const u32 frow = lane % 16, kgrp = lane / 16;
  const int nkb = Nkv / BN;

  h4 qf[MB][DS];
  for (int mb = 0; mb < MB; ++mb)
    for (int ds = 0; ds < DS; ++ds)
      qf[mb][ds] = *(const h4 *)(Q + (long)(q0 + mb * 16 + frow) * HD + ds * 16 + kgrp * 4);

  f4 o[MB][DS];
  float m_i[MB], l_i[MB];
  for (int mb = 0; mb < MB; ++mb) {
    m_i[mb] = -__builtin_inff();
    l_i[mb] = 0.0f;
    for (int d = 0; d < DS; ++d) o[mb][d] = (f4)0.0f;
  }

  int cur = 0;
  copy_tile(K, kv[0][0], tid, wave);
  copy_tile(V, kv[1][0], tid, wave);
#pragma clang loop unroll(disable)
  for (int j = 0; j + 1 < nkb; ++j) {
#if WAVES > 1
    __syncthreads();                 // stage cur ^ 1 is free again
#endif
    copy_tile(K + (long)(j + 1) * TILE, kv[0][cur ^ 1], tid, wave);
    copy_tile(V + (long)(j + 1) * TILE, kv[1][cur ^ 1], tid, wave);
    attn_step(kv[0][cur], kv[1][cur], qf, o, m_i, l_i, lane, scale_log2e);
    cur ^= 1;
  }
#if WAVES > 1
  __syncthreads();
#endif
  attn_step(kv[0][cur], kv[1][cur], qf, o, m_i, l_i, lane, scale_log2e);

  for (int mb = 0; mb < MB; ++mb) {
    float inv = 1.0f / l_i[mb];
    for (int d = 0; d < DS; ++d)
      for (int r = 0; r < 4; ++r)
        O[(long)(q0 + mb * 16 + frow) * HD + d * 16 + kgrp * 4 + r] = o[mb][d][r] * inv;
  }
}
