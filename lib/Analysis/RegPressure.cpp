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

// AMDGPU's divergent classes are the VGPR, AGPR and AV classes.
bool isVectorReg(Register R, const MachineRegisterInfo &MRI,
                 const TargetRegisterInfo &TRI) {
  return R.isVirtual() && TRI.isDivergentRegClass(MRI.getRegClass(R));
}

unsigned vectorUnits(Register R, const MachineRegisterInfo &MRI,
                     const TargetRegisterInfo &TRI) {
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

//===----------------------------------------------------------------------===//
// BodyPressure: the body's current order, re-asked after trial edits.
//===----------------------------------------------------------------------===//

BodyPressure::BodyPressure(const MachineBasicBlock &Body,
                           DenseSet<Register> ChangingSet)
    : Body(Body), MRI(Body.getParent()->getRegInfo()),
      TRI(*Body.getParent()->getSubtarget().getRegisterInfo()),
      Changing(ChangingSet.begin(), ChangingSet.end()),
      KnownRegs(MRI.getNumVirtRegs()), ThroughValue(KnownRegs),
      KnownValue(KnownRegs), KnownWidth(KnownRegs) {
  Reach = reachableFrom(nullptr);
  for (unsigned I = 0; I < KnownRegs; ++I) {
    Register R = Register::index2VirtReg(I);
    if (!isVector(R))
      continue;
    // the chain ends at a known register: their definitions are not edited
    KnownValue[I] = valueOf(R).virtRegIndex();
    KnownWidth[I] = TRI.getRegSizeInBits(*MRI.getRegClass(R)) / 32;
  }
  for (unsigned I = 0; I < KnownRegs; ++I) {
    Register R = Register::index2VirtReg(I);
    if (!isVector(R) || ChangingSet.count(R))
      continue;
    MachineInstr *Def = MRI.getUniqueVRegDef(R);
    if (Def && Def->getParent() != &Body &&
        liveInAtBody(R, *Def->getParent(), {}) &&
        !ThroughValue.test(KnownValue[I])) {
      ThroughValue.set(KnownValue[I]);
      ThroughUnits += KnownWidth[KnownValue[I]];
    }
  }
}

unsigned BodyPressure::valueIndex(Register R) const {
  unsigned I = R.virtRegIndex();
  return I < KnownRegs ? KnownValue[I] : valueOf(R).virtRegIndex();
}

unsigned BodyPressure::width(unsigned ValueIdx) const {
  if (ValueIdx < KnownRegs)
    return KnownWidth[ValueIdx];
  Register V = Register::index2VirtReg(ValueIdx);
  return TRI.getRegSizeInBits(*MRI.getRegClass(V)) / 32;
}

/// Widens the value's range to cover gaps From..To of this query; the
/// values live through the body cover every gap already.
void BodyPressure::extend(unsigned V, unsigned From, unsigned To) {
  if (V < KnownRegs && ThroughValue.test(V))
    return;
  if (RangeStamp[V] != Query) {
    RangeStamp[V] = Query;
    RangeFrom[V] = From;
    RangeTo[V] = To;
    Ranged.push_back(V);
    return;
  }
  RangeFrom[V] = std::min(RangeFrom[V], From);
  RangeTo[V] = std::max(RangeTo[V], To);
}

unsigned BodyPressure::peak(const DenseSet<MachineInstr *> &Skip) {
  const unsigned NumRegs = MRI.getNumVirtRegs();
  if (RangeStamp.size() < NumRegs) {
    for (std::vector<unsigned> *V :
         {&RangeStamp, &RangeFrom, &RangeTo, &UseStamp, &LastUse})
      V->resize(NumRegs, 0);
  }
  ++Query;
  Ranged.clear();
  Insts.clear();
  // Gap K is the point before instruction K (K == End: after the last).
  // The last reader in the body of every register, in one forward walk.
  for (const MachineInstr &MI : Body) {
    if (MI.isDebugInstr() || Skip.count(const_cast<MachineInstr *>(&MI)))
      continue;
    if (!MI.isPHI())
      for (const MachineOperand &MO : MI.operands())
        if (MO.isReg() && MO.isUse() && MO.getReg().isVirtual()) {
          unsigned I = MO.getReg().virtRegIndex();
          UseStamp[I] = Query;
          LastUse[I] = Insts.size();
        }
    Insts.push_back(&MI);
  }
  const unsigned End = Insts.size();
  // Defined before the loop: the others' values are in ThroughUnits.
  auto Before = [&](Register R) {
    if (!isVector(R))
      return;
    MachineInstr *Def = MRI.getUniqueVRegDef(R);
    if (Def && !Skip.count(Def) && Def->getParent() != &Body &&
        liveInAtBody(R, *Def->getParent(), Skip))
      extend(valueIndex(R), 0, End);
  };
  for (Register R : Changing)
    Before(R);
  // Most of these are the registers of undone trials, left without operands.
  for (unsigned I = KnownRegs; I < NumRegs; ++I)
    if (!MRI.reg_nodbg_empty(Register::index2VirtReg(I)))
      Before(Register::index2VirtReg(I));
  // Defined in the body.
  for (unsigned K = 0; K < End; ++K) {
    const MachineInstr *Def = Insts[K];
    for (const MachineOperand &DO : Def->defs()) {
      if (!DO.isReg() || !isVector(DO.getReg()))
        continue;
      Register R = DO.getReg();
      unsigned From = Def->isPHI() ? 0 : K + 1, To = From;
      unsigned I = R.virtRegIndex();
      if (UseStamp[I] == Query)
        To = std::max(To, LastUse[I]);
      for (const MachineOperand &MO : MRI.use_nodbg_operands(R)) {
        const MachineInstr &U = *MO.getParent();
        if ((U.getParent() != &Body || U.isPHI()) &&
            !Skip.count(const_cast<MachineInstr *>(&U))) {
          To = End; // leaves the body
          break;
        }
      }
      extend(valueIndex(R), From, To);
    }
  }
  Delta.assign(End + 2, 0);
  for (unsigned V : Ranged) {
    int W = width(V);
    Delta[RangeFrom[V]] += W;
    Delta[RangeTo[V] + 1] -= W;
  }
  int Live = 0, Peak = 0;
  for (int D : Delta) {
    Live += D;
    Peak = std::max(Peak, Live);
  }
  // the values live through add the same at every gap
  return ThroughUnits + Peak;
}

bool BodyPressure::isVector(Register R) const {
  return isVectorReg(R, MRI, TRI);
}

/// The register whose value R holds: the source of the vector copies R was
/// made by. A copy of a part (`%d = COPY %s.sub2`, how SSA splits a
/// loop-carried MFMA result into the header's PHIs) is counted as part of
/// its source, as the coalescer leaves it in the source's lanes.
Register BodyPressure::valueOf(Register R) const {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const MachineInstr *Def = MRI.getUniqueVRegDef(R);
    if (!Def || !Def->isCopy() || Def->getOperand(0).getSubReg())
      break;
    Register Src = Def->getOperand(1).getReg();
    if (!isVector(Src))
      break;
    R = Src;
  }
  return R;
}

