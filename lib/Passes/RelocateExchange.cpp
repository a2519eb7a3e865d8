//===- RelocateExchange.cpp - an LDS exchange's scratch out of a shared buffer -===//
//
// An IR module pass before AMDGPU's LDS lowering (amdgpu-lower-module-lds),
// which is the last point where a kernel can get an LDS variable of its own.
//
// Triton converts values between two MFMA layouts through LDS inside an
// attention loop (P, and the row rescale alpha, with 32x32 MFMAs at 8 warps:
// store, barrier, load back). Its allocator gives buffers whose lifetimes do
// not overlap the same bytes of its one `global_smem` arena: alpha's 512-byte
// scratch lies inside P's buffer. Within an iteration alpha's write, alpha's
// read, P's write and P's read then depend on each other in turn: four steps
// that no chained-dot layout fits under the asymmetric skew (each step is two
// barrier intervals from the next). With the scratch in an LDS variable of
// its own they are two independent round trips.
//
// What moves (a "region" is the set of LDS accesses through one constant
// base, `getelementptr (i8, @arena, C)`): a region written and read back
// within each iteration of an innermost MFMA loop, every read after a write
// of the same region in the same loop, the stored values computed from the
// iteration's MFMA results, and whose bytes meet another region's that the
// loop also writes and reads back (the allocator's reuse). Only where a
// chained-dot layout exists for the exchange: 8 waves, operands by LDS DMA.
// Only when every LDS access of the kernel has a known extent, so that the
// kernel's LDS with the new variable is known: it must fit the CU and keep
// the same number of workgroups per CU. Every use of the region's base in the
// function moves (the loop's and the epilogue's), nothing else.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/Directives.h"
#include "pingpong/Analysis/IRAddress.h"
#include "pingpong/Passes/IRLoops.h"
#include "pingpong/Passes/LaneStores.h"
#include "pingpong/Passes/Passes.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/InitializePasses.h"
#include "llvm/Pass.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace llvm;
using namespace pingpong;

#define DEBUG_TYPE "amdgpu-pingpong"

namespace llvm {
void initializePingpongRelocateExchangePass(PassRegistry &);
}

static cl::opt<bool> RelocateExchanges(
    "amdgpu-pingpong-relocate-exchanges",
    cl::desc("Move the LDS scratch of an exchange (dot results written to "
             "LDS and read back in the iteration, e.g. Triton's "
             "convert_layout of alpha) out of a buffer it shares bytes with "
             "into an LDS variable of its own, where the chained-dot layout "
             "for exchanges applies (default on)"),
    cl::init(true));

