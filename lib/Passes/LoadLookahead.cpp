//===- LoadLookahead.cpp - register-staged tiles loaded one iteration ahead ===//
//
// An IR pass after CodeGenPrepare (with RotateLoops.cpp), opt-in with
// -amdgpu-pingpong-load-lookahead. A register-staged GEMM loop loads tile
// i+1 into registers in iteration i and writes it to LDS at the bottom of
// the same iteration: the whole global round trip must fit between the load
// and its LDS write, inside one iteration (docs/cycle-model.md, "loaded
// round trip"). This pass issues each such load one iteration earlier: in
// iteration i, right after the LDS writes of the tile loaded in iteration
// i-1, it loads the tile iteration i+1 writes. A header PHI carries the
// registers across the backedge; the preheader loads iteration 0's tile.
// The load then has a whole iteration in flight wherever the schedule puts
// the writes, and reuses the registers the writes just read (no extra
// registers when the load stays after the writes; DepGraph.cpp keeps it
// there).
//
// The load of the last iteration would read past the tile: its offset is
// masked with the loop-continue condition, `select cont, off, 0x80000000`.
// That is valid only where an offset of 0x80000000 is out of the buffer's
// range and reads nothing: the buffer resource must have num_records <=
// 0x7FFFFFFF and a stride of 0, and the kernel itself must already rely on
// the same masking on that resource (Triton's masked prologue loads,
// `select i1 %c, i32 %off, i32 -2147483648`). Without that proof the load
// is left as it is.
//
// Taken: raw.ptr.buffer.load whose every use is an LDS store in the loop,
// whose offset is side-effect-free arithmetic of header PHIs and loop
// invariants, on a loop-invariant resource, in a single-block innermost
// MFMA loop with a dedicated preheader that writes no memory but LDS.
//
// Result-side loads (-amdgpu-pingpong-scale-lookahead): a global or buffer
// load whose value reaches only VALU that meets an MFMA result (block-scaled
// fp8: acc += dot(a, b) * sa[k] * sb[k]; the machine model's side load of a
// dot's result, OperandSources.cpp) waits its whole round trip inside the
// iteration that issues it. It goes one iteration ahead the same way,
// issued after its last use (the registers it refills are free there). Its
// last load needs no mask proof: on the last iteration it reloads the
// address this iteration's original load read (`select %last, %cur,
// %next`), an address the original program loads too.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/Directives.h"
#include "pingpong/Analysis/RegPressure.h"
#include "pingpong/Passes/IRLoops.h"
#include "pingpong/Passes/Passes.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/InitializePasses.h"
#include "llvm/Pass.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;
using namespace pingpong;

#define DEBUG_TYPE "amdgpu-pingpong"

STATISTIC(NumLookaheadLoads, "Buffer loads issued one iteration ahead");
STATISTIC(NumLookaheadLoops, "Loops whose staged loads were issued ahead");
STATISTIC(NumLookaheadScaleLoads,
          "Result-side (scale) loads issued one iteration ahead");

namespace llvm {
void initializePingpongLoadLookaheadPass(PassRegistry &);
}

static cl::opt<cl::boolOrDefault> LoadLookahead(
    "amdgpu-pingpong-load-lookahead",
    cl::desc("Issue the register-staged global loads of MFMA loops one "
             "iteration ahead (masked on the last iteration), so the global "
             "round trip has a whole iteration (default: on where the target "
             "has a loaded round trip, gfx950; =1 on every target, =0 off)"));

static cl::opt<cl::boolOrDefault> ScaleLookahead(
    "amdgpu-pingpong-scale-lookahead",
    cl::desc("Issue the global loads whose values only scale an MFMA "
             "result (block-scaled GEMMs' scale vectors) one iteration ahead "
             "(the last iteration reloads its own address; default: where "
             "the load lookahead is on; =1 on every target, =0 off)"));

static cl::opt<bool> CountAddresses(
    "amdgpu-pingpong-lookahead-count-addresses", cl::Hidden, cl::init(true),
    cl::desc("The load lookahead's register estimate counts each load's "
             "next-iteration address (a per-lane offset or pointer) as "
             "carried through the body, as LLVM computes it at the body's "
             "top (AMDGPUPingpong plugin)"));

