//===- AsyncTwoPP.cpp - LDS-DMA GEMM, two wave groups (8 warps) ----------===//
//
// Triton's TwoClusterWithLocalLoadAndAll on gfx950: the operands reach LDS
// by DMA (buffer_load ... lds), so an iteration has no LDS writes and no
// register-staged global data. mem0: every DMA, then every LDS read;
// barrier; dot0: the MFMAs with SALU work interleaved (one MFMA, three
// SALU); barrier. The asymmetric sync runs waves 4-7 one interval behind,
// so one group's LDS reads and DMA overlap the other's MFMAs.
// Triton issues the reads, one operand's DMA, and the other's DMA inside the
// dot. Measured in the model (mm_bf16_nn_256x256x32_w8_ns3, MFMA bound 1024
// cycles per iteration): Triton's order 1039, the first DMA before the
// reads 1031, every DMA before the reads 1031; on a HIP kernel without
// Triton's alias scopes (test/kernels/dma_gemm.hip, STAGES=3) the reads
// depend on every DMA, so only the last order plans: 1031 against 1368 for
// llc-22 (1339 for async-four-cluster).
// Waits: a DMA is due (vmcnt, in the wave that issued it) at the barrier
// Sync/SyncRules' dmaDeadline names; the plan computes the count
// (ClusterPlan::VmWaitBefore). With three stages that is the middle barrier,
// where Triton waits too (vmcnt = the DMA of this iteration).
// With two stages the DMA of iteration i is read in iteration i+1, so in
// two intervals it would be due at the barrier right after it issues (the
// whole DMA latency exposed). Four intervals instead, as two-cluster: mem0
// the DMA (right after the barrier that frees its buffer: the LDS-DMA
// hoist) and the first half of the reads, ordered below; dot0 the first half of
// the MFMAs; mem1 the other reads; dot1 the second half. The DMA is due at
// the end of mem1: it has three of the four intervals to land. In the model
// (256x128x64 bf16) all reads in mem0 made it 1669 cycles per iteration
// (mem0 twice as long as a dot half), the DMA after the reads 1804.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/Throughput.h"
#include "pingpong/Schedule/ClusterPlan.h"

#include "pingpong/Target/TargetFacts.h"

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "amdgpu-pingpong"

static llvm::cl::opt<bool> LoadedRoundTrip(
    "amdgpu-pingpong-loaded-round-trip", llvm::cl::Hidden, llvm::cl::init(true),
    llvm::cl::desc("place global loads and LDS DMA for the target's loaded "
                   "round trip (TargetFacts::LoadedRoundTrip): one-cluster and "
                   "four-cluster issue every global load first; where an async "
                   "layout leaves a copy less time to land, give it more "
                   "intervals (4 waves: split its wait by operand); auto "
                   "keeps LLVM's order where even that loses"));

