//===- RematAfterLoop.cpp - values used after a loop, computed again there ===//
//
// Session 26 (onewaveattn, issue 28). An IR pass after CodeGenPrepare, with
// -amdgpu-pingpong-single-wave-eight-parts only: on gfx942 4-wave attention
// kernels whose attention loop needs more vector registers than two waves
// per SIMD allow in LLVM's order (the kernels that order's eight-part
// two-wave form is for, SingleWave.cpp).
//
// A per-lane value computed before the loop, not used in it and used again
// after it (Triton's epilogue offsets and the causal or window kernel's
// second loop share the prologue's index arithmetic: LLVM's CSE made one
// value of both) is live across the loop: a vector register at every point
// of it, the loop's peak included. Where the order held to two waves per
// SIMD lands at exactly 256 VGPRs inside the loop, those values are what
// the allocator puts in AGPRs around it, and the kernel's 256 + 1..3
// registers leave one wave per SIMD (tuning bp_bf16_128x64x128 window
// gfx942: 256 + 3, docs/modes.md, "Session 26: onewaveattn").
//
// Such a value is computed again at the loop's exit, for the uses the exit
// dominates, where it is cheap VALU arithmetic (no memory, no call but the
// workitem id) whose operands are constants, uniform values (scalar
// registers), values live across the loop anyway (used in it) or values
// computed again the same way: no vector register is added across the loop
// and the value's own is gone. A few VALU instructions after the loop.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/RegPressure.h"
#include "pingpong/Passes/IRLoops.h"
#include "pingpong/Passes/Passes.h"
#include "pingpong/Schedule/ClusterPlan.h"
#include "pingpong/Schedule/ModeChoice.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/InitializePasses.h"
#include "llvm/Pass.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace pingpong;

#define DEBUG_TYPE "amdgpu-pingpong"

STATISTIC(NumRematAfterLoop, "Values live across a 4-wave attention loop, "
                             "unused in it, computed again at its exit");

namespace llvm {
void initializePingpongRematAfterLoopPass(PassRegistry &);
}

static cl::opt<bool> RematAfterLoop(
    "amdgpu-pingpong-values-after-loop", cl::init(true), cl::Hidden,
    cl::desc("With -amdgpu-pingpong-single-wave-eight-parts: values live "
             "across a gfx942 4-wave attention loop past two waves' "
             "registers, used only after it, computed again at its exit"));

namespace {

bool workitemId(const Value *V) {
  const auto *II = dyn_cast<IntrinsicInst>(V);
  return II && (II->getIntrinsicID() == Intrinsic::amdgcn_workitem_id_x ||
                II->getIntrinsicID() == Intrinsic::amdgcn_workitem_id_y ||
                II->getIntrinsicID() == Intrinsic::amdgcn_workitem_id_z);
}

/// Cheap per-lane arithmetic that may run again anywhere its operands are
/// (address arithmetic included: a GEP reads no memory).
bool cheap(const Instruction &I) {
  return isa<BinaryOperator>(I) || isa<CastInst>(I) ||
         isa<GetElementPtrInst>(I) ||
         (isa<SelectInst>(I) && !I.getType()->isVectorTy());
}

class PingpongRematAfterLoop : public FunctionPass {
public:
  static char ID;
  PingpongRematAfterLoop() : FunctionPass(ID) {}
  StringRef getPassName() const override {
    return "AMDGPU block pingpong: values used after a loop computed there";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<LoopInfoWrapperPass>();
    AU.addRequired<DominatorTreeWrapperPass>();
    AU.addRequired<UniformityInfoWrapperPass>();
  }

