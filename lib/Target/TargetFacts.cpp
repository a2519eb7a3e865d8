//===- TargetFacts.cpp - what the plugin knows about each target ----------===//
#include "pingpong/Target/TargetFacts.h"

namespace pingpong {
namespace target {

std::string supportedCPUList() {
  llvm::ArrayRef<TargetFacts> All = supportedTargets();
  std::string S;
  for (size_t I = 0; I < All.size(); ++I) {
    if (I)
      S += I + 1 == All.size() ? " and " : ", ";
    S += All[I].CPU;
  }
  return S;
}

} // namespace target
} // namespace pingpong