static cl::opt<bool> AfterInterleavedWrites(
    "amdgpu-pingpong-lookahead-after-interleaved-writes", cl::init(true),
    cl::Hidden,
    cl::desc("load lookahead: where the LDS writes of two staged loads "
             "interleave (halves of two tiles, which instruction selection "
             "pairs into one ds_write2), issue both next-iteration loads "
             "after the last of those writes (default on; docs/modes.md, "
             "session 25: loads ahead)"));

static cl::opt<bool> ExchangeNotAhead(
    "amdgpu-pingpong-lookahead-skip-exchange", cl::init(true), cl::Hidden,
    cl::desc("load lookahead: leave alone loops that write an MFMA result, "
             "combined with rows loaded from global memory, to LDS in the "
             "same iteration (attention backward exchanging P^T and dS^T "
             "through LDS), as it leaves chained dots (default on; "
             "docs/modes.md, session 24: directdot)"));

namespace {

bool isBufferLoad(const Value *V) {
  const auto *II = dyn_cast<IntrinsicInst>(V);
  return II && II->getIntrinsicID() == Intrinsic::amdgcn_raw_ptr_buffer_load;
}

bool isLDSStore(const User *U) {
  const auto *SI = dyn_cast<StoreInst>(U);
  return SI && SI->getPointerAddressSpace() == 3 && !SI->isVolatile();
}

struct Staged {
  /// A raw.ptr.buffer.load, or (result-side only) a simple global load.
  Instruction *Load;
  /// The LDS stores of a register-staged load; empty for a result-side one.
  SmallVector<StoreInst *, 2> Stores;
  /// Result-side: the last instruction of the body that reads the value.
  Instruction *LastUse = nullptr;
  bool resultSide() const { return Stores.empty(); }
  /// The operand that is the load's address (voffset or pointer).
  unsigned addressOperand() const { return isa<LoadInst>(Load) ? 0 : 1; }
};

unsigned dwords(const Type *T, const DataLayout &DL) {
  return (DL.getTypeSizeInBits(const_cast<Type *>(T)).getFixedValue() + 31) /
         32;
}

/// Per staged load, the last LDS write its next-iteration load must follow:
/// its own last write, or, where the writes of several loads interleave
/// (the first of one load's writes before the last of another's), the last
/// write of that whole group. Instruction selection pairs interleaved
/// writes of two tiles' halves into one ds_write2 (heldout11's int8 B: X.lo
/// with Y.lo, X.hi with Y.hi); a load between the pair's halves keeps its
/// PHI's old value live past the new definition, so the coalescer leaves a
/// latch copy that waits for the load every iteration (tuning
/// mmw8a16_f16_128x128x64_w4 gfx950: 2788 -> 1689 cycles, docs/modes.md).
/// Loads whose writes stand alone keep their place: the earliest issue.
SmallVector<Instruction *, 8> stagedLoadPoints(ArrayRef<Staged> Loads) {
  SmallVector<Instruction *, 8> After(Loads.size(), nullptr);
  if (!AfterInterleavedWrites)
    return After;
  auto Before = [](const Instruction *X, const Instruction *Y) {
    return X->comesBefore(Y);
  };
  struct Range {
    StoreInst *First, *Last;
    unsigned Load;
  };
  SmallVector<Range, 8> Ranges;
  for (unsigned I = 0; I < Loads.size(); ++I) {
    ArrayRef<StoreInst *> St = Loads[I].Stores;
    Range R{St.front(), St.front(), I};
    for (StoreInst *SI : St) {
      if (Before(SI, R.First))
        R.First = SI;
      if (Before(R.Last, SI))
        R.Last = SI;
    }
    Ranges.push_back(R);
  }
  llvm::sort(Ranges, [&](const Range &X, const Range &Y) {
    return Before(X.First, Y.First);
  });
  for (unsigned B = 0; B < Ranges.size();) {
    unsigned E = B + 1;
    StoreInst *GroupLast = Ranges[B].Last;
    while (E < Ranges.size() && Before(Ranges[E].First, GroupLast)) {
      if (Before(GroupLast, Ranges[E].Last))
        GroupLast = Ranges[E].Last;
      ++E;
    }
    for (unsigned I = B; I < E; ++I)
      After[Ranges[I].Load] = GroupLast;
    B = E;
  }
  return After;
}

class PingpongLoadLookahead : public FunctionPass {
public:
  static char ID;
  PingpongLoadLookahead() : FunctionPass(ID) {}
  StringRef getPassName() const override {
    return "AMDGPU block pingpong load lookahead";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<LoopInfoWrapperPass>();
    AU.addRequired<UniformityInfoWrapperPass>();
    AU.addRequired<TargetPassConfig>();
  }
  bool runOnFunction(Function &F) override;

private:
  /// Why L is not a loop this pass edits, or "".
  std::string whyNotLoop(const Loop &L) const;
  /// The staged loads of L, or why there are none it may move.
  /// The staged loads of L (Out), or why there are none it may move; the
  /// loads of a dot result's side inputs (Scales), or why not (WhyScales;
  /// "" with none at all).
  std::string collect(Loop &L, IterationValues &At, SmallVectorImpl<Staged> &Out,
                      SmallVectorImpl<Staged> &Scales,
                      std::string &WhyScales) const;
  void rewrite(Loop &L, IterationValues &At, Staged &S,
               Instruction *AfterStores) const;
};

/// Session 24 (directdot): an MFMA result of the iteration written to LDS in
/// the same iteration (through arithmetic, not a PHI) combined with rows
/// loaded from global memory: the LDS exchange of attention backward's P^T
/// and dS^T between two dot groups (P^T = exp2(K Q^T scale - lse), dS^T =
/// P^T (V dO^T - delta)), which hasChainedDots, following SSA values only,
/// does not see. To the machine passes these are chained dots whose
/// inter-dot work reads direct loads (DotGroups.cpp's exchanges,
/// InterDotLoads.cpp), and the chained-dot orders place the loop's loads in
/// the iteration that writes them; moved ahead, a global load depended on the
/// exchange and no order took the loop, while LLVM's order spilled more
/// (tuning bwd_f16_64x64x128_w8 gfx950: 212 -> 228 bytes of scratch, and
/// 15270 -> 20233 cycles per iteration with Triton's code-generation
/// options). An exchange of the dot results alone (fp8 attention's P, tuning
/// afp8_fp8_128x128x64_w8 gfx950: the loads ahead 2567 against 2698 for
/// LLVM's order, which no chained-dot order beats) keeps the lookahead.
/// The value V stores to LDS: an MFMA result of the iteration (not through a
/// PHI) combined with data a global load brings (through PHIs too: a row
/// prefetched an iteration ahead).
static bool dotResultWithRow(const Loop &L, const Value *V) {
  struct Item {
    const Value *V;
    bool ViaPhi;
  };
  SmallVector<Item, 32> Work{{V, false}};
  SmallPtrSet<const Value *, 32> Seen;
  bool MeetsDot = false, MeetsRow = false;
  while (!Work.empty() && !(MeetsDot && MeetsRow)) {
    Item It = Work.pop_back_val();
    const auto *I = dyn_cast<Instruction>(It.V);
    if (!I || !L.contains(I) || !Seen.insert(I).second)
      continue;
    if (Seen.size() > 1024)
      return false;
    if (isMFMACall(*I)) {
      MeetsDot |= !It.ViaPhi;
      continue;
    }
    if (const auto *LI = dyn_cast<LoadInst>(I)) {
      MeetsRow |= LI->getPointerAddressSpace() == 1;
      continue;
    }
    if (isBufferLoad(I)) {
      MeetsRow = true;
      continue;
    }
    if (I->mayReadFromMemory() || (isa<CallBase>(I) && !isa<IntrinsicInst>(I)))
      continue;
    const bool Phi = isa<PHINode>(I);
    for (const Value *Op : I->operands())
      Work.push_back({Op, It.ViaPhi || Phi});
  }
  return MeetsDot && MeetsRow;
}

bool rowsExchangedWithDotResults(const Loop &L) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      if (isLDSStore(&I) &&
          dotResultWithRow(L, cast<StoreInst>(I).getValueOperand()))
        return true;
  return false;
}