  bool runOnFunction(Function &F) override {
    if (!RematAfterLoop || !singleWaveEightPartsRequested() ||
        functionSaysOff(F) ||
        F.getCallingConv() != CallingConv::AMDGPU_KERNEL ||
        F.getFnAttribute("target-cpu").getValueAsString() !=
            target::Gfx942.CPU ||
        wavesPerWorkgroup(F) != target::WavesPerGroup)
      return false;
    LoopInfo &LI = getAnalysis<LoopInfoWrapperPass>().getLoopInfo();
    DominatorTree &DT = getAnalysis<DominatorTreeWrapperPass>().getDomTree();
    const UniformityInfo &UI =
        getAnalysis<UniformityInfoWrapperPass>().getUniformityInfo();
    const unsigned Budget = vectorRegisterBudget(F, target::Gfx942.CPU);
    bool Changed = false;
    for (Loop *L : LI.getLoopsInPreorder()) {
      if (!L->isInnermost() || loopSaysOff(*L) || !loopHas(*L, isMFMACall) ||
          loopHas(*L, isLDSDMACall) || !hasChainedDots(*L) ||
          L->getNumBlocks() != 1 || !L->getLoopPreheader())
        continue;
      // Only where LLVM's order is past the budget by no more than the
      // chained-dot estimate's error: further past, no order of the loop
      // comes within the few registers this frees of two waves per SIMD
      // (single-wave's two-wave orders land 25-30 under this IR estimate on
      // the tuning loops, 280-284 -> 250-255), and LLVM's order, kept there
      // at one wave per SIMD, would only get the code after the loop
      // changed (0.999-1.004 of llc-22 on the loops measured past it, IR
      // 299-386: docs/modes.md, "Session 26: onewaveattn").
      BasicBlock *Exit = L->getExitBlock();
      const unsigned Peak = estimatePeakVGPRs(*L, UI, {});
      if (!Exit || Peak <= Budget || Peak > Budget + chainedDotEstimateError())
        continue;
      Changed |= remat(*L, *Exit, DT, UI);
    }
    return Changed;
  }

private:
  /// Whether V is live across L anyway: defined before it and used in it.
  static bool usedIn(const Value *V, const Loop &L) {
    return any_of(V->users(), [&](const User *U) {
      const auto *I = dyn_cast<Instruction>(U);
      return I && L.contains(I);
    });
  }

  static bool identityType(const Instruction &I) {
    const unsigned Bits = I.getType()->getPrimitiveSizeInBits().getFixedValue();
    return (I.getType()->isIntegerTy() || I.getType()->isPointerTy()) &&
           (I.getType()->isPointerTy() || Bits == 32 || Bits == 64);
  }

  /// The root's value at the exit, through an empty inline asm: the values
  /// computed again from it are not the same expressions as the originals
  /// to MachineCSE, which would otherwise take the originals back (and
  /// their registers across the loop). At most a v_mov.
  static Instruction *identity(Instruction &Root, BasicBlock &Exit,
                               DenseMap<Instruction *, Instruction *> &Roots) {
    if (Instruction *Id = Roots.lookup(&Root))
      return Id;
    Type *T = Root.getType();
    InlineAsm *Asm =
        InlineAsm::get(FunctionType::get(T, {T}, false),
                       "; amdgpu-pingpong: value after the loop", "=v,0",
                       /*hasSideEffects=*/false);
    auto *Id = CallInst::Create(Asm, {&Root}, Root.getName() + ".exit");
    Id->insertBefore(Exit, Exit.getFirstInsertionPt());
    Roots[&Root] = Id;
    return Id;
  }

