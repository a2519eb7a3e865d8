//===- LoopModel.h - roles of the instructions of a GEMM loop -*- C++ -*-===//
//
// The analysis half of the plugin: from MachineInstrs alone (no tags), find
// what each instruction of a single-block MFMA loop does for the dot: the
// MFMAs and their K step, the LDS reads feeding operand A/B, the LDS writes,
// the global loads feeding them, the sync already there, and the rest.
// It decides nothing about order; Schedule/ does that.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_ANALYSIS_LOOPMODEL_H
#define PINGPONG_ANALYSIS_LOOPMODEL_H

#include "pingpong/ISA/Opcodes.h"

#include "llvm/ADT/DenseMap.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class MachineBasicBlock;
class MachineFunction;
class MachineInstr;
class MachineLoop;
class raw_ostream;
} // namespace llvm

namespace pingpong {

enum class Role : unsigned char {
  Other,       // address arithmetic, loop counter, anything else
  Dot,         // an MFMA of the dot
  LocalRead,   // LDS read feeding a dot operand
  LocalWrite,  // LDS write of the next tile
  GlobalLoad,  // global/buffer load of the next tile (feeds a LocalWrite)
  OperandPrep, // VALU/copy between a LocalRead and the MFMA
  Sync,        // barrier or fence already in the loop
};
const char *roleName(Role R);

enum class Operand : unsigned char { None, A, B };
const char *operandName(Operand O);

struct InstInfo {
  llvm::MachineInstr *MI = nullptr;
  InstKind Kind = InstKind::Other;
  Role R = Role::Other;
  Operand Op = Operand::None;
  /// K step: for a Dot, its position in its accumulator chain; for a
  /// LocalRead/OperandPrep, the earliest K step that consumes it.
  unsigned KStep = 0;
  /// Dot order, K-major: KStep * NumAccumulators + accumulator index. For a
  /// Dot its own; for a LocalRead/OperandPrep the smallest of its consumers.
  /// Slicing the dot in S parts cuts this order into S equal ranges.
  unsigned DotOrder = 0;
};

struct LoopModel {
  llvm::MachineLoop *Loop = nullptr;
  llvm::MachineBasicBlock *Body = nullptr;
  /// The schedulable region: the body up to its first terminator, no debug
  /// instructions. Indices into this vector are "original positions".
  std::vector<InstInfo> Insts;

  MFMAShape Shape;
  unsigned NumDots = 0;
  unsigned ChainLen = 0;        // K steps per accumulator per iteration
  unsigned NumAccumulators = 0;
  unsigned Waves = 0;           // waves per workgroup (wave64)
  uint64_t TileBits = 0;        // M*N*K*elemBits of the workgroup's tile
  unsigned TileM = 0, TileN = 0, TileK = 0; // workgroup tile (M >= N)
  unsigned Replication = 1;     // waves computing the same outputs
  unsigned NumLocalReads = 0, NumLocalWrites = 0, NumGlobalLoads = 0,
           NumSync = 0, NumPrep = 0;
  /// With AnalysisOptions::ReplaceSchedule: the loop's own s_setprio /
  /// sched_barrier / iglp_opt, left out of Insts; deleted if a plan applies.
  std::vector<llvm::MachineInstr *> OldSchedule;

  unsigned count(Role R) const;
  /// Which of Slices equal parts of the dot order I belongs to (Dot,
  /// LocalRead, OperandPrep). Along K when Slices divides the K steps;
  /// otherwise the accumulators of a K step are split too.
  unsigned slice(const InstInfo &I, unsigned Slices) const {
    return dotSlice(I, Slices, NumDots);
  }
  static unsigned dotSlice(const InstInfo &I, unsigned Slices,
                           unsigned NumDots) {
    return uint64_t(I.DotOrder) * Slices / std::max(1u, NumDots);
  }
  void print(llvm::raw_ostream &OS) const;
};

/// Why a loop is not a candidate, and where.
struct Rejection {
  std::string Reason;
  const llvm::MachineInstr *At = nullptr;
};

/// Analyse one innermost loop. Either a model or the reason there is none.
struct LoopAnalysis {
  std::optional<LoopModel> Model;
  Rejection Why;
  /// True when the loop has MFMAs at all.
  bool HasMFMA = false;
  /// True when the loop looks like a dot (MFMAs, or VALU FMAs fed by LDS):
  /// such loops get a remark either way; others are not mentioned.
  bool IsDotLoop = false;
  /// The bare region of a single-block loop (instructions and their kinds,
  /// no roles), also when the loop is rejected: the LDS-DMA hoist uses it.
  std::optional<LoopModel> Region;
  bool HasLDSDMA = false;
};

struct AnalysisOptions {
  /// A loop that already carries a schedule (s_setprio, sched_barrier,
  /// iglp_opt: Triton's BlockPingpong, or the author) is analysed without
  /// it instead of being refused.
  bool ReplaceSchedule = false;
};

LoopAnalysis analyzeLoop(llvm::MachineLoop &L, llvm::MachineFunction &MF,
                         AnalysisOptions Opts = {});

/// Waves per workgroup from "amdgpu-flat-work-group-size" (wave64), 0 if unknown.
unsigned wavesPerWorkgroup(const llvm::MachineFunction &MF);

} // namespace pingpong
#endif
