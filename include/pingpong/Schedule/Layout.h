//===- Layout.h - layouts matched against a loop model -----------*- C++ -*-===//
//
// The data and text form of layouts are Modes/LayoutText.h (no MachineInstr:
// the MLIR front parses user layouts with it); matching instructions to
// clusters (Selector::matches, ClusterLayout::desired) and interleave kinds
// are defined here, on the loop model.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SCHEDULE_LAYOUT_H
#define PINGPONG_SCHEDULE_LAYOUT_H

#include "pingpong/Analysis/Directives.h"
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Modes/LayoutText.h"

#include "llvm/ADT/StringRef.h"

namespace pingpong {

/// Whether an instruction of this class falls under Mask, as far as the
/// plugin can tell from its kind and opcode name (repeat counts only: LLVM's
/// scheduler makes the real assignment).
bool interleaveMatches(unsigned Mask, InstKind K, llvm::StringRef OpcodeName);

} // namespace pingpong
#endif
