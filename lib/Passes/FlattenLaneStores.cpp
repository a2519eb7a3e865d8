//===- FlattenLaneStores.cpp - lane-predicated LDS stores without branches -===//
//
// An IR module pass before AMDGPU's LDS lowering (it may add an LDS
// variable), ahead of the plugin's other IR passes, which, like the machine
// passes, take single-block loops only.
//
// A dot loop that also reduces a tile across warps inside the loop (a
// weight-gradient GEMM summing its right operand's columns, Triton's
// `tl.sum(b, 0)` next to `tl.dot`) stores each warp's partial sums to LDS
// from some lanes only: `if (lane < 16) store`, `if (lane % 4 == 0) store`.
// Each such store is a triangle in the CFG, and the loop, seven blocks where
// its steady state is one, is refused ("loop body has control flow").
//
// Here each triangle whose conditional block holds only LDS stores and
// arithmetic safe to speculate becomes straight-line code: the arithmetic
// runs in every lane, and each store writes, in the lanes the branch skipped,
// to a slot of a new LDS variable that nothing reads:
//
//   store V, (C ? P : Slot)        Slot = @dummy + workitem.id.x * Stride
//
// What the kernel computes is unchanged: the lanes that stored still store V
// at P; the others, which stored nothing, now write bytes of their own (one
// slot per work-item, at most Stride bytes per store) that no instruction
// reads, so no value read anywhere differs and no two work-items write the
// same byte. The slot is a loop invariant (LICM hoists the select when C is
// one too). A branch over a store is what LLVM lowers to an exec-masked
// block; the select of the address costs a v_cndmask where C varies in the
// loop, nothing where it does not.
//
// Only in innermost MFMA loops that become a single block by it (every other
// conditional branch in the loop is the latch's), not turned off by a
// directive, and only where the kernel's LDS, with the new variable, keeps
// the same number of workgroups per CU (every LDS access of known extent;
// Triton's arena, sized by the launch, at both ends of the range its
// accesses give). Each loop it changes, and each it leaves, gets a remark
// that says why.
//
// Off by default (-amdgpu-pingpong-flatten-lane-stores): the loops it makes
// one block are the cross-warp reductions above, whose LDS round trips
// (partials, barrier, per-column sums, barrier, totals) the model knows since
// session 26 (LDSReductions.cpp) but no mode places: the layouts that
// replace the loop's barriers cannot order them, and those that keep them
// measured slower than LLVM's order; on, it would change only loops LLVM
// then orders itself, against the plugin's rule that a loop it does not
// schedule keeps LLVM's output (docs/modes.md, "Session 25: cflow" and
// "Session 26: cflow2", have the numbers of those builds).
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/Directives.h"
#include "pingpong/Passes/IRLoops.h"
#include "pingpong/Passes/LaneStores.h"
#include "pingpong/Passes/Passes.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/InitializePasses.h"
#include "llvm/Pass.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace pingpong;

#define DEBUG_TYPE "amdgpu-pingpong"

STATISTIC(NumFlattenedLoops, "Dot loops made single-block by flattening "
                             "lane-predicated LDS stores");
STATISTIC(NumFlattenedStores, "Lane-predicated LDS stores flattened");

namespace llvm {
void initializePingpongFlattenLaneStoresPass(PassRegistry &);
}

static cl::opt<bool> FlattenLaneStores(
    "amdgpu-pingpong-flatten-lane-stores",
    cl::desc("In MFMA loops whose only control flow is branches over LDS "
             "stores made by some lanes (an in-loop cross-warp reduction), "
             "store in every lane, the skipped lanes to a slot of their own "
             "that nothing reads, so the loop is one block (default off: no "
             "mode places the in-loop reduction yet, and the loop would only "
             "leave LLVM's output for LLVM's order)"),
    cl::init(false));

