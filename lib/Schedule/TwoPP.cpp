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

std::optional<ClusterLayout> layoutTwoPP(const LoopModel &M, Rejection &Why) {
  if (!canSliceAcrossWaveGroups(M, 2, Mode::TwoPP, Why))
    return std::nullopt;
  ClusterLayout L;
  L.M = Mode::TwoPP;
  L.BarrierBetweenClusters = L.AsymmetricSync = true;
  L.DelayGlobalDataUse = true;
  L.Clusters = {{ClusterKind::Mem, "mem0"},
                {ClusterKind::Mem, "mem0.global", /*Joined=*/true},
                {ClusterKind::Dot, "dot0"},
                {ClusterKind::Mem, "mem1"},
                {ClusterKind::Dot, "dot1"}};
  L.Desired = [Dots = M.NumDots](const InstInfo &I) -> int {
    switch (I.R) {
    case Role::LocalRead: return 0;
    case Role::GlobalLoad: return 1;
    case Role::Dot: return LoopModel::dotSlice(I, 2, Dots) == 0 ? 2 : 4;
    case Role::LocalWrite: return 3;
    default: return -1;
    }
  };
  return L;
}

} // namespace pingpong
