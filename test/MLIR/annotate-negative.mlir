// RUN: pingpong-opt %s -split-input-file --pingpong-annotate -verify-diagnostics | FileCheck %s
// Loops --pingpong-annotate leaves alone, each with a remark saying why (and
// a warning where the user asked for a mode). No tag is written.
// CHECK-NOT: pingpong.loop =
// CHECK-NOT: pingpong.mem =

#wg = #gpu.address_space<workgroup>
gpu.module @m {
  // expected-remark @+1 {{pingpong: no K loop in 'no_mfma': no scf.for holds an MFMA}}
  gpu.func @no_mfma(%a: memref<64x64xf32, #wg>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %z = arith.constant 0.0 : f32
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> f32 {
      %x = memref.load %a[%i, %c0] : memref<64x64xf32, #wg>
      %s = arith.addf %acc, %x : f32
      scf.yield %s : f32
    }
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>
gpu.module @m {
  gpu.func @control_flow(%a: memref<64x64xf16, #wg>, %p: i1) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    // expected-remark @+1 {{pingpong: loop not tagged: the loop body has control flow ('scf.if'): the plugin needs a single-block body}}
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> vector<4xf32> {
      %x = vector.load %a[%i, %c0] : memref<64x64xf16, #wg>, vector<4xf16>
      // expected-note @+1 {{here}}
      %y = scf.if %p -> vector<4xf16> {
        %l = vector.load %a[%c0, %i] : memref<64x64xf16, #wg>, vector<4xf16>
        scf.yield %l : vector<4xf16>
      } else {
        scf.yield %x : vector<4xf16>
      }
      %d = amdgpu.mfma 16x16x16 %x * %y + %acc blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
      scf.yield %d : vector<4xf32>
    }
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>
gpu.module @m {
  gpu.func @lds_bypass(%g: memref<64x64xf16>, %a: memref<64x64xf16, #wg>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    // expected-remark @+1 {{pingpong: loop not tagged: an MFMA operand comes straight from a global load (LDS bypass)}}
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> vector<4xf32> {
      %x = vector.load %a[%i, %c0] : memref<64x64xf16, #wg>, vector<4xf16>
      // expected-note @+1 {{here}}
      %y = vector.load %g[%i, %c0] : memref<64x64xf16>, vector<4xf16>
      %d = amdgpu.mfma 16x16x16 %x * %y + %acc blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
      scf.yield %d : vector<4xf32>
    }
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>
gpu.module @m {
  gpu.func @tiny_tile(%a: memref<64x64xf16, #wg>, %b: memref<64x64xf16, #wg>) kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    // one 16x16x16 MFMA per wave, 8 waves: 32768 x 16 bits
    // expected-remark @+1 {{pingpong: loop not tagged: tile 524288 bits is below 8388608, the smallest two-cluster tile for 8 waves}}
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> vector<4xf32> {
      %x = vector.load %a[%i, %c0] : memref<64x64xf16, #wg>, vector<4xf16>
      %y = vector.load %b[%i, %c0] : memref<64x64xf16, #wg>, vector<4xf16>
      %d = amdgpu.mfma 16x16x16 %x * %y + %acc blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
      scf.yield %d : vector<4xf32>
    }
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>
gpu.module @m {
  // Not a gpu.func kernel (a gpu.func kernel without known_block_size gets
  // the ROCDL default's 4 waves: default-block-size.test).
  func.func @unknown_waves(%a: memref<64x64xf16, #wg>, %b: memref<64x64xf16, #wg>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    // expected-remark @+1 {{pingpong: loop not tagged: workgroup size unknown (give the gpu.func known_block_size)}}
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> vector<4xf32> {
      %x = vector.load %a[%i, %c0] : memref<64x64xf16, #wg>, vector<4xf16>
      %y = vector.load %b[%i, %c0] : memref<64x64xf16, #wg>, vector<4xf16>
      %d = amdgpu.mfma 16x16x16 %x * %y + %acc blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
      scf.yield %d : vector<4xf32>
    }
    return
  }
}

// -----

// The user's mode on a loop that is no K loop: a warning, nothing tagged.
gpu.module @m {
  gpu.func @user_no_mfma(%a: memref<64xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // expected-warning @+1 {{pingpong: loop not tagged: no MFMA in the loop body}}
    scf.for %i = %c0 to %c4 step %c1 {
      %x = memref.load %a[%i] : memref<64xf32>
      memref.store %x, %a[%c0] : memref<64xf32>
    } {pingpong.mode = "two-cluster"}
    gpu.return
  }
}
