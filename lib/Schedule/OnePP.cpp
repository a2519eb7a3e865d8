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

// The memory cluster is cut by operand: A's reads and loads, then B's (reads
// and loads of an unknown operand go with B).
static const char *OnePPLayout =
    "pingpong-layout v1; sync delay-global-data gate; "
    "mem mem-a: local-read.a, global-load.a; "
    "mem mem-b: local-read, global-load; "
    "dot dot: dot; "
    "mem store: local-write";

std::optional<ClusterLayout> layoutOnePP(const LoopModel &M, Rejection &Why) {
  return builtinLayout(OnePPLayout, Mode::OnePP, M, Why);
}

} // namespace pingpong
