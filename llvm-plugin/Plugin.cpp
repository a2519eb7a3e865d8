//===- Plugin.cpp - the plugin proper: registration and pipeline ---------===//
//
// Built as AMDGPUPingpong-llvm<major>.<minor>.so and loaded by the version-
// checking loader AMDGPUPingpong.so (Loader.cpp); loading it directly works
// too. Loading is enough (llc -load, clang -fplugin / -Xclang -load,
// -fpass-plugin, opt -load-pass-plugin, lld --load-pass-plugin): static
// constructors register the passes and a TargetPassConfig callback that
// inserts them into AMDGPU codegen pipelines only.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Passes/LaneStores.h"
#include "pingpong/Passes/Passes.h"
#include "pingpong/Version.h"

#include "llvm-c/Core.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/PassRegistry.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Target/RegisterTargetPassConfigCallback.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace {

const void *passID(StringRef Arg) {
  const PassInfo *PI = PassRegistry::getPassRegistry()->getPassInfo(Arg);
  return PI ? PI->getTypeInfo() : nullptr;
}

void insertPasses(TargetMachine &TM, PassManagerBase &, TargetPassConfig *TPC) {
  // Host compiles load the plugin too; only AMDGPU code is touched.
  if (!TM.getTargetTriple().isAMDGCN() || !TPC)
    return;
  // IR, before AMDGPU's LDS lowering (the last point where a kernel can get
  // an LDS variable of its own): exchange scratch out of shared buffers
  // (RelocateExchange.cpp).
  // Before it, lane-predicated LDS stores in dot loops without their
  // branches (FlattenLaneStores.cpp; it may add an LDS variable too).
  for (StringRef Arg : {"amdgpu-export-kernel-runtime-handles", "always-inline"})
    if (const void *Before = passID(Arg)) {
      TPC->insertPass(Before, &pingpong::PingpongFlattenLaneStoresPassID);
      TPC->insertPass(Before, &pingpong::PingpongRelocateExchangePassID);
      break;
    }
  // IR, after CodeGenPrepare and before the structurizer: MFMA loops tested
  // at the top are rotated (RotateLoops.cpp), two-buffer LDS DMA copies go
  // a tile further ahead (DMALookahead.cpp), register-staged loads one
  // iteration ahead (LoadLookahead.cpp), then the loop directives are
  // recorded by header, before the structurizer drops !llvm.loop.
  if (const void *CGP = passID("codegenprepare")) {
    TPC->insertPass(CGP, &pingpong::PingpongRotateLoopsPassID);
    TPC->insertPass(CGP, &pingpong::PingpongDMALookaheadPassID);
    TPC->insertPass(CGP, &pingpong::PingpongLoadLookaheadPassID);
    TPC->insertPass(CGP, &pingpong::PingpongLoopDirectivesPassID);
    // Before isel makes the machine function and its occupancy target: the
    // occupancy 4-wave attention kernels run at (OccupancyHint.cpp).
    TPC->insertPass(CGP, &pingpong::PingpongOccupancyHintPassID);
    // Values used after a 4-wave attention loop computed again there
    // (RematAfterLoop.cpp; with -amdgpu-pingpong-single-wave-eight-parts).
    TPC->insertPass(CGP, &pingpong::PingpongRematAfterLoopPassID);
  }
  // Machine SSA, around machine-sink: LDS reads it moves past a bare
  // s_barrier go back before it (PinLDSReadsAtBarriers.cpp), whether or not
  // the plugin schedules anything.
  if (pingpong::ldsReadPinRequested())
    if (const void *BeforeSink = passID("machine-cse"))
      if (const void *Sink = passID("machine-sink")) {
        TPC->insertPass(BeforeSink, &pingpong::PingpongPinLDSReadsPassID);
        TPC->insertPass(Sink, &pingpong::PingpongRestoreLDSReadsPassID);
      }
  // Pre-RA: on machine SSA, after the last SSA optimisation and before
  // PHI elimination, so the loop body is final.
  if (const void *Before = passID("processimpdefs"))
    TPC->insertPass(Before, &pingpong::PingpongSchedulePassID);
  // LLVM 22.1's missing LDS-DMA waits (RepairDMAWaits.cpp): where the memory
  // model asked for a DMA drain is recorded before si-insert-waitcnts erases
  // the request.
  if (pingpong::dmaWaitRepairRequested())
    if (const void *Legalizer = passID("si-memory-legalizer"))
      TPC->insertPass(Legalizer, &pingpong::PingpongReleasePointsPassID);
  if (const void *Waits = passID("si-insert-waitcnts"))
    TPC->insertPass(Waits, &pingpong::PingpongFinalCheckPassID);
  // Wait placement and the checker see the final waits: after the last
  // pass that edits them (insertions after one pass run in order).
  if (const void *Last = passID("amdgpu-insert-delay-alu")) {
    // The repair first: placement and the checker see the repaired waits.
    // Whether or not the plugin scheduled anything (-amdgpu-pingpong=off
    // turns scheduling off, not this).
    if (pingpong::dmaWaitRepairRequested())
      TPC->insertPass(Last, &pingpong::PingpongRepairDMAWaitsPassID);
    // Always: a mode may ask for it per loop (requestWaitPlacement).
    TPC->insertPass(Last, &pingpong::PingpongWaitsPassID);
    if (pingpong::verifyRequested())
      TPC->insertPass(Last, &pingpong::PingpongVerifyPassID);
  }
}

