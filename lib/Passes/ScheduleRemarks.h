//===- ScheduleRemarks.h - what the schedule pass says about a loop -*- C++ -*-===//
//
// Every remark and warning of the schedule pass (PingpongSchedule.cpp), in
// one place: a loop applied (its mode, shape, clusters, registers), not
// applied (why; a warning when the mode was forced), the LDS folds' results,
// a forced order over its register budget, the LDS-DMA hoist. The pass
// decides; this file words it.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_PASSES_SCHEDULEREMARKS_H
#define PINGPONG_PASSES_SCHEDULEREMARKS_H

#include "pingpong/Analysis/Directives.h"

#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>

namespace llvm {
class MachineFunction;
class MachineInstr;
class MachineLoop;
class MachineOptimizationRemarkEmitter;
} // namespace llvm

namespace pingpong {
struct LDSFoldResults;
struct LoopModel;
struct ModeChoice;

class ScheduleRemarks {
public:
  explicit ScheduleRemarks(llvm::MachineOptimizationRemarkEmitter &ORE)
      : ORE(ORE) {}
  /// "no pingpong: Why" at At (else the loop); a warning as well when the
  /// loop's mode was forced (ForcedBy), like -Wpass-failed.
  void missed(llvm::MachineLoop &L, const llvm::Twine &Why,
              const llvm::MachineInstr *At,
              const std::optional<Directive> &ForcedBy);
  void applied(llvm::MachineLoop &L, const Directive &D, const LoopModel &M,
               const ModeChoice &C, const std::string &SkewNote);
  /// The address fold's result either way, the M0 fold's where the loop
  /// has LDS DMAs; a self-check that failed is an error.
  void ldsFolds(llvm::MachineLoop &L, llvm::MachineFunction &MF,
                const LDSFoldResults &R);
  /// A forced order applied past its register budget (a missed remark, so
  /// that it shows with the refusals).
  void overBudget(llvm::MachineLoop &L, const ModeChoice &C);
  void hoistedDMA(llvm::MachineLoop &L, unsigned Moved);

private:
  llvm::MachineOptimizationRemarkEmitter &ORE;
};

} // namespace pingpong
#endif
