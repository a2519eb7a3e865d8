//===- SyncCheck.cpp - are the waits and barriers of a loop sufficient? ---===//
#include "pingpong/Analysis/SyncCheck.h"
#include "pingpong/Analysis/LDSObjects.h"
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Analysis/WaveValues.h"
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/Sync/SyncRules.h"
#include "pingpong/Sync/Waitcnt.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineMemOperand.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <unordered_map>

#include <functional>

using namespace llvm;
namespace pingpong {

namespace {

using sync::LDSRegion;
using sync::LDSUse;
using sync::OpClass;

/// What one instruction is to the sync rules (lib/Sync), and its LDS bytes.
struct Access {
  const MachineInstr *MI;
  InstKind Kind;           // the plugin's own classes (s_setprio ...)
  sync::InstRules Rules;   // counters, LDS use, wait/barrier/end
  sync::CounterUse Cnt;
  bool LoadsRegs = false;  // writes VGPR/SGPRs when it completes
  LDSRegion Region;        // LDS accesses only
  std::string BufName;     // for messages
  bool lds() const { return Rules.Use != LDSUse::None; }
};

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

/// The LDS side of an instruction's memory operands, as the library's
/// buffer identity (Analysis/LDSObjects: the checker's own, or the one the
/// loop model shares). Not lane-uniform for LDS DMA, whose lanes write M0 +
/// lane x size.
void regionOf(const MachineInstr &MI, Access &A, LDSIdentity Identity) {
  bool LaneUniform = A.Rules.Use != LDSUse::DMAWrite;
  A.Region = Identity == LDSIdentity::Check ? ldsRegionForCheck(MI, LaneUniform)
                                            : ldsRegionOf(MI, LaneUniform);
  A.BufName = ldsBufferName(MI);
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
        MI.getOperand(2).getImm() == target::waveGroupBit())
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

/// A region without its `!noalias` scopes (and its parts'): for pairs the
/// scoped-noalias claim does not speak about.
sync::LDSRegion withoutNoAliasClaim(sync::LDSRegion R) {
  R.NoAlias.clear();
  for (sync::LDSRegion &P : R.Parts)
    P.NoAlias.clear();
  return R;
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
  Checker(MachineLoop &L, MachineFunction &MF, LDSIdentity Identity)
      : L(L), MF(MF), Identity(Identity), TII(*MF.getSubtarget().getInstrInfo()),
        TRI(*MF.getSubtarget().getRegisterInfo()), T(OpcodeTable::get(TII)),
        Tgt(sync::targetForCPU(MF.getSubtarget().getCPU())
                .value_or(sync::Target::Gfx942)) {}
  /// May run again after the loop's s_waitcnt immediates changed (and
  /// nothing else): the waves' paths and each instruction's access are kept.
  SyncReport run();

private:
  MachineLoop &L;
  MachineFunction &MF;
  LDSIdentity Identity;
  const TargetInstrInfo &TII;
  const TargetRegisterInfo &TRI;
  const OpcodeTable &T;
  // Names of the two wave sets checkPairs compares, and whether each has
  // two waves or more (pairs within it are pairs of different waves).
  std::string PairNames[2];
  bool PairSelf[2] = {true, true};
  // Node-based: Steps keep pointers to entries while more are added.
  std::unordered_map<const MachineInstr *, Access> Info;
  DenseSet<unsigned> GroupRegs; // registers holding tid.x & 256 (wave group)
  MCRegister SCC;
  SyncReport R;
  // What prepare() computes once: the waves per workgroup, each wave's path
  // (none: it does not reach the loop) and the report fields tracing set.
  bool Prepared = false;
  unsigned Waves = 0;
  std::vector<std::optional<std::vector<Step>>> Traces;
  SyncReport Traced;
  void prepare();

  sync::Target Tgt;

  void finding(const Twine &Msg, const MachineInstr *At) {
    if (R.Findings.size() < 8)
      R.Findings.push_back({Msg.str(), At});
  }
  void unproven(const Twine &Msg, const MachineInstr *At) {
    if (R.Unproven.empty())
      R.Unproven.push_back({Msg.str(), At});
    ++R.UnprovenPairs;
  }
  const Access &info(const MachineInstr &MI);
  std::optional<Waitcnt> waitOf(const Access &A) const {
    if (A.Rules.Sync != sync::SyncKind::Waitcnt || !A.MI->getOperand(0).isImm())
      return std::nullopt;
    return Waitcnt::decodeGfx9(A.MI->getOperand(0).getImm());
  }
  bool reaches(const MachineBasicBlock *From, const MachineBasicBlock *To);
  std::optional<std::vector<Step>> trace(unsigned Wave);
  std::vector<Step> loopOnly();
  sync::WaveTimeline timeline(const std::vector<Step> &Tr);
  bool checkRegisters(const std::vector<Step> &Tr, const sync::WaveTimeline &TL);
  sync::LDSRegion inIteration(sync::LDSRegion R, int Iter) const;
  /// A workgroup of one wave ("amdgpu-flat-work-group-size" at most 64):
  /// no other wave to order LDS against.
  bool oneWave() const {
    unsigned Max = 0;
    StringRef S = MF.getFunction()
                      .getFnAttribute("amdgpu-flat-work-group-size")
                      .getValueAsString();
    return !S.split(',').second.trim().getAsInteger(10, Max) && Max && Max <= 64;
  }
  void checkPairs(const std::vector<Step> *Tr[2],
                  const sync::WaveTimeline *TL[2], bool Twice);
  void checkPacing();
  void checkMfmaPhases(const std::vector<Step> *Tr[2],
                       const sync::WaveTimeline *TL[2]);
};

const Access &Checker::info(const MachineInstr &MI) {
  auto It = Info.find(&MI);
  if (It != Info.end())
    return It->second;
  Access A;
  A.MI = &MI;
  A.Kind = T.classify(MI);
  A.Rules = sync::classifyByName(T.name(MI.getOpcode()));
  A.Cnt = sync::countersOf(A.Rules.Class, Tgt);
  A.LoadsRegs = A.Cnt.any() && MI.getNumExplicitDefs() > 0;
  if (A.lds())
    regionOf(MI, A, Identity);
  return Info[&MI] = std::move(A);
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

/// The instructions wave Wave executes: a branch whose way the wave's
/// registers decide (WaveValues: the workitem id through the integer ops
/// kernels test it with, EXEC, SCC) goes that way, the plugin's wave-group
/// branch by the group; other branches the way into the loop before it and
/// towards the end after it; the loop runs TraceIters times. Fails on a
/// second loop, or where the wave's way does not reach the loop.
std::optional<std::vector<Step>> Checker::trace(unsigned Wave) {
  std::vector<Step> Tr;
  const MachineBasicBlock *Header = L.getHeader();
  const MachineBasicBlock *B = &MF.front();
  SmallPtrSet<const MachineBasicBlock *, 16> Visited;
  bool After = false;
  bool High = (Wave * 64) & target::waveGroupBit();
  wavevalues::WaveState WS(Wave, TRI, TII);
  // Registers holding values derived from the workitem id (v0 at entry),
  // as register units.
  BitVector Tainted(TRI.getNumRegUnits());
  if (MCRegister V0 = MCRegister(physRegNamed(TRI, "VGPR0")))
    for (MCRegUnit U : TRI.regunits(V0))
      Tainted.set(static_cast<unsigned>(U));
  auto IsTainted = [&](Register R) {
    return llvm::any_of(TRI.regunits(R.asMCReg()), [&](MCRegUnit U) {
      return Tainted.test(static_cast<unsigned>(U));
    });
  };
  // (operands() rather than uses()/defs(): SCC, VCC and EXEC are implicit;
  // but the implicit EXEC every VALU reads is its lane mask, not its data:
  // after a wave-dependent exec branch it would taint every value; and EXEC
  // read while the wave is known to have every lane on, e.g. restored after
  // such a branch, carries nothing of the id. A register written from
  // untainted values is untainted again.)
  MCRegister ExecReg(physRegNamed(TRI, "EXEC"));
  auto Propagate = [&](const MachineInstr &MI) {
    bool Reads = llvm::any_of(MI.operands(), [&](const MachineOperand &MO) {
      if (!MO.isReg() || !MO.isUse() || !MO.getReg() || !MO.getReg().isPhysical())
        return false;
      if (ExecReg && TRI.regsOverlap(MO.getReg(), ExecReg) &&
          (MO.isImplicit() || WS.execFull()))
        return false;
      return IsTainted(MO.getReg());
    });
    for (const MachineOperand &MO : MI.operands())
      if (MO.isReg() && MO.isDef() && MO.getReg() && MO.getReg().isPhysical())
        for (MCRegUnit U : TRI.regunits(MO.getReg().asMCReg()))
          Tainted[static_cast<unsigned>(U)] = Reads;
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
          if (!MI.isBundle() && !MI.isDebugInstr()) {
            Tr.push_back({&info(MI), I});
            WS.step(MI);
          }
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
        WS.step(MI);
      }
    if (B->succ_empty())
      break;
    const MachineBasicBlock *Goal = After ? nullptr : Header;
    const MachineBasicBlock *Next = nullptr;
    for (const MachineInstr &Br : B->terminators()) {
      if (!Br.isConditionalBranch())
        continue;
      const MachineBasicBlock *Taken = nullptr;
      for (const MachineOperand &MO : Br.operands())
        if (MO.isMBB())
          Taken = MO.getMBB();
      // Only a branch on the workitem id goes the way the wave's registers
      // say: for the others (uniform data, the structurizer's flags) the
      // way into the loop is taken, as before, and a flag set on a way
      // this path did not take must not steer it off.
      StringRef BrName = T.name(Br.getOpcode());
      bool FromId = llvm::any_of(Br.operands(), [&](const MachineOperand &MO) {
        return MO.isReg() && MO.isUse() && MO.getReg() &&
               MO.getReg().isPhysical() && IsTainted(MO.getReg());
      });
      std::optional<bool> Jumps;
      if (FromId)
        Jumps = WS.jumps(Br);
      if (!Jumps)
        if (std::optional<bool> HighTakes =
                groupBranchTakenByHigh(Br, *B, T, GroupRegs, TRI, SCC))
          Jumps = *HighTakes == High;
      if (!Jumps) {
        // A branch on a workitem-id value around a barrier whose way this
        // wave's registers do not tell: the path is assumed, and the check
        // says it cannot prove the result: SCC (from scalar values, e.g. a
        // readfirstlane of the id), EXEC (s_and_saveexec) and VCC (LLVM's
        // uniform branch: s_cselect_b64 on SCC, and with EXEC, into VCC)
        // each decide for the whole wave.
        bool WaveDependent = FromId && (BrName.starts_with("S_CBRANCH_SCC") ||
                                        BrName.starts_with("S_CBRANCH_EXEC") ||
                                        BrName.starts_with("S_CBRANCH_VCC"));
        if (WaveDependent && !R.UnmodelledWaveBranch &&
            llvm::any_of(B->successors(), HasBarrier))
          R.UnmodelledWaveBranch = &Br;
        continue;
      }
      if (*Jumps)
        Next = Taken;
      else
        for (const MachineBasicBlock *S : B->successors())
          if (S != Taken)
            Next = S;
      // This wave's way leaves the way into the loop: it does not run it.
      if (Next && !After && !reaches(Next, Goal)) {
        R.WavesOffPath |= uint64_t(1) << Wave;
        return std::nullopt;
      }
    }
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

sync::WaveTimeline Checker::timeline(const std::vector<Step> &Tr) {
  std::vector<sync::WaveEvent> Ev(Tr.size());
  for (size_t I = 0; I < Tr.size(); ++I) {
    const Access &A = *Tr[I].A;
    Ev[I].Sync = A.Rules.Sync;
    Ev[I].Class = A.Rules.Class;
    if (std::optional<Waitcnt> W = waitOf(A))
      Ev[I].W = *W;
    else if (A.Rules.Sync == sync::SyncKind::Waitcnt)
      Ev[I].Sync = sync::SyncKind::None; // not an immediate: waits on nothing known
  }
  return sync::analyzeWave(Ev, Tgt);
}

/// R with a double buffer's slot folded into iteration Iter's parity (the
/// toggle flips once per iteration of this loop; elsewhere it is not
/// followed), as checkPairs does.
sync::LDSRegion Checker::inIteration(sync::LDSRegion R, int Iter) const {
  const void *Header = L.getHeader()->getBasicBlock();
  return sync::advanceSlots(
      std::move(R),
      [&](const sync::LDSRegion::ToggledSlot &S) -> std::optional<int> {
        if (S.Header == Header && Iter >= 0 && Iter < TraceIters)
          return Iter;
        return std::nullopt;
      });
}

bool Checker::checkRegisters(const std::vector<Step> &Tr,
                             const sync::WaveTimeline &TL) {
  std::vector<unsigned> Out; // outstanding counter operations (trace indices)
  for (unsigned J = 0; J < Tr.size(); ++J) {
    const Step &St = Tr[J];
    const Access &A = *St.A;
    if (A.Rules.Sync != sync::SyncKind::None) {
      llvm::erase_if(Out, [&](unsigned P) { return TL.completeBefore(P, J + 1); });
      continue;
    }
    // The same wave touching LDS that its own LDS DMA may still be writing
    // (a double buffer's slots in each one's iteration: the DMA of iteration
    // i into slot cur ^ 1 is the read of slot cur in iteration i + 1).
    if (A.lds() && A.Rules.Class != OpClass::LDSDMA)
      for (unsigned P : Out) {
        const Access &D = *Tr[P].A;
        if (D.Rules.Class != OpClass::LDSDMA)
          continue;
        sync::PairVerdict V = sync::sameWaveDMA(inIteration(D.Region, Tr[P].Iter),
                                                inIteration(A.Region, St.Iter));
        if (V == sync::PairVerdict::Race) {
          finding(Twine(sync::ldsReads(A.Rules.Use) ? "reads" : "writes") +
                      " LDS buffer " + A.BufName + " while the LDS DMA `" +
                      describe(*D.MI) +
                      "` of the same wave may still be writing it: it needs "
                      "an s_waitcnt vmcnt",
                  A.MI);
          return false;
        }
        if (V == sync::PairVerdict::Unproven)
          unproven("`" + describe(*A.MI) + "` and the same wave's LDS DMA `" +
                       describe(*D.MI) + "` still in flight: cannot prove " +
                       "they touch different LDS bytes (" + A.BufName + ", " +
                       D.BufName + ")",
                   A.MI);
      }
    for (const MachineOperand &MO : A.MI->operands()) {
      if (!MO.isReg() || !MO.getReg() || !MO.getReg().isPhysical())
        continue;
      if (!sync::registerOperandCounts(A.Rules.Class, MO.isImplicit(),
                                       TRI.getName(MO.getReg())))
        continue; // spill liveness marker, not an access
      for (unsigned P : Out) {
        const Access &PA = *Tr[P].A;
        if (!PA.LoadsRegs)
          continue;
        bool Overlap = false;
        for (const MachineOperand &D : PA.MI->defs())
          if (D.isReg() && D.getReg() && TRI.regsOverlap(D.getReg(), MO.getReg()))
            Overlap = true;
        if (!Overlap)
          continue;
        // A younger load of the same in-order stream may overwrite.
        if (MO.isDef() && A.LoadsRegs &&
            sync::sameInOrderStream(A.Rules.Class, PA.Rules.Class, Tgt))
          continue;
        finding(Twine(MO.isDef() ? "overwrites " : "reads ") +
                    TRI.getName(MO.getReg()) + " while the load `" +
                    describe(*PA.MI) + "`" +
                    (Tr[P].Iter != St.Iter && Tr[P].Iter >= 0 && St.Iter <= TraceIters - 1
                         ? " of the previous iteration"
                         : "") +
                    " may still be writing it: no s_waitcnt covers it",
                A.MI);
        return false;
      }
    }
    if (A.Cnt.any())
      Out.push_back(J);
  }
  return true;
}

/// Every pair of LDS accesses (at least one a write) of two different waves
/// to overlapping bytes must be ordered (lib/Sync's pair rule).
void Checker::checkPairs(const std::vector<Step> *Tr[2],
                         const sync::WaveTimeline *TL[2], bool Twice) {
  struct Acc {
    unsigned Pos;
    sync::LDSAccess X;
    sync::LDSRegion Region; // with a double buffer's slot in this iteration
  };
  std::vector<Acc> Lists[2];
  const void *Header = L.getHeader()->getBasicBlock();
  for (int G = 0; G <= int(Twice); ++G)
    for (unsigned I = 0; I < Tr[G]->size(); ++I) {
      const Step &S = (*Tr[G])[I];
      const Access &A = *S.A;
      if (!A.lds())
        continue;
      sync::LDSAccess X;
      X.Use = A.Rules.Use;
      X.Phase = TL[G]->Phase[I];
      X.Drain = TL[G]->drain(I);
      X.Site = A.MI;
      sync::LDSRegion R = A.Region;
      // The toggle flips once per iteration of this loop; elsewhere its
      // value is not followed.
      std::function<void(sync::LDSRegion &)> Fold = [&](sync::LDSRegion &X) {
        if (X.Slot && X.Slot->Header == Header && S.Iter >= 0 &&
            S.Iter < TraceIters)
          X.Slot->advance(S.Iter);
        else
          X.Slot.reset();
        for (sync::LDSRegion &P : X.Parts)
          Fold(P);
      };
      Fold(R);
      Lists[G].push_back({I, X, std::move(R)});
    }
  R.LDSAccesses = 0;
  for (const Step &S : *Tr[0])
    R.LDSAccesses += S.Iter == 0 && S.A->lds();
  if (oneWave())
    return;
  auto Group = [&](int G) { return PairNames[G]; };
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
          if (GX == GY && !PairSelf[GX])
            break; // one wave: no pair of different waves
          if (X.X.Phase > Y.X.Phase)
            continue; // checked with the roles swapped
          const Step &SX = (*Tr[GX])[X.Pos], &SY = (*Tr[GY])[Y.Pos];
          // Triton's `!noalias` of a read against its "AsyncCopies" scope
          // is a claim about the copies its waits cover, which its pipeliner
          // keeps in other stages inside the loop. Before or after the loop
          // (the four-stage attention's prologue refills a buffer that other
          // waves still read) another wave's DMA is not covered by it.
          bool OutsideLoop = SX.Iter < 0 || SX.Iter >= TraceIters ||
                             SY.Iter < 0 || SY.Iter >= TraceIters;
          bool DMA = X.X.Use == sync::LDSUse::DMAWrite ||
                     Y.X.Use == sync::LDSUse::DMAWrite;
          sync::PairResult P =
              OutsideLoop && DMA
                  ? sync::checkPair(X.X, withoutNoAliasClaim(X.Region), Y.X,
                                    withoutNoAliasClaim(Y.Region))
                  : sync::checkPair(X.X, X.Region, Y.X, Y.Region);
          if (P.V == sync::PairVerdict::NotAPair)
            continue;
          ++R.PairsChecked;
          if (P.V == sync::PairVerdict::Ordered)
            continue;
          std::string Pair = "`" + describe(*SX.A->MI) + "` (" + Group(GX) +
                             ", " + When(SX.Iter) + ") and `" +
                             describe(*SY.A->MI) + "` (another wave, " +
                             Group(GY) + ", " + When(SY.Iter) + ")";
          std::string Buf = SX.A->BufName;
          if (P.Where.O == sync::Overlap::Bytes && SX.A->Region.Range)
            Buf += " bytes [" + std::to_string(P.Where.Lo) + ", " +
                   std::to_string(P.Where.Hi) + ")";
          std::string Why =
              P.Why == sync::Disorder::SamePhase
                  ? std::string(" run between the same two barriers: nothing "
                                "orders them")
                  : std::string(": the first is not complete before the "
                                "s_barrier that should order them; it needs an "
                                "s_waitcnt ") +
                        (SX.A->Cnt.Vm ? "vmcnt" : "lgkmcnt") +
                        " before that barrier";
          if (P.V == sync::PairVerdict::Unproven) {
            unproven(P.Unproven == sync::UnprovenWhy::SameStore
                         ? "cannot prove the order of " + Pair + " matters (" +
                               Buf + ": the same store in both waves, the "
                               "replicated-value idiom) and" + Why
                         : "cannot prove " + Pair + " touch different LDS bytes (" +
                               SX.A->BufName + " / " + SY.A->BufName +
                               ": the addresses are not known) and" + Why,
                     SX.A->MI);
            continue;
          }
          finding("LDS buffer " + Buf + ": " + Pair + Why, SX.A->MI);
          return;
        }
}

void Checker::prepare() {
  for (unsigned Reg = 1, E = TRI.getNumRegs(); Reg < E; ++Reg)
    if (StringRef(TRI.getName(Reg)) == "SCC")
      SCC = MCRegister(Reg);
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineInstr &MI : MBB)
      if (T.name(MI.getOpcode()) == "S_AND_B32" && MI.getNumOperands() >= 3 &&
          MI.getOperand(2).isImm() &&
          MI.getOperand(2).getImm() == target::waveGroupBit())
        GroupRegs.insert(MI.getOperand(0).getReg());
  Waves = wavesPerWorkgroup(MF);
  if (!Waves || Waves > 16)
    Waves = 8;
  // Every wave's path: branches follow the wave's values, never a wait.
  for (unsigned W = 0; W < Waves; ++W)
    Traces.push_back(trace(W));
  Traced = R;
  Prepared = true;
}

SyncReport Checker::run() {
  R = SyncReport();
  if (!Prepared)
    prepare();
  R.UnmodelledWaveBranch = Traced.UnmodelledWaveBranch;
  R.WavesOffPath = Traced.WavesOffPath;
  for (const MachineInstr &MI : L.getHeader()->instrs())
    R.Barriers += T.classify(MI) == InstKind::Barrier;

  // Waves with the same path are one class (the plugin's sync: waves 0-3
  // and 4-7; an author's skew at another wave may add more).
  struct WaveClass {
    std::vector<Step> Tr;
    uint64_t Waves = 0;
    unsigned Pre = 0, Post = 0; // s_barrier before and after the loop
    sync::WaveTimeline TL;
  };
  std::vector<WaveClass> Classes;
  auto SameTrace = [](const std::vector<Step> &X, const std::vector<Step> &Y) {
    return X.size() == Y.size() &&
           std::equal(X.begin(), X.end(), Y.begin(), [](const Step &A, const Step &B) {
             return A.A == B.A && A.Iter == B.Iter;
           });
  };
  for (unsigned W = 0; W < Waves; ++W) {
    const std::optional<std::vector<Step>> &Tr = Traces[W];
    if (!Tr)
      continue;
    auto It = llvm::find_if(Classes, [&](const WaveClass &C) { return SameTrace(C.Tr, *Tr); });
    if (It == Classes.end()) {
      Classes.push_back({*Tr, 0, 0, 0, {}});
      It = std::prev(Classes.end());
    }
    It->Waves |= uint64_t(1) << W;
  }
  if (Classes.empty() || R.WavesOffPath) {
    // The kernel's path is not one loop between straight code (or some
    // waves do not run the loop): check the loop on its own (one wave
    // group, its steady state).
    R.WholeKernel = false;
    std::vector<Step> Tr = loopOnly();
    const std::vector<Step> *Trs[2] = {&Tr, &Tr};
    sync::WaveTimeline TL = timeline(Tr);
    const sync::WaveTimeline *TLs[2] = {&TL, &TL};
    PairNames[0] = PairNames[1] = "waves 0-" + std::to_string(Waves - 1);
    if (checkRegisters(Tr, TL))
      checkPairs(Trs, TLs, false);
    return R;
  }
  R.WholeKernel = true;
  auto CountBarriers = [&](const std::vector<Step> &Tr, int Iter) {
    unsigned N = 0;
    for (const Step &S : Tr)
      N += S.Iter == Iter && S.A->Kind == InstKind::Barrier;
    return N;
  };
  SmallVector<unsigned, 4> Counts;
  for (WaveClass &C : Classes) {
    C.Pre = CountBarriers(C.Tr, -1);
    C.Post = CountBarriers(C.Tr, TraceIters);
    Counts.push_back(C.Pre + C.Post);
  }
  if (sync::barrierMismatch(Counts)) {
    std::string Msg;
    for (const WaveClass &C : Classes)
      Msg += (Msg.empty() ? "" : ", ") + waveSetName(C.Waves) +
             (llvm::popcount(C.Waves) == 1 ? " executes " : " execute ") +
             std::to_string(C.Pre) + " + " + std::to_string(R.Barriers) +
             " per iteration + " + std::to_string(C.Post) + " s_barrier";
    finding(Msg + ": the workgroup hangs", nullptr);
    return R;
  }
  for (WaveClass &C : Classes) {
    C.TL = timeline(C.Tr);
    if (!checkRegisters(C.Tr, C.TL))
      return R;
  }
  // The pair rule of lib/Sync on every two classes, each with itself too
  // (checkPairs of two lists does both ways and each list with itself).
  auto Pairs = [&](const WaveClass &CX, const WaveClass &CY, bool Two) {
    const std::vector<Step> *Trs[2] = {&CX.Tr, &CY.Tr};
    const sync::WaveTimeline *TLs[2] = {&CX.TL, &CY.TL};
    PairNames[0] = waveSetName(CX.Waves);
    PairNames[1] = waveSetName(CY.Waves);
    PairSelf[0] = llvm::popcount(CX.Waves) > 1;
    PairSelf[1] = llvm::popcount(CY.Waves) > 1;
    checkPairs(Trs, TLs, Two);
  };
  if (Classes.size() == 1)
    Pairs(Classes[0], Classes[0], false);
  for (size_t X = 0; X < Classes.size(); ++X)
    for (size_t Y = X + 1; Y < Classes.size() && R.Findings.empty(); ++Y)
      Pairs(Classes[X], Classes[Y], true);
  // The skew: two waves of one SIMD (w, w + 4) in classes that enter the
  // loop at different barrier counts must be an odd number apart, with a
  // barrier at every cluster change and no shared MFMA phase.
  auto ClassOf = [&](unsigned W) -> const WaveClass * {
    for (const WaveClass &C : Classes)
      if (C.Waves >> W & 1)
        return &C;
    return nullptr;
  };
  for (unsigned W = 0; W + 4 < Waves && R.Findings.empty(); ++W) {
    const WaveClass *A = ClassOf(W), *B = ClassOf(W + 4);
    if (!A || !B || A->Pre == B->Pre)
      continue;
    R.Asymmetric = true;
    R.GroupOffset = int(B->Pre) - int(A->Pre);
    checkPacing();
    const std::vector<Step> *Trs[2] = {&A->Tr, &B->Tr};
    const sync::WaveTimeline *TLs[2] = {&A->TL, &B->TL};
    if (R.Findings.empty())
      checkMfmaPhases(Trs, TLs);
  }
  return R;
}

/// The rule pingpong-sim verify applies to the waves it ran
/// (sharedMfmaPhase): a wave of each group on one SIMD never runs loop MFMAs
/// in the same barrier phase. Two dot clusters with MFMAs in neighbouring
/// barrier intervals break it although a barrier separates them: the skew
/// runs one group's second dot with the other's first.
void Checker::checkMfmaPhases(const std::vector<Step> *Tr[2],
                              const sync::WaveTimeline *TL[2]) {
  std::vector<int> Phases[2];
  std::vector<const MachineInstr *> First[2];
  for (int G = 0; G < 2; ++G)
    for (size_t I = 0; I < Tr[G]->size(); ++I) {
      const Step &St = (*Tr[G])[I];
      if (St.Iter < 0 || St.Iter >= TraceIters ||
          St.A->Kind != InstKind::MFMA)
        continue;
      int Ph = TL[G]->Phase[I];
      if (Phases[G].empty() || Phases[G].back() != Ph) {
        Phases[G].push_back(Ph);
        First[G].push_back(St.A->MI);
      }
    }
  if (std::optional<int> Ph = sync::sharedMfmaPhase(Phases[0], Phases[1])) {
    auto FirstIn = [&](int G) {
      size_t K = llvm::find(Phases[G], *Ph) - Phases[G].begin();
      return First[G][K];
    };
    finding("waves 0-3 and waves 4-7 both run loop MFMAs in barrier phase " +
                Twine(*Ph) + " (`" + describe(*FirstIn(0)) + "` and `" +
                describe(*FirstIn(1)) +
                "`): their dot clusters overlap (MFMAs in neighbouring "
                "barrier intervals, which the asymmetric skew runs at the "
                "same time)",
            FirstIn(0));
    return;
  }
}

/// The asymmetric sync keeps the wave groups one cluster apart only if every
/// change between a memory cluster and a dot cluster (s_setprio 1 ... 0) is
/// a barrier: after a dot cluster, an s_barrier before the next memory
/// operation or dot; after a memory operation, one before the next dot.
/// Memory safety may not need the barrier after a dot cluster, the schedule
/// does.
void Checker::checkPacing() {
  if (!sync::groupOffsetPaces(R.GroupOffset))
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
  // Mem-priority schedules (chained dots) raise the memory clusters, not
  // the dots: there no raised region holds an MFMA, and a dot cluster runs
  // from its first MFMA to the next barrier or raise; its own LDS work (the
  // softmax's crossbar ops) belongs to it.
  bool MemRaised = false, SawMFMA = false;
  {
    bool Raised = false, RaisedMFMA = false;
    for (const MachineInstr *MI : Body) {
      const Access &A = info(*MI);
      if (A.Kind == InstKind::SetPrio)
        Raised = MI->getOperand(0).isImm() && MI->getOperand(0).getImm() > 0;
      if (A.Kind == InstKind::MFMA) {
        SawMFMA = true;
        RaisedMFMA |= Raised;
      }
    }
    MemRaised = SawMFMA && !RaisedMFMA;
  }
  std::vector<sync::PaceEvent> Ev;
  bool InDot = false, Raised = false;
  for (const MachineInstr *MI : Body) {
    const Access &A = info(*MI);
    sync::PaceEvent E = sync::PaceEvent::Other;
    if (MemRaised) {
      // Memory clusters: the raised regions; a dot cluster starts at the
      // first MFMA after a barrier or a memory cluster and ends at the next
      // raise (or barrier).
      if (A.Kind == InstKind::MFMA) {
        if (!InDot)
          E = sync::PaceEvent::DotStart;
        InDot = true;
      } else if (A.Rules.Sync == sync::SyncKind::Barrier) {
        E = sync::PaceEvent::Barrier;
        InDot = false;
      } else if (A.Kind == InstKind::SetPrio) {
        Raised = MI->getOperand(0).isImm() && MI->getOperand(0).getImm() > 0;
        if (Raised)
          E = InDot ? sync::PaceEvent::DotEnd : sync::PaceEvent::Mem;
        if (Raised)
          InDot = false;
      } else if (A.Cnt.any() && Raised) {
        E = sync::PaceEvent::Mem;
      }
    } else if (A.Kind == InstKind::SetPrio) {
      // A raise inside a raised region is not a new dot: the gate (`gate`)
      // enters a dot at s_setprio 1 and raises it to 2 after its first
      // MFMA, and LDS DMA the layout put at the head of the dot lies in
      // between.
      bool Up = MI->getOperand(0).isImm() && MI->getOperand(0).getImm() > 0;
      E = Up ? (Raised ? sync::PaceEvent::Other : sync::PaceEvent::DotStart)
             : sync::PaceEvent::DotEnd;
      Raised = Up;
    } else if (A.Rules.Sync == sync::SyncKind::Barrier)
      E = sync::PaceEvent::Barrier;
    else if (A.Cnt.any())
      E = sync::PaceEvent::Mem;
    Ev.push_back(E);
  }
  // A missing barrier between clusters may let the groups drift out of
  // their offset; whether that makes a race or a pacing fault is what
  // pingpong-sim verify decides (forced two-cluster on an attention loop:
  // the gap, and every wave clean), so the check doubts rather than finds.
  if (std::optional<sync::PacingGap> Gap = sync::pacingGap(Ev)) {
    R.PacingGap = ("no s_barrier between a " +
                   Twine(Gap->AfterDot ? "dot cluster" : "memory cluster") +
                   " and the next cluster: the wave groups may drift out of "
                   "their one-cluster offset")
                      .str();
    R.PacingGapAt = Body[Gap->At];
  }
}

} // namespace

SyncReport checkLoopSync(MachineLoop &L, MachineFunction &MF,
                         LDSIdentity Identity) {
  return Checker(L, MF, Identity).run();
}

class LoopSyncCheck::Impl : public Checker {
  using Checker::Checker;
};

LoopSyncCheck::LoopSyncCheck(MachineLoop &L, MachineFunction &MF,
                             LDSIdentity Identity)
    : C(std::make_unique<Impl>(L, MF, Identity)) {}
LoopSyncCheck::~LoopSyncCheck() = default;
SyncReport LoopSyncCheck::run() { return C->run(); }

} // namespace pingpong