/// Loaded directly (not through AMDGPUPingpong.so) into another LLVM whose
/// symbols happen to resolve: the same check as the loader's.
bool sameLLVM() {
  unsigned Major = 0, Minor = 0, Patch = 0;
  LLVMGetVersion(&Major, &Minor, &Patch);
  if (Major == LLVM_VERSION_MAJOR && Minor == LLVM_VERSION_MINOR)
    return true;
  errs() << "AMDGPUPingpong " PINGPONG_VERSION ": built for LLVM "
         << LLVM_VERSION_STRING << ", but this process runs LLVM " << Major
         << "." << Minor << "." << Patch
         << "; the plugin does nothing. Build it against this LLVM.\n";
  return false;
}

/// Eager registration: INITIALIZE_PASS alone does not run at dlopen.
struct Registration {
  std::optional<RegisterTargetPassConfigCallback> InsertPasses;
  Registration() {
    if (!sameLLVM())
      return;
    pingpong::initializePingpongPasses(*PassRegistry::getPassRegistry());
    InsertPasses.emplace(insertPasses);
    cl::AddExtraVersionPrinter([](raw_ostream &OS) {
      OS << "AMDGPUPingpong " PINGPONG_VERSION " (plugin, built for LLVM "
         << LLVM_VERSION_STRING << ")\n";
    });
  }
} TheRegistration;

/// New pass manager: the annotate route alone, for opt
/// (-passes=amdgpu-pingpong-annotations): __attribute__((annotate(
/// "amdgpu-pingpong=<mode>"))) becomes the "amdgpu-pingpong" attribute.
/// Codegen does the same by itself; this shows the result in IR.
struct AnnotationsPass : PassInfoMixin<AnnotationsPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    bool Changed = false;
    for (Function &F : M)
      if (!F.isDeclaration())
        Changed |= pingpong::applyPingpongAnnotation(F);
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

} // namespace

// Loader.cpp, which includes no LLVM header, copies this struct as its
// version-2 layout: update it when LLVM changes the plugin API.
static_assert(LLVM_PLUGIN_API_VERSION == 2 &&
                  sizeof(PassPluginLibraryInfo) == 5 * sizeof(void *),
              "Loader.cpp's PassPluginInfoV2 no longer matches this LLVM");

// The pass-plugin entry (-fpass-plugin, -load-pass-plugin, lld
// --load-pass-plugin). The codegen passes come from the static registration
// above (the TargetPassConfig callback also fires inside lld's LTO codegen);
// the only pass added here is the named annotation pass, run on request.
extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "AMDGPUPingpong", PINGPONG_VERSION,
          [](PassBuilder &PB) {
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name != "amdgpu-pingpong-annotations")
                    return false;
                  MPM.addPass(AnnotationsPass());
                  return true;
                });
          }};
}
