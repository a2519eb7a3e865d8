//===- AddressFold.cpp - LDS base-address folding in a loop ---------------===//
//
// Three steps, kept apart: read every LDS access's address as a sum
// (AddressSum.cpp), group the accesses and pick each group's base constant
// (planGroups), then build the bases and rewrite the accesses (Emitter),
// measure, and keep or undo.
//
//===----------------------------------------------------------------------===//
#include "pingpong/LDS/AddressFold.h"
#include "pingpong/Analysis/RegPressure.h"
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/LDS/AddressSum.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;

namespace pingpong {
namespace {

struct Access {
  MachineInstr *MI;
  DSAddressing A;
  AddressSum Sum;
  int64_t Offset; // the offset field's bytes before the fold
  unsigned Pos;   // program order in the loop block
};

/// Accesses whose addresses add up the same registers; one base for all.
struct Group {
  SmallVector<AddressLeaf, 4> Variant;   // defined in the loop
  SmallVector<AddressLeaf, 4> Invariant; // defined before it
  int64_t BaseConst = 0;                 // the constant the base carries
  SmallVector<Access *, 8> Members;      // in program order
  MachineInstr *BaseAt = nullptr;        // the per-iteration base goes before it
};

//===----------------------------------------------------------------------===//
// Strategy: groups and their base constants.
//===----------------------------------------------------------------------===//

/// Splits same-register accesses into windows whose constants the offset
/// fields can carry from one base constant (0 preferred: no add for it).
void splitByOffsetRange(Group G, SmallVectorImpl<Group> &Out) {
  while (!G.Members.empty()) {
    SmallVector<int64_t, 8> Candidates{0};
    for (Access *M : G.Members)
      Candidates.push_back(M->Sum.Const);
    int64_t Best = 0;
    unsigned BestCount = 0;
    for (int64_t C : Candidates) {
      unsigned N = llvm::count_if(G.Members, [&](Access *M) {
        return M->A.fits(*M->MI, M->Sum.Const - C);
      });
      if (N > BestCount) {
        Best = C;
        BestCount = N;
      }
    }
    Group Fit = G, Rest = G;
    Fit.Members.clear();
    Rest.Members.clear();
    for (Access *M : G.Members)
      (M->A.fits(*M->MI, M->Sum.Const - Best) && BestCount ? Fit : Rest)
          .Members.push_back(M);
    if (Fit.Members.empty()) // a constant no offset field can say: leave it
      return;
    Fit.BaseConst = Best;
    Out.push_back(std::move(Fit));
    G = std::move(Rest);
  }
}

/// Whether A and B hold the same value: the same pure instruction on the
/// same values (LLVM leaves such twins where they come from different
/// blocks, e.g. Triton's per-stage lane offsets recomputed for the
/// epilogue). Both are leaves of the loop's addresses, so either may stand
/// for the other wherever the loop reads them.
bool sameValue(Register A, Register B, const MachineRegisterInfo &MRI,
               unsigned Depth = 0) {
  if (A == B)
    return true;
  if (!A.isVirtual() || !B.isVirtual() || Depth > 6)
    return false;
  const MachineInstr *DA = MRI.getUniqueVRegDef(A), *DB = MRI.getUniqueVRegDef(B);
  if (!DA || !DB || DA->getOpcode() != DB->getOpcode() ||
      DA->getNumOperands() != DB->getNumOperands() || DA->isPHI() ||
      DA->mayLoadOrStore() || DA->hasUnmodeledSideEffects() ||
      DA->getNumExplicitDefs() != 1 || DB->getNumExplicitDefs() != 1 ||
      DA->getOperand(0).getSubReg() || DB->getOperand(0).getSubReg())
    return false;
  const MachineBasicBlock &Entry = DA->getMF()->front();
  for (unsigned I = 1, E = DA->getNumOperands(); I < E; ++I) {
    const MachineOperand &X = DA->getOperand(I), &Y = DB->getOperand(I);
    if (X.isReg() && Y.isReg() && !X.isDef() && !Y.isDef()) {
      if (X.getSubReg() != Y.getSubReg())
        return false;
      if (X.getReg().isPhysical()) {
        // an input register copied in the entry block (e.g. the lane id),
        // or exec
        if (X.getReg() != Y.getReg() ||
            (DA->isCopy() && (DA->getParent() != &Entry ||
                              DB->getParent() != &Entry)))
          return false;
        continue;
      }
      if (!sameValue(X.getReg(), Y.getReg(), MRI, Depth + 1))
        return false;
      continue;
    }
    if (!X.isIdenticalTo(Y))
      return false;
  }
  return true;
}

/// Maps every leaf register to the first leaf that holds the same value.
class LeafValues {
public:
  LeafValues(MutableArrayRef<Access> Accesses, const MachineRegisterInfo &MRI)
      : MRI(MRI) {
    for (Access &A : Accesses) {
      for (AddressLeaf &L : A.Sum.Leaves)
        L = canonical(L);
      llvm::sort(A.Sum.Leaves);
    }
  }
  AddressLeaf canonical(AddressLeaf L) {
    if (L.SubReg)
      return L;
    auto It = Rep.find(L.Reg);
    if (It != Rep.end())
      return {It->second, 0};
    Register To = L.Reg;
    for (Register R : Reps)
      if (sameValue(R, L.Reg, MRI)) {
        To = R;
        break;
      }
    if (To == L.Reg)
      Reps.push_back(L.Reg);
    Rep[L.Reg] = To;
    return {To, 0};
  }
  SmallVector<AddressLeaf, 6> canonical(ArrayRef<AddressLeaf> Leaves) {
    SmallVector<AddressLeaf, 6> Out;
    for (const AddressLeaf &L : Leaves)
      Out.push_back(canonical(L));
    llvm::sort(Out);
    return Out;
  }

private:
  const MachineRegisterInfo &MRI;
  DenseMap<Register, Register> Rep;
  SmallVector<Register, 32> Reps;
};

SmallVector<Group, 16> planGroups(MutableArrayRef<Access> Accesses,
                                  const MachineBasicBlock &Body,
                                  const MachineRegisterInfo &MRI) {
  using Key = std::pair<SmallVector<AddressLeaf, 4>, SmallVector<AddressLeaf, 4>>;
  std::map<Key, Group> ByLeaves;
  SmallVector<Key, 16> Order; // first appearance, for a stable emission order
  for (Access &Acc : Accesses) {
    Key K;
    for (const AddressLeaf &L : Acc.Sum.Leaves) {
      const MachineInstr *Def = MRI.getUniqueVRegDef(L.Reg);
      (Def && Def->getParent() == &Body ? K.first : K.second).push_back(L);
    }
    auto [It, New] = ByLeaves.try_emplace(K);
    if (New) {
      It->second.Variant = K.first;
      It->second.Invariant = K.second;
      Order.push_back(K);
    }
    It->second.Members.push_back(&Acc);
  }
  SmallVector<Group, 16> Groups;
  for (const Key &K : Order)
    splitByOffsetRange(std::move(ByLeaves[K]), Groups);
  return Groups;
}

/// A group already in the form the fold would give: its base is one
/// register every member uses as is.
bool alreadyFolded(const Group &G) {
  if (G.BaseConst || G.Variant.size() + G.Invariant.size() != 1)
    return false;
  const AddressLeaf &Only = G.Variant.empty() ? G.Invariant[0] : G.Variant[0];
  return llvm::all_of(G.Members, [&](const Access *M) {
    const MachineOperand &MO = M->MI->getOperand(M->A.AddrIdx);
    return MO.getReg() == Only.Reg && MO.getSubReg() == Only.SubReg;
  });
}

/// Where a group's per-iteration base goes: where the schedule put the
/// earliest address addition it replaces (so the add keeps its distance
/// from the reads), once every per-iteration register it adds is defined;
/// else right before the group's first access.
MachineInstr *basePosition(const Group &G, const MachineBasicBlock &Body,
                           const MachineRegisterInfo &MRI,
                           const DenseMap<const MachineInstr *, unsigned> &Pos) {
  unsigned Ready = 0; // position of the last in-loop definition of a leaf
  for (const AddressLeaf &L : G.Variant)
    Ready = std::max(Ready, Pos.lookup(MRI.getUniqueVRegDef(L.Reg)));
  MachineInstr *Best = G.Members.front()->MI;
  for (const Access *M : G.Members)
    for (MachineInstr *Add : M->Sum.Adds)
      if (Add->getParent() == &Body && !Add->isPHI() &&
          Pos.lookup(Add) > Ready && Pos.lookup(Add) < Pos.lookup(Best))
        Best = Add;
  return Best;
}

//===----------------------------------------------------------------------===//
// Emission: sums of registers as AMDGPU instructions, undoable.
//===----------------------------------------------------------------------===//

class Emitter {
public:
  Emitter(MachineFunction &MF, const OpcodeTable::Builders &Ops)
      : MRI(MF.getRegInfo()), TII(*MF.getSubtarget().getInstrInfo()),
        TRI(*MF.getSubtarget().getRegisterInfo()), Ops(Ops) {
    for (const TargetRegisterClass *RC : TRI.regclasses()) {
      StringRef N = TRI.getRegClassName(RC);
      if (N == "VGPR_32")
        VGPR32 = RC;
      else if (N == "SReg_32")
        SReg32 = RC;
    }
  }
  bool ready() const { return VGPR32 && SReg32; }