namespace pingpong {

// Three or more stages, where a wave's memory interval (the DMAs, their
// address work, the reads) outlasts the partner's dot: the DMAs and their
// address work go into the dot cluster, where the MFMAs leave issue turns
// (Triton issues its DMAs among the MFMAs too). With three stages the DMA of
// iteration i writes the stage read in i+2, so no read of this iteration or
// of the other group's (one interval behind) touches it. Model
// (mmbias_bf16_256x128x32_w8_ns3, held out, 16 MFMAs per wave, memory
// interval 424 clocks against a 256-clock dot): 767 -> 627 cycles per
// iteration (MFMA bound 512; Triton's best 646, llc-22 779). Where the dot
// is long enough (the 256x256x32 loops, 32 MFMAs) the DMAs stay in mem0: in
// the dot they cost 1031 -> 1091.
static const char *AsyncTwoPPLayoutDMAInDot =
    "pingpong-layout v1; sync barrier asymmetric; "
    "mem mem0: local-read; "
    "dot dot0: dot, async-copy";

// Three or more stages.
static const char *AsyncTwoPPLayout =
    "pingpong-layout v1; sync barrier asymmetric; "
    "mem mem0.dma: async-copy; mem+ mem0: local-read; "
    "dot dot0: dot; "
    "interleave dot0: mfma 1, salu 3";

// Two stages: the DMA needs more than one interval to land. mem0 is the
// long memory interval (the DMA, its M0/address work and half the reads)
// and paces two of the four intervals. One cluster, no fence, ordered
// 4 LDS ops (the copy's ds_bpermutes, the first reads), the DMA, the
// rest: the reads cover the bpermute latency the DMA addresses wait on.
// Model, cycles/iteration (mem0 then the DMA behind a fence -> this):
// mm_bf16_tn_256x128x64 1365 -> 1167, mm_fp8_tn_256x256x128 2260 -> 2048,
// mm_bf16/f16 256x256x64 2093/2101 -> 2062, mxfp4 256x256x256 2540 -> 2436,
// mmscale 3677 -> 3516; heldout3 mmktn_bf16 256x128 1397 -> 1197,
// mmk_fp8 256x256 2430 -> 2186. The same cluster unordered: 1285 (256x128).
static const char *AsyncTwoPPLayoutNS2 =
    "pingpong-layout v1; sync barrier asymmetric; "
    "mem mem0: async-copy, local-read[0/2]; "
    "interleave mem0: ds-read 4, vmem-read 6; "
    "dot dot0: dot[0/2]; "
    "mem mem1: local-read[1/2]; "
    "dot dot1: dot[1/2]";

// Two stages, copy-bound (more bytes per iteration than the CU's L2 share
// moves in the dot's MFMA time): the DMA in a memory interval of its own,
// the reads behind a barrier. The next iteration's copies then issue one
// interval before anyone reads the last ones, so each wave waits for its
// copies at the end of dot1, a whole iteration (five intervals) after it
// issued them, instead of at the end of mem1 (three): with the two groups'
// issues one interval apart, copies are always queued. The price is an
// interval without MFMAs (one group's DMA issue meets the other's reads).
// Model, mxfp4 128x128x512 8 waves (docs/modes.md): 2036 -> 1922 cycles per
// iteration at 8192^3, 4877 -> 4119 at M=128 (the HBM roofline); the
// 256x256 tiles lose 5-19 % with it, 256x128 bf16 0.4 %.
static const char *AsyncTwoPPLayoutNS2Streaming =
    "pingpong-layout v1; sync barrier asymmetric; "
    "mem mem0.dma: async-copy; mem mem0: local-read[0/2]; "
    "dot dot0: dot[0/2]; "
    "mem mem1: local-read[1/2]; "
    "dot dot1: dot[1/2]";

// Three or more stages, the DMAs in the dot, where the copy's loaded round
// trip outlasts an iteration's MFMA time: in the two-interval layout a copy
// issued in dot0 is due at the end of the next mem0 (about one iteration),
// so every iteration waits out the round trip. Four intervals: issued in
// dot0 it is due at the end of the next iteration's mem1 (vmcnt keeps that
// iteration's own copies in flight). Model, LoadedRoundTrip 1000
// (mmbias_bf16_256x128x32_w8_ns3, MFMA bound 512): 1195 -> 814 cycles per
// iteration (llc-22 779: auto keeps LLVM's order there, below); the DMAs in
// mem0 of the same four intervals 861, in mem0 of the two-interval layout
// 856. Round trip off: 582 -> 721, so it goes with the round trip.
static const char *AsyncTwoPPLayoutDMAInDot4 =
    "pingpong-layout v1; sync barrier asymmetric; "
    "mem mem0: local-read[0/2]; "
    "dot dot0: dot[0/2], async-copy; "
    "mem mem1: local-read[1/2]; "
    "dot dot1: dot[1/2]";

// Two buffers, the copies one tile further ahead (lib/Passes/DMALookahead.cpp:
// every copy after every read of the iteration, StagesAhead 2): every read
// in mem0, the copies in mem1. With two buffers the later wave group reads
// a buffer one interval behind, so a copy may refill it only after the
// barrier that ends the other group's last read interval: mem1 when every
// read is in mem0, half an iteration earlier than mem0.dma of the next
// iteration. A copy issued in mem1 is due at the barrier before the reads
// of two iterations later (dmaDeadline), about one and a half iterations
// to land instead of one. It needs the reads of a whole iteration live at
// once beside the accumulators: the pass takes 8-wave loops only where they
// fit (docs/modes.md, "DMA lookahead at 8 waves").
static const char *AsyncTwoPPLayoutCopiesAhead =
    "pingpong-layout v1; sync barrier asymmetric; "
    "mem mem0: local-read; "
    "dot dot0: dot[0/2]; "
    "mem mem1: async-copy; "
    "dot dot1: dot[1/2]";

// Three buffers (the pass's three-stage move at 8 waves: tile i+3 into the
// buffer just read): the same clusters for the same reason, one buffer
// more: the copy is due at the barrier before the reads of three
// iterations later, two and a half iterations after it issues instead of
// Triton's one and a half. With that much lead the copies no longer bind;
// mem0, every read against the other group's dot half, paces the
// iteration: the copies' address work (delay-copy-address) goes to mem1,
// which has room. Not with two buffers, whose copies are lead-bound there
// (docs/modes.md, "Session 21: where the 256x128 loop's time goes"):
// their address work ahead of them in mem1 issues them later (model,
// 256x128x64 bf16: corpus 1415 -> 1360 but heldout6/7 1350 -> 1375/1373).
// Model, tuning mmsilu_bf16_256x128x32_w8_ns3: 856 -> 765 cycles per
// iteration (docs/modes.md, "Session 22: 8-wave three-stage copies a tile
// further ahead").
static const char *AsyncTwoPPLayoutCopiesAhead3 =
    "pingpong-layout v1; sync barrier asymmetric delay-copy-address; "
    "mem mem0: local-read; "
    "dot dot0: dot[0/2]; "
    "mem mem1: async-copy; "
    "dot dot1: dot[1/2]";

unsigned loadedRoundTrip(const LoopModel &M) {
  if (!LoadedRoundTrip)
    return 0;
  const target::TargetFacts *T =
      target::factsFor(M.Body->getParent()->getSubtarget().getCPU());
  return T ? T->LoadedRoundTrip : 0;
}

bool asyncTwoPPDMAInDot(const LoopModel &M) {
  if (!M.NumAsyncCopies || M.NumStages == 2)
    return false;
  IssueBound B = issueBound(M, 1);
  LLVM_DEBUG(llvm::dbgs() << "amdgpu-pingpong: async-two-cluster: memory "
                          << "interval " << B.memoryIntervalClocks()
                          << " clocks, dot " << B.MFMAClocks
                          << " pipe clocks per wave\n");
  return B.Known && B.memoryIntervalClocks() > B.MFMAClocks;
}

// Auto keeps LLVM's order there: the memory work paces the intervals and
// the barriers hold each copy to its window, where LLVM's order (no
// barriers, Triton's waits) leaves the copies two iterations. Model,
// LoadedRoundTrip 1000, mmbias_bf16_256x128x32_w8_ns3 (cycles per
// iteration): llc-22 779; DMAs in the dot, four intervals 814 (time 0.971
// of llc-22's at the power-limited clock), two intervals 1195; DMAs in mem0
// 856 (two intervals) and 861 (four); six intervals 818; eight (async-four-
// cluster) 1156.
std::string asyncCopiesPastDot(const LoopModel &M) {
  const unsigned RoundTrip = loadedRoundTrip(M);
  // The DMA lookahead's loops get the copies-ahead layout, not the DMAs in
  // the dot: each copy has two buffers' worth of iterations past the
  // barriers (the pass admitted the loop where its copies bind).
  if (!RoundTrip || M.NumStages == 2 || M.copiesIntoBufferJustRead() ||
      !asyncTwoPPDMAInDot(M))
    return "";
  CopyBound CB = copyBound(M);
  if (!CB.Known || RoundTrip <= CB.MFMAClocks)
    return "";
  IssueBound B = issueBound(M, 1);
  return "no gain over LLVM's order: a wave's memory work (at least " +
         std::to_string(B.memoryIntervalClocks()) +
         " clocks per iteration) outlasts the partner's dot and paces the "
         "intervals, and a copy's loaded round trip (" +
         std::to_string(RoundTrip) + " clocks) outlasts the " +
         std::to_string(CB.MFMAClocks) +
         " MFMA clocks per SIMD of an iteration: the barriers hold each copy "
         "to less than its round trip; LLVM's order is kept";
}

std::optional<ClusterLayout> layoutAsyncTwoPP(const LoopModel &M,
                                              Rejection &Why,
                                              unsigned Variant) {
  if (!M.NumAsyncCopies) {
    Why.Reason = "async-two-cluster needs LDS DMA in the loop";
    return std::nullopt;
  }
  if (M.copiesIntoBufferJustRead()) {
    if (!canSliceAcrossWaveGroups(M, 2, Mode::AsyncTwoPP, Why))
      return std::nullopt;
    const bool ThreeBuffers = llvm::any_of(M.Insts, [](const InstInfo &I) {
      return I.R == Role::AsyncCopy && I.Buffers > 2;
    });
    std::optional<ClusterLayout> L = builtinLayout(
        ThreeBuffers ? AsyncTwoPPLayoutCopiesAhead3 : AsyncTwoPPLayoutCopiesAhead,
        Mode::AsyncTwoPP, M, Why);
    if (L)
      L->Note = ThreeBuffers
                    ? "the copies a tile further ahead (three buffers): every "
                      "read in mem0, the copies in mem1, due two and a half "
                      "iterations later"
                    : "the copies one tile ahead (two buffers): every read in "
                      "mem0, the copies in mem1, due one and a half iterations "
                      "later";
    return L;
  }
  bool TwoStages = M.NumStages == 2;
  if (!canSliceAcrossWaveGroups(M, TwoStages ? 2 : 1, Mode::AsyncTwoPP, Why))
    return std::nullopt;
  const char *Text = TwoStages ? AsyncTwoPPLayoutNS2 : AsyncTwoPPLayout;
  // The copy window of a layout: the MFMA clocks per SIMD of one iteration
  // (the interval lengths' floor) against the loaded round trip.
  const unsigned RoundTrip = loadedRoundTrip(M);
  CopyBound CB = copyBound(M);
  // Variant 0 of two: the DMAs in the dot (variant 1, the usual layout, is
  // the fallback where the reads depend on the DMAs, as without alias scopes).
  const bool DMAInDot = Variant == 0 && asyncTwoPPDMAInDot(M);
  bool LatencyBound = false;
  if (DMAInDot) {
    Text = AsyncTwoPPLayoutDMAInDot;
    Rejection Ignored;
    if (CB.Known && RoundTrip > CB.MFMAClocks &&
        canSliceAcrossWaveGroups(M, 2, Mode::AsyncTwoPP, Ignored)) {
      Text = AsyncTwoPPLayoutDMAInDot4;
      LatencyBound = true;
    }
  }
  // Copy-bound even when every load hits L2: keeping the copies queued is
  // worth more than the MFMA-free interval it costs. Or latency-bound: the
  // two-stage layout leaves a copy three of its four intervals to land,
  // the streaming one five.
  bool Streaming = false;
  if (TwoStages && CB.Known) {
    Streaming = CB.CopyClocks > CB.MFMAClocks;
    LatencyBound = !Streaming &&
                   target::roundTripOutlastsCopyWindow(RoundTrip, CB.MFMAClocks);
    Streaming |= LatencyBound;
  }
  if (Streaming)
    Text = AsyncTwoPPLayoutNS2Streaming;
  std::optional<ClusterLayout> L = builtinLayout(Text, Mode::AsyncTwoPP, M, Why);
  if (L && DMAInDot) {
    IssueBound B = issueBound(M, 1);
    L->Note = "the DMAs in the dot cluster: a wave's memory work takes at "
              "least " + std::to_string(B.memoryIntervalClocks()) +
              " clocks per iteration, more than the partner's dot (" +
              std::to_string(unsigned(B.MFMAClocks)) + " pipe clocks)";
  }
  if (L && LatencyBound)
    L->Note = "a copy's loaded round trip (" + std::to_string(RoundTrip) +
              " clocks) outlasts what the usual layout leaves it of the " +
              std::to_string(CB.MFMAClocks) +
              " MFMA clocks per SIMD of an iteration: the copies get more "
              "intervals to land";
  else if (L && Streaming)
    L->Note = "copy-bound: " + std::to_string(CB.Bytes) +
              " B per iteration take " + std::to_string(unsigned(CB.CopyClocks)) +
              " clocks at the CU's L2 share, the dot " +
              std::to_string(CB.MFMAClocks) +
              " MFMA clocks per SIMD: the copies get an interval of their own";
  return L;
}

} // namespace pingpong
