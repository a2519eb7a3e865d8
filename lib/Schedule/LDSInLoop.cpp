//===- LDSInLoop.cpp - LDS written and read back in one iteration ---------===//
//
// Loops Triton did not pipeline (16-bit row gathers: heldout8's im2col
// convolution, heldout10's grouped GEMM with operand offsets from a table)
// load their tiles, write them to LDS, wait at the loop's barrier and read
// the same buffer back before the dot, all in one iteration. Where Triton's
// allocator gives A and B the same bytes the chain is longer: write B,
// barrier, read B, barrier, write A, barrier, read A, dot. The modes'
// layouts expect LDS writes of the next tile at the iteration's end (after
// the reads of this one); on these loops the placement met a read that
// depends on a write of its own iteration ("dependence: this local-read
// belongs in mem-b but depends on an instruction placed in store").
//
// 4 waves (two workgroups' waves on each SIMD, paced by the gate): every
// memory access in one memory cluster in the loop's own order, with the
// loop's own barriers (each workgroup has its LDS to itself, so the barriers
// stay as the kernel wrote them), the global loads first in a cluster of
// their own, then the gated dot (layout below). Why it can gain where a
// memory cluster outlasting the partner's dot loses elsewhere
// (memoryPastPartnerDot, ModeChoice.cpp): the dot needs every read, the reads
// every write before their barrier, the writes every load, so LLVM's order
// runs the same chain before its MFMAs and overlaps none of it with its own
// dot either; the gated order overlaps one wave's chain with the other
// wave's dot.
//
// 8 waves (the two-cluster and four-cluster layouts, asymmetric sync): no
// order. The skew runs the two wave groups of one workgroup one barrier
// interval apart, so the group behind would write the buffer while the
// group ahead reads it (one buffer, written and read in one iteration:
// only a barrier pair that both groups pass together orders that); without
// the skew the two waves of a SIMD run their chains side by side and
// nothing overlaps (the same layout at 8 waves, tuning
// mmgroup_bf16_256x128x64_w8: 4368 cycles per iteration against llc-22's
// 4147). The refusal says so instead of the placement's dependence.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/LDSObjects.h"
#include "pingpong/Schedule/ClusterPlan.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;

STATISTIC(NumLDSInLoopLayouts,
          "4-wave loops given the in-iteration LDS round-trip layout");

static cl::opt<bool> LDSInLoop(
    "amdgpu-pingpong-lds-in-loop", cl::init(true),
    cl::desc("one-cluster, 4 waves: where the loop reads back LDS it wrote "
             "in the same iteration (loads, LDS writes, barrier, LDS reads, "
             "dot), every memory access in one memory cluster in the loop's "
             "order with its own barriers, the global loads first, then the "
             "gated dot (docs/modes.md, session 25: ldsinloop; "
             "AMDGPUPingpong plugin)"));

