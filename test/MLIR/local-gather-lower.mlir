// RUN: pingpong-opt %s --pingpong-lower-local-gather | FileCheck %s
// RUN: pingpong-opt %s --pingpong-lower-local-gather=test-no-bound-check=true | FileCheck %s --check-prefix=NOBOUND
// --pingpong-lower-local-gather: the range check as vector arithmetic, a safe
// offset, one LDS load per lane, a select of `other`; the preload as a copy
// loop over the workgroup's threads and a barrier.

#wg = #gpu.address_space<workgroup>

// CHECK-LABEL: func.func @vector_masked
// CHECK-SAME:    (%[[L:.*]]: memref<4096xf32, #gpu.address_space<workgroup>>, %[[I:.*]]: vector<4xi32>, %[[M:.*]]: vector<4xi1>, %[[O:.*]]: f32)
// CHECK:       %[[N:.*]] = arith.constant dense<4096> : vector<4xi32>
// CHECK:       %[[IN:.*]] = arith.cmpi ult, %[[I]], %[[N]] : vector<4xi32>
// CHECK:       %[[OK:.*]] = arith.andi %[[IN]], %[[M]] : vector<4xi1>
// CHECK:       %[[Z:.*]] = arith.constant dense<0> : vector<4xi32>
// CHECK:       %[[S:.*]] = arith.select %[[OK]], %[[I]], %[[Z]] : vector<4xi1>, vector<4xi32>
// CHECK:       %[[S0:.*]] = vector.extract %[[S]][0] : i32 from vector<4xi32>
// CHECK:       %[[X0:.*]] = arith.index_cast %[[S0]] : i32 to index
// CHECK:       %[[V0:.*]] = memref.load %[[L]][%[[X0]]]
// CHECK-COUNT-3: memref.load %[[L]]
// CHECK:       %[[V:.*]] = vector.from_elements %[[V0]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:       %[[OB:.*]] = vector.broadcast %[[O]] : f32 to vector<4xf32>
// CHECK:       %[[R:.*]] = arith.select %[[OK]], %[[V]], %[[OB]] : vector<4xi1>, vector<4xf32>
// CHECK:       return %[[R]]
// NOBOUND-LABEL: func.func @vector_masked
// NOBOUND-NOT:   arith.cmpi
// NOBOUND:       arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xi32>
func.func @vector_masked(%l: memref<4096xf32, #wg>, %i: vector<4xi32>, %m: vector<4xi1>, %o: f32) -> vector<4xf32> {
  %r = pingpong.local_gather %l[%i] mask(%m) other(%o) : memref<4096xf32, #wg>, vector<4xi32> -> vector<4xf32>
  return %r : vector<4xf32>
}

// No mask, no other: the range check alone, zero for out-of-range lanes.
// CHECK-LABEL: func.func @vector_plain
// CHECK:       %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : vector<2xindex>
// CHECK-NOT:   arith.andi
// CHECK:       arith.select %[[IN]]
// CHECK-COUNT-2: memref.load
// CHECK:       %[[ZF:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       vector.broadcast %[[ZF]]
// CHECK:       arith.select %[[IN]]
func.func @vector_plain(%l: memref<64xf32, 3>, %i: vector<2xindex>) -> vector<2xf32> {
  %r = pingpong.local_gather %l[%i] : memref<64xf32, 3>, vector<2xindex> -> vector<2xf32>
  return %r : vector<2xf32>
}

// i8 indices into 200 elements: every non-negative i8 is below 200, so the
// check is `>= 0`; a 2-D index vector goes through a 1-D one.
// CHECK-LABEL: func.func @i8_2d
// CHECK:       %[[F:.*]] = vector.shape_cast %{{.*}} : vector<2x2xi8> to vector<4xi8>
// CHECK:       arith.cmpi sge, %[[F]], %{{.*}} : vector<4xi8>
// CHECK-COUNT-4: memref.load
// CHECK:       %[[R:.*]] = arith.select
// CHECK:       vector.shape_cast %[[R]] : vector<4xf16> to vector<2x2xf16>
func.func @i8_2d(%l: memref<200xf16, 3>, %i: vector<2x2xi8>) -> vector<2x2xf16> {
  %r = pingpong.local_gather %l[%i] : memref<200xf16, 3>, vector<2x2xi8> -> vector<2x2xf16>
  return %r : vector<2x2xf16>
}

