//===- Directives.h - what the user asked for, per run/kernel/loop -*- C++ -*-===//
//
// Three channels, most specific first when the command line says "auto":
//   !llvm.loop !{!"amdgpu.pingpong", !"<mode>"}  on the loop latch, or
//   !llvm.loop !{!"amdgpu.pingpong.layout", !"<layout text>"} (Modes/LayoutText.h)
//   "amdgpu-pingpong"="<mode>"                    function attribute
//   -amdgpu-pingpong=<mode>                       command line (default auto)
// A non-auto command line value overrides both (it "forces" every loop).
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_ANALYSIS_DIRECTIVES_H
#define PINGPONG_ANALYSIS_DIRECTIVES_H

#include "pingpong/Modes/Modes.h" // Mode, modeName, parseMode

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

#include "llvm/ADT/ArrayRef.h"
#include <utility>

namespace llvm {
class BasicBlock;
class Function;
class MachineLoop;
class MDNode;
} // namespace llvm

namespace pingpong {

/// Where a directive came from, for remarks.
struct Directive {
  Mode M = Mode::Auto;
  const char *Source = "auto"; // or "command line", "function attribute", "loop metadata"
  /// !{!"amdgpu.pingpong.layout", !"pingpong-layout v1; ..."} on the loop: a
  /// layout in the text form of Modes/LayoutText.h, forced like a mode.
  std::string LayoutText;
};

/// Mode set on the command line (the plugin's cl::opt).
Mode commandLineMode();

/// AMDGPU's structurizer rebuilds loop branches and drops !llvm.loop before
/// isel, so an IR pass records each loop's ID by header block first. The
/// record holds one function at a time (codegen runs function by function).
void recordLoopIDs(const llvm::Function &F,
                   llvm::ArrayRef<std::pair<const llvm::BasicBlock *,
                                            llvm::MDNode *>> HeaderToLoopID);

/// Resolve the directive for one loop. On malformed input returns nullopt and
/// sets Error to a message naming the bad value.
std::optional<Directive> resolveDirective(const llvm::Function &F,
                                          const llvm::MachineLoop &L,
                                          std::string &Error);

} // namespace pingpong
#endif
