// RUN: not pingpong-opt %s --pingpong-rocdl=chip=gfx942 -o %t.mlir 2>&1 | FileCheck %s
// An op no conversion of the pipeline lowers is an error at the op and exit 1
// (it used to pass through with exit 0 and fail in pingpong-translate as
// "Dialect `emitc' not found"). What the conversions do lower, e.g.
// vector.extract_strided_slice (convert-vector-to-llvm): test/MLIR/user-*.test.
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @k(%o: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    // CHECK: unlowered-op.mlir:[[#@LINE+1]]:10: error: pingpong-extract-device-module: 'emitc.literal' was not lowered to the LLVM dialect (no conversion pattern for it); pingpong-translate cannot translate it
    %y = emitc.literal "x" : i32
    memref.store %y, %o[%tid] : memref<64xi32>
    gpu.return
  }
}
}
