//===- AsyncOnePP.cpp - LDS-DMA GEMM, one cluster each (4 warps) ---------===//
//
// One-cluster (OnePP.cpp) for a loop whose operands reach LDS by DMA: the
// two waves of a SIMD are of two workgroups, paced by the gated dot, and the
// loop keeps its own wait and barrier (they order the DMA against the
// workgroup's reads; the dependences keep them before both). The memory
// cluster: the first operand's DMA (the memory pipe starts at once), its
// LDS reads, then the other operand's reads and DMA; the dot waits for its own operands.
//
// Where that memory cluster outlasts the partner's dot (asyncOneMemory), the
// split variant keeps in it only the first operand's DMA and the first K
// half's reads, and moves the second half's reads and the other operand's
// DMA (with its address work) into the first half of the dot, in the shadow
// of its MFMAs.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"
#include "pingpong/Analysis/Throughput.h"

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
// The split variant (the DMAs stay in program order: they share M0).
static const char *AsyncOnePPSplitFirstA =
    "pingpong-layout v1; sync gate dot-waits; "
    "mem mem: async-copy.a, local-read[0/2]; "
    "dot dot0: dot[0/2], local-read[1/2], async-copy; "
    "dot dot1: dot[1/2]";
static const char *AsyncOnePPSplitFirstB =
    "pingpong-layout v1; sync gate dot-waits; "
    "mem mem: async-copy.b, local-read[0/2]; "
    "dot dot0: dot[0/2], local-read[1/2], async-copy; "
    "dot dot1: dot[1/2]";

Operand firstDMAOperand(const LoopModel &M) {
  for (const InstInfo &I : M.Insts)
    if (I.R == Role::AsyncCopy && I.Op != Operand::None)
      return I.Op;
  return Operand::A;
}

AsyncOneMemory asyncOneMemory(const LoopModel &M) {
  AsyncOneMemory R;
  IssueBound B = issueBound(M, 1);
  R.Known = B.Known;
  R.NonMFMA = B.NonMFMA;
  R.MFMAs = B.MFMAs;
  R.LDSTrips = B.LDSTrips;
  R.DotClocks = B.MFMAClocks;
  R.Clocks = B.memoryIntervalClocks();
  if (!B.Known || R.Clocks <= B.MFMAClocks)
    return R;
  // The split variant: what its dot takes leaves the memory cluster (the
  // moved DMAs' address work too, not counted: the estimate stays a floor).
  R.Split = true;
  const Operand First = firstDMAOperand(M);
  for (const InstInfo &I : M.Insts) {
    const bool Read = I.R == Role::LocalRead && M.slice(I, 2) == 1;
    const Operand Own = I.Op == Operand::ScaleA   ? Operand::A
                        : I.Op == Operand::ScaleB ? Operand::B
                                                  : I.Op;
    const bool LateDMA = I.R == Role::AsyncCopy && Own != First;
    R.MovedToDot += Read || LateDMA;
  }
  R.Clocks -= IssueTurnClocks * std::min(R.MovedToDot, R.NonMFMA);
  return R;
}

std::optional<ClusterLayout> layoutAsyncOnePP(const LoopModel &M,
                                              Rejection &Why) {
  if (!M.NumAsyncCopies) {
    Why.Reason = "async-one-cluster needs LDS DMA in the loop";
    return std::nullopt;
  }
  const bool B = firstDMAOperand(M) == Operand::B;
  if (asyncOneMemory(M).Split)
    return builtinLayout(B ? AsyncOnePPSplitFirstB : AsyncOnePPSplitFirstA,
                         Mode::AsyncOnePP, M, Why);
  return builtinLayout(B ? AsyncOnePPLayoutFirstB : AsyncOnePPLayoutFirstA,
                       Mode::AsyncOnePP, M, Why);
}

} // namespace pingpong