/// DMALookahead.cpp moved L's copies a tile ahead, its loop-top wait
/// counting the scale loads after them (DMAAheadMD).
bool copiesAhead(const Loop &L) {
  return llvm::any_of(*L.getHeader(), [](const Instruction &I) {
    return I.getMetadata(DMAAheadMD) != nullptr;
  });
}

std::string PingpongLoadLookahead::whyNotLoop(const Loop &L) const {
  if (!L.isInnermost() || !loopHas(L, isMFMACall))
    return "not an innermost MFMA loop";
  if (!replaceScheduleRequested() && loopHas(L, isAuthorScheduleCall))
    return "the loop carries its author's schedule (kept)";
  BasicBlock *Header = L.getHeader();
  if (L.getNumBlocks() != 1 || L.getLoopLatch() != Header ||
      !L.getLoopPreheader())
    return "not a single-block loop with a preheader";
  auto *Br = dyn_cast<BranchInst>(Header->getTerminator());
  if (!Br || !Br->isConditional())
    return "the latch does not end in a conditional branch";
  // Measured: the chained-dot orders refuse loops whose loads cross the
  // backedge (docs/modes.md, "Session 19: load lookahead").
  if (hasChainedDots(L))
    return "chained dots (attention): the chained-dot orders place their "
           "loads in the iteration that writes them";
  if (ExchangeNotAhead && rowsExchangedWithDotResults(L))
    return "chained dots (attention) whose dot results cross LDS between "
           "the dots with rows loaded from global memory: the chained-dot "
           "orders place their loads in the iteration that writes them";
  for (const Instruction &I : *Header) {
    if (!I.mayWriteToMemory() || isLDSStore(&I))
      continue;
    if (const auto *II = dyn_cast<IntrinsicInst>(&I)) {
      // The async modes place LDS DMA and its loads by their own plan;
      // where DMALookahead.cpp moved the copies a tile ahead and counted the
      // scale loads in the loop-top wait, those go ahead too (only they).
      StringRef Name = II->getCalledFunction()->getName();
      if (Name.contains(".load.lds") || Name.contains("load.to.lds")) {
        if (copiesAhead(L))
          continue;
        return "the loop copies with LDS DMA (the async modes' own plan)";
      }
      switch (II->getIntrinsicID()) {
      // Barriers and waits order LDS, not the global loads.
      case Intrinsic::amdgcn_s_barrier:
      case Intrinsic::amdgcn_s_waitcnt:
        continue;
      default:
        break;
      }
    }
    // A global store or fence in the loop might order a load moved across
    // an iteration boundary.
    return "the loop writes memory other than LDS";
  }
  return "";
}

