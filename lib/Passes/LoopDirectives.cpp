//===- LoopDirectives.cpp - keep !llvm.loop directives for the MIR pass --===//
//
// An IR pass placed right after CodeGenPrepare, before AMDGPU's structurizer
// rewrites loop branches (and drops !llvm.loop with them): it records each
// loop's ID by header block for the machine pass of the same function.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/Directives.h"
#include "pingpong/Passes/Passes.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/InitializePasses.h"
#include "llvm/Pass.h"

using namespace llvm;
using namespace pingpong;

namespace llvm {
void initializePingpongLoopDirectivesPass(PassRegistry &);
}

namespace {
class PingpongLoopDirectives : public FunctionPass {
public:
  static char ID;
  PingpongLoopDirectives() : FunctionPass(ID) {}
  StringRef getPassName() const override {
    return "AMDGPU block pingpong loop directives";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<LoopInfoWrapperPass>();
    AU.setPreservesAll();
  }
  bool runOnFunction(Function &F) override {
    SmallVector<std::pair<const BasicBlock *, MDNode *>, 4> IDs;
    LoopInfo &LI = getAnalysis<LoopInfoWrapperPass>().getLoopInfo();
    for (Loop *L : LI.getLoopsInPreorder())
      if (MDNode *ID = L->getLoopID())
        IDs.push_back({L->getHeader(), ID});
    recordLoopIDs(F, IDs);
    return false;
  }
};
} // namespace

char PingpongLoopDirectives::ID = 0;
char &pingpong::PingpongLoopDirectivesPassID = PingpongLoopDirectives::ID;

INITIALIZE_PASS_BEGIN(PingpongLoopDirectives, "amdgpu-pingpong-loop-directives",
                      "AMDGPU block pingpong loop directives (plugin)", false,
                      true)
INITIALIZE_PASS_DEPENDENCY(LoopInfoWrapperPass)
INITIALIZE_PASS_END(PingpongLoopDirectives, "amdgpu-pingpong-loop-directives",
                    "AMDGPU block pingpong loop directives (plugin)", false,
                    true)
