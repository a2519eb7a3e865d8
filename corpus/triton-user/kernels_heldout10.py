"""The tenth held-out set (issue 28, session 24): kernel shapes users write that no other set has,
written and generated at the session's start, measured on main as it was before the session's
changes (3e3ba99) and again at its end (docs/triton.md). Plain pointers; shapes divisible by the
tile.

  attn_dropout   training-time attention forward with dropout on P: a Philox draw per score
                 (`tl.rand`), integer VALU work between the two dots
  attn_bsparse   block-sparse attention: each query block visits the K/V blocks its row of a
                 lookup table names (the block index loaded every iteration)
  attn_fp8       fp8 attention end to end: fp8 Q, K and V, P rounded to fp8 for P V, per-tensor
                 descales folded into the score scale and the output
  attn_decay     softmax-free attention with an exponential distance decay (retention-style):
                 two dots, a cheap elementwise weight between them, no row max or row sum
  mm_grouped     a grouped GEMM: each group's K extent and its operands' offsets are read from
                 tables, so the K loop's trip count comes from memory
  mm_dbias       a weight-gradient GEMM that also sums the right operand's columns in the K loop
                 (the bias gradient of the same layer)
"""
import triton
import triton.language as tl


@triton.jit
def attn_dropout(Q, K, V, O, sm_scale, stride_h, stride_s, SEQ, seed, BM: tl.constexpr,
                 BN: tl.constexpr, D: tl.constexpr, P_DROP: tl.constexpr):
    start_m = tl.program_id(0)
    h = tl.program_id(1).to(tl.int64)
    rm = start_m * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(Q + h * stride_h + rm[:, None] * stride_s + rd[None, :])
    kp = K + h * stride_h + rn[None, :] * stride_s + rd[:, None]
    vp = V + h * stride_h + rn[:, None] * stride_s + rd[None, :]
    qk_scale = sm_scale * 1.44269504
    m = tl.full((BM,), float("-inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    row = (h * SEQ + rm[:, None]) * SEQ
    for start_n in range(0, SEQ, BN):
        s = tl.dot(q, tl.load(kp)) * qk_scale
        m_new = tl.maximum(m, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m - m_new)
        l = l * alpha + tl.sum(p, 1)
        keep = tl.rand(seed, (row + start_n + rn[None, :]).to(tl.int32)) > P_DROP
        p = tl.where(keep, p * (1.0 / (1.0 - P_DROP)), 0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(V.dtype.element_ty), tl.load(vp))
        m = m_new
        kp += BN * stride_s
        vp += BN * stride_s
    tl.store(O + h * stride_h + rm[:, None] * stride_s + rd[None, :],
             (acc / l[:, None]).to(O.dtype.element_ty))


@triton.jit
def attn_bsparse(Q, K, V, O, LUT, sm_scale, stride_h, stride_s, SEQ, NB, BM: tl.constexpr,
                 BN: tl.constexpr, D: tl.constexpr):
    # LUT [SEQ // BM, NB] i32: the K/V block indices each query block attends to
    start_m = tl.program_id(0)
    h = tl.program_id(1).to(tl.int64)
    rm = start_m * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(Q + h * stride_h + rm[:, None] * stride_s + rd[None, :])
    kbase = K + h * stride_h + rn[None, :] * stride_s + rd[:, None]
    vbase = V + h * stride_h + rn[:, None] * stride_s + rd[None, :]
    qk_scale = sm_scale * 1.44269504
    m = tl.full((BM,), float("-inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for i in range(0, NB):
        blk = tl.load(LUT + start_m * NB + i)
        off = blk * BN * stride_s
        s = tl.dot(q, tl.load(kbase + off)) * qk_scale
        m_new = tl.maximum(m, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m - m_new)
        l = l * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(V.dtype.element_ty), tl.load(vbase + off))
        m = m_new
    tl.store(O + h * stride_h + rm[:, None] * stride_s + rd[None, :],
             (acc / l[:, None]).to(O.dtype.element_ty))


@triton.jit
def attn_fp8(Q, K, V, O, DESC, sm_scale, stride_h, stride_s, SEQ, BM: tl.constexpr,
             BN: tl.constexpr, D: tl.constexpr):
    # Q, K, V fp8; DESC fp32 [3]: the descales of Q, K and V; O fp16
    start_m = tl.program_id(0)
    h = tl.program_id(1).to(tl.int64)
    rm = start_m * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(Q + h * stride_h + rm[:, None] * stride_s + rd[None, :])
    kp = K + h * stride_h + rn[None, :] * stride_s + rd[:, None]
    vp = V + h * stride_h + rn[:, None] * stride_s + rd[None, :]
    qk_scale = sm_scale * 1.44269504 * tl.load(DESC) * tl.load(DESC + 1)
    m = tl.full((BM,), float("-inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for _ in range(0, SEQ, BN):
        s = tl.dot(q, tl.load(kp)) * qk_scale
        m_new = tl.maximum(m, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m - m_new)
        l = l * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(V.dtype.element_ty), tl.load(vp))
        m = m_new
        kp += BN * stride_s
        vp += BN * stride_s
    out = acc * (tl.load(DESC + 2) / l[:, None])
    tl.store(O + h * stride_h + rm[:, None] * stride_s + rd[None, :], out.to(O.dtype.element_ty))


@triton.jit
def attn_decay(Q, K, V, O, sm_scale, stride_h, stride_s, SEQ, BM: tl.constexpr,
               BN: tl.constexpr, D: tl.constexpr, LOG2_GAMMA: tl.constexpr):
    start_m = tl.program_id(0)
    h = tl.program_id(1).to(tl.int64)
    rm = start_m * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(Q + h * stride_h + rm[:, None] * stride_s + rd[None, :])
    kp = K + h * stride_h + rn[None, :] * stride_s + rd[:, None]
    vp = V + h * stride_h + rn[:, None] * stride_s + rd[None, :]
    acc = tl.zeros((BM, D), tl.float32)
    for start_n in range(0, SEQ, BN):
        s = tl.dot(q, tl.load(kp)) * sm_scale
        dist = tl.abs(rm[:, None] - (start_n + rn[None, :])).to(tl.float32)
        w = s * tl.math.exp2(dist * LOG2_GAMMA)
        acc = tl.dot(w.to(V.dtype.element_ty), tl.load(vp), acc)
        kp += BN * stride_s
        vp += BN * stride_s
    tl.store(O + h * stride_h + rm[:, None] * stride_s + rd[None, :], acc.to(O.dtype.element_ty))


@triton.jit
def mm_grouped(A, B, C, KS, OFFS, M, N, stride_am, stride_bk, stride_cm, BM: tl.constexpr,
               BN: tl.constexpr, BK: tl.constexpr):
    # group g: C_g [M, N] = A_g [M, KS[g]] B_g [KS[g], N]; OFFS [G, 2] i32: element offsets of
    # A_g and B_g; every group's C is M x N, laid out one after the other
    pid = tl.program_id(0)
    g = tl.program_id(1)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    kg = tl.load(KS + g)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = A + tl.load(OFFS + 2 * g) + rm[:, None] * stride_am + rk[None, :]
    b = B + tl.load(OFFS + 2 * g + 1) + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, kg, BK):
        acc = tl.dot(tl.load(a), tl.load(b), acc)
        a += BK
        b += BK * stride_bk
    c = C + g.to(tl.int64) * M * N + rm[:, None] * stride_cm + rn[None, :]
    tl.store(c, acc.to(C.dtype.element_ty))


@triton.jit
def mm_dbias(A, B, C, DB, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr,
             BN: tl.constexpr, BK: tl.constexpr):
    # dW [M, N] = A [M, K] B [K, N] (A the activations transposed, B the output gradient,
    # K the tokens); the bias gradient DB [N] = the column sums of B, summed in the same loop
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = A + rm[:, None] * stride_am + rk[None, :]
    b = B + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    db = tl.zeros((BN,), tl.float32)
    for _ in range(0, K, BK):
        bt = tl.load(b)
        acc = tl.dot(tl.load(a), bt, acc)
        db += tl.sum(bt.to(tl.float32), 0)
        a += BK
        b += BK * stride_bk
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(C.dtype.element_ty))
    tl.store(DB + rn, db, mask=pid_m == 0)
