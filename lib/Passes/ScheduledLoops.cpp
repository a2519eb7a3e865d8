//===- ScheduledLoops.cpp - what the schedule pass did, for later passes -===//
#include "pingpong/Passes/ScheduledLoops.h"

#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/InitializePasses.h"

using namespace llvm;
using namespace pingpong;

char PingpongScheduledLoops::ID = 0;

PingpongScheduledLoops::PingpongScheduledLoops() : ImmutablePass(ID) {}

void PingpongScheduledLoops::beginFunction(const Function &F) {
  Current = &F;
  Headers.clear();
  InDot.clear();
  WaitRequests.clear();
}

void PingpongScheduledLoops::noteScheduled(const MachineBasicBlock &Header) {
  Current = &Header.getParent()->getFunction();
  if (const BasicBlock *BB = Header.getBasicBlock())
    Headers.insert(BB);
}

bool PingpongScheduledLoops::isScheduled(const MachineBasicBlock &MBB) const {
  return Current == &MBB.getParent()->getFunction() && MBB.getBasicBlock() &&
         Headers.count(MBB.getBasicBlock());
}

void PingpongScheduledLoops::noteLayoutMemoryInDot(const MachineInstr *MI) {
  InDot.insert(MI);
}

bool PingpongScheduledLoops::layoutPutInDot(const MachineInstr *MI) const {
  return InDot.count(MI);
}

void PingpongScheduledLoops::requestWaitPlacement(
    const MachineBasicBlock &Header) {
  Current = &Header.getParent()->getFunction();
  if (const BasicBlock *BB = Header.getBasicBlock())
    WaitRequests.insert(BB);
}

bool PingpongScheduledLoops::waitPlacementRequested(
    const MachineBasicBlock &Header) const {
  return Current == &Header.getParent()->getFunction() &&
         Header.getBasicBlock() && WaitRequests.count(Header.getBasicBlock());
}

INITIALIZE_PASS(PingpongScheduledLoops, "amdgpu-pingpong-scheduled-loops",
                "AMDGPU block pingpong: the loops scheduled (plugin)", false,
                true)
