//===- DMALookahead.cpp - LDS DMA copies one more tile ahead -------------===//
//
// An IR pass after CodeGenPrepare (after RotateLoops). A two-stage LDS DMA
// loop (Triton's async copy with two buffers) copies tile i+1 into the other
// buffer at the top of iteration i, after the barrier that ends the reads
// of that buffer: the copy has about one iteration to land, and the loop
// waits for it (vmcnt(0)) at the next iteration's top. On gfx950 that is a
// loaded round trip of 1000-1250 clocks inside every iteration
// (docs/modes.md, "Session 18: the DMA issue point").
//
// This pass issues the copies one iteration earlier: iteration i copies
// tile i+2 into the buffer it has just read (with two buffers, the one the
// copy of tile i+2 used to go to one iteration later), behind the reads,
// an lgkmcnt(0) and a barrier, and the loop-top wait keeps one iteration's
// copies in flight (vmcnt(N) for the N copies of an iteration). Each copy is
// the one the loop would issue one iteration later: its operands are
// evaluated at the next iteration (every header PHI replaced by its value
// from the latch), so the buffer rotation and the K step stay the loop's
// own. The preheader issues what iteration 0 used to (tile 1), the last
// iteration's copy (past the last tile) gets an offset past the buffer's
// range (the hardware reads nothing, as Triton's own prologue masks its
// copies), and the exit waits for every copy (vmcnt(0)) before anything
// after the loop touches LDS. LDS stays two buffers.
//
// Three-stage 4-wave loops (session 21): the loop-top wait is vmcnt(N), one
// iteration's copies in flight, and iteration i copies tile i+2 into the
// third buffer. The same move issues tile i+3 into the buffer iteration i
// has just read, and the wait becomes vmcnt(2N): the copies issued after
// the ones a read needs are then those of the two iterations before.
// 8-wave three-stage loops (session 22) take it where the 8-wave rule says
// their copies bind (three buffers: the round trip and the iteration's
// copies at the L2 share against Triton's one and a half iterations).
//
// Taken only where that argument holds on the IR as it is (8-wave loops
// also where eightWaveRule says the copies bind): one innermost
// single-block loop with a dedicated preheader and one exit; every copy a
// raw buffer copy (llvm.amdgcn.raw.ptr.buffer.load.lds) on a resource of at
// most 2^31 - 1 bytes with no stride and no scalar offset; no LDS stores
// besides the copies; one barrier, before the first LDS read, with one
// explicit vmcnt(0) wait before it (vmcnt(N) for the N copies of an
// iteration at three stages, 4 and 8 waves); operands that need no memory read to
// compute. Everything else is left as it is, with a remark.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/RegPressure.h"
#include "pingpong/Analysis/Throughput.h"
#include "pingpong/Passes/IRLoops.h"
#include "pingpong/Passes/Passes.h"
#include "pingpong/Sync/Waitcnt.h"
#include "pingpong/Target/MFMACycles.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/InitializePasses.h"
#include "llvm/Pass.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;
using namespace pingpong;

#define DEBUG_TYPE "amdgpu-pingpong"

STATISTIC(NumDMALookahead, "LDS DMA loops whose copies were issued one more tile ahead");
STATISTIC(NumEightWaveRefused, "8-wave LDS DMA loops the 8-wave rule left as they were");

namespace llvm {
void initializePingpongDMALookaheadPass(PassRegistry &);
}

static cl::opt<bool> DMALookahead(
    "amdgpu-pingpong-dma-lookahead",
    cl::desc("Issue a two-buffer LDS DMA loop's copies one more tile ahead: "
             "iteration i copies tile i+2 into the buffer it has just read, "
             "behind a barrier, and the loop-top wait keeps one iteration's "
             "copies in flight (default on; docs/modes.md, \"DMA "
             "lookahead\")"),
    cl::init(true));

