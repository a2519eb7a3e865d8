//===- Pipelines.cpp - pingpong-rocdl / pingpong-nvvm pipelines -----------===//
//
// One name for the whole path from an upstream-dialect gpu kernel to the LLVM
// dialect module pingpong-translate writes as LLVM IR (docs/mlir.md):
//   pingpong-lower-local-gather, pingpong-annotate, <target>-attach-target, gpu.module(scf-to-cf,
//   gpu-to-<target>, canonicalize, cse), pingpong-attach-metadata,
//   pingpong-extract-device-module, ensure-debug-info-scope-on-llvm-func
// (the last keeps the MLIR file:line:col as debug locations, so the plugin's
// remarks name the MLIR source).
//
//===----------------------------------------------------------------------===//
#include "pingpong/Dialect/PingpongPasses.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {

struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target chip (gfx942, gfx950; sm_80)"),
                           llvm::cl::init("")};
  Option<bool> annotate{*this, "annotate",
                        llvm::cl::desc("Run pingpong-annotate first"),
                        llvm::cl::init(true)};
  Option<bool> aggregateLoad{
      *this, "aggregate-load",
      llvm::cl::desc("Run pingpong-aggregate-load before annotating"),
      llvm::cl::init(false)};
  Option<bool> functionAttr{
      *this, "function-attr",
      llvm::cl::desc("Mode as a function attribute instead of loop metadata "
                     "(for stock mlir-translate)"),
      llvm::cl::init(false)};
  Option<bool> debugInfo{*this, "debug-info",
                         llvm::cl::desc("Keep MLIR locations as debug info"),
                         llvm::cl::init(true)};
};

void build(OpPassManager &PM, const PipelineOptions &O, bool ROCDL) {
  std::string Chip = O.chip;
  if (Chip.empty())
    Chip = ROCDL ? "gfx942" : "sm_80";
  // local_gather / local_preload first: what they become (LDS loads, a copy
  // loop) is what the other passes and the plugin see.
  std::string P = "pingpong-lower-local-gather,";
  if (O.aggregateLoad)
    P += "pingpong-aggregate-load{chip=" + (ROCDL ? Chip : std::string("gfx942")) + "},";
  if (O.annotate)
    P += "pingpong-annotate,";
  if (ROCDL)
    P += "rocdl-attach-target{chip=" + Chip +
         "},gpu.module(expand-strided-metadata,lower-affine,convert-scf-to-cf,"
         "convert-gpu-to-rocdl{chipset=" + Chip +
         " index-bitwidth=32},";
  else
    P += "nvvm-attach-target{chip=" + Chip +
         "},gpu.module(expand-strided-metadata,lower-affine,convert-scf-to-cf,"
         "convert-gpu-to-nvvm{index-bitwidth=32 use-bare-ptr-memref-call-conv=true},";
  P += "canonicalize,cse,reconcile-unrealized-casts),";
  P += std::string("pingpong-attach-metadata{function-attr=") +
       (O.functionAttr ? "true" : "false") + "},";
  P += "pingpong-extract-device-module";
  if (O.debugInfo)
    P += ",ensure-debug-info-scope-on-llvm-func";
  if (failed(parsePassPipeline(P, PM, llvm::errs())))
    llvm::errs() << "pingpong pipeline: could not build '" << P << "'\n";
}

} // namespace

void mlir::pingpong::registerPingpongPipelines() {
  registerPingpongPasses();
  PassPipelineRegistration<PipelineOptions>(
      "pingpong-rocdl",
      "Annotate K loops and lower the gpu.module to the LLVM dialect for ROCDL "
      "(then: pingpong-translate --mlir-to-llvmir | opt -O3 | llc -load the "
      "plugin)",
      [](OpPassManager &PM, const PipelineOptions &O) { build(PM, O, true); });
  PassPipelineRegistration<PipelineOptions>(
      "pingpong-nvvm",
      "The same for NVVM (numeric checks of the rewrites on an NVIDIA GPU; "
      "MFMAs do not lower there)",
      [](OpPassManager &PM, const PipelineOptions &O) { build(PM, O, false); });
}
