//===- ModeChoice.h - which mode a loop gets ------------------*- C++ -*-===//
//
// The strategy's entry point: from a loop's model and what its directives
// ask, the mode (or custom layout) whose plan holds and fits the register
// budget, tried best first; or the reason none does. A shape the model knows
// but no mode schedules yet (LDS DMA, scales, chained dots, direct global
// operands: issue 10) is refused here with a remark naming it.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SCHEDULE_MODECHOICE_H
#define PINGPONG_SCHEDULE_MODECHOICE_H

#include "pingpong/Analysis/Directives.h"
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Modes/Modes.h" // tile:: thresholds, the auto rule
#include "pingpong/Schedule/ClusterPlan.h"
#include "pingpong/Schedule/Layout.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class AAResults;
class Function;
class MachineDominatorTree;
class MachineFunction;
class MachineInstr;
class MachineLoop;
class MachineLoopInfo;
} // namespace llvm

namespace pingpong {

/// What the loop's directives ask for.
struct ModeRequest {
  Directive D;
  /// A layout from loop metadata, forced like a mode.
  std::optional<ClusterLayout> Custom;
  bool forced() const { return D.M != Mode::Auto || Custom.has_value(); }
};

/// The shapes of this loop that no mode schedules yet, joined with "; "
/// (e.g. "operands through LDS DMA (8 async copies, 2 stages)"); empty for
/// the GEMM loops the modes handle.
std::string unscheduledShapes(const LoopModel &M);

/// -amdgpu-pingpong-four-wave-attention was given: auto applies the 4-wave
/// chained-dot order instead of keeping LLVM's.
bool fourWaveAttentionRequested();

/// Auto selection: the modes worth trying for this loop, best first, or the
/// reason none applies. Register pressure is checked by chooseMode.
std::vector<Mode> candidateModes(const LoopModel &M, Rejection &Why);

/// The machine context plans are tried in.
struct PlanContext {
  llvm::MachineLoop &L;
  llvm::MachineFunction &MF;
  llvm::MachineLoopInfo &MLI;
  llvm::MachineDominatorTree &MDT;
  llvm::AAResults *AA;
  /// Why emission cannot give this loop the asymmetric sync (asked of Emit by
  /// the pass); empty: it can.
  std::string NoAsymmetricSync;
};

/// A mode whose plan holds. Trying it changed no MIR: emission (Emit/)
/// deletes Drop, then applies Plan to Work; a choice dropped unapplied
/// leaves the loop as it was.
struct ModeChoice {
  std::string Name;             // "two-cluster", ..., "custom layout"
  LoopModel Work;               // the model the plan indexes (without Drop)
  ClusterPlan Plan;
  /// Instructions of the body the plan leaves out, to delete when it is
  /// applied: the loop's own sync where the layout brings its own, and the
  /// author's schedule (LoopModel::OldSchedule).
  std::vector<llvm::MachineInstr *> Drop;
  unsigned Peak = 0;            // vector registers of the plan's order
  unsigned Before = 0;          // ... of LLVM's order
  unsigned Budget = 0;
  bool Forced = false;
};

/// Try the requested mode (forced or custom), or the auto candidates, in
/// order: the first whose plan holds and fits the register budget (a forced
/// one may exceed it; an order over the budget that still needs fewer
/// registers than LLVM's own is taken too). std::nullopt with the reason:
/// why no mode applies, or each mode tried and why it failed.
std::optional<ModeChoice> chooseMode(const LoopModel &M, const ModeRequest &Req,
                                     PlanContext &Ctx, Rejection &Why);

/// Where auto keeps LLVM's order on a gfx942 4-wave register-staged
/// attention loop (issue 28, session 21) whose registers are past two waves
/// per SIMD (the estimate of LLVM's order before scheduling), and the kernel
/// is not told its occupancy: why AMDGPU's scheduler should order it for
/// latency instead of occupancy (one wave per SIMD, no other wave to hide a
/// stall: AMDGPU's max-ilp strategy); "" where not.
std::string oneWaveLatency(const LoopModel &M, const llvm::MachineFunction &MF);

/// F carries an "amdgpu-waves-per-eu" with a minimum of at least 1 (the
/// user's, or the occupancy hint's): AMDGPU's scheduler aims at that.
bool wavesPerEUTold(const llvm::Function &F);
/// The most the register estimate of a chained-dot loop's order fell short
/// of the registers allocated for it (ModeChoice.cpp).
unsigned chainedDotEstimateError();

} // namespace pingpong
#endif
