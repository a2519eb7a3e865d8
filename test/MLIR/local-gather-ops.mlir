// RUN: pingpong-opt %s | FileCheck %s
// RUN: pingpong-opt %s | pingpong-opt | FileCheck %s
// RUN: pingpong-opt %s --mlir-print-op-generic | pingpong-opt | FileCheck %s
// pingpong.local_gather / pingpong.local_preload (seed 003): the forms that
// parse, and print back the same (docs/local-gather.md).

#wg = #gpu.address_space<workgroup>
// CHECK-LABEL: func.func @forms
func.func @forms(%g: memref<?xf32>, %start: index,
                 %bucket: memref<4096xf32, #wg>, %b3: memref<64xf16, 3>,
                 %idx: vector<4xi32>, %m: vector<4xi1>, %o: f32,
                 %i: index, %i8: vector<2x4xi8>, %m8: vector<2x4xi1>,
                 %s: memref<16xf32, strided<[1], offset: 4>, 3>) {
  // CHECK: pingpong.local_preload %{{.*}}[%{{.*}}] -> %{{.*}} : memref<?xf32>, memref<4096xf32, #gpu.address_space<workgroup>>
  pingpong.local_preload %g[%start] -> %bucket : memref<?xf32>, memref<4096xf32, #wg>
  // CHECK: pingpong.local_gather %{{.*}}[%{{.*}}] mask(%{{.*}}) other(%{{.*}}) : memref<4096xf32, #gpu.address_space<workgroup>>, vector<4xi32> -> vector<4xf32>
  %a = pingpong.local_gather %bucket[%idx] mask(%m) other(%o) : memref<4096xf32, #wg>, vector<4xi32> -> vector<4xf32>
  // CHECK: pingpong.local_gather %{{.*}}[%{{.*}}] : memref<4096xf32, #gpu.address_space<workgroup>>, vector<4xi32> -> vector<4xf32>
  %b = pingpong.local_gather %bucket[%idx] : memref<4096xf32, #wg>, vector<4xi32> -> vector<4xf32>
  // CHECK: pingpong.local_gather %{{.*}}[%{{.*}}] other(%{{.*}}) : memref<4096xf32, #gpu.address_space<workgroup>>, vector<4xi32> -> vector<4xf32>
  %c = pingpong.local_gather %bucket[%idx] other(%o) : memref<4096xf32, #wg>, vector<4xi32> -> vector<4xf32>
  // scalar per thread, address space 3 as an integer
  // CHECK: pingpong.local_gather %{{.*}}[%{{.*}}] : memref<64xf16, 3>, index -> f16
  %d = pingpong.local_gather %b3[%i] : memref<64xf16, 3>, index -> f16
  // 2-D index vectors, i8 indices, a strided view
  // CHECK: pingpong.local_gather %{{.*}}[%{{.*}}] mask(%{{.*}}) : memref<16xf32, strided<[1], offset: 4>, 3>, vector<2x4xi8> -> vector<2x4xf32>
  %e = pingpong.local_gather %s[%i8] mask(%m8) : memref<16xf32, strided<[1], offset: 4>, 3>, vector<2x4xi8> -> vector<2x4xf32>
  return
}