namespace {

constexpr unsigned WaveLanes = 64;

/// An LDS access: through which base, at which bytes relative to it.
struct Access {
  Instruction *I = nullptr;
  GlobalVariable *Arena = nullptr;
  Constant *Key = nullptr; // the constant base: the arena or a GEP into it
  int64_t KeyOff = 0;      // the base's offset in the arena
  int64_t Lo = 0, Hi = 0;  // bytes [Lo, Hi) relative to the base, all lanes
  bool Writes = false, Reads = false;
};

/// A region's base: `getelementptr (..., @arena, constants)`.
bool isConstantBase(const Value *P) {
  auto *GEP = dyn_cast<GEPOperator>(P);
  return GEP && isa<ConstantExpr>(GEP) && GEP->hasAllConstantIndices();
}

/// Address = Key + [Lo, Hi]: constant offsets and the ranges of the
/// variable ones (IntRanges), through GEPs down to a constant base; through
/// a PHI or a select (Triton's rotating buffers) one alternative per base
/// reached. std::nullopt where the address is not of that form or a
/// variable part is not bounded.
using Alternatives = SmallVector<Access, 2>;
std::optional<Alternatives> decompose(Value *P, const DataLayout &DL,
                                      IntRanges &Ranges,
                                      SmallPtrSetImpl<Value *> &Visited,
                                      unsigned Depth = 0) {
  if (Depth > 32)
    return std::nullopt;
  if (auto *GV = dyn_cast<GlobalVariable>(P)) {
    if (GV->getAddressSpace() != 3)
      return std::nullopt;
    Access A;
    A.Arena = GV;
    A.Key = GV;
    return Alternatives{A};
  }
  if (isa<PHINode, SelectInst>(P)) {
    if (!Visited.insert(P).second)
      return Alternatives{}; // a cycle adds no base
    Alternatives Out;
    auto Take = [&](Value *In) {
      std::optional<Alternatives> Sub = decompose(In, DL, Ranges, Visited, Depth + 1);
      if (!Sub)
        return false;
      Out.append(Sub->begin(), Sub->end());
      return true;
    };
    if (auto *Phi = dyn_cast<PHINode>(P)) {
      for (Value *In : Phi->incoming_values())
        if (!Take(In))
          return std::nullopt;
    } else {
      auto *Sel = cast<SelectInst>(P);
      if (!Take(Sel->getTrueValue()) || !Take(Sel->getFalseValue()))
        return std::nullopt;
    }
    return Out;
  }
  auto *GEP = dyn_cast<GEPOperator>(P);
  if (!GEP)
    return std::nullopt;
  if (isConstantBase(GEP)) {
    auto *GV = dyn_cast<GlobalVariable>(GEP->getPointerOperand());
    APInt Off(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
    if (!GV || GV->getAddressSpace() != 3 ||
        !GEP->accumulateConstantOffset(DL, Off))
      return std::nullopt;
    Access A;
    A.Arena = GV;
    A.Key = cast<Constant>(GEP);
    A.KeyOff = Off.getSExtValue();
    return Alternatives{A};
  }
  constexpr uint64_t Big = uint64_t(1) << 20; // beyond any LDS
  int64_t Const = 0, Lo = 0, Hi = 0;
  Value *Base = walkGEPs(
      P, DL, Const,
      [&](const Value *Idx, uint64_t Stride) {
        auto B = Ranges.indexBounds(Idx);
        if (!B || B->second > Big || Stride > Big)
          return false;
        Lo += int64_t(B->first * Stride);
        Hi += int64_t(B->second * Stride);
        return true;
      },
      isConstantBase);
  if (!Base)
    return std::nullopt;
  std::optional<Alternatives> Alts = decompose(Base, DL, Ranges, Visited, Depth + 1);
  if (!Alts)
    return std::nullopt;
  for (Access &A : *Alts) {
    A.Lo += Const + Lo;
    A.Hi += Const + Hi;
  }
  return Alts;
}

/// LDS DMA intrinsics: (..., lds ptr at 1, size at 2, ..., imm offset, aux).
/// The LDS accesses of I (one, or none when I touches no LDS); false when
/// I touches LDS in a way not understood here.
bool ldsAccessOf(Instruction &I, const DataLayout &DL, IntRanges &Ranges,
                 SmallVectorImpl<Access> &Out) {
  auto Add = [&](Value *Ptr, uint64_t Bytes, bool W, bool R,
                 int64_t Extra) -> bool {
    SmallPtrSet<Value *, 8> Visited;
    std::optional<Alternatives> Alts = decompose(Ptr, DL, Ranges, Visited);
    if (!Alts || Alts->empty())
      return false;
    for (Access &A : *Alts) {
      A.I = &I;
      A.Lo += Extra;
      A.Hi += Extra + int64_t(Bytes);
      A.Writes = W;
      A.Reads = R;
      Out.push_back(A);
    }
    return true;
  };
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    if (LI->getPointerAddressSpace() != 3)
      return true;
    return Add(LI->getPointerOperand(),
               DL.getTypeStoreSize(LI->getType()).getFixedValue(), false, true,
               0);
  }
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    if (SI->getPointerAddressSpace() != 3)
      return true;
    return Add(SI->getPointerOperand(),
               DL.getTypeStoreSize(SI->getValueOperand()->getType())
                   .getFixedValue(),
               true, false, 0);
  }
  auto *CB = dyn_cast<CallBase>(&I);
  bool TouchesLDS = false;
  if (CB)
    for (Value *Arg : CB->args())
      TouchesLDS |= Arg->getType()->isPointerTy() &&
                    Arg->getType()->getPointerAddressSpace() == 3;
  if (!TouchesLDS) {
    // Atomics and other memory instructions on LDS are not understood.
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      return RMW->getPointerAddressSpace() != 3;
    if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
      return CX->getPointerAddressSpace() != 3;
    return true;
  }
  if (isLDSDMACall(I) && CB->arg_size() >= 5) {
    auto *Size = dyn_cast<ConstantInt>(CB->getArgOperand(2));
    auto *Imm = dyn_cast<ConstantInt>(CB->getArgOperand(CB->arg_size() - 2));
    if (!Size || !Imm)
      return false;
    // Each lane's bytes land at M0 + offset + lane * size.
    return Add(CB->getArgOperand(1), WaveLanes * Size->getZExtValue(), true,
               false, Imm->getSExtValue());
  }
  // LDS reads by intrinsic (ds_read_tr*): the pointer first, the result's
  // bytes per lane.
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  if (II && II->getCalledFunction() &&
      II->getCalledFunction()->getName().starts_with("llvm.amdgcn.ds.read.") &&
      !I.getType()->isVoidTy())
    return Add(CB->getArgOperand(0),
               DL.getTypeStoreSize(I.getType()).getFixedValue(), false, true,
               0);
  return false;
}

