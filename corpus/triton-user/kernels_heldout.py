"""The held-out set (issue 24 item 7): kernels written after the no-gain rule was in, in other
shapes users write, and not looked at while designing it.

  attn_tut       Triton's tutorial form (06-fused-attention): causal attention in two K/V
                 loops, the blocks left of the diagonal without a mask, then the diagonal band
                 with one; block pointers; the scale folded into Q
  attn_mixed     fp8 Q and K (Q K^T in fp8), P and V in fp16 (mixed precision); plain pointers;
                 an optional key-padding mask from a per-row length (loop-variant, in-loop)
  matmul_bias    C = act(A @ B + bias): the usual user GEMM with a K tail mask on the loads
                 (other=0) and a fused bias + ReLU epilogue; B [K, N]
  matmul_bp      a GEMM with block pointers and tl.advance, B stored [N, K] (weights)
"""
import triton
import triton.language as tl


@triton.jit
def _tut_inner(acc, l_i, m_i, q, k_ptr, v_ptr, start_m, lo, hi, offs_m, offs_n,
               BN: tl.constexpr, STAGE: tl.constexpr):
    k_ptr = tl.advance(k_ptr, (0, lo))
    v_ptr = tl.advance(v_ptr, (lo, 0))
    for start_n in range(lo, hi, BN):
        start_n = tl.multiple_of(start_n, BN)
        k = tl.load(k_ptr)
        qk = tl.dot(q, k)
        if STAGE == 2:
            qk = tl.where(offs_m[:, None] >= (start_n + offs_n[None, :]), qk, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        qk = qk - m_ij[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr)
        acc = tl.dot(p.to(v.type.element_ty), v, acc)
        m_i = m_ij
        k_ptr = tl.advance(k_ptr, (0, BN))
        v_ptr = tl.advance(v_ptr, (BN, 0))
    return acc, l_i, m_i


@triton.jit
def attn_tut(Q, K, V, O, sm_scale, stride_qh, stride_qm, stride_kh, stride_kn, stride_vh,
             stride_vn, stride_oh, stride_om, SEQ,
             BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    off_h = tl.program_id(1)
    q_ptr = tl.make_block_ptr(Q + off_h * stride_qh, (SEQ, D), (stride_qm, 1), (start_m * BM, 0),
                              (BM, D), (1, 0))
    k_ptr = tl.make_block_ptr(K + off_h * stride_kh, (D, SEQ), (1, stride_kn), (0, 0), (D, BN), (0, 1))
    v_ptr = tl.make_block_ptr(V + off_h * stride_vh, (SEQ, D), (stride_vn, 1), (0, 0), (BN, D), (1, 0))
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
    acc = tl.zeros([BM, D], dtype=tl.float32)
    q = tl.load(q_ptr)
    q = (q * (sm_scale * 1.44269504)).to(q.dtype)
    if CAUSAL:
        acc, l_i, m_i = _tut_inner(acc, l_i, m_i, q, k_ptr, v_ptr, start_m, 0, start_m * BM,
                                   offs_m, offs_n, BN, 1)
        acc, l_i, m_i = _tut_inner(acc, l_i, m_i, q, k_ptr, v_ptr, start_m, start_m * BM,
                                   (start_m + 1) * BM, offs_m, offs_n, BN, 2)
    else:
        acc, l_i, m_i = _tut_inner(acc, l_i, m_i, q, k_ptr, v_ptr, start_m, 0, SEQ,
                                   offs_m, offs_n, BN, 1)
    acc = acc / l_i[:, None]
    o_ptr = tl.make_block_ptr(O + off_h * stride_oh, (SEQ, D), (stride_om, 1), (start_m * BM, 0),
                              (BM, D), (1, 0))
    tl.store(o_ptr, acc.to(O.type.element_ty))


@triton.jit
def attn_mixed(Q, K, V, O, LENS, sm_scale, stride_qm, stride_kn, stride_vn, stride_om, SEQ,
               BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, PAD: tl.constexpr):
    pid = tl.program_id(0)
    offs_m = pid * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + offs_m[:, None] * stride_qm + offs_d[None, :])
    kp = K + offs_n[None, :] * stride_kn + offs_d[:, None]
    vp = V + offs_n[:, None] * stride_vn + offs_d[None, :]
    if PAD:
        klen = tl.load(LENS + tl.program_id(1))
    m_i = tl.full([BM], float("-inf"), tl.float32)
    l_i = tl.full([BM], 1.0, tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, SEQ, BN):
        s = tl.dot(q, tl.load(kp)) * qk_scale
        if PAD:
            s = tl.where((start_n + offs_n)[None, :] < klen, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), tl.load(vp))
        m_i = m_new
        kp += BN * stride_kn
        vp += BN * stride_vn
    acc = acc / l_i[:, None]
    tl.store(O + offs_m[:, None] * stride_om + offs_d[None, :], acc.to(O.dtype.element_ty))


@triton.jit
def matmul_bias(A, B, BIAS, C, M, N, K, stride_am, stride_bk, stride_cm,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    group = pid // (GROUP_M * num_pid_n)
    first_m = group * GROUP_M
    size_m = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % size_m)
    pid_n = (pid % (GROUP_M * num_pid_n)) // size_m
    offs_m = (pid_m * BM + tl.arange(0, BM)) % M
    offs_n = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = A + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = B + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    acc += tl.load(BIAS + offs_n)[None, :].to(tl.float32)
    acc = tl.maximum(acc, 0.0)
    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    tl.store(C + cm[:, None] * stride_cm + cn[None, :], acc.to(C.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def matmul_bp(A, B, C, M, N, K, stride_am, stride_bn, stride_cm,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_n = tl.cdiv(N, BN)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    a_ptr = tl.make_block_ptr(A, (M, K), (stride_am, 1), (pid_m * BM, 0), (BM, BK), (1, 0))
    b_ptr = tl.make_block_ptr(B, (K, N), (1, stride_bn), (0, pid_n * BN), (BK, BN), (0, 1))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(tl.load(a_ptr), tl.load(b_ptr), acc)
        a_ptr = tl.advance(a_ptr, (0, BK))
        b_ptr = tl.advance(b_ptr, (BK, 0))
    c_ptr = tl.make_block_ptr(C, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c_ptr, acc.to(C.type.element_ty))
