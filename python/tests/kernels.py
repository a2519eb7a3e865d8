"""Triton kernels of the test suite (compiled for gfx942/gfx950 on the CPU, never launched).

  gemm         C = A @ B; B [K, N] (NN) or [N, K] loaded as [BN, BK] and transposed (TN)
  attn_fwd     one attention head: S = Q K^T, online softmax (exp2), O += P V
  gemm_mxfp4   tl.dot_scaled with e2m1 operands and e8m0 scales (gfx950)
"""
import triton
import triton.language as tl


@triton.jit
def gemm(A, B, C, M, N, K, lda, ldb, ldc,
         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, B_NK: tl.constexpr):
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BN)
    tm = pid // tiles_n
    tn = pid % tiles_n
    rm = (tm * BM + tl.arange(0, BM)) % M
    rn = (tn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    pa = A + rm[:, None] * lda + rk[None, :]
    if B_NK:
        pb = B + rn[:, None] * ldb + rk[None, :]
        step_b = BK
    else:
        pb = B + rk[:, None] * ldb + rn[None, :]
        step_b = BK * ldb
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        a = tl.load(pa)
        if B_NK:
            b = tl.trans(tl.load(pb))
        else:
            b = tl.load(pb)
        acc = tl.dot(a, b, acc)
        pa += BK
        pb += step_b
    cm = tm * BM + tl.arange(0, BM)
    cn = tn * BN + tl.arange(0, BN)
    tl.store(C + cm[:, None] * ldc + cn[None, :], acc.to(C.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def attn_fwd(Q, K, V, O, scale, ldq, ldk, ldv, ldo, SEQ,
             BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(Q + rm[:, None] * ldq + rd[None, :])
    pk = K + rn[None, :] * ldk + rd[:, None]
    pv = V + rn[:, None] * ldv + rd[None, :]
    row_max = tl.full([BM], float("-inf"), tl.float32)
    row_sum = tl.full([BM], 1.0, tl.float32)
    o = tl.zeros([BM, D], dtype=tl.float32)
    c = scale * 1.4426950408889634
    for _ in range(0, SEQ, BN):
        s = tl.dot(q, tl.load(pk)) * c
        new_max = tl.maximum(row_max, tl.max(s, 1))
        p = tl.math.exp2(s - new_max[:, None])
        corr = tl.math.exp2(row_max - new_max)
        row_sum = row_sum * corr + tl.sum(p, 1)
        o = o * corr[:, None]
        o = tl.dot(p.to(V.dtype.element_ty), tl.load(pv), o)
        row_max = new_max
        pk += BN * ldk
        pv += BN * ldv
    o = o / row_sum[:, None]
    tl.store(O + rm[:, None] * ldo + rd[None, :], o.to(O.dtype.element_ty))


@triton.jit
def gemm_mxfp4(A, B, SA, SB, C, M, N, K, lda, ldb, ldsa, ldsb, ldc,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BN)
    tm = pid // tiles_n
    tn = pid % tiles_n
    rm = (tm * BM + tl.arange(0, BM)) % M
    rn = (tn * BN + tl.arange(0, BN)) % N
    rkb = tl.arange(0, BK // 2)
    rks = tl.arange(0, BK // 32)
    pa = A + rm[:, None] * lda + rkb[None, :]
    pb = B + rn[:, None] * ldb + rkb[None, :]
    psa = SA + rm[:, None] * ldsa + rks[None, :]
    psb = SB + rn[:, None] * ldsb + rks[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        a = tl.load(pa)
        sa = tl.load(psa)
        b = tl.load(pb)
        sb = tl.load(psb)
        acc = tl.dot_scaled(a, sa, "e2m1", b.T, sb, "e2m1", acc)
        pa += BK // 2
        pb += BK // 2
        psa += BK // 32
        psb += BK // 32
    cm = tm * BM + tl.arange(0, BM)
    cn = tn * BN + tl.arange(0, BN)
    tl.store(C + cm[:, None] * ldc + cn[None, :], acc.to(C.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))
