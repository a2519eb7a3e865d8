//===- DMAM0Fold.cpp - LDS DMA destination (M0) sums in a loop -----------===//
//
// Analysis: each `$m0 = COPY %v` that an LDS DMA of the loop reads, with %v
// read as leaves + constant (AddressSum.h), the leaves split into the ones
// the loop defines (the stage base) and the loop-invariant ones.
// Strategy: M0 = (sum of the loop's leaves) + J, where J = the invariant
// leaves + the constant, summed once before the loop (one per distinct J);
// the loop's part reuses a register the loop already computes when one
// holds exactly that sum (the stage base usually does: it feeds a PHI too).
// Emission: s_add_i32 where SCC is dead, undone unless the additions that
// lose every use outnumber the ones added to the loop.
//
//===----------------------------------------------------------------------===//
#include "pingpong/LDS/DMAM0Fold.h"
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/LDS/AddressSum.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"

#include <map>

using namespace llvm;

namespace pingpong {
namespace {

using LeafList = SmallVector<AddressLeaf, 6>;
/// A sum's identity: sorted leaves and the constant modulo 2^32.
using SumKey = std::pair<std::vector<std::pair<unsigned, unsigned>>, int64_t>;

SumKey keyOf(ArrayRef<AddressLeaf> Leaves, int64_t Const) {
  SumKey K;
  for (const AddressLeaf &L : Leaves)
    K.first.push_back({L.Reg.id(), L.SubReg});
  llvm::sort(K.first);
  K.second = wrapAddress(Const);
  return K;
}

/// One M0 write of the loop that an LDS DMA reads.
struct M0Write {
  MachineInstr *Copy;
  AddressSum Sum;
  LeafList Varying, Invariant; // the loop's own leaves / defined before it
  Register OldSrc;
  unsigned OldSub;
};

/// An addition whose only effect is its result (SCC dead).
bool isPureScalarAdd(const MachineInstr &MI, const TargetInstrInfo &TII,
                     MCRegister SCC) {
  StringRef N = TII.getName(MI.getOpcode());
  if (N != "S_ADD_I32" && N != "S_ADD_U32")
    return false;
  for (const MachineOperand &MO : MI.operands())
    if (MO.isReg() && MO.isDef() && MO.getReg() == SCC && !MO.isDead())
      return false;
  return true;
}

class Builder {
public:
  Builder(MachineFunction &MF, MCRegister SCC, unsigned SAddI32,
          const TargetRegisterClass *SReg32)
      : MRI(MF.getRegInfo()), TII(*MF.getSubtarget().getInstrInfo()),
        TRI(*MF.getSubtarget().getRegisterInfo()), SCC(SCC), SAddI32(SAddI32),
        SReg32(SReg32) {}