/// V is computed from an MFMA of loop L (through L's instructions).
bool fromMFMA(Value *V, const Loop &L, SmallPtrSetImpl<Value *> &Seen,
              unsigned Depth = 0) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || Depth > 64 || !Seen.insert(I).second)
    return false;
  if (isMFMACall(*I))
    return true;
  if (isa<PHINode>(I))
    return false;
  for (Value *Op : I->operands())
    if (fromMFMA(Op, L, Seen, Depth + 1))
      return true;
  return false;
}

struct Region {
  SmallVector<const Access *, 8> Accesses;
  int64_t Lo = INT64_MAX, Hi = INT64_MIN; // in the arena
};

/// Every read of R is dominated by a write of R in the same loop (or both
/// outside loops): R carries nothing into an iteration.
bool writtenBeforeRead(const Region &R, const DominatorTree &DT,
                       const LoopInfo &LI) {
  for (const Access *Rd : R.Accesses) {
    if (!Rd->Reads)
      continue;
    bool Covered = false;
    for (const Access *W : R.Accesses)
      if (W->Writes && LI.getLoopFor(W->I->getParent()) ==
                           LI.getLoopFor(Rd->I->getParent()) &&
          DT.dominates(W->I, Rd->I))
        Covered = true;
    if (!Covered)
      return false;
  }
  return true;
}

class PingpongRelocateExchange : public ModulePass {
public:
  static char ID;
  PingpongRelocateExchange() : ModulePass(ID) {}
  StringRef getPassName() const override {
    return "AMDGPU block pingpong LDS exchange relocation";
  }
  bool runOnModule(Module &M) override {
    if (!RelocateExchanges)
      return false;
    return forEachKernel(M, [this](Function &F) { return runOnKernel(F); });
  }

private:
  bool runOnKernel(Function &F);
};

