"""The twelfth held-out set (issue 28, session 26): kernel shapes users write that no other set has,
written and generated at the session's start, measured on main as it was before the session's
changes (df2f87f) and again at its end (docs/triton.md). Plain pointers; shapes divisible by the
tile.

  attn_mla       latent attention (DeepSeek-style MLA, absorbed form): every head reads one shared
                 latent K/V tile that is both K (transposed, Q K^T) and V (P V), plus a narrow
                 rotary part (a second Q K^T of width R summed into the scores)
  attn_relbias   attention plus a learned bias tile [heads, queries, keys] loaded from memory with
                 every K block and added to the scores (T5/relative-position style)
  attn_diff      differential attention: two query/key halves, two online softmaxes over one V
                 tile, the output the difference (four dots an iteration)
  mm_tf32        an fp32 GEMM with TF32 products (input_precision="tf32")
  mm_bf16x3      the same with bf16x3 products (gfx950 has no TF32 MFMA; Triton splits each fp32
                 operand into bf16 parts: three MFMAs per product)
  mm_trmm        a triangular GEMM, C = tril(A) B: the K loop runs to the row block's diagonal and
                 the diagonal block of A is masked inside the loop
  mm_xent        a fused linear + cross-entropy forward: for each vocabulary block the logits'
                 K loop, then an online log-sum-exp and the target logit picked out (a K loop
                 nested in the vocabulary loop)
"""
import triton
import triton.language as tl


