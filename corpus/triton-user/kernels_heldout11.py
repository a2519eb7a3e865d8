"""The eleventh held-out set (issue 28, session 25): kernel shapes users write that no other set has,
written and generated at the session's start, measured on main as it was before the session's
changes (e616518) and again at its end (docs/triton.md). Plain pointers; shapes divisible by the
tile.

  attn_bwd_dq    the attention backward's dQ loop: per K/V block, S = Q K^T, dP = dO V^T,
                 dS = P (dP - delta), dQ += dS K (three dots an iteration, the last fed by VALU of
                 the first two)
  attn_docmask   packed-sequence ("document") attention: each K block's document ids are loaded
                 every iteration and compared with the query rows' ids to mask the scores
  attn_hd96      head dimension 96 padded to a 128-wide tile: every Q/K/V load masked on the head
                 dimension
  attn_linear    chunked linear attention: per chunk, O = Q S + tril(Q K^T) V is stored in the loop
                 and the running state S += K^T V is carried (four dots, a store per iteration)
  mm_w8a16       weight-only int8 GEMM: B int8, converted to the activation type in the loop,
                 the per-column scale applied after it
  mm_rmsnorm     a GEMM fused behind RMSNorm: the A tile scaled by the row's 1/rms (computed
                 before the loop) and by the norm weight of its K block, loaded every iteration
"""
import triton
import triton.language as tl


@triton.jit
def attn_bwd_dq(Q, K, V, DO, LSE, DELTA, DQ, sm_scale, stride_h, stride_s, SEQ, BM: tl.constexpr,
                BN: tl.constexpr, D: tl.constexpr):
    start_m = tl.program_id(0)
    h = tl.program_id(1).to(tl.int64)
    rm = start_m * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    off = h * stride_h + rm[:, None] * stride_s + rd[None, :]
    q = tl.load(Q + off)
    do = tl.load(DO + off)
    lse = tl.load(LSE + h * SEQ + rm)
    delta = tl.load(DELTA + h * SEQ + rm)
    kt = K + h * stride_h + rn[None, :] * stride_s + rd[:, None]
    vt = V + h * stride_h + rn[None, :] * stride_s + rd[:, None]
    qk_scale = sm_scale * 1.44269504
    dq = tl.zeros((BM, D), tl.float32)
    for _ in range(0, SEQ, BN):
        k_t = tl.load(kt)
        s = tl.dot(q, k_t)
        p = tl.math.exp2(s * qk_scale - lse[:, None])
        dp = tl.dot(do, tl.load(vt))
        ds = p * (dp - delta[:, None])
        dq = tl.dot(ds.to(K.dtype.element_ty), tl.trans(k_t), dq)
        kt += BN * stride_s
        vt += BN * stride_s
    tl.store(DQ + off, (dq * sm_scale).to(DQ.dtype.element_ty))


@triton.jit
def attn_docmask(Q, K, V, O, DOC, sm_scale, stride_h, stride_s, SEQ, BM: tl.constexpr,
                 BN: tl.constexpr, D: tl.constexpr):
    # DOC [SEQ] i32: the document each token belongs to; a query sees keys of its own document
    start_m = tl.program_id(0)
    h = tl.program_id(1).to(tl.int64)
    rm = start_m * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(Q + h * stride_h + rm[:, None] * stride_s + rd[None, :])
    qdoc = tl.load(DOC + rm)
    kp = K + h * stride_h + rn[None, :] * stride_s + rd[:, None]
    vp = V + h * stride_h + rn[:, None] * stride_s + rd[None, :]
    dp = DOC + rn
    qk_scale = sm_scale * 1.44269504
    m = tl.full((BM,), -1.0e30, tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for _ in range(0, SEQ, BN):
        s = tl.dot(q, tl.load(kp)) * qk_scale
        s = tl.where(qdoc[:, None] == tl.load(dp)[None, :], s, -1.0e30)
        m_new = tl.maximum(m, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m - m_new)
        l = l * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(V.dtype.element_ty), tl.load(vp))
        m = m_new
        kp += BN * stride_s
        vp += BN * stride_s
        dp += BN
    tl.store(O + h * stride_h + rm[:, None] * stride_s + rd[None, :],
             (acc / l[:, None]).to(O.dtype.element_ty))


