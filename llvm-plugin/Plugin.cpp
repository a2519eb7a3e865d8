//===- Plugin.cpp - AMDGPUPingpong.so: registration and pipeline ---------===//
//
// Loading the module is enough (llc -load, clang -fplugin / -Xclang -load):
// static constructors register the passes and a TargetPassConfig callback
// that inserts them into AMDGPU codegen pipelines only.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Passes/Passes.h"

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

/// Eager registration: INITIALIZE_PASS alone does not run at dlopen.
struct Registration {
  Registration() {
    pingpong::initializePingpongPasses(*PassRegistry::getPassRegistry());
  }
} TheRegistration;

RegisterTargetPassConfigCallback InsertPasses(
    [](TargetMachine &TM, PassManagerBase &, TargetPassConfig *TPC) {
      // Host compiles load the plugin too; only AMDGPU code is touched.
      if (!TM.getTargetTriple().isAMDGCN() || !TPC)
        return;
      // IR: loop directives, before the structurizer drops !llvm.loop.
      if (const void *CGP = passID("codegenprepare"))
        TPC->insertPass(CGP, &pingpong::PingpongLoopDirectivesPassID);
      // Pre-RA: on machine SSA, after the last SSA optimisation and before
      // PHI elimination, so the loop body is final.
      if (const void *Before = passID("processimpdefs"))
        TPC->insertPass(Before, &pingpong::PingpongSchedulePassID);
      if (const void *Waits = passID("si-insert-waitcnts"))
        TPC->insertPass(Waits, &pingpong::PingpongFinalCheckPassID);
      // Wait placement and the checker see the final waits: after the last
      // pass that edits them (insertions after one pass run in order).
      if (const void *Last = passID("amdgpu-insert-delay-alu")) {
        if (pingpong::waitPlacementRequested())
          TPC->insertPass(Last, &pingpong::PingpongWaitsPassID);
        if (pingpong::verifyRequested())
          TPC->insertPass(Last, &pingpong::PingpongVerifyPassID);
      }
    });

} // namespace

// Also loadable as a pass plugin (-fpass-plugin, --load-pass-plugin): the
// static registrations above do the work; no IR passes are added.
extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "AMDGPUPingpong", LLVM_VERSION_STRING,
          [](PassBuilder &) {}};
}
