//===- LDSObjects.h - which LDS object a memory access touches -*- C++ -*-===//
//
// Small queries on an instruction's MachineMemOperands shared by the loop
// model's concerns (roles, tile shape).
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_ANALYSIS_LDSOBJECTS_H
#define PINGPONG_ANALYSIS_LDSOBJECTS_H

#include <utility>

namespace llvm {
class MachineFunction;
class MachineInstr;
class MDNode;
class Value;
} // namespace llvm

namespace pingpong {
struct LoopModel;

/// Underlying IR object of an instruction's first memory operand (through
/// llvm.amdgcn.make.buffer.rsrc to the base pointer), or null.
const llvm::Value *memObject(const llvm::MachineInstr &MI);

/// Identity of the LDS buffer an access touches: its IR object and the
/// alias scope the frontend or AMDGPU's LDS lowering gave it.
std::pair<const llvm::Value *, const llvm::MDNode *>
bufferKey(const llvm::MachineInstr &MI);

/// The workgroup tile M x N x K (and TileBits, Replication) of a loop whose
/// roles are known.
void deriveTile(LoopModel &M, const llvm::MachineFunction &MF);

} // namespace pingpong
#endif
