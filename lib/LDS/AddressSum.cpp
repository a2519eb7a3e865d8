//===- AddressSum.cpp - an LDS address as a sum of registers --------------===//
#include "pingpong/LDS/AddressSum.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/CodeGen/MachineDominators.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/MC/MCInstrDesc.h"

using namespace llvm;

namespace pingpong {

namespace {

/// The additions an address is read through, by opcode name (opcode
/// numbers differ between LLVM versions; ISA/Opcodes.h does the same).
enum class SumOp { None, Add, DisjointOr, Copy, Move };

SumOp sumOp(const MachineInstr &MI, const TargetInstrInfo &TII) {
  if (MI.isCopy())
    return SumOp::Copy;
  StringRef N = TII.getName(MI.getOpcode());
  if (N == "V_ADD_U32_e32" || N == "V_ADD_U32_e64" || N == "V_ADD3_U32_e64" ||
      N == "S_ADD_I32" || N == "S_ADD_U32" || N == "V_ADD_CO_U32_e64")
    return SumOp::Add;
  // An OR of operands with no common set bit is their sum; ISel marks it.
  if ((N == "V_OR_B32_e32" || N == "V_OR_B32_e64" || N == "V_OR3_B32_e64" ||
       N == "S_OR_B32") &&
      MI.getFlag(MachineInstr::Disjoint))
    return SumOp::DisjointOr;
  if (N == "V_MOV_B32_e32" || N == "S_MOV_B32")
    return SumOp::Move;
  return SumOp::None;
}

struct Reader {
  const MachineRegisterInfo &MRI;
  const TargetInstrInfo &TII;
  unsigned MaxLeaves;
  AddressSum Sum;
  bool Failed = false;

  void add(Register R, unsigned Sub, unsigned Depth) {
    if (Failed)
      return;
    if (!R.isVirtual()) {
      Failed = true;
      return;
    }
    const MachineInstr *Def = MRI.getUniqueVRegDef(R);
    if (!Def) { // undefined (an IMPLICIT_DEF removed) or not SSA
      Failed = true;
      return;
    }
    SumOp Op = Sub || Depth > 12 ? SumOp::None : sumOp(*Def, TII);
    if (Op != SumOp::None && !readThrough(*Def, Op, Depth))
      Op = SumOp::None;
    if (Op == SumOp::None) {
      if (Sum.Leaves.size() >= MaxLeaves)
        Failed = true;
      else
        Sum.Leaves.push_back({R, Sub});
    }
  }