/// Blocks reachable from the body (the body included) without entering
/// Avoid.
BodyPressure::BlockSet
BodyPressure::reachableFrom(const MachineBasicBlock *Avoid) const {
  BlockSet Seen{&Body};
  SmallVector<const MachineBasicBlock *, 32> Work{&Body};
  while (!Work.empty())
    for (const MachineBasicBlock *S : Work.pop_back_val()->successors())
      if (S != Avoid && Seen.insert(S).second)
        Work.push_back(S);
  return Seen;
}

/// Whether R, defined in block DefBlock before the loop, is live where the
/// body starts: a use is reachable from it without passing DefBlock.
bool BodyPressure::liveInAtBody(Register R, const MachineBasicBlock &DefBlock,
                                const DenseSet<MachineInstr *> &Skip) {
  const BlockSet *From = &Reach;
  if (Reach.count(&DefBlock)) { // an outer loop leads back to the def
    auto It = ReachAvoiding.find(&DefBlock);
    if (It == ReachAvoiding.end())
      It = ReachAvoiding.try_emplace(&DefBlock, reachableFrom(&DefBlock))
               .first;
    From = &It->second;
  }
  for (const MachineOperand &MO : MRI.use_nodbg_operands(R)) {
    const MachineInstr &U = *MO.getParent();
    if (Skip.count(const_cast<MachineInstr *>(&U)))
      continue;
    // a PHI reads its value at the end of the incoming block
    const MachineBasicBlock *At =
        U.isPHI() ? U.getOperand(MO.getOperandNo() + 1).getMBB()
                  : U.getParent();
    if (From->count(At))
      return true;
  }
  return false;
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
