// RUN: pingpong-opt %s --pingpong-annotate 2>&1 | FileCheck %s --check-prefix=TAG
// RUN: pingpong-opt %s --pingpong-rocdl=chip=gfx942 2>/dev/null | FileCheck %s --check-prefix=LLVM
// LDS DMA (amdgpu.gather_to_lds) in a K loop: tagged lds_dma with the operand
// of its LDS buffer; lowered, the DMA intrinsic carries that buffer's alias
// scope and the other LDS buffer's as noalias (what lets LLVM's wait
// insertion keep ds_reads of B from waiting for the DMA into A).

// TAG: remark: pingpong: K loop tagged one-cluster (auto): 4 waves, 4 MFMA 16x16x16, tile 1048576 bits; 0 global loads, 0 LDS writes, 8 LDS reads, 2 LDS DMA, 1 barriers
// TAG: amdgpu.gather_to_lds {{.*}} {pingpong.mem = #pingpong.mem<lds_dma, a, "wg0">}
// TAG: amdgpu.gather_to_lds {{.*}} {pingpong.mem = #pingpong.mem<lds_dma, b, "wg1">}

// LLVM-DAG: [[LA:#alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "pingpong lds wg0 (a)">
// LLVM-DAG: [[LB:#alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "pingpong lds wg1 (b)">
// LLVM: rocdl.load.to.lds {{.*}}{alias_scopes = {{\[}}[[LA]]{{\]}}, noalias_scopes = {{\[}}[[LB]]{{\]}}}
// LLVM: rocdl.load.to.lds {{.*}}{alias_scopes = {{\[}}[[LB]]{{\]}}, noalias_scopes = {{\[}}[[LA]]{{\]}}}

#wg = #gpu.address_space<workgroup>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @dma(%A: memref<128x1024xf16>, %B: memref<128x1024xf16>, %C: memref<256x4xf32>)
      workgroup(%la: memref<16x64xf16, #wg>, %lb: memref<16x64xf16, #wg>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c15 = arith.constant 15 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %row = arith.remui %tid, %c16 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %k = %c0 to %c15 step %c1 iter_args(%acc = %z) -> vector<4xf32> {
      %a0 = vector.load %la[%row, %c0] : memref<16x64xf16, #wg>, vector<4xf16>
      %b0 = vector.load %lb[%row, %c0] : memref<16x64xf16, #wg>, vector<4xf16>
      %a1 = vector.load %la[%row, %c16] : memref<16x64xf16, #wg>, vector<4xf16>
      %b1 = vector.load %lb[%row, %c16] : memref<16x64xf16, #wg>, vector<4xf16>
      %a2 = vector.load %la[%row, %c32] : memref<16x64xf16, #wg>, vector<4xf16>
      %b2 = vector.load %lb[%row, %c32] : memref<16x64xf16, #wg>, vector<4xf16>
      %a3 = vector.load %la[%row, %c48] : memref<16x64xf16, #wg>, vector<4xf16>
      %b3 = vector.load %lb[%row, %c48] : memref<16x64xf16, #wg>, vector<4xf16>
      %d0 = amdgpu.mfma 16x16x16 %a0 * %b0 + %acc blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
      %d1 = amdgpu.mfma 16x16x16 %a1 * %b1 + %d0 blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
      %d2 = amdgpu.mfma 16x16x16 %a2 * %b2 + %d1 blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
      %d3 = amdgpu.mfma 16x16x16 %a3 * %b3 + %d2 blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
      amdgpu.lds_barrier
      %kn = arith.addi %k, %c1 : index
      %ko = arith.muli %kn, %c64 : index
      amdgpu.gather_to_lds %A[%row, %ko], %la[%c0, %c0] : vector<2xf16>, memref<128x1024xf16>, memref<16x64xf16, #wg>
      amdgpu.gather_to_lds %B[%row, %ko], %lb[%c0, %c0] : vector<2xf16>, memref<128x1024xf16>, memref<16x64xf16, #wg>
      scf.yield %d3 : vector<4xf32>
    }
    vector.store %r, %C[%tid, %c0] : memref<256x4xf32>, vector<4xf32>
    gpu.return
  }
}
}
