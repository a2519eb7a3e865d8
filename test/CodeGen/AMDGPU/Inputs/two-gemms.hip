// Two 8-wave 256x128 GEMM K loops in one kernel (two-skewed-loops.test):
// gemm.hip's kernel as an always-inline device function (the test makes
// gemm-device.hip from it with sed), called twice with a __syncthreads
// between the first loop's LDS reads and the second prologue's writes.
#define BM 256
#define BN 128
#define WAVES 8
#define KNAME gemm_body
#include "gemm-device.hip"
extern "C" __attribute__((global)) __attribute__((amdgpu_flat_work_group_size(512, 512)))
void two_gemms(const unsigned short *__restrict__ A, const unsigned short *__restrict__ B,
               float *__restrict__ C, float *__restrict__ D, int M, int N, int K) {
  gemm_body(A, B, C, M, N, K);
  sync_threads();
  gemm_body(B, A, D, M, N, K);
}
