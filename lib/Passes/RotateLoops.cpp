//===- RotateLoops.cpp - bottom-tested MFMA loops for the machine passes ---===//
//
// An IR pass right after CodeGenPrepare, before AMDGPU's structurizer. The
// machine passes schedule single-block loops. A loop whose exit test sits in
// its header (a "while" loop) reaches them as a header block, a body block
// and the structurizer's flow blocks. LoopRotate turns such loops into
// bottom-tested ones in the middle-end, but only up to a header of 16
// instructions (-rotation-max-header-size): Triton's four-stage attention
// loops keep one pointer increment per buffered row in the header (16 adds
// plus the compare), so they come out of Triton's own pipeline unrotated.
//
// This pass rotates exactly those loops again, with LLVM's own LoopRotation
// utility: innermost loops that hold an MFMA, whose header is exiting and
// holds nothing but cheap speculatable arithmetic (copied once before the
// loop as the guard), and whose latch is not exiting. Everything else is
// left as it is.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/Directives.h"
#include "pingpong/Passes/IRLoops.h"
#include "pingpong/Passes/Passes.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/SimplifyQuery.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/InitializePasses.h"
#include "llvm/Pass.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/LoopRotationUtils.h"

using namespace llvm;
using namespace pingpong;

#define DEBUG_TYPE "amdgpu-pingpong"

namespace llvm {
void initializePingpongRotateLoopsPass(PassRegistry &);
}

static cl::opt<bool> RotateLoops(
    "amdgpu-pingpong-rotate-loops",
    cl::desc("Rotate MFMA loops whose exit test is in a header of cheap "
             "arithmetic (e.g. Triton's four-stage attention) into "
             "bottom-tested single-block loops the pingpong modes can "
             "schedule (default on)"),
    cl::init(true));

static cl::opt<unsigned> RotateMaxHeader(
    "amdgpu-pingpong-rotate-max-header",
    cl::desc("Most instructions a header may hold for "
             "-amdgpu-pingpong-rotate-loops (copied once before the loop; "
             "PHIs and vector packing not counted)"),
    cl::init(64));

