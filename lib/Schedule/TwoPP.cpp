//===- TwoPP.cpp - dot sliced in two along K (8 warps) -------------------===//
//
// mem0: all LDS reads, then the global loads (the LDS port starts first and
// the loads issue in its shadow; on gfx950 the loads first, below); dot0: the first half of every
// accumulator's K steps; mem1: the LDS writes; dot1: the second half.
// s_barrier between clusters; the asymmetric sync puts waves 4-7 one
// cluster behind waves 0-3 (Triton's transformTwoPPClusters, with the LDS
// reads drained before every barrier: Triton #11696).
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"

namespace pingpong {

static const char *TwoPPLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
    "mem mem0: local-read; mem+ mem0.global: global-load; "
    "dot dot0: dot[0/2]; "
    "mem mem1: local-write; "
    "dot dot1: dot[1/2]";

// Where the LDS port reads 128 B/clk per SIMD pair (gfx950) the reads are no
// longer the memory cluster's critical path; the global loads' latency,
// which the LDS writes of mem1 wait for, is: the loads issue first and the
// reads run in their shadow. Model, cycles/iter (GEMM 8192^3), reads first
// -> loads first: gfx950 f16 NN 256x128x64 1490 -> 1406 (Triton-pp 1407,
// with its race fixed too), fp8 TN 256x128x128 1443 -> 1390; on gfx942
// (64 B/clk) every two-cluster corpus kernel loses that way (NN 256x128
// 2197 -> 2389, TN 2229 -> 2405: the reads start ~150 cycles later).
static const char *TwoPPLoadsFirstLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
    "mem mem0: global-load; mem+ mem0.lds: local-read; "
    "dot dot0: dot[0/2]; "
    "mem mem1: local-write; "
    "dot dot1: dot[1/2]";

// A side input (a scale vector) issues with the global loads.
static const char *TwoPPSideLoadLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
    "mem mem0: local-read; mem+ mem0.global: global-load, side-load; "
    "dot dot0: dot[0/2]; "
    "mem mem1: local-write; "
    "dot dot1: dot[1/2]";

std::optional<ClusterLayout> layoutTwoPP(const LoopModel &M, Rejection &Why) {
  if (!canSliceAcrossWaveGroups(M, 2, Mode::TwoPP, Why))
    return std::nullopt;
  const target::TargetFacts *T =
      target::factsFor(M.Body->getParent()->getSubtarget().getCPU());
  const bool LoadsFirst = T && T->LDSReadBytesPerClkPerSIMDPair >= 128;
  if (M.NumSideLoads)
    return builtinLayout(TwoPPSideLoadLayout, Mode::TwoPP, M, Why);
  return builtinLayout(LoadsFirst ? TwoPPLoadsFirstLayout : TwoPPLayout,
                       Mode::TwoPP, M, Why);
}

} // namespace pingpong
