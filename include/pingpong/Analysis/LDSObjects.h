//===- LDSObjects.h - which LDS buffer a memory access touches -*- C++ -*-===//
//
// The bridge from MachineInstrs to the sync library's buffer identity
// (sync::LDSRegion, lib/Sync): the one implementation the wait/barrier checker
// and the loop model share.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_ANALYSIS_LDSOBJECTS_H
#define PINGPONG_ANALYSIS_LDSOBJECTS_H

#include "pingpong/Sync/SyncRules.h"

#include <string>

namespace llvm {
class MachineFunction;
class MachineInstr;
class Value;
} // namespace llvm

namespace pingpong {
struct LoopModel;

/// The LDS side of an instruction's memory operands as the library's buffer
/// identity: the IR object (Object is the llvm::Value; an arena when external
/// or zero-sized), a constant byte range in it where the address is one
/// (LaneUniform: every lane touches the same bytes, which LDS DMA does not:
/// its lanes write M0 + lane x size), the alias scopes and noalias lists.
/// An LDS DMA (LaneUniform false) gets the bounds or the double-buffer slot
/// of its whole wave's footprint (64 lanes x the opcode's bytes) from its base.
sync::LDSRegion ldsRegionOf(const llvm::MachineInstr &MI, bool LaneUniform = true);

/// The same for the wait/barrier checker, which must not take an unproven
/// buffer for a proven one: the object is the one LDS global under the
/// pointer through PHIs and selects (LSR's pointer induction variables,
/// stage pointers), or none; the slots of N-stage buffers (kt % N, ring
/// counters, swapped and selected stage pointers) with their absolute index
/// where the toggle starts at a constant; and `Varies` where the address
/// moves between iterations in a way no slot describes. (The loop model and
/// the DMA-wait repair keep ldsRegionOf, whose answers their orders and
/// waits were measured with.)
sync::LDSRegion ldsRegionForCheck(const llvm::MachineInstr &MI,
                                  bool LaneUniform = true);

/// The IR object of an LDS region (null if unknown).
inline const llvm::Value *ldsObject(const sync::LDSRegion &R) {
  return static_cast<const llvm::Value *>(R.Object);
}

/// "name [scope]" of the LDS buffer an instruction touches, for messages.
std::string ldsBufferName(const llvm::MachineInstr &MI);

/// The two regions are proven to be the same declared buffer or to share
/// bytes (sync::overlap says SameBuffer or Bytes).
bool sameLDSBuffer(const sync::LDSRegion &A, const sync::LDSRegion &B);

/// The workgroup tile M x N x K (and TileBits, Replication) of a loop whose
/// roles are known.
void deriveTile(LoopModel &M, const llvm::MachineFunction &MF);

} // namespace pingpong
#endif