std::string PingpongLoadLookahead::collect(Loop &L, IterationValues &At,
                                           SmallVectorImpl<Staged> &Out,
                                           SmallVectorImpl<Staged> &Scales,
                                           std::string &WhyScales) const {
  std::string Why = "no register-staged buffer load (a load whose value "
                    "only feeds LDS stores)";
  WhyScales = "";
  bool Refused = false;
  auto *Br = cast<BranchInst>(L.getHeader()->getTerminator());
  for (Instruction &I : *L.getHeader()) {
    auto *Plain = dyn_cast<LoadInst>(&I);
    const bool Global = Plain && Plain->getPointerAddressSpace() == 1;
    if (!isBufferLoad(&I) && !Global)
      continue;
    Staged S{&I, {}};
    // A global load whose value only scales a dot's result.
    Instruction *LastUse = nullptr;
    if (feedsDotResultOnly(L, &I, LastUse)) {
      S.LastUse = LastUse;
      const auto *Call = dyn_cast<CallInst>(&I);
      const bool InvariantRest =
          Call ? L.isLoopInvariant(Call->getArgOperand(0)) &&
                     L.isLoopInvariant(Call->getArgOperand(2)) &&
                     isa<ConstantInt>(Call->getArgOperand(3)) &&
                     !cast<ConstantInt>(Call->getArgOperand(3))->getValue()[31]
               : Plain->isSimple();
      if (!InvariantRest)
        WhyScales = "a load of a dot result's side input is volatile or has "
                    "a resource or scalar offset that changes in the loop";
      else if (!At.computable(I.getOperand(S.addressOperand()),
                              IterationValues::First) ||
               !At.computable(I.getOperand(S.addressOperand()),
                              IterationValues::Next) ||
               !At.computable(I.getOperand(S.addressOperand()),
                              IterationValues::This) ||
               !At.computable(Br->getCondition(), IterationValues::This))
        WhyScales = "a load of a dot result's side input has an address (or "
                    "the loop test) that is not plain arithmetic of the "
                    "loop's PHIs";
      if (WhyScales.empty())
        Scales.push_back(S);
      continue;
    }
    if (!isBufferLoad(&I))
      continue; // not staged; the machine model judges it
    auto *Load = cast<CallInst>(&I);
    // Its value reaches LDS stores only, through bitcasts and one-source
    // shuffles (gfx942's Triton IR stores the tile as two <4 x half>).
    bool OnlyStores = !Load->use_empty();
    SmallVector<Value *, 4> Work{Load};
    while (!Work.empty() && OnlyStores) {
      Value *V = Work.pop_back_val();
      for (User *U : V->users()) {
        auto *SI = dyn_cast<StoreInst>(U);
        auto *SV = dyn_cast<ShuffleVectorInst>(U);
        const bool Rearranges =
            isa<BitCastInst>(U) ||
            (SV && SV->getOperand(0) == V && isa<PoisonValue>(SV->getOperand(1)));
        if (Rearranges && cast<Instruction>(U)->getParent() == L.getHeader())
          Work.push_back(U);
        else if (isLDSStore(U) && SI->getValueOperand() == V &&
                 SI->getParent() == L.getHeader())
          S.Stores.push_back(SI);
        else
          OnlyStores = false;
      }
    }
    // A load into registers the loop computes with (a side input, a direct
    // operand) is placed by its mode's own plan, next to the staged ones;
    // measured: moving the staged loads around it loses (docs/modes.md).
    if (!OnlyStores) {
      Refused = true;
      Why = "a global load feeds the loop's arithmetic directly (a side "
            "input or a direct operand)";
      continue;
    }
    if (Refused)
      continue;
    const auto *SOff = dyn_cast<ConstantInt>(Load->getArgOperand(2));
    const auto *Aux = dyn_cast<ConstantInt>(Load->getArgOperand(3));
    Value *Rsrc = Load->getArgOperand(0);
    // A volatile access (aux bit 31) keeps its place; a nonzero soffset
    // could carry the masked offset back into range.
    if (!SOff || !SOff->isZero() || !Aux || Aux->getValue()[31])
      Why = "a staged load has a scalar offset or is volatile";
    else if (!L.isLoopInvariant(Rsrc))
      Why = "a staged load's buffer resource changes in the loop";
    else if (std::string W = whyNotMaskable(Rsrc); !W.empty())
      Why = "a staged load cannot be masked on the last iteration: " + W;
    else if (!At.computable(Load->getArgOperand(1), IterationValues::First) ||
             !At.computable(Load->getArgOperand(1), IterationValues::Next) ||
             !At.computable(Br->getCondition(), IterationValues::This))
      Why = "a staged load's offset or the loop test is not plain arithmetic "
            "of the loop's PHIs";
    else {
      Out.push_back(S);
      continue;
    }
    Refused = true;
  }
  if (!WhyScales.empty())
    Scales.clear();
  if (Refused)
    Out.clear();
  return Out.empty() ? Why : "";
}