namespace pingpong {

// Measured on the tuning loops (docs/modes.md, "Session 25: ldsinloop"):
// the global loads in a cluster of their own ahead of the LDS chain (one
// cluster for loads and chain: 3562 against 3258 cycles per iteration on
// mmgroup_bf16_128x128x64), the dot on its own reads' waits (`dot-waits`;
// a full drain: 3358), no `delay-global-data` (3917: the packing VALU of
// the loads' data then waits in the chain's cluster for nothing).
static const char *OnePPInLoopLayout =
    "pingpong-layout v1; sync gate dot-waits; "
    "mem mem-g: global-load; "
    "mem mem: local-write, local-read; "
    "dot dot: dot";

LDSRoundTrips ldsRoundTripsInIteration(const LoopModel &M) {
  LDSRoundTrips T;
  // Writes since the last barrier, and writes a barrier has since closed;
  // a read meets them unless the checker's identity proves them disjoint.
  std::vector<sync::LDSRegion> Open, Closed;
  unsigned Barriers = 0, TripBarrier = ~0u;
  for (const InstInfo &I : M.Insts) {
    if (I.Kind == InstKind::Barrier) {
      Closed.insert(Closed.end(), Open.begin(), Open.end());
      Open.clear();
      ++Barriers;
      continue;
    }
    if (I.R == Role::LocalWrite) {
      Open.push_back(ldsRegionOf(*I.MI));
      continue;
    }
    if (I.R != Role::LocalRead || Closed.empty())
      continue;
    const sync::LDSRegion R = ldsRegionOf(*I.MI);
    bool Meets = false;
    for (const sync::LDSRegion &W : Closed)
      Meets |= sync::overlap(W, R).O != sync::Overlap::Disjoint;
    if (!Meets)
      continue;
    ++T.Reads;
    // A new round trip: the first such read behind another barrier.
    if (TripBarrier != Barriers) {
      ++T.Trips;
      TripBarrier = Barriers;
    }
  }
  return T;
}

unsigned onePPVariants(const LoopModel &M) {
  return LDSInLoop && M.Waves <= 4 && ldsRoundTripsInIteration(M).Trips ? 2
                                                                        : 1;
}

static std::string describeTrips(const LDSRoundTrips &T) {
  return formatv("{0} LDS read{1} of data written in the same iteration, "
                 "{2} round trip{3} through the loop's barriers",
                 T.Reads, T.Reads == 1 ? "" : "s", T.Trips,
                 T.Trips == 1 ? "" : "s")
      .str();
}

/// The loop barriers a GEMM's cross-warp sums run through (their steps,
/// LDSReductions.cpp, less one).
static unsigned reductionBarriers(const LoopModel &M) {
  unsigned Steps = 0;
  for (const InstInfo &I : M.Insts)
    if (I.R == Role::ExchangeWrite || I.R == Role::ExchangeRead)
      Steps = std::max(Steps, I.ExchangeStep);
  return Steps ? Steps - 1 : 0;
}

// Session 26 (cflow2). Measured with the sums as exchanges, layouts as loop
// metadata (docs/modes.md, "Session 26: cflow2"; cycles per iteration,
// flattened loops): tuning mmrowsum_f16_128x256x64_w8 gfx950 LDS DMA, LLVM's
// order 4318 (llc-22, branches kept, 4722): the in-iteration layout with the
// copies 4536, its dot in two slices around the sums' steps 4460-4586, the
// writes first 5312; mmrowsum_f16_64x128x64_w4 gfx942, LLVM's order 2664
// (llc-22 2651): the in-iteration layout (one-cluster's choice without this
// rule) 2841, ungated 2841. The sums' steps are dependent LDS round trips
// through the loop's barriers, each barrier a wait for all of the
// workgroup's waves: kept in the memory cluster they make it outlast the
// partner's dot, moved next to the dot they hold its MFMAs at those barriers.
std::string ldsReductionRefusal(const LoopModel &M, const ClusterLayout &Layout,
                                bool Custom) {
  if (!M.ldsReductions())
    return "";
  const std::string Sums =
      formatv("the loop sums values across its warps through LDS in the "
              "iteration ({0} LDS writes and {1} reads through {2} of the "
              "loop's barriers)",
              M.NumExchangeWrites, M.NumExchangeReads, reductionBarriers(M))
          .str();
  if (Layout.BarrierBetweenClusters)
    return Sums + ": the layout's barriers replace the loop's, which order "
                  "each step's reads after the other waves' writes";
  if (Custom)
    return "";
  return Sums + ": the orders that keep the loop's barriers measured slower "
                "than LLVM's (docs/modes.md, \"Session 26: cflow2\"); a "
                "layout given as loop metadata can place them";
}

std::optional<ClusterLayout> layoutOnePPInLoop(const LoopModel &M,
                                               Rejection &Why) {
  const LDSRoundTrips T = ldsRoundTripsInIteration(M);
  if (!LDSInLoop || !T.Trips) {
    Why.Reason = "no LDS read of data written in the same iteration";
    return std::nullopt;
  }
  std::optional<ClusterLayout> L =
      builtinLayout(OnePPInLoopLayout, Mode::OnePP, M, Why);
  if (!L)
    return L;
  L->Note = "the loop reads back LDS it writes in the same iteration (" +
            describeTrips(T) +
            "): every LDS access in one memory cluster in the loop's order "
            "with its own barriers, its global loads first, the gated dot "
            "after it (LLVM's order runs the same chain before its MFMAs)";
  ++NumLDSInLoopLayouts;
  LLVM_DEBUG(dbgs() << "amdgpu-pingpong: in-iteration LDS round trip: "
                    << describeTrips(T) << "\n");
  return L;
}

std::string ldsInLoopSkewRefusal(const LoopModel &M,
                                 const ClusterLayout &Layout,
                                 const Rejection &PlanFailure) {
  if (!Layout.AsymmetricSync || !PlanFailure.At)
    return "";
  const InstInfo *At = nullptr;
  for (const InstInfo &I : M.Insts)
    if (I.MI == PlanFailure.At)
      At = &I;
  if (!At || At->R != Role::LocalRead)
    return "";
  const LDSRoundTrips T = ldsRoundTripsInIteration(M);
  if (!T.Trips)
    return "";
  return "the loop reads back LDS it writes in the same iteration (" +
         describeTrips(T) +
         "): the asymmetric sync runs the two wave groups one barrier "
         "interval apart, so one group would write the buffer while the "
         "other reads it, and without the skew nothing overlaps; no 8-wave "
         "order for it (" + PlanFailure.Reason + ")";
}

} // namespace pingpong
