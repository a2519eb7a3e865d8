"""Triton kernels of the project's Triton corpus (corpus/triton/<case>/kernel.*).

Debug locations in the generated kernel.ttgir / kernel.llir / kernel.amdgcn point at lines of
this file.  generate.py compiles each kernel with explicit signatures, constexprs and argument
attributes (no GPU needed), so the kernels here only describe the loops:

  gemm            C = A @ B, A [M, K] row-major; B either [K, N] (NN) or [N, K] (TN, the usual
                  LLM weight layout: the tile is loaded as [BN, BK] and transposed in registers)
  gemm_rowscale   as gemm, with an extra elementwise op inside the K loop (A scaled per K column
                  by a loaded fp32 vector, like a dequantising GEMM) and a bias epilogue
  gemm_persistent one program per CU: outer loop over output tiles, inner K loop
  gemm_mxfp4      tl.dot_scaled with e2m1 operands and e8m0 scales (gfx950)
  attn_fwd        one attention head, forward: S = Q K^T, online softmax, O += P V
"""
import triton
import triton.language as tl


@triton.jit
def _tile_ids(pid, M, N, BM: tl.constexpr, BN: tl.constexpr, GROUP: tl.constexpr):
    # grouped ordering of output tiles (GROUP tile rows share the B panel)
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    per_group = GROUP * tiles_n
    g = pid // per_group
    row0 = g * GROUP
    rows = min(tiles_m - row0, GROUP)
    tm = row0 + (pid % per_group) % rows
    tn = (pid % per_group) // rows
    return tm, tn


@triton.jit
def gemm(A, B, C, M, N, K, lda, ldb, ldc,
         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr,
         B_NK: tl.constexpr):
    tm, tn = _tile_ids(tl.program_id(0), M, N, BM, BN, GROUP)
    rm = (tm * BM + tl.arange(0, BM)) % M
    rn = (tn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    pa = A + rm[:, None] * lda + rk[None, :]
    if B_NK:
        pb = B + rn[:, None] * ldb + rk[None, :]      # [BN, BK] tile of B stored N x K
        step_b = BK
    else:
        pb = B + rk[:, None] * ldb + rn[None, :]      # [BK, BN] tile of B stored K x N
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
def gemm_rowscale(A, B, S, BIAS, C, M, N, K, lda, ldb, ldc,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    # B stored N x K; A's K columns scaled by S[k] inside the loop; bias added after it
    tm, tn = _tile_ids(tl.program_id(0), M, N, BM, BN, GROUP)
    rm = (tm * BM + tl.arange(0, BM)) % M
    rn = (tn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    pa = A + rm[:, None] * lda + rk[None, :]
    pb = B + rn[:, None] * ldb + rk[None, :]
    ps = S + rk
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        s = tl.load(ps)
        a = (tl.load(pa).to(tl.float32) * s[None, :]).to(A.dtype.element_ty)
        acc = tl.dot(a, tl.trans(tl.load(pb)), acc)
        pa += BK
        pb += BK
        ps += BK
    cn = tn * BN + tl.arange(0, BN)
    bias = tl.load(BIAS + cn, mask=cn < N, other=0.0)
    acc = acc + bias[None, :].to(tl.float32)
    cm = tm * BM + tl.arange(0, BM)
    tl.store(C + cm[:, None] * ldc + cn[None, :], acc.to(C.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def gemm_persistent(A, B, C, M, N, K, lda, ldb, ldc, NPROG,
                    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr,
                    B_NK: tl.constexpr):
    n_tiles = tl.cdiv(M, BM) * tl.cdiv(N, BN)
    k_iters = tl.cdiv(K, BK)
    rk = tl.arange(0, BK)
    for t in range(tl.program_id(0), n_tiles, NPROG):
        tm, tn = _tile_ids(t, M, N, BM, BN, GROUP)
        rm = (tm * BM + tl.arange(0, BM)) % M
        rn = (tn * BN + tl.arange(0, BN)) % N
        pa = A + rm[:, None] * lda + rk[None, :]
        if B_NK:
            pb = B + rn[:, None] * ldb + rk[None, :]
            step_b = BK
        else:
            pb = B + rk[:, None] * ldb + rn[None, :]
            step_b = BK * ldb
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for _ in range(0, k_iters):
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
def gemm_mxfp4(A, B, SA, SB, C, M, N, K, lda, ldb, ldsa, ldsb, ldc,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # A [M, K/2] and B [N, K/2]: two e2m1 values per byte, K contiguous.
    # SA [M, K/32], SB [N, K/32]: one e8m0 scale per 32 K elements.
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


@triton.jit
def attn_fwd(Q, K, V, O, scale, ldq, ldk, ldv, ldo, SEQ,
             BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # one head: Q, K, V, O all [SEQ, D] row-major; K is read as a [D, BN] tile (K^T)
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(Q + rm[:, None] * ldq + rd[None, :])
    pk = K + rn[None, :] * ldk + rd[:, None]
    pv = V + rn[:, None] * ldv + rd[None, :]
    row_max = tl.full([BM], float("-inf"), tl.float32)
    row_sum = tl.full([BM], 1.0, tl.float32)
    o = tl.zeros([BM, D], dtype=tl.float32)
    c = scale * 1.4426950408889634  # log2(e): softmax through exp2
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
def attn_fwd_causal(Q, K, V, O, scale, ldq, ldk, ldv, ldo, SEQ,
                    BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # attn_fwd's causal form, the off-diagonal blocks only (Triton's tutorial
    # splits the causal loop at the diagonal; the diagonal block's masked loop
    # is left out): the trip count depends on the workgroup id, so workgroup 0
    # never enters the loop (issue 25; pingpong-sim --workgroup-id)
    pid = tl.program_id(0)
    rm = pid * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(Q + rm[:, None] * ldq + rd[None, :])
    pk = K + rn[None, :] * ldk + rd[:, None]
    pv = V + rn[:, None] * ldv + rd[None, :]
    row_max = tl.full([BM], float("-inf"), tl.float32)
    row_sum = tl.full([BM], 1.0, tl.float32)
    o = tl.zeros([BM, D], dtype=tl.float32)
    c = scale * 1.4426950408889634
    for start_n in range(0, pid * BM, BN):
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