void PingpongLoadLookahead::rewrite(Loop &L, IterationValues &At, Staged &S,
                                    Instruction *AfterStores) const {
  BasicBlock *Header = L.getHeader();
  BasicBlock *Pre = L.getLoopPreheader();
  Instruction *Load = S.Load;
  const unsigned AddrOp = S.addressOperand();
  Value *Off = Load->getOperand(AddrOp);

  // Iteration 0's tile, in the preheader (the loop runs at least once from
  // there: no mask).
  Instruction *PreEnd = Pre->getTerminator();
  Instruction *First = Load->clone();
  First->setOperand(AddrOp, At.get(Off, IterationValues::First, PreEnd));
  First->insertBefore(PreEnd->getIterator());
  First->setName(Load->getName() + ".la0");

  // The next iteration's tile, after the writes of this one: the writes
  // free the registers the load fills (AfterStores: stagedLoadPoints). A
  // result-side value: after its last reader.
  Instruction *Last = S.resultSide() ? S.LastUse : AfterStores;
  for (StoreInst *SI : S.Stores)
    if (!Last || Last->comesBefore(SI))
      Last = SI;
  Instruction *IP = Last->getNextNode();
  auto *Br = cast<BranchInst>(Header->getTerminator());
  Value *Test = At.get(Br->getCondition(), IterationValues::This, IP);
  Value *NextOff = At.get(Off, IterationValues::Next, IP);
  // Staged: an offset that reads nothing (whyNotMaskable proved it). A
  // result-side load: this iteration's own address, which the original
  // loop read here too.
  Value *LastOff = S.resultSide()
                       ? At.get(Off, IterationValues::This, IP)
                       : ConstantInt::get(Off->getType(), OutOfRangeOffset,
                                          /*IsSigned=*/true);
  IRBuilder<> B(IP);
  Value *Masked = Br->getSuccessor(0) == Header
                      ? B.CreateSelect(Test, NextOff, LastOff)
                      : B.CreateSelect(Test, LastOff, NextOff);
  Instruction *NextLoad = Load->clone();
  NextLoad->setOperand(AddrOp, Masked);
  NextLoad->insertBefore(IP->getIterator());
  NextLoad->setName(Load->getName() + ".la");

  PHINode *PN = PHINode::Create(Load->getType(), 2, Load->getName() + ".ahead");
  PN->insertBefore(Header->getFirstNonPHIIt());
  PN->addIncoming(First, Pre);
  PN->addIncoming(NextLoad, Header);
  Load->replaceAllUsesWith(PN);
  Load->eraseFromParent();
}

