//===- TwoPP.cpp - dot sliced along K (8 warps) --------------------------===//
//
// mem0: the LDS reads and the global loads; dot0: the first half of every
// accumulator's K steps; mem1: the LDS writes; dot1: the second half. On
// gfx942 the reads split over two memory clusters and the dot in three
// (below). s_barrier between clusters; the asymmetric sync puts waves 4-7 one
// cluster behind waves 0-3 (Triton's transformTwoPPClusters, with the LDS
// reads drained before every barrier: Triton #11696).
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/Throughput.h"
#include "pingpong/Schedule/ClusterPlan.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#include <string>

#define DEBUG_TYPE "amdgpu-pingpong"

static llvm::cl::opt<bool> AddressInDotOpt(
    "amdgpu-pingpong-address-in-dot", llvm::cl::Hidden, llvm::cl::init(true),
    llvm::cl::desc("two-cluster with loads issued ahead, where a SIMD's VALU "
                   "and MFMA issue turns bind the loop: the address chains "
                   "of half the global loads among dot0's MFMAs (layout "
                   "flag address-in-dot)"));

STATISTIC(NumAddressInDot, "two-cluster layouts with half the global loads' "
                           "address chains among dot0's MFMAs (VALU+MFMA "
                           "issue bound)");

namespace pingpong {

static const char *TwoPPReadsFirstLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
    "mem mem0: local-read; mem+ mem0.global: global-load; "
    "dot dot0: dot[0/2]; "
    "mem mem1: local-write; "
    "dot dot1: dot[1/2]";

// Where the LDS port reads 64 B/clk per SIMD pair (gfx942) one wave group's
// reads of a 256x128 iteration take the port 512 clocks, as long as a dot
// half: with the latency, mem0 runs past the other group's dot, twice per
// iteration. With one LDS buffer every read of both groups must precede the
// first write, and the skew puts the other group one interval behind, so
// reads may span intervals 0-2 when the writes wait until 4: the reads split
// over two memory clusters, the writes in a third, the dot in three slices.
// Each memory cluster then fits in a third of the dot. Model, cycles/iter
// (GEMM 8192^3), two slices -> three: corpus NN 256x128x64 2197 -> 2084,
// TN 2229 -> 2076, TN mi32 2181 -> 2048, 128x256x32 1189 -> 1132; gemm.hip
// 256x128x64 2189 -> 2076 (16x16), 2169 -> 2089 (32x32). On gfx950 (half
// the port time, a dot third of ~170 clocks) it loses: NN 1181 -> 1396.
static const char *TwoPPSplitReadsLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
    "mem mem0: local-read[0/3]; mem+ mem0.global: global-load; "
    "dot dot0: dot[0/3]; "
    "mem mem1: local-read; "
    "dot dot1: dot[1/3]; "
    "mem mem2: local-write; "
    "dot dot2: dot[2/3]";

static constexpr unsigned MinSplitReadsMFMAs = 24;

// Where the LDS port reads 128 B/clk per SIMD pair (gfx950) the reads are no
// longer the memory cluster's critical path alone; the global loads' latency,
// which the LDS writes of mem1 wait for, is too. Issuing either as a block
// leaves the port idle (loads first: ~90 clocks of loads and their address
// VALU before the first read) or starts the loads late (reads first). One
// read, one VALU, one load in turn starts both at once. mem0 is the longest
// cluster here (24 reads: 256 port clocks against a 248-clock dot half) and
// runs twice per iteration (once per wave group), so each clock saved counts
// twice. Model, cycles/iter (GEMM 8192^3), loads first -> interleaved:
// gfx950 f16 NN 256x128x64 1365 -> 1181, fp8 TN 256x128x128 1334 -> 1168,
// gemm.hip bf16 256x128x64 1237 -> 1173 (docs/modes.md, two-cluster).
static const char *TwoPPInterleavedLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
    "mem mem0: local-read, global-load; "
    "dot dot0: dot[0/2]; "
    "mem mem1: local-write; "
    "dot dot1: dot[1/2]; "
    "interleave mem0: ds-read 1, valu 1, vmem-read 1";

// A side input (a scale vector) issues with the global loads.
static const char *TwoPPSideLoadLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
    "mem mem0: local-read; mem+ mem0.global: global-load, side-load; "
    "dot dot0: dot[0/2]; "
    "mem mem1: local-write; "
    "dot dot1: dot[1/2]";

// Loads issued one iteration ahead (Passes/LoadLookahead.cpp) refill the
// registers the LDS writes of the tile they loaded last iteration free
// (DepGraph.cpp orders them after those writes): with the writes in mem1, a
// whole iteration in flight before their own writes in the next one.
static const char *TwoPPLoadsAheadLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
    "mem mem0: local-read; "
    "dot dot0: dot[0/2]; "
    "mem mem1: local-write, global-load; "
    "dot dot1: dot[1/2]";

// The same where a SIMD's VALU and MFMA issue turns, not its pipe or port,
// bind the loop (convolutions: the im2col address arithmetic, bounds
// compares and mask select of every global load, ~300 VALU and SALU per
// wave against 16 MFMAs on tuning mmconv_f16_256x128x32, 18 per load). By
// default that work issues as early as its inputs allow, in mem0, which
// then takes a wave ~1240 clocks against the other group's 120-clock dot
// half and paces two of the four intervals, each wave's address work alone
// on its SIMD. `address-in-dot` moves the chains of the later half of the
// loads into dot0, the last dot before the loads, where the MFMAs leave
// issue turns: with the skew one group's dot0 runs beside the other's mem0,
// so a SIMD's two waves issue address work at once there (ClusterPlan.cpp).
// `latency` has AMDGPU's scheduler order the clusters for latency (the
// occupancy order chains each address through one register, every VALU
// waiting on the one before). Model, cycles/iter (GEMM 8192^3, llc-22
// 4011): 3094 -> 2805; without `latency` 2981; every load's chain in dot0
// 2989 (dot0 then ~1230 clocks a wave beside a ~180-clock mem0).
static const char *TwoPPLoadsAheadAddressLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data "
    "address-in-dot latency; "
    "mem mem0: local-read; "
    "dot dot0: dot[0/2]; "
    "mem mem1: local-write, global-load; "
    "dot dot1: dot[1/2]";

// The same with a scale applied to the dot's result (block-scaled fp8: acc
// += dot(a, b) * sa * sb, one K step per accumulator, so resultScaleLayout
// below does not apply) and its scale loads ahead. By default the scaling
// of dot0's accumulators goes to mem1 (VALU out of a dot: planClusters),
// which then holds ~25 VALU besides the LDS writes and the loads and faces
// the other group's dot0, a quarter of the MFMA work; the scale loads that
// refill its registers follow it there and are due in the next mem1, half
// an iteration later. `results-next-dot` moves that scaling among dot1's
// MFMAs, where the VALU co-issues with the pipe busy: mem1 keeps the LDS
// writes and the tile loads, and every scale load issues in dot1, a whole
// iteration before its next reader (dot0's 16 result registers live into
// dot1). Model, cycles/iter (GEMM 8192^3), mmblock_fp8_128x128x128_w8
// gfx950: 1454 -> see docs/modes.md.
static const char *TwoPPLoadsAheadResultLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data "
    "results-next-dot; "
    "mem mem0: local-read; "
    "dot dot0: dot[0/2]; "
    "mem mem1: local-write, global-load; "
    "dot dot1: dot[1/2]";

// A scale applied to the dot's result (acc += dot(a, b) * sa * sb) reads
// each accumulator's product after its last K step. K-major halves finish
// every accumulator in dot1, so all the scaling VALU (109 per wave on the
// fp8 256x128x128 tile) runs there after the last MFMAs, with the pipe
// idle, while mem1 (LDS writes only) waits on the other group's dot0. dot0
// here also takes the second half of the K steps of the first quarter of
// the accumulators: those finish in dot0, their scaling moves to mem1
// (role-less VALU out of a dot: planClusters), and both dots carry 40 and
// 24 MFMAs plus dot1's scaling. Model, cycles/iter (GEMM 8192^3),
// mmblock_fp8_256x128x128_w8 gfx942: 2777 -> 2582 (a half of the
// accumulators finished in dot0: 2776, an eighth: 2654; docs/triton.md).
static std::optional<std::string> resultScaleLayout(const LoopModel &M) {
  const unsigned K = M.ChainLen, Q = 4;
  if (!hasResultSideLoads(M) || M.chainedDots() || K < 2 || K % 2 ||
      M.NumAccumulators % Q || M.NumDots != K * M.NumAccumulators)
    return std::nullopt;
  // Slices of Q accumulator quarters per K step: K step k, quarter q is
  // slice k * Q + q (the dot order is K step, then accumulator).
  const std::string S = "/" + std::to_string(K * Q) + "]";
  std::string Dot0 = "dot[0-" + std::to_string(K / 2 * Q - 1) + S;
  for (unsigned Step = K / 2; Step < K; ++Step)
    Dot0 += ", dot[" + std::to_string(Step * Q) + S;
  // Operand tiles loaded an iteration ahead refill the registers the LDS
  // writes free: after them (TwoPPLoadsAheadLayout). Scale loads ahead
  // follow their scaling (Layout.cpp).
  if (M.NumGlobalLoadsAhead)
    return "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
           "mem mem0: local-read; mem+ mem0.global: side-load; "
           "dot dot0: " + Dot0 + "; mem mem1: local-write, global-load; "
           "dot dot1: dot";
  return "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
         "mem mem0: local-read; mem+ mem0.global: global-load, side-load; "
         "dot dot0: " + Dot0 + "; mem mem1: local-write; dot dot1: dot";
}

/// The SIMD's two waves need more VALU and MFMA issue turns per iteration
/// than its MFMA pipe and its pair's LDS port take (IssueBound): VALU is
/// the work to overlap, and a memory cluster holding it cannot hide behind
/// the other group's dot half. Single dot groups only (attention has its
/// own orders).
static bool loadAddressIssueBound(const LoopModel &M) {
  if (!AddressInDotOpt || M.chainedDots() || M.Waves != 8)
    return false;
  const IssueBound B = issueBound(M, 2);
  LLVM_DEBUG(llvm::dbgs() << "amdgpu-pingpong: two-cluster: VALU+MFMA issue "
                          << B.IssueClocks << " clocks, pipe " << B.MFMAClocks
                          << ", port " << B.PortClocks << " per SIMD\n");
  return B.issueBound();
}

std::optional<ClusterLayout> layoutTwoPP(const LoopModel &M, Rejection &Why) {
  if (!canSliceAcrossWaveGroups(M, 2, Mode::TwoPP, Why))
    return std::nullopt;
  const target::TargetFacts *T =
      target::factsFor(M.Body->getParent()->getSubtarget().getCPU());
  const bool WidePort = T && T->LDSReadBytesPerClkPerSIMDPair >= 128;
  if (std::optional<std::string> Text = resultScaleLayout(M))
    return builtinLayout(Text->c_str(), Mode::TwoPP, M, Why);
  // Scale loads issued ahead have no place of their own (Layout.cpp): the
  // loads-ahead layout takes their loop too.
  if (M.NumGlobalLoadsAhead && !sideLoadsInIteration(M)) {
    if (!hasResultSideLoads(M) && loadAddressIssueBound(M)) {
      ++NumAddressInDot;
      std::optional<ClusterLayout> L =
          builtinLayout(TwoPPLoadsAheadAddressLayout, Mode::TwoPP, M, Why);
      if (L)
        L->Note = "VALU and MFMA issue bind (not the pipe or the LDS port): "
                  "the address chains of half the global loads among "
                  "dot0's MFMAs";
      return L;
    }
    return builtinLayout(hasResultSideLoads(M) ? TwoPPLoadsAheadResultLayout
                                               : TwoPPLoadsAheadLayout,
                         Mode::TwoPP, M, Why);
  }
  if (M.NumSideLoads)
    return builtinLayout(TwoPPSideLoadLayout, Mode::TwoPP, M, Why);
  // Split where one group's reads alone take the port a dot half or more:
  // with their latency mem0 cannot hide behind the other group's dot. Each
  // third must still outlast a memory cluster's fixed latency: measured on
  // loops of 32-64 MFMAs; a test loop of 4 keeps two slices. Only measured
  // on one dot: chained dots (attention forced here) keep two slices.
  const LDSPortBound B = ldsPortBound(M);
  if (!WidePort && !M.chainedDots() && B.Known && B.ratio() >= 1.0 &&
      M.NumDots >= MinSplitReadsMFMAs)
    return builtinLayout(TwoPPSplitReadsLayout, Mode::TwoPP, M, Why);
  return builtinLayout(WidePort ? TwoPPInterleavedLayout : TwoPPReadsFirstLayout,
                       Mode::TwoPP, M, Why);
}

} // namespace pingpong
