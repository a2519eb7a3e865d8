//===- Loops.h - the loops the passes look at ----------------*- C++ -*-===//
#ifndef PINGPONG_ANALYSIS_LOOPS_H
#define PINGPONG_ANALYSIS_LOOPS_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class MachineLoop;
class MachineLoopInfo;
} // namespace llvm

namespace pingpong {

/// Every innermost loop of the function (single-block ones only if asked),
/// in source order (header block number), so remarks come out in a stable
/// order. The one worklist the schedule, wait-placement and verify passes use.
llvm::SmallVector<llvm::MachineLoop *, 4>
innermostLoops(const llvm::MachineLoopInfo &MLI, bool SingleBlockOnly = false);

} // namespace pingpong
#endif