bool PingpongLoadLookahead::runOnFunction(Function &F) {
  if (functionSaysOff(F))
    return false;
  StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
  if (CPU.empty())
    CPU = getAnalysis<TargetPassConfig>().getTM<TargetMachine>().getTargetCPU();
  // Measured (docs/modes.md, "Session 19: load lookahead"): a win where
  // loads take a loaded round trip of ~1000 clocks (gfx950); on gfx942's
  // short one the two-cluster loops at their MFMA floor lose 5 %.
  const target::TargetFacts *Facts = target::factsFor(CPU);
  const bool LongRoundTrip = Facts && Facts->LoadedRoundTrip;
  const bool TakeStaged = LoadLookahead == cl::BOU_TRUE ||
                          (LoadLookahead == cl::BOU_UNSET && LongRoundTrip);
  // A dot result's side inputs: where the staged loads go (docs/modes.md,
  // "Session 20: scale loads ahead").
  const bool TakeScales = ScaleLookahead == cl::BOU_TRUE ||
                          (ScaleLookahead == cl::BOU_UNSET && TakeStaged);
  if (!TakeStaged && !TakeScales)
    return false;
  LoopInfo &LI = getAnalysis<LoopInfoWrapperPass>().getLoopInfo();
  const UniformityInfo &UI =
      getAnalysis<UniformityInfoWrapperPass>().getUniformityInfo();
  const unsigned Budget = vectorRegisterBudget(F, CPU);
  OptimizationRemarkEmitter ORE(&F);
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (loopSaysOff(*L))
      continue;
    // An analysis remark: the loop is scheduled as before, nothing is lost.
    auto Missed = [&](const Twine &Why) {
      ORE.emit([&]() {
        return OptimizationRemarkAnalysis(DEBUG_TYPE, "NoLookahead",
                                        L->getStartLoc(), L->getHeader())
               << "loop in " << ore::NV("Function", F.getName())
               << ": staged loads not issued ahead: " << Why.str();
      });
    };
    if (std::string Why = whyNotLoop(*L); !Why.empty()) {
      if (Why != "not an innermost MFMA loop")
        Missed(Why);
      continue;
    }
    IterationValues At(*L, ".la");
    SmallVector<Staged, 8> Loads, Scales;
    std::string WhyScales;
    std::string Why = collect(*L, At, Loads, Scales, WhyScales);
    const bool HasScales = !Scales.empty() || !WhyScales.empty();
    if (HasScales && (!TakeScales || !WhyScales.empty())) {
      // A side input left in its iteration: the staged loads stay too
      // (a load the loop computes with is placed by its mode's own plan,
      // next to the staged ones; measured: moving the staged loads around
      // it loses, docs/modes.md).
      Missed(!WhyScales.empty()
                 ? Twine(WhyScales)
                 : Twine("a global load feeds the loop's arithmetic directly "
                         "(a side input or a direct operand)"));
      continue;
    }
    if (!Why.empty() && Scales.empty()) {
      Missed(Why);
      continue;
    }
    if (!TakeStaged || !Why.empty() || copiesAhead(*L))
      Loads.clear(); // the scales alone (an LDS DMA loop: only them)
    if (Loads.empty() && Scales.empty())
      continue;
    // The staged registers now live through the whole body: at most their
    // width more at the busiest point.
    const DataLayout &DL = F.getDataLayout();
    SmallVector<Staged, 16> Carried(Loads.begin(), Loads.end());
    Carried.append(Scales.begin(), Scales.end());
    unsigned Extra = 0;
    for (const Staged &S : Carried)
      Extra += dwords(S.Load->getType(), DL);
    SmallVector<const Instruction *, 16> CarriedLoads;
    SmallVector<const Value *, 16> CarriedAddresses;
    for (const Staged &S : Carried) {
      CarriedLoads.push_back(S.Load);
      if (CountAddresses)
        CarriedAddresses.push_back(S.Load->getOperand(S.addressOperand()));
    }
    const unsigned Peak =
        estimatePeakVGPRs(*L, UI, CarriedLoads, CarriedAddresses);
    const unsigned Addresses = carriedAddressDwords(*L, UI, CarriedAddresses);
    LLVM_DEBUG(dbgs() << "load lookahead: " << Loads.size() << " staged + "
                      << Scales.size() << " result-side loads, " << Extra
                      << " VGPRs carried, " << Addresses
                      << " of addresses, peak " << Peak << ", budget "
                      << Budget << "\n");
    if (Peak > Budget) {
      Missed("the staged registers live through the whole body (" +
             Twine(Extra) + " of them" +
             (Addresses ? ", and " + Twine(Addresses) +
                              " of their next-iteration addresses, which "
                              "LLVM computes at the body's top"
                        : Twine()) +
             ": " + Twine(Peak) +
             " vector registers estimated at the busiest point) would "
             "exceed the budget of " +
             Twine(Budget));
      continue;
    }
    SmallVector<Instruction *, 8> After = stagedLoadPoints(Loads);
    for (unsigned I = 0; I < Loads.size(); ++I)
      rewrite(*L, At, Loads[I], After[I]);
    for (Staged &S : Scales)
      rewrite(*L, At, S, nullptr);
    NumLookaheadLoads += Loads.size();
    NumLookaheadScaleLoads += Scales.size();
    ++NumLookaheadLoops;
    Changed = true;
    ORE.emit([&]() {
      OptimizationRemark R(DEBUG_TYPE, "Lookahead", L->getStartLoc(),
                           L->getHeader());
      R << "loop in " << ore::NV("Function", F.getName()) << ": "
        << ore::NV("Loads", unsigned(Loads.size()))
        << " register-staged loads ";
      if (!Scales.empty())
        R << "and " << ore::NV("ScaleLoads", unsigned(Scales.size()))
          << " loads of a dot result's side inputs (scales; the last "
             "iteration reloads its own address) ";
      R << "issued one iteration ahead (masked on the last iteration; "
        << ore::NV("Registers", Extra)
        << " vector registers carried across the backedge, estimated peak "
        << ore::NV("Peak", Peak) << " of "
        << ore::NV("Budget", Budget) << ")";
      return R;
    });
  }
  return Changed;
}

} // namespace

char PingpongLoadLookahead::ID = 0;
char &pingpong::PingpongLoadLookaheadPassID = PingpongLoadLookahead::ID;

INITIALIZE_PASS_BEGIN(PingpongLoadLookahead, "amdgpu-pingpong-lookahead-loads",
                      "AMDGPU block pingpong load lookahead (plugin)", false,
                      false)
INITIALIZE_PASS_DEPENDENCY(LoopInfoWrapperPass)
INITIALIZE_PASS_DEPENDENCY(UniformityInfoWrapperPass)
INITIALIZE_PASS_DEPENDENCY(TargetPassConfig)
INITIALIZE_PASS_END(PingpongLoadLookahead, "amdgpu-pingpong-lookahead-loads",
                    "AMDGPU block pingpong load lookahead (plugin)", false,
                    false)
