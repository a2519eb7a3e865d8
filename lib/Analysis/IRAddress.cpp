//===- IRAddress.cpp - integer ranges and GEP offsets of IR values --------===//
#include "pingpong/Analysis/IRAddress.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
namespace pingpong {

namespace {
// Past these an answer costs more than it is worth: the full set / no walk.
constexpr unsigned MaxEvalDepth = 24, MaxRounds = 8, MaxGEPs = 32;
constexpr uint64_t Beyond = uint64_t(1) << 32; // beyond any LDS

/// Non-negative and below 2^32: [min, max].
std::optional<std::pair<uint64_t, uint64_t>> bounds(const ConstantRange &R) {
  if (R.isEmptySet() || R.getBitWidth() > 64 || R.isSignWrappedSet() ||
      R.getSignedMin().isNegative() || R.getUnsignedMax().uge(Beyond))
    return std::nullopt;
  return std::make_pair(R.getUnsignedMin().getZExtValue(),
                        R.getUnsignedMax().getZExtValue());
}
} // namespace

ConstantRange IntRanges::of(const Value *V) {
  for (unsigned Round = 0; Round < MaxRounds; ++Round) {
    Changed = false;
    Memo.clear();
    ConstantRange R = eval(V, 0);
    if (!Changed)
      return R;
  }
  return ConstantRange::getFull(V->getType()->getScalarSizeInBits());
}

std::optional<std::pair<uint64_t, uint64_t>>
IntRanges::indexBounds(const Value *Idx) {
  if (!Idx->getType()->isIntegerTy() || Idx->getType()->getIntegerBitWidth() > 64)
    return std::nullopt;
  ConstantRange R = of(Idx);
  ConstantRange K = ConstantRange::fromKnownBits(computeKnownBits(Idx, DL), false);
  // The intersection may be empty (dead code) or not the tighter one of a
  // two-piece result: then either alone.
  if (auto B = bounds(R.intersectWith(K)))
    return B;
  if (auto B = bounds(R))
    return B;
  return bounds(K);
}

ConstantRange IntRanges::eval(const Value *V, unsigned Depth) {
  unsigned BW = V->getType()->getScalarSizeInBits();
  if (auto *C = dyn_cast<ConstantInt>(V))
    return ConstantRange(C->getValue());
  auto It = Memo.find(V);
  if (It != Memo.end())
    return It->second;
  ConstantRange R = ConstantRange::getFull(BW);
  auto *I = dyn_cast<Instruction>(V);
  if (auto *Phi = dyn_cast<PHINode>(V)) {
    ConstantRange P = Phis.try_emplace(V, ConstantRange::getEmpty(BW)).first->second;
    Memo.insert({V, P}); // a cycle sees the last round's value
    ConstantRange U = ConstantRange::getEmpty(BW);
    for (const Value *In : Phi->incoming_values())
      U = U.unionWith(Depth > MaxEvalDepth ? ConstantRange::getFull(BW)
                                           : eval(In, Depth + 1));
    ConstantRange &Last = Phis.find(V)->second;
    if (U != Last) {
      Last = U;
      Changed = true;
    }
    R = U;
  } else if (I && Depth <= MaxEvalDepth) {
    R = evalInst(I, Depth);
  } else if (I) {
    R = leaf(I);
  }
  Memo.insert({V, R});
  return R;
}

ConstantRange IntRanges::evalInst(const Instruction *I, unsigned Depth) {
  unsigned BW = I->getType()->getScalarSizeInBits();
  // A wave-uniform copy (e.g. the wave index in an LDS DMA's M0 base) takes
  // one of the values its operand takes.
  if (const auto *II = dyn_cast<IntrinsicInst>(I);
      II && ThroughReadFirstLane &&
      II->getIntrinsicID() == Intrinsic::amdgcn_readfirstlane &&
      II->getType()->isIntegerTy())
    return eval(II->getArgOperand(0), Depth + 1);
  if (auto *BO = dyn_cast<BinaryOperator>(I)) {
    ConstantRange L = eval(BO->getOperand(0), Depth + 1);
    ConstantRange R = eval(BO->getOperand(1), Depth + 1);
    // No common bits: the or is the sum (and ConstantRange's or is coarser).
    if (BO->getOpcode() == Instruction::Or &&
        cast<PossiblyDisjointInst>(BO)->isDisjoint())
      return L.add(R);
    return L.binaryOp(BO->getOpcode(), R);
  }
  if (auto *Sel = dyn_cast<SelectInst>(I)) {
    ConstantRange T = eval(Sel->getTrueValue(), Depth + 1);
    ConstantRange F = eval(Sel->getFalseValue(), Depth + 1);
    // select (icmp pred X, C), X, Y: X within the region pred allows.
    if (auto *Cmp = dyn_cast<ICmpInst>(Sel->getCondition()))
      if (auto *C = dyn_cast<ConstantInt>(Cmp->getOperand(1))) {
        ConstantRange Allowed = ConstantRange::makeAllowedICmpRegion(
            Cmp->getPredicate(), ConstantRange(C->getValue()));
        if (Cmp->getOperand(0) == Sel->getTrueValue())
          T = T.intersectWith(Allowed);
        else if (Cmp->getOperand(0) == Sel->getFalseValue())
          F = F.intersectWith(Allowed.inverse());
      }
    return T.unionWith(F);
  }
  if (auto *Cast = dyn_cast<CastInst>(I))
    if (Cast->getSrcTy()->isIntegerTy())
      return eval(Cast->getOperand(0), Depth + 1).castOp(Cast->getOpcode(), BW);
  return leaf(I);
}

ConstantRange IntRanges::leaf(const Instruction *I) {
  ConstantRange R = ConstantRange::fromKnownBits(computeKnownBits(I, DL), false);
  // The known bits see only the intrinsic's declared range (1024 lanes); the
  // kernel's attribute bounds every dimension's id by its flat size.
  const auto *II = dyn_cast<IntrinsicInst>(I);
  if (!II || (II->getIntrinsicID() != Intrinsic::amdgcn_workitem_id_x &&
              II->getIntrinsicID() != Intrinsic::amdgcn_workitem_id_y &&
              II->getIntrinsicID() != Intrinsic::amdgcn_workitem_id_z))
    return R;
  StringRef S = II->getFunction()
                    ->getFnAttribute("amdgpu-flat-work-group-size")
                    .getValueAsString();
  unsigned Max = 0, BW = R.getBitWidth();
  if (BW < 32 || S.split(',').second.trim().getAsInteger(10, Max) || Max == 0)
    return R;
  return R.intersectWith(ConstantRange(APInt(BW, 0), APInt(BW, Max)));
}

const Value *walkGEPs(const Value *P, const DataLayout &DL, int64_t &Const,
                      function_ref<bool(const Value *Idx, uint64_t Stride)> OnIndex,
                      function_ref<bool(const Value *)> StopAt) {
  for (unsigned Depth = 0;; ++Depth) {
    P = P->stripPointerCasts();
    auto *GEP = dyn_cast<GEPOperator>(P);
    if (!GEP || (StopAt && StopAt(P)))
      return P;
    if (Depth >= MaxGEPs)
      return nullptr;
    for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
         GTI != E; ++GTI) {
      const Value *Idx = GTI.getOperand();
      auto *CI = dyn_cast<ConstantInt>(Idx);
      if (StructType *ST = GTI.getStructTypeOrNull()) {
        if (!CI)
          return nullptr;
        Const += int64_t(
            DL.getStructLayout(ST)->getElementOffset(CI->getZExtValue()).getFixedValue());
        continue;
      }
      TypeSize Size = GTI.getSequentialElementStride(DL);
      if (Size.isScalable() || Size.getFixedValue() >= Beyond)
        return nullptr;
      uint64_t Stride = Size.getFixedValue();
      if (Stride == 0 || (CI && CI->isZero()))
        continue;
      if (CI) {
        int64_t Bytes = 0;
        if (CI->getBitWidth() > 64 ||
            MulOverflow(CI->getSExtValue(), int64_t(Stride), Bytes) ||
            AddOverflow(Const, Bytes, Const))
          return nullptr;
        continue;
      }
      if (!OnIndex(Idx, Stride))
        return nullptr;
    }
    P = GEP->getPointerOperand();
  }
}

} // namespace pingpong
