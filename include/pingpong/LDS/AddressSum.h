//===- AddressSum.h - an LDS address as a sum of registers -----*- C++ -*-===//
//
// Analysis for LDS base-address folding (issue 12): what an LDS instruction's
// address is made of. A DS address is 32-bit arithmetic modulo 2^32, and the
// hardware adds the instruction's unsigned offset field to the address VGPR
// the same way (LLVM folds any base + 16-bit constant into a DS offset on
// CI and later: AMDGPUDAGToDAGISel::isDSOffsetLegal, hasUsableDSOffset). So
// an address is a multiset of leaf registers plus a constant, and any two
// ways of adding the same leaves and constant give the same bytes.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_LDS_ADDRESSSUM_H
#define PINGPONG_LDS_ADDRESSSUM_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/CodeGen/Register.h"

#include <cstdint>
#include <optional>

namespace llvm {
class MachineBasicBlock;
class MachineDominatorTree;
class MachineInstr;
class MachineLoop;
class MachineRegisterInfo;
class TargetInstrInfo;
} // namespace llvm

namespace pingpong {

/// One summand: a 32-bit virtual register (or a 32-bit subregister of one).
struct AddressLeaf {
  llvm::Register Reg;
  unsigned SubReg = 0;
  bool operator<(const AddressLeaf &O) const {
    return Reg != O.Reg ? Reg < O.Reg : SubReg < O.SubReg;
  }
  bool operator==(const AddressLeaf &O) const {
    return Reg == O.Reg && SubReg == O.SubReg;
  }
};

/// V modulo 2^32, as a signed 32-bit value (how address constants are kept).
inline int64_t wrapAddress(int64_t V) { return (int64_t)(int32_t)(uint32_t)V; }

/// Leaves (sorted; a leaf may repeat) + Const, modulo 2^32.
struct AddressSum {
  llvm::SmallVector<AddressLeaf, 6> Leaves;
  int64_t Const = 0; // kept as a signed 32-bit value
  /// The additions the sum was read through (the address's own
  /// arithmetic); the rewrite deletes those in the loop that lose every use.
  llvm::SmallVector<llvm::MachineInstr *, 8> Adds;
};

/// Reads register Reg (SubReg of it) back through additions: V_ADD_U32,
/// V_ADD3_U32, S_ADD_I32/U32, V_ADD_CO_U32 with an unused carry, disjoint
/// ORs (V_OR_B32, V_OR3_B32, S_OR_B32 marked `disjoint`), full copies and
/// move-immediates. Stops at anything else (a leaf). std::nullopt when the
/// address reads a physical register or has more than MaxLeaves leaves.
std::optional<AddressSum> readAddressSum(llvm::Register Reg, unsigned SubReg,
                                         const llvm::MachineRegisterInfo &MRI,
                                         const llvm::TargetInstrInfo &TII,
                                         unsigned MaxLeaves = 8);

/// A DS instruction's address operand and offset fields.
struct DSAddressing {
  unsigned AddrIdx = 0;            // the address VGPR operand
  unsigned OffsetIdx[2] = {0, 0};  // offset, or offset0/offset1
  bool Pair = false;               // ds_read2/ds_write2: two 8-bit offsets
  unsigned PairUnit = 0;           // bytes per offset0/1 step (4, 8, x64 for st64)
  /// The byte offset of the (first) access from the address VGPR.
  int64_t byteOffset(const llvm::MachineInstr &MI) const;
  /// Whether the offset fields can say the address VGPR + Bytes (for a pair,
  /// Bytes + each element's own distance), and write them if so.
  bool fits(const llvm::MachineInstr &MI, int64_t Bytes) const;
  void setByteOffset(llvm::MachineInstr &MI, int64_t Bytes) const;
};

/// The addressing of an LDS read or write (ds_read*, ds_write*, including
/// read2/write2 and the transposing reads), std::nullopt for other DS
/// instructions (atomics, crossbar ops, addtid forms, GDS).
std::optional<DSAddressing> dsAddressing(const llvm::MachineInstr &MI,
                                         const llvm::TargetInstrInfo &TII);

/// Where a loop's invariant sums go: every entry into loop L passes it --
/// the preheader, or (several entries, as the asymmetric sync makes) the
/// header's immediate dominator. Null if neither exists.
llvm::MachineBasicBlock *blockBeforeLoop(llvm::MachineLoop &L,
                                         const llvm::MachineDominatorTree &MDT);

} // namespace pingpong
#endif