  bool remat(Loop &L, BasicBlock &Exit, DominatorTree &DT,
             const UniformityInfo &UI) {
    BasicBlock *Pre = L.getLoopPreheader();
    // Instructions before the loop, in order (blocks dominating the
    // preheader, in dominator-tree order from the entry).
    SmallVector<Instruction *, 64> Before;
    for (BasicBlock *B = Pre; B; ) {
      SmallVector<Instruction *, 32> Here;
      for (Instruction &I : *B)
        Here.push_back(&I);
      Before.insert(Before.begin(), Here.begin(), Here.end());
      DomTreeNode *N = DT.getNode(B)->getIDom();
      B = N ? N->getBlock() : nullptr;
    }
    DenseMap<Instruction *, Instruction *> Again;
    DenseMap<Instruction *, Instruction *> Roots;
    BasicBlock::iterator At = Exit.getFirstInsertionPt();
    unsigned Count = 0;
    for (Instruction *I : Before) {
      if (!cheap(*I) || usedIn(I, L) || !UI.isDivergent(I) ||
          I->getType()->isIntegerTy(1))
        continue;
      bool Ok = true;
      for (Value *Op : I->operands()) {
        auto *OI = dyn_cast<Instruction>(Op);
        if (isa<Constant>(Op) || isa<Argument>(Op) ||
            (OI && (Again.count(OI) || !UI.isDivergent(OI))))
          continue;
        // A per-lane root: live across the loop anyway (used in it), or the
        // workitem id (an input register); through an identity at the exit.
        if (OI && (usedIn(OI, L) || workitemId(OI)) && identityType(*OI))
          continue;
        Ok = false;
        break;
      }
      if (!Ok)
        continue;
      Instruction *C = I->clone();
      C->setName(I->getName() + ".after");
      for (Use &U : C->operands()) {
        auto *OI = dyn_cast<Instruction>(U.get());
        if (!OI)
          continue;
        if (Instruction *CI = Again.lookup(OI))
          U.set(CI);
        else if (UI.isDivergent(OI))
          U.set(identity(*OI, Exit, Roots));
      }
      C->insertBefore(Exit, At);
      Again[I] = C;
      // Uses the exit dominates take the value computed there; the
      // original keeps the uses before the loop.
      bool Used = false;
      I->replaceUsesWithIf(C, [&](Use &U) {
        auto *UI2 = dyn_cast<Instruction>(U.getUser());
        if (!UI2 || UI2 == C)
          return false;
        BasicBlock *UB = UI2->getParent();
        if (auto *Phi = dyn_cast<PHINode>(UI2))
          UB = Phi->getIncomingBlock(U);
        bool Dom = DT.dominates(&Exit, UB) && UB != &Exit
                       ? true
                       : UB == &Exit && !isa<PHINode>(UI2);
        Used |= Dom;
        return Dom;
      });
      Count += Used;
    }
    // Clones no use took (their users were not after the loop, or only
    // through other clones that are gone) are deleted.
    bool Erased = true;
    while (Erased) {
      Erased = false;
      for (auto &[I, C] : Again)
        if (C && C->use_empty()) {
          C->eraseFromParent();
          C = nullptr;
          Erased = true;
        }
    }
    for (auto &[R, Id] : Roots)
      if (Id->use_empty())
        Id->eraseFromParent();
    unsigned Kept = 0;
    for (auto &[I, C] : Again)
      Kept += C != nullptr;
    NumRematAfterLoop += Kept;
    LLVM_DEBUG(dbgs() << "amdgpu-pingpong remat-after-loop: " << Kept
                      << " values computed again at the exit of "
                      << L.getHeader()->getName() << "\n");
    return Kept;
  }
};
} // namespace

char PingpongRematAfterLoop::ID = 0;
char &pingpong::PingpongRematAfterLoopPassID = PingpongRematAfterLoop::ID;

INITIALIZE_PASS_BEGIN(PingpongRematAfterLoop,
                      "amdgpu-pingpong-remat-after-loop",
                      "AMDGPU block pingpong remat after loop (plugin)", false,
                      false)
INITIALIZE_PASS_DEPENDENCY(LoopInfoWrapperPass)
INITIALIZE_PASS_DEPENDENCY(DominatorTreeWrapperPass)
INITIALIZE_PASS_DEPENDENCY(UniformityInfoWrapperPass)
INITIALIZE_PASS_END(PingpongRematAfterLoop, "amdgpu-pingpong-remat-after-loop",
                    "AMDGPU block pingpong remat after loop (plugin)", false,
                    false)
