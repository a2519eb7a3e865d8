"""The sixth held-out set (issue 28, session 19): kernel shapes users write that no other set has,
written and generated before this session's changes were measured on them, measured once at the
end (docs/triton.md). Plain pointers, shapes divisible by the tile unless stated.

  mm_batched    a batched GEMM: program_id(1) picks the batch, each operand with its own batch
                stride (attention projections, MoE experts of equal size)
  mm_splitk     split-K: program_id(1) takes one K slice, the partial tile goes out with
                tl.atomic_add into an fp32 C (skinny problems with a long K)
  mm_int8       W8A8: int8 x int8 into an int32 accumulator, per-row activation and per-column
                weight scales in the epilogue
  mm_blockscale fp8 with block-wise scales applied inside the loop (one A scale per row and K
                block, one B scale per K block and N block): each K step's product is scaled
                before it is added, so VALU work sits between the MFMAs of consecutive steps
  mm_swiglu     a gated MLP's up-projection: two GEMMs sharing the activation tile in one loop
                (x @ W1 and x @ W3), silu(h1) * h3 in the epilogue
  attn_decode   split-KV decoding attention (flash-decoding): the 16 query heads of a GQA group
                against one K/V head, one program per (K/V head, sequence split), partial output
                and log-sum-exp written for a later reduction
"""
import triton
import triton.language as tl


@triton.jit
def mm_batched(A, B, C, M, N, K, stride_ab, stride_am, stride_bb, stride_bk, stride_cb, stride_cm,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    bat = tl.program_id(1)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = A + bat.to(tl.int64) * stride_ab + rm[:, None] * stride_am + rk[None, :]
    b = B + bat.to(tl.int64) * stride_bb + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, K, BK):
        acc += tl.dot(tl.load(a), tl.load(b))
        a += BK
        b += BK * stride_bk
    c = C + bat.to(tl.int64) * stride_cb + rm[:, None] * stride_cm + rn[None, :]
    tl.store(c, acc.to(C.dtype.element_ty))


@triton.jit
def mm_splitk(A, B, C, M, N, K, stride_am, stride_bk, stride_cm,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    ks = tl.program_id(1)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    k_len = K // SPLIT_K
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = ks * k_len + tl.arange(0, BK)
    a = A + rm[:, None] * stride_am + rk[None, :]
    b = B + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, k_len, BK):
        acc = tl.dot(tl.load(a), tl.load(b), acc)
        a += BK
        b += BK * stride_bk
    tl.atomic_add(C + rm[:, None] * stride_cm + rn[None, :], acc, sem="relaxed")


@triton.jit
def mm_int8(A, B, SA, SB, C, M, N, K, stride_am, stride_bn, stride_cm,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = A + rm[:, None] * stride_am + rk[None, :]
    b = B + rn[None, :] * stride_bn + rk[:, None]          # weights stored N x K
    acc = tl.zeros((BM, BN), tl.int32)
    for _ in range(0, K, BK):
        acc = tl.dot(tl.load(a), tl.load(b), acc, out_dtype=tl.int32)
        a += BK
        b += BK
    out = acc.to(tl.float32) * tl.load(SA + rm)[:, None] * tl.load(SB + rn)[None, :]
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], out.to(C.dtype.element_ty))


@triton.jit
def mm_blockscale(A, B, SA, SB, C, M, N, K, stride_am, stride_bn, stride_cm, stride_sam,
                  stride_sbn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # SA: [M, K // BK] per-row scales; SB: [N // BN, K // BK] per-block scales (BK = the block)
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = A + rm[:, None] * stride_am + rk[None, :]
    b = B + rn[None, :] * stride_bn + rk[:, None]
    sa = SA + rm * stride_sam
    sb = SB + pid_n * stride_sbn
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, K, BK):
        part = tl.dot(tl.load(a), tl.load(b))
        acc += part * tl.load(sa)[:, None] * tl.load(sb)
        a += BK
        b += BK
        sa += 1
        sb += 1
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(C.dtype.element_ty))


@triton.jit
def mm_swiglu(X, W1, W3, C, M, N, K, stride_xm, stride_wk, stride_cm,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    x = X + rm[:, None] * stride_xm + rk[None, :]
    w1 = W1 + rk[:, None] * stride_wk + rn[None, :]
    w3 = W3 + rk[:, None] * stride_wk + rn[None, :]
    h1 = tl.zeros((BM, BN), tl.float32)
    h3 = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, K, BK):
        xt = tl.load(x)
        h1 = tl.dot(xt, tl.load(w1), h1)
        h3 = tl.dot(xt, tl.load(w3), h3)
        x += BK
        w1 += BK * stride_wk
        w3 += BK * stride_wk
    out = h1 * tl.sigmoid(h1) * h3
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], out.to(C.dtype.element_ty))


@triton.jit
def attn_decode(Q, K, V, O, LSE, sm_scale, stride_qh, stride_kh, stride_kn, stride_vh, stride_vn,
                stride_oh, SEQ, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr,
                SPLITS: tl.constexpr):
    # BM query heads share one K/V head; program (kv head, split) walks SEQ // SPLITS keys
    kvh = tl.program_id(0)
    sp = tl.program_id(1)
    span = SEQ // SPLITS
    rh = kvh * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    rn = sp * span + tl.arange(0, BN)
    q = tl.load(Q + rh[:, None] * stride_qh + rd[None, :])
    k = K + kvh.to(tl.int64) * stride_kh + rn[None, :] * stride_kn + rd[:, None]
    v = V + kvh.to(tl.int64) * stride_vh + rn[:, None] * stride_vn + rd[None, :]
    m = tl.full((BM,), float("-inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for _ in range(0, span, BN):
        s = tl.dot(q, tl.load(k)) * sm_scale
        m_new = tl.maximum(m, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m - m_new)
        l = l * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(V.dtype.element_ty), tl.load(v))
        m = m_new
        k += BN * stride_kn
        v += BN * stride_vn
    o = O + (sp * tl.num_programs(0) * BM + rh)[:, None] * stride_oh + rd[None, :]
    tl.store(o, (acc / l[:, None]).to(O.dtype.element_ty))
    tl.store(LSE + sp * tl.num_programs(0) * BM + rh, m + tl.log(l))
