//===- IRLoops.h - what the plugin's IR passes ask of a loop ----*- C++ -*-===//
//
// The IR passes (loop rotation, exchange relocation) run before the machine
// passes and take the same loops: innermost, with an MFMA, not turned off by
// a directive, not scheduled by their author unless
// -amdgpu-pingpong-replace-schedule.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_PASSES_IRLOOPS_H
#define PINGPONG_PASSES_IRLOOPS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/UniformityAnalysis.h"

#include <cstdint>
#include <string>

namespace llvm {
class Function;
class Instruction;
class Loop;
class Value;
} // namespace llvm

namespace pingpong {
/// llvm.amdgcn.mfma.* / smfmac.* (the scaled MFMA included).
bool isMFMACall(const llvm::Instruction &I);
/// A global-to-LDS copy (LDS DMA) of any form: buffer, global, load.to.lds.
bool isLDSDMACall(const llvm::Instruction &I);
/// s_setprio, sched_barrier, sched_group_barrier, iglp_opt: the frontend
/// scheduled the loop itself (Triton's BlockPingpong).
bool isAuthorScheduleCall(const llvm::Instruction &I);
/// !{!"amdgpu.pingpong", !"off"} in the loop's ID.
bool loopSaysOff(const llvm::Loop &L);
/// Any instruction of the loop satisfies Pred.
bool loopHas(const llvm::Loop &L, bool (*Pred)(const llvm::Instruction &));
/// An MFMA's A or B operand computed in the loop from another MFMA's result
/// (attention's P = softmax(Q K^T) feeding P V): chained dots.
bool hasChainedDots(const llvm::Loop &L);
/// Vector registers the loop body needs at its busiest point, from IR:
/// divergent values live at once (i1 masks are scalar), plus the divergent
/// loop invariants it reads, once the CarriedLoads' tiles are carried across
/// the backedge: those are live everywhere (the PHI until the stores, the
/// next tile after them), so they count at every point instead of between
/// each load and its stores. An LDS read counts from its first use (every
/// machine mode issues it just before the dot slice that uses it). An
/// estimate: the machine passes count exactly, but run after the IR passes
/// that ask (LoadLookahead.cpp, OccupancyHint.cpp). L is a single-block loop
/// (its header is its latch).
/// CarriedAddresses: the addresses of the loads issued an iteration ahead
/// (their voffset or pointer in this iteration). The next iteration's copy
/// of such an address depends only on the loop's counter and invariants, so
/// LLVM's schedulers may compute it anywhere in the body, and they do at its
/// top (session 23: heldout8's conv gathers, 32 offsets live from the loop's
/// first instructions to the loads after the LDS writes); each divergent,
/// loop-varying one counts as carried too, at its width.
/// The vector registers of CarriedAddresses that count (see above).
unsigned carriedAddressDwords(const llvm::Loop &L, const llvm::UniformityInfo &UI,
                              llvm::ArrayRef<const llvm::Value *> CarriedAddresses);
unsigned estimatePeakVGPRs(const llvm::Loop &L, const llvm::UniformityInfo &UI,
                           llvm::ArrayRef<const llvm::Instruction *> CarriedLoads,
                           llvm::ArrayRef<const llvm::Value *> CarriedAddresses = {});
/// The voffset that makes a raw buffer access (a load or an LDS DMA copy)
/// read nothing on a resource of at most 2^31 - 1 bytes (Triton masks its
/// prologue loads with it: `select %c, %off, -2147483648`).
constexpr int32_t OutOfRangeOffset = INT32_MIN;
/// Why OutOfRangeOffset on Rsrc is not proven to read nothing, or "": Rsrc
/// is a make.buffer.rsrc with no stride, a constant num_records of at most
/// 0x7FFFFFFF, and the kernel already masks an access on it with that
/// offset.
std::string whyNotMaskable(const llvm::Value *Rsrc);
/// A loop's values at another iteration than the one running, for the
/// lookahead passes, which issue an access of a later iteration early:
/// - First: iteration 0, in the preheader (header PHIs at their entry values);
/// - This: this iteration, where values defined after the insertion point are
///   computed again before it (LSR puts the increments at the end);
/// - Next: the next iteration (header PHIs at their latch values, themselves
///   of this iteration).
/// Only arithmetic safe to speculate is copied (a Next value is computed on
/// the last iteration too); a value that needs memory, a side effect or a PHI
/// outside the header is not computable.
class IterationValues {
public:
  enum Iteration { First, This, Next };
  /// Copies are named after their original with Suffix appended.
  IterationValues(llvm::Loop &L, llvm::StringRef Suffix)
      : L(L), Suffix(Suffix) {}

  /// Whether V can be computed at It; changes no IR.
  bool computable(llvm::Value *V, Iteration It);
  /// V at It, computed before IP (the preheader's terminator for First).
  /// V must be computable. A copy made for an earlier point serves a later
  /// one.
  llvm::Value *get(llvm::Value *V, Iteration It, llvm::Instruction *IP);

private:
  bool computable(llvm::Value *V, Iteration It, unsigned Depth);
  llvm::Loop &L;
  std::string Suffix;
  llvm::DenseMap<const llvm::Value *, bool> Known[3];
  llvm::DenseMap<llvm::Value *, llvm::Value *> Made[3];
};

/// Does Load's value reach nothing but side-effect-free arithmetic of the
/// body that meets an MFMA result (no memory, no MFMA operand, no address,
/// no PHI, no use after the loop)? A block-scaled GEMM's scale loads
/// (LoadLookahead.cpp takes them ahead; DMALookahead.cpp lets them beside
/// its copies). Sets LastUse to the last reader. OperandSources.cpp's
/// feedsDotResultOnly asks the same of the machine loop (it also follows
/// the PHIs LoadLookahead adds).
bool feedsDotResultOnly(const llvm::Loop &L, llvm::Instruction *Load,
                        llvm::Instruction *&LastUse);
/// The metadata kind DMALookahead.cpp puts on the loop-top wait of a loop
/// whose copies it moved a tile ahead (LoadLookahead.cpp takes such a
/// loop's scale loads ahead too).
constexpr const char *DMAAheadMD = "amdgpu.pingpong.dma.ahead";
/// Waves per workgroup from "amdgpu-flat-work-group-size" (0 if unknown).
unsigned wavesPerWorkgroup(const llvm::Function &F);
/// -amdgpu-pingpong=off or the function attribute "off".
bool functionSaysOff(const llvm::Function &F);
/// Runs Run on every kernel (amdgpu_kernel) defined in M; true if any
/// call changed its kernel (the module passes that rewrite kernels' IR).
bool forEachKernel(llvm::Module &M,
                   llvm::function_ref<bool(llvm::Function &)> Run);
} // namespace pingpong
#endif