// 8-wave loops are taken where eightWaveRule admits them: async-two-cluster
// then puts every read in its first memory interval and the copies in the
// second (docs/modes.md, "DMA lookahead at 8 waves").
// Three-stage loops (Triton's num_stages=3: three buffers, the loop-top wait
// keeps one iteration's copies in flight) at 4 waves: the same move, the copy
// of tile i+3 into the buffer iteration i has just read, and the wait keeps
// one more iteration's copies in flight (docs/modes.md, "Session 21: three-
// stage copies a tile further ahead").
static cl::opt<bool> DMALookaheadThreeStage(
    "amdgpu-pingpong-dma-lookahead-three-stage",
    cl::desc("Take 4-wave three-stage LDS DMA loops too (loop-top vmcnt(N) "
             "for the N copies of an iteration): iteration i copies tile i+3 "
             "into the buffer it has just read and the wait becomes "
             "vmcnt(2N) (default on)"),
    cl::init(true));

// Block-scaled GEMMs (session 22): a 4-wave loop whose only loads into
// registers are a dot result's side inputs (the per-K-block scales) is
// taken too; LoadLookahead.cpp then issues those loads an iteration ahead
// (after this pass, on loops this pass marked), and the loop-top wait counts
// them: with S such loads and N copies an iteration, vmcnt((K + 1)(N + S)).
static cl::opt<cl::boolOrDefault> DMALookaheadScales(
    "amdgpu-pingpong-dma-lookahead-scales",
    cl::desc("Take 4-wave LDS DMA loops whose loads into registers only scale "
             "the dot's result (block-scaled GEMMs); their scale loads go an "
             "iteration ahead with the copies (default: where the target has "
             "a loaded round trip, gfx950, as the scale lookahead; =0 off)"));

// Three-stage loops at 8 waves (session 22): the same move where the
// 8-wave rule says the copies bind in Triton's order (one and a half
// iterations to land); async-two-cluster then puts every read in its first
// memory interval and the copies in the second (docs/modes.md, "Session 22:
// 8-wave three-stage copies a tile further ahead").
static cl::opt<bool> DMALookaheadThreeStage8(
    "amdgpu-pingpong-dma-lookahead-three-stage-8w",
    cl::desc("With -amdgpu-pingpong-dma-lookahead-three-stage, take 8-wave "
             "three-stage LDS DMA loops too, where the 8-wave rule admits "
             "them (default on)"),
    cl::init(true));

static cl::list<unsigned> DMALookaheadWaves(
    "amdgpu-pingpong-dma-lookahead-waves", cl::CommaSeparated,
    cl::desc("waves per workgroup of the loops the DMA lookahead takes "
             "(default 4, and 8 where the latency and register rule admits "
             "the loop; naming 8 takes every 8-wave loop)"));

