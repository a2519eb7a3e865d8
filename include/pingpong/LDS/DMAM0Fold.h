//===- DMAM0Fold.h - LDS DMA destination (M0) sums in a loop ----*- C++ -*-===//
//
// Issue 12, the LDS DMA half. An LDS DMA (buffer_load ... lds,
// global_load_lds_*) writes LDS at M0 + the instruction offset + lane x size;
// the instruction offset also moves the global address, so the LDS base can
// only come from M0, written once per DMA. Triton builds each M0 value every
// iteration as stage base + a loop-invariant per-wave offset + a constant:
// two SALU adds per DMA. The fold reads each M0 value as a sum of registers
// and a constant (AddressSum.h), sums the loop-invariant registers and the
// constant once before the loop, and leaves one add per DMA in the loop.
// Kept only where the loop issues fewer SALU instructions.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_LDS_DMAM0FOLD_H
#define PINGPONG_LDS_DMAM0FOLD_H

#include "pingpong/LDS/FoldSite.h"

namespace pingpong {

struct DMAM0Result : FoldStatus {
  /// M0 writes feeding an LDS DMA in the loop / rewritten / invariant sums
  /// built before the loop.
  unsigned Writes = 0, Rewritten = 0, Hoisted = 0;
  /// SALU instructions per iteration that compute M0 values, before/after.
  unsigned SaluBefore = 0, SaluAfter = 0;
};

/// Folds the M0 sums of the LDS DMAs of the loop at S (run through foldLDS,
/// Folds.h, which checks the loop). Leaves it untouched unless fewer SALU
/// instructions remain in it.
/// InjectSliceBase (test only): the writes whose invariant registers are the
/// same all get the first one's sum, constant included (seed 000's mistake).
DMAM0Result foldDMAM0(const FoldSite &S, bool SelfCheck,
                      bool InjectSliceBase = false);

} // namespace pingpong
#endif
