//===- LoopModel.h - roles of the instructions of a dot loop --*- C++ -*-===//
//
// The analysis half of the plugin: from MachineInstrs alone (no tags), find
// what each instruction of a single-block MFMA loop does for the dot: the
// MFMAs grouped into dots (K step, accumulator, chained dots with the VALU
// between them), where each dot operand comes from (LDS reads and the writes
// and global loads that fill them, LDS DMA, direct global loads, registers
// live through the loop, scales of v_mfma_scale), pipeline stages of rotating
// LDS buffers, the sync already there, and the rest. It decides nothing about
// order; Schedule/ does that (and says which shapes no mode schedules yet).
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_ANALYSIS_LOOPMODEL_H
#define PINGPONG_ANALYSIS_LOOPMODEL_H

#include "pingpong/ISA/Opcodes.h"
#include "pingpong/Modes/Roles.h"

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
  /// Dot group: of a Dot; of the dot a LocalRead/OperandPrep/DirectLoad/
  /// SideLoad feeds (the first one); for InterDot the group whose results it
  /// works on; for LocalWrite/GlobalLoad/AsyncCopy the group whose buffer it
  /// fills (where known, else 0).
  unsigned Group = 0;
  /// LocalWrite / AsyncCopy: iterations between this write and the LDS reads
  /// of its data (1: read in the next iteration; 0: not derived). DirectLoad,
  /// SideLoad, LocalRead: 1 when its data is used in the next iteration
  /// (a register prefetch through header PHIs).
  unsigned StagesAhead = 0;
  /// LocalWrite / AsyncCopy: how many rotating buffers its address cycles
  /// through (Triton's stage index, idx + 1 < N ? idx + 1 : 0); 0: not
  /// derived (the sync rules then take StagesAhead + 1).
  unsigned Buffers = 0;
  /// ExchangeWrite / ExchangeRead: the access's step in the iteration's
  /// chain of dependent exchange accesses (1: conflicts with no earlier one;
  /// else one past the latest earlier access of the other direction whose
  /// bytes may meet). 0: not an exchange access.
  unsigned ExchangeStep = 0;
  /// Dot: the latest exchange step among the exchange reads its operands
  /// are read from (attention backward: P^T V's dots read step 2, dS^T's
  /// step 4); 0: no operand crosses LDS. Set by the operand tracer.
  unsigned ExchangeFeed = 0;
  /// DirectLoad: a side input of the chained dots' inter-dot work (attention
  /// backward's log-sum-exp and delta rows, a per-token dequantisation
  /// scale): its data reaches the dots only through InterDot VALU
  /// (InterDotLoads.cpp). The chained-dot layouts place it as a global load.
  bool InterDotInput = false;
};

/// Where one operand (A, B or a scale) of a dot group comes from.
struct OperandSource {
  unsigned LocalReads = 0;  // LDS reads feeding it
  unsigned LocalWrites = 0; // ds_write of its LDS buffer (the next tile)
  unsigned GlobalLoads = 0; // global loads feeding those writes
  unsigned AsyncCopies = 0; // LDS DMA filling its LDS buffer
  unsigned DirectLoads = 0; // global loads straight into its registers
  unsigned SideLoads = 0;   // global loads VALU combines with its LDS data
  /// Part of it is registers defined before the loop (e.g. attention's Q).
  bool LoopInvariant = false;
  /// Chained dot: the group whose results feed it (through InterDot VALU).
  int FromGroup = -1;
  /// Those results cross LDS on the way (ExchangeWrite/ExchangeRead).
  bool Exchanged = false;
  /// The LDS writes or DMA run this many iterations before its reads
  /// (Triton's rotating buffers: stages - 1); 0: not derived.
  unsigned StagesAhead = 0;
  /// Direct (side) loads whose data is used in the next iteration.
  unsigned DirectPrefetched = 0, SidePrefetched = 0;
  bool used() const {
    return LocalReads || AsyncCopies || DirectLoads || LoopInvariant ||
           FromGroup >= 0;
  }
};

/// The MFMAs of one dot: accumulator chains of equal length. A loop has one
/// group per dot level: a chained dot (attention's P x V) is fed by the
/// results of the group before it.
struct DotGroup {
  MFMAShape Shape;
  unsigned NumDots = 0, ChainLen = 0, NumAccumulators = 0;
  unsigned FirstDotOrder = 0; // its dots' DotOrder starts here
  int FedBy = -1;             // chained: the group whose results it consumes
  /// FedBy's results of the previous iteration (through header PHIs:
  /// Triton's four-stage attention computes P V one iteration behind Q K^T).
  bool FedLate = false;
  unsigned InterDot = 0;      // VALU between FedBy and this group
  OperandSource Src[NumOperandKinds]; // by Operand (None unused)
  const OperandSource &source(Operand O) const { return Src[unsigned(O)]; }
  OperandSource &source(Operand O) { return Src[unsigned(O)]; }
};