  /// The summands of Def, if every one is a register or an immediate and
  /// its modifiers (clamp) are off. Adds them and returns true; otherwise
  /// leaves the sum as it was.
  bool readThrough(const MachineInstr &Def, SumOp Op, unsigned Depth) {
    const MCInstrDesc &D = Def.getDesc();
    SmallVector<const MachineOperand *, 3> Terms;
    for (unsigned I = Def.getNumExplicitDefs(), E = Def.getNumExplicitOperands();
         I < E; ++I) {
      const MachineOperand &MO = Def.getOperand(I);
      bool Source = Op == SumOp::Copy || (I < D.getNumOperands() &&
                                          D.operands()[I].RegClass != -1);
      if (!Source) {
        // clamp and the like: only their neutral value keeps it a sum
        if (!MO.isImm() || MO.getImm() != 0)
          return false;
        continue;
      }
      if (!(MO.isReg() || MO.isImm()))
        return false;
      if (MO.isReg() && (!MO.getReg().isVirtual() || MO.isUndef()))
        return false;
      Terms.push_back(&MO);
    }
    if (Terms.empty())
      return false;
    // A copy or move of a register is that register; of an immediate, a
    // constant.
    Sum.Adds.push_back(const_cast<MachineInstr *>(&Def));
    for (const MachineOperand *MO : Terms) {
      if (MO->isImm())
        Sum.Const = wrapAddress(Sum.Const + MO->getImm());
      else
        add(MO->getReg(), MO->getSubReg(), Depth + 1);
    }
    return true;
  }
};

} // namespace

std::optional<AddressSum> readAddressSum(Register Reg, unsigned SubReg,
                                         const MachineRegisterInfo &MRI,
                                         const TargetInstrInfo &TII,
                                         unsigned MaxLeaves) {
  Reader R{MRI, TII, MaxLeaves, {}, false};
  R.add(Reg, SubReg, 0);
  if (R.Failed)
    return std::nullopt;
  llvm::sort(R.Sum.Leaves);
  return R.Sum;
}

int64_t DSAddressing::byteOffset(const MachineInstr &MI) const {
  int64_t Off0 = MI.getOperand(OffsetIdx[0]).getImm();
  return Pair ? Off0 * PairUnit : Off0;
}

bool DSAddressing::fits(const MachineInstr &MI, int64_t Delta) const {
  if (!Pair) {
    int64_t New = MI.getOperand(OffsetIdx[0]).getImm() + Delta;
    return New >= 0 && New <= 0xffff;
  }
  if (Delta % (int64_t)PairUnit)
    return false;
  for (unsigned Idx : OffsetIdx) {
    int64_t New = MI.getOperand(Idx).getImm() + Delta / (int64_t)PairUnit;
    if (New < 0 || New > 0xff)
      return false;
  }
  return true;
}

void DSAddressing::setByteOffset(MachineInstr &MI, int64_t Delta) const {
  if (!Pair) {
    MachineOperand &MO = MI.getOperand(OffsetIdx[0]);
    MO.setImm(MO.getImm() + Delta);
    return;
  }
  for (unsigned Idx : OffsetIdx) {
    MachineOperand &MO = MI.getOperand(Idx);
    MO.setImm(MO.getImm() + Delta / (int64_t)PairUnit);
  }
}

std::optional<DSAddressing> dsAddressing(const MachineInstr &MI,
                                         const TargetInstrInfo &TII) {
  StringRef N = TII.getName(MI.getOpcode());
  if (!(N.starts_with("DS_READ") || N.starts_with("DS_WRITE")) ||
      N.contains("ADDTID") || N.contains("GWS"))
    return std::nullopt;
  DSAddressing A;
  A.AddrIdx = MI.getNumExplicitDefs();
  if (A.AddrIdx >= MI.getNumExplicitOperands() ||
      !MI.getOperand(A.AddrIdx).isReg() ||
      !MI.getOperand(A.AddrIdx).getReg().isVirtual())
    return std::nullopt;
  SmallVector<unsigned, 3> Imms;
  for (unsigned I = A.AddrIdx + 1, E = MI.getNumExplicitOperands(); I < E; ++I)
    if (MI.getOperand(I).isImm())
      Imms.push_back(I);
  A.Pair = N.contains("READ2") || N.contains("WRITE2");
  // offset (or offset0, offset1), then gds: 0 for LDS
  if (Imms.size() != (A.Pair ? 3u : 2u) || MI.getOperand(Imms.back()).getImm())
    return std::nullopt;
  A.OffsetIdx[0] = Imms[0];
  A.OffsetIdx[1] = A.Pair ? Imms[1] : Imms[0];
  if (A.Pair) {
    A.PairUnit = N.contains("_B64") ? 8 : N.contains("_B32") ? 4 : 0;
    if (!A.PairUnit)
      return std::nullopt;
    if (N.contains("ST64"))
      A.PairUnit *= 64;
  }
  return A;
}

MachineBasicBlock *blockBeforeLoop(MachineLoop &L,
                                   const MachineDominatorTree &MDT) {
  if (MachineBasicBlock *Pre = L.getLoopPreheader())
    return Pre;
  if (const MachineDomTreeNode *N = MDT.getNode(L.getHeader()))
    if (N->getIDom())
      return N->getIDom()->getBlock();
  return nullptr;
}

} // namespace pingpong
