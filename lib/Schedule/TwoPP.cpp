//===- TwoPP.cpp - dot sliced in two along K (8 warps) -------------------===//
//
// mem0: all LDS reads, then the global loads (the LDS port starts first and
// the loads issue in its shadow); dot0: the first half of every
// accumulator's K steps; mem1: the LDS writes; dot1: the second half.
// s_barrier between clusters; the asymmetric sync puts waves 4-7 one
// cluster behind waves 0-3 (Triton's transformTwoPPClusters, with the LDS
// reads drained before every barrier: Triton #11696).
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"

namespace pingpong {

static const char *TwoPPLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
    "mem mem0: local-read; mem+ mem0.global: global-load; "
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
  return builtinLayout(M.NumSideLoads ? TwoPPSideLoadLayout : TwoPPLayout,
                       Mode::TwoPP, M, Why);
}

} // namespace pingpong
