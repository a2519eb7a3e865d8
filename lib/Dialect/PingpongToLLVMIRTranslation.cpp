//===- PingpongToLLVMIRTranslation.cpp - pingpong.loop -> !llvm.loop ------===//
//
// The LLVM dialect's loop_annotation has no slot for other passes' loop
// options, so pingpong-translate amends each branch that carries
// `pingpong.loop` after the LLVM dialect translated it: the branch's
// !llvm.loop (a new distinct node if it had none) gets
//   !{!"amdgpu.pingpong", !"<mode>"}  or  !{!"amdgpu.pingpong.layout", !"..."}
// which the plugin reads (docs/modes.md, "Directives").
//
//===----------------------------------------------------------------------===//
#include "pingpong/Dialect/PingpongDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"
#include "mlir/Target/LLVMIR/ModuleTranslation.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"

using namespace mlir;
using namespace mlir::pingpong;

namespace {

/// The loop ID with the pingpong option appended (the old options kept).
llvm::MDNode *withDirective(llvm::LLVMContext &Ctx, llvm::MDNode *Old,
                            LoopAttr Tag) {
  llvm::SmallVector<llvm::Metadata *> Ops;
  Ops.push_back(nullptr); // self reference, set below
  if (Old)
    for (unsigned I = 1, E = Old->getNumOperands(); I < E; ++I) {
      auto *N = dyn_cast<llvm::MDNode>(Old->getOperand(I));
      auto *Key = N && N->getNumOperands()
                      ? dyn_cast<llvm::MDString>(N->getOperand(0))
                      : nullptr;
      // A directive already there is replaced, not doubled.
      if (Key && (Key->getString() == kMDMode || Key->getString() == kMDLayout))
        continue;
      Ops.push_back(Old->getOperand(I));
    }
  if (Tag.getLayout())
    Ops.push_back(llvm::MDNode::get(
        Ctx, {llvm::MDString::get(Ctx, kMDLayout),
              llvm::MDString::get(Ctx, Tag.getLayout().getValue())}));
  else
    Ops.push_back(llvm::MDNode::get(
        Ctx, {llvm::MDString::get(Ctx, kMDMode),
              llvm::MDString::get(Ctx, stringifyMode(Tag.getMode()))}));
  llvm::MDNode *ID = llvm::MDNode::getDistinct(Ctx, Ops);
  ID->replaceOperandWith(0, ID);
  return ID;
}

class PingpongTranslation : public LLVMTranslationDialectInterface {
public:
  using LLVMTranslationDialectInterface::LLVMTranslationDialectInterface;

  LogicalResult
  amendOperation(Operation *op, ArrayRef<llvm::Instruction *> instructions,
                 NamedAttribute attribute,
                 LLVM::ModuleTranslation &moduleTranslation) const override {
    if (attribute.getName() != kLoopAttr)
      return success(); // pingpong.mem and user spellings: nothing to emit
    auto Tag = dyn_cast<LoopAttr>(attribute.getValue());
    if (!Tag)
      return op->emitError() << "'" << kLoopAttr << "' is not #pingpong.loop";
    bool Done = false;
    for (llvm::Instruction *I : instructions) {
      if (!isa<llvm::BranchInst>(I))
        continue;
      I->setMetadata(llvm::LLVMContext::MD_loop,
                     withDirective(I->getContext(),
                                   I->getMetadata(llvm::LLVMContext::MD_loop),
                                   Tag));
      Done = true;
    }
    if (!Done)
      return op->emitError() << "'" << kLoopAttr
                             << "' must be on a loop's latch branch "
                                "(run --pingpong-attach-metadata)";
    return success();
  }
};

} // namespace

void mlir::pingpong::registerPingpongLLVMIRTranslation(
    DialectRegistry &registry) {
  registry.insert<PingpongDialect>();
  registry.addExtension(+[](MLIRContext *ctx, PingpongDialect *dialect) {
    dialect->addInterfaces<PingpongTranslation>();
  });
}
