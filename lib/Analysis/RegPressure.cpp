//===- RegPressure.cpp - vector register pressure of a loop order --------===//
#include "pingpong/Analysis/RegPressure.h"
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/IntEqClasses.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <string>

using namespace llvm;
namespace pingpong {

static cl::opt<bool> PrintPressurePeak(
    "amdgpu-pingpong-print-pressure-peak", cl::init(false), cl::Hidden,
    cl::desc("print, for each estimate of a loop order's vector register "
             "peak, the values live at the peak by their defining opcode"));

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

unsigned peakVectorPressure(const LoopModel &Model, ArrayRef<unsigned> Order) {
  SmallVector<const MachineInstr *, 256> MIs;
  MIs.reserve(Order.size());
  for (unsigned I : Order)
    MIs.push_back(Model.Insts[I].MI);
  return BodyPressure(*Model.Body, {}).peakInOrder(MIs);
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
  // Which registers the coalescer makes one: a copy and its source (a copy
  // of a part stays in its source's lanes; how SSA splits a loop-carried
  // MFMA result into the header's PHIs), anywhere; a tuple (REG_SEQUENCE,
  // INSERT_SUBREG, SUBREG_TO_REG) and the pieces the body makes for it: the
  // allocator gives the whole tuple a register from its first piece on. A
  // piece made before the loop keeps its own register (the tuple is
  // remade every iteration, the piece is not), as does one read whole by
  // two tuples or a part of a wider register.
  auto IsTuple = [](const MachineInstr &MI) {
    return MI.isRegSequence() || MI.isInsertSubreg() || MI.isSubregToReg();
  };
  // A piece read by two tuples can be a lane of one of them only.
  DenseMap<Register, unsigned> TupleReads;
  for (const MachineInstr &MI : Body)
    if (IsTuple(MI))
      for (const MachineOperand &MO : MI.uses())
        if (MO.isReg() && MO.getReg().isVirtual())
          ++TupleReads[MO.getReg()];
  IntEqClasses Classes(KnownRegs);
  for (const MachineBasicBlock &MBB : *Body.getParent())
    for (const MachineInstr &MI : MBB) {
      const bool Tuple = IsTuple(MI);
      if (!(MI.isCopy() || (Tuple && &MBB == &Body)))
        continue;
      const MachineOperand &D = MI.getOperand(0);
      if (!isVector(D.getReg()) || D.getSubReg())
        continue;
      for (const MachineOperand &MO : MI.uses()) {
        if (!MO.isReg() || !isVector(MO.getReg()))
          continue;
        const MachineInstr *Src = MRI.getUniqueVRegDef(MO.getReg());
        // a part of a wider register cannot be a lane of the tuple either
        if (Tuple && (!Src || Src->getParent() != &Body || MO.getSubReg() ||
                      TupleReads.lookup(MO.getReg()) > 1))
          continue;
        Classes.join(D.getReg().virtRegIndex(), MO.getReg().virtRegIndex());
      }
    }
  for (unsigned I = 0; I < KnownRegs; ++I) {
    Register R = Register::index2VirtReg(I);
    if (!isVector(R))
      continue;
    unsigned V = KnownValue[I] = Classes.findLeader(I);
    KnownWidth[V] =
        std::max<unsigned>(KnownWidth[V], TRI.getRegSizeInBits(*MRI.getRegClass(R)) / 32);
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

/// The value R is one register with: its class when R is known here; a
/// register made later is the value of the copies it was made by.
unsigned BodyPressure::valueIndex(Register R) const {
  for (unsigned Depth = 0; R.virtRegIndex() >= KnownRegs && Depth < 8;
       ++Depth) {
    const MachineInstr *Def = MRI.getUniqueVRegDef(R);
    if (!Def || !Def->isCopy() || Def->getOperand(0).getSubReg() ||
        !isVector(Def->getOperand(1).getReg()))
      break;
    R = Def->getOperand(1).getReg();
  }
  unsigned I = R.virtRegIndex();
  return I < KnownRegs ? KnownValue[I] : I;
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

void BodyPressure::start() {
  const unsigned NumRegs = MRI.getNumVirtRegs();
  if (RangeStamp.size() < NumRegs) {
    for (std::vector<unsigned> *V :
         {&RangeStamp, &RangeFrom, &RangeTo, &UseStamp, &LastUse})
      V->resize(NumRegs, 0);
  }
  ++Query;
  Ranged.clear();
  Insts.clear();
}

/// Appends MI to this query's order, noting the last reader of each
/// register (a PHI reads at the end of the block it names, not here).
void BodyPressure::append(const MachineInstr &MI) {
  if (!MI.isPHI())
    for (const MachineOperand &MO : MI.operands())
      if (MO.isReg() && MO.isUse() && MO.getReg().isVirtual()) {
        unsigned I = MO.getReg().virtRegIndex();
        UseStamp[I] = Query;
        LastUse[I] = Insts.size();
      }
  Insts.push_back(&MI);
}

unsigned BodyPressure::peak(const DenseSet<MachineInstr *> &Skip) {
  start();
  for (const MachineInstr &MI : Body)
    if (!MI.isDebugInstr() && !Skip.count(const_cast<MachineInstr *>(&MI)))
      append(MI);
  return count(Skip);
}

unsigned BodyPressure::peakInOrder(ArrayRef<const MachineInstr *> Order) {
  start();
  for (const MachineInstr &MI : Body.phis())
    append(MI);
  for (const MachineInstr *MI : Order)
    append(*MI);
  for (const MachineInstr &MI :
       make_range(Body.getFirstTerminator(), Body.end()))
    if (!MI.isDebugInstr())
      append(MI);
  return count({});
}

unsigned BodyPressure::count(const DenseSet<MachineInstr *> &Skip) {
  // Gap K is the point before instruction K (K == End: after the last).
  const unsigned End = Insts.size();
  const unsigned NumRegs = MRI.getNumVirtRegs();
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
  unsigned PeakAt = 0;
  for (unsigned K = 0; K < Delta.size(); ++K) {
    Live += Delta[K];
    if (Live > Peak)
      Peak = Live, PeakAt = K;
  }
  if (PrintPressurePeak) {
    std::map<std::string, unsigned> By;
    const TargetInstrInfo &TII = *Body.getParent()->getSubtarget().getInstrInfo();
    for (unsigned V : Ranged)
      if (RangeFrom[V] <= PeakAt && RangeTo[V] + 1 > PeakAt) {
        const MachineInstr *D =
            MRI.getUniqueVRegDef(Register::index2VirtReg(V));
        std::string N = D ? std::string(TII.getName(D->getOpcode()))
                          : std::string("?");
        if (D && D->getParent() != &Body)
          N += " (before)";
        if (D && D->getOperand(0).isReg())
          for (const MachineInstr &U :
               MRI.use_nodbg_instructions(D->getOperand(0).getReg())) {
            N += "->" + std::string(TII.getName(U.getOpcode()));
            break;
          }
        By[N] += width(V);
      }
    errs() << "pressure peak " << (ThroughUnits + Peak) << " at " << PeakAt
           << " of " << End << " (through " << ThroughUnits << "):";
    for (auto &[N, W] : By)
      errs() << " " << N << "=" << W;
    errs() << "\n";
  }
  // the values live through add the same at every gap
  return ThroughUnits + Peak;
}

bool BodyPressure::isVector(Register R) const {
  return isVectorReg(R, MRI, TRI);
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

unsigned vectorRegisterBudget(const Function &F, StringRef CPU) {
  unsigned Waves = target::PingpongWavesPerSIMD;
  if (F.hasFnAttribute("amdgpu-waves-per-eu")) {
    StringRef V = F.getFnAttribute("amdgpu-waves-per-eu").getValueAsString();
    unsigned Min = 0;
    if (!V.split(',').first.trim().getAsInteger(10, Min) && Min > Waves)
      Waves = Min;
  }
  const target::TargetFacts *T = target::factsFor(CPU);
  return target::vgprBudget(T ? *T : target::Gfx942, Waves);
}

unsigned vectorRegisterBudget(const MachineFunction &MF) {
  return vectorRegisterBudget(MF.getFunction(), MF.getSubtarget().getCPU());
}

} // namespace pingpong
