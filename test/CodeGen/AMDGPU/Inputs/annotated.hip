// gemm.hip's kernel steered per kernel from HIP source, without -mllvm:
// __attribute__((annotate("amdgpu-pingpong=<mode>"))) on a declaration that
// the definition in gemm.hip inherits. -DPP_MODE=<mode> picks the mode.
#define PP_STR2(X) #X
#define PP_STR(X) PP_STR2(X)
// -DPP_ANNOTATION='"<text>"' gives the whole annotation instead.
#ifndef PP_ANNOTATION
#define PP_ANNOTATION "amdgpu-pingpong=" PP_STR(PP_MODE)
#endif
extern "C" __attribute__((global))
__attribute__((annotate(PP_ANNOTATION)))
void annotated_gemm(const unsigned short *__restrict__ A,
                    const unsigned short *__restrict__ B,
                    float *__restrict__ C, int M, int N, int K);
#define KNAME annotated_gemm
#include "../../../kernels/gemm.hip"
