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
// At two stages, where the copies' loaded round trip and bytes outlast an
// iteration (asyncOneOperandWait), the operand-split wait comes first: the
// layout's own barriers, each waiting for one operand's copies.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"
#include "pingpong/Analysis/Throughput.h"

#include <string>

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
// Two stages, where a copy's loaded round trip and the workgroup's copy
// bytes at the CU's L2 share outlast an iteration's MFMA time (the loop-top
// vmcnt(0) holds each copy to one iteration: round trip + drain): the wait
// split by operand (issue 28, session 18). Every DMA first, the first
// operand's reads; a barrier that waits for that operand's copies only; the
// other operand's reads in the gated dot. vmcnt counts in issue order, so
// the first operand (LLVM keeps the DMAs in program order) is the one read
// first; each barrier waits for half the bytes, the other half stays in
// flight across it (ClusterPlan dmaWaits, operand-waits, barriers without
// the skew: SyncRules' Behind = 0). Model, LoadedRoundTrip 1000,
// mm_f16_nn_128x128x64_w4_ns2_gfx950_async (docs/modes.md, "Session 18"):
// 1507 -> 1295 cycles per iteration (MFMA bound 1031; llc-22 1507); the
// same with a third barrier between the two operands' reads 1294; the
// second operand's DMA after the first's reads 1295.
static const char *AsyncOnePPOperandWaitFirstA =
    "pingpong-layout v1; sync barrier gate dot-waits operand-waits; "
    "mem mem: async-copy, local-read.a; "
    "dot dot: local-read, dot";
static const char *AsyncOnePPOperandWaitFirstB =
    "pingpong-layout v1; sync barrier gate dot-waits operand-waits; "
    "mem mem: async-copy, local-read.b; "
    "dot dot: local-read, dot";

bool asyncOneOperandWait(const LoopModel &M) {
  if (M.NumStages != 2 || !M.NumAsyncCopies)
    return false;
  const unsigned RoundTrip = loadedRoundTrip(M);
  CopyBound CB = copyBound(M);
  if (!RoundTrip || !CB.Known)
    return false;
  // Both operands copied: there is a second wait to split off.
  bool A = false, B = false;
  for (const InstInfo &I : M.Insts)
    if (I.R == Role::AsyncCopy) {
      A |= I.Op == Operand::A || I.Op == Operand::ScaleA;
      B |= I.Op == Operand::B || I.Op == Operand::ScaleB;
    }
  // Two workgroups per CU: an iteration at the MFMA bound is both waves'
  // dots on a SIMD.
  return A && B && RoundTrip + CB.CopyClocks > 2.0 * CB.MFMAClocks;
}

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

// The copies one tile ahead (DMALookahead.cpp): every copy after every
// read, in the buffer just read. The plain layout's order with the copies
// last, as it ran these loops while Stages.cpp could not name their
// operand (docs/modes.md, "DMA lookahead").
static const char *AsyncOnePPLayoutCopiesAhead =
    "pingpong-layout v1; sync gate dot-waits; "
    "mem mem-a: local-read.a; "
    "mem mem-b: local-read, async-copy; "
    "dot dot: dot";

// The same with a dot result's side inputs loaded an iteration ahead
// (mm_blockscale's scales): those loads first, before the copies (a wait
// for them in issue order then leaves this iteration's copies in flight),
// and the header PHIs' latch copies in an empty cluster at the end
// (sideLoadsEarly). The copies, behind the barrier that ends every wave's
// reads of their buffer, go after the dot: that barrier's drain then no
// longer holds the dot's first MFMA until every read has landed (each
// MFMA waits for its own operands), and the scaling VALU goes with them,
// out of the gated dot. Model, cycles per iteration (docs/modes.md
// "Session 23: gemm4w3s"), tuning mmblock / mmblockrc fp8 128x64x128:
// copies in mem-b 1362 / 1530, after the dot 1326 / 1479.
static const char *AsyncOnePPLayoutCopiesAheadSideEarly =
    "pingpong-layout v1; sync gate dot-waits side-loads-early; "
    "mem mem-a: side-load~1, local-read.a; "
    "mem mem-b: local-read; "
    "dot dot: dot; mem mem-c: async-copy; dot tail prio=0:";

