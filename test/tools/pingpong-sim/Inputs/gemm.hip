typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float float4_ __attribute__((ext_vector_type(4)));
__attribute__((global)) __attribute__((amdgpu_flat_work_group_size(256,256)))
void gemm(const half4* __restrict__ A, const half4* __restrict__ B, float4_* __restrict__ C, int K) {
  __attribute__((shared)) half4 As[2][256];
  __attribute__((shared)) half4 Bs[2][256];
  int tid = __builtin_amdgcn_workitem_id_x();
  int wg = __builtin_amdgcn_workgroup_id_x();
  float4_ acc[4] = {};
  const half4* a = A + wg * 256 * (K/16) + tid;
  const half4* b = B + wg * 256 * (K/16) + tid;
  As[0][tid] = a[0]; Bs[0][tid] = b[0];
  __builtin_amdgcn_s_barrier();
  for (int k = 0; k < K; k += 16) {
    int cur = (k/16) & 1;
    half4 na = a[(k/16+1)*256], nb = b[(k/16+1)*256];
    for (int i = 0; i < 4; ++i) {
      half4 x = As[cur][(tid + i*64) & 255];
      half4 y = Bs[cur][(tid*3 + i*64) & 255];
      acc[i] = __builtin_amdgcn_mfma_f32_16x16x16f16(x, y, acc[i], 0, 0, 0);
    }
    As[cur^1][tid] = na; Bs[cur^1][tid] = nb;
    __builtin_amdgcn_s_barrier();
  }
  for (int i = 0; i < 4; ++i) C[wg*1024 + i*256 + tid] = acc[i];
}