  bool isScalar(const AddressLeaf &L) const {
    return !isVectorReg(L.Reg, MRI, TRI);
  }

  /// Leaves + Const as one register, built before At; a VGPR if WantVGPR.
  /// Scalar leaves are summed by SALU where SCC is free at At (an s_add
  /// there would clobber a compare's result otherwise), else by VALU.
  AddressLeaf sum(MachineBasicBlock &MBB, MachineBasicBlock::iterator At,
                  ArrayRef<AddressLeaf> Leaves, int64_t Const, bool WantVGPR,
                  const DebugLoc &DL) {
    SmallVector<AddressLeaf, 4> Scalars, Vectors;
    for (const AddressLeaf &L : Leaves)
      (isScalar(L) ? Scalars : Vectors).push_back(L);
    bool SALU = (Scalars.size() > 1 || (Scalars.size() == 1 && Const)) &&
                MBB.computeRegisterLiveness(&TRI, sccReg(), At, 40) ==
                    MachineBasicBlock::LQR_Dead;
    if (SALU) {
      AddressLeaf S = Scalars[0];
      for (const AddressLeaf &L : ArrayRef(Scalars).drop_front())
        S = scalarAdd(MBB, At, DL, S, &L, 0);
      if (Const)
        S = scalarAdd(MBB, At, DL, S, nullptr, Const);
      Const = 0;
      Scalars.assign(1, S);
    }
    if (Vectors.empty() && Scalars.size() == 1 && !Const && !WantVGPR)
      return Scalars[0];
    // The vector sum: v_add3 takes two more terms (at most one SGPR:
    // gfx9's constant bus; an inline constant is free), v_add_u32_e32 one
    // (src0: an SGPR or a literal).
    auto Inline = [](int64_t C) { return C >= -16 && C <= 64; };
    AddressLeaf Acc;
    size_t NextV = 0, NextS = 0;
    if (!Vectors.empty()) {
      Acc = Vectors[NextV++];
    } else if (!Scalars.empty()) {
      Acc = def(BuildMI(MBB, At, DL, TII.get(TargetOpcode::COPY), newVGPR())
                    .addReg(Scalars[0].Reg, 0, Scalars[0].SubReg));
      ++NextS;
    } else {
      Acc = def(BuildMI(MBB, At, DL, TII.get(Ops.VMovB32), newVGPR())
                    .addImm(Const));
      Const = 0;
    }
    while (NextV < Vectors.size()) {
      MachineInstrBuilder B =
          BuildMI(MBB, At, DL, TII.get(Ops.VAdd3U32e64), newVGPR());
      use(B, Acc);
      use(B, Vectors[NextV++]);
      if (NextV < Vectors.size())
        use(B, Vectors[NextV++]);
      else if (NextS < Scalars.size())
        use(B, Scalars[NextS++]);
      else if (Const && Inline(Const)) {
        B.addImm(Const);
        Const = 0;
      } else
        B.addImm(0);
      Acc = def(B);
    }
    while (NextS < Scalars.size())
      Acc = vectorAdd(MBB, At, DL, Acc, &Scalars[NextS++], 0);
    if (Const)
      Acc = vectorAdd(MBB, At, DL, Acc, nullptr, Const);
    return Acc;
  }

