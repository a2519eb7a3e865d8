//===- WaveValues.h - what a kernel's wave-id tests compute ------*- C++ -*-===//
//
// Kernels skew or specialise waves with a few integer operations on the
// workitem id: `tid.x < 256` (a v_cmp, then an exec-masked branch),
// `readfirstlane(tid.x) & 256` (a scalar branch), `tid.x >> 6`. Two places
// need to know which waves take such a branch:
//  - the recognition of an author's wave skew around a loop (AuthorSkew,
//    machine SSA: SSAWaveEval walks the virtual register's definitions);
//  - the wait/barrier checker's per-wave paths (SyncCheck, final MIR:
//    WaveState follows one wave's physical registers along its path).
// Both evaluate the same operations, by MIR opcode name (lib/ISA's way:
// no AMDGPU header is reachable from a plugin), on 64 lanes with
// v0 = 64 * wave + lane at entry (a 1-D workgroup of wave64, as the
// asymmetric sync assumes: TargetFacts' waveGroupBit). Anything else is
// "unknown", never guessed.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_ANALYSIS_WAVEVALUES_H
#define PINGPONG_ANALYSIS_WAVEVALUES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/CodeGen/Register.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class MachineInstr;
class MachineOperand;
class MachineRegisterInfo;
class TargetInstrInfo;
class TargetRegisterClass;
class TargetRegisterInfo;
} // namespace llvm

namespace pingpong {

/// "waves 0-3", "wave 5", "waves 0-1, 4-5": the set bits of a wave mask.
std::string waveSetName(uint64_t Waves);

namespace wavevalues {

constexpr unsigned Lanes = 64;

/// The 32-bit result of the integer op Name (S_AND_B32, V_LSHRREV_B32_e64,
/// V_READFIRSTLANE_B32 is not one: it crosses lanes) on its explicit source
/// operands Srcs, in operand order; nullopt for an op not modelled.
std::optional<uint32_t> evalInt(llvm::StringRef Name,
                                llvm::ArrayRef<uint32_t> Srcs);

/// The truth of the integer compare Name (V_CMP_{EQ,NE,LT,LE,GT,GE}_{U32,I32}
/// in any encoding, S_CMP_*, S_CMPK_*) on A and B; nullopt for other ops
/// (float compares, V_CMPX, 64-bit compares).
std::optional<bool> evalCompare(llvm::StringRef Name, uint32_t A, uint32_t B);

/// The 64-bit scalar mask op Name (S_AND_B64, S_OR_B64, S_XOR_B64,
/// S_ANDN2_B64, S_ORN2_B64, S_NOT_B64, S_MOV_B64) on Srcs.
std::optional<uint64_t> evalMask(llvm::StringRef Name,
                                 llvm::ArrayRef<uint64_t> Srcs);

/// Machine SSA: the lane values of virtual registers as functions of the
/// wave and lane, through their (unique) definitions. `First` is the lane a
/// V_READFIRSTLANE reads: callers that need an answer independent of EXEC
/// try every lane.
class SSAWaveEval {
public:
  SSAWaveEval(const llvm::MachineRegisterInfo &MRI,
              const llvm::TargetInstrInfo &TII)
      : MRI(MRI), TII(TII) {}
  std::optional<uint32_t> value(llvm::Register R, unsigned Wave, unsigned Lane,
                                unsigned First, unsigned Depth = 0) const;
  /// Truth of a compare instruction (V_CMP*/S_CMP*) or, for a SALU logic op
  /// that sets SCC, of its result being non-zero.
  std::optional<bool> condition(const llvm::MachineInstr &MI, unsigned Wave,
                                unsigned Lane, unsigned First) const;
  /// A 64-bit lane mask (V_CMP, S_CSELECT_B64 on SCC, S_AND/OR/XOR/ANDN2_B64
  /// with EXEC or another mask, S_MOV_B64, COPY): true if every lane of the
  /// wave is set, false if none (so, with EXEC as a factor, whether any
  /// active lane is); nullopt if the lanes differ or it is not computed.
  std::optional<bool> uniformMask(llvm::Register R, unsigned Wave,
                                  unsigned First, unsigned Depth = 0) const;
  /// The same for the mask the instruction Def writes.
  std::optional<bool> uniformMaskOf(const llvm::MachineInstr &Def,
                                    unsigned Wave, unsigned First,
                                    unsigned Depth = 0) const;
  /// SCC as the last instruction before MI in its block that sets it does.
  std::optional<bool> sccBefore(const llvm::MachineInstr &MI, unsigned Wave,
                                unsigned First) const;
  /// Whether R's value is computed from the workitem id at all (known or
  /// not), SCC followed to the instruction that sets it.
  bool fromWorkitemId(llvm::Register R, unsigned Depth = 0) const;
  /// The instruction before MI in its block that last sets physical Reg.
  const llvm::MachineInstr *lastDefBefore(const llvm::MachineInstr &MI,
                                          llvm::MCRegister Reg) const;

private:
  const llvm::MachineRegisterInfo &MRI;
  const llvm::TargetInstrInfo &TII;
};

/// Final MIR: what one wave knows about its registers along its path. EXEC
/// is every lane and v0 the workitem id at entry; an instruction the model
/// does not evaluate makes every register it writes unknown.
class WaveState {
public:
  WaveState(unsigned Wave, const llvm::TargetRegisterInfo &TRI,
            const llvm::TargetInstrInfo &TII);
  /// Apply MI's effect on the registers the model follows.
  void step(const llvm::MachineInstr &MI);
  /// Whether the conditional branch Br jumps to its target for this wave
  /// (S_CBRANCH_SCC0/1, EXECZ/NZ, VCCZ/NZ); nullopt if not known.
  std::optional<bool> jumps(const llvm::MachineInstr &Br) const;
  /// EXEC is known to hold every lane (nothing wave-dependent in it).
  bool execFull() const;

private:
  struct LaneVals {
    std::array<uint32_t, Lanes> V{};
    uint64_t Known = 0; // lanes whose value is known
  };
  const llvm::TargetRegisterInfo &TRI;
  const llvm::TargetInstrInfo &TII;
  llvm::DenseMap<unsigned, LaneVals> R32;  // 32-bit registers, by MCRegister
  llvm::DenseMap<unsigned, uint64_t> R64;  // 64-bit masks (EXEC, VCC, pairs)
  std::optional<bool> SCC;
  unsigned Exec = 0, VCC = 0, SCCReg = 0;
  const llvm::TargetRegisterClass *S32 = nullptr, *V32 = nullptr,
                                  *S64 = nullptr;

  void forget(llvm::MCRegister Reg);
  std::optional<LaneVals> read32(const llvm::MachineOperand &MO) const;
  std::optional<uint64_t> read64(const llvm::MachineOperand &MO) const;
  bool is64(llvm::MCRegister Reg) const;
  bool is32(llvm::MCRegister Reg) const;
  std::optional<LaneVals> eval32(llvm::StringRef Name,
                                 llvm::ArrayRef<const llvm::MachineOperand *> Uses,
                                 bool Valu, std::optional<uint64_t> ExecNow,
                                 llvm::MCRegister Dst) const;
};

} // namespace wavevalues
} // namespace pingpong
#endif