namespace {

bool isRawBufferDMA(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && II->getIntrinsicID() == Intrinsic::amdgcn_raw_ptr_buffer_load_lds;
}

bool isBarrier(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && II->getIntrinsicID() == Intrinsic::amdgcn_s_barrier;
}

const IntrinsicInst *asWaitcnt(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && II->getIntrinsicID() == Intrinsic::amdgcn_s_waitcnt ? II : nullptr;
}

bool isLDSPointer(const Value *V) {
  const auto *PT = dyn_cast<PointerType>(V->getType());
  return PT && PT->getAddressSpace() == 3;
}

/// Reads LDS (a load, or a call reading through an LDS pointer: ds_read_tr
/// and the like), other than a DMA copy.
bool readsLDS(const Instruction &I) {
  if (const auto *LI = dyn_cast<LoadInst>(&I))
    return isLDSPointer(LI->getPointerOperand());
  if (const auto *CB = dyn_cast<CallBase>(&I))
    return !isRawBufferDMA(I) && I.mayReadFromMemory() &&
           llvm::any_of(CB->args(), [](const Use &U) { return isLDSPointer(U.get()); });
  return false;
}

/// Matrix-pipe clocks of an MFMA call (MFMACycles.h's table), 0 if unknown.
/// The table matches machine opcode names; an intrinsic's name carries the
/// same shape and type, and the f8f6f4 operand formats are its cbsz and
/// blgp immediates (0/1 fp8/bf8, 2/3 fp6/bf6, 4 fp4), spelled the way the
/// opcode names spell them.
unsigned mfmaClocks(const CallBase &C, bool Gfx950) {
  const Function *Fn = C.getCalledFunction();
  if (!Fn)
    return 0;
  std::string Name = Fn->getName().str();
  std::replace(Name.begin(), Name.end(), '.', '_');
  if (StringRef(Name).contains("f8f6f4")) {
    if (C.arg_size() < 5)
      return 0;
    auto Fmt = [&](unsigned Arg) -> const char * {
      const auto *CI = dyn_cast<ConstantInt>(C.getArgOperand(Arg));
      if (!CI || CI->getZExtValue() > 4)
        return nullptr;
      static const char *Names[] = {"f8", "f8", "f6", "f6", "f4"};
      return Names[CI->getZExtValue()];
    };
    const char *A = Fmt(3), *B = Fmt(4);
    if (!A || !B)
      return 0;
    Name += std::string("_F8F6F4_") + A + "_" + B;
  }
  return target::mfmaTableCycles(Name, Gfx950);
}

/// Whether an 8-wave loop gains from its copies one tile ahead, from the IR
/// ("" when it does). With two buffers, async-two-cluster can issue a copy
/// earlier only by putting every read of the iteration in its first memory
/// interval (the copies in the second): the copy then has about one and a
/// half iterations to land instead of three quarters of one. That pays
/// where the copy's loaded round trip outlasts those three quarters and the
/// loop is not copy-bound (there the bandwidth binds, and the streaming
/// layout already keeps the copies queued), and only where the reads of a
/// whole iteration fit in registers beside the accumulators.
/// Three buffers (ThreeStage): Triton's order (async-two-cluster's two
/// intervals, the copies of tile i+2 first in the memory interval of
/// iteration i) leaves a copy one iteration and one memory interval: at
/// least the MFMA clocks per SIMD D plus Rd, a wave group's reads on a SIMD
/// pair's port (one wave of the group on each SIMD) and the LDS latency. A
/// group's copies (half the CU's) land the loaded round trip plus their
/// bytes at the CU's L2 share after they issue; what outlasts the window is
/// a stall every iteration. The copies-ahead layout (every read in the first
/// memory interval, the copies in the second) removes it but holds every
/// read in one interval, which faces the other group's dot halves (D/4 each,
/// two waves per SIMD): it costs 2 max(0, Rd - D/4) per iteration. Taken
/// where the stall outweighs that; the other parts are the two-buffer rule's.
std::string eightWaveRule(const Loop &L, const Function &F,
                          const target::TargetFacts &T, unsigned Waves,
                          bool ThreeStage) {
  const bool Gfx950 = T.Id == target::GPU::Gfx950;
  const DataLayout &DL = F.getDataLayout();
  uint64_t MFMAClocks = 0, CopyLaneBytes = 0, ReadDwords = 0, AccDwords = 0;
  auto Dwords = [&](Type *Ty) {
    return unsigned((DL.getTypeSizeInBits(Ty).getFixedValue() + 31) / 32);
  };
  BasicBlock *Body = L.getHeader();
  for (PHINode &PN : Body->phis())
    if (PN.getType()->isFPOrFPVectorTy())
      AccDwords += Dwords(PN.getType());
  for (Instruction &I : *Body) {
    if (isMFMACall(I)) {
      unsigned C = mfmaClocks(cast<CallBase>(I), Gfx950);
      if (!C)
        return "an MFMA the cycle table does not know";
      MFMAClocks += C;
    } else if (isRawBufferDMA(I)) {
      auto *Size = dyn_cast<ConstantInt>(cast<CallBase>(I).getArgOperand(2));
      if (!Size)
        return "a copy of unknown size";
      CopyLaneBytes += Size->getZExtValue();
    } else if (readsLDS(I) && I.getType()->isSized()) {
      ReadDwords += Dwords(I.getType());
    }
  }
  // Per SIMD: the waves sharing it issue their MFMAs one after another.
  MFMAClocks *= std::max(1u, Waves / T.SIMDsPerCU);
  const double CopyClocks =
      double(CopyLaneBytes * T.WaveSize * Waves) / target::l2BytesPerClkPerCU(T);
  if (!T.LoadedRoundTrip)
    return "8 waves: no loaded round trip known for " + std::string(T.CPU);
  if (ThreeStage) {
    const double ReadClocks =
        double(ReadDwords * 4 * T.WaveSize * 2) / T.LDSReadBytesPerClkPerSIMDPair +
        LDSLatencyClocks;
    const double Stall = T.LoadedRoundTrip + CopyClocks / 2 -
                         (double(MFMAClocks) + ReadClocks);
    const double Cost = 2 * std::max(0.0, ReadClocks - double(MFMAClocks) / 4);
    LLVM_DEBUG(dbgs() << "dma-lookahead: three stages, 8 waves: copy stall ~"
                      << Stall << " clocks per iteration in Triton's order, "
                      << "the reads in one interval cost ~" << Cost << "\n");
    if (Stall <= Cost)
      return "8 waves, three stages: no gain over Triton's order (its copies "
             "wait ~" + std::to_string(int(std::max(0.0, Stall))) +
             " clocks per iteration: loaded round trip " +
             std::to_string(T.LoadedRoundTrip) + " + " +
             std::to_string(unsigned(CopyClocks / 2)) +
             " at the L2 share against " + std::to_string(MFMAClocks) +
             " MFMA clocks per SIMD + " + std::to_string(unsigned(ReadClocks)) +
             " of reads; every read in one interval costs ~" +
             std::to_string(unsigned(Cost)) + ")";
  } else if (!target::roundTripOutlastsCopyWindow(T.LoadedRoundTrip, MFMAClocks))
    return "8 waves: the copies already have time to land (" +
           std::to_string(MFMAClocks) + " MFMA clocks per SIMD an iteration, "
           "loaded round trip " + std::to_string(T.LoadedRoundTrip) + ")";
  if (CopyClocks > double(MFMAClocks))
    return "8 waves: copy-bound (" + std::to_string(unsigned(CopyClocks)) +
           " clocks of L2 share an iteration against " +
           std::to_string(MFMAClocks) + " MFMA clocks per SIMD)";
  const unsigned Budget = vectorRegisterBudget(F, T.CPU);
  if (AccDwords + ReadDwords > Budget)
    return "8 waves: an iteration's reads (" + std::to_string(ReadDwords) +
           " registers) and the accumulators (" + std::to_string(AccDwords) +
           ") exceed the " + std::to_string(Budget) + "-register budget";
  return "";
}

/// A load of global memory into registers (plain or buffer).
bool isGlobalLoad(const Instruction &I) {
  if (const auto *LI = dyn_cast<LoadInst>(&I))
    return LI->getPointerAddressSpace() != 3;
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II || !II->getCalledFunction() || isLDSDMACall(I))
    return false;
  StringRef N = II->getCalledFunction()->getName();
  return N.starts_with("llvm.amdgcn.raw.ptr.buffer.load") ||
         N.starts_with("llvm.amdgcn.struct.ptr.buffer.load") ||
         N.starts_with("llvm.amdgcn.raw.buffer.load") ||
         N.starts_with("llvm.amdgcn.struct.buffer.load") ||
         N.starts_with("llvm.amdgcn.global.load");
}

