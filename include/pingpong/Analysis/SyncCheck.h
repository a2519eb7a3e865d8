//===- SyncCheck.h - are the waits and barriers of a loop sufficient? -*- C++ -*-===//
//
// The soundness checker behind -amdgpu-pingpong-verify, on final (post-RA)
// machine code of single-block loops:
//  - per wave: every read of a register written by an outstanding load is
//    covered by an s_waitcnt (gfx9 rules: vmcnt in order; lgkmcnt in order
//    for LDS, SMEM out of order);
//  - across waves: every pair of LDS accesses to the same buffer (a read and
//    a write, LDS DMA included) by different waves is ordered by an s_barrier
//    that the earlier access has drained before, with the wave groups of the
//    asymmetric sync one or more barriers apart;
//  - every wave group executes the same number of s_barrier (else: hang).
// Each wave's path is followed on its own (branches on the workitem id, the
// wave's EXEC and SCC computed: WaveValues); waves with one path are checked
// as one group.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_ANALYSIS_SYNCCHECK_H
#define PINGPONG_ANALYSIS_SYNCCHECK_H

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class MachineFunction;
class MachineInstr;
class MachineLoop;
} // namespace llvm

namespace pingpong {

struct SyncFinding {
  std::string Message;
  const llvm::MachineInstr *At = nullptr;
};

struct SyncReport {
  std::vector<SyncFinding> Findings;
  /// Pairs whose order the rules cannot prove because the LDS bytes are not
  /// known (lib/Sync: an unknown overlap is "cannot prove", never a race);
  /// the first one, and how many.
  std::vector<SyncFinding> Unproven;
  unsigned UnprovenPairs = 0;
  unsigned LDSAccesses = 0, Barriers = 0, PairsChecked = 0;
  /// Barriers wave w + 4 runs before the loop minus wave w (the last SIMD
  /// pair whose waves differ there).
  int GroupOffset = 0;
  bool Asymmetric = false;
  /// Checked along each wave group's whole path through the kernel
  /// (prologue, the loop run 3 times, epilogue); false: the loop alone.
  bool WholeKernel = false;
  /// A branch on a value derived from the workitem id around an s_barrier
  /// whose way per wave the check could not compute (not the plugin's own
  /// wave-group branch, not a test WaveValues evaluates): it assumed every
  /// wave takes the same way there, so a clean result proves nothing.
  const llvm::MachineInstr *UnmodelledWaveBranch = nullptr;
  /// Waves (bit w: wave w) whose computed way does not reach the loop: the
  /// loop was checked on its own.
  uint64_t WavesOffPath = 0;
  /// The structural pacing rule (an s_barrier between every cluster pair of
  /// a skewed loop) failed: not a race, which pingpong-sim verify decides by
  /// running every wave, so a warning rather than a finding.
  std::string PacingGap;
  const llvm::MachineInstr *PacingGapAt = nullptr;
};

/// Which buffer identity the check proves with: the checker's own
/// (ldsRegionForCheck: what -amdgpu-pingpong-verify reports), or the one the
/// loop model and the DMA-wait repair share (ldsRegionOf), which the vmcnt
/// placement's relaxations were measured with.
enum class LDSIdentity { Check, Model };
SyncReport checkLoopSync(llvm::MachineLoop &L, llvm::MachineFunction &MF,
                         LDSIdentity Identity = LDSIdentity::Check);

/// The same check run many times on one loop whose s_waitcnt immediates
/// change between runs and nothing else (the vmcnt placement's search): the
/// waves' paths, values and LDS regions are computed once.
class LoopSyncCheck {
public:
  LoopSyncCheck(llvm::MachineLoop &L, llvm::MachineFunction &MF,
                LDSIdentity Identity = LDSIdentity::Check);
  ~LoopSyncCheck();
  SyncReport run();

private:
  class Impl;
  std::unique_ptr<Impl> C;
};

} // namespace pingpong
#endif