bool PingpongRelocateExchange::runOnKernel(Function &F) {
  if (functionSaysOff(F))
    return false;
  // Only where chained-dot may take the loop.
  Mode Cmd = commandLineMode();
  if (Cmd != Mode::Auto && Cmd != Mode::ChainedPP)
    return false;
  StringRef FnMode = F.getFnAttribute("amdgpu-pingpong").getValueAsString();
  if (!FnMode.empty() && FnMode != "auto" && FnMode != "chained-dot")
    return false;
  const target::TargetFacts *TF =
      target::factsFor(F.getFnAttribute("target-cpu").getValueAsString());
  if (!TF || wavesPerWorkgroup(F) != 8)
    return false;

  DominatorTree DT(F);
  LoopInfo LI(DT);
  SmallVector<Loop *, 4> Loops;
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost() && !loopSaysOff(*L) && loopHas(*L, isMFMACall) &&
        loopHas(*L, isLDSDMACall) &&
        (replaceScheduleRequested() || !loopHas(*L, isAuthorScheduleCall)))
      Loops.push_back(L);
  if (Loops.empty())
    return false;

  const DataLayout &DL = F.getDataLayout();
  SmallVector<Access, 64> All;
  bool Bounded = true;
  IntRanges Ranges(DL);
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      Bounded &= ldsAccessOf(I, DL, Ranges, All);

  // Regions by constant base.
  MapVector<Constant *, Region> Regions;
  for (const Access &A : All) {
    Region &R = Regions[A.Key];
    R.Accesses.push_back(&A);
    R.Lo = std::min(R.Lo, A.KeyOff + A.Lo);
    R.Hi = std::max(R.Hi, A.KeyOff + A.Hi);
  }

  OptimizationRemarkEmitter ORE(&F);
  bool Changed = false;
  SmallPtrSet<Constant *, 4> Moved;
  // The smallest scratch moves first: one move parts the two buffers.
  SmallVector<std::pair<Constant *, Region *>, 8> BySize;
  for (auto &[Key, R] : Regions)
    BySize.push_back({Key, &R});
  llvm::stable_sort(BySize, [](const auto &A, const auto &B) {
    return A.second->Hi - A.second->Lo < B.second->Hi - B.second->Lo;
  });
  for (Loop *L : Loops) {
    for (auto &[Key, RP] : BySize) {
      Region &R = *RP;
      if (Moved.count(Key))
        continue;
      // Candidates: a constant GEP into an arena (not the arena itself),
      // written and read back in L from this iteration's MFMA results.
      auto *CE = dyn_cast<ConstantExpr>(Key);
      if (!CE)
        continue;
      bool WritesInL = false, ReadsInL = false, FromDots = false;
      for (const Access *A : R.Accesses) {
        if (!L->contains(A->I))
          continue;
        WritesInL |= A->Writes;
        ReadsInL |= A->Reads;
        if (auto *SI = dyn_cast<StoreInst>(A->I)) {
          SmallPtrSet<Value *, 32> Seen;
          FromDots |= fromMFMA(SI->getValueOperand(), *L, Seen);
        }
      }
      if (!WritesInL || !ReadsInL || !FromDots || !writtenBeforeRead(R, DT, LI))
        continue;
      GlobalVariable *Arena = R.Accesses.front()->Arena;
      // The buffers of the same arena that L also uses and whose bytes meet.
      SmallVector<const Region *, 2> Shared;
      for (auto &[QKey, Q] : Regions) {
        if (QKey == Key || Moved.count(QKey) ||
            Q.Accesses.front()->Arena != Arena ||
            Q.Hi <= R.Lo || R.Hi <= Q.Lo)
          continue;
        if (any_of(Q.Accesses, [&](const Access *A) { return L->contains(A->I); }))
          Shared.push_back(&Q);
      }
      if (Shared.empty())
        continue;
      int64_t KeyOff = R.Accesses.front()->KeyOff;
      auto Missed = [&](const Twine &Why) {
        ORE.emit([&]() {
          return OptimizationRemarkMissed(DEBUG_TYPE, "ExchangeNotRelocated",
                                          L->getStartLoc(), L->getHeader())
                 << "LDS exchange scratch at " << Arena->getName() << "+"
                 << std::to_string(KeyOff) << " in a loop of "
                 << ore::NV("Function", F.getName())
                 << " shares bytes with another buffer of the iteration; not "
                    "moved: "
                 << Why.str();
        });
      };
      // Reuse, not communication: the other buffers carry nothing into an
      // iteration either, so no read of theirs sees this region's bytes.
      if (!all_of(Shared, [&](const Region *Q) {
            return writtenBeforeRead(*Q, DT, LI);
          })) {
        Missed("a buffer it overlaps is read before it is written in the "
               "iteration");
        continue;
      }
      // Every use of the base is an address computation or an access.
      bool OnlyAddresses = true;
      for (User *U : Key->users()) {
        auto *UI = dyn_cast<Instruction>(U);
        if (!UI)
          OnlyAddresses = false;
        else if (UI->getFunction() == &F &&
                 !isa<GetElementPtrInst, LoadInst, StoreInst, CallBase>(UI))
          OnlyAddresses = false;
      }
      if (!OnlyAddresses) {
        Missed("its base is used other than as an address");
        continue;
      }
      int64_t RelLo = INT64_MAX, RelHi = 0;
      for (const Access *A : R.Accesses) {
        RelLo = std::min(RelLo, A->Lo);
        RelHi = std::max(RelHi, A->Hi);
      }
      if (!Bounded || RelLo < 0) {
        Missed("the kernel's LDS accesses are not all of known extent, so "
               "the LDS it would need is not known");
        continue;
      }
      // The kernel's LDS: the arena's highest byte and every other LDS
      // variable it uses, before and after.
      uint64_t Used = DL.getTypeAllocSize(Arena->getValueType()).getFixedValue();
      for (auto &[QKey, Q] : Regions)
        if (Q.Accesses.front()->Arena == Arena)
          Used = std::max<uint64_t>(Used, Q.Hi);
      for (GlobalVariable &GV : F.getParent()->globals())
        if (&GV != Arena && GV.getAddressSpace() == 3 &&
            any_of(GV.users(), [&](const User *U) {
              const auto *UI = dyn_cast<Instruction>(U);
              return UI && UI->getFunction() == &F;
            }))
          Used = alignTo(Used, 16) +
                 DL.getTypeAllocSize(GV.getValueType()).getFixedValue();
      uint64_t Size = alignTo(uint64_t(RelHi), 16);
      uint64_t After = alignTo(Used, 16) + Size;
      const uint64_t CU = TF->LDSBytesPerCU;
      if (After > CU || (Used && CU / Used != CU / After)) {
        Missed("the kernel's LDS would grow from " + Twine(Used) + " to " +
               Twine(After) + " bytes: " +
               (After > CU ? "past the CU's " + Twine(CU)
                           : Twine("fewer workgroups per CU")));
        continue;
      }
      auto *NewGV = new GlobalVariable(
          *F.getParent(), ArrayType::get(Type::getInt8Ty(F.getContext()), Size),
          /*isConstant=*/false, GlobalValue::InternalLinkage,
          PoisonValue::get(
              ArrayType::get(Type::getInt8Ty(F.getContext()), Size)),
          Arena->getName() + ".pingpong.exchange." + Twine(KeyOff), nullptr,
          GlobalValue::NotThreadLocal, 3);
      NewGV->setAlignment(Align(16));
      SmallVector<Instruction *, 8> Users;
      for (User *U : Key->users())
        if (cast<Instruction>(U)->getFunction() == &F)
          Users.push_back(cast<Instruction>(U));
      for (Instruction *UI : Users)
        UI->replaceUsesOfWith(Key, NewGV);
      // Alias scopes say what is now evident from the objects: the moved
      // accesses and the arena's never meet. AMDGPU's wait insertion asks
      // them before it makes an LDS access wait for every LDS DMA in flight
      // (SIInsertWaitcnts: without a scope, the general DMA slot).
      MDBuilder MDB(F.getContext());
      MDNode *Domain = MDB.createAnonymousAliasScopeDomain(
          "amdgpu.pingpong.exchange");
      MDNode *Scope = MDB.createAnonymousAliasScope(
          Domain, NewGV->getName());
      MDNode *List = MDNode::get(F.getContext(), {Scope});
      for (const Access &A : All) {
        if (!isa<LoadInst, StoreInst, CallBase>(A.I))
          continue;
        unsigned Kind = A.Key == Key ? LLVMContext::MD_alias_scope
                                     : LLVMContext::MD_noalias;
        if (A.Key != Key && A.Arena != Arena)
          continue;
        A.I->setMetadata(Kind,
                         MDNode::concatenate(A.I->getMetadata(Kind), List));
      }
      Moved.insert(Key);
      Changed = true;
      int64_t SharedLo = INT64_MAX, SharedHi = INT64_MIN;
      for (const Region *Q : Shared) {
        SharedLo = std::min(SharedLo, Q->Lo);
        SharedHi = std::max(SharedHi, Q->Hi);
      }
      ORE.emit([&]() {
        return OptimizationRemark(DEBUG_TYPE, "ExchangeRelocated",
                                  L->getStartLoc(), L->getHeader())
               << "LDS exchange scratch moved in a loop of "
               << ore::NV("Function", F.getName()) << ": "
               << ore::NV("Bytes", Size) << " bytes at " << Arena->getName()
               << "+" << std::to_string(KeyOff)
               << " (written and read back in each iteration from the dots' "
                  "results) shared bytes ["
               << std::to_string(SharedLo) << ", " << std::to_string(SharedHi)
               << ") with another buffer of the iteration; now an LDS "
                  "variable of its own, so the two round trips no longer "
                  "depend on each other (kernel LDS "
               << std::to_string(Used) << " -> " << std::to_string(After)
               << " bytes, same workgroups per CU)";
      });
    }
  }
  return Changed;
}

} // namespace

