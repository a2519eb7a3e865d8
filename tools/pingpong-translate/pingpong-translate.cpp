//===- pingpong-translate.cpp - MLIR -> LLVM IR with pingpong metadata ----===//
//
// mlir-translate --mlir-to-llvmir, plus the pingpong dialect's translation:
// a latch branch's `pingpong.loop` becomes !{!"amdgpu.pingpong", !"<mode>"}
// (or the layout) in its !llvm.loop. The LLVM dialect's loop_annotation has
// no field for other passes' options, so stock mlir-translate cannot write it.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Dialect/PingpongDialect.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace mlir;

int main(int argc, char **argv) {
  TranslateFromMLIRRegistration MLIRToLLVMIR(
      "mlir-to-llvmir",
      "Translate MLIR to LLVM IR, with pingpong.loop as !llvm.loop metadata",
      [](Operation *Op, llvm::raw_ostream &Out) -> LogicalResult {
        // An empty module is what a failed producer leaves in a pipe without
        // pipefail: an empty LLVM module would hide that failure.
        if (auto Module = dyn_cast<ModuleOp>(Op);
            Module && Module.getBody()->empty())
          return emitError(Op->getLoc(),
                           "pingpong-translate: the input module is empty "
                           "(did the step before it fail? run pipelines "
                           "with 'set -o pipefail')");
        llvm::LLVMContext Ctx;
        std::unique_ptr<llvm::Module> M = translateModuleToLLVMIR(Op, Ctx);
        if (!M)
          return failure();
        M->print(Out, nullptr);
        return success();
      },
      [](DialectRegistry &Registry) {
        Registry.insert<DLTIDialect, func::FuncDialect>();
        registerAllToLLVMIRTranslations(Registry);
        pingpong::registerPingpongLLVMIRTranslation(Registry);
      });
  return failed(mlirTranslateMain(argc, argv, "pingpong translation tool"));
}
