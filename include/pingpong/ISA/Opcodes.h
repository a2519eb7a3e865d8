//===- Opcodes.h - AMDGPU opcodes resolved by name at run time -*- C++ -*-===//
//
// libLLVM exports no AMDGPU internals and opcode numbers change between LLVM
// versions, so every opcode the plugin recognises or builds is found here, by
// name, through TargetInstrInfo. This is the one table of such names.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_ISA_OPCODES_H
#define PINGPONG_ISA_OPCODES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace llvm {
class TargetRegisterInfo;
class MachineInstr;
class TargetInstrInfo;
} // namespace llvm

namespace pingpong {

/// What an instruction is, as far as pingpong cares.
enum class InstKind : unsigned char {
  Other,       // address arithmetic, SALU, VALU, copies ...
  MFMA,        // V_MFMA_*, V_SMFMAC_*, V_MFMA_SCALE_*
  ValuFMA,     // plain VALU FMA/dot (V_FMA_*, V_PK_FMA_*, V_DOT*) - not a matrix op
  LDSRead,     // DS_READ* (LDS -> VGPR)
  LDSWrite,    // DS_WRITE* (VGPR -> LDS)
  LDSOther,    // DS atomics, ds_swizzle, ds_bpermute ...
  VMEMLoad,    // GLOBAL_LOAD_*, BUFFER_LOAD_*, FLAT_LOAD_* (to VGPRs)
  LDSDMA,      // GLOBAL_LOAD_LDS_*, BUFFER_LOAD_*_LDS_* (global -> LDS directly)
  VMEMStore,   // GLOBAL_STORE_*, BUFFER_STORE_*, FLAT_STORE_*, atomics
  SMEMLoad,    // S_LOAD_*, S_BUFFER_LOAD_*
  Barrier,     // S_BARRIER
  Fence,       // ATOMIC_FENCE
  SetPrio,     // S_SETPRIO
  SchedFence,  // SCHED_BARRIER, SCHED_GROUP_BARRIER, IGLP_OPT
  Waitcnt,     // S_WAITCNT, S_WAITCNT_soft
};

const char *kindName(InstKind K);

/// Shape of a matrix instruction, parsed from its name (e.g. 16X16X32).
struct MFMAShape {
  unsigned M = 0, N = 0, K = 0;
  unsigned ElemBits = 16; // bits of one A/B element
  bool Scaled = false;    // V_MFMA_SCALE_*
};

/// Opcode table for one TargetInstrInfo (one per subtarget in practice).
class OpcodeTable {
public:
  static const OpcodeTable &get(const llvm::TargetInstrInfo &TII);

  InstKind classify(const llvm::MachineInstr &MI) const;
  InstKind classify(unsigned Opcode) const;
  std::optional<MFMAShape> mfmaShape(unsigned Opcode) const;
  llvm::StringRef name(unsigned Opcode) const;
  /// A number-format conversion (V_CVT_*: int8 to f16, f32 to bf16 ...).
  bool isConversion(unsigned Opcode) const;


  /// Instructions the emitters build. Resolving them scans every opcode
  /// name once, so it is done on first use (a loop about to be scheduled),
  /// not for every function.
  struct Builders {
    unsigned SSetPrio = 0, SBarrier = 0, SchedBarrier = 0, SWaitcnt = 0,
             VReadFirstLane = 0, SAndB32 = 0, SCmpLgU32 = 0, SCBranchSCC0 = 0,
             SCBranchSCC1 = 0, SBranch = 0, VMovB32 = 0,
             SchedGroupBarrier = 0;
    // address arithmetic (LDS base-address folding)
    unsigned VAddU32e32 = 0, VAdd3U32e64 = 0, SAddI32 = 0;
    bool complete() const;
  };
  const Builders &builders() const;

private:
  explicit OpcodeTable(const llvm::TargetInstrInfo &TII);
  const llvm::TargetInstrInfo &TII;
  mutable llvm::DenseMap<unsigned, InstKind> KindCache;
  mutable std::optional<Builders> Built;
};

/// A physical register by its target name ("SCC", "M0"): the plugin links
/// no AMDGPU code, so no AMDGPU::SCC. 0 if the target has none.
unsigned physRegNamed(const llvm::TargetRegisterInfo &TRI, llvm::StringRef Name);

} // namespace pingpong

#endif
