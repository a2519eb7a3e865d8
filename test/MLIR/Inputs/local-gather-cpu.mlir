// The CPU form of local_preload + local_gather (test/MLIR/local-gather.test):
// lowered by --pingpong-lower-local-gather, then run by mlir-runner.
//
// The bucket is the view %big[4 .. 20) of a 32-element address-space-3
// buffer whose other elements hold sentinels (-1000 - i): a lane that read
// outside the bucket would print a sentinel. The preload copies g[28 .. 40)
// (g[i] = i + 0.5) into bucket[0 .. 12) and zeroes bucket[12 .. 16), which
// lies past the end of g.
#wg = 3
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c28 = arith.constant 28 : index
    %c40 = arith.constant 40 : index
    %g = memref.alloc() : memref<40xf32>
    scf.for %i = %c0 to %c40 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %h = arith.constant 0.5 : f32
      %v = arith.addf %f, %h : f32
      memref.store %v, %g[%i] : memref<40xf32>
    }
    %big = memref.alloc() : memref<32xf32, #wg>
    scf.for %i = %c0 to %c32 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %k = arith.constant -1000.0 : f32
      %v = arith.subf %k, %f : f32
      memref.store %v, %big[%i] : memref<32xf32, #wg>
    }
    %bucket = memref.subview %big[4] [16] [1] : memref<32xf32, #wg> to memref<16xf32, strided<[1], offset: 4>, #wg>
    %gd = memref.cast %g : memref<40xf32> to memref<?xf32>
    pingpong.local_preload %gd[%c28] -> %bucket : memref<?xf32>, memref<16xf32, strided<[1], offset: 4>, #wg>
    %seven = arith.constant 7.0 : f32

    // In range (0, 5, 11), in range but past g (12, 15), out of range
    // (16, 19, -1, -4): the last four give 7.
    %i1 = arith.constant dense<[0, 5, 11, 12, 15, 16, 19, -1, -4]> : vector<9xi32>
    %r1 = pingpong.local_gather %bucket[%i1] other(%seven) : memref<16xf32, strided<[1], offset: 4>, #wg>, vector<9xi32> -> vector<9xf32>
    vector.print %r1 : vector<9xf32>

    // Masked-off lanes give `other` even when their index is in range; no
    // `other`: zero.
    %i2 = arith.constant dense<[1, 2, 3, 20]> : vector<4xi32>
    %m2 = arith.constant dense<[true, false, true, true]> : vector<4xi1>
    %r2 = pingpong.local_gather %bucket[%i2] mask(%m2) other(%seven) : memref<16xf32, strided<[1], offset: 4>, #wg>, vector<4xi32> -> vector<4xf32>
    vector.print %r2 : vector<4xf32>
    %r3 = pingpong.local_gather %bucket[%i2] mask(%m2) : memref<16xf32, strided<[1], offset: 4>, #wg>, vector<4xi32> -> vector<4xf32>
    vector.print %r3 : vector<4xf32>

    // A 2-D index vector of i8, and scalars (index; i8 -3).
    %i4 = arith.constant dense<[[2, -3], [16, 9]]> : vector<2x2xi8>
    %r4 = pingpong.local_gather %bucket[%i4] other(%seven) : memref<16xf32, strided<[1], offset: 4>, #wg>, vector<2x2xi8> -> vector<2x2xf32>
    vector.print %r4 : vector<2x2xf32>
    %c6 = arith.constant 6 : index
    %r5 = pingpong.local_gather %bucket[%c6] other(%seven) : memref<16xf32, strided<[1], offset: 4>, #wg>, index -> f32
    vector.print %r5 : f32
    %cm3 = arith.constant -3 : i8
    %r6 = pingpong.local_gather %bucket[%cm3] other(%seven) : memref<16xf32, strided<[1], offset: 4>, #wg>, i8 -> f32
    vector.print %r6 : f32
    memref.dealloc %g : memref<40xf32>
    return
  }

  // Far out of range (run on its own: without the check these fault).
  func.func @far() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %bucket = memref.alloc() : memref<16xf32, #wg>
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %bucket[%i] : memref<16xf32, #wg>
    }
    %seven = arith.constant 7.0 : f32
    %i7 = arith.constant dense<[2147483647, -2147483648, 3, 16]> : vector<4xi32>
    %r7 = pingpong.local_gather %bucket[%i7] other(%seven) : memref<16xf32, #wg>, vector<4xi32> -> vector<4xf32>
    vector.print %r7 : vector<4xf32>
    %i8 = arith.constant dense<[9223372036854775807, -9223372036854775808, 4294967296, 15]> : vector<4xi64>
    %r8 = pingpong.local_gather %bucket[%i8] other(%seven) : memref<16xf32, #wg>, vector<4xi64> -> vector<4xf32>
    vector.print %r8 : vector<4xf32>
    return
  }
}
