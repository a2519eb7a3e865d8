// neg_epilogue: persistent GEMM, flattened (tile,k) loop with 'if (kt == nk-1) { store C; acc = 0; }' inside the loop: control flow. (Triton accepts its scf.if-based persistent_epilogue tests; at machine level the body is not one block.)
// Wrapper around gemm.hip; every -D of gemm.hip may still be overridden.
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 64
#endif
#ifndef WAVES
#define WAVES 4
#endif
#define VARIANT epilogue
#include "gemm.hip"
