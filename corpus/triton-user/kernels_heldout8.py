"""The eighth held-out set (issue 28, session 22): kernel shapes users write that no other set has,
written and generated at the session's start, measured on main as it was before the session's
changes (dfe13f3) and again at its end (docs/triton.md). Plain pointers; shapes divisible by the
tile unless a mask says otherwise.

  mm_persistent  a persistent GEMM: a fixed number of programs walk the output tiles (outer loop),
                 each tile's K loop inside it; B stored N x K
  mm_at          a GEMM whose left operand is stored transposed (K x M, M contiguous), as in a
                 weight-gradient X^T dY; the tile is transposed after the load
  attn_bwd_dkdv  the flash-attention backward's dK/dV loop: one K/V block per program, the loop
                 walks the query blocks, four dots an iteration (K Q^T, P^T dO, V dO^T, dS^T Q)
  attn_varlen    variable-length attention: each sequence's start and length come from a
                 cumulative-length array, K/V loads masked at the sequence's end
  mm_conv        a 3x3 NHWC convolution as an implicit GEMM: each K step's rows of the input come
                 from a filter tap and channel block computed in the loop, zero padding as a mask
"""
import triton
import triton.language as tl


@triton.jit
def mm_persistent(A, B, C, M, N, K, stride_am, stride_bn, stride_cm, BM: tl.constexpr,
                  BN: tl.constexpr, BK: tl.constexpr, NUM_PROGS: tl.constexpr):
    num_n = tl.cdiv(N, BN)
    tiles = tl.cdiv(M, BM) * num_n
    rk = tl.arange(0, BK)
    for tile in range(tl.program_id(0), tiles, NUM_PROGS):
        rm = (tile // num_n) * BM + tl.arange(0, BM)
        rn = (tile % num_n) * BN + tl.arange(0, BN)
        a = A + rm[:, None] * stride_am + rk[None, :]
        b = B + rn[None, :] * stride_bn + rk[:, None]
        acc = tl.zeros((BM, BN), tl.float32)
        for _ in range(0, K, BK):
            acc = tl.dot(tl.load(a), tl.load(b), acc)
            a += BK
            b += BK
        tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(C.dtype.element_ty))


@triton.jit
def mm_at(A, B, C, M, N, K, stride_ak, stride_bk, stride_cm, BM: tl.constexpr, BN: tl.constexpr,
          BK: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = A + rk[:, None] * stride_ak + rm[None, :]          # A^T stored K x M
    b = B + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, K, BK):
        acc = tl.dot(tl.trans(tl.load(a)), tl.load(b), acc)
        a += BK * stride_ak
        b += BK * stride_bk
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(C.dtype.element_ty))


@triton.jit
def attn_bwd_dkdv(Q, K, V, DO, LSE, DELTA, DK, DV, sm_scale, stride_h, stride_s, SEQ,
                  BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # program = (K/V block, batch x head); LSE holds log2-domain row maxima + log-sums
    start_n = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    base = bh * stride_h
    rn = start_n * BN + tl.arange(0, BN)
    rm = tl.arange(0, BM)
    rd = tl.arange(0, D)
    k = tl.load(K + base + rn[:, None] * stride_s + rd[None, :])
    v = tl.load(V + base + rn[:, None] * stride_s + rd[None, :])
    dk = tl.zeros((BN, D), tl.float32)
    dv = tl.zeros((BN, D), tl.float32)
    qt = Q + base + rm[None, :] * stride_s + rd[:, None]
    do = DO + base + rm[:, None] * stride_s + rd[None, :]
    lse = LSE + bh * SEQ + rm
    delta = DELTA + bh * SEQ + rm
    qk_scale = sm_scale * 1.44269504
    for _ in range(0, SEQ, BM):
        q_t = tl.load(qt)
        pt = tl.math.exp2(tl.dot(k, q_t) * qk_scale - tl.load(lse)[None, :])
        do_t = tl.load(do)
        dv += tl.dot(pt.to(DO.dtype.element_ty), do_t)
        dpt = tl.dot(v, tl.trans(do_t))
        dst = pt * (dpt - tl.load(delta)[None, :])
        dk += tl.dot(dst.to(Q.dtype.element_ty), tl.trans(q_t))
        qt += BM * stride_s
        do += BM * stride_s
        lse += BM
        delta += BM
    out = base + rn[:, None] * stride_s + rd[None, :]
    tl.store(DK + out, (dk * sm_scale).to(DK.dtype.element_ty))
    tl.store(DV + out, dv.to(DV.dtype.element_ty))


@triton.jit
def attn_varlen(Q, K, V, O, CU, sm_scale, stride_h, stride_s, BM: tl.constexpr,
                BN: tl.constexpr, D: tl.constexpr):
    # program = (query block, sequence, head); CU[i] = the first token of sequence i
    start = tl.program_id(0)
    seq = tl.program_id(1)
    head = tl.program_id(2).to(tl.int64)
    s0 = tl.load(CU + seq)
    length = tl.load(CU + seq + 1) - s0
    if start * BM >= length:
        return
    base = head * stride_h + s0.to(tl.int64) * stride_s
    rm = start * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(Q + base + rm[:, None] * stride_s + rd[None, :], mask=rm[:, None] < length, other=0.0)
    qk_scale = sm_scale * 1.44269504
    m = tl.full((BM,), float("-inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for n in range(0, length, BN):
        rn = n + tl.arange(0, BN)
        k = tl.load(K + base + rn[None, :] * stride_s + rd[:, None], mask=rn[None, :] < length, other=0.0)
        s = tl.dot(q, k) * qk_scale
        s = tl.where(rn[None, :] < length, s, float("-inf"))
        m_new = tl.maximum(m, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m - m_new)
        l = l * alpha + tl.sum(p, 1)
        v = tl.load(V + base + rn[:, None] * stride_s + rd[None, :], mask=rn[:, None] < length, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(V.dtype.element_ty), v)
        m = m_new
    tl.store(O + base + rm[:, None] * stride_s + rd[None, :], (acc / l[:, None]).to(O.dtype.element_ty),
             mask=rm[:, None] < length)


@triton.jit
def mm_conv(X, W, Y, H, WD, C, KO, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # X [N, H, WD, C], W [KO, 3, 3, C], Y [N*H*WD, KO]; stride 1, padding 1
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(KO, BN)
    pid_n = pid % tl.cdiv(KO, BN)
    rm = pid_m * BM + tl.arange(0, BM)               # output pixels
    rn = pid_n * BN + tl.arange(0, BN)               # output channels
    rk = tl.arange(0, BK)
    img = rm // (H * WD)
    oh = (rm // WD) % H
    ow = rm % WD
    acc = tl.zeros((BM, BN), tl.float32)
    for kk in range(0, 9 * C, BK):
        tap = kk // C
        c0 = kk % C
        ih = oh + tap // 3 - 1
        iw = ow + tap % 3 - 1
        ok = (ih >= 0) & (ih < H) & (iw >= 0) & (iw < WD)
        pix = (img * H + ih) * WD + iw
        a = tl.load(X + pix[:, None] * C + (c0 + rk)[None, :], mask=ok[:, None], other=0.0)
        b = tl.load(W + rn[None, :] * (9 * C) + (kk + rk)[:, None])
        acc = tl.dot(a, b, acc)
    tl.store(Y + rm[:, None] * KO + rn[None, :], acc.to(Y.dtype.element_ty))