bool writesLDS(const Instruction &I) {
  if (const auto *SI = dyn_cast<StoreInst>(&I))
    return isLDSPointer(SI->getPointerOperand());
  if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I))
    return true; // conservatively: any address space
  if (const auto *CB = dyn_cast<CallBase>(&I))
    return !isRawBufferDMA(I) && I.mayWriteToMemory() &&
           llvm::any_of(CB->args(), [](const Use &U) { return isLDSPointer(U.get()); });
  return false;
}

class PingpongDMALookahead : public FunctionPass {
public:
  static char ID;
  PingpongDMALookahead() : FunctionPass(ID) {}
  StringRef getPassName() const override {
    return "AMDGPU block pingpong LDS DMA lookahead";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<LoopInfoWrapperPass>();
    AU.addRequired<UniformityInfoWrapperPass>();
    AU.addPreserved<LoopInfoWrapperPass>();
    AU.addPreserved<DominatorTreeWrapperPass>();
  }
  bool runOnFunction(Function &F) override;

private:
  /// Why L is not transformed ("" when it was).
  std::string tryLoop(Loop &L, unsigned &Copies, unsigned &TopVm,
                      const target::TargetFacts *Rule, unsigned Waves,
                      bool TakeScales, const UniformityInfo &UI,
                      unsigned &ScaleLoads, bool &RuleRefused);
};

