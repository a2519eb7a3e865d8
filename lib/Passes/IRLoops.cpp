//===- IRLoops.cpp - what the plugin's IR passes ask of a loop ------------===//
#include "pingpong/Passes/IRLoops.h"
#include "pingpong/Analysis/Directives.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace pingpong {

bool isMFMACall(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II || !II->getCalledFunction())
    return false;
  StringRef Name = II->getCalledFunction()->getName();
  return Name.starts_with("llvm.amdgcn.mfma.") ||
         Name.starts_with("llvm.amdgcn.smfmac.");
}

bool isLDSDMACall(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II || !II->getCalledFunction())
    return false;
  StringRef N = II->getCalledFunction()->getName();
  return N.starts_with("llvm.amdgcn.") &&
         (N.contains(".load.lds") || N.contains("load.to.lds"));
}

bool isAuthorScheduleCall(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II)
    return false;
  switch (II->getIntrinsicID()) {
  case Intrinsic::amdgcn_s_setprio:
  case Intrinsic::amdgcn_sched_barrier:
  case Intrinsic::amdgcn_sched_group_barrier:
  case Intrinsic::amdgcn_iglp_opt:
    return true;
  default:
    return false;
  }
}

bool loopSaysOff(const Loop &L) {
  MDNode *ID = L.getLoopID();
  if (!ID)
    return false;
  for (const MDOperand &Op : ID->operands().drop_front()) {
    const auto *Entry = dyn_cast<MDNode>(Op);
    if (!Entry || Entry->getNumOperands() != 2)
      continue;
    // Malformed entries (a null or non-string operand) are the directive
    // parser's to report, not a reason to stop here.
    const auto *Key = dyn_cast_or_null<MDString>(Entry->getOperand(0).get());
    const auto *Val = dyn_cast_or_null<MDString>(Entry->getOperand(1).get());
    if (Key && Val && Key->getString() == "amdgpu.pingpong" &&
        Val->getString() == "off")
      return true;
  }
  return false;
}

bool loopHas(const Loop &L, bool (*Pred)(const Instruction &)) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      if (Pred(I))
        return true;
  return false;
}

bool hasChainedDots(const Loop &L) {
  SmallVector<const Value *, 32> Work;
  SmallPtrSet<const Value *, 32> Seen;
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      if (isMFMACall(I))
        for (unsigned Op = 0; Op < 2; ++Op)
          Work.push_back(cast<CallBase>(I).getArgOperand(Op));
  while (!Work.empty()) {
    const auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !L.contains(I) || isa<PHINode>(I) || !Seen.insert(I).second)
      continue;
    if (isMFMACall(*I))
      return true;
    Work.append(I->op_begin(), I->op_end());
  }
  return false;
}

std::string whyNotMaskable(const Value *Rsrc) {
  const auto *Make = dyn_cast<IntrinsicInst>(Rsrc);
  if (!Make || Make->getIntrinsicID() != Intrinsic::amdgcn_make_buffer_rsrc)
    return "its buffer resource is not made by make.buffer.rsrc";
  const auto *Stride = dyn_cast<ConstantInt>(Make->getArgOperand(1));
  const auto *Records = dyn_cast<ConstantInt>(Make->getArgOperand(2));
  if (!Stride || !Stride->isZero())
    return "its buffer resource has a stride";
  if (!Records || Records->getZExtValue() > uint64_t(INT32_MAX))
    return "its buffer's num_records is not a constant <= 0x7FFFFFFF";
  for (const User *U : Rsrc->users()) {
    const auto *II = dyn_cast<IntrinsicInst>(U);
    if (!II)
      continue;
    // The voffset operand: a buffer load's second, a copy's fourth.
    unsigned Off;
    if (II->getIntrinsicID() == Intrinsic::amdgcn_raw_ptr_buffer_load)
      Off = 1;
    else if (II->getIntrinsicID() == Intrinsic::amdgcn_raw_ptr_buffer_load_lds)
      Off = 3;
    else
      continue;
    const auto *Sel = dyn_cast<SelectInst>(II->getArgOperand(Off));
    const auto *False =
        Sel ? dyn_cast<ConstantInt>(Sel->getFalseValue()) : nullptr;
    if (False && False->getSExtValue() == OutOfRangeOffset)
      return "";
  }
  return "no access of the kernel masks its offset on this buffer with "
         "0x80000000 (the proof that such an offset reads nothing)";
}

/// I may be computed again at the insertion point: arithmetic that cannot
/// trap, or an intrinsic that touches no memory and returns (ballot,
/// readfirstlane: convergent, but the copies go in the loop's own block or
/// its preheader, which run with the lanes that ran I).
static bool copyable(const Instruction &I) {
  if (I.mayReadOrWriteMemory() || I.mayHaveSideEffects() || I.isTerminator())
    return false;
  if (isSafeToSpeculativelyExecute(&I))
    return true;
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && II->willReturn();
}

bool IterationValues::computable(Value *V, Iteration It) {
  return computable(V, It, 0);
}

