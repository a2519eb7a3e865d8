//===- AsyncOnePP.cpp - LDS-DMA GEMM, one cluster each (4 warps) ---------===//
//
// One-cluster (OnePP.cpp) for a loop whose operands reach LDS by DMA: the
// two waves of a SIMD are of two workgroups, paced by the gated dot, and the
// loop keeps its own wait and barrier (they order the DMA against the
// workgroup's reads; the dependences keep them before both). The memory
// cluster: A's DMA first (the memory pipe starts at once), A's LDS reads,
// then B's reads and DMA; the dot waits for its own operands.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"

namespace pingpong {

// DMA of an unknown operand goes with B.
static const char *AsyncOnePPLayout =
    "pingpong-layout v1; sync gate dot-waits; "
    "mem mem-g: async-copy.a; "
    "mem mem-a: local-read.a; "
    "mem mem-b: local-read, async-copy; "
    "dot dot: dot";

std::optional<ClusterLayout> layoutAsyncOnePP(const LoopModel &M,
                                              Rejection &Why) {
  if (!M.NumAsyncCopies) {
    Why.Reason = "async-one-cluster needs LDS DMA in the loop";
    return std::nullopt;
  }
  return builtinLayout(AsyncOnePPLayout, Mode::AsyncOnePP, M, Why);
}

} // namespace pingpong
