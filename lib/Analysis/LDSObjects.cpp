//===- LDSObjects.cpp - which LDS buffer a memory access touches ----------===//
#include "pingpong/Analysis/LDSObjects.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineMemOperand.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;
namespace pingpong {

namespace {

/// The memory operand of the LDS side (address space 3), or the only one.
const MachineMemOperand *ldsOperand(const MachineInstr &MI) {
  const MachineMemOperand *LDS = nullptr;
  for (const MachineMemOperand *MMO : MI.memoperands())
    if (MMO->getAddrSpace() == 3)
      LDS = MMO;
  if (!LDS && MI.memoperands().size() == 1)
    LDS = MI.memoperands().front();
  return LDS;
}

void addScopes(const MDNode *List, SmallVectorImpl<sync::ScopeRef> &Out) {
  if (!List)
    return;
  for (const MDOperand &Op : List->operands())
    if (auto *Scope = dyn_cast_or_null<MDNode>(Op.get())) {
      const MDNode *Domain = Scope->getNumOperands() > 1
                                 ? dyn_cast_or_null<MDNode>(Scope->getOperand(1).get())
                                 : nullptr;
      Out.push_back({Scope, Domain});
    }
}

std::string scopeName(const MDNode *List) {
  if (!List)
    return "";
  for (const MDOperand &Op : List->operands())
    if (auto *Scope = dyn_cast_or_null<MDNode>(Op.get())) {
      // LDS lowering names the scope by its variable in operand 2; Triton's
      // scopes carry their name in operand 0.
      for (unsigned I : {2u, 0u})
        if (Scope->getNumOperands() > I)
          if (auto *N = dyn_cast_or_null<MDString>(Scope->getOperand(I).get()))
            return N->getString().str();
      return "scope";
    }
  return "";
}

} // namespace

sync::LDSRegion ldsRegionOf(const MachineInstr &MI, bool LaneUniform) {
  sync::LDSRegion R;
  const MachineMemOperand *LDS = ldsOperand(MI);
  if (!LDS)
    return R;
  addScopes(LDS->getAAInfo().Scope, R.Scopes);
  addScopes(LDS->getAAInfo().NoAlias, R.NoAlias);
  const Value *V = LDS->getValue();
  if (!V)
    return R;
  const Value *Obj = getUnderlyingObject(V);
  R.Object = Obj;
  if (auto *GV = dyn_cast<GlobalVariable>(Obj)) {
    const DataLayout &DL = GV->getDataLayout();
    R.Arena = GV->isDeclaration() ||
              DL.getTypeAllocSize(GV->getValueType()).getKnownMinValue() == 0;
    int64_t Off = 0;
    const Value *Base = GetPointerBaseWithConstantOffset(V, Off, DL);
    // A constant address (every lane the same bytes): its range.
    if (Base == Obj && LaneUniform && LDS->getSize().hasValue() &&
        !LDS->getSize().isScalable())
      R.Range = std::make_pair(Off + LDS->getOffset(),
                               Off + LDS->getOffset() +
                                   int64_t(LDS->getSize().getValue().getKnownMinValue()));
  }
  return R;
}

std::string ldsBufferName(const MachineInstr &MI) {
  const MachineMemOperand *LDS = ldsOperand(MI);
  if (!LDS)
    return "LDS (unknown buffer)";
  std::string Scope = scopeName(LDS->getAAInfo().Scope);
  const Value *V = LDS->getValue();
  if (!V)
    return Scope.empty() ? "LDS (unknown buffer)" : "LDS [" + Scope + "]";
  const Value *Obj = getUnderlyingObject(V);
  std::string Name = Obj->hasName() ? Obj->getName().str() : "LDS";
  if (!Scope.empty())
    Name += " [" + Scope + "]";
  return Name;
}

bool sameLDSBuffer(const sync::LDSRegion &A, const sync::LDSRegion &B) {
  sync::Overlap O = sync::overlap(A, B).O;
  return O == sync::Overlap::SameBuffer || O == sync::Overlap::Bytes;
}

} // namespace pingpong
