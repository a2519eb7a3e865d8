//===- SyncCheck.cpp - are the waits and barriers of a loop sufficient? ---===//
#include "pingpong/Analysis/SyncCheck.h"
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/ISA/Waitcnt.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineMemOperand.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <unordered_map>

using namespace llvm;
namespace pingpong {

namespace {

enum class Counter { None, VM, LDS, SMEM };

/// What one instruction does to the counters and to LDS.
struct Access {
  const MachineInstr *MI;
  InstKind Kind;
  Counter Cnt = Counter::None;
  bool LoadsRegs = false; // writes VGPR/SGPRs when it completes
  bool LDSRead = false, LDSWrite = false;
};

Counter counterOf(InstKind K) {
  switch (K) {
  case InstKind::VMEMLoad:
  case InstKind::VMEMStore:
  case InstKind::LDSDMA:
    return Counter::VM;
  case InstKind::LDSRead:
  case InstKind::LDSWrite:
  case InstKind::LDSOther:
    return Counter::LDS;
  case InstKind::SMEMLoad:
    return Counter::SMEM;
  default:
    return Counter::None;
  }
}

/// Does an s_waitcnt guarantee that an op issued with OpsAfter younger ops
/// of the same in-order stream has completed?
bool retires(const Waitcnt &W, Counter C, unsigned OpsAfter) {
  switch (C) {
  case Counter::VM:
    return OpsAfter >= W.Vm;
  case Counter::LDS:
    // LDS returns in order; outstanding SMEM only adds to the count.
    return OpsAfter >= W.Lgkm;
  case Counter::SMEM:
    return W.Lgkm == 0; // SMEM returns out of order
  case Counter::None:
    return true;
  }
  return true;
}

std::string describe(const MachineInstr &MI) {
  std::string S;
  raw_string_ostream OS(S);
  MI.print(OS, /*IsStandalone=*/true, /*SkipOpers=*/false, /*SkipDebugLoc=*/true,
           /*AddNewLine=*/false);
  OS.flush();
  if (S.size() > 120)
    S = S.substr(0, 117) + "...";
  return S;
}

/// Identity of an LDS buffer: IR object and alias scope; unknown aliases all.
struct BufferKey {
  const Value *Obj = nullptr;
  const MDNode *Scope = nullptr;
  bool Known = false;
  bool mayAlias(const BufferKey &O) const {
    return !Known || !O.Known || (Obj == O.Obj && Scope == O.Scope);
  }
  std::string name() const {
    if (!Known)
      return "LDS (unknown buffer)";
    std::string S = Obj && Obj->hasName() ? Obj->getName().str() : "LDS";
    if (Scope && Scope->getNumOperands() > 0)
      if (auto *N = dyn_cast_or_null<MDString>(Scope->getOperand(
              Scope->getNumOperands() > 2 ? 2 : 0).get()))
        return S + " [" + N->getString().str() + "]";
    if (Scope)
      return S + " [scope]";
    return S;
  }
};

BufferKey bufferOf(const MachineInstr &MI) {
  BufferKey K;
  for (const MachineMemOperand *MMO : MI.memoperands()) {
    if (MMO->getAddrSpace() != 3 && MI.memoperands().size() > 1)
      continue; // LDS DMA: the LDS side
    if (!MMO->getValue())
      return K;
    K.Obj = getUnderlyingObject(MMO->getValue());
    K.Scope = MMO->getAAInfo().Scope;
    K.Known = true;
    if (MMO->getAddrSpace() == 3)
      break;
  }
  return K;
}

/// Is this the branch on the wave group (s_and_b32 x, 0x100 or a compare of
/// such a value with 0), and which way does the high group (waves 4-7) go?
static std::optional<bool>
groupBranchTakenByHigh(const MachineInstr &Br, const MachineBasicBlock &MBB,
                       const OpcodeTable &T, const DenseSet<unsigned> &GroupRegs,
                       const TargetRegisterInfo &TRI, MCRegister SCC) {
  StringRef BN = T.name(Br.getOpcode());
  bool OnSCC1 = BN == "S_CBRANCH_SCC1", OnSCC0 = BN == "S_CBRANCH_SCC0";
  if (!OnSCC1 && !OnSCC0)
    return std::nullopt;
  // SCC for the high group, from the last SCC definition before the branch.
  std::optional<bool> SCCHigh;
  for (const MachineInstr &MI : MBB) {
    if (&MI == &Br)
      break;
    if (!MI.definesRegister(SCC, &TRI))
      continue;
    SCCHigh.reset();
    StringRef N = T.name(MI.getOpcode());
    if (N == "S_AND_B32" && MI.getNumOperands() >= 3 && MI.getOperand(2).isImm() &&
        MI.getOperand(2).getImm() == 256)
      SCCHigh = true; // SCC = (tid.x & 256) != 0
    else if ((N == "S_CMP_LG_U32" || N == "S_CMP_EQ_U32") &&
             MI.getOperand(0).isReg() &&
             GroupRegs.count(MI.getOperand(0).getReg()) &&
             MI.getOperand(1).isImm() && MI.getOperand(1).getImm() == 0)
      SCCHigh = N == "S_CMP_LG_U32";
  }
  if (!SCCHigh)
    return std::nullopt;
  return OnSCC1 ? *SCCHigh : !*SCCHigh;
}

/// One instruction of a wave's execution: the kernel from entry to end, with
/// the loop run TraceIters times.
struct Step {
  const Access *A;
  int Iter; // -1 before the loop, 0.. in it, TraceIters after it
};
constexpr int TraceIters = 3;

class Checker {
public:
  Checker(MachineLoop &L, MachineFunction &MF)
      : L(L), MF(MF), TII(*MF.getSubtarget().getInstrInfo()),
        TRI(*MF.getSubtarget().getRegisterInfo()), T(OpcodeTable::get(TII)) {}
  SyncReport run();

private:
  MachineLoop &L;
  MachineFunction &MF;
  const TargetInstrInfo &TII;
  const TargetRegisterInfo &TRI;
  const OpcodeTable &T;
  // Node-based: Steps keep pointers to entries while more are added.
  std::unordered_map<const MachineInstr *, Access> Info;
  DenseSet<unsigned> GroupRegs; // registers holding tid.x & 256 (wave group)
  MCRegister SCC;
  SyncReport R;

