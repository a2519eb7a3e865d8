"""The fifth held-out set (issues 24 and 28, session 17): GEMMs as users write them, at three
stages. Written after a 4-wave LDS-DMA GEMM at three stages was seen to leave room for one
workgroup per CU (its LDS: three buffers), where the 4-wave pingpong modes have no partner wave,
and generated before any rule for it was written or measured on them. The kernels are the earlier
sets' GEMMs (bias + ReLU with K-tail masks, block pointers, SiLU epilogue, the tutorial's masked
GEMM, fp8 with dequantisation scales); the configurations are new: three stages, 4 and 8 warps,
gfx950 with and without LDS DMA, gfx942.
"""
from kernels_heldout import matmul_bias, matmul_bp  # noqa: F401
from kernels_heldout2 import mm_silu, mm_rowscale  # noqa: F401
from kernels_heldout3 import mm_kmask, mm_kmask_tn  # noqa: F401