Operand firstDMAOperand(const LoopModel &M) {
  for (const InstInfo &I : M.Insts)
    if (I.R == Role::AsyncCopy && I.Op != Operand::None)
      return I.Op;
  return Operand::A;
}

AsyncOneMemory asyncOneMemory(const LoopModel &M, bool OperandWaits) {
  AsyncOneMemory R;
  R.OperandWaits = OperandWaits;
  IssueBound B = issueBound(M, 1);
  R.Known = B.Known;
  R.NonMFMA = B.NonMFMA;
  R.MFMAs = B.MFMAs;
  R.LDSTrips = B.LDSTrips;
  R.DotClocks = B.MFMAClocks;
  R.Clocks = B.memoryIntervalClocks();
  if (!B.Known || R.Clocks <= B.MFMAClocks)
    return R;
  const Operand First = firstDMAOperand(M);
  auto Own = [](Operand Op) {
    return Op == Operand::ScaleA   ? Operand::A
           : Op == Operand::ScaleB ? Operand::B
                                   : Op;
  };
  if (OperandWaits) {
    // The operand-split wait's dot takes every read of the other operand
    // (its scale's too); the DMAs stay in the memory cluster.
    for (const InstInfo &I : M.Insts)
      R.MovedToDot += I.R == Role::LocalRead && Own(I.Op) != First;
    R.Clocks -= IssueTurnClocks * std::min(R.MovedToDot, R.NonMFMA);
    return R;
  }
  // The split variant: what its dot takes leaves the memory cluster (the
  // moved DMAs' address work too, not counted: the estimate stays a floor).
  R.Split = true;
  for (const InstInfo &I : M.Insts) {
    const bool Read = I.R == Role::LocalRead && M.slice(I, 2) == 1;
    const bool LateDMA = I.R == Role::AsyncCopy && Own(I.Op) != First;
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
  if (mixedStageShape(M))
    return layoutMixedStage(M, Why);
  if (M.copiesOneTileAhead())
    return builtinLayout(sideLoadsEarly(M) ? AsyncOnePPLayoutCopiesAheadSideEarly
                                           : AsyncOnePPLayoutCopiesAhead,
                         Mode::AsyncOnePP, M, Why);
  const bool B = firstDMAOperand(M) == Operand::B;
  if (asyncOneOperandWait(M)) {
    Rejection Ignored;
    std::optional<ClusterLayout> L =
        builtinLayout(B ? AsyncOnePPOperandWaitFirstB
                        : AsyncOnePPOperandWaitFirstA,
                      Mode::AsyncOnePP, M, Ignored);
    if (L) {
      CopyBound CB = copyBound(M);
      L->Note = "a copy's loaded round trip (" +
                std::to_string(loadedRoundTrip(M)) + " clocks) and the " +
                std::to_string(CB.Bytes) + " B it queues behind (" +
                std::to_string(unsigned(CB.CopyClocks)) +
                " clocks at the CU's L2 share) outlast an iteration's " +
                std::to_string(2 * CB.MFMAClocks) +
                " MFMA clocks per SIMD: the wait is split by operand";
      return L;
    }
  }
  if (asyncOneMemory(M).Split)
    return builtinLayout(B ? AsyncOnePPSplitFirstB : AsyncOnePPSplitFirstA,
                         Mode::AsyncOnePP, M, Why);
  return builtinLayout(B ? AsyncOnePPLayoutFirstB : AsyncOnePPLayoutFirstA,
                       Mode::AsyncOnePP, M, Why);
}

} // namespace pingpong