/// Rule: where set, the 8-wave rule must admit the loop too (checked after
/// every other condition, before anything changes).
std::string PingpongDMALookahead::tryLoop(Loop &L, unsigned &Copies,
                                          unsigned &TopVm,
                                          const target::TargetFacts *Rule,
                                          unsigned Waves, bool TakeScales,
                                          const UniformityInfo &UI,
                                          unsigned &ScaleLoads,
                                          bool &RuleRefused) {
  BasicBlock *Body = L.getHeader();
  BasicBlock *Pre = L.getLoopPreheader();
  BasicBlock *Exit = L.getExitBlock();
  if (L.getNumBlocks() != 1 || !Pre || !Exit)
    return "the loop is not one block with a preheader and one exit";

  auto *Br = dyn_cast<BranchInst>(Body->getTerminator());
  if (!Br || !Br->isConditional())
    return "the loop does not end in a conditional branch";
  const bool ContinueIfTrue = Br->getSuccessor(0) == Body;

  SmallVector<IntrinsicInst *, 16> DMAs;
  Instruction *LastRead = nullptr, *FirstRead = nullptr;
  unsigned Barriers = 0;
  IntrinsicInst *TopWait = nullptr;
  for (Instruction &I : *Body) {
    if (isRawBufferDMA(I)) {
      DMAs.push_back(cast<IntrinsicInst>(&I));
      continue;
    }
    if (isLDSDMACall(I))
      return "an LDS DMA other than a raw buffer copy";
    // Global data of this iteration in registers keeps its own round trip
    // inside the iteration: the copies are not what binds there. A dot
    // result's side input (a scale) goes an iteration ahead too
    // (LoadLookahead.cpp, on the loops marked below).
    if (isGlobalLoad(I)) {
      Instruction *LastUse = nullptr;
      if (!TakeScales || Waves != 4 ||
          !feedsDotResultOnly(L, &I, LastUse))
        return "global loads into registers beside the copies";
      // Counted in the wait only where it is a vector memory load for sure
      // (a divergent value); a uniform one may become an s_load (lgkmcnt),
      // and leaving a VMEM load out only makes the wait wait longer.
      ScaleLoads += UI.isDivergent(&I);
      continue;
    }
    if (writesLDS(I))
      return "LDS stores besides the DMA copies";
    if (readsLDS(I)) {
      LastRead = &I;
      if (!FirstRead)
        FirstRead = &I;
    }
    if (isBarrier(I)) {
      if (FirstRead)
        return "a barrier after the first LDS read";
      if (!TopWait)
        return "the loop-top barrier comes before the vmcnt wait";
      ++Barriers;
    }
    if (const IntrinsicInst *W = asWaitcnt(I)) {
      auto *Imm = dyn_cast<ConstantInt>(W->getArgOperand(0));
      if (!Imm)
        return "an s_waitcnt with a variable count";
      Waitcnt D = Waitcnt::decodeGfx9(uint16_t(Imm->getZExtValue()));
      if (D.waitsOnVm()) {
        if (FirstRead || TopWait)
          return "vmcnt waits other than one vmcnt(0) before the first LDS read";
        TopWait = const_cast<IntrinsicInst *>(W);
        TopVm = D.Vm;
      }
    }
  }
  if (DMAs.empty())
    return "no LDS DMA";
  if (Barriers != 1 || !TopWait || !FirstRead)
    return "no loop-top vmcnt(0) and barrier before the LDS reads";
  if (DMAs.size() >= Waitcnt::MaxVm)
    return "more copies per iteration than vmcnt counts";
  // The loop-top wait keeps K iterations' copies in flight: K = 0 for two
  // buffers, 1 for three (vmcnt(N), N copies an iteration; 4 waves only).
  // The copies issued after the ones this iteration reads are then K + 1
  // iterations' (the moved copies of the K + 1 iterations before), so
  // vmcnt((K + 1) N) keeps the wait sufficient with any VMEM after them.
  if (TopVm % DMAs.size() || TopVm / DMAs.size() > 1 ||
      (TopVm && (!DMALookaheadThreeStage ||
                 (Waves != 4 && (Waves != 8 || !DMALookaheadThreeStage8)))))
    return "vmcnt waits other than one vmcnt(0) before the first LDS read";
  // K + 1 iterations' VMEM after the copies a read needs: (K + 1)(N + S).
  const unsigned NewVm =
      (TopVm / DMAs.size() + 1) * (DMAs.size() + ScaleLoads);
  if (NewVm >= Waitcnt::MaxVm)
    return "more copies in flight than vmcnt counts";
  for (IntrinsicInst *D : DMAs) {
    auto *SOff = dyn_cast<ConstantInt>(D->getArgOperand(4));
    auto *Imm = dyn_cast<ConstantInt>(D->getArgOperand(5));
    if (!SOff || !SOff->isZero() || !Imm || Imm->getZExtValue() >= 4096)
      return "a copy with a scalar offset";
    if (L.contains(dyn_cast<Instruction>(D->getArgOperand(0))))
      return "a copy whose buffer resource is computed in the loop";
    if (std::string W = whyNotMaskable(D->getArgOperand(0)); !W.empty())
      return "a copy that cannot be masked past the last tile: " + W;
  }
  if (Rule)
    if (std::string W = eightWaveRule(L, *Body->getParent(), *Rule, Waves,
                                      /*ThreeStage=*/TopVm != 0);
        !W.empty()) {
      ++NumEightWaveRefused;
      RuleRefused = true;
      return W;
    }
  // The copies go right after the last LDS read.
  Instruction *IP = LastRead->getNextNode();

  // Every operand at the next iteration and at iteration 0, and whether the
  // loop runs another iteration, known here already: checked before
  // changing anything.
  IterationValues At(L, ".ahead");
  for (IntrinsicInst *D : DMAs)
    for (Value *Op : D->args())
      if (!At.computable(Op, IterationValues::Next) ||
          !At.computable(Op, IterationValues::First))
        return "a copy operand computed from memory or not available";
  if (!At.computable(Br->getCondition(), IterationValues::This))
    return "the exit test needs memory or is not computable before the copies";
  struct Plan {
    IntrinsicInst *DMA;
    SmallVector<Value *, 8> NextOps, FirstOps;
  };
  SmallVector<Plan, 16> Plans;
  for (IntrinsicInst *D : DMAs) {
    Plan P{D, {}, {}};
    for (Value *Op : D->args()) {
      P.NextOps.push_back(At.get(Op, IterationValues::Next, IP));
      P.FirstOps.push_back(
          At.get(Op, IterationValues::First, Pre->getTerminator()));
    }
    Plans.push_back(std::move(P));
  }
  Value *Test = At.get(Br->getCondition(), IterationValues::This, IP);
  IRBuilder<> B(IP);
  Value *Cont = ContinueIfTrue ? Test : B.CreateNot(Test, "dma.continue");

  // This iteration's reads of the buffer are done everywhere before a copy
  // may overwrite it.
  LLVMContext &Ctx = Body->getContext();
  Module *M = Body->getModule();
  Function *WaitFn = Intrinsic::getOrInsertDeclaration(M, Intrinsic::amdgcn_s_waitcnt);
  Function *BarrierFn = Intrinsic::getOrInsertDeclaration(M, Intrinsic::amdgcn_s_barrier);
  Type *I32 = Type::getInt32Ty(Ctx);
  B.CreateCall(WaitFn, ConstantInt::get(I32, Waitcnt::lgkm(0).encodeGfx9()));
  B.CreateCall(BarrierFn);
  for (Plan &P : Plans) {
    SmallVector<Value *, 8> Ops = P.NextOps;
    Ops[3] = B.CreateSelect(Cont, Ops[3], ConstantInt::get(I32, OutOfRangeOffset, /*IsSigned=*/true), "dma.ahead.offset");
    CallInst *C = B.CreateCall(P.DMA->getCalledFunction(), Ops);
    C->copyMetadata(*P.DMA);
    C->setTailCall(P.DMA->isTailCall());
  }
  IRBuilder<> PB(Pre->getTerminator());
  for (Plan &P : Plans) {
    CallInst *C = PB.CreateCall(P.DMA->getCalledFunction(), P.FirstOps);
    C->copyMetadata(*P.DMA);
  }
  // Iteration 0 at three stages: after tile 0's copies the prologue issues
  // only (K + 1) N copies and the S first scale loads, fewer than the
  // (K + 1)(N + S) the loop-top wait leaves in flight; wait for tile 0 here,
  // before the load lookahead's first scale loads (two stages: N + S, enough).
  if (ScaleLoads && TopVm)
    PB.CreateCall(WaitFn,
                  ConstantInt::get(I32, Waitcnt::vm(TopVm + DMAs.size()).encodeGfx9()));
  // One iteration's copies stay in flight at the loop top (with the scale
  // loads issued after them); all are done before the code after the loop
  // touches LDS.
  Copies = Plans.size();
  auto *TopImm = cast<ConstantInt>(TopWait->getArgOperand(0));
  Waitcnt Top = Waitcnt::decodeGfx9(uint16_t(TopImm->getZExtValue()));
  Top.Vm = NewVm;
  TopWait->setArgOperand(0, ConstantInt::get(I32, Top.encodeGfx9()));
  TopWait->setMetadata(DMAAheadMD, MDNode::get(Ctx, {}));
  IRBuilder<> EB(&*Exit->getFirstInsertionPt());
  EB.CreateCall(WaitFn, ConstantInt::get(I32, Waitcnt::vm(0).encodeGfx9()));
  for (Plan &P : Plans) {
    SmallVector<Value *, 8> Ops(P.DMA->args());
    P.DMA->eraseFromParent();
    for (Value *Op : Ops)
      RecursivelyDeleteTriviallyDeadInstructions(Op);
  }
  return "";
}

