"""The seventh held-out set (issue 28, session 21): kernel shapes users write that no other set has,
written and generated at the session's start, measured on main as it was before the session's
changes (afc9cd0) and again at its end (docs/triton.md). Plain pointers, shapes divisible by the
tile.

  mm_moe      a mixture-of-experts GEMM: each program's rows are tokens gathered through an index
              array (one row pointer per token), its expert's weight matrix picked by a per-block
              expert id (the grouped GEMM of fused-MoE kernels)
  attn_paged  paged decoding attention (vLLM-style): K/V live in fixed-size pages, the loop reads
              each page's physical number from a block table, so every iteration's K/V base comes
              from a load; the query heads of a GQA group share the page
  mm_gelu     the user GEMM with a bias and tanh-GELU epilogue, grouped program order, weights
              stored N x K, with tl.multiple_of / tl.max_contiguous hints on the offsets
  mm_w4a16    weight-only quantization: bf16 activations against MXFP4 weights (e2m1 with e8m0
              scales, tl.dot_scaled with a bf16 left operand)
  attn_hd256  attention forward at head dimension 256 (Gemma-style), online softmax with exp2
"""
import triton
import triton.language as tl


@triton.jit
def mm_moe(A, W, TOK, EXP, C, M, N, K, stride_am, stride_we, stride_wk, stride_cm,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    rows = pid_m * BM + tl.arange(0, BM)
    tok = tl.load(TOK + rows)                      # the tokens routed to this block's expert
    e = tl.load(EXP + pid_m)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = A + tok.to(tl.int64)[:, None] * stride_am + rk[None, :]
    w = W + e.to(tl.int64) * stride_we + rk[:, None] * stride_wk + rn[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, K, BK):
        acc = tl.dot(tl.load(a), tl.load(w), acc)
        a += BK
        w += BK * stride_wk
    tl.store(C + rows[:, None] * stride_cm + rn[None, :], acc.to(C.dtype.element_ty))


@triton.jit
def attn_paged(Q, KC, VC, BT, O, sm_scale, stride_qh, stride_kp, stride_kn, stride_vp, stride_vn,
               stride_oh, stride_bt, NPAGES, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # program = (sequence, K/V head); BM query heads share the K/V head; BN = the page size
    seq = tl.program_id(0)
    kvh = tl.program_id(1)
    rh = kvh * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    rn = tl.arange(0, BN)
    q = tl.load(Q + (seq * tl.num_programs(1) * BM + rh)[:, None] * stride_qh + rd[None, :])
    m = tl.full((BM,), float("-inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for j in range(0, NPAGES):
        page = tl.load(BT + seq * stride_bt + j).to(tl.int64)
        k = tl.load(KC + page * stride_kp + kvh * D + rn[None, :] * stride_kn + rd[:, None])
        v = tl.load(VC + page * stride_vp + kvh * D + rn[:, None] * stride_vn + rd[None, :])
        s = tl.dot(q, k) * sm_scale
        m_new = tl.maximum(m, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m - m_new)
        l = l * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m = m_new
    o = O + (seq * tl.num_programs(1) * BM + rh)[:, None] * stride_oh + rd[None, :]
    tl.store(o, (acc / l[:, None]).to(O.dtype.element_ty))


@triton.jit
def mm_gelu(A, B, BIAS, C, M, N, K, stride_am, stride_bn, stride_cm,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    width = GROUP_M * num_n
    group = pid // width
    first_m = group * GROUP_M
    size_m = tl.minimum(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % width) % size_m
    pid_n = (pid % width) // size_m
    rm = tl.max_contiguous(tl.multiple_of(pid_m * BM + tl.arange(0, BM), BM), BM)
    rn = tl.max_contiguous(tl.multiple_of(pid_n * BN + tl.arange(0, BN), BN), BN)
    rk = tl.arange(0, BK)
    a = A + rm[:, None] * stride_am + rk[None, :]
    b = B + rn[None, :] * stride_bn + rk[:, None]
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        acc = tl.dot(tl.load(a), tl.load(b), acc)
        a += BK
        b += BK
    x = acc + tl.load(BIAS + rn)[None, :].to(tl.float32)
    t = 0.7978845608 * (x + 0.044715 * x * x * x)
    g = 0.5 * x * (1.0 + (2.0 * tl.sigmoid(2.0 * t) - 1.0))
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], g.to(C.dtype.element_ty))


@triton.jit
def mm_w4a16(A, B, SB, C, M, N, K, stride_am, stride_bn, stride_sbn, stride_cm,
             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # A [M, K] bf16; B [N, K/2] two e2m1 per byte; SB [N, K/32] e8m0
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    rkb = tl.arange(0, BK // 2)
    rks = tl.arange(0, BK // 32)
    a = A + rm[:, None] * stride_am + rk[None, :]
    b = B + rn[:, None] * stride_bn + rkb[None, :]
    sb = SB + rn[:, None] * stride_sbn + rks[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, K, BK):
        acc = tl.dot_scaled(tl.load(a), None, "bf16", tl.load(b).T, tl.load(sb), "e2m1", acc)
        a += BK
        b += BK // 2
        sb += BK // 32
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(C.dtype.element_ty))


@triton.jit
def attn_hd256(Q, K, V, O, sm_scale, stride_h, stride_s, SEQ, BM: tl.constexpr, BN: tl.constexpr,
               D: tl.constexpr):
    start = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    rm = start * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    base = bh * stride_h
    q = tl.load(Q + base + rm[:, None] * stride_s + rd[None, :])
    k = K + base + rn[None, :] * stride_s + rd[:, None]
    v = V + base + rn[:, None] * stride_s + rd[None, :]
    qk_scale = sm_scale * 1.44269504
    m = tl.full((BM,), float("-inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for _ in range(0, SEQ, BN):
        s = tl.dot(q, tl.load(k)) * qk_scale
        m_new = tl.maximum(m, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m - m_new)
        l = l * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(V.dtype.element_ty), tl.load(v))
        m = m_new
        k += BN * stride_s
        v += BN * stride_s
    tl.store(O + base + rm[:, None] * stride_s + rd[None, :], (acc / l[:, None]).to(O.dtype.element_ty))
