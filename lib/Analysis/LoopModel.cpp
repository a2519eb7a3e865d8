//===- LoopModel.cpp - roles of the instructions of a GEMM loop ----------===//
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Analysis/LDSObjects.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineMemOperand.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
namespace pingpong {

const char *roleName(Role R) {
  switch (R) {
  case Role::Other: return "other";
  case Role::Dot: return "dot";
  case Role::LocalRead: return "local-read";
  case Role::LocalWrite: return "local-write";
  case Role::GlobalLoad: return "global-load";
  case Role::OperandPrep: return "operand-prep";
  case Role::Sync: return "sync";
  }
  return "?";
}

const char *operandName(Operand O) {
  switch (O) {
  case Operand::None: return "-";
  case Operand::A: return "A";
  case Operand::B: return "B";
  }
  return "?";
}

unsigned LoopModel::count(Role R) const {
  unsigned N = 0;
  for (const InstInfo &I : Insts)
    N += I.R == R;
  return N;
}

void LoopModel::print(raw_ostream &OS) const {
  OS << "loop %bb." << Body->getNumber() << ": " << Insts.size()
     << " instructions, waves " << Waves << ", mfma " << Shape.M << "x"
     << Shape.N << "x" << Shape.K << " (" << Shape.ElemBits << "-bit)"
     << ", dots " << NumDots << " = " << NumAccumulators
     << " accumulators x " << ChainLen << " K steps, tile " << TileM << "x"
     << TileN << "x" << TileK << " (replication " << Replication
     << "), tile bits " << TileBits << "\n";
  OS << "  local-read " << NumLocalReads << ", local-write " << NumLocalWrites
     << ", global-load " << NumGlobalLoads << ", operand-prep " << NumPrep
     << ", sync " << NumSync << "\n";
  const TargetInstrInfo *TII =
      Body->getParent()->getSubtarget().getInstrInfo();
  for (unsigned I = 0; I < Insts.size(); ++I) {
    const InstInfo &II = Insts[I];
    if (II.R == Role::Other)
      continue;
    OS << "  [" << I << "] " << roleName(II.R);
    if (II.Op != Operand::None)
      OS << " " << operandName(II.Op);
    if (II.R == Role::Dot || II.R == Role::LocalRead ||
        II.R == Role::OperandPrep)
      OS << " k" << II.KStep;
    OS << " " << TII->getName(II.MI->getOpcode()) << "\n";
  }
}

unsigned wavesPerWorkgroup(const MachineFunction &MF) {
  const Function &F = MF.getFunction();
  if (!F.hasFnAttribute("amdgpu-flat-work-group-size"))
    return 0;
  StringRef V =
      F.getFnAttribute("amdgpu-flat-work-group-size").getValueAsString();
  auto [MinS, MaxS] = V.split(',');
  unsigned Max = 0;
  if (MaxS.trim().getAsInteger(10, Max) || Max == 0)
    return 0;
  return (Max + 63) / 64;
}

namespace {

bool isSelect(StringRef Name) {
  return Name.starts_with("V_CNDMASK") || Name.starts_with("S_CSELECT");
}

class Analyzer {
public:
  Analyzer(MachineLoop &L, MachineFunction &MF, AnalysisOptions Opts)
      : L(L), MF(MF), TII(*MF.getSubtarget().getInstrInfo()),
        T(OpcodeTable::get(TII)), Opts(Opts) {}

  LoopAnalysis run();

private:
  MachineLoop &L;
  MachineFunction &MF;
  const TargetInstrInfo &TII;
  const OpcodeTable &T;
  AnalysisOptions Opts;
  LoopModel M;
  LoopAnalysis R;
  DenseMap<Register, SmallVector<unsigned, 2>> DefsOf;
  DenseMap<unsigned, unsigned> WriteOfLoad; // global load -> LDS write it feeds
  DenseMap<Register, Register> PhiFromBody;  // header PHI -> value from latch

