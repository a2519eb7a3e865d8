//===- ExtractDeviceModule.cpp - --pingpong-extract-device-module ---------===//
//
// mlir-translate --mlir-to-llvmir translates the top-level module and skips
// gpu.module ops; the plugin's input is the device module alone. This makes
// the gpu.module's body the module (host code is dropped) and keeps what the
// device code generator needs: the data layout, the triple, the chip.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Dialect/PingpongPasses.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::pingpong {
#define GEN_PASS_DEF_PINGPONGEXTRACTDEVICEMODULE
#include "pingpong/Dialect/PingpongPasses.h.inc"
} // namespace mlir::pingpong

using namespace mlir;

namespace {

/// Triple and chip of a #rocdl.target / #nvvm.target, read from its printed
/// form: the ROCDL and NVVM dialect headers alone would double this file's
/// compile time. Defaults are not printed: the triple then follows the
/// dialect.
void targetOf(Attribute T, std::string &Triple, std::string &Chip) {
  StringRef Dialect = T.getDialect().getNamespace();
  if (Dialect != "rocdl" && Dialect != "nvvm")
    return;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  T.print(OS);
  auto Field = [&](StringRef Key) -> std::string {
    size_t At = Text.find((Key + " = \"").str());
    if (At == std::string::npos)
      return "";
    size_t Begin = At + Key.size() + 4;
    return Text.substr(Begin, Text.find('"', Begin) - Begin);
  };
  Triple = Field("triple");
  if (Triple.empty())
    Triple = Dialect == "rocdl" ? "amdgcn-amd-amdhsa" : "nvptx64-nvidia-cuda";
  Chip = Field("chip");
}

struct PingpongExtractDeviceModule
    : public pingpong::impl::PingpongExtractDeviceModuleBase<
          PingpongExtractDeviceModule> {
  using PingpongExtractDeviceModuleBase::PingpongExtractDeviceModuleBase;

  void runOnOperation() override {
    ModuleOp M = getOperation();
    SmallVector<gpu::GPUModuleOp> Found;
    for (auto G : M.getOps<gpu::GPUModuleOp>())
      if (moduleName.empty() || G.getName() == moduleName)
        Found.push_back(G);
    if (Found.size() != 1) {
      M.emitError() << "pingpong-extract-device-module: expected "
                    << (moduleName.empty() ? std::string("exactly one gpu.module")
                                           : "a gpu.module named '" +
                                                 moduleName + "'")
                    << ", found " << Found.size();
      return signalPassFailure();
    }
    gpu::GPUModuleOp G = Found.front();

    std::string Triple, Chip;
    if (ArrayAttr Targets = G.getTargetsAttr())
      for (Attribute T : Targets)
        targetOf(T, Triple, Chip);
    if (Triple.empty())
      G.walk([&](LLVM::LLVMFuncOp F) {
        if (F->hasAttr("rocdl.kernel"))
          Triple = "amdgcn-amd-amdhsa";
        else if (F->hasAttr("nvvm.kernel"))
          Triple = "nvptx64-nvidia-cuda";
      });
    Attribute DataLayout = G->getAttr("llvm.data_layout");

    Block &Top = *M.getBody();
    for (Operation &Op : llvm::make_early_inc_range(Top))
      if (&Op != G.getOperation())
        Op.erase();
    Block &Body = G.getBodyRegion().front();
    Top.getOperations().splice(Top.end(), Body.getOperations());
    G.erase();

    // An op the conversions left (no pattern for it) would pass through and
    // fail in pingpong-translate as "Dialect `...' not found", after this
    // tool exited 0: name it here, at its location.
    WalkResult Left = M.walk([&](Operation *Op) {
      StringRef D = Op->getName().getDialectNamespace();
      if (Op == M.getOperation() || D == "llvm" || D == "rocdl" || D == "nvvm")
        return WalkResult::advance();
      Op->emitError() << "pingpong-extract-device-module: '" << Op->getName()
                      << "' was not lowered to the LLVM dialect (no conversion "
                         "pattern for it); pingpong-translate cannot translate it";
      return WalkResult::interrupt();
    });
    if (Left.wasInterrupted())
      return signalPassFailure();

    M->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
    if (DataLayout)
      M->setAttr("llvm.data_layout", DataLayout);
    if (!Triple.empty())
      M->setAttr("llvm.target_triple", StringAttr::get(&getContext(), Triple));
    if (!Chip.empty())
      M.walk([&](LLVM::LLVMFuncOp F) {
        if (!F.getTargetCpuAttr())
          F.setTargetCpu(Chip);
      });
  }
};

} // namespace