char PingpongRelocateExchange::ID = 0;
char &pingpong::PingpongRelocateExchangePassID = PingpongRelocateExchange::ID;

INITIALIZE_PASS(PingpongRelocateExchange, "amdgpu-pingpong-relocate-exchange",
                "AMDGPU block pingpong LDS exchange relocation (plugin)", false,
                false)

std::optional<std::pair<uint64_t, uint64_t>>
pingpong::kernelLDSBytes(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  SmallVector<Access, 64> All;
  IntRanges Ranges(DL);
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (!ldsAccessOf(I, DL, Ranges, All))
        return std::nullopt;
  // Each LDS variable the kernel touches: its size, or as far as its
  // accesses reach (Triton's arena is an unsized `[0 x i8]`, its size the
  // launch's): past the lowest byte of each access, at most to the highest
  // byte any access may touch.
  MapVector<GlobalVariable *, std::pair<uint64_t, uint64_t>> Extent;
  for (const Access &A : All) {
    if (A.KeyOff + A.Lo < 0)
      return std::nullopt;
    const uint64_t Size =
        DL.getTypeAllocSize(A.Arena->getValueType()).getFixedValue();
    auto &[Lo, Hi] = Extent[A.Arena];
    Lo = std::max<uint64_t>({Lo, Size, uint64_t(A.KeyOff + A.Lo) + 1});
    Hi = std::max<uint64_t>({Hi, Size, uint64_t(A.KeyOff + A.Hi)});
  }
  for (GlobalVariable &GV : F.getParent()->globals())
    if (GV.getAddressSpace() == 3 && !Extent.count(&GV) &&
        any_of(GV.users(), [&](const User *U) {
          const auto *UI = dyn_cast<Instruction>(U);
          return UI && UI->getFunction() == &F;
        })) {
      const uint64_t Size =
          DL.getTypeAllocSize(GV.getValueType()).getFixedValue();
      Extent[&GV] = {Size, Size};
    }
  uint64_t Lo = 0, Hi = 0;
  for (auto &[GV, E] : Extent) {
    Lo = alignTo(Lo, 16) + std::min(E.first, E.second);
    Hi = alignTo(Hi, 16) + E.second;
  }
  return std::make_pair(Lo, Hi);
}