// A scalar per thread.
// CHECK-LABEL: func.func @scalar
// CHECK:       %[[IN:.*]] = arith.cmpi ult, %[[I:.*]], %{{.*}} : i32
// CHECK:       %[[S:.*]] = arith.select %[[IN]], %[[I]], %{{.*}} : i32
// CHECK:       %[[X:.*]] = arith.index_cast %[[S]] : i32 to index
// CHECK:       %[[V:.*]] = memref.load %{{.*}}[%[[X]]] : memref<64xf32, 3>
// CHECK:       arith.select %[[IN]], %[[V]], %{{.*}} : f32
func.func @scalar(%l: memref<64xf32, 3>, %i: i32, %o: f32) -> f32 {
  %r = pingpong.local_gather %l[%i] other(%o) : memref<64xf32, 3>, i32 -> f32
  return %r : f32
}

// In a kernel the preload is spread over the workgroup's threads, then a
// barrier; outside one it is one loop and no barrier.
// CHECK-LABEL: gpu.func @preload_kernel
// CHECK-DAG:   gpu.thread_id  x
// CHECK-DAG:   gpu.block_dim  x
// CHECK-DAG:   %[[N:.*]] = arith.constant 1024 : index
// CHECK:       %[[SIZE:.*]] = memref.dim %[[G:.*]], %c0
// CHECK:       scf.for %[[J:.*]] = %[[TID:.*]] to %[[N]] step %[[NT:.*]] {
// CHECK:         %[[GI:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK:         %[[IN:.*]] = arith.cmpi ult, %[[GI]], %[[SIZE]] : index
// CHECK:         %[[V:.*]] = scf.if %[[IN]] -> (f32) {
// CHECK:           memref.load %[[G]][%[[GI]]] : memref<?xf32>
// CHECK:         } else {
// CHECK:         memref.store %[[V]], %{{.*}}[%[[J]]] : memref<1024xf32, #gpu.address_space<workgroup>>
// CHECK:       }
// CHECK-NEXT:  gpu.barrier
gpu.module @m {
  gpu.func @preload_kernel(%g: memref<?xf32>, %s: index) workgroup(%b : memref<1024xf32, #wg>) kernel {
    pingpong.local_preload %g[%s] -> %b : memref<?xf32>, memref<1024xf32, #wg>
    gpu.return
  }
}

// known_block_size: the counts are constants, y and z of size 1 drop out.
// CHECK-LABEL: gpu.func @preload_known
// CHECK-NOT:   gpu.block_dim
// CHECK-DAG:   %[[T:.*]] = gpu.thread_id  x
// CHECK-DAG:   %[[C256:.*]] = arith.constant 256 : index
// CHECK:       scf.for %{{.*}} = %[[T]] to %{{.*}} step %[[C256]]
// CHECK:       gpu.barrier
gpu.module @m2 {
  gpu.func @preload_known(%g: memref<?xf32>, %s: index) workgroup(%b : memref<1024xf32, #wg>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    pingpong.local_preload %g[%s] -> %b : memref<?xf32>, memref<1024xf32, #wg>
    gpu.return
  }
}

// CHECK-LABEL: func.func @preload_cpu
// CHECK-NOT:   gpu.thread_id
// CHECK:       scf.for %{{.*}} = %c0 to %c16 step %c1
// CHECK-NOT:   gpu.barrier
// CHECK:       return
func.func @preload_cpu(%g: memref<?xf32>, %s: index, %b: memref<16xf32, 3>) {
  pingpong.local_preload %g[%s] -> %b : memref<?xf32>, memref<16xf32, 3>
  return
}