  bool reject(const Twine &Reason, const MachineInstr *At = nullptr) {
    R.Why.Reason = Reason.str();
    R.Why.At = At;
    return false;
  }
  SmallVector<Register, 4> regUses(const MachineInstr &MI) const {
    SmallVector<Register, 4> Regs;
    for (const MachineOperand &MO : MI.explicit_uses())
      if (MO.isReg() && MO.getReg())
        Regs.push_back(MO.getReg());
    return Regs;
  }
  /// Positions in the region that define R before Pos; if none, the ones
  /// after it (loop-carried from the previous iteration).
  SmallVector<unsigned, 2> reachingDefs(Register R, unsigned Pos,
                                        bool &LoopCarried) const;
  bool classifyDots();
  bool traceOperand(Register Reg, unsigned UsePos, Operand Op, unsigned K,
                    unsigned Order, unsigned Depth,
                    SmallPtrSetImpl<const MachineInstr *> &Seen);
  bool traceWrites();
  bool traceToGlobal(Register Reg, unsigned UsePos, unsigned WritePos,
                     unsigned Depth, SmallPtrSetImpl<const MachineInstr *> &Seen);
  bool checkMaskInvariant(unsigned LoadPos);
  /// Is the wait at Pos followed, with only waits between, by s_barrier?
  bool isBarrierRelease(unsigned Pos) const {
    for (unsigned I = Pos + 1; I < M.Insts.size(); ++I) {
      if (M.Insts[I].Kind == InstKind::Barrier)
        return true;
      if (M.Insts[I].Kind != InstKind::Waitcnt)
        return false;
    }
    return false;
  }
  bool assignOperandsByObject();
};

SmallVector<unsigned, 2> Analyzer::reachingDefs(Register R, unsigned Pos,
                                                bool &LoopCarried) const {
  SmallVector<unsigned, 2> Before, After;
  LoopCarried = false;
  // Machine SSA: a header PHI stands for the previous iteration's value.
  auto Phi = PhiFromBody.find(R);
  if (Phi != PhiFromBody.end()) {
    LoopCarried = true;
    auto D = DefsOf.find(Phi->second);
    if (D != DefsOf.end())
      After.append(D->second.begin(), D->second.end());
    return After;
  }
  auto It = DefsOf.find(R);
  if (It == DefsOf.end())
    return Before;
  for (unsigned D : It->second)
    (D < Pos ? Before : After).push_back(D);
  if (!Before.empty())
    return Before;
  LoopCarried = !After.empty();
  return After;
}

bool Analyzer::classifyDots() {
  DenseMap<Register, unsigned> StepOfReg;
  std::optional<unsigned> FirstOpc;
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    InstInfo &II = M.Insts[I];
    if (II.Kind != InstKind::MFMA)
      continue;
    if (FirstOpc && *FirstOpc != II.MI->getOpcode()) {
      auto S1 = T.mfmaShape(*FirstOpc), S2 = T.mfmaShape(II.MI->getOpcode());
      if (!S1 || !S2 || S1->M != S2->M || S1->N != S2->N || S1->K != S2->K)
        return reject("mixed MFMA shapes in one loop (" + T.name(*FirstOpc) +
                          ", " + T.name(II.MI->getOpcode()) + ")",
                      II.MI);
    }
    if (!FirstOpc) {
      FirstOpc = II.MI->getOpcode();
      auto S = T.mfmaShape(*FirstOpc);
      if (!S)
        return reject("cannot read the shape of " + T.name(*FirstOpc), II.MI);
      M.Shape = *S;
    }
    SmallVector<Register, 4> Uses = regUses(*II.MI);
    if (Uses.size() < 3 || !II.MI->getOperand(0).isReg())
      return reject("unexpected MFMA operands", II.MI);
    unsigned Step = 0;
    auto It = StepOfReg.find(Uses[2]);
    if (It != StepOfReg.end())
      Step = It->second + 1;
    StepOfReg[II.MI->getOperand(0).getReg()] = Step;
    II.R = Role::Dot;
    II.KStep = Step;
    ++M.NumDots;
    M.ChainLen = std::max(M.ChainLen, Step + 1);
  }
  // Accumulator index: the chain's K step 0 MFMA in program order; each
  // later step inherits it through the accumulator register.
  DenseMap<Register, unsigned> AccOfReg;
  SmallVector<unsigned, 8> PerStep(M.ChainLen, 0);
  for (InstInfo &II : M.Insts) {
    if (II.R != Role::Dot)
      continue;
    unsigned Acc = PerStep[II.KStep]++;
    if (II.KStep) {
      auto It = AccOfReg.find(regUses(*II.MI)[2]);
      if (It != AccOfReg.end())
        Acc = It->second;
    }
    AccOfReg[II.MI->getOperand(0).getReg()] = Acc;
    II.DotOrder = Acc; // K step added below, once NumAccumulators is known
  }
  M.NumAccumulators = PerStep[0];
  for (InstInfo &II : M.Insts)
    if (II.R == Role::Dot)
      II.DotOrder += II.KStep * M.NumAccumulators;
  for (unsigned S = 0; S < M.ChainLen; ++S)
    if (PerStep[S] != M.NumAccumulators)
      return reject("irregular MFMA chains: " + Twine(PerStep[S]) +
                    " MFMAs at K step " + Twine(S) + " but " +
                    Twine(M.NumAccumulators) + " accumulators");
  return true;
}

bool Analyzer::traceOperand(Register Reg, unsigned UsePos, Operand Op,
                            unsigned K, unsigned Order, unsigned Depth,
                            SmallPtrSetImpl<const MachineInstr *> &Seen) {
  if (!Reg.isVirtual() || Depth > 16)
    return true;
  bool Carried;
  for (unsigned D : reachingDefs(Reg, UsePos, Carried)) {
    InstInfo &DI = M.Insts[D];
    if (!Seen.insert(DI.MI).second)
      continue;
    switch (DI.Kind) {
    case InstKind::LDSRead:
      if (Carried)
        return reject("MFMA operand was read from LDS in the previous "
                      "iteration (register prefetch across iterations)",
                      DI.MI);
      if (DI.R != Role::LocalRead) {
        DI.R = Role::LocalRead;
        DI.Op = Op;
        DI.KStep = K;
        DI.DotOrder = Order;
      } else {
        DI.KStep = std::min(DI.KStep, K);
        DI.DotOrder = std::min(DI.DotOrder, Order);
        if (DI.Op != Op)
          DI.Op = Operand::None;
      }
      continue;
    case InstKind::VMEMLoad:
      return reject("MFMA operand loaded straight from global memory "
                    "(LDS bypass): not handled by this version",
                    DI.MI);
    case InstKind::MFMA:
      return reject("chained dots: an MFMA result feeds another MFMA's A/B "
                    "operand (attention-style loop): not handled by this "
                    "version",
                    DI.MI);
    default:
      break;
    }
    if (Carried)
      continue; // a value from the previous iteration's arithmetic
    if (DI.R == Role::Other) {
      DI.R = Role::OperandPrep;
      DI.KStep = K;
      DI.DotOrder = Order;
    } else if (DI.R == Role::OperandPrep) {
      DI.KStep = std::min(DI.KStep, K);
      DI.DotOrder = std::min(DI.DotOrder, Order);
    }
    for (Register U : regUses(*DI.MI))
      if (!traceOperand(U, D, Op, K, Order, Depth + 1, Seen))
        return false;
  }
  return true;
}

bool Analyzer::traceToGlobal(Register Reg, unsigned UsePos, unsigned WritePos,
                             unsigned Depth,
                             SmallPtrSetImpl<const MachineInstr *> &Seen) {
  if (!Reg.isVirtual() || Depth > 16)
    return true;
  bool Carried;
  for (unsigned D : reachingDefs(Reg, UsePos, Carried)) {
    InstInfo &DI = M.Insts[D];
    if (!Seen.insert(DI.MI).second)
      continue;
    if (DI.Kind == InstKind::VMEMLoad) {
      DI.R = Role::GlobalLoad;
      WriteOfLoad.try_emplace(D, WritePos);
      continue;
    }
    if (isSelect(T.name(DI.MI->getOpcode())))
      return reject("operand load has a loop-variant mask (select between "
                    "the global load and its LDS write): reordering such "
                    "loads is unsafe (Triton #10585)",
                    DI.MI);
    if (DI.Kind != InstKind::Other)
      continue;
    for (Register U : regUses(*DI.MI))
      if (!traceToGlobal(U, D, WritePos, Depth + 1, Seen))
        return false;
  }
  return true;
}

bool Analyzer::traceWrites() {
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    if (M.Insts[I].Kind != InstKind::LDSWrite)
      continue;
    M.Insts[I].R = Role::LocalWrite;
    SmallVector<Register, 4> Uses = regUses(*M.Insts[I].MI);
    SmallPtrSet<const MachineInstr *, 16> Seen;
    for (unsigned U = 1; U < Uses.size(); ++U) // operand 0 is the address
      if (!traceToGlobal(Uses[U], I, I, 0, Seen))
        return false;
  }
  return true;
}