  void finding(const Twine &Msg, const MachineInstr *At) {
    if (R.Findings.size() < 8)
      R.Findings.push_back({Msg.str(), At});
  }
  const Access &info(const MachineInstr &MI);
  std::optional<Waitcnt> waitOf(const Access &A) const {
    if (A.Kind != InstKind::Waitcnt || !A.MI->getOperand(0).isImm())
      return std::nullopt;
    return Waitcnt::decodeGfx9(A.MI->getOperand(0).getImm());
  }
  bool reaches(const MachineBasicBlock *From, const MachineBasicBlock *To);
  std::optional<std::vector<Step>> trace(bool High, bool &SawGroupBranch);
  std::vector<Step> loopOnly();
  bool checkRegisters(const std::vector<Step> &Tr);
  unsigned drainDistance(const std::vector<Step> &Tr, unsigned Pos);
  void checkPairs(const std::vector<Step> *Tr[2], bool Twice);
  void checkPacing();
};

const Access &Checker::info(const MachineInstr &MI) {
  auto It = Info.find(&MI);
  if (It != Info.end())
    return It->second;
  Access A;
  A.MI = &MI;
  A.Kind = T.classify(MI);
  A.Cnt = counterOf(A.Kind);
  A.LoadsRegs = A.Kind == InstKind::VMEMLoad || A.Kind == InstKind::LDSRead ||
                A.Kind == InstKind::SMEMLoad ||
                (A.Kind == InstKind::LDSOther && MI.getNumExplicitDefs());
  A.LDSRead = A.Kind == InstKind::LDSRead || A.Kind == InstKind::LDSOther;
  A.LDSWrite = A.Kind == InstKind::LDSWrite || A.Kind == InstKind::LDSDMA ||
               A.Kind == InstKind::LDSOther;
  return Info[&MI] = A;
}

bool Checker::reaches(const MachineBasicBlock *From, const MachineBasicBlock *To) {
  SmallPtrSet<const MachineBasicBlock *, 16> Seen;
  SmallVector<const MachineBasicBlock *, 8> Work{From};
  while (!Work.empty()) {
    const MachineBasicBlock *B = Work.pop_back_val();
    if (B == To || (!To && B->succ_empty()))
      return true;
    if (!Seen.insert(B).second)
      continue;
    Work.append(B->succ_begin(), B->succ_end());
  }
  return false;
}

/// The instructions one wave of a group executes: the wave-group branches
/// decide; other branches take the way into the loop before it and towards
/// the end after it; the loop runs TraceIters times. Fails on a second loop.
std::optional<std::vector<Step>> Checker::trace(bool High, bool &SawGroupBranch) {
  std::vector<Step> Tr;
  const MachineBasicBlock *Header = L.getHeader();
  const MachineBasicBlock *B = &MF.front();
  SmallPtrSet<const MachineBasicBlock *, 16> Visited;
  bool After = false;
  // Registers holding values derived from the workitem id (v0 at entry).
  SmallVector<MCRegister, 16> Tainted;
  for (unsigned Reg = 1, E = TRI.getNumRegs(); Reg < E; ++Reg)
    if (StringRef(TRI.getName(Reg)) == "VGPR0")
      Tainted.push_back(MCRegister(Reg));
  auto IsTainted = [&](Register R) {
    return llvm::any_of(Tainted, [&](MCRegister T) { return TRI.regsOverlap(T, R); });
  };
  // (operands() rather than uses()/defs(): SCC, VCC and EXEC are implicit)
  auto Propagate = [&](const MachineInstr &MI) {
    bool Reads = llvm::any_of(MI.operands(), [&](const MachineOperand &MO) {
      return MO.isReg() && MO.isUse() && MO.getReg() &&
             MO.getReg().isPhysical() && IsTainted(MO.getReg());
    });
    if (!Reads)
      return;
    for (const MachineOperand &MO : MI.operands())
      if (MO.isReg() && MO.isDef() && MO.getReg() && MO.getReg().isPhysical() &&
          !IsTainted(MO.getReg()) && Tainted.size() < 256)
        Tainted.push_back(MO.getReg().asMCReg());
  };
  auto HasBarrier = [&](const MachineBasicBlock *MBB) {
    return llvm::any_of(MBB->instrs(), [&](const MachineInstr &MI) {
      return T.classify(MI) == InstKind::Barrier;
    });
  };
  while (B) {
    if (B == Header) {
      if (After)
        return std::nullopt;
      for (int I = 0; I < TraceIters; ++I)
        for (const MachineInstr &MI : B->instrs())
          if (!MI.isBundle() && !MI.isDebugInstr())
            Tr.push_back({&info(MI), I});
      After = true;
      B = L.getExitBlock();
      continue;
    }
    if (!Visited.insert(B).second)
      return std::nullopt; // another loop
    for (const MachineInstr &MI : B->instrs())
      if (!MI.isBundle() && !MI.isDebugInstr()) {
        Tr.push_back({&info(MI), After ? TraceIters : -1});
        if (!MI.isConditionalBranch())
          Propagate(MI);
      }
    if (B->succ_empty())
      break;
    const MachineBasicBlock *Next = nullptr;
    for (const MachineInstr &Br : B->terminators()) {
      if (!Br.isConditionalBranch())
        continue;
      std::optional<bool> HighTakes =
          groupBranchTakenByHigh(Br, *B, T, GroupRegs, TRI, SCC);
      if (!HighTakes) {
        // A branch on a workitem-id value around a barrier that is not the
        // plugin's own sync: say that the path was assumed the same.
        // Wave-uniform tests only: SCC (from scalar values, e.g. a
        // readfirstlane of the id) and EXEC (s_and_saveexec); a VCC test is
        // a lane condition.
        StringRef BrName = T.name(Br.getOpcode());
        bool WaveDependent =
            (BrName.starts_with("S_CBRANCH_SCC") ||
             BrName.starts_with("S_CBRANCH_EXEC")) &&
            llvm::any_of(Br.operands(), [&](const MachineOperand &MO) {
              return MO.isReg() && MO.isUse() && MO.getReg() &&
                     MO.getReg().isPhysical() && IsTainted(MO.getReg());
            });
        if (WaveDependent && !R.UnmodelledWaveBranch &&
            llvm::any_of(B->successors(), HasBarrier))
          R.UnmodelledWaveBranch = &Br;
        continue;
      }
      SawGroupBranch = true;
      const MachineBasicBlock *Taken = nullptr;
      for (const MachineOperand &MO : Br.operands())
        if (MO.isMBB())
          Taken = MO.getMBB();
      if (*HighTakes == High)
        Next = Taken;
      else
        for (const MachineBasicBlock *S : B->successors())
          if (S != Taken)
            Next = S;
    }
    const MachineBasicBlock *Goal = After ? nullptr : Header;
    if (!Next)
      for (const MachineBasicBlock *S : B->successors())
        if (!Visited.count(S) && reaches(S, Goal)) {
          Next = S;
          break;
        }
    if (!Next)
      return std::nullopt;
    B = Next;
  }
  if (!After)
    return std::nullopt;
  return Tr;
}

std::vector<Step> Checker::loopOnly() {
  std::vector<Step> Tr;
  for (int I = 0; I < TraceIters; ++I)
    for (const MachineInstr &MI : L.getHeader()->instrs())
      if (!MI.isBundle() && !MI.isDebugInstr())
        Tr.push_back({&info(MI), I});
  return Tr;
}

bool Checker::checkRegisters(const std::vector<Step> &Tr) {
  struct Pending {
    const Step *S;
    unsigned Seq; // issue index in its counter's stream
  };
  std::vector<Pending> Out;
  unsigned Issued[4] = {0, 0, 0, 0};
  for (const Step &St : Tr) {
    const Access &A = *St.A;
    if (std::optional<Waitcnt> W = waitOf(A)) {
      llvm::erase_if(Out, [&](const Pending &P) {
        unsigned C = unsigned(P.S->A->Cnt);
        return retires(*W, P.S->A->Cnt, Issued[C] - P.Seq - 1);
      });
      continue;
    }
    // The same wave reading LDS that its own LDS DMA may still be writing.
    if (A.LDSRead)
      for (const Pending &P : Out)
        if (P.S->A->Kind == InstKind::LDSDMA &&
            bufferOf(*P.S->A->MI).mayAlias(bufferOf(*A.MI))) {
          finding("reads LDS buffer " + bufferOf(*A.MI).name() +
                      " while the LDS DMA `" + describe(*P.S->A->MI) +
                      "` of the same wave may still be writing it: it needs "
                      "an s_waitcnt vmcnt",
                  A.MI);
          return false;
        }
    for (const MachineOperand &MO : A.MI->operands()) {
      if (!MO.isReg() || !MO.getReg() || !MO.getReg().isPhysical())
        continue;
      for (const Pending &P : Out) {
        const Access &PA = *P.S->A;
        if (!PA.LoadsRegs)
          continue;
        bool Overlap = false;
        for (const MachineOperand &D : PA.MI->defs())
          if (D.isReg() && D.getReg() && TRI.regsOverlap(D.getReg(), MO.getReg()))
            Overlap = true;
        if (!Overlap)
          continue;
        // A younger load of the same in-order stream may overwrite.
        if (MO.isDef() && A.Cnt == PA.Cnt && A.Cnt != Counter::SMEM)
          continue;
        finding(Twine(MO.isDef() ? "overwrites " : "reads ") +
                    TRI.getName(MO.getReg()) + " while the load `" +
                    describe(*PA.MI) + "`" +
                    (P.S->Iter != St.Iter && P.S->Iter >= 0 && St.Iter <= TraceIters - 1
                         ? " of the previous iteration"
                         : "") +
                    " may still be writing it: no s_waitcnt covers it",
                A.MI);
        return false;
      }
    }
    if (A.Cnt != Counter::None)
      Out.push_back({&St, Issued[unsigned(A.Cnt)]++});
  }
  return true;
}

/// Barriers a wave passes, from the access at Pos on, before a wait
/// guarantees the access complete (~0u: never).
unsigned Checker::drainDistance(const std::vector<Step> &Tr, unsigned Pos) {
  const Access &X = *Tr[Pos].A;
  unsigned After = 0, Barriers = 0;
  for (unsigned I = Pos + 1; I < Tr.size(); ++I) {
    const Access &A = *Tr[I].A;
    if (std::optional<Waitcnt> W = waitOf(A)) {
      if (retires(*W, X.Cnt, After))
        return Barriers;
      continue;
    }
    if (A.Kind == InstKind::Barrier)
      ++Barriers;
    if (A.Cnt == X.Cnt)
      ++After;
    if (A.Kind == InstKind::Other && T.name(A.MI->getOpcode()) == "S_ENDPGM")
      return Barriers; // a wave that ends no longer holds its accesses open
  }
  return ~0u;
}

/// Every read/write pair of one LDS buffer by two different waves must be
/// ordered: in different phases (barrier intervals), the earlier access
/// drained before a barrier in between.
void Checker::checkPairs(const std::vector<Step> *Tr[2], bool Twice) {
  struct Acc {
    unsigned Pos;
    long Phase;
    unsigned Drain;
    BufferKey Key;
  };
  std::vector<Acc> Lists[2];
  for (int G = 0; G <= int(Twice); ++G) {
    long Phase = 0;
    for (unsigned I = 0; I < Tr[G]->size(); ++I) {
      const Access &A = *(*Tr[G])[I].A;
      if (A.Kind == InstKind::Barrier)
        ++Phase;
      if (A.LDSRead || A.LDSWrite)
        Lists[G].push_back({I, Phase, drainDistance(*Tr[G], I), bufferOf(*A.MI)});
    }
  }
  R.LDSAccesses = 0;
  for (const Step &S : *Tr[0])
    R.LDSAccesses += S.Iter == 0 && (S.A->LDSRead || S.A->LDSWrite);
  auto Group = [](int G) { return G ? "waves 4-7" : "waves 0-3"; };
  auto When = [](int Iter) -> std::string {
    if (Iter < 0)
      return "before the loop";
    if (Iter >= TraceIters)
      return "after the loop";
    return "iteration " + std::to_string(Iter + 1);
  };
  for (int GX = 0; GX <= int(Twice); ++GX)
    for (int GY = 0; GY <= int(Twice); ++GY)
      for (const Acc &X : Lists[GX])
        for (const Acc &Y : Lists[GY]) {
          const Step &SX = (*Tr[GX])[X.Pos], &SY = (*Tr[GY])[Y.Pos];
          // One reads what the other writes. Writes of one phase by
          // different waves go to disjoint parts of a tile (a cooperative
          // store), so two writes are not a pair here.
          if (SX.A->LDSWrite == SY.A->LDSWrite || !X.Key.mayAlias(Y.Key))
            continue;
          if (X.Phase > Y.Phase)
            continue; // checked with the roles swapped
          ++R.PairsChecked;
          std::string Pair = "`" + describe(*SX.A->MI) + "` (" + Group(GX) +
                             ", " + When(SX.Iter) + ") and `" +
                             describe(*SY.A->MI) + "` (another wave, " +
                             Group(GY) + ", " + When(SY.Iter) + ")";
          if (X.Phase == Y.Phase) {
            finding("LDS buffer " + X.Key.name() + ": " + Pair +
                        " run between the same two barriers: nothing orders "
                        "them",
                    SX.A->MI);
            return;
          }
          if (X.Drain == ~0u || Y.Phase - X.Phase < long(X.Drain) + 1) {
            finding("LDS buffer " + X.Key.name() + ": " + Pair +
                        ": the first is not complete before the s_barrier "
                        "that should order them; it needs an s_waitcnt " +
                        (SX.A->Cnt == Counter::VM ? "vmcnt" : "lgkmcnt") +
                        " before that barrier",
                    SX.A->MI);
            return;
          }
        }
}

SyncReport Checker::run() {
  for (unsigned Reg = 1, E = TRI.getNumRegs(); Reg < E; ++Reg)
    if (StringRef(TRI.getName(Reg)) == "SCC")
      SCC = MCRegister(Reg);
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineInstr &MI : MBB)
      if (T.name(MI.getOpcode()) == "S_AND_B32" && MI.getNumOperands() >= 3 &&
          MI.getOperand(2).isImm() && MI.getOperand(2).getImm() == 256)
        GroupRegs.insert(MI.getOperand(0).getReg());
  for (const MachineInstr &MI : L.getHeader()->instrs())
    R.Barriers += T.classify(MI) == InstKind::Barrier;

