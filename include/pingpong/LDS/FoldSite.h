//===- FoldSite.h - what the LDS folds share --------------------*- C++ -*-===//
//
// The loop the LDS folds (AddressFold.h, DMAM0Fold.h) work on, checked once
// by their driver (Folds.h), and the status each fold reports.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_LDS_FOLDSITE_H
#define PINGPONG_LDS_FOLDSITE_H

#include <string>

namespace llvm {
class MachineBasicBlock;
} // namespace llvm

namespace pingpong {

/// A single-block loop in machine SSA and where its invariant sums go.
struct FoldSite {
  llvm::MachineBasicBlock &Body; // the loop's only block
  llvm::MachineBasicBlock &Pre;  // every entry passes it (blockBeforeLoop)
};

/// What every fold reports, whatever else it counts.
struct FoldStatus {
  bool Changed = false;
  /// Why nothing changed (empty when Changed), or the self-check's finding.
  std::string Why;
  /// The fold's result read back wrong: undone, and an error for the user.
  bool SelfCheckFailed = false;
};

} // namespace pingpong
#endif