bool IterationValues::computable(Value *V, Iteration It, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I))
    return true;
  if (auto Found = Known[It].find(I); Found != Known[It].end())
    return Found->second;
  // Deep expressions are not the loops the passes take; the bound also
  // stops a cycle through the latch values.
  if (Depth > 32)
    return false;
  bool Can;
  if (auto *PN = dyn_cast<PHINode>(I))
    Can = PN->getParent() == L.getHeader() &&
          (It != Next ||
           computable(PN->getIncomingValueForBlock(L.getLoopLatch()), This,
                      Depth + 1));
  else
    Can = copyable(*I) &&
          llvm::all_of(I->operands(), [&](Value *Op) {
            return computable(Op, It, Depth + 1);
          });
  Known[It][I] = Can;
  return Can;
}

Value *IterationValues::get(Value *V, Iteration It, Instruction *IP) {
  assert(computable(V, It) && "the caller checks computable() first");
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I))
    return V;
  // Defined before IP in its block, on this path.
  auto Before = [IP](const Instruction *D) {
    return D->getParent() == IP->getParent() && D->comesBefore(IP);
  };
  if (Value *Done = Made[It].lookup(I)) {
    auto *DI = dyn_cast<Instruction>(Done);
    if (It == First || !DI || !L.contains(DI) || Before(DI))
      return Done;
  }
  Value *Result;
  if (auto *PN = dyn_cast<PHINode>(I)) {
    if (It == First)
      Result = PN->getIncomingValueForBlock(L.getLoopPreheader());
    else if (It == Next)
      Result = get(PN->getIncomingValueForBlock(L.getLoopLatch()), This, IP);
    else
      Result = PN;
  } else if (It == This && Before(I)) {
    Result = I;
  } else {
    SmallVector<Value *, 4> Ops;
    for (Value *Op : I->operands())
      Ops.push_back(get(Op, It, IP));
    // The same value at every iteration, already computed here.
    bool Same = true;
    for (unsigned Op = 0; Op < Ops.size(); ++Op)
      Same &= Ops[Op] == I->getOperand(Op);
    if (It != First && Same && Before(I)) {
      Made[It][I] = I;
      return I;
    }
    Instruction *C = I->clone();
    for (unsigned Op = 0; Op < Ops.size(); ++Op)
      C->setOperand(Op, Ops[Op]);
    C->insertBefore(IP->getIterator());
    C->setName(I->getName() + Suffix);
    Result = C;
    // Iteration 0's copies are mostly constants.
    if (Value *S = simplifyInstruction(C, SimplifyQuery(C->getDataLayout()))) {
      C->eraseFromParent();
      Result = S;
    }
  }
  Made[It][I] = Result;
  return Result;
}

unsigned wavesPerWorkgroup(const Function &F) {
  StringRef S = F.getFnAttribute("amdgpu-flat-work-group-size").getValueAsString();
  unsigned Max = 0;
  if (S.split(',').second.trim().getAsInteger(10, Max))
    return 0;
  const target::TargetFacts *T =
      target::factsFor(F.getFnAttribute("target-cpu").getValueAsString());
  return Max / (T ? T->WaveSize : 64);
}

bool functionSaysOff(const Function &F) {
  return commandLineMode() == Mode::Off ||
         F.getFnAttribute("amdgpu-pingpong").getValueAsString() == "off";
}

static unsigned dwords(const Type *T, const DataLayout &DL) {
  return (DL.getTypeSizeInBits(const_cast<Type *>(T)).getFixedValue() + 31) /
         32;
}

unsigned carriedAddressDwords(const Loop &L, const UniformityInfo &UI,
                              ArrayRef<const Value *> CarriedAddresses) {
  // Where it varies per lane and per iteration: a loop-invariant address is
  // counted as an invariant by the estimate, a uniform one is scalar.
  const DataLayout &DL = L.getHeader()->getDataLayout();
  unsigned Dwords = 0;
  SmallPtrSet<const Value *, 16> Seen;
  for (const Value *A : CarriedAddresses)
    if (!L.isLoopInvariant(A) && !UI.isUniform(A) && Seen.insert(A).second)
      Dwords += dwords(A->getType(), DL);
  return Dwords;
}

