// 8 waves (512 threads) on a 256x128 tile.
// Tile 256x128x64, 8 waves (4x2), f16, amdgpu.mfma 32x32x8, one LDS buffer, for gfx942.
// C^T[N,M] (f32) = (A[M,K] * B[N,K]^T)^T, M,N,K = 1024,1024,1024.
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @u256x128x64_w8_f16(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %Ct: memref<1024x1024xf32>)
      workgroup(%lds_a: memref<256x64xf16, #gpu.address_space<workgroup>>, %lds_b: memref<128x64xf16, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c15 = arith.constant 15 : index
    %c16 = arith.constant 16 : index
    %c24 = arith.constant 24 : index
    %c32 = arith.constant 32 : index
    %c40 = arith.constant 40 : index
    %c48 = arith.constant 48 : index
    %c56 = arith.constant 56 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %c1024 = arith.constant 1024 : index
    %c1536 = arith.constant 1536 : index
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %lane = arith.remui %tid, %c64 : index
    %wv = arith.divui %tid, %c64 : index
    %wm = arith.divui %wv, %c2 : index
    %wn = arith.remui %wv, %c2 : index
    %bm = arith.divui %bid, %c8 : index
    %bn = arith.remui %bid, %c8 : index
    %m0 = arith.muli %bm, %c256 : index
    %n0 = arith.muli %bn, %c128 : index
    %aq0 = arith.addi %tid, %c0 : index
    %ar0 = arith.divui %aq0, %c8 : index
    %ax0 = arith.remui %aq0, %c8 : index
    %ac0 = arith.muli %ax0, %c8 : index
    %ag0 = arith.addi %ar0, %m0 : index
    %aq1 = arith.addi %tid, %c512 : index
    %ar1 = arith.divui %aq1, %c8 : index
    %ax1 = arith.remui %aq1, %c8 : index
    %ac1 = arith.muli %ax1, %c8 : index
    %ag1 = arith.addi %ar1, %m0 : index
    %aq2 = arith.addi %tid, %c1024 : index
    %ar2 = arith.divui %aq2, %c8 : index
    %ax2 = arith.remui %aq2, %c8 : index
    %ac2 = arith.muli %ax2, %c8 : index
    %ag2 = arith.addi %ar2, %m0 : index
    %aq3 = arith.addi %tid, %c1536 : index
    %ar3 = arith.divui %aq3, %c8 : index
    %ax3 = arith.remui %aq3, %c8 : index
    %ac3 = arith.muli %ax3, %c8 : index
    %ag3 = arith.addi %ar3, %m0 : index
    %bq0 = arith.addi %tid, %c0 : index
    %br0 = arith.divui %bq0, %c8 : index
    %bx0 = arith.remui %bq0, %c8 : index
    %bc0 = arith.muli %bx0, %c8 : index
    %bg0 = arith.addi %br0, %n0 : index
    %bq1 = arith.addi %tid, %c512 : index
    %br1 = arith.divui %bq1, %c8 : index
    %bx1 = arith.remui %bq1, %c8 : index
    %bc1 = arith.muli %bx1, %c8 : index
    %bg1 = arith.addi %br1, %n0 : index
    %frow = arith.remui %lane, %c32 : index
    %kgrp = arith.divui %lane, %c32 : index
    %kofs = arith.muli %kgrp, %c4 : index
    %wra = arith.muli %wm, %c64 : index
    %wrb = arith.muli %wn, %c64 : index
    %at0_ = arith.addi %wra, %c0 : index
    %at0 = arith.addi %at0_, %frow : index
    %at1_ = arith.addi %wra, %c32 : index
    %at1 = arith.addi %at1_, %frow : index
    %bt0_ = arith.addi %wrb, %c0 : index
    %bt0 = arith.addi %bt0_, %frow : index
    %bt1_ = arith.addi %wrb, %c32 : index
    %bt1 = arith.addi %bt1_, %frow : index
    %ks0 = arith.addi %kofs, %c0 : index
    %ks1 = arith.addi %kofs, %c8 : index
    %ks2 = arith.addi %kofs, %c16 : index
    %ks3 = arith.addi %kofs, %c24 : index
    %ks4 = arith.addi %kofs, %c32 : index
    %ks5 = arith.addi %kofs, %c40 : index
    %ks6 = arith.addi %kofs, %c48 : index
    %ks7 = arith.addi %kofs, %c56 : index
    %ak0p = arith.addi %ac0, %c0 : index
    %av0p = vector.load %A[%ag0, %ak0p] : memref<1024x1024xf16>, vector<8xf16>
    %ak1p = arith.addi %ac1, %c0 : index
    %av1p = vector.load %A[%ag1, %ak1p] : memref<1024x1024xf16>, vector<8xf16>
    %ak2p = arith.addi %ac2, %c0 : index
    %av2p = vector.load %A[%ag2, %ak2p] : memref<1024x1024xf16>, vector<8xf16>
    %ak3p = arith.addi %ac3, %c0 : index
    %av3p = vector.load %A[%ag3, %ak3p] : memref<1024x1024xf16>, vector<8xf16>
    %bk0p = arith.addi %bc0, %c0 : index
    %bv0p = vector.load %B[%bg0, %bk0p] : memref<1024x1024xf16>, vector<8xf16>
    %bk1p = arith.addi %bc1, %c0 : index
    %bv1p = vector.load %B[%bg1, %bk1p] : memref<1024x1024xf16>, vector<8xf16>
    vector.store %av0p, %lds_a[%ar0, %ac0] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    vector.store %av1p, %lds_a[%ar1, %ac1] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    vector.store %av2p, %lds_a[%ar2, %ac2] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    vector.store %av3p, %lds_a[%ar3, %ac3] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    vector.store %bv0p, %lds_b[%br0, %bc0] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    vector.store %bv1p, %lds_b[%br1, %bc1] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    gpu.barrier
    %zero = arith.constant dense<0.0> : vector<16xf32>
    %r:4 = scf.for %kt = %c0 to %c15 step %c1 iter_args(%i00 = %zero, %i01 = %zero, %i10 = %zero, %i11 = %zero) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
      %kn = arith.addi %kt, %c1 : index
      %kcol = arith.muli %kn, %c64 : index
    %ak0 = arith.addi %ac0, %kcol : index
    %av0 = vector.load %A[%ag0, %ak0] : memref<1024x1024xf16>, vector<8xf16>
    %ak1 = arith.addi %ac1, %kcol : index
    %av1 = vector.load %A[%ag1, %ak1] : memref<1024x1024xf16>, vector<8xf16>
    %ak2 = arith.addi %ac2, %kcol : index
    %av2 = vector.load %A[%ag2, %ak2] : memref<1024x1024xf16>, vector<8xf16>
    %ak3 = arith.addi %ac3, %kcol : index
    %av3 = vector.load %A[%ag3, %ak3] : memref<1024x1024xf16>, vector<8xf16>
    %bk0 = arith.addi %bc0, %kcol : index
    %bv0 = vector.load %B[%bg0, %bk0] : memref<1024x1024xf16>, vector<8xf16>
    %bk1 = arith.addi %bc1, %kcol : index
    %bv1 = vector.load %B[%bg1, %bk1] : memref<1024x1024xf16>, vector<8xf16>
    %af0_0 = vector.load %lds_a[%at0, %ks0] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_0 = vector.load %lds_a[%at1, %ks0] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_0 = vector.load %lds_b[%bt0, %ks0] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_0 = vector.load %lds_b[%bt1, %ks0] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af0_1 = vector.load %lds_a[%at0, %ks1] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_1 = vector.load %lds_a[%at1, %ks1] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_1 = vector.load %lds_b[%bt0, %ks1] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_1 = vector.load %lds_b[%bt1, %ks1] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af0_2 = vector.load %lds_a[%at0, %ks2] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_2 = vector.load %lds_a[%at1, %ks2] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_2 = vector.load %lds_b[%bt0, %ks2] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_2 = vector.load %lds_b[%bt1, %ks2] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af0_3 = vector.load %lds_a[%at0, %ks3] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_3 = vector.load %lds_a[%at1, %ks3] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_3 = vector.load %lds_b[%bt0, %ks3] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_3 = vector.load %lds_b[%bt1, %ks3] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af0_4 = vector.load %lds_a[%at0, %ks4] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_4 = vector.load %lds_a[%at1, %ks4] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_4 = vector.load %lds_b[%bt0, %ks4] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_4 = vector.load %lds_b[%bt1, %ks4] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af0_5 = vector.load %lds_a[%at0, %ks5] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_5 = vector.load %lds_a[%at1, %ks5] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_5 = vector.load %lds_b[%bt0, %ks5] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_5 = vector.load %lds_b[%bt1, %ks5] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af0_6 = vector.load %lds_a[%at0, %ks6] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_6 = vector.load %lds_a[%at1, %ks6] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_6 = vector.load %lds_b[%bt0, %ks6] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_6 = vector.load %lds_b[%bt1, %ks6] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af0_7 = vector.load %lds_a[%at0, %ks7] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_7 = vector.load %lds_a[%at1, %ks7] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_7 = vector.load %lds_b[%bt0, %ks7] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_7 = vector.load %lds_b[%bt1, %ks7] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %d00_0 = amdgpu.mfma 32x32x8 %af0_0 * %bf0_0 + %i00 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_0 = amdgpu.mfma 32x32x8 %af0_0 * %bf1_0 + %i01 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_0 = amdgpu.mfma 32x32x8 %af1_0 * %bf0_0 + %i10 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_0 = amdgpu.mfma 32x32x8 %af1_0 * %bf1_0 + %i11 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d00_1 = amdgpu.mfma 32x32x8 %af0_1 * %bf0_1 + %d00_0 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_1 = amdgpu.mfma 32x32x8 %af0_1 * %bf1_1 + %d01_0 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_1 = amdgpu.mfma 32x32x8 %af1_1 * %bf0_1 + %d10_0 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_1 = amdgpu.mfma 32x32x8 %af1_1 * %bf1_1 + %d11_0 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d00_2 = amdgpu.mfma 32x32x8 %af0_2 * %bf0_2 + %d00_1 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_2 = amdgpu.mfma 32x32x8 %af0_2 * %bf1_2 + %d01_1 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_2 = amdgpu.mfma 32x32x8 %af1_2 * %bf0_2 + %d10_1 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_2 = amdgpu.mfma 32x32x8 %af1_2 * %bf1_2 + %d11_1 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d00_3 = amdgpu.mfma 32x32x8 %af0_3 * %bf0_3 + %d00_2 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_3 = amdgpu.mfma 32x32x8 %af0_3 * %bf1_3 + %d01_2 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_3 = amdgpu.mfma 32x32x8 %af1_3 * %bf0_3 + %d10_2 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_3 = amdgpu.mfma 32x32x8 %af1_3 * %bf1_3 + %d11_2 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d00_4 = amdgpu.mfma 32x32x8 %af0_4 * %bf0_4 + %d00_3 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_4 = amdgpu.mfma 32x32x8 %af0_4 * %bf1_4 + %d01_3 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_4 = amdgpu.mfma 32x32x8 %af1_4 * %bf0_4 + %d10_3 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_4 = amdgpu.mfma 32x32x8 %af1_4 * %bf1_4 + %d11_3 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d00_5 = amdgpu.mfma 32x32x8 %af0_5 * %bf0_5 + %d00_4 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_5 = amdgpu.mfma 32x32x8 %af0_5 * %bf1_5 + %d01_4 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_5 = amdgpu.mfma 32x32x8 %af1_5 * %bf0_5 + %d10_4 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_5 = amdgpu.mfma 32x32x8 %af1_5 * %bf1_5 + %d11_4 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d00_6 = amdgpu.mfma 32x32x8 %af0_6 * %bf0_6 + %d00_5 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_6 = amdgpu.mfma 32x32x8 %af0_6 * %bf1_6 + %d01_5 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_6 = amdgpu.mfma 32x32x8 %af1_6 * %bf0_6 + %d10_5 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_6 = amdgpu.mfma 32x32x8 %af1_6 * %bf1_6 + %d11_5 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d00_7 = amdgpu.mfma 32x32x8 %af0_7 * %bf0_7 + %d00_6 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_7 = amdgpu.mfma 32x32x8 %af0_7 * %bf1_7 + %d01_6 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_7 = amdgpu.mfma 32x32x8 %af1_7 * %bf0_7 + %d10_6 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_7 = amdgpu.mfma 32x32x8 %af1_7 * %bf1_7 + %d11_6 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
      gpu.barrier
    vector.store %av0, %lds_a[%ar0, %ac0] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    vector.store %av1, %lds_a[%ar1, %ac1] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    vector.store %av2, %lds_a[%ar2, %ac2] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    vector.store %av3, %lds_a[%ar3, %ac3] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    vector.store %bv0, %lds_b[%br0, %bc0] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    vector.store %bv1, %lds_b[%br1, %bc1] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
      gpu.barrier
      scf.yield %d00_7, %d01_7, %d10_7, %d11_7 : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
    }
    %af0_0e = vector.load %lds_a[%at0, %ks0] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_0e = vector.load %lds_a[%at1, %ks0] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_0e = vector.load %lds_b[%bt0, %ks0] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_0e = vector.load %lds_b[%bt1, %ks0] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af0_1e = vector.load %lds_a[%at0, %ks1] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_1e = vector.load %lds_a[%at1, %ks1] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_1e = vector.load %lds_b[%bt0, %ks1] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_1e = vector.load %lds_b[%bt1, %ks1] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af0_2e = vector.load %lds_a[%at0, %ks2] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_2e = vector.load %lds_a[%at1, %ks2] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_2e = vector.load %lds_b[%bt0, %ks2] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_2e = vector.load %lds_b[%bt1, %ks2] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af0_3e = vector.load %lds_a[%at0, %ks3] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_3e = vector.load %lds_a[%at1, %ks3] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_3e = vector.load %lds_b[%bt0, %ks3] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_3e = vector.load %lds_b[%bt1, %ks3] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af0_4e = vector.load %lds_a[%at0, %ks4] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_4e = vector.load %lds_a[%at1, %ks4] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_4e = vector.load %lds_b[%bt0, %ks4] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_4e = vector.load %lds_b[%bt1, %ks4] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af0_5e = vector.load %lds_a[%at0, %ks5] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_5e = vector.load %lds_a[%at1, %ks5] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_5e = vector.load %lds_b[%bt0, %ks5] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_5e = vector.load %lds_b[%bt1, %ks5] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af0_6e = vector.load %lds_a[%at0, %ks6] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_6e = vector.load %lds_a[%at1, %ks6] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_6e = vector.load %lds_b[%bt0, %ks6] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_6e = vector.load %lds_b[%bt1, %ks6] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af0_7e = vector.load %lds_a[%at0, %ks7] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %af1_7e = vector.load %lds_a[%at1, %ks7] : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf0_7e = vector.load %lds_b[%bt0, %ks7] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %bf1_7e = vector.load %lds_b[%bt1, %ks7] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %d00_0e = amdgpu.mfma 32x32x8 %af0_0e * %bf0_0e + %r#0 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_0e = amdgpu.mfma 32x32x8 %af0_0e * %bf1_0e + %r#1 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_0e = amdgpu.mfma 32x32x8 %af1_0e * %bf0_0e + %r#2 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_0e = amdgpu.mfma 32x32x8 %af1_0e * %bf1_0e + %r#3 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d00_1e = amdgpu.mfma 32x32x8 %af0_1e * %bf0_1e + %d00_0e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_1e = amdgpu.mfma 32x32x8 %af0_1e * %bf1_1e + %d01_0e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_1e = amdgpu.mfma 32x32x8 %af1_1e * %bf0_1e + %d10_0e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_1e = amdgpu.mfma 32x32x8 %af1_1e * %bf1_1e + %d11_0e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d00_2e = amdgpu.mfma 32x32x8 %af0_2e * %bf0_2e + %d00_1e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_2e = amdgpu.mfma 32x32x8 %af0_2e * %bf1_2e + %d01_1e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_2e = amdgpu.mfma 32x32x8 %af1_2e * %bf0_2e + %d10_1e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_2e = amdgpu.mfma 32x32x8 %af1_2e * %bf1_2e + %d11_1e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d00_3e = amdgpu.mfma 32x32x8 %af0_3e * %bf0_3e + %d00_2e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_3e = amdgpu.mfma 32x32x8 %af0_3e * %bf1_3e + %d01_2e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_3e = amdgpu.mfma 32x32x8 %af1_3e * %bf0_3e + %d10_2e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_3e = amdgpu.mfma 32x32x8 %af1_3e * %bf1_3e + %d11_2e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d00_4e = amdgpu.mfma 32x32x8 %af0_4e * %bf0_4e + %d00_3e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_4e = amdgpu.mfma 32x32x8 %af0_4e * %bf1_4e + %d01_3e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_4e = amdgpu.mfma 32x32x8 %af1_4e * %bf0_4e + %d10_3e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_4e = amdgpu.mfma 32x32x8 %af1_4e * %bf1_4e + %d11_3e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d00_5e = amdgpu.mfma 32x32x8 %af0_5e * %bf0_5e + %d00_4e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_5e = amdgpu.mfma 32x32x8 %af0_5e * %bf1_5e + %d01_4e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_5e = amdgpu.mfma 32x32x8 %af1_5e * %bf0_5e + %d10_4e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_5e = amdgpu.mfma 32x32x8 %af1_5e * %bf1_5e + %d11_4e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d00_6e = amdgpu.mfma 32x32x8 %af0_6e * %bf0_6e + %d00_5e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_6e = amdgpu.mfma 32x32x8 %af0_6e * %bf1_6e + %d01_5e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_6e = amdgpu.mfma 32x32x8 %af1_6e * %bf0_6e + %d10_5e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_6e = amdgpu.mfma 32x32x8 %af1_6e * %bf1_6e + %d11_5e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d00_7e = amdgpu.mfma 32x32x8 %af0_7e * %bf0_7e + %d00_6e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d01_7e = amdgpu.mfma 32x32x8 %af0_7e * %bf1_7e + %d01_6e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d10_7e = amdgpu.mfma 32x32x8 %af1_7e * %bf0_7e + %d10_6e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %d11_7e = amdgpu.mfma 32x32x8 %af1_7e * %bf1_7e + %d11_6e blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %ccol = arith.remui %lane, %c32 : index
    %crow = arith.divui %lane, %c32 : index
    %crow4 = arith.muli %crow, %c4 : index
    %sn00_ = arith.addi %n0, %wrb : index
    %sn00_1 = arith.addi %sn00_, %c0 : index
    %sn00 = arith.addi %sn00_1, %ccol : index
    %s00_0 = vector.extract_strided_slice %d00_7e {offsets = [0], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm00_0_ = arith.addi %m0, %wra : index
    %sm00_0_1 = arith.addi %sm00_0_, %c0 : index
    %sm00_0 = arith.addi %sm00_0_1, %crow4 : index
    vector.store %s00_0, %Ct[%sn00, %sm00_0] : memref<1024x1024xf32>, vector<4xf32>
    %s00_1 = vector.extract_strided_slice %d00_7e {offsets = [4], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm00_1_ = arith.addi %m0, %wra : index
    %sm00_1_1 = arith.addi %sm00_1_, %c8 : index
    %sm00_1 = arith.addi %sm00_1_1, %crow4 : index
    vector.store %s00_1, %Ct[%sn00, %sm00_1] : memref<1024x1024xf32>, vector<4xf32>
    %s00_2 = vector.extract_strided_slice %d00_7e {offsets = [8], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm00_2_ = arith.addi %m0, %wra : index
    %sm00_2_1 = arith.addi %sm00_2_, %c16 : index
    %sm00_2 = arith.addi %sm00_2_1, %crow4 : index
    vector.store %s00_2, %Ct[%sn00, %sm00_2] : memref<1024x1024xf32>, vector<4xf32>
    %s00_3 = vector.extract_strided_slice %d00_7e {offsets = [12], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm00_3_ = arith.addi %m0, %wra : index
    %sm00_3_1 = arith.addi %sm00_3_, %c24 : index
    %sm00_3 = arith.addi %sm00_3_1, %crow4 : index
    vector.store %s00_3, %Ct[%sn00, %sm00_3] : memref<1024x1024xf32>, vector<4xf32>
    %sn01_ = arith.addi %n0, %wrb : index
    %sn01_1 = arith.addi %sn01_, %c32 : index
    %sn01 = arith.addi %sn01_1, %ccol : index
    %s01_0 = vector.extract_strided_slice %d01_7e {offsets = [0], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm01_0_ = arith.addi %m0, %wra : index
    %sm01_0_1 = arith.addi %sm01_0_, %c0 : index
    %sm01_0 = arith.addi %sm01_0_1, %crow4 : index
    vector.store %s01_0, %Ct[%sn01, %sm01_0] : memref<1024x1024xf32>, vector<4xf32>
    %s01_1 = vector.extract_strided_slice %d01_7e {offsets = [4], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm01_1_ = arith.addi %m0, %wra : index
    %sm01_1_1 = arith.addi %sm01_1_, %c8 : index
    %sm01_1 = arith.addi %sm01_1_1, %crow4 : index
    vector.store %s01_1, %Ct[%sn01, %sm01_1] : memref<1024x1024xf32>, vector<4xf32>
    %s01_2 = vector.extract_strided_slice %d01_7e {offsets = [8], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm01_2_ = arith.addi %m0, %wra : index
    %sm01_2_1 = arith.addi %sm01_2_, %c16 : index
    %sm01_2 = arith.addi %sm01_2_1, %crow4 : index
    vector.store %s01_2, %Ct[%sn01, %sm01_2] : memref<1024x1024xf32>, vector<4xf32>
    %s01_3 = vector.extract_strided_slice %d01_7e {offsets = [12], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm01_3_ = arith.addi %m0, %wra : index
    %sm01_3_1 = arith.addi %sm01_3_, %c24 : index
    %sm01_3 = arith.addi %sm01_3_1, %crow4 : index
    vector.store %s01_3, %Ct[%sn01, %sm01_3] : memref<1024x1024xf32>, vector<4xf32>
    %sn10_ = arith.addi %n0, %wrb : index
    %sn10_1 = arith.addi %sn10_, %c0 : index
    %sn10 = arith.addi %sn10_1, %ccol : index
    %s10_0 = vector.extract_strided_slice %d10_7e {offsets = [0], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm10_0_ = arith.addi %m0, %wra : index
    %sm10_0_1 = arith.addi %sm10_0_, %c32 : index
    %sm10_0 = arith.addi %sm10_0_1, %crow4 : index
    vector.store %s10_0, %Ct[%sn10, %sm10_0] : memref<1024x1024xf32>, vector<4xf32>
    %s10_1 = vector.extract_strided_slice %d10_7e {offsets = [4], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm10_1_ = arith.addi %m0, %wra : index
    %sm10_1_1 = arith.addi %sm10_1_, %c40 : index
    %sm10_1 = arith.addi %sm10_1_1, %crow4 : index
    vector.store %s10_1, %Ct[%sn10, %sm10_1] : memref<1024x1024xf32>, vector<4xf32>
    %s10_2 = vector.extract_strided_slice %d10_7e {offsets = [8], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm10_2_ = arith.addi %m0, %wra : index
    %sm10_2_1 = arith.addi %sm10_2_, %c48 : index
    %sm10_2 = arith.addi %sm10_2_1, %crow4 : index
    vector.store %s10_2, %Ct[%sn10, %sm10_2] : memref<1024x1024xf32>, vector<4xf32>
    %s10_3 = vector.extract_strided_slice %d10_7e {offsets = [12], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm10_3_ = arith.addi %m0, %wra : index
    %sm10_3_1 = arith.addi %sm10_3_, %c56 : index
    %sm10_3 = arith.addi %sm10_3_1, %crow4 : index
    vector.store %s10_3, %Ct[%sn10, %sm10_3] : memref<1024x1024xf32>, vector<4xf32>
    %sn11_ = arith.addi %n0, %wrb : index
    %sn11_1 = arith.addi %sn11_, %c32 : index
    %sn11 = arith.addi %sn11_1, %ccol : index
    %s11_0 = vector.extract_strided_slice %d11_7e {offsets = [0], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm11_0_ = arith.addi %m0, %wra : index
    %sm11_0_1 = arith.addi %sm11_0_, %c32 : index
    %sm11_0 = arith.addi %sm11_0_1, %crow4 : index
    vector.store %s11_0, %Ct[%sn11, %sm11_0] : memref<1024x1024xf32>, vector<4xf32>
    %s11_1 = vector.extract_strided_slice %d11_7e {offsets = [4], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm11_1_ = arith.addi %m0, %wra : index
    %sm11_1_1 = arith.addi %sm11_1_, %c40 : index
    %sm11_1 = arith.addi %sm11_1_1, %crow4 : index
    vector.store %s11_1, %Ct[%sn11, %sm11_1] : memref<1024x1024xf32>, vector<4xf32>
    %s11_2 = vector.extract_strided_slice %d11_7e {offsets = [8], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm11_2_ = arith.addi %m0, %wra : index
    %sm11_2_1 = arith.addi %sm11_2_, %c48 : index
    %sm11_2 = arith.addi %sm11_2_1, %crow4 : index
    vector.store %s11_2, %Ct[%sn11, %sm11_2] : memref<1024x1024xf32>, vector<4xf32>
    %s11_3 = vector.extract_strided_slice %d11_7e {offsets = [12], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
    %sm11_3_ = arith.addi %m0, %wra : index
    %sm11_3_1 = arith.addi %sm11_3_, %c56 : index
    %sm11_3 = arith.addi %sm11_3_1, %crow4 : index
    vector.store %s11_3, %Ct[%sn11, %sm11_3] : memref<1024x1024xf32>, vector<4xf32>
    gpu.return
  }
}
}