namespace {

/// Why L is not a loop this pass rotates, or "" when it is. The count of
/// header instructions that cost something to copy is returned in HeaderSize.
std::string whyNot(const Loop &L, unsigned &HeaderSize) {
  HeaderSize = 0;
  if (!L.isInnermost())
    return "not innermost";
  if (!loopHas(L, isMFMACall))
    return "no MFMA";
  if (!replaceScheduleRequested() && loopHas(L, isAuthorScheduleCall))
    return "the loop carries its author's schedule (kept)";
  BasicBlock *Header = L.getHeader();
  BasicBlock *Latch = L.getLoopLatch();
  if (!L.getLoopPreheader() || !Latch || Latch == Header)
    return "not a while loop with a preheader and one latch";
  if (!L.isLoopExiting(Header) || L.isLoopExiting(Latch))
    return "already bottom-tested";
  for (const Instruction &I : *Header) {
    if (isa<PHINode>(I) || I.isTerminator() || I.isDebugOrPseudoInst())
      continue;
    // The copy before the loop runs once more than the header did: only
    // side-effect-free arithmetic is safe and cheap to duplicate.
    if (I.mayReadOrWriteMemory() || I.mayHaveSideEffects() ||
        !isSafeToSpeculativelyExecute(&I))
      return "the header does more than arithmetic";
    // Vector packing (AMDGPU's CodeGenPrepare splits large PHIs and
    // rebuilds them with insertelement) is register naming, not work.
    if (!isa<InsertElementInst, ExtractElementInst, BitCastInst, FreezeInst>(I))
      ++HeaderSize;
  }
  if (HeaderSize > RotateMaxHeader)
    return "header of " + std::to_string(HeaderSize) + " instructions";
  return "";
}

class PingpongRotateLoops : public FunctionPass {
public:
  static char ID;
  PingpongRotateLoops() : FunctionPass(ID) {}
  StringRef getPassName() const override {
    return "AMDGPU block pingpong loop rotation";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<LoopInfoWrapperPass>();
    AU.addRequired<DominatorTreeWrapperPass>();
    AU.addRequired<AssumptionCacheTracker>();
    AU.addRequired<TargetTransformInfoWrapperPass>();
  }
  bool runOnFunction(Function &F) override {
    if (!RotateLoops || functionSaysOff(F))
      return false;
    LoopInfo &LI = getAnalysis<LoopInfoWrapperPass>().getLoopInfo();
    SmallVector<std::pair<Loop *, unsigned>, 2> ToRotate;
    OptimizationRemarkEmitter ORE(&F);
    for (Loop *L : LI.getLoopsInPreorder()) {
      unsigned HeaderSize = 0;
      if (loopSaysOff(*L))
        continue;
      const std::string Why = whyNot(*L, HeaderSize);
      if (Why.empty()) {
        ToRotate.push_back({L, HeaderSize});
        continue;
      }
      // Only a top-tested MFMA loop is worth a word: the others were never
      // candidates.
      if (L->isInnermost() && L->isLoopExiting(L->getHeader()) &&
          L->getLoopLatch() != L->getHeader() && Why != "no MFMA" &&
          Why != "already bottom-tested")
        ORE.emit([&]() {
          return OptimizationRemarkMissed(DEBUG_TYPE, "NotRotated",
                                          L->getStartLoc(), L->getHeader())
                 << "loop in " << ore::NV("Function", F.getName())
                 << " with its exit test in the header not rotated: " << Why;
        });
    }
    if (ToRotate.empty())
      return false;
    DominatorTree &DT = getAnalysis<DominatorTreeWrapperPass>().getDomTree();
    AssumptionCache &AC =
        getAnalysis<AssumptionCacheTracker>().getAssumptionCache(F);
    const TargetTransformInfo &TTI =
        getAnalysis<TargetTransformInfoWrapperPass>().getTTI(F);
    const SimplifyQuery SQ(F.getDataLayout(), &DT, &AC);
    bool Changed = false;
    for (const auto &Entry : ToRotate) {
      Loop *L = Entry.first;
      const unsigned HeaderSize = Entry.second;
      const DebugLoc Loc = L->getStartLoc();
      BasicBlock *Header = L->getHeader();
      MDNode *LoopID = L->getLoopID();
      // RotationOnly=false: the rotated latch is merged into the body, so
      // the machine loop is one block.
      if (!LoopRotation(L, &LI, &TTI, &AC, &DT, /*SE=*/nullptr,
                        /*MSSAU=*/nullptr, SQ, /*RotationOnly=*/false,
                        /*Threshold=*/~0u, /*IsUtilMode=*/false)) {
        ORE.emit([&]() {
          return OptimizationRemarkMissed(DEBUG_TYPE, "NotRotated", Loc,
                                          Header)
                 << "loop in " << ore::NV("Function", F.getName())
                 << " with its exit test in the header: LLVM's loop "
                    "rotation declined it; the machine loop keeps the "
                    "header and body blocks";
        });
        continue;
      }
      // Directives (!llvm.loop) move with the latch branch.
      if (LoopID && L->getLoopID() != LoopID)
        L->setLoopID(LoopID);
      Changed = true;
      ORE.emit([&]() {
        return OptimizationRemark(DEBUG_TYPE, "Rotated", Loc, L->getHeader())
               << "loop in " << ore::NV("Function", F.getName())
               << " rotated: its exit test moved from the header to the "
                  "latch ("
               << ore::NV("Copied", HeaderSize)
               << " header instructions copied before the loop as its guard), "
                  "so the body reaches the machine passes as one block";
      });
    }
    return Changed;
  }
};
} // namespace

char PingpongRotateLoops::ID = 0;
char &pingpong::PingpongRotateLoopsPassID = PingpongRotateLoops::ID;

INITIALIZE_PASS_BEGIN(PingpongRotateLoops, "amdgpu-pingpong-loop-rotate",
                      "AMDGPU block pingpong loop rotation (plugin)", false,
                      false)
INITIALIZE_PASS_DEPENDENCY(LoopInfoWrapperPass)
INITIALIZE_PASS_DEPENDENCY(DominatorTreeWrapperPass)
INITIALIZE_PASS_DEPENDENCY(AssumptionCacheTracker)
INITIALIZE_PASS_DEPENDENCY(TargetTransformInfoWrapperPass)
INITIALIZE_PASS_END(PingpongRotateLoops, "amdgpu-pingpong-loop-rotate",
                    "AMDGPU block pingpong loop rotation (plugin)", false,
                    false)
