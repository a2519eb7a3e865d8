//===- ClusterPlan.h - the order a mode asks for ----------------*- C++ -*-===//
//
// The strategy half: a mode names its clusters and where each role goes
// (a ClusterLayout); planClusters() places every other instruction as the
// dependence graph allows and yields the new order (a ClusterPlan).
// Emission (Emit/) turns a plan into instructions.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SCHEDULE_CLUSTERPLAN_H
#define PINGPONG_SCHEDULE_CLUSTERPLAN_H

#include "pingpong/Analysis/Directives.h"
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Schedule/Layout.h"

#include <optional>
#include <string>
#include <vector>

namespace pingpong {
struct DepGraph;

struct ClusterPlan {
  ClusterLayout Layout;
  std::vector<unsigned> ClusterOf; // per LoopModel::Insts index
  std::vector<unsigned> Order;     // new order, indices into LoopModel::Insts
  /// Layouts with barriers and LDS DMA: per barrier interval, the vmcnt the
  /// wave waits for before the barrier that closes it (the DMA whose data
  /// the next readers need complete; Sync/SyncRules dmaDeadline), -1: none.
  std::vector<int> VmWaitBefore;
  /// ... and before the loop (the prologue issued earlier stages the same
  /// way): the count that has the first iteration's data landed, -1: none.
  int VmWaitBeforeLoop = -1;
  /// Per LoopModel::Insts index: the group of its cluster's interleave
  /// clause it is placed in (counted over the clause's turns; for a kind the
  /// clause does not name, the group it starts in), ~0u: none. The emitter
  /// fences the groups apart. Empty: it leaves interleaves to IGroupLP.
  std::vector<unsigned> GroupOf;
  unsigned count(unsigned C, Role R, const LoopModel &M) const;
  /// The memory instructions (LDS reads and writes, global loads and stores,
  /// LDS DMA, crossbar ops) the layout's selectors put in dot clusters: an
  /// LDS DMA among the MFMAs, an exchange's reads with its dot, the softmax's
  /// ds_bpermute with the inter-dot VALU. The plan intends them
  /// there, so the final check does not call them a broken order.
  std::vector<const llvm::MachineInstr *> memoryInDot(const LoopModel &M) const;
  /// "mem0 6, dot0 16, ..." for remarks.
  std::string describe(const LoopModel &M) const;
};

/// Common precondition of the 8-wave modes: Slices divides the K steps of an
/// iteration, and the workgroup has the 8 waves the asymmetric sync pairs up.
bool canSliceAcrossWaveGroups(const LoopModel &M, unsigned Slices, Mode Md,
                              Rejection &Why);

/// A mode's layout from its text (Modes/LayoutText.h); a text that does not parse is
/// a bug of the plugin, reported through Why.
std::optional<ClusterLayout> builtinLayout(const char *Text, Mode Md,
                                           const LoopModel &M, Rejection &Why);

/// The three layouts Triton's BlockPingpong uses (one file each). They fail
/// (nullopt + Why) when the loop cannot be cut that way.
std::optional<ClusterLayout> layoutOnePP(const LoopModel &M, Rejection &Why,
                                         unsigned Variant);
/// LDS read back in the iteration that wrote it (LDSInLoop.cpp, session 25):
/// reads behind a loop barrier that closed writes of bytes they may share
/// (Analysis/LDSObjects' identity: not proven disjoint), and the round trips (barriers) they sit
/// behind. One-cluster's second variant at 4 waves is its layout
/// (-amdgpu-pingpong-lds-in-loop); the 8-wave layouts' placement failure on
/// such a read gets the reason no skewed order exists (empty: not that).
struct LDSRoundTrips {
  unsigned Reads = 0, Trips = 0;
};
LDSRoundTrips ldsRoundTripsInIteration(const LoopModel &M);
unsigned onePPVariants(const LoopModel &M);
std::optional<ClusterLayout> layoutOnePPInLoop(const LoopModel &M,
                                               Rejection &Why);
std::string ldsInLoopSkewRefusal(const LoopModel &M,
                                 const ClusterLayout &Layout,
                                 const Rejection &PlanFailure);
/// A GEMM's cross-warp sums through LDS (LoopModel::ldsReductions): why
/// Layout does not take the loop (empty: it may). A layout whose barriers
/// replace the loop's cannot order the sums; the built-in orders that keep
/// them measured slower than LLVM's, so only a custom layout that keeps the
/// loop's barriers (Custom) takes them.
std::string ldsReductionRefusal(const LoopModel &M, const ClusterLayout &Layout,
                                bool Custom);
std::optional<ClusterLayout> layoutTwoPP(const LoopModel &M, Rejection &Why);
std::optional<ClusterLayout> layoutFourPP(const LoopModel &M, Rejection &Why,
                                          unsigned Variant);
unsigned fourPPVariants(const LoopModel &M);
/// Four-cluster's clusters with the global loads as late as they go (after
/// the last slice's reads): not a variant to run (the loads' data is wanted
/// one dot later), the witness that the loop's body has an order within a
/// register budget where the variants are past it.
std::optional<ClusterLayout> fourPPRegisterWitness(const LoopModel &M,
                                                   Rejection &Why);
/// The operand whose LDS DMA the loop issues first (A if none is known):
/// LLVM keeps the DMAs in program order (each may alias the others), so a
/// layout must take them in that order.
Operand firstDMAOperand(const LoopModel &M);
/// The LDS-DMA layouts (issue 10): 8 and 4 waves. Async-two-cluster with
/// three stages has two variants where a wave's memory work outlasts the
/// partner's dot (asyncTwoPPDMAInDot): the DMAs in the dot cluster, then
/// the usual layout as the fallback when that does not plan.
std::optional<ClusterLayout> layoutAsyncTwoPP(const LoopModel &M,
                                              Rejection &Why,
                                              unsigned Variant = 0);
bool asyncTwoPPDMAInDot(const LoopModel &M);
/// The round trip, in clocks, a global load or LDS DMA takes inside a GEMM
/// that fills the chip (TargetFacts::LoadedRoundTrip) where the layouts place
/// memory work for it (-amdgpu-pingpong-loaded-round-trip); 0: the unloaded
/// latency, which every layout covers.
unsigned loadedRoundTrip(const LoopModel &M);
/// Why the LDS-DMA pingpong cannot beat LLVM's order on a loop whose memory
/// work outlasts the partner's dot (asyncTwoPPDMAInDot) when the copies'
/// loaded round trip (-amdgpu-pingpong-loaded-round-trip) outlasts an
/// iteration's MFMA time; empty: no verdict.
std::string asyncCopiesPastDot(const LoopModel &M);
std::optional<ClusterLayout> layoutAsyncOnePP(const LoopModel &M,
                                              Rejection &Why);
/// LDS DMA next to register-staged LDS writes (MixStage.cpp, session 23):
/// the loop's shape, whether auto takes it (-amdgpu-pingpong-mixed-stage),
/// async-one-cluster's writes-first layout for it (4 or 8 waves), and why it
/// cannot beat LLVM's order (empty: no verdict).
bool mixedStageShape(const LoopModel &M);
bool mixedStageEnabled();
std::optional<ClusterLayout> layoutMixedStage(const LoopModel &M,
                                              Rejection &Why);
std::string mixedStageNoGain(const LoopModel &M);
/// The same loops where every register-staged LDS write stores a global load
/// of its own iteration (heldout7's weight-only MXFP4 GEMM's scales,
/// MixStage.cpp, session 24): the mode auto tries (single-wave's one-wave
/// order where each SIMD runs one wave or the workgroup has 8 waves;
/// OneWavePerSIMD: a 4-wave workgroup alone on its CU), its layout, and why
/// it cannot beat LLVM's order (empty: no verdict).
Mode mixedStageMode(const LoopModel &M, bool OneWavePerSIMD);
bool mixedStageOneWaveShape(const LoopModel &M);
std::optional<ClusterLayout> layoutMixedStageOneWave(const LoopModel &M,
                                                     Rejection &Why);
std::string mixedStageOneWaveNoGain(const LoopModel &M);
/// async-one-cluster at two stages where a copy's loaded round trip plus the
/// workgroup's copy bytes at the CU's L2 share outlast an iteration's MFMA
/// time: the layout that waits for each operand's copies apart.
bool asyncOneOperandWait(const LoopModel &M);
/// async-one-cluster's memory cluster against the partner wave's dot it
/// faces: at least one issue turn per instruction it holds and an LDS
/// latency per dependent LDS round trip (Throughput.h's IssueBound). Where
/// the whole memory work outlasts the dot, the layout is the split variant
/// (AsyncOnePP.cpp), whose dot takes MovedToDot of those instructions.
/// OperandWaits: the layout is the operand-split wait's (asyncOneOperandWait)
/// instead, whose dot takes the other operand's reads.
struct AsyncOneMemory {
  bool Known = false, Split = false, OperandWaits = false;
  unsigned NonMFMA = 0, MFMAs = 0, LDSTrips = 0, MovedToDot = 0;
  unsigned Clocks = 0; // the memory cluster's estimate, per wave
  double DotClocks = 0; // the partner's dot: MFMA pipe clocks per wave
};
AsyncOneMemory asyncOneMemory(const LoopModel &M, bool OperandWaits = false);
std::optional<ClusterLayout> layoutAsyncFourPP(const LoopModel &M,
                                               Rejection &Why);
/// Seed 004's skinny v2 (SkinnyPP.cpp): 8 waves, LDS DMA, by name only; at
/// 4 waves seed 002's M=32 loop (LDS DMA next to direct operand loads).
std::optional<ClusterLayout> layoutSkinnyPP(const LoopModel &M, Rejection &Why);
/// One wave per SIMD at 4 waves (SingleWave.cpp): no partner to take turns
/// with, so the one wave overlaps its own memory work with its MFMAs. Also
/// GEMMs whose pingpong is LDS-bound (singleWaveLDSBound). Attention has
/// two variants (singleWaveVariants).
std::optional<ClusterLayout> layoutSingleWave(const LoopModel &M,
                                              Rejection &Why,
                                              unsigned Variant = 0);
/// A register-staged GEMM whose pingpong is LDS-bound: the LDS traffic of a
/// memory cluster takes more than 1.25x the dot it hides behind on the SIMD
/// pair's port (ldsPortBound): turn-taking cannot hide it. The corpus has
/// 1.0 (the 8-wave 256x128 tiles: two-cluster 6-7% ahead), 1.5 (8-wave NN
/// 128x128x64: single-wave 16% ahead; 4-wave 64x64x64: 5%) and 0.75 (the
/// 4-wave 128x128x64 tiles at the MFMA bound); 1.25 is between.
/// Since session 12 also: the CU's L2 share is not as busy as the port
/// (l2BelowPort); since session 20: a wave's issue turns fit in its own
/// dot (ownWorkPastOwnDot).
bool singleWaveLDSBound(const LoopModel &M);
/// Single-wave layouts for this loop: attention has two, the first held to
/// the two-wave register budget (singleWaveTwoWaveOrder); a GEMM of the
/// register-lean order's shape two, the lean order the second
/// (singleWaveLeanGemmVariant).
unsigned singleWaveVariants(const LoopModel &M);
bool singleWaveLeanGemmVariant(const LoopModel &M, unsigned Variant);
/// Whether single-wave's layout Variant is the attention order meant to fit
/// two waves per SIMD (two workgroups per CU), so held to that budget
/// instead of one wave's.
bool singleWaveTwoWaveOrder(const LoopModel &M, unsigned Variant);
/// Session 26 (onewaveattn): whether Variant is the two-wave order's second
/// form, P V in eight parts with the global loads late
/// (-amdgpu-pingpong-single-wave-eight-parts), taken over the issue-bound
/// verdict where LLVM's order runs at one wave per SIMD (SingleWave.cpp).
bool singleWaveEightPartsOrder(const LoopModel &M, unsigned Variant);
/// -amdgpu-pingpong-single-wave-eight-parts (and the two-wave attention
/// orders) are on.
bool singleWaveEightPartsRequested();
/// Why that order is not judged by the issue-bound verdict (Before: LLVM's
/// order's estimate, Budget: two waves'), or empty where it is.
std::string singleWaveEightPartsNoVerdict(const LoopModel &M, unsigned Variant,
                                          unsigned Before, unsigned Budget);
/// Session 25 (regbudget): a 4-wave register-staged GEMM the register-lean
/// single-wave order (held to two waves per SIMD) applies to, its layout,
/// and whether -amdgpu-pingpong-lean-gemm asked for it (SingleWave.cpp).
bool singleWaveLeanGemmShape(const LoopModel &M);
std::string singleWaveLeanGemmLayout(const LoopModel &M);
bool singleWaveLeanGemmRequested();
/// The port part of singleWaveLDSBound: 1.25x the dot.
bool portPastDot(const LoopModel &M);
/// Empty where a loop past portPastDot is LDS-bound for single-wave
/// (l2BelowPort and ownWorkPastOwnDot both empty); else why not.
std::string notLDSBound(const LoopModel &M);
/// Empty where a wave's instructions, one issue turn each, fit in its own
/// dot's MFMA pipe clocks (or either is not known); else why single-wave's
/// order cannot hide the wave's LDS traffic behind its own MFMAs.
std::string ownWorkPastOwnDot(const LoopModel &M);
/// Empty where the global loads take the CU's L2 share less long than the
/// workgroup's LDS traffic takes the port per iteration (or either is not
/// known); else why the loop is not LDS-bound, with the numbers.
std::string l2BelowPort(const LoopModel &M);
/// Side loads that meet only a dot's result (classifyResultSideLoads: a
/// block scale applied after the dot), not an operand; InIteration: only
/// those whose value is used in the iteration that loads it (not issued an
/// iteration ahead).
bool hasResultSideLoads(const LoopModel &M, bool InIteration = false);
/// Side loads other than a dot result's side inputs issued an iteration
/// ahead (LoadLookahead.cpp's scale loads, which no built-in layout places).
unsigned sideLoadsInIteration(const LoopModel &M);
/// The layouts of the copies-ahead LDS-DMA loops with a dot result's side
/// inputs loaded an iteration ahead issue those loads first in the
/// iteration (`side-loads-early`, `side-load~1`) and end with an empty dot
/// cluster for the latch copies (-amdgpu-pingpong-side-loads-early).
bool sideLoadsEarly(const LoopModel &M);
/// Such side loads, issued and consumed in one iteration, whose loaded
/// round trip (loadedRoundTrip) outlasts both waves' dots on a SIMD: no
/// turn-taking hides it, each wave overlaps it with its own dot
/// (single-wave, the scaling after the last slice).
bool resultSideLoadsPastDot(const LoopModel &M);
/// The 4-wave skinny shape: LDS DMA together with operands loaded straight
/// from global memory (and a register-staged scale), no chained dots.
bool skinnyFourWaveShape(const LoopModel &M);
/// Chained dots (attention), 4 or 8 waves: ChainedPP.cpp. Variant 1 is the
/// mode's fallback when variant 0 does not fit the registers.
std::optional<ClusterLayout> layoutChainedPP(const LoopModel &M, Rejection &Why,
                                             unsigned Variant = 0);
/// auto, 8-wave LDS-DMA attention with P through LDS between the dots: why
/// chained-dot's order does not gain over LLVM's (a remark), or "" (ChainedPP.cpp).
std::string chainedDMANoGain(const LoopModel &M);
/// How many layouts a mode has to try on M, in order (1 but for chained-dot).
unsigned chainedPPVariants(const LoopModel &M);
/// Whether chained-dot's layout Variant is the 8-wave register-lean order
/// (the last register fallback; ModeChoice takes it only where LLVM's own
/// order is past the budget).
bool chainedPPLeanVariant(const LoopModel &M, unsigned Variant);
unsigned layoutVariants(Mode Md, const LoopModel &M);
std::optional<ClusterLayout> layoutFor(Mode Md, const LoopModel &M,
                                       Rejection &Why, unsigned Variant = 0);

/// Place every instruction in a cluster, respecting the graph.
std::optional<ClusterPlan> planClusters(const LoopModel &M, const DepGraph &G,
                                        ClusterLayout Layout, Rejection &Why);

/// Order each interleaved cluster group by group, the groups filled as
/// IGroupLP's greedy solver would (Interleave.cpp), and fill Plan.GroupOf.
void orderInterleaves(const LoopModel &M, const DepGraph &G, ClusterPlan &Plan);

/// LDS-DMA loops (seed 002 "hack0"): an order that issues each LDS DMA, with
/// the instructions it needs, at the start of its barrier interval, i.e.
/// right after the barrier (and its wait) that frees the buffer it fills.
/// Moved counts the DMA instructions that move; nullopt if none would.
std::optional<std::vector<unsigned>> hoistLDSDMAOrder(const LoopModel &M,
                                                      const DepGraph &G,
                                                      unsigned &Moved);

/// The mode choice (candidateModes, the tile thresholds): ModeChoice.h.

} // namespace pingpong
#endif