namespace {

/// The largest slot a work-item gets: per store at most this many bytes.
constexpr uint64_t MaxSlotBytes = 16;
/// The largest dummy variable (work-items x slot).
constexpr uint64_t MaxDummyBytes = 8192;

/// A branch over LDS stores: Head ends in `br C, Then, Join` (or the arms
/// swapped: StoreIf is the value of C under which Then runs), Then's only
/// predecessor is Head and it falls into Join.
struct Triangle {
  BasicBlock *Head = nullptr, *Then = nullptr, *Join = nullptr;
  Value *Cond = nullptr;
  bool StoreIf = true;
  SmallVector<StoreInst *, 8> Stores;
};

/// Why Then cannot run in every lane, or "".
std::string whyNotFlattenable(const Triangle &T) {
  for (Instruction &I : *T.Then) {
    if (I.isTerminator())
      continue;
    if (auto *SI = dyn_cast<StoreInst>(&I)) {
      if (SI->getPointerAddressSpace() != 3 || !SI->isSimple())
        return "a store that is not a plain LDS store";
      continue;
    }
    if (isa<PHINode>(I))
      return "a PHI";
    if (isLDSDMACall(I))
      return "an LDS DMA (its lanes write at M0 + lane x size: a lane the "
             "branch skipped has no address of its own to send elsewhere)";
    if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->isConvergent())
      return "a cross-lane operation (its lanes would change)";
    if (I.mayReadOrWriteMemory() || !isSafeToSpeculativelyExecute(&I))
      return "an instruction that is not safe to run in every lane";
    for (User *U : I.users())
      if (cast<Instruction>(U)->getParent() != T.Then)
        return "a value used after the branch";
  }
  if (!isa<PHINode>(T.Join->begin()))
    return "";
  return "a PHI where the branch joins";
}

/// The triangles of L, or an explanation in Why when L does not become a
/// single block by flattening them all (then nothing is returned).
SmallVector<Triangle, 4> trianglesOf(Loop &L, std::string &Why) {
  SmallVector<Triangle, 4> Out;
  BasicBlock *Latch = L.getLoopLatch();
  if (!Latch || !L.getExitingBlock() || L.getExitingBlock() != Latch) {
    Why = "the loop has no single latch that is its only exit";
    return {};
  }
  SmallPtrSet<BasicBlock *, 8> Thens;
  for (BasicBlock *BB : L.blocks()) {
    if (BB == Latch)
      continue;
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br) {
      Why = "a block ends in a switch or another terminator";
      return {};
    }
    if (Br->isUnconditional())
      continue;
    Triangle T;
    T.Head = BB;
    T.Cond = Br->getCondition();
    for (unsigned S = 0; S < 2; ++S) {
      BasicBlock *Then = Br->getSuccessor(S), *Join = Br->getSuccessor(1 - S);
      auto *ThenBr = dyn_cast<BranchInst>(Then->getTerminator());
      if (Then->getSinglePredecessor() == BB && ThenBr &&
          ThenBr->isUnconditional() && ThenBr->getSuccessor(0) == Join &&
          L.contains(Join) && Join != L.getHeader()) {
        T.Then = Then;
        T.Join = Join;
        T.StoreIf = S == 0;
        break;
      }
    }
    if (!T.Then) {
      Why = "a conditional branch in the loop is not a branch over a block";
      return {};
    }
    for (Instruction &I : *T.Then)
      if (auto *SI = dyn_cast<StoreInst>(&I))
        T.Stores.push_back(SI);
    if (T.Stores.empty()) {
      Why = "a conditional block in the loop stores nothing to LDS";
      return {};
    }
    std::string Not = whyNotFlattenable(T);
    if (!Not.empty()) {
      Why = "a conditional block in the loop holds " + Not;
      return {};
    }
    Thens.insert(T.Then);
    Out.push_back(T);
  }
  // After the rewrite every block but the latch has one successor in the
  // loop: the blocks are a chain from the header to the latch iff each has
  // one predecessor in the loop (the header: the latch).
  for (BasicBlock *BB : L.blocks()) {
    unsigned Preds = 0;
    for (BasicBlock *P : predecessors(BB)) {
      if (!L.contains(P))
        continue;
      // Head -> Join of a triangle goes away.
      bool Removed = any_of(Out, [&](const Triangle &T) {
        return T.Head == P && T.Join == BB;
      });
      Preds += !Removed;
    }
    if (Preds != 1) {
      Why = "the loop's blocks would not form one chain";
      return {};
    }
  }
  if (Out.empty())
    Why = "no branch over LDS stores";
  return Out;
}

class PingpongFlattenLaneStores : public ModulePass {
public:
  static char ID;
  PingpongFlattenLaneStores() : ModulePass(ID) {}
  StringRef getPassName() const override {
    return "AMDGPU block pingpong lane-predicated LDS stores flattening";
  }
  bool runOnModule(Module &M) override {
    if (!FlattenLaneStores)
      return false;
    return forEachKernel(M, [this](Function &F) { return runOnKernel(F); });
  }

private:
  bool runOnKernel(Function &F);
};

