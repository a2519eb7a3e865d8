//===- Directives.h - what the user asked for, per run/kernel/loop -*- C++ -*-===//
//
// Three channels, most specific first when the command line says "auto":
//   !llvm.loop !{!"amdgpu.pingpong", !"<mode>"}  on the loop latch
//   "amdgpu-pingpong"="<mode>"                    function attribute
//   -amdgpu-pingpong=<mode>                       command line (default auto)
// A non-auto command line value overrides both (it "forces" every loop).
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_ANALYSIS_DIRECTIVES_H
#define PINGPONG_ANALYSIS_DIRECTIVES_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace llvm {
class Function;
class MachineLoop;
} // namespace llvm

namespace pingpong {

enum class Mode { Auto, Off, OnePP, TwoPP, FourPP };

const char *modeName(Mode M); // "auto", "off", "one-cluster", ...
std::optional<Mode> parseMode(llvm::StringRef S);

/// Where a directive came from, for remarks.
struct Directive {
  Mode M = Mode::Auto;
  const char *Source = "auto"; // or "command line", "function attribute", "loop metadata"
};

/// Mode set on the command line (the plugin's cl::opt).
Mode commandLineMode();

/// Resolve the directive for one loop. On malformed input returns nullopt and
/// sets Error to a message naming the bad value.
std::optional<Directive> resolveDirective(const llvm::Function &F,
                                          const llvm::MachineLoop &L,
                                          std::string &Error);

} // namespace pingpong
#endif
