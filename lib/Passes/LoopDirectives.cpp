//===- LoopDirectives.cpp - keep !llvm.loop directives for the MIR pass --===//
//
// An IR pass placed right after CodeGenPrepare, before AMDGPU's structurizer
// rewrites loop branches (and drops !llvm.loop with them): it records each
// loop's ID by header block for the machine pass of the same function.
//
// It also turns the HIP/C++ annotation
//   __attribute__((annotate("amdgpu-pingpong=<mode>")))
// (an entry of @llvm.global.annotations) into the function attribute
// "amdgpu-pingpong"="<mode>", so a kernel can be steered without -mllvm.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/Directives.h"
#include "pingpong/Passes/Passes.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/InitializePasses.h"
#include "llvm/Pass.h"

using namespace llvm;
using namespace pingpong;

namespace llvm {
void initializePingpongLoopDirectivesPass(PassRegistry &);
}

static const char AnnotationKey[] = "amdgpu-pingpong";

/// The C string a global.annotations field points at, or "".
static StringRef annotationString(const Constant *C) {
  const auto *GV = dyn_cast_or_null<GlobalVariable>(C ? C->stripPointerCasts() : nullptr);
  if (!GV || !GV->hasInitializer())
    return "";
  if (const auto *A = dyn_cast<ConstantDataArray>(GV->getInitializer()))
    if (A->isCString())
      return A->getAsCString();
  return "";
}

bool pingpong::applyPingpongAnnotation(Function &F) {
  const GlobalVariable *Ann =
      F.getParent()->getGlobalVariable("llvm.global.annotations");
  if (!Ann || !Ann->hasInitializer())
    return false;
  const auto *Entries = dyn_cast<ConstantArray>(Ann->getInitializer());
  if (!Entries)
    return false;
  for (const Use &U : Entries->operands()) {
    const auto *E = dyn_cast<ConstantStruct>(U.get());
    if (!E || E->getNumOperands() < 2 ||
        E->getOperand(0)->stripPointerCasts() != &F)
      continue;
    StringRef Annotation = annotationString(E->getOperand(1));
    // "amdgpu-pingpong", "amdgpu-pingpong=m" and "amdgpu-pingpong = m" are
    // all this plugin's: the latter two are read, the first is an error
    // (ignoring it would leave the kernel on auto without a word).
    auto [Key, Value] = Annotation.split('=');
    if (Key.trim() != AnnotationKey)
      continue;
    StringRef Text = Value.trim();
    bool HasValue = Annotation.contains('=');
    if (!HasValue || !parseMode(Text)) {
      std::string Where;
      if (E->getNumOperands() >= 4)
        if (const auto *Line = dyn_cast<ConstantInt>(E->getOperand(3)))
          Where = (annotationString(E->getOperand(2)) + ":" +
                   Twine(Line->getZExtValue()) + ": ")
                      .str();
      F.getContext().diagnose(DiagnosticInfoGeneric(
          (Where + "amdgpu-pingpong: in function '" + F.getName() +
           "': invalid annotate(\"" + Annotation + "\"): " +
           (HasValue ? "" : "expected annotate(\"amdgpu-pingpong=<mode>\"); ") +
           validModes())
              .str(),
          DS_Error));
      return false;
    }
    // An explicit function attribute is the more specific spelling: kept.
    if (F.hasFnAttribute("amdgpu-pingpong"))
      return false;
    F.addFnAttr("amdgpu-pingpong", Text);
    return true;
  }
  return false;
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
    applyPingpongAnnotation(F);
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