bool PingpongFlattenLaneStores::runOnKernel(Function &F) {
  if (functionSaysOff(F))
    return false;
  const target::TargetFacts *TF =
      target::factsFor(F.getFnAttribute("target-cpu").getValueAsString());
  const unsigned Waves = wavesPerWorkgroup(F);
  if (!TF || !Waves)
    return false;

  DominatorTree DT(F);
  LoopInfo LI(DT);
  SmallVector<Loop *, 4> Loops;
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost() && L->getNumBlocks() > 1 && !loopSaysOff(*L) &&
        loopHas(*L, isMFMACall) &&
        (replaceScheduleRequested() || !loopHas(*L, isAuthorScheduleCall)))
      Loops.push_back(L);
  if (Loops.empty())
    return false;

  OptimizationRemarkEmitter ORE(&F);
  auto Missed = [&](Loop *L, const Twine &Why) {
    ORE.emit([&]() {
      return OptimizationRemarkMissed(DEBUG_TYPE, "LaneStoresNotFlattened",
                                      L->getStartLoc(), L->getHeader())
             << "MFMA loop of " << ore::NV("Function", F.getName()) << " ("
             << ore::NV("Blocks", L->getNumBlocks())
             << " blocks) left as it is: " << Why.str();
    });
  };

  struct Plan {
    Loop *L;
    SmallVector<Triangle, 4> Tris;
  };
  SmallVector<Plan, 2> Plans;
  const DataLayout &DL = F.getDataLayout();
  uint64_t Stride = 1;
  for (Loop *L : Loops) {
    std::string Why;
    SmallVector<Triangle, 4> Tris = trianglesOf(*L, Why);
    if (Tris.empty()) {
      Missed(L, Why);
      continue;
    }
    bool Wide = false;
    for (const Triangle &T : Tris)
      for (StoreInst *SI : T.Stores) {
        uint64_t Bytes =
            DL.getTypeStoreSize(SI->getValueOperand()->getType()).getFixedValue();
        Wide |= Bytes > MaxSlotBytes;
        Stride = std::max(Stride, PowerOf2Ceil(Bytes));
      }
    if (Wide) {
      Missed(L, "a predicated store is wider than " + Twine(MaxSlotBytes) +
                    " bytes");
      continue;
    }
    Plans.push_back({L, std::move(Tris)});
  }
  if (Plans.empty())
    return false;

  // The slots: one per work-item of the largest workgroup.
  const uint64_t Items = uint64_t(Waves) * TF->WaveSize;
  const uint64_t Size = alignTo(Items * Stride, 16);
  auto MissAll = [&](const Twine &Why) {
    for (const Plan &P : Plans)
      Missed(P.L, Why);
    return false;
  };
  // The slot index: the work-item id the kernel already reads (a kernel
  // that does not gets no new input from this pass). Triton's kernels are
  // one-dimensional; in a 2-D or 3-D launch work-items of equal x would
  // share a slot, bytes nothing reads.
  const bool ReadsWorkItemX = any_of(instructions(F), [](const Instruction &I) {
    const auto *II = dyn_cast<IntrinsicInst>(&I);
    return II && II->getIntrinsicID() == Intrinsic::amdgcn_workitem_id_x;
  });
  if (!ReadsWorkItemX)
    return MissAll("the kernel does not read its work-item id, which would "
                   "number the lanes' slots");
  if (Size > MaxDummyBytes)
    return MissAll("the lanes' slots would take " + Twine(Size) +
                   " bytes of LDS (more than " + Twine(MaxDummyBytes) + ")");
  std::optional<std::pair<uint64_t, uint64_t>> Used = kernelLDSBytes(F);
  if (!Used)
    return MissAll("the kernel's LDS accesses are not all of known extent, so "
                   "the LDS the lanes' slots would add to is not known");
  // Workgroups per CU by LDS fall with the bytes: the same at both ends of
  // the kernel's range (with the slots at the top one) is the same for any
  // size the launch gives in between.
  const uint64_t UsedLo = Used->first, UsedHi = Used->second;
  const std::string UsedText =
      UsedLo == UsedHi ? std::to_string(UsedHi)
                       : std::to_string(UsedLo) + "-" + std::to_string(UsedHi);
  const uint64_t After = alignTo(UsedHi, 16) + Size;
  const uint64_t CU = TF->LDSBytesPerCU;
  if (After > CU || (UsedLo && CU / UsedLo != CU / After))
    return MissAll("the lanes' slots (" + Twine(Size) +
                   " bytes of LDS) would take the kernel's LDS from " +
                   UsedText + " to " + Twine(After) + " bytes: " +
                   (After > CU ? "past the CU's " + Twine(CU)
                               : Twine("fewer workgroups per CU")));

  LLVMContext &Ctx = F.getContext();
  auto *Ty = ArrayType::get(Type::getInt8Ty(Ctx), Size);
  auto *Dummy = new GlobalVariable(
      *F.getParent(), Ty, /*isConstant=*/false, GlobalValue::InternalLinkage,
      PoisonValue::get(Ty), F.getName() + ".pingpong.lane.slots", nullptr,
      GlobalValue::NotThreadLocal, 3);
  Dummy->setAlignment(Align(16));
  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  Value *Id = EB.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_x, {});
  Value *Slot = EB.CreateGEP(
      EB.getInt8Ty(), Dummy,
      EB.CreateMul(Id, EB.getInt32(unsigned(Stride)), "pingpong.slot.offset",
                   /*HasNUW=*/true, /*HasNSW=*/true),
      "pingpong.lane.slot");

  for (Plan &P : Plans) {
    unsigned Stores = 0;
    for (Triangle &T : P.Tris) {
      for (StoreInst *SI : T.Stores) {
        IRBuilder<> B(SI);
        Value *Ptr = SI->getPointerOperand();
        Value *Sel = T.StoreIf ? B.CreateSelect(T.Cond, Ptr, Slot)
                               : B.CreateSelect(T.Cond, Slot, Ptr);
        Sel->setName("pingpong.lane.addr");
        SI->setOperand(SI->getPointerOperandIndex(), Sel);
        SI->setAlignment(commonAlignment(SI->getAlign(), Stride));
        ++Stores;
      }
      auto *Br = cast<BranchInst>(T.Head->getTerminator());
      BranchInst::Create(T.Then, Br->getIterator());
      Br->eraseFromParent();
    }
    NumFlattenedStores += Stores;
    ++NumFlattenedLoops;
    BasicBlock *Header = P.L->getHeader();
    DebugLoc Loc = P.L->getStartLoc();
    const unsigned Blocks = P.L->getNumBlocks();
    // The chain into one block (the loop info is not kept up to date: it
    // is local to this pass).
    SmallVector<BasicBlock *, 8> Chain;
    for (BasicBlock *BB = Header;;) {
      Chain.push_back(BB);
      BasicBlock *Next = BB->getSingleSuccessor();
      if (!Next || Next == Header)
        break;
      BB = Next;
    }
    for (BasicBlock *BB : drop_begin(Chain))
      MergeBlockIntoPredecessor(BB);
    ORE.emit([&]() {
      return OptimizationRemark(DEBUG_TYPE, "LaneStoresFlattened", Loc, Header)
             << "MFMA loop of " << ore::NV("Function", F.getName())
             << " made one block (" << ore::NV("Blocks", Blocks)
             << " before): " << ore::NV("Stores", Stores)
             << " LDS stores under " << ore::NV("Branches", unsigned(P.Tris.size()))
             << " lane branches now store in every lane, the lanes the branch "
                "skipped to a slot of their own that nothing reads ("
             << ore::NV("SlotBytes", Size) << " bytes of LDS, kernel LDS "
             << UsedText << " -> " << std::to_string(After)
             << " bytes, same workgroups per CU)";
    });
    LLVM_DEBUG(dbgs() << "flatten-lane-stores: " << F.getName() << " loop at "
                      << Header->getName() << ": " << Stores << " stores\n");
  }
  return true;
}

} // namespace

char PingpongFlattenLaneStores::ID = 0;
char &pingpong::PingpongFlattenLaneStoresPassID = PingpongFlattenLaneStores::ID;

INITIALIZE_PASS(PingpongFlattenLaneStores, "amdgpu-pingpong-lane-stores",
                "AMDGPU block pingpong lane-predicated LDS stores (plugin)",
                false, false)