  void setAddress(Access &M, Register Base, int64_t Delta) {
    MachineOperand &MO = M.MI->getOperand(M.A.AddrIdx);
    Undo.push_back({M.MI, MO.getReg(), MO.getSubReg(),
                    M.MI->getOperand(M.A.OffsetIdx[0]).getImm(),
                    M.MI->getOperand(M.A.OffsetIdx[1]).getImm(), M.A});
    MO.setReg(Base);
    MO.setSubReg(0);
    MO.setIsKill(false);
    M.A.setByteOffset(*M.MI, Delta);
  }

  void undo() {
    for (auto &U : llvm::reverse(Undo)) {
      MachineOperand &MO = U.MI->getOperand(U.A.AddrIdx);
      MO.setReg(U.Reg);
      MO.setSubReg(U.SubReg);
      U.MI->getOperand(U.A.OffsetIdx[0]).setImm(U.Off0);
      U.MI->getOperand(U.A.OffsetIdx[1]).setImm(U.Off1);
    }
    for (MachineInstr *MI : llvm::reverse(Built))
      MI->eraseFromParent();
    Built.clear();
    Undo.clear();
  }

  /// The registers the built instructions read may have been killed
  /// earlier: their kill flags no longer hold.
  void commit() {
    for (MachineInstr *MI : Built)
      for (const MachineOperand &MO : MI->uses())
        if (MO.isReg() && MO.getReg().isVirtual())
          MRI.clearKillFlags(MO.getReg());
  }

