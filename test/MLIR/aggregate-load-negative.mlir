// RUN: pingpong-opt %s -split-input-file --pingpong-aggregate-load -verify-diagnostics | FileCheck %s
// K loops --pingpong-aggregate-load leaves alone, with the reason.
// CHECK-NOT: memref<16x512xf16, #gpu.address_space<workgroup>>

#wg = #gpu.address_space<workgroup>
gpu.module @m {
  // The trip count must be known (K static, as seed 000 assumes).
  gpu.func @dynamic_k(%g: memref<16x?xf16>, %n: index) workgroup(%l: memref<16x64xf16, #wg>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-remark @+1 {{pingpong: aggregate load: the loop's trip count is not a constant (K must be static)}}
    scf.for %k = %c0 to %n step %c1 {
      %r = vector.load %l[%c0, %c0] : memref<16x64xf16, #wg>, vector<8xf16>
      %v = vector.load %g[%c0, %k] : memref<16x?xf16>, vector<8xf16>
      vector.store %v, %l[%c0, %c0] : memref<16x64xf16, #wg>, vector<8xf16>
    }
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>
gpu.module @m {
  // A store to global memory in the loop: its loads must stay in place.
  gpu.func @global_store(%g: memref<16x512xf16>, %o: memref<16xf16>) workgroup(%l: memref<16x64xf16, #wg>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    // expected-remark @+1 {{pingpong: aggregate load: the loop writes global memory; its loads stay in place}}
    scf.for %k = %c0 to %c7 step %c1 {
      %r = vector.load %l[%c0, %c0] : memref<16x64xf16, #wg>, vector<8xf16>
      // expected-note @+1 {{here}}
      vector.store %r, %o[%c0] : memref<16xf16>, vector<8xf16>
      %v = vector.load %g[%c0, %k] : memref<16x512xf16>, vector<8xf16>
      vector.store %v, %l[%c0, %c0] : memref<16x64xf16, #wg>, vector<8xf16>
    }
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>
gpu.module @m {
  // Written before it is read in the same iteration: not one tile ahead.
  gpu.func @same_iteration(%g: memref<16x512xf16>) workgroup(%l: memref<16x64xf16, #wg>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    // expected-remark @+1 {{pingpong: aggregate load: no operand to hoist: the loop writes LDS buffer wg0 before it reads it (not one tile ahead)}}
    scf.for %k = %c0 to %c7 step %c1 {
      %v = vector.load %g[%c0, %k] : memref<16x512xf16>, vector<8xf16>
      vector.store %v, %l[%c0, %c0] : memref<16x64xf16, #wg>, vector<8xf16>
      %r = vector.load %l[%c0, %c0] : memref<16x64xf16, #wg>, vector<8xf16>
    }
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>
gpu.module @m {
  // The LDS data depends on the previous iteration (an accumulation), not
  // only on global memory.
  gpu.func @carried(%g: memref<16x512xf16>) workgroup(%l: memref<16x64xf16, #wg>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %z = arith.constant dense<0.0> : vector<8xf16>
    // expected-remark @+1 {{pingpong: aggregate load: no operand to hoist: the op writing LDS buffer wg0 does more than copy global data}}
    %s = scf.for %k = %c0 to %c7 step %c1 iter_args(%acc = %z) -> vector<8xf16> {
      %r = vector.load %l[%c0, %c0] : memref<16x64xf16, #wg>, vector<8xf16>
      %v = vector.load %g[%c0, %k] : memref<16x512xf16>, vector<8xf16>
      %w = arith.addf %v, %acc : vector<8xf16>
      vector.store %w, %l[%c0, %c0] : memref<16x64xf16, #wg>, vector<8xf16>
      scf.yield %r : vector<8xf16>
    }
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>
gpu.module @m {
  // Used through a view: only plain loads and stores are rewritten.
  gpu.func @view(%g: memref<16x512xf16>) workgroup(%l: memref<16x64xf16, #wg>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    // expected-remark @+1 {{pingpong: aggregate load: no operand to hoist: LDS buffer wg0 is used by 'memref.subview'}}
    scf.for %k = %c0 to %c7 step %c1 {
      %s = memref.subview %l[0, 0] [16, 32] [1, 1] : memref<16x64xf16, #wg> to memref<16x32xf16, strided<[64, 1]>, #wg>
      %r = vector.load %s[%c0, %c0] : memref<16x32xf16, strided<[64, 1]>, #wg>, vector<8xf16>
      %v = vector.load %g[%c0, %k] : memref<16x512xf16>, vector<8xf16>
      vector.store %v, %l[%c0, %c0] : memref<16x64xf16, #wg>, vector<8xf16>
    }
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>
gpu.module @m {
  // An i32 induction variable: the tile views need index arithmetic.
  gpu.func @i32_iv(%g: memref<16x512xf16>) workgroup(%l: memref<16x64xf16, #wg>) kernel {
    %c0 = arith.constant 0 : index
    %z = arith.constant 0 : i32
    %o = arith.constant 1 : i32
    %n = arith.constant 7 : i32
    // expected-remark @+1 {{pingpong: aggregate load: the loop's induction variable is not an index}}
    scf.for %k = %z to %n step %o : i32 {
      %r = vector.load %l[%c0, %c0] : memref<16x64xf16, #wg>, vector<8xf16>
      %ki = arith.index_cast %k : i32 to index
      %v = vector.load %g[%c0, %ki] : memref<16x512xf16>, vector<8xf16>
      vector.store %v, %l[%c0, %c0] : memref<16x64xf16, #wg>, vector<8xf16>
    }
    gpu.return
  }
}
