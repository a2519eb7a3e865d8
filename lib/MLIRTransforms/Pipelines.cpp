//===- Pipelines.cpp - pingpong-rocdl / pingpong-nvvm pipelines -----------===//
//
// One name for the whole path from an upstream-dialect gpu kernel to the LLVM
// dialect module pingpong-translate writes as LLVM IR (docs/mlir.md):
//   pingpong-lower-local-gather, pingpong-annotate, <target>-attach-target, gpu.module(scf-to-cf,
//   gpu-to-<target>, vector-to-llvm, canonicalize, cse), pingpong-attach-metadata,
//   pingpong-extract-device-module, ensure-debug-info-scope-on-llvm-func
// (the last keeps the MLIR file:line:col as debug locations, so the plugin's
// remarks name the MLIR source).
//
//===----------------------------------------------------------------------===//
#include "pingpong/Dialect/PingpongPasses.h"
#include "pingpong/Target/TargetFacts.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {

struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target chip: pingpong-rocdl gfx942 "
                                          "(default) or gfx950, the chips the "
                                          "plugin schedules; pingpong-nvvm "
                                          "sm_XX (default sm_80)"),
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

LogicalResult build(OpPassManager &PM, const PipelineOptions &O, bool ROCDL,
                    function_ref<LogicalResult(const Twine &)> Error) {
  std::string Chip = O.chip;
  if (Chip.empty())
    Chip = ROCDL ? "gfx942" : "sm_80";
  // A chip the plugin does not schedule would lower half-way (upstream's
  // MFMA patterns fail one by one on chips without them) and then be
  // refused by aggregate-load or llc: refuse it here, before any pass runs.
  if (ROCDL && !::pingpong::target::factsFor(Chip))
    return Error("pingpong-rocdl: chip '" + Chip +
                 "' is not one the plugin schedules (gfx942 or gfx950)");
  if (!ROCDL && !StringRef(Chip).starts_with("sm_"))
    return Error("pingpong-nvvm: chip '" + Chip + "' is not an sm_XX name");
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
  // What the gpu-to-<target> patterns leave of the vector dialect (e.g.
  // vector.extract_strided_slice: convert-vector-to-llvm first rewrites it
  // as a shuffle, the gpu passes do not).
  P += "convert-vector-to-llvm,canonicalize,cse,reconcile-unrealized-casts),";
  P += std::string("pingpong-attach-metadata{function-attr=") +
       (O.functionAttr ? "true" : "false") + "},";
  P += "pingpong-extract-device-module";
  if (O.debugInfo)
    P += ",ensure-debug-info-scope-on-llvm-func";
  if (failed(parsePassPipeline(P, PM, llvm::errs())))
    return Error("pingpong pipeline: could not build '" + P + "'");
  return success();
}

void registerPipeline(StringRef Arg, StringRef Description, bool ROCDL) {
  registerPassPipeline(
      Arg, Description,
      [ROCDL](OpPassManager &PM, StringRef OptionsText,
              function_ref<LogicalResult(const Twine &)> Error) {
        PipelineOptions O;
        if (failed(O.parseFromString(OptionsText)))
          return failure();
        return build(PM, O, ROCDL, Error);
      },
      [](function_ref<void(const detail::PassOptions &)> Handler) {
        Handler(PipelineOptions());
      });
}

} // namespace

void mlir::pingpong::registerPingpongPipelines() {
  registerPingpongPasses();
  registerPipeline(
      "pingpong-rocdl",
      "Annotate K loops and lower the gpu.module to the LLVM dialect for ROCDL "
      "(then: pingpong-translate --mlir-to-llvmir | opt -O3 | llc "
      "-mtriple=amdgcn-amd-amdhsa -mcpu=<chip> -load the plugin)",
      /*ROCDL=*/true);
  registerPipeline(
      "pingpong-nvvm",
      "The same for NVVM (numeric checks of the rewrites on an NVIDIA GPU; "
      "MFMAs do not lower there)",
      /*ROCDL=*/false);
}
