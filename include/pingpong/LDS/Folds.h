//===- Folds.h - the LDS folds of a scheduled loop --------------*- C++ -*-===//
//
// Issue 12's two folds run on a loop once its order is final: the LDS
// address fold (AddressFold.h), then the LDS DMA M0 fold (DMAM0Fold.h) on
// its result. The driver checks what both need of the loop once (a single
// block, a block every entry passes, machine SSA), applies the register
// room rule, runs them in that order and hands back both results; the
// pass turns them into remarks (PingpongSchedule.cpp, reportLDSFolds).
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_LDS_FOLDS_H
#define PINGPONG_LDS_FOLDS_H

#include "pingpong/LDS/AddressFold.h"
#include "pingpong/LDS/DMAM0Fold.h"

#include <optional>

namespace llvm {
class MachineDominatorTree;
class MachineLoop;
} // namespace llvm

namespace pingpong {

/// The pass's options (PingpongSchedule.cpp, docs/lds-addressing.md).
struct LDSFoldOptions {
  bool Addresses = true;       // -amdgpu-pingpong-lds-addressing
  bool DMADestinations = true; // -amdgpu-pingpong-lds-dma-destinations
  /// Vector registers the schedule must leave free of the budget for the
  /// address fold to run (-amdgpu-pingpong-lds-addressing-margin).
  unsigned Margin = 8;
  bool SelfCheck = true;          // both folds
  unsigned MinRegistersFreed = 2; // the address fold
  bool InjectSliceBase = false;   // test only: the address fold
  bool InjectDMABase = false;     // test only: the M0 fold
};

struct LDSFoldResults {
  /// Set whenever the address fold is asked for: it reports either way.
  std::optional<LDSAddressingResult> Addresses;
  /// Set when the M0 fold ran on the loop.
  std::optional<DMAM0Result> DMADestinations;
};

/// Runs the LDS folds on loop L, just scheduled in an order that needs
/// about SchedulePeak of Budget vector registers.
LDSFoldResults foldLDS(llvm::MachineLoop &L,
                       const llvm::MachineDominatorTree &MDT,
                       const LDSFoldOptions &Opts, unsigned SchedulePeak,
                       unsigned Budget);

} // namespace pingpong
#endif