  bool Group = false;
  std::optional<std::vector<Step>> Low = trace(false, Group);
  std::optional<std::vector<Step>> High = trace(true, Group);
  if (!Low || !High) {
    // The kernel's path is not one loop between straight code: check the
    // loop on its own (one wave group, its steady state).
    R.WholeKernel = false;
    std::vector<Step> Tr = loopOnly();
    const std::vector<Step> *Trs[2] = {&Tr, &Tr};
    if (checkRegisters(Tr))
      checkPairs(Trs, false);
    return R;
  }
  R.WholeKernel = true;
  R.Asymmetric = Group;
  auto CountBarriers = [&](const std::vector<Step> &Tr, int Iter) {
    unsigned N = 0;
    for (const Step &S : Tr)
      N += S.Iter == Iter && S.A->Kind == InstKind::Barrier;
    return N;
  };
  unsigned PreLow = CountBarriers(*Low, -1), PreHigh = CountBarriers(*High, -1);
  unsigned PostLow = CountBarriers(*Low, TraceIters),
           PostHigh = CountBarriers(*High, TraceIters);
  R.GroupOffset = int(PreHigh) - int(PreLow);
  if (PreLow + PostLow != PreHigh + PostHigh) {
    finding("waves 0-3 execute " + Twine(PreLow) + " + " + Twine(R.Barriers) +
                " per iteration + " + Twine(PostLow) + " s_barrier, waves 4-7 " +
                Twine(PreHigh) + " + " + Twine(R.Barriers) + " per iteration + " +
                Twine(PostHigh) + ": the workgroup hangs",
            nullptr);
    return R;
  }
  if (!checkRegisters(*Low) || !checkRegisters(*High))
    return R;
  const std::vector<Step> *Trs[2] = {&*Low, &*High};
  checkPairs(Trs, Group);
  if (R.Findings.empty() && Group)
    checkPacing();
  return R;
}

/// The asymmetric sync keeps the wave groups one cluster apart only if every
/// change between a memory cluster and a dot cluster (s_setprio 1 ... 0) is
/// a barrier: after a dot cluster, an s_barrier before the next memory
/// operation or dot; after a memory operation, one before the next dot.
/// Memory safety may not need the barrier after a dot cluster, the schedule
/// does.
void Checker::checkPacing() {
  if (R.GroupOffset % 2 == 0)
    finding("the wave groups are " + Twine(R.GroupOffset) +
                " barriers apart before the loop: the asymmetric sync must "
                "put them an odd number of clusters apart",
            nullptr);
  std::vector<const MachineInstr *> Body;
  for (const MachineInstr &MI : L.getHeader()->instrs())
    if (!MI.isBundle() && !MI.isDebugInstr())
      Body.push_back(&MI);
  bool HasPrio = llvm::any_of(Body, [&](const MachineInstr *MI) {
    return T.classify(*MI) == InstKind::SetPrio;
  });
  if (!HasPrio)
    return;
  enum { None, AfterDot, AfterMem } Need = None;
  for (unsigned Trip = 0; Trip < 2; ++Trip)
    for (const MachineInstr *MI : Body) {
      const Access &A = info(*MI);
      bool DotStart = A.Kind == InstKind::SetPrio && MI->getOperand(0).isImm() &&
                      MI->getOperand(0).getImm() > 0;
      bool DotEnd = A.Kind == InstKind::SetPrio && !DotStart;
      bool Mem = A.Cnt != Counter::None;
      if (A.Kind == InstKind::Barrier) {
        Need = None;
        continue;
      }
      if (Trip == 1 && ((Need == AfterDot && (Mem || DotStart)) ||
                        (Need == AfterMem && DotStart))) {
        finding("no s_barrier between a " +
                    Twine(Need == AfterDot ? "dot cluster" : "memory cluster") +
                    " and the next cluster: the wave groups drift out of "
                    "their one-cluster offset",
                MI);
        return;
      }
      if (DotEnd)
        Need = AfterDot;
      else if (Mem && Need != AfterDot)
        Need = AfterMem;
    }
}

} // namespace

SyncReport checkLoopSync(MachineLoop &L, MachineFunction &MF) {
  return Checker(L, MF).run();
}

} // namespace pingpong
