//===- PingpongPasses.td - pingpong passes ----------------*- tablegen -*-===//
#ifndef PINGPONG_PASSES_TD
#define PINGPONG_PASSES_TD

include "mlir/Pass/PassBase.td"

def PingpongAnnotate : Pass<"pingpong-annotate"> {
  let summary = "Find each kernel's K loop, classify its ops and tag it";
  let description = [{
    In every gpu.func (and func.func), finds the scf.for loops that hold
    MFMAs (amdgpu.mfma, amdgpu.scaled_mfma, rocdl.mfma.*), classifies the
    loop's ops (operand loads, LDS writes and reads, MFMAs, scales,
    barriers), picks a mode by the plugin's auto thresholds or takes the
    loop's `pingpong.mode` / `pingpong.layout`, and sets `pingpong.loop` on
    the loop and `pingpong.mem` on each memory op. The tags also ride on the
    ops' locations, so they survive the lowering to the LLVM dialect, where
    --pingpong-attach-metadata turns them into loop metadata and alias scopes.
    Loops it leaves alone get a remark saying why.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "Emit a remark per loop (tagged or why not)">,
  ];
  let dependentDialects = ["::mlir::pingpong::PingpongDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def PingpongAttachMetadata : Pass<"pingpong-attach-metadata"> {
  let summary = "Turn pingpong tags into LLVM-dialect loop metadata and alias scopes";
  let description = [{
    After the lowering to the LLVM dialect: the latch branch of each tagged
    loop gets `pingpong.loop` (pingpong-translate writes it as
    !{!"amdgpu.pingpong", !"<mode>"} or !{!"amdgpu.pingpong.layout", ...} in
    its !llvm.loop), every tagged load/store/LDS-DMA gets alias scopes of its
    buffer, and the tags are taken off the locations.
  }];
  let options = [
    Option<"functionAttr", "function-attr", "bool", /*default=*/"false",
           "Set \"amdgpu-pingpong\"=\"<mode>\" on the function "
           "(passthrough) instead of pingpong.loop on the latches, when all "
           "its tagged loops agree: for stock mlir-translate, which cannot "
           "write custom loop metadata">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def PingpongExtractDeviceModule
    : Pass<"pingpong-extract-device-module", "::mlir::ModuleOp"> {
  let summary = "Make the one gpu.module's body the top-level module";
  let description = [{
    mlir-translate --mlir-to-llvmir skips gpu.module; this moves the body of
    the (single, or named) gpu.module to the top level, dropping host code,
    and keeps its data layout, with the AMDGPU (or NVPTX) triple and the
    chip of its #rocdl.target / #nvvm.target as target_cpu of each function.
  }];
  let options = [
    Option<"moduleName", "name", "std::string", /*default=*/"\"\"",
           "The gpu.module to keep (default: the only one)">,
  ];
}

def PingpongAggregateLoad : Pass<"pingpong-aggregate-load"> {
  let summary = "Load one operand's whole K range into LDS before the K loop";
  let description = [{
    Seed 000's aggregate load: when the K loop reads operand A (or B) from
    global memory tile by tile, and the whole K range of that operand's
    block fits in LDS next to the other operand's buffer, the pass copies it
    to a new workgroup buffer before the loop and reads each K tile from
    that buffer inside the loop. The operand is the one whose whole-K block
    is smaller; a remark says why the pass refuses.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"gfx942\"",
           "LDS budget: gfx942 64 KiB, gfx950 160 KiB">,
    Option<"ldsBudget", "lds-budget", "unsigned", /*default=*/"0",
           "LDS bytes available (0: from the chip)">,
    Option<"operand", "operand", "std::string", /*default=*/"\"auto\"",
           "a, b, scales (all scale buffers of a scaled-MFMA loop), or auto (the smaller whole-K operand block; the scales when neither fits whole; else chunks)">,
    Option<"allowOccupancyLoss", "allow-occupancy-loss", "bool",
           /*default=*/"false",
           "Rewrite even when the LDS it adds lowers the workgroups a CU "
           "holds (by default the pass declines with a remark)">,
    Option<"testSliceBase", "test-slice-base", "bool", /*default=*/"false",
           "Test only: take each iteration's tile view from the previous "
           "slice instead of the whole buffer (seed 000's bug), so the "
           "numeric tests can show they catch it">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::gpu::GPUDialect"];
}

def PingpongLowerLocalGather : Pass<"pingpong-lower-local-gather"> {
  let summary = "Lower pingpong.local_gather and pingpong.local_preload to upstream ops";
  let description = [{
    Seed 003 (docs/local-gather.md). local_gather becomes, per lane, a
    `memref.load` of the LDS buffer at a safe offset (the index when the lane
    is enabled and in range, else 0) and an `arith.select` between the loaded
    value and `other`: straight-line LDS loads with the bound check as
    vector arithmetic. local_preload becomes a copy loop spread over the
    workgroup's threads (one sequential loop outside a gpu.func) and a
    gpu.barrier. Runs first in --pingpong-rocdl and --pingpong-nvvm.
  }];
  let options = [
    Option<"testNoBoundCheck", "test-no-bound-check", "bool",
           /*default=*/"false",
           "Test only: drop local_gather's range check (keep the mask), so "
           "the numeric test can show it catches out-of-range reads">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::gpu::GPUDialect"];
}

#endif // PINGPONG_PASSES_TD
