//===- AuthorSkew.h - an author's wave skew around a loop -------*- C++ -*-===//
//
// Triton's BlockPingpong (and hand-written pingpong) skews the wave groups the
// way the plugin's asymmetric sync does: before the loop, the waves of one
// set run an extra s_barrier (Triton's cond_barrier: `if (tid >= 256)
// s_barrier()`); after it, the other waves do. A loop whose schedule the
// plugin replaces must lose that skew too, or the plugin's own skew comes on
// top of it (two barriers apart: the pacing breaks, and pingpong-sim verify
// finds the race).
//
// What is matched (machine SSA, before PHI elimination), exactly:
//  - a *half*: a block A ending in a conditional branch with two successors,
//    S and J, where S's only predecessor is A, its only successor J, and its
//    only instruction (besides an unconditional branch and debug
//    instructions) one S_BARRIER. The branch is either SI_IF on a lane mask
//    (S is the `then` side, J begins with the matching SI_END_CF) or
//    S_CBRANCH_SCC0/1 on SCC;
//  - its condition is computed from the workitem id x only (v0), through the
//    operations of WaveValues, and is the same in every lane of each wave
//    for every lane a readfirstlane might read: each wave either runs the
//    barrier or not;
//  - a pair: one half whose A dominates the loop header (and J too: it is on
//    every path into the loop), one whose A post-dominates the header; the
//    two As in the loop that contains L (none, normally), the first
//    dominating the second, the second post-dominating the first (they run
//    equally often); the second's barrier waves are exactly the waves the
//    first's are not, and neither set is empty.
// Any other branch there on a workitem-id value with such a barrier side is
// "unmatched": the caller refuses to replace the schedule rather than guess.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_ANALYSIS_AUTHORSKEW_H
#define PINGPONG_ANALYSIS_AUTHORSKEW_H

#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class MachineDominatorTree;
class MachineFunction;
class MachineInstr;
class MachineLoop;
class MachineLoopInfo;
} // namespace llvm

namespace pingpong {

struct AuthorSkew {
  llvm::MachineInstr *Before = nullptr; // the conditional s_barrier before the loop
  llvm::MachineInstr *After = nullptr;  // and after it
  // The branches around them (SI_IF or S_CBRANCH_SCC*): the first
  // terminator of the block before each barrier's block.
  llvm::MachineInstr *BeforeBranch = nullptr, *AfterBranch = nullptr;
  uint64_t Ahead = 0;  // bit w: wave w runs `Before` (one barrier ahead in the loop)
  unsigned Waves = 0;  // waves per workgroup the sets were computed for
  /// "waves 4-7 one s_barrier ahead before the loop, waves 0-3 after it".
  std::string describe() const;
};

struct AuthorSkewSearch {
  std::optional<AuthorSkew> Skew;
  /// Not empty: a wave-dependent s_barrier around the loop that is not (one
  /// half of) one exactly matched skew; At is its branch.
  std::string Unmatched;
  const llvm::MachineInstr *At = nullptr;
};

/// The skew around L, if any (the post-dominator tree is built here, only
/// when the function has a conditional s_barrier).
AuthorSkewSearch findAuthorSkew(llvm::MachineLoop &L, llvm::MachineFunction &MF,
                                const llvm::MachineDominatorTree &MDT,
                                const llvm::MachineLoopInfo &MLI);

} // namespace pingpong
#endif
