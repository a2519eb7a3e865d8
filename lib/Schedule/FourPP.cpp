//===- FourPP.cpp - dot sliced in four along K (8 warps) -----------------===//
//
// mem0: LDS reads of K slice 0, global loads of A; dot0;
// mem1: global loads of B, LDS reads of slice 1; dot1;
// mem2: LDS reads of slices 2 and 3; dot2;
// mem3: LDS writes; dot3.
// Each slice's reads sit in the memory cluster before its dot, so fewer
// operand registers are live at once than with all reads up front
// (Triton's transformFourPPClusters).
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"

namespace pingpong {

std::optional<ClusterLayout> layoutFourPP(const LoopModel &M, Rejection &Why) {
  if (!canSliceAcrossWaveGroups(M, 4, Mode::FourPP, Why))
    return std::nullopt;
  unsigned Quarter = M.ChainLen / 4;
  ClusterLayout L;
  L.M = Mode::FourPP;
  L.BarrierBetweenClusters = L.AsymmetricSync = true;
  L.Clusters = {{ClusterKind::Mem, "mem0"}, {ClusterKind::Dot, "dot0"},
                {ClusterKind::Mem, "mem1"}, {ClusterKind::Dot, "dot1"},
                {ClusterKind::Mem, "mem2"}, {ClusterKind::Dot, "dot2"},
                {ClusterKind::Mem, "mem3"}, {ClusterKind::Dot, "dot3"}};
  L.Desired = [Quarter](const InstInfo &I) -> int {
    unsigned Slice = I.KStep / Quarter;
    switch (I.R) {
    case Role::LocalRead: return Slice == 0 ? 0 : (Slice == 1 ? 2 : 4);
    case Role::GlobalLoad: return I.Op == Operand::B ? 2 : 0;
    case Role::Dot: return 2 * Slice + 1;
    case Role::LocalWrite: return 6;
    default: return -1;
    }
  };
  return L;
}

} // namespace pingpong
