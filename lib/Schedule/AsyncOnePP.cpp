//===- AsyncOnePP.cpp - LDS-DMA GEMM, one cluster each (4 warps) ---------===//
//
// One-cluster (OnePP.cpp) for a loop whose operands reach LDS by DMA: the
// two waves of a SIMD are of two workgroups, paced by the gated dot, and the
// loop keeps its own wait and barrier (they order the DMA against the
// workgroup's reads; the dependences keep them before both). The memory
// cluster: the first operand's DMA (the memory pipe starts at once), its
// LDS reads, then the other operand's reads and DMA; the dot waits for its own operands.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"

namespace pingpong {

// "first": the operand whose DMA the loop issues first; DMA of an unknown
// operand goes with the other one.
static const char *AsyncOnePPLayoutFirstA =
    "pingpong-layout v1; sync gate dot-waits; "
    "mem mem-g: async-copy.a; "
    "mem mem-a: local-read.a; "
    "mem mem-b: local-read, async-copy; "
    "dot dot: dot";
static const char *AsyncOnePPLayoutFirstB =
    "pingpong-layout v1; sync gate dot-waits; "
    "mem mem-g: async-copy.b; "
    "mem mem-a: local-read.b; "
    "mem mem-b: local-read, async-copy; "
    "dot dot: dot";

Operand firstDMAOperand(const LoopModel &M) {
  for (const InstInfo &I : M.Insts)
    if (I.R == Role::AsyncCopy && I.Op != Operand::None)
      return I.Op;
  return Operand::A;
}

std::optional<ClusterLayout> layoutAsyncOnePP(const LoopModel &M,
                                              Rejection &Why) {
  if (!M.NumAsyncCopies) {
    Why.Reason = "async-one-cluster needs LDS DMA in the loop";
    return std::nullopt;
  }
  return builtinLayout(firstDMAOperand(M) == Operand::B
                           ? AsyncOnePPLayoutFirstB
                           : AsyncOnePPLayoutFirstA,
                       Mode::AsyncOnePP, M, Why);
}

} // namespace pingpong
