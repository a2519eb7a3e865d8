//===- RegPressure.cpp - vector register pressure of a loop order --------===//
#include "pingpong/Analysis/RegPressure.h"
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/IntEqClasses.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/CodeGen/MachineDominators.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
namespace pingpong {

/// 32-bit vector registers a virtual register occupies; 0 for scalars.
static unsigned vectorUnits(Register R, const MachineRegisterInfo &MRI,
                            const TargetRegisterInfo &TRI) {
  // AMDGPU's divergent classes are the VGPR, AGPR and AV classes.
  const TargetRegisterClass *RC = MRI.getRegClass(R);
  return TRI.isDivergentRegClass(RC) ? TRI.getRegSizeInBits(*RC) / 32 : 0;
}

unsigned peakVectorPressure(const LoopModel &Model, ArrayRef<unsigned> Order,
                            const MachineDominatorTree &MDT) {
  const MachineBasicBlock *Body = Model.Body;
  const MachineFunction &MF = *Body->getParent();
  const MachineRegisterInfo &MRI = MF.getRegInfo();
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();

  // A value defined before the loop is live through it when a use can be
  // reached from the loop's exits without passing its definition again (in
  // SSA, passing the definition starts a new value: in a persistent kernel
  // the outer loop leads from the K loop's exit back to every block, but the
  // values defined there are redefined before their next use).
  SmallVector<const MachineBasicBlock *, 4> Exits;
  for (const MachineBasicBlock *S : Body->successors())
    if (S != Body)
      Exits.push_back(S);
  DenseMap<const MachineBasicBlock *, SmallPtrSet<const MachineBasicBlock *, 16>>
      AfterCache;
  auto ReachableAfter = [&](const MachineBasicBlock *Stop)
      -> const SmallPtrSet<const MachineBasicBlock *, 16> & {
    auto It = AfterCache.find(Stop);
    if (It != AfterCache.end())
      return It->second;
    SmallPtrSet<const MachineBasicBlock *, 16> &After = AfterCache[Stop];
    SmallVector<const MachineBasicBlock *, 8> Work(Exits.begin(), Exits.end());
    while (!Work.empty()) {
      const MachineBasicBlock *B = Work.pop_back_val();
      if (B == Body || !After.insert(B).second || B == Stop)
        continue; // a use in Stop itself may still read the old value
      for (const MachineBasicBlock *S : B->successors())
        Work.push_back(S);
    }
    return After;
  };

  unsigned Through = 0;
  DenseSet<Register> LiveOut;
  for (unsigned I = 0, E = MRI.getNumVirtRegs(); I != E; ++I) {
    Register R = Register::index2VirtReg(I);
    if (MRI.reg_nodbg_empty(R))
      continue;
    unsigned Units = vectorUnits(R, MRI, TRI);
    if (!Units)
      continue;
    const MachineInstr *Def = MRI.getUniqueVRegDef(R);
    if (!Def)
      continue;
    const MachineBasicBlock *DefBB = Def->getParent();
    bool DefInBody = DefBB == Body && !Def->isPHI();
    // Body's own definitions: the exits' reachable set stops at Body anyway.
    const auto &After = ReachableAfter(DefInBody ? Body : DefBB);
    bool UsedInBody = false, UsedAfter = false, FeedsHeaderPhi = false;
    for (const MachineInstr &U : MRI.use_nodbg_instructions(R)) {
      const MachineBasicBlock *UB = U.getParent();
      if (UB == Body && U.isPHI())
        FeedsHeaderPhi = true;
      else if (UB == Body)
        UsedInBody = true;
      else if (After.count(UB) && !(UB == DefBB && !U.isPHI() &&
                                    !DefInBody && UB != Body))
        UsedAfter = true;
    }
    if (DefInBody) {
      if (FeedsHeaderPhi || UsedAfter)
        LiveOut.insert(R);
    } else if (DefBB != Body && MDT.dominates(DefBB, Body) &&
               (UsedInBody || UsedAfter)) {
      Through += Units; // defined before the loop, needed in or after it
    }
  }

  // Copies, REG_SEQUENCE and friends are joined by the register coalescer:
  // count each group of such vregs once (the values are the same).
  // Classes over virtual register indices (every vreg here is virtual).
  IntEqClasses Groups(MRI.getNumVirtRegs());
  auto Find = [&](Register R) { return Groups.findLeader(R.virtRegIndex()); };
  auto Unite = [&](Register A, Register B) {
    Groups.join(A.virtRegIndex(), B.virtRegIndex());
  };
  for (const InstInfo &II : Model.Insts) {
    const MachineInstr &MI = *II.MI;
    if (!(MI.isCopy() || MI.isRegSequence() || MI.isInsertSubreg() ||
          MI.isSubregToReg()) ||
        !MI.getOperand(0).getReg().isVirtual())
      continue;
    for (const MachineOperand &MO : MI.uses())
      if (MO.isReg() && MO.getReg().isVirtual() &&
          vectorUnits(MO.getReg(), MRI, TRI))
        Unite(MO.getReg(), MI.getOperand(0).getReg());
  }
  DenseMap<unsigned, unsigned> GroupUnits, GroupLive;
  for (const InstInfo &II : Model.Insts)
    for (const MachineOperand &MO : II.MI->operands())
      if (MO.isReg() && MO.getReg().isVirtual()) {
        unsigned &U = GroupUnits[Find(MO.getReg())];
        U = std::max(U, vectorUnits(MO.getReg(), MRI, TRI));
      }
  for (Register R : LiveOut) {
    unsigned &U = GroupUnits[Find(R)];
    U = std::max(U, vectorUnits(R, MRI, TRI));
  }

  DenseSet<Register> Live;
  unsigned Cur = 0;
  auto MakeLive = [&](Register R) {
    if (!Live.insert(R).second)
      return;
    unsigned G = Find(R);
    if (GroupLive[G]++ == 0)
      Cur += GroupUnits[G];
  };
  auto Kill = [&](Register R) {
    if (!Live.erase(R))
      return;
    unsigned G = Find(R);
    if (--GroupLive[G] == 0)
      Cur -= GroupUnits[G];
  };
  for (Register R : LiveOut)
    MakeLive(R);
  unsigned Peak = Cur;
  for (unsigned Pos = Order.size(); Pos-- > 0;) {
    const MachineInstr &MI = *Model.Insts[Order[Pos]].MI;
    for (const MachineOperand &MO : MI.defs())
      if (MO.isReg() && MO.getReg().isVirtual())
        Kill(MO.getReg());
    for (const MachineOperand &MO : MI.uses()) {
      if (!MO.isReg() || !MO.getReg().isVirtual() ||
          !vectorUnits(MO.getReg(), MRI, TRI))
        continue;
      const MachineInstr *Def = MRI.getUniqueVRegDef(MO.getReg());
      if (Def && Def->getParent() != Body)
        continue; // defined before the loop: counted in Through
      MakeLive(MO.getReg());
    }
    Peak = std::max(Peak, Cur);
  }
  return Peak + Through;
}

unsigned vectorRegisterBudget(const MachineFunction &MF) {
  unsigned Waves = 2;
  const Function &F = MF.getFunction();
  if (F.hasFnAttribute("amdgpu-waves-per-eu")) {
    StringRef V = F.getFnAttribute("amdgpu-waves-per-eu").getValueAsString();
    unsigned Min = 0;
    if (!V.split(',').first.trim().getAsInteger(10, Min) && Min > Waves)
      Waves = Min;
  }
  const target::TargetFacts *T = target::factsFor(MF.getSubtarget().getCPU());
  return target::vgprBudget(T ? *T : target::Gfx942, Waves);
}

} // namespace pingpong