@triton.jit
def attn_mla(Q, QPE, KV, KPE, O, sm_scale, stride_h, stride_s, stride_ph, stride_ps, SEQ,
             BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, R: tl.constexpr):
    # Q [H, SEQ, D] (the absorbed no-position part), QPE [H, SEQ, R] (the rotary part);
    # KV [SEQ, D] and KPE [SEQ, R] are shared by every head
    start_m = tl.program_id(0)
    h = tl.program_id(1).to(tl.int64)
    rm = start_m * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    rr = tl.arange(0, R)
    q = tl.load(Q + h * stride_h + rm[:, None] * stride_s + rd[None, :])
    qpe = tl.load(QPE + h * stride_ph + rm[:, None] * stride_ps + rr[None, :])
    kvp = KV + rn[:, None] * stride_s + rd[None, :]
    kpep = KPE + rn[None, :] * stride_ps + rr[:, None]
    qk_scale = sm_scale * 1.44269504
    m = tl.full((BM,), float("-inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for _ in range(0, SEQ, BN):
        kv = tl.load(kvp)
        s = tl.dot(q, tl.trans(kv))
        s = tl.dot(qpe, tl.load(kpep), s) * qk_scale
        m_new = tl.maximum(m, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m - m_new)
        l = l * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(KV.dtype.element_ty), kv)
        m = m_new
        kvp += BN * stride_s
        kpep += BN * stride_ps
    tl.store(O + h * stride_h + rm[:, None] * stride_s + rd[None, :],
             (acc / l[:, None]).to(O.dtype.element_ty))


@triton.jit
def attn_relbias(Q, K, V, O, BIAS, sm_scale, stride_h, stride_s, stride_bh, stride_bm, SEQ,
                 BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # BIAS [H, SEQ, SEQ]: one learned bias per (head, query, key)
    start_m = tl.program_id(0)
    h = tl.program_id(1).to(tl.int64)
    rm = start_m * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(Q + h * stride_h + rm[:, None] * stride_s + rd[None, :])
    kp = K + h * stride_h + rn[None, :] * stride_s + rd[:, None]
    vp = V + h * stride_h + rn[:, None] * stride_s + rd[None, :]
    bp = BIAS + h * stride_bh + rm[:, None] * stride_bm + rn[None, :]
    qk_scale = sm_scale * 1.44269504
    m = tl.full((BM,), float("-inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for _ in range(0, SEQ, BN):
        s = tl.dot(q, tl.load(kp)) * qk_scale
        s += tl.load(bp).to(tl.float32) * 1.44269504
        m_new = tl.maximum(m, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m - m_new)
        l = l * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(V.dtype.element_ty), tl.load(vp))
        m = m_new
        kp += BN * stride_s
        vp += BN * stride_s
        bp += BN
    tl.store(O + h * stride_h + rm[:, None] * stride_s + rd[None, :],
             (acc / l[:, None]).to(O.dtype.element_ty))


@triton.jit
def attn_diff(Q1, Q2, K1, K2, V, O, sm_scale, stride_h, stride_s, SEQ, BM: tl.constexpr,
              BN: tl.constexpr, D: tl.constexpr, LAMBDA: tl.constexpr):
    # O = softmax(Q1 K1^T) V - LAMBDA softmax(Q2 K2^T) V, each half D wide
    start_m = tl.program_id(0)
    h = tl.program_id(1).to(tl.int64)
    rm = start_m * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    qoff = h * stride_h + rm[:, None] * stride_s + rd[None, :]
    q1 = tl.load(Q1 + qoff)
    q2 = tl.load(Q2 + qoff)
    koff = h * stride_h + rn[None, :] * stride_s + rd[:, None]
    k1p = K1 + koff
    k2p = K2 + koff
    vp = V + h * stride_h + rn[:, None] * stride_s + rd[None, :]
    qk_scale = sm_scale * 1.44269504
    m1 = tl.full((BM,), float("-inf"), tl.float32)
    m2 = tl.full((BM,), float("-inf"), tl.float32)
    l1 = tl.zeros((BM,), tl.float32)
    l2 = tl.zeros((BM,), tl.float32)
    acc1 = tl.zeros((BM, D), tl.float32)
    acc2 = tl.zeros((BM, D), tl.float32)
    for _ in range(0, SEQ, BN):
        s1 = tl.dot(q1, tl.load(k1p)) * qk_scale
        s2 = tl.dot(q2, tl.load(k2p)) * qk_scale
        v = tl.load(vp)
        m1n = tl.maximum(m1, tl.max(s1, 1))
        p1 = tl.math.exp2(s1 - m1n[:, None])
        a1 = tl.math.exp2(m1 - m1n)
        l1 = l1 * a1 + tl.sum(p1, 1)
        acc1 = acc1 * a1[:, None] + tl.dot(p1.to(V.dtype.element_ty), v)
        m2n = tl.maximum(m2, tl.max(s2, 1))
        p2 = tl.math.exp2(s2 - m2n[:, None])
        a2 = tl.math.exp2(m2 - m2n)
        l2 = l2 * a2 + tl.sum(p2, 1)
        acc2 = acc2 * a2[:, None] + tl.dot(p2.to(V.dtype.element_ty), v)
        m1 = m1n
        m2 = m2n
        k1p += BN * stride_s
        k2p += BN * stride_s
        vp += BN * stride_s
    o = acc1 / l1[:, None] - LAMBDA * (acc2 / l2[:, None])
    tl.store(O + qoff, o.to(O.dtype.element_ty))


@triton.jit
def mm_tf32(A, B, C, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr,
            BN: tl.constexpr, BK: tl.constexpr):
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
        acc = tl.dot(tl.load(a), tl.load(b), acc, input_precision="tf32")
        a += BK
        b += BK * stride_bk
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc)


@triton.jit
def mm_bf16x3(A, B, C, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr,
              BN: tl.constexpr, BK: tl.constexpr):
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
        acc = tl.dot(tl.load(a), tl.load(b), acc, input_precision="bf16x3")
        a += BK
        b += BK * stride_bk
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc)


@triton.jit
def mm_trmm(A, B, C, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr,
            BN: tl.constexpr, BK: tl.constexpr):
    # C [M, N] = tril(A) [M, M] B [M, N]: row block pid_m needs K up to its diagonal only
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = A + rm[:, None] * stride_am + rk[None, :]
    b = B + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, (pid_m + 1) * BM, BK):
        at = tl.load(a)
        at = tl.where(rm[:, None] >= (k + rk)[None, :], at, 0.0)
        acc = tl.dot(at, tl.load(b), acc)
        a += BK
        b += BK * stride_bk
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(C.dtype.element_ty))


@triton.jit
def mm_xent(X, W, T, LOSS, M, N, K, stride_xm, stride_wn, BM: tl.constexpr, BN: tl.constexpr,
            BK: tl.constexpr):
    # LOSS [M] = logsumexp(X W^T) - (X W^T)[row, T[row]]; X [M, K] hidden, W [N, K] the vocabulary
    pid = tl.program_id(0)
    rm = pid * BM + tl.arange(0, BM)
    rk = tl.arange(0, BK)
    tgt = tl.load(T + rm)
    m = tl.full((BM,), float("-inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    picked = tl.zeros((BM,), tl.float32)
    for n0 in range(0, N, BN):
        rn = n0 + tl.arange(0, BN)
        xp = X + rm[:, None] * stride_xm + rk[None, :]
        wp = W + rn[None, :] * stride_wn + rk[:, None]
        logits = tl.zeros((BM, BN), tl.float32)
        for _ in range(0, K, BK):
            logits = tl.dot(tl.load(xp), tl.load(wp), logits)
            xp += BK
            wp += BK
        m_new = tl.maximum(m, tl.max(logits, 1))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(logits - m_new[:, None]), 1)
        picked += tl.sum(tl.where(rn[None, :] == tgt[:, None], logits, 0.0), 1)
        m = m_new
    tl.store(LOSS + rm, m + tl.log(l) - picked)
