//===- IRLoops.cpp - what the plugin's IR passes ask of a loop ------------===//
#include "pingpong/Passes/IRLoops.h"
#include "pingpong/Analysis/Directives.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Function.h"
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

} // namespace pingpong
