//===- ScheduledLoops.h - what the schedule pass did, for later passes ---===//
//
// The machine passes after the schedule pass (the final check, the wait
// placement) need to know which loops the plugin scheduled, which memory ops
// its layout put in a dot cluster on purpose, and which loops asked for
// per-operand wait placement. A legacy ImmutablePass holds that: the pass
// manager owns it (no process-global state), each pass asks for it with
// getAnalysis, and it describes one function at a time (codegen runs the
// machine passes function by function; the schedule pass starts each one).
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_PASSES_SCHEDULEDLOOPS_H
#define PINGPONG_PASSES_SCHEDULEDLOOPS_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Pass.h"

namespace llvm {
class BasicBlock;
class MachineBasicBlock;
class MachineInstr;
class PassRegistry;
void initializePingpongScheduledLoopsPass(PassRegistry &);
} // namespace llvm

namespace pingpong {

class PingpongScheduledLoops : public llvm::ImmutablePass {
public:
  static char ID;
  PingpongScheduledLoops();

  /// The schedule pass starts on F: forget what it did to the last one.
  void beginFunction(const llvm::Function &F);
  /// The plugin scheduled the loop with this header. Keyed by the header's
  /// IR block, which outlives the machine passes between the two.
  void noteScheduled(const llvm::MachineBasicBlock &Header);
  /// Did the plugin schedule the loop of this block (not the frontend:
  /// Triton's own s_setprio loops are not the plugin's)?
  bool isScheduled(const llvm::MachineBasicBlock &MBB) const;
  /// A memory op the applied layout put in a dot cluster on purpose (its
  /// selectors took it there, e.g. LDS DMA among Q K^T's MFMAs): the final
  /// check does not count it as a broken order.
  void noteLayoutMemoryInDot(const llvm::MachineInstr *MI);
  bool layoutPutInDot(const llvm::MachineInstr *MI) const;
  /// A mode asks the post-RA wait placement (PingpongWaits) for this loop
  /// (layout flag operand-waits without barriers).
  void requestWaitPlacement(const llvm::MachineBasicBlock &Header);
  bool waitPlacementRequested(const llvm::MachineBasicBlock &Header) const;

private:
  const llvm::Function *Current = nullptr;
  llvm::SmallPtrSet<const llvm::BasicBlock *, 4> Headers;
  llvm::SmallPtrSet<const llvm::MachineInstr *, 32> InDot;
  llvm::SmallPtrSet<const llvm::BasicBlock *, 4> WaitRequests;
};

} // namespace pingpong
#endif