  ArrayRef<MachineInstr *> built() const { return Built; }

private:
  struct Saved {
    MachineInstr *MI;
    Register Reg;
    unsigned SubReg;
    int64_t Off0, Off1;
    DSAddressing A;
  };

  Register newVGPR() { return MRI.createVirtualRegister(VGPR32); }
  AddressLeaf def(const MachineInstrBuilder &B) {
    Built.push_back(B.getInstr());
    return {B.getReg(0), 0};
  }
  static void use(MachineInstrBuilder &B, const AddressLeaf &L) {
    B.addReg(L.Reg, 0, L.SubReg);
  }
  AddressLeaf scalarAdd(MachineBasicBlock &MBB, MachineBasicBlock::iterator At,
                        const DebugLoc &DL, AddressLeaf A, const AddressLeaf *B,
                        int64_t C) {
    MachineInstrBuilder I = BuildMI(MBB, At, DL, TII.get(Ops.SAddI32),
                                    MRI.createVirtualRegister(SReg32));
    use(I, A);
    if (B)
      use(I, *B);
    else
      I.addImm(C);
    I->addRegisterDead(sccReg(), &TRI);
    return def(I);
  }
  AddressLeaf vectorAdd(MachineBasicBlock &MBB, MachineBasicBlock::iterator At,
                        const DebugLoc &DL, AddressLeaf Acc,
                        const AddressLeaf *Scalar, int64_t C) {
    // v_add_u32_e32: src0 takes an SGPR or a literal, src1 the VGPR
    MachineInstrBuilder I =
        BuildMI(MBB, At, DL, TII.get(Ops.VAddU32e32), newVGPR());
    if (Scalar)
      use(I, *Scalar);
    else
      I.addImm(C);
    use(I, Acc);
    return def(I);
  }
  /// SCC, found by name once (no AMDGPU header here).
  MCRegister sccReg() {
    if (!SCC)
      SCC = physRegNamed(TRI, "SCC");
    return SCC;
  }

