//===- OnePP.cpp - one memory and one dot cluster (4 warps) --------------===//
//
// Two waves per SIMD come from two different workgroups, so no barrier is
// needed to phase-shift them: s_setprio alone keeps the wave in its dot
// cluster ahead of the other one's memory cluster. The memory cluster
// interleaves operand A's LDS reads and global loads, then B's (Triton's
// transformOnePPClusters); LDS writes and the loop's own barriers follow
// the dot, where they were.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"

namespace pingpong {

std::optional<ClusterLayout> layoutOnePP(const LoopModel &M, Rejection &Why) {
  ClusterLayout L;
  L.M = Mode::OnePP;
  L.Clusters = {{ClusterKind::Mem, "mem-a"},
                {ClusterKind::Mem, "mem-b"},
                {ClusterKind::Dot, "dot"},
                {ClusterKind::Mem, "store"}};
  L.Desired = [](const InstInfo &I) -> int {
    switch (I.R) {
    case Role::LocalRead:
    case Role::GlobalLoad:
      return I.Op == Operand::A ? 0 : 1;
    case Role::Dot: return 2;
    case Role::LocalWrite: return 3;
    default: return -1;
    }
  };
  return L;
}

} // namespace pingpong