bool PingpongDMALookahead::runOnFunction(Function &F) {
  if (!DMALookahead || functionSaysOff(F))
    return false;
  StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
  if (!target::factsFor(CPU)) // the gfx9 waitcnt encoding
    return false;
  // The scale lookahead's own default (LoadLookahead.cpp): where the target
  // has a loaded round trip.
  const bool TakeScales =
      DMALookaheadScales == cl::BOU_TRUE ||
      (DMALookaheadScales == cl::BOU_UNSET &&
       target::factsFor(CPU)->LoadedRoundTrip);
  LoopInfo &LI = getAnalysis<LoopInfoWrapperPass>().getLoopInfo();
  const UniformityInfo &UI =
      getAnalysis<UniformityInfoWrapperPass>().getUniformityInfo();
  OptimizationRemarkEmitter ORE(&F);
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!L->isInnermost() || loopSaysOff(*L) || !loopHas(*L, isMFMACall))
      continue;
    if (!replaceScheduleRequested() && loopHas(*L, isAuthorScheduleCall))
      continue;
    if (!loopHas(*L, isRawBufferDMA))
      continue;
    // Not candidates (no remark): wave counts other than 4 and 8 (8 only
    // where eightWaveRule admits the loop, with a remark where it does not);
    // attention, whose second dot's tile would wait for the first dot's
    // reads (docs/modes.md, "DMA lookahead").
    const unsigned Waves = wavesPerWorkgroup(F);
    const bool ByRule = DMALookaheadWaves.empty() && Waves == 8;
    const bool WavesTaken = DMALookaheadWaves.empty()
                                ? Waves == 4 || Waves == 8
                                : llvm::is_contained(DMALookaheadWaves, Waves);
    if (!WavesTaken || hasChainedDots(*L)) {
      LLVM_DEBUG(dbgs() << "dma-lookahead: " << F.getName()
                        << ": not a single-dot loop of the taken wave counts\n");
      continue;
    }
    unsigned Copies = 0, TopVm = 0, ScaleLoads = 0;
    bool RuleRefused = false;
    std::string Why = tryLoop(*L, Copies, TopVm,
                              ByRule ? target::factsFor(CPU) : nullptr, Waves,
                              TakeScales, UI, ScaleLoads, RuleRefused);
    const DebugLoc Loc = L->getStartLoc();
    if (!Why.empty()) {
      LLVM_DEBUG(dbgs() << "dma-lookahead: " << F.getName() << ": " << Why << "\n");
      // An 8-wave loop of another shape (attention, three stages, ...) is
      // no candidate: a remark only where the 8-wave rule refused it.
      if (ByRule && !RuleRefused)
        continue;
      ORE.emit([&]() {
        return OptimizationRemarkMissed(DEBUG_TYPE, "DMALookahead", Loc, L->getHeader())
               << "loop in " << ore::NV("Function", F.getName())
               << ": LDS DMA copies not moved a tile ahead: " << Why;
      });
      continue;
    }
    ++NumDMALookahead;
    Changed = true;
    ORE.emit([&]() {
      OptimizationRemark R(DEBUG_TYPE, "DMALookahead", Loc, L->getHeader());
      R << "loop in " << ore::NV("Function", F.getName())
             << ": LDS DMA copies issued one more tile ahead ("
             << ore::NV("Copies", Copies)
             << " per iteration into the buffer just read, behind a barrier; "
                "loop-top wait vmcnt("
             << ore::NV("WasInFlight", TopVm) << ") -> vmcnt("
             << ore::NV("InFlight",
                        (TopVm / Copies + 1) * (Copies + ScaleLoads))
             << ")";
      if (ScaleLoads)
        R << "; " << ore::NV("ScaleLoads", ScaleLoads)
          << " scale loads counted in it, to be issued an iteration ahead "
             "by the load lookahead";
      R << ")";
      return R;
    });
  }
  return Changed;
}

} // namespace

char PingpongDMALookahead::ID = 0;
char &pingpong::PingpongDMALookaheadPassID = PingpongDMALookahead::ID;

INITIALIZE_PASS_BEGIN(PingpongDMALookahead, "amdgpu-pingpong-dma-ahead",
                      "AMDGPU block pingpong LDS DMA lookahead (plugin)", false,
                      false)
INITIALIZE_PASS_DEPENDENCY(LoopInfoWrapperPass)
INITIALIZE_PASS_DEPENDENCY(UniformityInfoWrapperPass)
INITIALIZE_PASS_END(PingpongDMALookahead, "amdgpu-pingpong-dma-ahead",
                    "AMDGPU block pingpong LDS DMA lookahead (plugin)", false,
                    false)
