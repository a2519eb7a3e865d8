// RUN: pingpong-opt %s --pingpong-extract-device-module=name=b | FileCheck %s
// RUN: not pingpong-opt %s --pingpong-extract-device-module 2>&1 | FileCheck %s --check-prefix=TWO
// The named gpu.module's body becomes the module; host code goes; the
// #rocdl.target gives the triple and each function's target_cpu.

// CHECK:      module attributes {llvm.data_layout = "e-p:64:64", llvm.target_triple = "amdgcn-amd-amdhsa"} {
// CHECK-NEXT:   llvm.func @kb() attributes {rocdl.kernel, target_cpu = "gfx950"}
// CHECK-NOT:  gpu.
// CHECK-NOT:  @ka
// CHECK-NOT:  @host
// TWO: error: pingpong-extract-device-module: expected exactly one gpu.module, found 2
module attributes {gpu.container_module} {
  gpu.module @a [#rocdl.target<chip = "gfx942">] {
    llvm.func @ka() attributes {rocdl.kernel} {
      llvm.return
    }
  }
  gpu.module @b [#rocdl.target<chip = "gfx950">] attributes {llvm.data_layout = "e-p:64:64"} {
    llvm.func @kb() attributes {rocdl.kernel} {
      llvm.return
    }
  }
  func.func @host() {
    return
  }
}
