"""Attention written the way users write it (issue 24 item 7, issue 28): the tuning set.

Debug locations in the generated kernel.llir / kernel.amdgcn point at lines of this file.
generate.py compiles each kernel with explicit signatures, constexprs and argument attributes
(no GPU needed).  Unlike corpus/triton's attn_fwd these follow the shapes of Triton's own
tutorial and of attention code in the wild:

  attn_bp   block pointers (tl.make_block_ptr / tl.advance), one program per (query block,
            head); MASK 0 none, 1 causal, 2 causal sliding window of WINDOW keys, applied
            inside the one K/V loop (tl.where on the scores), the loop bounds cut to the band
  attn_gqa  grouped-query attention: one program holds the queries of two query heads that
            share a K/V head (BM/2 rows each), so each K/V tile feeds both; plain pointers
"""
import triton
import triton.language as tl


@triton.jit
def attn_bp(Q, K, V, O, sm_scale, stride_qh, stride_qm, stride_kh, stride_kn, stride_vh, stride_vn,
            stride_oh, stride_om, SEQ,
            BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, MASK: tl.constexpr,
            WINDOW: tl.constexpr):
    start_m = tl.program_id(0)
    off_h = tl.program_id(1)
    q_ptr = tl.make_block_ptr(base=Q + off_h * stride_qh, shape=(SEQ, D), strides=(stride_qm, 1),
                              offsets=(start_m * BM, 0), block_shape=(BM, D), order=(1, 0))
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    if MASK == 0:
        lo, hi = 0, SEQ
    elif MASK == 1:
        lo, hi = 0, (start_m + 1) * BM
    else:
        lo = tl.maximum(start_m * BM - WINDOW, 0) // BN * BN
        hi = (start_m + 1) * BM
    lo = tl.multiple_of(lo, BN)
    k_ptr = tl.make_block_ptr(base=K + off_h * stride_kh, shape=(D, SEQ), strides=(1, stride_kn),
                              offsets=(0, lo), block_shape=(D, BN), order=(0, 1))
    v_ptr = tl.make_block_ptr(base=V + off_h * stride_vh, shape=(SEQ, D), strides=(stride_vn, 1),
                              offsets=(lo, 0), block_shape=(BN, D), order=(1, 0))
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
    acc = tl.zeros([BM, D], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = tl.load(q_ptr)
    for start_n in range(lo, hi, BN):
        start_n = tl.multiple_of(start_n, BN)
        k = tl.load(k_ptr)
        qk = tl.dot(q, k)
        if MASK == 0:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        else:
            keep = offs_m[:, None] >= (start_n + offs_n[None, :])
            if MASK == 2:
                keep = keep & (offs_m[:, None] - (start_n + offs_n[None, :]) < WINDOW)
            qk = qk * qk_scale + tl.where(keep, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
        v_ptr = tl.advance(v_ptr, (BN, 0))
        k_ptr = tl.advance(k_ptr, (0, BN))
    acc = acc / l_i[:, None]
    o_ptr = tl.make_block_ptr(base=O + off_h * stride_oh, shape=(SEQ, D), strides=(stride_om, 1),
                              offsets=(start_m * BM, 0), block_shape=(BM, D), order=(1, 0))
    tl.store(o_ptr, acc.to(O.type.element_ty))


@triton.jit
def attn_gqa(Q, K, V, O, sm_scale, stride_qh, stride_qm, stride_kh, stride_kn, stride_vh, stride_vn,
             stride_oh, stride_om, SEQ,
             BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # rows 0..BM/2-1: query head 2*kvh, rows BM/2..BM-1: query head 2*kvh+1, same positions
    start_m = tl.program_id(0)
    kvh = tl.program_id(1)
    HALF: tl.constexpr = BM // 2
    r = tl.arange(0, BM)
    qh = 2 * kvh + r // HALF
    pos = start_m * HALF + r % HALF
    offs_d = tl.arange(0, D)
    offs_n = tl.arange(0, BN)
    q = tl.load(Q + qh[:, None] * stride_qh + pos[:, None] * stride_qm + offs_d[None, :])
    k_ptrs = K + kvh * stride_kh + offs_n[None, :] * stride_kn + offs_d[:, None]
    v_ptrs = V + kvh * stride_vh + offs_n[:, None] * stride_vn + offs_d[None, :]
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
    acc = tl.zeros([BM, D], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, SEQ, BN):
        k = tl.load(k_ptrs)
        qk = tl.dot(q, k) * qk_scale
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptrs)
        acc += tl.dot(p.to(v.dtype), v)
        m_i = m_ij
        k_ptrs += BN * stride_kn
        v_ptrs += BN * stride_vn
    acc = acc / l_i[:, None]
    tl.store(O + qh[:, None] * stride_oh + pos[:, None] * stride_om + offs_d[None, :],
             acc.to(O.dtype.element_ty))
from kernels_heldout6 import mm_blockscale  # noqa: E402,F401 - session 19 development cases
from kernels_heldout import matmul_bias  # noqa: E402,F401 - session 21 development cases
from kernels_heldout3 import mm_kmask_tn  # noqa: E402,F401


@triton.jit
def mm_blockscale_rc(A, B, SA, SB, C, M, N, K, stride_am, stride_bn, stride_cm, stride_sam,
                     stride_sbn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # session 22 (mmblock): per-row A scales and per-column B scales for each K block
    # (SA: [M, K // BK], SB: [N, K // BK]), applied to each block's dot inside the loop
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = A + rm[:, None] * stride_am + rk[None, :]
    b = B + rn[None, :] * stride_bn + rk[:, None]
    sa = SA + rm * stride_sam
    sb = SB + rn * stride_sbn
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, K, BK):
        part = tl.dot(tl.load(a), tl.load(b))
        acc += part * tl.load(sa)[:, None] * tl.load(sb)[None, :]
        a += BK
        b += BK
        sa += 1
        sb += 1
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(C.dtype.element_ty))


from kernels_heldout2 import mm_silu  # noqa: E402,F401 - session 22 development cases
from kernels_heldout3 import mm_kmask  # noqa: E402,F401
from kernels_heldout import attn_mixed  # noqa: E402,F401 - session 22 development cases
from kernels_heldout2 import mha_fwd  # noqa: E402,F401 - session 22 development cases
from kernels_heldout import attn_tut  # noqa: E402,F401
from kernels_heldout8 import attn_bwd_dkdv  # noqa: E402,F401
from kernels_heldout9 import mm_unroll  # noqa: E402,F401 - session 23 development cases
from kernels_heldout8 import mm_conv  # noqa: E402,F401 - session 23: 16-bit row gathers
from kernels_heldout7 import mm_w4a16  # noqa: E402,F401 - session 23 (mixstage) development cases
from kernels_heldout9 import mm_lora  # noqa: E402,F401
from kernels_heldout10 import attn_fp8  # noqa: E402,F401 - session 24 development cases
from kernels_heldout10 import mm_grouped  # noqa: E402,F401
from kernels_heldout10 import attn_dropout  # noqa: E402,F401
from kernels_heldout11 import mm_w8a16  # noqa: E402,F401 - session 25 development cases
from kernels_heldout11 import attn_docmask  # noqa: E402,F401


@triton.jit
def mm_rowsum(A, B, C, RS, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr,
              BN: tl.constexpr, BK: tl.constexpr):
    # session 25 (cflow) development cases: C = A B with B's column sums (a zero-point
    # correction term: sum over k of B[k, n]) accumulated in the same K loop, the way a user
    # fuses them; C stores the corrected product, RS the sums
    pid = tl.program_id(0)
    npid_n = tl.cdiv(N, BN)
    pid_m = pid // npid_n
    pid_n = pid % npid_n
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = A + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = B + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    colsum = tl.zeros((BN,), dtype=tl.float32)
    for k in range(0, K, BK):
        a_blk = tl.load(a_ptrs)
        b_blk = tl.load(b_ptrs)
        acc += tl.dot(a_blk, b_blk)
        colsum += tl.sum(b_blk.to(tl.float32), axis=0)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    acc -= 0.5 * colsum[None, :]
    tl.store(C + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(C.dtype.element_ty))
    tl.store(RS + offs_n, colsum, mask=pid_m == 0)
