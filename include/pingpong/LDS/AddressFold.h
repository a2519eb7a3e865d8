//===- AddressFold.h - LDS base-address folding in a loop -------*- C++ -*-===//
//
// Issue 12: in a loop, an LDS address is often rebuilt every iteration from
// loop-invariant lane offsets, a stage or slice base that changes per
// iteration, and constants (Triton's rotating async-copy buffers: the stage
// base is an SGPR, the swizzled lane offsets VGPRs). The fold groups the
// loop's LDS accesses by the registers their addresses add up (AddressSum.h),
// keeps one base per group -- the invariant part summed once before the
// loop, the per-iteration part added once per group -- and puts the
// constants into the instructions' offset fields. Group by group it chooses
// that form, the base added wholly in the loop, or no change, and keeps the
// result only when the loop gets cheaper: fewer VALU instructions per
// iteration or fewer vector registers live at the loop's peak, neither
// worse, and no more instructions issued per iteration.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_LDS_ADDRESSFOLD_H
#define PINGPONG_LDS_ADDRESSFOLD_H

#include "pingpong/LDS/FoldSite.h"

namespace pingpong {

struct LDSAddressingOptions {
  /// Test only: build each group's base from its first access's constant
  /// and still shift every offset by its whole constant (seed 000's mistake:
  /// a slice's base taken for its buffer's). The self-check or
  /// `pingpong-sim addresses` must catch it.
  bool InjectSliceBase = false;
  /// Re-read every rewritten address and compare it with the original sum.
  bool SelfCheck = true;
  /// A fold that saves no VALU must free at least this many vector
  /// registers at the loop's peak.
  unsigned MinRegistersFreed = 2;
};

struct LDSAddressingResult : FoldStatus {
  unsigned Accesses = 0, Groups = 0, Hoisted = 0;
  /// How the groups were folded: invariant part summed before the loop, all
  /// of the base added in the loop, or left as the schedule had it.
  unsigned GroupsHoisted = 0, GroupsInLoop = 0, GroupsKept = 0;
  unsigned ValuBefore = 0, ValuAfter = 0, SaluBefore = 0, SaluAfter = 0;
  /// The most 32-bit vector registers live at once in the loop (exact
  /// machine-SSA liveness, copies of one value counted once).
  unsigned VgprsBefore = 0, VgprsAfter = 0;
};

/// Folds the LDS addresses of the loop at S (run through foldLDS, Folds.h,
/// which checks the loop). Leaves it untouched unless the result is cheaper.
LDSAddressingResult foldLDSAddresses(const FoldSite &S,
                                     const LDSAddressingOptions &Opts);

} // namespace pingpong
#endif