struct LoopModel {
  llvm::MachineLoop *Loop = nullptr;
  llvm::MachineBasicBlock *Body = nullptr;
  /// The schedulable region: the body up to its first terminator, no debug
  /// instructions. Indices into this vector are "original positions".
  std::vector<InstInfo> Insts;

  /// Shape, ChainLen and NumAccumulators are those of the first dot group
  /// (the only one in a GEMM); NumDots counts every MFMA of the loop.
  MFMAShape Shape;
  unsigned NumDots = 0;
  unsigned ChainLen = 0;        // K steps per accumulator per iteration
  unsigned NumAccumulators = 0;
  std::vector<DotGroup> Groups;
  unsigned Waves = 0;           // waves per workgroup (wave64)
  uint64_t TileBits = 0;        // M*N*K*elemBits of the workgroup's tile
  unsigned TileM = 0, TileN = 0, TileK = 0; // workgroup tile (M >= N)
  /// "MxNxK", or "?x?xK" where M and N could not be told from the LDS
  /// buffers (operands of different element widths, e.g. bf16 x MXFP4).
  std::string tileText() const;
  unsigned Replication = 1;     // waves computing the same outputs
  unsigned NumLocalReads = 0, NumLocalWrites = 0, NumGlobalLoads = 0,
           NumSync = 0, NumPrep = 0, NumAsyncCopies = 0, NumDirectLoads = 0,
           NumInterDot = 0, NumSideLoads = 0;
  /// Direct loads that only the inter-dot work reads (InstInfo::InterDotInput).
  unsigned NumInterDotLoads = 0;
  /// Global loads whose LDS write is in the next iteration (registers
  /// double-staged through a header PHI: Passes/LoadLookahead.cpp).
  unsigned NumGlobalLoadsAhead = 0;
  /// LDS round trips of a dot group's results inside the iteration.
  unsigned NumExchangeWrites = 0, NumExchangeReads = 0;
  /// LDS crossbar ops (ds_bpermute, ds_swizzle ...) outside InterDot work.
  unsigned NumCrossbar = 0;
  /// Of those, the lane shuffles of a GEMM's cross-warp sums: their values
  /// reach only the sums' LDS writes (ExchangeWrite, LDSReductions.cpp)
  /// through VALU. Placed by dependences like the sums' VALU.
  unsigned NumSumCrossbar = 0;
  /// LDS writes, their global loads and LDS DMA whose operand (or, with
  /// chained dots, whose group) the analysis could not tell.
  unsigned UnknownWrites = 0, UnknownLoads = 0, UnknownCopies = 0;
  /// Pipeline stages of the LDS buffers where derived (writes or DMA
  /// StagesAhead + 1, the largest); 0: not derived.
  unsigned NumStages = 0;
  /// With AnalysisOptions::ReplaceSchedule: the loop's own s_setprio /
  /// sched_barrier / iglp_opt, left out of Insts; deleted if a plan applies.
  std::vector<llvm::MachineInstr *> OldSchedule;

  unsigned count(Role R) const;
  bool chainedDots() const { return Groups.size() > 1; }
  /// One dot group with LDS exchanges: the iteration sums values across its
  /// warps through LDS, read back behind the loop's own barriers
  /// (LDSReductions.cpp); only a layout that keeps those barriers places it.
  bool ldsReductions() const { return NumExchangeWrites && !chainedDots(); }
  /// LDS DMA next to register-staged LDS writes (global loads, ds_writes) in
  /// one GEMM loop: async-one-cluster's writes-first layout
  /// (Schedule/MixStage.cpp, session 23).
  bool mixedStaging() const {
    return NumAsyncCopies && NumLocalWrites && NumGlobalLoads &&
           !chainedDots() && !NumDirectLoads;
  }
  bool scaled() const;
  /// Every LDS DMA of the body comes after its last LDS read: the copies go
  /// into the buffer this iteration reads (DMALookahead.cpp), behind the
  /// barrier that ends its reads, so no order may lead with them.
  bool copiesFollowReads() const;
  /// The DMA lookahead's shape: copiesFollowReads, two buffers, every copy
  /// two iterations ahead of the reads of its data (Stages.cpp pairs them
  /// through the rotated stage index).
  bool copiesOneTileAhead() const;
  /// The DMA lookahead's shape at any buffer count: copiesFollowReads, and
  /// every copy as many iterations ahead of the reads of its data as there
  /// are buffers (two stages: tile i+2 into the buffer just read; three:
  /// tile i+3), so each copy refills the buffer this iteration read.
  bool copiesIntoBufferJustRead() const;
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
