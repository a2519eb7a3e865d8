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
  ClusterLayout L;
  L.M = Mode::FourPP;
  L.BarrierBetweenClusters = L.AsymmetricSync = true;
  L.DelayGlobalDataUse = true;
  // Each memory cluster reads LDS first, then issues its global loads.
  L.Clusters = {{ClusterKind::Mem, "mem0"},
                {ClusterKind::Mem, "mem0.global", /*Joined=*/true},
                {ClusterKind::Dot, "dot0"},
                {ClusterKind::Mem, "mem1"},
                {ClusterKind::Mem, "mem1.global", /*Joined=*/true},
                {ClusterKind::Dot, "dot1"},
                {ClusterKind::Mem, "mem2"}, {ClusterKind::Dot, "dot2"},
                {ClusterKind::Mem, "mem3"}, {ClusterKind::Dot, "dot3"}};
  L.Desired = [Dots = M.NumDots](const InstInfo &I) -> int {
    unsigned Slice = LoopModel::dotSlice(I, 4, Dots);
    switch (I.R) {
    case Role::LocalRead: return Slice == 0 ? 0 : (Slice == 1 ? 3 : 6);
    case Role::GlobalLoad: return I.Op == Operand::B ? 4 : 1;
    case Role::Dot: return Slice == 0 ? 2 : (Slice == 1 ? 5 : 3 + 2 * Slice);
    case Role::LocalWrite: return 8;
    default: return -1;
    }
  };
  return L;
}

} // namespace pingpong
