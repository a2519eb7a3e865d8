//===- AuthorSkew.cpp - an author's wave skew around a loop ---------------===//
//
// See AuthorSkew.h for what is matched. The halves are collected along the
// loop header's dominator chain (before) and post-dominator chain (after);
// pairs that close on one side of the loop (another loop's skew, e.g. the
// plugin's own asymmetric sync of an earlier loop) are set aside like
// matched parentheses, and what is left must be one half on each side.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/AuthorSkew.h"
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Analysis/WaveValues.h"
#include "pingpong/ISA/Opcodes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/CodeGen/MachineDominators.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachinePostDominators.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/Support/Debug.h"

#include <memory>

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;
namespace pingpong {

std::string AuthorSkew::describe() const {
  uint64_t All = Waves >= 64 ? ~uint64_t(0) : (uint64_t(1) << Waves) - 1;
  return waveSetName(Ahead) + " one s_barrier ahead before the loop, " +
         waveSetName(All & ~Ahead) + " after it";
}

namespace {

/// One conditional s_barrier: A branches to S (only the barrier) or J.
struct Half {
  MachineBasicBlock *A = nullptr;
  MachineInstr *Branch = nullptr;  // SI_IF or S_CBRANCH_SCC*
  MachineInstr *Barrier = nullptr; // the S_BARRIER in S
  std::optional<uint64_t> Set;     // waves that run the barrier (if exact)
  std::string Why;                 // why not exact
};

class Finder {
public:
  Finder(MachineLoop &L, MachineFunction &MF, const MachineDominatorTree &MDT,
         const MachineLoopInfo &MLI)
      : L(L), MF(MF), MDT(MDT), MLI(MLI),
        TII(*MF.getSubtarget().getInstrInfo()),
        TRI(*MF.getSubtarget().getRegisterInfo()),
        Eval(MF.getRegInfo(), TII) {
    Waves = wavesPerWorkgroup(MF);
    if (!Waves || Waves > 16)
      Waves = 16; // 1024 lanes, the most a workgroup has
    All = (uint64_t(1) << Waves) - 1;
  }
  AuthorSkewSearch run();

private:
  MachineLoop &L;
  MachineFunction &MF;
  const MachineDominatorTree &MDT;
  const MachineLoopInfo &MLI;
  const TargetInstrInfo &TII;
  const TargetRegisterInfo &TRI;
  wavevalues::SSAWaveEval Eval;
  std::unique_ptr<MachinePostDominatorTree> PDT;
  unsigned Waves;
  uint64_t All;