unsigned estimatePeakVGPRs(const Loop &L, const UniformityInfo &UI,
                           ArrayRef<const Instruction *> CarriedLoads,
                           ArrayRef<const Value *> CarriedAddresses) {
  BasicBlock *Body = L.getHeader();
  const DataLayout &DL = Body->getDataLayout();
  const unsigned AddressDwords = carriedAddressDwords(L, UI, CarriedAddresses);
  // Each tile and its rearranged forms (bitcasts, shuffles) on its way to
  // the stores.
  SmallPtrSet<const Value *, 16> Tile;
  unsigned CarriedDwords = 0;
  for (const Instruction *Load : CarriedLoads) {
    CarriedDwords += dwords(Load->getType(), DL);
    SmallVector<const Value *, 4> Work{Load};
    while (!Work.empty()) {
      const Value *V = Work.pop_back_val();
      if (!Tile.insert(V).second)
        continue;
      for (const User *U : V->users())
        if (isa<BitCastInst>(U) || isa<ShuffleVectorInst>(U))
          Work.push_back(U);
    }
  }
  auto Width = [&](const Value *V) -> unsigned {
    if (V->getType()->isVoidTy() || V->getType()->isIntegerTy(1) ||
        !V->getType()->isSized() || UI.isUniform(V) || Tile.contains(V))
      return 0;
    return dwords(V->getType(), DL);
  };
  SmallPtrSet<const Value *, 32> Live, Invariant;
  unsigned Cur = 0, Inv = 0;
  auto AddLive = [&](const Value *V) {
    const auto *I = dyn_cast<Instruction>(V);
    if (!I) {
      if (isa<Argument>(V) && Invariant.insert(V).second)
        Inv += Width(V);
      return;
    }
    if (!L.contains(I)) {
      if (Invariant.insert(V).second)
        Inv += Width(V);
      return;
    }
    if (Live.insert(V).second)
      Cur += Width(V);
  };
  for (PHINode &PN : Body->phis())
    AddLive(PN.getIncomingValueForBlock(L.getLoopLatch()));
  for (Instruction &I : *Body)
    if (llvm::any_of(I.users(), [&](const User *U) {
          return !L.contains(cast<Instruction>(U));
        }))
      AddLive(&I);
  // Every machine mode issues an LDS read in the memory cluster before the
  // dot slice that uses it, not where the frontend put it (Triton reads a
  // whole tile at the top of the body): its value counts from its first
  // use on.
  DenseMap<const Instruction *, SmallVector<const Instruction *, 2>> ReadsFirstUsedAt;
  for (Instruction &I : *Body) {
    const auto *LI = dyn_cast<LoadInst>(&I);
    if (!LI || LI->getPointerAddressSpace() != 3)
      continue;
    const Instruction *First = nullptr;
    for (const User *U : LI->users()) {
      const auto *UI = cast<Instruction>(U);
      if (UI->getParent() == Body && !isa<PHINode>(UI) &&
          (!First || UI->comesBefore(First)))
        First = UI;
    }
    if (First)
      ReadsFirstUsedAt[First].push_back(LI);
  }
  unsigned Peak = Cur;
  for (Instruction &I : llvm::reverse(*Body)) {
    if (isa<PHINode>(I))
      break;
    if (Live.erase(&I))
      Cur -= Width(&I);
    for (const Value *Op : I.operands())
      AddLive(Op);
    Peak = std::max(Peak, Cur);
    for (const Instruction *Read : ReadsFirstUsedAt.lookup(&I))
      if (Live.erase(Read))
        Cur -= Width(Read);
  }
  return Peak + Inv + CarriedDwords + AddressDwords;
}

/// V is an MFMA's result, or VALU of this iteration computed from one in a
/// few steps (the result split into halves, scaled by one side input).
static bool dotDerived(const Loop &L, const Value *V, unsigned Depth = 0) {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || isa<PHINode>(I))
    return false;
  if (isMFMACall(*I))
    return true;
  if (Depth >= 4 || I->mayReadOrWriteMemory() || isa<CallBase>(I))
    return false;
  return llvm::any_of(I->operands(), [&](const Value *Op) {
    return dotDerived(L, Op, Depth + 1);
  });
}

bool feedsDotResultOnly(const Loop &L, Instruction *Load,
                        Instruction *&LastUse) {
  SmallVector<Instruction *, 16> Work{Load};
  SmallPtrSet<Instruction *, 32> Seen{Load};
  bool MeetsDot = false;
  LastUse = nullptr;
  while (!Work.empty()) {
    Instruction *V = Work.pop_back_val();
    for (User *U : V->users()) {
      auto *UI = cast<Instruction>(U);
      if (!Seen.insert(UI).second)
        continue;
      if (Seen.size() > 256 || UI->getParent() != L.getHeader() ||
          isa<PHINode>(UI) || isa<CallBase>(UI) || UI->isTerminator() ||
          UI->mayReadOrWriteMemory() || isa<GetElementPtrInst>(UI) ||
          UI->getType()->isPointerTy())
        return false;
      if (!LastUse || LastUse->comesBefore(UI))
        LastUse = UI;
      const bool Meets = llvm::any_of(UI->operands(), [&](const Value *Op) {
        return Op != V && dotDerived(L, Op);
      });
      MeetsDot |= Meets;
      if (!Meets) // past the meeting point it is the result's own chain
        Work.push_back(UI);
    }
  }
  return MeetsDot;
}

bool forEachKernel(Module &M, function_ref<bool(Function &)> Run) {
  bool Changed = false;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getCallingConv() == CallingConv::AMDGPU_KERNEL)
      Changed |= Run(F);
  return Changed;
}

} // namespace pingpong