bool Analyzer::checkMaskInvariant(unsigned LoadPos) {
  SmallVector<std::pair<Register, unsigned>, 8> Work;
  SmallPtrSet<const MachineInstr *, 16> Seen;
  for (Register U : regUses(*M.Insts[LoadPos].MI))
    Work.push_back({U, LoadPos});
  while (!Work.empty()) {
    auto [Reg, Pos] = Work.pop_back_val();
    if (!Reg.isVirtual())
      continue;
    bool Carried;
    for (unsigned D : reachingDefs(Reg, Pos, Carried)) {
      const MachineInstr *DMI = M.Insts[D].MI;
      if (!Seen.insert(DMI).second)
        continue;
      if (isSelect(T.name(DMI->getOpcode())))
        return reject("operand load has a loop-variant mask (select in its "
                      "address): reordering such loads is unsafe "
                      "(Triton #10585)",
                      DMI);
      if (!Carried)
        for (Register U : regUses(*DMI))
          Work.push_back({U, D});
    }
  }
  return true;
}

/// Name the operand of writes and loads from the LDS objects the reads of
/// operand A and B use; fall back to the order of the loads' sources.
bool Analyzer::assignOperandsByObject() {
  using Key = std::pair<const Value *, const MDNode *>;
  DenseSet<Key> ObjA, ObjB;
  for (const InstInfo &II : M.Insts)
    if (II.R == Role::LocalRead && II.Op != Operand::None) {
      Key K = bufferKey(*II.MI);
      if (K.first || K.second)
        (II.Op == Operand::A ? ObjA : ObjB).insert(K);
    }
  for (InstInfo &II : M.Insts) {
    if (II.R != Role::LocalWrite)
      continue;
    Key K = bufferKey(*II.MI);
    bool Known = K.first || K.second;
    bool InA = Known && ObjA.count(K);
    bool InB = Known && ObjB.count(K);
    II.Op = InA && !InB ? Operand::A : (InB && !InA ? Operand::B : Operand::None);
  }
  // Global loads take the operand of the write they feed (traceWrites ran
  // before operands were known, so redo that link) or their source order.
  SmallVector<const Value *, 4> Sources;
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    InstInfo &II = M.Insts[I];
    if (II.R != Role::GlobalLoad)
      continue;
    auto W = WriteOfLoad.find(I);
    if (W != WriteOfLoad.end() && M.Insts[W->second].Op != Operand::None) {
      II.Op = M.Insts[W->second].Op;
      continue;
    }
    const Value *Src = memObject(*II.MI);
    auto It = llvm::find(Sources, Src);
    unsigned Idx = It - Sources.begin();
    if (It == Sources.end())
      Sources.push_back(Src);
    II.Op = Idx == 0 ? Operand::A : Operand::B;
  }
  return true;
}