  StringRef name(const MachineInstr &MI) const {
    return TII.getName(MI.getOpcode());
  }
  MachineInstr *onlyBarrier(MachineBasicBlock &S) const;
  std::optional<Half> halfAt(MachineBasicBlock &A);
  bool pairs(const Half &First, const Half &Second) const;
};

/// S's one S_BARRIER, if that and an unconditional branch are all it holds.
MachineInstr *Finder::onlyBarrier(MachineBasicBlock &S) const {
  MachineInstr *Bar = nullptr;
  for (MachineInstr &MI : S) {
    if (MI.isDebugInstr() || MI.isUnconditionalBranch())
      continue;
    if (name(MI) != "S_BARRIER" || Bar)
      return nullptr;
    Bar = &MI;
  }
  return Bar;
}

/// A's branch, if it is one half of a skew: which waves take the barrier
/// (Set), or why that is not exact (Why). Not a half (nullopt) if A does not
/// end in such a branch or its condition does not come from the workitem id.
std::optional<Half> Finder::halfAt(MachineBasicBlock &A) {
  if (A.succ_size() != 2)
    return std::nullopt;
  MachineBasicBlock *S = nullptr, *J = nullptr;
  MachineInstr *Bar = nullptr;
  for (MachineBasicBlock *Cand : A.successors()) {
    MachineBasicBlock *Other = *A.succ_begin() == Cand ? *std::next(A.succ_begin())
                                                       : *A.succ_begin();
    if (Cand->pred_size() == 1 && Cand->succ_size() == 1 &&
        *Cand->succ_begin() == Other)
      if (MachineInstr *B = onlyBarrier(*Cand)) {
        S = Cand, J = Other, Bar = B;
        break;
      }
  }
  if (!S)
    return std::nullopt;
  MachineBasicBlock::iterator T = A.getFirstTerminator();
  if (T == A.end())
    return std::nullopt;
  Half H;
  H.A = &A;
  H.Branch = &*T;
  H.Barrier = Bar;
  StringRef BN = name(*T);
  // Per wave and lane a readfirstlane might read: does it run S?
  std::function<std::optional<bool>(unsigned, unsigned)> RunsS;
  MCRegister SCC = physRegNamed(TRI, "SCC"), VCC = physRegNamed(TRI, "VCC");
  if (BN == "SI_IF") {
    // exec &= cond; no lane left: jump to J (the join, SI_END_CF there).
    const MachineOperand &Cond = T->getOperand(1);
    if (!Cond.isReg() || !T->getOperand(2).isMBB() ||
        T->getOperand(2).getMBB() != J)
      return std::nullopt;
    if (!Eval.fromWorkitemId(Cond.getReg()))
      return std::nullopt;
    MachineBasicBlock::iterator First = J->getFirstNonPHI();
    while (First != J->end() && First->isDebugInstr())
      ++First;
    if (First == J->end() || name(*First) != "SI_END_CF" ||
        First->getOperand(0).getReg() != T->getOperand(0).getReg()) {
      H.Why = "the exec-masked branch's join does not restore exec first";
      return H;
    }
    Register C = Cond.getReg();
    RunsS = [this, C](unsigned W, unsigned F) {
      return Eval.uniformMask(C, W, F);
    };
  } else if (BN == "S_CBRANCH_SCC0" || BN == "S_CBRANCH_SCC1" ||
             BN == "S_CBRANCH_VCCZ" || BN == "S_CBRANCH_VCCNZ") {
    // SCC from a compare (readfirstlane of the id), or VCC from a copy of
    // a uniform mask (LLVM's uniform branch: s_cselect_b64 on SCC, and
    // with EXEC).
    bool OnSCC = BN.starts_with("S_CBRANCH_SCC");
    const MachineInstr *Def = Eval.lastDefBefore(*T, OnSCC ? SCC : VCC);
    if (!Def)
      return std::nullopt;
    if (!llvm::any_of(Def->uses(), [&](const MachineOperand &MO) {
          return MO.isReg() && Eval.fromWorkitemId(MO.getReg());
        }))
      return std::nullopt;
    MachineBasicBlock *Target = T->getOperand(0).getMBB();
    bool OnSet = BN == "S_CBRANCH_SCC1" || BN == "S_CBRANCH_VCCNZ";
    RunsS = [this, Def, OnSCC, Target, OnSet, S](unsigned W, unsigned F)
        -> std::optional<bool> {
      std::optional<bool> C = OnSCC ? Eval.condition(*Def, W, F, F)
                                    : Eval.uniformMaskOf(*Def, W, F);
      if (!C)
        return std::nullopt;
      return (*C == OnSet) == (Target == S);
    };
  } else {
    // Another form (a fallthrough we do not read ...): a half only if its
    // condition comes from the id, and then not an exact one.
    bool FromId = llvm::any_of(T->uses(), [&](const MachineOperand &MO) {
      return MO.isReg() && MO.getReg().isVirtual() &&
             Eval.fromWorkitemId(MO.getReg());
    });
    if (!FromId)
      return std::nullopt;
    H.Why = "a branch (" + BN.str() + ") on a workitem-id value whose way "
            "per wave is not computed";
    return H;
  }
  uint64_t Set = 0;
  for (unsigned W = 0; W < Waves; ++W) {
    // The same way whatever lane a readfirstlane reads (EXEC unknown here).
    std::optional<bool> R;
    for (unsigned F = 0; F < wavevalues::Lanes; ++F) {
      std::optional<bool> X = RunsS(W, F);
      if (!X || (R && *X != *R)) {
        R.reset();
        break;
      }
      R = X;
    }
    if (!R) {
      H.Why = "the condition is not the same in every lane of wave " +
              std::to_string(W) + ", or not computed";
      return H;
    }
    Set |= uint64_t(*R) << W;
  }
  H.Set = Set;
  return H;
}

/// First (before Second) and Second run equally often, and every wave runs
/// exactly one of their barriers.
bool Finder::pairs(const Half &First, const Half &Second) const {
  return First.Set && Second.Set && *First.Set && *First.Set != All &&
         (*First.Set ^ *Second.Set) == All &&
         MDT.dominates(First.A, Second.A) &&
         PDT->dominates(Second.A, First.A);
}

AuthorSkewSearch Finder::run() {
  AuthorSkewSearch R;
  MachineBasicBlock *Hdr = L.getHeader();
  MachineLoop *Scope = L.getParentLoop();
  std::vector<Half> Halves;
  for (MachineBasicBlock &A : MF) {
    if (MLI.getLoopFor(&A) != Scope)
      continue;
    if (std::optional<Half> H = halfAt(A))
      Halves.push_back(std::move(*H));
  }
  if (Halves.empty())
    return R;
  PDT = std::make_unique<MachinePostDominatorTree>(MF);
  std::vector<Half *> Before, After;
  for (Half &H : Halves)
    if (MDT.dominates(H.A, Hdr))
      Before.push_back(&H);
    else if (PDT->dominates(H.A, Hdr))
      After.push_back(&H);
  // Outermost first: before the loop, down the dominator chain; after it,
  // from the loop outwards.
  llvm::sort(Before, [&](Half *X, Half *Y) { return MDT.dominates(X->A, Y->A) && X != Y; });
  llvm::sort(After, [&](Half *X, Half *Y) { return PDT->dominates(Y->A, X->A) && X != Y; });
  auto Close = [&](std::vector<Half *> &Side) {
    std::vector<Half *> Open;
    for (Half *H : Side) {
      if (!Open.empty() && pairs(*Open.back(), *H))
        Open.pop_back();
      else
        Open.push_back(H);
    }
    Side = std::move(Open);
  };
  Close(Before);
  Close(After);
  for (std::vector<Half *> *Side : {&Before, &After})
    for (Half *H : *Side)
      if (!H->Set) {
        R.Unmatched = "a wave-dependent s_barrier " +
                      std::string(Side == &Before ? "before" : "after") +
                      " the loop: " + H->Why;
        R.At = H->Branch;
        return R;
      }
  if (Before.empty() && After.empty())
    return R;
  if (Before.size() != 1 || After.size() != 1) {
    R.Unmatched = std::to_string(Before.size()) +
                  " wave-dependent s_barrier(s) before the loop and " +
                  std::to_string(After.size()) +
                  " after it: not one skew and its catch-up";
    R.At = (Before.empty() ? After : Before).front()->Branch;
    return R;
  }
  if (!pairs(*Before.front(), *After.front())) {
    R.Unmatched = "the wave-dependent s_barrier before the loop (" +
                  waveSetName(*Before.front()->Set) + ") and the one after it (" +
                  waveSetName(*After.front()->Set) +
                  ") are not one skew and its catch-up";
    R.At = Before.front()->Branch;
    return R;
  }
  AuthorSkew S;
  S.Before = Before.front()->Barrier;
  S.After = After.front()->Barrier;
  S.BeforeBranch = Before.front()->Branch;
  S.AfterBranch = After.front()->Branch;
  S.Ahead = *Before.front()->Set;
  S.Waves = Waves;
  LLVM_DEBUG(dbgs() << "amdgpu-pingpong: author skew around %bb."
                    << Hdr->getNumber() << ": " << S.describe() << "\n");
  R.Skew = S;
  return R;
}

} // namespace

AuthorSkewSearch findAuthorSkew(MachineLoop &L, MachineFunction &MF,
                                const MachineDominatorTree &MDT,
                                const MachineLoopInfo &MLI) {
  return Finder(L, MF, MDT, MLI).run();
}

} // namespace pingpong