  bool sccDeadAt(MachineBasicBlock &MBB, MachineBasicBlock::iterator At) {
    return MBB.computeRegisterLiveness(&TRI, SCC, At, 40) ==
           MachineBasicBlock::LQR_Dead;
  }
  /// Leaves + Const as one SGPR built before At (none: the sum is 0).
  std::optional<AddressLeaf> sum(MachineBasicBlock &MBB,
                                 MachineBasicBlock::iterator At,
                                 ArrayRef<AddressLeaf> Leaves, int64_t Const,
                                 const DebugLoc &DL, unsigned &Adds) {
    if (Leaves.empty())
      return std::nullopt;
    AddressLeaf Acc = Leaves[0];
    auto Add = [&](const AddressLeaf *B, int64_t C) {
      MachineInstrBuilder I =
          BuildMI(MBB, At, DL, TII.get(SAddI32), MRI.createVirtualRegister(SReg32));
      I.addReg(Acc.Reg, 0, Acc.SubReg);
      if (B)
        I.addReg(B->Reg, 0, B->SubReg);
      else
        I.addImm(C);
      I->addRegisterDead(SCC, &TRI);
      Built.push_back(I.getInstr());
      ++Adds;
      Acc = {I.getReg(0), 0};
    };
    for (const AddressLeaf &L : Leaves.drop_front())
      Add(&L, 0);
    if (wrapAddress(Const))
      Add(nullptr, wrapAddress(Const));
    return Acc;
  }
  void undo() {
    for (MachineInstr *MI : llvm::reverse(Built))
      MI->eraseFromParent();
    Built.clear();
  }
  ArrayRef<MachineInstr *> built() const { return Built; }

private:
  MachineRegisterInfo &MRI;
  const TargetInstrInfo &TII;
  const TargetRegisterInfo &TRI;
  MCRegister SCC;
  unsigned SAddI32;
  const TargetRegisterClass *SReg32;
  SmallVector<MachineInstr *, 16> Built;
};

} // namespace

DMAM0Result foldDMAM0(const FoldSite &S, bool SelfCheck, bool InjectSliceBase) {
  DMAM0Result R;
  MachineBasicBlock *Body = &S.Body, *Pre = &S.Pre;
  MachineFunction &MF = *Body->getParent();
  MachineRegisterInfo &MRI = MF.getRegInfo();
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
  const OpcodeTable &T = OpcodeTable::get(TII);
  const MCRegister M0 = physRegNamed(TRI, "M0"), SCC = physRegNamed(TRI, "SCC");
  const TargetRegisterClass *SReg32 = nullptr;
  for (const TargetRegisterClass *RC : TRI.regclasses())
    if (TRI.getRegClassName(RC) == StringRef("SReg_32"))
      SReg32 = RC;
  if (!M0 || !SCC || !SReg32 || !T.builders().SAddI32) {
    R.Why = "no s_add_i32/M0/SCC on this target";
    return R;
  }

  // Analysis: the M0 writes an LDS DMA reads, as sums.
  SmallVector<M0Write, 16> Writes;
  MachineInstr *Pending = nullptr;
  for (MachineInstr &MI : *Body) {
    if (Pending && T.classify(MI) == InstKind::LDSDMA &&
        MI.readsRegister(M0, &TRI)) {
      const MachineOperand &Src = Pending->getOperand(1);
      std::optional<AddressSum> S =
          readAddressSum(Src.getReg(), Src.getSubReg(), MRI, TII);
      if (S) {
        M0Write W{Pending, std::move(*S), {}, {}, Src.getReg(), Src.getSubReg()};
        bool Scalar = true;
        for (const AddressLeaf &Leaf : W.Sum.Leaves) {
          Scalar &= !TRI.isDivergentRegClass(MRI.getRegClass(Leaf.Reg));
          const MachineInstr *Def = MRI.getVRegDef(Leaf.Reg);
          (Def && Def->getParent() == Body ? W.Varying : W.Invariant)
              .push_back(Leaf);
        }
        if (Scalar)
          Writes.push_back(std::move(W));
      }
      Pending = nullptr; // one write, read by the DMAs up to the next one
      continue;
    }
    if (MI.modifiesRegister(M0, &TRI))
      Pending = MI.isCopy() && MI.getOperand(0).getReg() == M0 &&
                        MI.getOperand(1).getReg().isVirtual()
                    ? &MI
                    : nullptr;
  }
  R.Writes = Writes.size();
  auto SaluInLoop = [&](const DenseSet<MachineInstr *> &Skip) {
    unsigned N = 0;
    for (MachineInstr &MI : *Body)
      N += !Skip.count(&MI) && !MI.isTerminator() &&
           TII.getName(MI.getOpcode()).starts_with("S_") &&
           T.classify(MI) == InstKind::Other;
    return N;
  };
  R.SaluBefore = R.SaluAfter = SaluInLoop({});
  if (Writes.empty()) {
    R.Why = "no M0 of an LDS DMA with a sum the fold can read";
    return R;
  }

  // The sums the loop already holds in a register, by position.
  DenseMap<MachineInstr *, unsigned> Pos;
  std::map<SumKey, std::pair<Register, unsigned>> Existing;
  unsigned P = 0;
  for (MachineInstr &MI : *Body) {
    Pos[&MI] = ++P;
    if (!isPureScalarAdd(MI, TII, SCC))
      continue;
    if (std::optional<AddressSum> S =
            readAddressSum(MI.getOperand(0).getReg(), 0, MRI, TII))
      Existing.try_emplace(keyOf(S->Leaves, S->Const),
                           std::make_pair(MI.getOperand(0).getReg(), P));
  }

  // Strategy + emission.
  Builder B(MF, SCC, T.builders().SAddI32, SReg32);
  std::map<SumKey, AddressLeaf> Hoisted, Varying;
  // Where a sum goes before the loop: the latest point of Pre where SCC is
  // dead and its leaves are defined (a block that ends in an SCC branch --
  // the asymmetric sync's wave-group split -- needs a point before the
  // compare).
  DenseMap<const MachineInstr *, unsigned> PrePos;
  unsigned PP = 0;
  for (MachineInstr &MI : *Pre)
    PrePos[&MI] = ++PP;
  auto PrePoint = [&](ArrayRef<AddressLeaf> Leaves)
      -> std::optional<MachineBasicBlock::iterator> {
    unsigned After = 0; // leaves defined in Pre: after the last of them
    for (const AddressLeaf &Leaf : Leaves)
      if (const MachineInstr *Def = MRI.getVRegDef(Leaf.Reg))
        if (Def->getParent() == Pre)
          After = std::max(After, PrePos.lookup(Def));
    for (MachineBasicBlock::iterator It = Pre->getFirstTerminator();;) {
      if (It != Pre->end() && PrePos.lookup(&*It) <= After)
        return std::nullopt;
      if (It == Pre->end() && Pre->empty())
        return std::nullopt;
      if (B.sccDeadAt(*Pre, It) &&
          (It == Pre->end() || !It->isPHI()))
        return It;
      if (It == Pre->begin())
        return std::nullopt;
      --It;
    }
  };
  unsigned LoopAdds = 0, PreAdds = 0;
  unsigned SCCLive = 0, Constant = 0; // writes left alone, and why
  SmallVector<M0Write *, 16> Done;
  for (M0Write &W : Writes) {
    MachineBasicBlock::iterator At = W.Copy->getIterator();
    const DebugLoc &DL = W.Copy->getDebugLoc();
    if (!B.sccDeadAt(*Body, At)) {
      ++SCCLive;
      continue;
    }
    const int64_t C = wrapAddress(W.Sum.Const);
    // J: the invariant leaves and the constant, once before the loop; a
    // constant alone stays an immediate of the loop's add.
    std::optional<AddressLeaf> J;
    int64_t Imm = 0;
    if (W.Invariant.empty()) {
      Imm = C;
    } else if (W.Invariant.size() == 1 && !C) {
      J = W.Invariant[0];
    } else {
      SumKey K = keyOf(W.Invariant, InjectSliceBase ? 0 : C);
      auto It = Hoisted.find(K);
      if (It == Hoisted.end()) {
        std::optional<MachineBasicBlock::iterator> PreAt =
            PrePoint(W.Invariant);
        if (!PreAt) {
          ++SCCLive;
          continue;
        }
        J = B.sum(*Pre, *PreAt, W.Invariant, C, DL, PreAdds);
        Hoisted.emplace(K, *J);
      } else {
        J = It->second;
      }
    }
    // V: the loop's leaves, from a register that holds their sum if the loop
    // computes one before this write, else summed here (and shared).
    std::optional<AddressLeaf> V;
    if (W.Varying.size() == 1) {
      V = W.Varying[0];
    } else if (!W.Varying.empty()) {
      SumKey K = keyOf(W.Varying, 0);
      auto E = Existing.find(K);
      auto S = Varying.find(K);
      if (E != Existing.end() && E->second.second < Pos[W.Copy])
        V = AddressLeaf{E->second.first, 0};
      else if (S != Varying.end())
        V = S->second;
      else {
        V = B.sum(*Body, At, W.Varying, 0, DL, LoopAdds);
        Varying.emplace(K, *V);
      }
    }
    std::optional<AddressLeaf> New;
    if (V && (J || Imm)) {
      LeafList Two{*V};
      if (J)
        Two.push_back(*J);
      New = B.sum(*Body, At, Two, Imm, DL, LoopAdds);
    } else {
      New = V ? V : J;
    }
    if (!New) { // M0 = a constant: nothing to fold
      ++Constant;
      continue;
    }
    MachineOperand &Src = W.Copy->getOperand(1);
    Src.setReg(New->Reg);
    Src.setSubReg(New->SubReg);
    Src.setIsKill(false);
    Done.push_back(&W);
  }

  // The loop's additions that lost every use (through chains of them).
  SetVector<MachineInstr *> Candidates;
  for (M0Write *W : Done)
    for (MachineInstr *A : W->Sum.Adds)
      if (A->getParent() == Body && !A->isPHI() &&
          (A->isCopy() || isPureScalarAdd(*A, TII, SCC) ||
           TII.getName(A->getOpcode()).starts_with("S_MOV")))
        Candidates.insert(A);
  DenseSet<MachineInstr *> Dead;
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (MachineInstr *A : Candidates) {
      if (Dead.count(A))
        continue;
      Register D = A->getOperand(0).getReg();
      if (llvm::all_of(MRI.use_nodbg_instructions(D),
                       [&](MachineInstr &U) { return Dead.count(&U) > 0; })) {
        Dead.insert(A);
        Grew = true;
      }
    }
  }
  const unsigned After = SaluInLoop(Dead);
  auto Undo = [&]() {
    for (M0Write *W : Done) {
      MachineOperand &Src = W->Copy->getOperand(1);
      Src.setReg(W->OldSrc);
      Src.setSubReg(W->OldSub);
    }
    B.undo();
  };
  if (Done.empty() || After >= R.SaluBefore) {
    Undo();
    R.Why = Done.empty()
                ? (SCCLive    ? "SCC is live where the sums would go"
                   : Constant ? "every M0 value is a constant"
                              : "no M0 value to rewrite")
                : "no cheaper form: " + std::to_string(R.SaluBefore) +
                      " SALU per iteration, " + std::to_string(After) +
                      " with the invariant parts summed before the loop";
    return R;
  }
  if (SelfCheck)
    for (M0Write *W : Done) {
      const MachineOperand &Src = W->Copy->getOperand(1);
      std::optional<AddressSum> S =
          readAddressSum(Src.getReg(), Src.getSubReg(), MRI, TII);
      if (!S || keyOf(S->Leaves, S->Const) !=
                    keyOf(W->Sum.Leaves, W->Sum.Const)) {
        Undo();
        R.SelfCheckFailed = true;
        R.Why = "self-check: a rewritten M0 sum differs from the original";
        return R;
      }
    }
  for (MachineInstr *A : Dead)
    A->eraseFromParent();
  for (MachineInstr *MI : B.built())
    for (const MachineOperand &MO : MI->uses())
      if (MO.isReg() && MO.getReg().isVirtual())
        MRI.clearKillFlags(MO.getReg());
  R.Changed = true;
  R.Rewritten = Done.size();
  R.Hoisted = PreAdds;
  R.SaluAfter = SaluInLoop({});
  return R;
}

} // namespace pingpong
