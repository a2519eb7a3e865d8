//===- SkinnyPP.cpp - skinny: seed 004's v2 (8 waves), seed 002 (4 waves) -===//
//
// 8 waves, by name:
// Seed 004 (MXFP4, M=128, N large, K=16384: HBM-bound) splits the wait for
// the LDS DMA by operand: one half waits for A and its scales only, the
// other for B and its scales, so the other operand's copies stay in flight
// and the HBM queue never drains. At machine level, on Triton's IR:
// - every MFMA reads both operands, so the dot cannot be cut by operand:
//   the whole dot follows both operands' reads;
// - the loop issues one operand's DMA first and keeps that order (m0 chain,
//   firstDMAOperand), and vmcnt counts in issue order: that operand must be
//   the one read first (waited for first);
// - two stages under the asymmetric sync (lib/Sync dmaAfterLastRead,
//   dmaDeadline): with two intervals per iteration, as the seed draws it, a
//   DMA is due at the barrier right after it issues (or refills a buffer the
//   other group still reads). Four intervals: the first operand's reads,
//   an empty dot interval (the other group's first reads run under it), the
//   second operand's reads, the dot.
//   mem0: every DMA; fence; first operand's reads | dot0: - |
//   mem1: second operand's reads | dot1: every MFMA
// The plan waits per operand (`operand-waits`, ClusterPlan dmaWaits):
// before mem1's reads only the first operand's DMA of this iteration (vmcnt
// = the other's copies), before dot0 the second operand's of the last
// iteration (vmcnt = every copy of this one), so a full iteration's copies
// are always queued.
// Measured in the model on mxfp4_e2m1_128x128x512_w8_ns2_async
// (docs/modes.md): at M=128, N=106496 4123 cycles/iter against the HBM
// roofline 4120 (async-two-cluster 4877); at 8192^3 2484 (async-two-cluster
// 2044). The problem size is a kernel argument, so the mode is by name only.
// 4 waves, automatic: seed 002's M=32 loop (below, layoutSkinnyPP).
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"

namespace pingpong {

static const char *SkinnyPPLayoutFirstA =
    "pingpong-layout v1; sync barrier asymmetric operand-waits; "
    "mem mem0.dma: async-copy; mem+ mem0: local-read.a; "
    "dot dot0: ; "
    "mem mem1: local-read.b; "
    "dot dot1: dot";
static const char *SkinnyPPLayoutFirstB =
    "pingpong-layout v1; sync barrier asymmetric operand-waits; "
    "mem mem0.dma: async-copy; mem+ mem0: local-read.b; "
    "dot dot0: ; "
    "mem mem1: local-read.a; "
    "dot dot1: dot";

// 4 waves (seed 002's M=32 loop: one wave per SIMD per workgroup, two
// workgroups per CU, no barrier pairs the waves of a SIMD): the loop keeps
// its own waits and barriers, the one-cluster gate paces the dots. On
// Triton's IR one operand comes straight from global memory (prefetched by
// the IR: its loads go first, before the loop's barrier), the other and one
// scale by LDS DMA, the other scale register-staged (global load, LDS write
// at the end). Memory issue first: the staged scale's load, the direct
// loads, the DMA of the LDS operand, that operand's reads (the staged
// scale's reads have no alias scope, so LLVM orders them before the other
// scale's DMA), the other scale's DMA and reads, then the scales' packing
// VALU on its own (in the memory cluster it waited for its reads before the
// DMA could issue), the dot, the staged scale's LDS write. The waits per
// operand (`operand-waits` without `barrier`) are the post-RA wait
// placement's (PingpongWaits: each vmcnt relaxed to the largest count the
// checker proves safe): LLVM waits for every LDS DMA in flight before an
// LDS access without alias scopes (seed 002's "vmcnt(0) before ds_read_u8").
// The staged scale's load goes first because vmcnt counts in issue order:
// its LDS write waits for it in the same iteration, while the direct loads
// are due only at the next iteration's top (the PHI copies) and the DMAs two
// iterations on. Issued after them, the write's wait is a wait for them too,
// and their whole round trip sits inside the iteration; issued first, the
// write waits for the scale alone and the direct loads get the iteration.
// Measured in the model, mxfp4_e2m1_32x64x512_w4_ns3_async (cycles/iter,
// docs/modes.md "skinny at 4 waves"), with the loaded round trip (session
// 16 on): the staged scale's load first 1331, after B's DMA 1471. (Before
// the loaded round trip, when a load came back within the iteration either
// way: 1162 and 1000; the DMA before the direct loads 1141; packing in the
// memory cluster 1361; llc-22 1567, 1059 with the wait placement alone.)
static const char *SkinnyPPLayout4WavesDirectA =
    "pingpong-layout v1; sync gate dot-waits operand-waits; "
    "mem mem-g: global-load; mem+ mem-g.direct: direct-load; "
    "mem+ mem-g.dma: async-copy.b; "
    "mem mem-b drain=none: local-read.b; "
    "mem mem-a drain=none: async-copy.a; mem+ mem-a.read: local-read.a; "
    "mem prep: operand-prep; "
    "dot dot: dot; "
    "mem store: local-write";
static const char *SkinnyPPLayout4WavesDirectB =
    "pingpong-layout v1; sync gate dot-waits operand-waits; "
    "mem mem-g: global-load; mem+ mem-g.direct: direct-load; "
    "mem+ mem-g.dma: async-copy.a; "
    "mem mem-a drain=none: local-read.a; "
    "mem mem-b drain=none: async-copy.b; mem+ mem-b.read: local-read.b; "
    "mem prep: operand-prep; "
    "dot dot: dot; "
    "mem store: local-write";

bool skinnyFourWaveShape(const LoopModel &M) {
  return M.Waves == 4 && M.NumAsyncCopies && M.NumDirectLoads &&
         !M.chainedDots();
}

std::optional<ClusterLayout> layoutSkinnyPP(const LoopModel &M,
                                            Rejection &Why) {
  if (!M.NumAsyncCopies) {
    Why.Reason = "skinny needs LDS DMA in the loop (it splits the DMA wait "
                 "by operand)";
    return std::nullopt;
  }
  if (M.Waves == 4) {
    if (!M.NumDirectLoads) {
      Why.Reason = "skinny at 4 waves is for loops that load an operand "
                   "straight from global memory (seed 002's M=32 shape); "
                   "async-one-cluster takes LDS DMA alone";
      return std::nullopt;
    }
    Operand Direct = Operand::A;
    for (const InstInfo &I : M.Insts)
      if (I.R == Role::DirectLoad && I.Op != Operand::None) {
        Direct = I.Op == Operand::B || I.Op == Operand::ScaleB ? Operand::B
                                                               : Operand::A;
        break;
      }
    return builtinLayout(Direct == Operand::B ? SkinnyPPLayout4WavesDirectB
                                              : SkinnyPPLayout4WavesDirectA,
                         Mode::SkinnyPP, M, Why);
  }
  if (!canSliceAcrossWaveGroups(M, 1, Mode::SkinnyPP, Why))
    return std::nullopt;
  return builtinLayout(firstDMAOperand(M) == Operand::B ? SkinnyPPLayoutFirstB
                                                        : SkinnyPPLayoutFirstA,
                       Mode::SkinnyPP, M, Why);
}

} // namespace pingpong
