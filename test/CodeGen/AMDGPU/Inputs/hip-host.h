// Just enough of the HIP runtime's host interface for clang to emit the host
// side of a kernel (its launch stub): no HIP installation is needed.
#pragma once
struct dim3 {
  unsigned x, y, z;
  __attribute__((host, device)) dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1) : x(X), y(Y), z(Z) {}
};
typedef struct ihipStream_t *hipStream_t;
extern "C" int hipLaunchKernel(const void *Kernel, dim3 Grid, dim3 Block, void **Args,
                               unsigned long SharedBytes, hipStream_t Stream);