  MachineRegisterInfo &MRI;
  const TargetInstrInfo &TII;
  const TargetRegisterInfo &TRI;
  const OpcodeTable::Builders &Ops;
  const TargetRegisterClass *VGPR32 = nullptr, *SReg32 = nullptr;
  MCRegister SCC;
  SmallVector<MachineInstr *, 16> Built;
  SmallVector<Saved, 32> Undo;
};

//===----------------------------------------------------------------------===//
// Measurement: what one iteration costs.
//===----------------------------------------------------------------------===//

struct LoopCost {
  unsigned Valu = 0, Salu = 0, Vgprs = 0;
};

/// The address additions (and what they read through) that lose every use
/// once the accesses read their new bases.
DenseSet<MachineInstr *> deadAdditions(ArrayRef<Access> Accesses,
                                       const MachineRegisterInfo &MRI) {
  SetVector<MachineInstr *> Candidates;
  for (const Access &A : Accesses)
    for (MachineInstr *MI : A.Sum.Adds)
      Candidates.insert(MI);
  DenseSet<MachineInstr *> Dead(Candidates.begin(), Candidates.end());
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (MachineInstr *MI : Candidates) {
      if (!Dead.count(MI))
        continue;
      bool Used = false;
      for (const MachineOperand &MO : MI->operands()) {
        if (!MO.isReg() || !MO.isDef())
          continue;
        if (!MO.getReg().isVirtual()) {
          Used |= !MO.isDead() && MO.isImplicit(); // e.g. SCC read later
          Used |= !MO.isImplicit();
          continue;
        }
        for (const MachineInstr &U : MRI.use_nodbg_instructions(MO.getReg()))
          Used |= !Dead.count(const_cast<MachineInstr *>(&U));
      }
      if (Used || MI->mayStore() || MI->hasUnmodeledSideEffects()) {
        Dead.erase(MI);
        Changed = true;
      }
    }
  }
  return Dead;
}

LoopCost measure(const MachineBasicBlock &Body,
                 const DenseSet<MachineInstr *> &Skip, BodyPressure &Pressure,
                 const TargetInstrInfo &TII, const TargetRegisterInfo &TRI,
                 const OpcodeTable &T) {
  const MachineRegisterInfo &MRI = Body.getParent()->getRegInfo();
  LoopCost C;
  for (const MachineInstr &MI : Body) {
    if (MI.isDebugInstr() || Skip.count(const_cast<MachineInstr *>(&MI)))
      continue;
    StringRef N = TII.getName(MI.getOpcode());
    // a copy from an SGPR to a VGPR is a v_mov; other copies coalesce
    auto Vector = [&](const MachineOperand &MO) {
      return isVectorReg(MO.getReg(), MRI, TRI);
    };
    bool VectorCopy = MI.isCopy() && Vector(MI.getOperand(0)) &&
                      MI.getOperand(1).getReg().isVirtual() &&
                      !Vector(MI.getOperand(1));
    if ((N.starts_with("V_") && T.classify(MI) == InstKind::Other) || VectorCopy)
      ++C.Valu;
    else if (N.starts_with("S_") && T.classify(MI) == InstKind::Other &&
             !MI.isTerminator())
      ++C.Salu;
  }
  C.Vgprs = Pressure.peak(Skip);
  return C;
}

/// How one group's accesses get their base.
enum class GroupForm : uint8_t {
  Kept,    // left as the schedule had it
  InLoop,  // every leaf added in the loop (no new live range through it)
  Hoisted, // the invariant leaves summed before the loop, the rest in it
};

/// Builds the bases of the groups in the forms asked for and points the
/// accesses at them; E can undo it all. Returns the accesses rewritten.
unsigned emitGroups(ArrayRef<Group> Groups, ArrayRef<GroupForm> Forms,
                    Emitter &E, MachineBasicBlock &Body,
                    MachineBasicBlock &Pre, bool InjectSliceBase,
                    unsigned &HoistedSums) {
  std::map<std::pair<SmallVector<AddressLeaf, 4>, int64_t>, AddressLeaf> Hoisted;
  unsigned Rewritten = 0;
  HoistedSums = 0;
  for (auto [G, Form] : llvm::zip_equal(Groups, Forms)) {
    if (Form == GroupForm::Kept)
      continue;
    int64_t BaseConst = G.BaseConst;
    if (InjectSliceBase && BaseConst == 0)
      for (Access *M : G.Members)
        if (M->Sum.Const + M->Offset) {
          // a slice's start taken for the buffer's base, offsets unchanged
          BaseConst = M->Sum.Const + M->Offset;
          break;
        }
    MachineInstr &First = *G.Members.front()->MI;
    const DebugLoc &DL = First.getDebugLoc();
    MachineBasicBlock::iterator At = G.BaseAt->getIterator();
    SmallVector<AddressLeaf, 6> Terms(G.Variant.begin(), G.Variant.end());
    int64_t InLoopConst = BaseConst;
    if (Form == GroupForm::InLoop) {
      Terms.append(G.Invariant.begin(), G.Invariant.end());
    } else if (!G.Invariant.empty()) {
      auto Key = std::make_pair(G.Invariant, BaseConst);
      auto It = Hoisted.find(Key);
      if (It == Hoisted.end()) {
        size_t Before = E.built().size();
        AddressLeaf H = E.sum(Pre, Pre.getFirstTerminator(), G.Invariant,
                              BaseConst, G.Variant.empty(), DL);
        HoistedSums += E.built().size() != Before;
        It = Hoisted.emplace(Key, H).first;
      }
      Terms.push_back(It->second);
      InLoopConst = 0;
    }
    AddressLeaf Base = E.sum(Body, At, Terms, InLoopConst, true, DL);
    if (Base.SubReg) { // a subregister leaf alone: the DS needs a full VGPR
      SmallVector<AddressLeaf, 1> One{Base};
      Base = E.sum(Body, At, One, 0, true, DL);
      if (Base.SubReg)
        continue;
    }
    for (Access *M : G.Members) {
      int64_t Delta = InjectSliceBase ? M->Sum.Const : M->Sum.Const - BaseConst;
      if (!M->A.fits(*M->MI, Delta))
        continue;
      E.setAddress(*M, Base.Reg, Delta);
      ++Rewritten;
    }
  }
  return Rewritten;
}

} // namespace

