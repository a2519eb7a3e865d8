// RUN: pingpong-opt %s -split-input-file -verify-diagnostics
// The user's spellings are checked when the module is parsed: a clear error
// at the op, never a crash, and no pass runs on a bad module.

#wg = #gpu.address_space<workgroup>
gpu.module @m {
  gpu.func @k(%a: memref<64x64xf16, #wg>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    // expected-error @+1 {{invalid 'pingpong.mode' value 'sideways': expected one of: auto, off, one-cluster, two-cluster, four-cluster, async-two-cluster, async-one-cluster, async-four-cluster, chained-dot, skinny, single-wave}}
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> vector<4xf32> {
      %x = vector.load %a[%i, %c0] : memref<64x64xf16, #wg>, vector<4xf16>
      %d = amdgpu.mfma 16x16x16 %x * %x + %acc blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
      scf.yield %d : vector<4xf32>
    } {pingpong.mode = "sideways"}
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>
gpu.module @m {
  gpu.func @k(%a: memref<64x64xf16, #wg>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{'pingpong.mode' must be a string, expected one of: auto, off, one-cluster, two-cluster, four-cluster, async-two-cluster, async-one-cluster, async-four-cluster, chained-dot, skinny, single-wave}}
    scf.for %i = %c0 to %c4 step %c1 {
      %x = vector.load %a[%i, %c0] : memref<64x64xf16, #wg>, vector<4xf16>
    } {pingpong.mode = 2 : i32}
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>
gpu.module @m {
  gpu.func @k(%a: memref<64x64xf16, #wg>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'pingpong.mode' belongs on the K loop (scf.for), not on 'vector.load'}}
    %x = vector.load %a[%c0, %c0] {pingpong.mode = "one-cluster"} : memref<64x64xf16, #wg>, vector<4xf16>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'pingpong.layout' must be a string starting with 'pingpong-layout v1;'}}
    scf.for %i = %c0 to %c1 step %c1 {
    } {pingpong.layout = "two-cluster"}
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{unknown pingpong attribute 'pingpong.modes'}}
    scf.for %i = %c0 to %c1 step %c1 {
    } {pingpong.modes = "two-cluster"}
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c1 step %c1 {
    // expected-error @+2 {{expected ::mlir::pingpong::Mode to be one of: auto, off, one-cluster, two-cluster, four-cluster}}
    // expected-error @+1 {{failed to parse Pingpong_LoopAttr parameter 'mode'}}
    } {pingpong.loop = #pingpong.loop<mode = "sideways">}
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c1 step %c1 {
    // expected-error @+1 {{pingpong.loop: layout must start with 'pingpong-layout v1;'}}
    } {pingpong.loop = #pingpong.loop<mode = "auto", layout = "mem m0: local-read">}
    gpu.return
  }
}
