// pingpong-sim test input (issue 8): a GEMM whose K is a kernel argument, with
// the usual guard before the K loop (`if (K > BK)`: the prologue loads the
// first tile, the loop runs K/BK - 1 steps, the epilogue does the last one).
// The loop's trip count and the guard's direction depend on K, which the
// model knows only with `--arg K=...`; without it, pingpong-sim must choose
// the guard's direction by reachability of the loop.
//
//   clang++ -x hip --offload-arch=gfx942 -nogpulib -nogpuinc --offload-device-only -O3 -S
typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float float4_ __attribute__((ext_vector_type(4)));
#define BK 16
// __syncthreads(): the LDS writes before the barrier are complete (release
// fence: s_waitcnt lgkmcnt(0)) before any wave passes it
#define SYNC()                                                                 \
  do {                                                                         \
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");                     \
    __builtin_amdgcn_s_barrier();                                              \
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");                     \
  } while (0)
__attribute__((global)) __attribute__((amdgpu_flat_work_group_size(256, 256)))
void guarded_gemm(const half4 *__restrict__ A, const half4 *__restrict__ B, float4_ *__restrict__ C, int K) {
  __attribute__((shared)) half4 As[2][256];
  __attribute__((shared)) half4 Bs[2][256];
  int tid = __builtin_amdgcn_workitem_id_x();
  int wg = __builtin_amdgcn_workgroup_id_x();
  float4_ acc[4] = {};
  const half4 *a = A + wg * 256 * (K / BK) + tid;
  const half4 *b = B + wg * 256 * (K / BK) + tid;
  As[0][tid] = a[0];
  Bs[0][tid] = b[0];
  SYNC();
  int cur = 0;
#ifdef LOOP_UNLIKELY
  if (__builtin_expect(K > BK, 0)) {
#else
  if (K > BK) {
#endif
    for (int k = BK; k < K; k += BK) {
      half4 na = a[(k / BK) * 256], nb = b[(k / BK) * 256];
      for (int i = 0; i < 4; ++i) {
        half4 x = As[cur][(tid + i * 64) & 255];
        half4 y = Bs[cur][(tid * 3 + i * 64) & 255];
        acc[i] = __builtin_amdgcn_mfma_f32_16x16x16f16(x, y, acc[i], 0, 0, 0);
      }
      As[cur ^ 1][tid] = na;
      Bs[cur ^ 1][tid] = nb;
      SYNC();
      cur ^= 1;
    }
  }
  for (int i = 0; i < 4; ++i) {
    half4 x = As[cur][(tid + i * 64) & 255];
    half4 y = Bs[cur][(tid * 3 + i * 64) & 255];
    acc[i] = __builtin_amdgcn_mfma_f32_16x16x16f16(x, y, acc[i], 0, 0, 0);
  }
  for (int i = 0; i < 4; ++i)
    C[wg * 1024 + i * 256 + tid] = acc[i];
}
