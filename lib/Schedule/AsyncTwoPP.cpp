//===- AsyncTwoPP.cpp - LDS-DMA GEMM, two wave groups (8 warps) ----------===//
//
// Triton's TwoClusterWithLocalLoadAndAll on gfx950: the operands reach LDS
// by DMA (buffer_load ... lds), so an iteration has no LDS writes and no
// register-staged global data. mem0: the DMA the loop issues first (Triton's
// A), then every LDS read; barrier; dot0: the MFMAs with SALU work
// interleaved (one MFMA, three SALU) and the other operand's DMA among the
// first of them (an interleave group, so the final check knows it is meant
// to be there); barrier. The asymmetric sync runs waves 4-7 one interval
// behind, so one group's LDS reads and DMA overlap the other's MFMAs.
// Triton issues the reads before the DMA; issuing the DMA first, right after
// the barrier that frees its buffer (the LDS-DMA hoist), measured 1031
// against 1039 cycles per iteration on mm_bf16_nn_256x256x32_w8_ns3 (the
// MFMA bound is 1024).
// Waits: a DMA is due (vmcnt, in the wave that issued it) at the barrier
// Sync/SyncRules' dmaDeadline names; the plan computes the count
// (ClusterPlan::VmWaitBefore). With three stages that is the middle barrier,
// as in Triton's output (vmcnt = the first DMA of this iteration).
// With two stages the DMA of iteration i is read in iteration i+1, so in
// two intervals it would be due at the barrier right after it issues (the
// whole DMA latency exposed). Four intervals instead, as two-cluster: mem0
// all DMA first (right after the barrier that frees its buffer: the
// LDS-DMA hoist) and the first half of the reads; dot0 the first half of
// the MFMAs; mem1 the other reads; dot1 the second half. The DMA is due at
// the end of mem1: it has three of the four intervals to land. In the model
// (256x128x64 bf16) all reads in mem0 made it 1669 cycles per iteration
// (mem0 twice as long as a dot half), the DMA after the reads 1804.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"

namespace pingpong {

// Three or more stages: Triton's clusters. "First" is the operand whose DMA
// the loop issues first (Triton's A; LLVM keeps the DMAs in order, and the
// MFMA may take Triton's A as its B); DMA of an unknown operand goes with it.
static const char *AsyncTwoPPLayoutFirstA =
    "pingpong-layout v1; sync barrier asymmetric; "
    "mem mem0.dma: async-copy.a, async-copy.-; mem+ mem0: local-read; "
    "dot dot0: async-copy.b, dot; "
    "interleave dot0: mfma 1, salu 3, vmem-read 1";
static const char *AsyncTwoPPLayoutFirstB =
    "pingpong-layout v1; sync barrier asymmetric; "
    "mem mem0.dma: async-copy.b, async-copy.-; mem+ mem0: local-read; "
    "dot dot0: async-copy.a, dot; "
    "interleave dot0: mfma 1, salu 3, vmem-read 1";

// Two stages: the DMA needs more than one interval to land.
static const char *AsyncTwoPPLayoutNS2 =
    "pingpong-layout v1; sync barrier asymmetric; "
    "mem mem0.dma: async-copy; mem+ mem0: local-read[0/2]; "
    "dot dot0: dot[0/2]; "
    "mem mem1: local-read[1/2]; "
    "dot dot1: dot[1/2]";

Operand firstDMAOperand(const LoopModel &M) {
  for (const InstInfo &I : M.Insts)
    if (I.R == Role::AsyncCopy && I.Op != Operand::None)
      return I.Op;
  return Operand::A;
}

std::optional<ClusterLayout> layoutAsyncTwoPP(const LoopModel &M,
                                              Rejection &Why) {
  if (!M.NumAsyncCopies) {
    Why.Reason = "async-two-cluster needs LDS DMA in the loop";
    return std::nullopt;
  }
  bool TwoStages = M.NumStages == 2;
  if (!canSliceAcrossWaveGroups(M, TwoStages ? 2 : 1, Mode::AsyncTwoPP, Why))
    return std::nullopt;
  Operand First = firstDMAOperand(M);
  const char *Text = TwoStages              ? AsyncTwoPPLayoutNS2
                     : First == Operand::B ? AsyncTwoPPLayoutFirstB
                                           : AsyncTwoPPLayoutFirstA;
  return builtinLayout(Text, Mode::AsyncTwoPP, M, Why);
}

} // namespace pingpong
