"""The third held-out set (issue 28 "masked-K loops scheduled", session 13): GEMMs whose operand
loads carry the K-tail mask of Triton's matmul tutorial (`mask=offs_k < K - k * BK, other=0`),
the form most user GEMMs take. Written and generated before the plugin's masked-load change was
measured on them, measured once at the end.

  mm_kmask     the tutorial GEMM: grouped tile order, rows and columns wrapped with `% M` / `% N`,
               a K-tail mask on both operand loads, fp32 accumulator, a masked store
  mm_kmask_tn  the same with B stored N x K (weights as linear layers keep them)
"""
import triton
import triton.language as tl


@triton.jit
def mm_kmask(A, B, C, M, N, K, stride_am, stride_bk, stride_cm,
             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    in_group = GROUP_M * tiles_n
    group_row = (pid // in_group) * GROUP_M
    rows = min(tiles_m - group_row, GROUP_M)
    pid_m = group_row + (pid % in_group) % rows
    pid_n = (pid % in_group) // rows
    am = (pid_m * BM + tl.arange(0, BM)) % M
    bn = (pid_n * BN + tl.arange(0, BN)) % N
    kk = tl.arange(0, BK)
    pa = A + am[:, None] * stride_am + kk[None, :]
    pb = B + kk[:, None] * stride_bk + bn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        left = K - k * BK
        a = tl.load(pa, mask=kk[None, :] < left, other=0.0)
        b = tl.load(pb, mask=kk[:, None] < left, other=0.0)
        acc = tl.dot(a, b, acc)
        pa += BK
        pb += BK * stride_bk
    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    tl.store(C + cm[:, None] * stride_cm + cn[None, :], acc.to(C.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def mm_kmask_tn(A, B, C, M, N, K, stride_am, stride_bn, stride_cm,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    in_group = GROUP_M * tiles_n
    group_row = (pid // in_group) * GROUP_M
    rows = min(tiles_m - group_row, GROUP_M)
    pid_m = group_row + (pid % in_group) % rows
    pid_n = (pid % in_group) // rows
    am = (pid_m * BM + tl.arange(0, BM)) % M
    bn = (pid_n * BN + tl.arange(0, BN)) % N
    kk = tl.arange(0, BK)
    pa = A + am[:, None] * stride_am + kk[None, :]
    pb = B + bn[None, :] * stride_bn + kk[:, None]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        left = K - k * BK
        a = tl.load(pa, mask=kk[None, :] < left, other=0.0)
        b = tl.load(pb, mask=kk[:, None] < left, other=0.0)
        acc = tl.dot(a, b, acc)
        pa += BK
        pb += BK
    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    tl.store(C + cm[:, None] * stride_cm + cn[None, :], acc.to(C.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))