LDSAddressingResult foldLDSAddresses(const FoldSite &S,
                                     const LDSAddressingOptions &Opts) {
  LDSAddressingResult R;
  MachineBasicBlock *Body = &S.Body, *Pre = &S.Pre;
  MachineFunction &MF = *Body->getParent();
  MachineRegisterInfo &MRI = MF.getRegInfo();
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
  const OpcodeTable &T = OpcodeTable::get(TII);

  // Analysis: every LDS read/write's address as a sum.
  SmallVector<Access, 64> Accesses;
  unsigned Pos = 0;
  for (MachineInstr &MI : *Body) {
    ++Pos;
    std::optional<DSAddressing> A = dsAddressing(MI, TII);
    if (!A)
      continue;
    const MachineOperand &Addr = MI.getOperand(A->AddrIdx);
    std::optional<AddressSum> S =
        readAddressSum(Addr.getReg(), Addr.getSubReg(), MRI, TII);
    if (S)
      Accesses.push_back({&MI, *A, std::move(*S), A->byteOffset(MI), Pos});
  }
  R.Accesses = Accesses.size();
  if (Accesses.empty()) {
    R.Why = "no LDS read or write with an address the fold can read";
    return R;
  }

  // Strategy: groups (twin registers count as one) and base constants.
  LeafValues Values(Accesses, MRI);
  SmallVector<Group, 16> Groups = planGroups(Accesses, *Body, MRI);
  R.Groups = Groups.size();
  {
    DenseMap<const MachineInstr *, unsigned> Order;
    for (const MachineInstr &MI : *Body)
      Order[&MI] = Order.size() + 1;
    for (Group &G : Groups)
      G.BaseAt = basePosition(G, *Body, MRI, Order);
  }

  DenseSet<Register> Changing;
  for (const Access &A : Accesses) {
    Changing.insert(A.MI->getOperand(A.A.AddrIdx).getReg());
    for (const AddressLeaf &Leaf : A.Sum.Leaves)
      Changing.insert(Leaf.Reg);
    for (const MachineInstr *Add : A.Sum.Adds)
      for (const MachineOperand &MO : Add->operands())
        if (MO.isReg() && MO.getReg().isVirtual())
          Changing.insert(MO.getReg());
  }
  // The registers whose uses a fold can change: the addresses' leaves and
  // the operands of their additions.
  BodyPressure Pressure(*Body, std::move(Changing));
  const LoopCost Before = measure(*Body, {}, Pressure, TII, TRI, T);
  R.ValuBefore = Before.Valu;
  R.SaluBefore = Before.Salu;
  R.VgprsBefore = Before.Vgprs;

  Emitter E(MF, T.builders());
  if (!E.ready() || !T.builders().complete()) {
    R.Why = "this LLVM lacks an opcode or register class the fold builds";
    return R;
  }
  // What a choice of forms costs: built, measured, undone.
  unsigned HoistedSums = 0;
  auto Cost = [&](ArrayRef<GroupForm> Forms) -> std::optional<LoopCost> {
    unsigned N = emitGroups(Groups, Forms, E, *Body, *Pre,
                            Opts.InjectSliceBase, HoistedSums);
    std::optional<LoopCost> C;
    if (N)
      C = measure(*Body, deadAdditions(Accesses, MRI), Pressure, TII, TRI, T);
    E.undo();
    return C;
  };
  // The order of choices: nothing worse than before first (vector registers
  // at the loop's peak, then VALU, then instructions issued), then the
  // fewest registers + VALU, then the fewest registers.
  auto Rank = [&](const LoopCost &C) {
    auto Over = [](unsigned A, unsigned B) { return A > B ? A - B : 0u; };
    return std::make_tuple(Over(C.Vgprs, Before.Vgprs),
                           Over(C.Valu, Before.Valu),
                           Over(C.Valu + C.Salu, Before.Valu + Before.Salu),
                           C.Vgprs + C.Valu, C.Vgprs, C.Valu + C.Salu);
  };

  // Strategy: every group hoisted first (the most VALU out of the loop),
  // then, one group at a time, the change that ranks best -- a group's
  // invariant part added in the loop instead, or the group left as it was --
  // while one ranks better (a hoisted sum whose leaves stay live anyway is
  // one register more; a shared addition left for one group saves nothing).
  SmallVector<GroupForm, 16> Forms;
  for (const Group &G : Groups)
    Forms.push_back(alreadyFolded(G) ? GroupForm::Kept : GroupForm::Hoisted);
  std::optional<LoopCost> Full = Cost(Forms);
  if (!Full) {
    R.Why = "every address already has the folded form";
    return R;
  }
  LoopCost Chosen = *Full;
  // Each round measures every one-group change (a pass over the body each):
  // quadratic in the groups. Past MaxSearchedGroups only the all-folded form
  // is measured (on the Triton corpus, loops with 33-57 groups kept their
  // addresses either way; the search took up to half of llc's time there).
  constexpr unsigned MaxSearchedGroups = 32;
  const bool Searched = Groups.size() <= MaxSearchedGroups;
  if (!Opts.InjectSliceBase && Searched)
    for (;;) {
      std::optional<std::pair<unsigned, GroupForm>> Best;
      LoopCost BestCost = Chosen;
      for (unsigned I = 0; I < Forms.size(); ++I)
        for (GroupForm F : {GroupForm::InLoop, GroupForm::Kept}) {
          if (F >= Forms[I] ||
              (F == GroupForm::InLoop && Groups[I].Invariant.empty()))
            continue;
          GroupForm Was = std::exchange(Forms[I], F);
          bool NoneFolded = llvm::all_of(
              Forms, [](GroupForm X) { return X == GroupForm::Kept; });
          std::optional<LoopCost> C =
              NoneFolded ? std::optional<LoopCost>(Before) : Cost(Forms);
          Forms[I] = Was;
          if (C && Rank(*C) < Rank(BestCost)) {
            Best = {I, F};
            BestCost = *C;
          }
        }
      if (!Best)
        break;
      Forms[Best->first] = Best->second;
      Chosen = BestCost;
    }
  auto Say = [](const LoopCost &C, const LoopCost &B) {
    return "VALU per iteration " + std::to_string(B.Valu) + " -> " +
           std::to_string(C.Valu) + ", SALU " + std::to_string(B.Salu) +
           " -> " + std::to_string(C.Salu) + ", vector registers at the " +
           "loop's peak " + std::to_string(B.Vgprs) + " -> " +
           std::to_string(C.Vgprs);
  };
  bool NoWorse = Chosen.Vgprs <= Before.Vgprs && Chosen.Valu <= Before.Valu &&
                 Chosen.Valu + Chosen.Salu <= Before.Valu + Before.Salu;
  unsigned Freed = NoWorse ? Before.Vgprs - Chosen.Vgprs : 0;
  if (!Opts.InjectSliceBase && (!NoWorse || (Chosen.Valu == Before.Valu &&
                                             Freed == 0))) {
    R.ValuAfter = Full->Valu;
    R.SaluAfter = Full->Salu;
    R.VgprsAfter = Full->Vgprs;
    R.Why = "no cheaper form: every group folded, " + Say(*Full, Before) +
            (Searched ? "; no subset of the groups frees a vector register "
                        "or a VALU without costing another"
                      : "; subsets not searched past " +
                            std::to_string(MaxSearchedGroups) + " groups");
    return R;
  }
  // A register or so at the peak is within what the allocator moves by
  // itself (measured: a fold that took a gfx950 loop's peak from 244 to 243
  // and saved no VALU ended at 250 allocated instead of 244).
  if (!Opts.InjectSliceBase && Chosen.Valu == Before.Valu &&
      Freed < Opts.MinRegistersFreed) {
    R.ValuAfter = Chosen.Valu;
    R.SaluAfter = Chosen.Salu;
    R.VgprsAfter = Chosen.Vgprs;
    R.Why = "the best form saves no VALU and frees " + std::to_string(Freed) +
            " vector register(s) at the loop's peak (" +
            std::to_string(Before.Vgprs) + " -> " +
            std::to_string(Chosen.Vgprs) + "), fewer than " +
            std::to_string(Opts.MinRegistersFreed) +
            ": within what the register allocator moves by itself";
    return R;
  }
  emitGroups(Groups, Forms, E, *Body, *Pre, Opts.InjectSliceBase,
             HoistedSums);
  R.Hoisted = HoistedSums;
  for (GroupForm F : Forms)
    (F == GroupForm::Hoisted  ? R.GroupsHoisted
     : F == GroupForm::InLoop ? R.GroupsInLoop
                              : R.GroupsKept)++;

  // Self-check: every access still adds up to the same registers and
  // constant (its address VGPR read back through the new bases, plus its
  // offset field).
  if (Opts.SelfCheck)
    for (const Access &A : Accesses) {
      const MachineOperand &Addr = A.MI->getOperand(A.A.AddrIdx);
      std::optional<AddressSum> Now =
          readAddressSum(Addr.getReg(), Addr.getSubReg(), MRI, TII);
      if (Now && Values.canonical(Now->Leaves) == A.Sum.Leaves &&
          wrapAddress(Now->Const + A.A.byteOffset(*A.MI)) ==
              wrapAddress(A.Sum.Const + A.Offset))
        continue;
      R.SelfCheckFailed = true;
      std::string Text;
      raw_string_ostream OS(Text);
      A.MI->print(OS, /*IsStandalone=*/true, /*SkipOpers=*/false,
                  /*SkipDebugLoc=*/true, /*AddNewLine=*/false);
      E.undo();
      R.Why = "self-check: the rewritten address of `" + Text +
              "` no longer adds up to its original registers and constant";
      return R;
    }

  DenseSet<MachineInstr *> Dead = deadAdditions(Accesses, MRI);
  LoopCost After = measure(*Body, Dead, Pressure, TII, TRI, T);
  R.ValuAfter = After.Valu;
  R.SaluAfter = After.Salu;
  R.VgprsAfter = After.Vgprs;
  E.commit();
  for (MachineInstr *MI : Dead) {
    for (const MachineOperand &MO : MI->defs())
      if (MO.isReg() && MO.getReg().isVirtual())
        for (MachineInstr &U :
             llvm::make_early_inc_range(MRI.use_instructions(MO.getReg())))
          if (U.isDebugInstr())
            U.setDebugValueUndef();
    MI->eraseFromParent();
  }
  R.Changed = true;
  return R;
}

} // namespace pingpong
