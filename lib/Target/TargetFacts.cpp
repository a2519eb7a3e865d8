//===- TargetFacts.cpp - what the plugin knows about each target ----------===//
#include "pingpong/Target/TargetFacts.h"

namespace pingpong {
namespace target {

static constexpr TargetFacts Supported[] = {Gfx942, Gfx950};

llvm::ArrayRef<TargetFacts> supportedTargets() { return Supported; }

const TargetFacts *factsFor(llvm::StringRef CPU) {
  for (const TargetFacts &T : Supported)
    if (CPU == T.CPU)
      return &T;
  return nullptr;
}

std::string supportedCPUList() {
  std::string S;
  for (size_t I = 0; I < std::size(Supported); ++I) {
    if (I)
      S += I + 1 == std::size(Supported) ? " and " : ", ";
    S += Supported[I].CPU;
  }
  return S;
}

} // namespace target
} // namespace pingpong