LoopAnalysis Analyzer::run() {
  unsigned ValuFMAs = 0;
  bool ReadsLDS = false;
  for (MachineBasicBlock *MBB : L.blocks())
    for (MachineInstr &MI : *MBB) {
      InstKind K = T.classify(MI);
      R.HasMFMA |= K == InstKind::MFMA;
      ValuFMAs += K == InstKind::ValuFMA;
      ReadsLDS |= K == InstKind::LDSRead;
    }
  R.IsDotLoop = R.HasMFMA || (ValuFMAs && ReadsLDS);
  if (!R.HasMFMA) {
    if (ValuFMAs)
      reject("the dot uses VALU FMAs (" + Twine(ValuFMAs) +
             " v_fma/v_dot), not MFMA: no matrix pipe to overlap");
    else
      reject("no MFMA in the loop");
    return R;
  }
  if (L.getNumBlocks() != 1) {
    reject("loop body has control flow (" + Twine(L.getNumBlocks()) +
           " blocks, e.g. a load under an if or an epilogue in the loop): "
           "pingpong needs a single-block steady state");
    return R;
  }
  M.Loop = &L;
  M.Body = L.getHeader();
  for (MachineInstr &MI : *M.Body) {
    if (MI.isTerminator())
      break;
    if (MI.isPHI()) {
      for (unsigned Op = 1; Op + 1 < MI.getNumOperands(); Op += 2)
        if (MI.getOperand(Op + 1).getMBB() == M.Body)
          PhiFromBody[MI.getOperand(0).getReg()] = MI.getOperand(Op).getReg();
      continue;
    }
    if (MI.isDebugInstr())
      continue;
    InstInfo II;
    II.MI = &MI;
    II.Kind = T.classify(MI);
    if (Opts.ReplaceSchedule &&
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
    for (const MachineOperand &MO : MI->defs())
      if (MO.isReg() && MO.getReg().isVirtual())
        DefsOf[MO.getReg()].push_back(I);
    switch (M.Insts[I].Kind) {
    case InstKind::SetPrio:
    case InstKind::SchedFence:
      reject("loop already carries s_setprio/sched_barrier/iglp_opt: the "
             "author's schedule is kept (-amdgpu-pingpong-replace-schedule "
             "replaces it)",
             MI);
      return R;
    case InstKind::LDSDMA:
      reject("LDS DMA (global/buffer load straight to LDS) in the loop: not "
             "handled by this version",
             MI);
      return R;
    case InstKind::VMEMStore:
      reject("global store or atomic in the loop (epilogue inside the "
             "loop?)",
             MI);
      return R;
    case InstKind::LDSOther:
      reject("LDS atomic/permute in the loop", MI);
      return R;
    case InstKind::SMEMLoad:
      reject("scalar memory load in the loop: extra memory traffic", MI);
      return R;
    case InstKind::Waitcnt:
      // A wait right before a barrier is the barrier's own release (Triton
      // lowers its barrier to s_waitcnt lgkmcnt(0) + s_barrier): it goes
      // with the barrier. Any other wait is the author's and is kept.
      if (!isBarrierRelease(I)) {
        reject("explicit s_waitcnt in the loop that is not a barrier's "
               "release: the author's waits are kept",
               MI);
        return R;
      }
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
  if (!classifyDots())
    return R;
  // Operands of each MFMA, traced back to the LDS reads that feed them.
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    if (M.Insts[I].R != Role::Dot)
      continue;
    SmallVector<Register, 4> Uses = regUses(*M.Insts[I].MI);
    SmallPtrSet<const MachineInstr *, 16> Seen;
    unsigned K = M.Insts[I].KStep, Order = M.Insts[I].DotOrder;
    if (!traceOperand(Uses[0], I, Operand::A, K, Order, 0, Seen))
      return R;
    Seen.clear();
    if (!traceOperand(Uses[1], I, Operand::B, K, Order, 0, Seen))
      return R;
  }
  if (!traceWrites() || !assignOperandsByObject())
    return R;
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    const InstInfo &II = M.Insts[I];
    if (II.Kind == InstKind::LDSRead && II.R != Role::LocalRead) {
      reject("LDS read that does not feed the dot: extra memory traffic",
             II.MI);
      return R;
    }
    if (II.Kind == InstKind::VMEMLoad && II.R != Role::GlobalLoad) {
      reject("global load that does not feed the dot's LDS buffers: extra "
             "memory traffic (Triton rejects such loops too)",
             II.MI);
      return R;
    }
    if (II.R == Role::GlobalLoad && !checkMaskInvariant(I))
      return R;
  }
  M.NumLocalReads = M.count(Role::LocalRead);
  M.NumLocalWrites = M.count(Role::LocalWrite);
  M.NumGlobalLoads = M.count(Role::GlobalLoad);
  M.NumSync = M.count(Role::Sync);
  M.NumPrep = M.count(Role::OperandPrep);
  if (!M.NumLocalReads) {
    reject("no LDS reads feed the MFMAs: nothing to overlap with the dot");
    return R;
  }
  if (!M.NumGlobalLoads || !M.NumLocalWrites) {
    reject("no global loads and LDS writes of the next tile in the loop "
           "(the loop is not software pipelined)");
    return R;
  }
  M.Waves = wavesPerWorkgroup(MF);
  deriveTile(M, MF);
  R.Model = std::move(M);
  return R;
}

} // namespace

LoopAnalysis analyzeLoop(MachineLoop &L, MachineFunction &MF,
                         AnalysisOptions Opts) {
  return Analyzer(L, MF, Opts).run();
}

} // namespace pingpong
