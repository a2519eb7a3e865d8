// RUN: pingpong-opt %s -split-input-file -verify-diagnostics
// pingpong.local_gather / pingpong.local_preload: what the verifier refuses.

func.func @global_source(%g: memref<64xf32>, %i: vector<4xi32>) {
  // expected-error @+1 {{'pingpong.local_gather' op source must be in workgroup memory (#gpu.address_space<workgroup> or 3), got 'memref<64xf32>'}}
  %r = pingpong.local_gather %g[%i] : memref<64xf32>, vector<4xi32> -> vector<4xf32>
  return
}

// -----

func.func @rank2(%l: memref<8x8xf32, 3>, %i: vector<4xi32>) {
  // expected-error @+1 {{source must be a rank-1 memref of static size, got 'memref<8x8xf32, 3>'}}
  %r = pingpong.local_gather %l[%i] : memref<8x8xf32, 3>, vector<4xi32> -> vector<4xf32>
  return
}

// -----

func.func @dynamic(%l: memref<?xf32, 3>, %i: vector<4xi32>) {
  // expected-error @+1 {{source must be a rank-1 memref of static size, got 'memref<?xf32, 3>'}}
  %r = pingpong.local_gather %l[%i] : memref<?xf32, 3>, vector<4xi32> -> vector<4xf32>
  return
}

// -----

func.func @empty(%l: memref<0xf32, 3>, %i: i32) {
  // expected-error @+1 {{source must have 1 to 2^31-1 elements, got 'memref<0xf32, 3>'}}
  %r = pingpong.local_gather %l[%i] : memref<0xf32, 3>, i32 -> f32
  return
}

// -----

func.func @float_indices(%l: memref<64xf32, 3>, %i: vector<4xf32>) {
  // expected-error @+1 {{operand #1 must be signless integer or index or fixed-length vector of signless integer or index values, but got 'vector<4xf32>'}}
  %r = "pingpong.local_gather"(%l, %i) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (memref<64xf32, 3>, vector<4xf32>) -> vector<4xf32>
  return
}

// -----

func.func @result_type(%l: memref<64xf32, 3>, %i: vector<4xi32>) {
  // expected-error @+1 {{result must be 'vector<4xf32>' (the source's element type in the indices' shape), got 'vector<8xf32>'}}
  %r = pingpong.local_gather %l[%i] : memref<64xf32, 3>, vector<4xi32> -> vector<8xf32>
  return
}

// -----

func.func @scalar_result(%l: memref<64xf32, 3>, %i: i32) {
  // expected-error @+1 {{result must be 'f32' (the source's element type in the indices' shape), got 'vector<1xf32>'}}
  %r = pingpong.local_gather %l[%i] : memref<64xf32, 3>, i32 -> vector<1xf32>
  return
}

// -----

func.func @mask_shape(%l: memref<64xf32, 3>, %i: vector<4xi32>, %m: vector<8xi1>) {
  // expected-error @+1 {{failed to verify that mask has the shape of the indices, with i1 elements}}
  %r = "pingpong.local_gather"(%l, %i, %m) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (memref<64xf32, 3>, vector<4xi32>, vector<8xi1>) -> vector<4xf32>
  return
}

// -----

func.func @other_type(%l: memref<64xf32, 3>, %i: vector<4xi32>, %o: f16) {
  // expected-error @+1 {{failed to verify that other has the source's element type}}
  %r = "pingpong.local_gather"(%l, %i, %o) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>}> : (memref<64xf32, 3>, vector<4xi32>, f16) -> vector<4xf32>
  return
}

// -----

func.func @preload_dest(%g: memref<?xf32>, %d: memref<64xf32>, %s: index) {
  // expected-error @+1 {{'pingpong.local_preload' op dest must be in workgroup memory (#gpu.address_space<workgroup> or 3), got 'memref<64xf32>'}}
  pingpong.local_preload %g[%s] -> %d : memref<?xf32>, memref<64xf32>
  return
}

// -----

func.func @preload_source(%g: memref<128xf32, #gpu.address_space<workgroup>>, %d: memref<64xf32, 3>, %s: index) {
  // expected-error @+1 {{source must be outside workgroup memory (it is the global range to preload)}}
  pingpong.local_preload %g[%s] -> %d : memref<128xf32, #gpu.address_space<workgroup>>, memref<64xf32, 3>
  return
}

// -----

func.func @preload_types(%g: memref<?xf16>, %d: memref<64xf32, 3>, %s: index) {
  // expected-error @+1 {{failed to verify that all of {source, dest} have same element type}}
  pingpong.local_preload %g[%s] -> %d : memref<?xf16>, memref<64xf32, 3>
  return
}