@triton.jit
def attn_hd96(Q, K, V, O, sm_scale, stride_h, stride_s, SEQ, BM: tl.constexpr, BN: tl.constexpr,
              D: tl.constexpr, HD: tl.constexpr):
    # the head dimension HD (96) is not a power of two: the tile is D (128) wide, masked
    start_m = tl.program_id(0)
    h = tl.program_id(1).to(tl.int64)
    rm = start_m * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    dmask = rd < HD
    q = tl.load(Q + h * stride_h + rm[:, None] * stride_s + rd[None, :], mask=dmask[None, :],
                other=0.0)
    kp = K + h * stride_h + rn[None, :] * stride_s + rd[:, None]
    vp = V + h * stride_h + rn[:, None] * stride_s + rd[None, :]
    qk_scale = sm_scale * 1.44269504
    m = tl.full((BM,), float("-inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for _ in range(0, SEQ, BN):
        s = tl.dot(q, tl.load(kp, mask=dmask[:, None], other=0.0)) * qk_scale
        m_new = tl.maximum(m, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m - m_new)
        l = l * alpha + tl.sum(p, 1)
        v = tl.load(vp, mask=dmask[None, :], other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(V.dtype.element_ty), v)
        m = m_new
        kp += BN * stride_s
        vp += BN * stride_s
    tl.store(O + h * stride_h + rm[:, None] * stride_s + rd[None, :],
             (acc / l[:, None]).to(O.dtype.element_ty), mask=dmask[None, :])


@triton.jit
def attn_linear(Q, K, V, O, sm_scale, stride_h, stride_s, SEQ, BM: tl.constexpr,
                BN: tl.constexpr, D: tl.constexpr):
    # one program per head walks the sequence in chunks of BM (= BN) rows
    h = tl.program_id(0).to(tl.int64)
    rc = tl.arange(0, BM)
    rd = tl.arange(0, D)
    base = h * stride_h + rc[:, None] * stride_s + rd[None, :]
    state = tl.zeros((D, D), tl.float32)
    tril = rc[:, None] >= rc[None, :]
    for start in range(0, SEQ, BM):
        off = base + start * stride_s
        q = tl.load(Q + off)
        k = tl.load(K + off)
        v = tl.load(V + off)
        s = tl.where(tril, tl.dot(q, tl.trans(k)) * sm_scale, 0.0)
        o = tl.dot(s.to(V.dtype.element_ty), v)
        o = tl.dot(q, state.to(V.dtype.element_ty), o)
        tl.store(O + off, o.to(O.dtype.element_ty))
        state = tl.dot(tl.trans(k), v, state)


@triton.jit
def mm_w8a16(A, B, SB, C, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr,
             BN: tl.constexpr, BK: tl.constexpr):
    # C [M, N] = A [M, K] (B [K, N] int8 * SB [N])
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = A + rm[:, None] * stride_am + rk[None, :]
    b = B + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, K, BK):
        acc = tl.dot(tl.load(a), tl.load(b).to(A.dtype.element_ty), acc)
        a += BK
        b += BK * stride_bk
    acc = acc * tl.load(SB + rn)[None, :]
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(C.dtype.element_ty))


@triton.jit
def mm_rmsnorm(X, W, G, C, M, N, K, stride_xm, stride_wk, stride_cm, BM: tl.constexpr,
               BN: tl.constexpr, BK: tl.constexpr):
    # C = (rmsnorm(X) * G) W: the row's 1/rms in a first pass, the K loop scales each A tile
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    ss = tl.zeros((BM,), tl.float32)
    for k in range(0, K, BK):
        x = tl.load(X + rm[:, None] * stride_xm + (k + rk)[None, :]).to(tl.float32)
        ss += tl.sum(x * x, 1)
    rstd = 1.0 / tl.sqrt(ss / K + 1e-6)
    x = X + rm[:, None] * stride_xm + rk[None, :]
    w = W + rk[:, None] * stride_wk + rn[None, :]
    g = G + rk
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, K, BK):
        a = (tl.load(x).to(tl.float32) * rstd[:, None] * tl.load(g).to(tl.float32)[None, :])
        acc = tl.dot(a.to(W.dtype.element_ty), tl.load(w), acc)
        x += BK
        w += BK * stride_wk
        g += BK
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(C.dtype.element_ty))
