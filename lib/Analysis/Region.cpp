//===- Region.cpp - the region of a dot loop and its instruction kinds ----===//
//
// Concern (a) of the loop model: the schedulable region of a single-block
// loop (the body up to its first terminator), each instruction's kind, the
// def/use maps the other concerns walk, the loop's own sync, and the loops
// refused before any dot is looked at.
//
//===----------------------------------------------------------------------===//
#include "ModelBuilder.h"
#include "pingpong/Sync/SyncRules.h"

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"

using namespace llvm;
namespace pingpong {

ModelBuilder::ModelBuilder(MachineLoop &L, MachineFunction &MF,
                           AnalysisOptions Opts)
    : L(L), MF(MF), TII(*MF.getSubtarget().getInstrInfo()),
      MRI(MF.getRegInfo()), T(OpcodeTable::get(TII)), Opts(Opts) {}

SmallVector<Register, 4> ModelBuilder::regUses(const MachineInstr &MI) const {
  SmallVector<Register, 4> Regs;
  for (const MachineOperand &MO : MI.explicit_uses())
    if (MO.isReg() && MO.getReg())
      Regs.push_back(MO.getReg());
  return Regs;
}

SmallVector<unsigned, 2> ModelBuilder::reachingDefs(Register Reg, unsigned Pos,
                                                    bool &LoopCarried) const {
  SmallVector<unsigned, 2> Before, After;
  LoopCarried = false;
  // Machine SSA: a header PHI stands for the previous iteration's value.
  auto Phi = PhiFromBody.find(Reg);
  if (Phi != PhiFromBody.end()) {
    LoopCarried = true;
    auto D = DefsOf.find(Phi->second);
    if (D != DefsOf.end())
      After.append(D->second.begin(), D->second.end());
    return After;
  }
  auto It = DefsOf.find(Reg);
  if (It == DefsOf.end())
    return Before;
  for (unsigned D : It->second)
    (D < Pos ? Before : After).push_back(D);
  if (!Before.empty())
    return Before;
  LoopCarried = !After.empty();
  return After;
}

bool ModelBuilder::definedOutside(Register Reg) const {
  return Reg.isVirtual() && !DefsOf.count(Reg) && !PhiFromBody.count(Reg) &&
         MRI.getUniqueVRegDef(Reg) &&
         MRI.getUniqueVRegDef(Reg)->getParent() != M.Body;
}

bool ModelBuilder::isSelect(unsigned Opcode) const {
  StringRef Name = T.name(Opcode);
  return Name.starts_with("V_CNDMASK") || Name.starts_with("S_CSELECT");
}

bool ModelBuilder::isCopyLike(const MachineInstr &MI) {
  return MI.isCopy() || MI.isRegSequence() || MI.isInsertSubreg() ||
         MI.isSubregToReg();
}

bool ModelBuilder::newShape() const {
  return M.scaled() || M.chainedDots() ||
         llvm::any_of(M.Insts, [](const InstInfo &I) {
           return I.R == Role::AsyncCopy || I.R == Role::DirectLoad;
         });
}

std::string ModelBuilder::name(const MachineInstr &MI) const {
  return T.name(MI.getOpcode()).str();
}

namespace {
/// Is the wait at Pos followed, with only waits between, by s_barrier?
bool isBarrierRelease(const LoopModel &M, unsigned Pos) {
  for (unsigned I = Pos + 1; I < M.Insts.size(); ++I) {
    if (M.Insts[I].Kind == InstKind::Barrier)
      return true;
    if (M.Insts[I].Kind != InstKind::Waitcnt)
      return false;
  }
  return false;
}
} // namespace

bool buildRegion(ModelBuilder &B) {
  LoopModel &M = B.M;
  LoopAnalysis &R = B.R;
  unsigned ValuFMAs = 0;
  bool ReadsLDS = false;
  for (MachineBasicBlock *MBB : B.L.blocks())
    for (MachineInstr &MI : *MBB) {
      InstKind K = B.T.classify(MI);
      R.HasMFMA |= K == InstKind::MFMA;
      ValuFMAs += K == InstKind::ValuFMA;
      ReadsLDS |= K == InstKind::LDSRead;
    }
  R.IsDotLoop = R.HasMFMA || (ValuFMAs && ReadsLDS);
  if (!R.HasMFMA) {
    if (ValuFMAs)
      return B.reject("the dot uses VALU FMAs (" + Twine(ValuFMAs) +
                      " v_fma/v_dot), not MFMA: no matrix pipe to overlap");
    return B.reject("no MFMA in the loop");
  }
  if (B.L.getNumBlocks() != 1)
    return B.reject("loop body has control flow (" + Twine(B.L.getNumBlocks()) +
                    " blocks, e.g. a load under an if or an epilogue in the "
                    "loop): pingpong needs a single-block steady state");
  M.Loop = &B.L;
  M.Body = B.L.getHeader();
  for (MachineInstr &MI : *M.Body) {
    if (MI.isTerminator())
      break;
    if (MI.isPHI()) {
      for (unsigned Op = 1; Op + 1 < MI.getNumOperands(); Op += 2)
        if (MI.getOperand(Op + 1).getMBB() == M.Body)
          B.PhiFromBody[MI.getOperand(0).getReg()] = MI.getOperand(Op).getReg();
      continue;
    }
    if (MI.isDebugInstr())
      continue;
    InstInfo II;
    II.MI = &MI;
    II.Kind = B.T.classify(MI);
    if (B.Opts.ReplaceSchedule &&
        (II.Kind == InstKind::SetPrio || II.Kind == InstKind::SchedFence)) {
      M.OldSchedule.push_back(&MI);
      continue;
    }
    M.Insts.push_back(II);
  }
  for (const InstInfo &II : M.Insts)
    R.HasLDSDMA |= II.Kind == InstKind::LDSDMA;
  R.Region = M;
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    const MachineInstr *MI = M.Insts[I].MI;
    B.PosOf[MI] = I;
    for (const MachineOperand &MO : MI->defs())
      if (MO.isReg() && MO.getReg().isVirtual())
        B.DefsOf[MO.getReg()].push_back(I);
    switch (M.Insts[I].Kind) {
    case InstKind::SetPrio:
    case InstKind::SchedFence:
      return B.reject("loop already carries s_setprio/sched_barrier/iglp_opt: "
                      "the author's schedule is kept "
                      "(-amdgpu-pingpong-replace-schedule replaces it)",
                      MI);
    case InstKind::LDSDMA:
      // Global -> LDS without registers: the operand source of its buffer
      // (OperandSources/Stages say which operand and how far ahead).
      M.Insts[I].R = Role::AsyncCopy;
      break;
    case InstKind::VMEMStore:
      return B.reject("global store or atomic in the loop (epilogue inside the "
                      "loop?)",
                      MI);
    case InstKind::LDSOther: {
      // The crossbar ops move data between lanes on the LDS pipe and touch
      // no LDS memory (lib/Sync's classes): attention's row reductions, DMA
      // address swizzles. Atomics and GDS are refused.
      sync::InstRules Rules = sync::classifyByName(B.name(*MI));
      if (Rules.Class == sync::OpClass::LDSCrossbar)
        break;
      return B.reject(Rules.Class == sync::OpClass::GDS
                          ? "GDS or ordered-count operation in the loop"
                          : "LDS atomic in the loop",
                      MI);
    }
    case InstKind::SMEMLoad:
      return B.reject("scalar memory load in the loop: extra memory traffic",
                      MI);
    case InstKind::Waitcnt:
      // A wait right before a barrier is the barrier's own release (Triton
      // lowers its barrier to s_waitcnt lgkmcnt(0) + s_barrier): it goes
      // with the barrier. Any other wait is the author's and is kept.
      if (!isBarrierRelease(M, I))
        return B.reject("explicit s_waitcnt in the loop that is not a "
                        "barrier's release: the author's waits are kept",
                        MI);
      M.Insts[I].R = Role::Sync;
      break;
    case InstKind::Barrier:
    case InstKind::Fence:
      M.Insts[I].R = Role::Sync;
      break;
    default:
      break;
    }
  }
  return true;
}

} // namespace pingpong
