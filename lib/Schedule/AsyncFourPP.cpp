//===- AsyncFourPP.cpp - LDS-DMA GEMM, dot sliced in four (8 warps) ------===//
//
// Four-cluster (FourPP.cpp) for a two-stage loop whose operands reach LDS by
// DMA, for the large tiles whose reads do not all fit in registers at once:
// mem0: every DMA first (right after the barrier that frees its buffer),
// then the LDS reads of slice 0; dot0; mem1..mem3: the reads of slices 1-3,
// each before its dot. The DMA of iteration i is read in iteration i+1; with
// the other wave group one interval behind it is due at the end of mem3
// (Sync/SyncRules' dmaDeadline), seven of the eight intervals after it
// issues.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"

namespace pingpong {

static const char *AsyncFourPPLayout =
    "pingpong-layout v1; sync barrier asymmetric; "
    "mem mem0.dma: async-copy; mem+ mem0: local-read[0/4]; "
    "dot dot0: dot[0/4]; "
    "mem mem1: local-read[1/4]; dot dot1: dot[1/4]; "
    "mem mem2: local-read[2/4]; dot dot2: dot[2/4]; "
    "mem mem3: local-read[3/4]; dot dot3: dot[3/4]";

std::optional<ClusterLayout> layoutAsyncFourPP(const LoopModel &M,
                                               Rejection &Why) {
  if (!M.NumAsyncCopies) {
    Why.Reason = "async-four-cluster needs LDS DMA in the loop";
    return std::nullopt;
  }
  if (!canSliceAcrossWaveGroups(M, 4, Mode::AsyncFourPP, Why))
    return std::nullopt;
  return builtinLayout(AsyncFourPPLayout, Mode::AsyncFourPP, M, Why);
}

} // namespace pingpong
