"""The ninth held-out set (issue 28, session 23): kernel shapes users write that no other set has,
written and generated at the session's start, measured on main as it was before the session's
changes (a10b5c3) and again at its end (docs/triton.md). Plain pointers; shapes divisible by the
tile.

  mm_fp32      an fp32 GEMM with IEEE products (`input_precision="ieee"`): fp32 operands through
               LDS, the f32 MFMAs (four times the operand bytes of an f16 GEMM per product)
  mm_unroll    a GEMM whose K loop the user unrolls twice (`tl.range(..., loop_unroll_factor=2)`):
               two K steps, two dots, one loop iteration
  mm_lora      a LoRA GEMM: the base product X W and the low-rank X A (rank 16) share X's tile in
               the K loop; (X A) B is added after it
  attn_dv      attention whose V head dimension (64) differs from Q/K's (128), as in latent
               attention
  attn_kv8     attention over an int8 K/V cache with per-token fp32 scales: K's scale applied to
               the scores, V dequantised to the query's type before P V
"""
import triton
import triton.language as tl


@triton.jit
def mm_fp32(A, B, C, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr,
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
        acc = tl.dot(tl.load(a), tl.load(b), acc, input_precision="ieee")
        a += BK
        b += BK * stride_bk
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc)


@triton.jit
def mm_unroll(A, B, C, M, N, K, stride_am, stride_bn, stride_cm, BM: tl.constexpr,
              BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = A + rm[:, None] * stride_am + rk[None, :]
    b = B + rn[None, :] * stride_bn + rk[:, None]          # B stored N x K
    acc = tl.zeros((BM, BN), tl.float32)
    for k in tl.range(0, K, BK, loop_unroll_factor=2):
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(C.dtype.element_ty))


@triton.jit
def mm_lora(X, W, LA, LB, C, M, N, K, stride_xm, stride_wk, stride_cm, BM: tl.constexpr,
            BN: tl.constexpr, BK: tl.constexpr, R: tl.constexpr):
    # X [M, K], W [K, N], LA [K, R], LB [R, N] (all row-major)
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BN)
    pid_n = pid % tl.cdiv(N, BN)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    rr = tl.arange(0, R)
    x = X + rm[:, None] * stride_xm + rk[None, :]
    w = W + rk[:, None] * stride_wk + rn[None, :]
    la = LA + rk[:, None] * R + rr[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    xa = tl.zeros((BM, R), tl.float32)
    for _ in range(0, K, BK):
        xt = tl.load(x)
        acc = tl.dot(xt, tl.load(w), acc)
        xa = tl.dot(xt, tl.load(la), xa)
        x += BK
        w += BK * stride_wk
        la += BK * R
    lb = tl.load(LB + rr[:, None] * N + rn[None, :])
    acc = tl.dot(xa.to(X.dtype.element_ty), lb, acc)
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(C.dtype.element_ty))


@triton.jit
def attn_dv(Q, K, V, O, sm_scale, stride_h, stride_s, stride_vs, SEQ, BM: tl.constexpr,
            BN: tl.constexpr, D: tl.constexpr, DV: tl.constexpr):
    # Q, K [heads, SEQ, D]; V, O [heads, SEQ, DV]
    start_m = tl.program_id(0)
    h = tl.program_id(1).to(tl.int64)
    rm = start_m * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    rv = tl.arange(0, DV)
    q = tl.load(Q + h * stride_h + rm[:, None] * stride_s + rd[None, :])
    kp = K + h * stride_h + rn[None, :] * stride_s + rd[:, None]
    vp = V + h * SEQ * stride_vs + rn[:, None] * stride_vs + rv[None, :]
    qk_scale = sm_scale * 1.44269504
    m = tl.full((BM,), float("-inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, DV), tl.float32)
    for _ in range(0, SEQ, BN):
        s = tl.dot(q, tl.load(kp)) * qk_scale
        m_new = tl.maximum(m, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m - m_new)
        l = l * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(V.dtype.element_ty), tl.load(vp))
        m = m_new
        kp += BN * stride_s
        vp += BN * stride_vs
    tl.store(O + h * SEQ * stride_vs + rm[:, None] * stride_vs + rv[None, :],
             (acc / l[:, None]).to(O.dtype.element_ty))


@triton.jit
def attn_kv8(Q, K, V, KS, VS, O, sm_scale, stride_h, stride_s, SEQ, BM: tl.constexpr,
             BN: tl.constexpr, D: tl.constexpr):
    # K, V int8 [heads, SEQ, D]; KS, VS fp32 [heads, SEQ] per-token scales
    start_m = tl.program_id(0)
    h = tl.program_id(1).to(tl.int64)
    rm = start_m * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(Q + h * stride_h + rm[:, None] * stride_s + rd[None, :])
    kp = K + h * stride_h + rn[None, :] * stride_s + rd[:, None]
    vp = V + h * stride_h + rn[:, None] * stride_s + rd[None, :]
    ks = KS + h * SEQ + rn
    vs = VS + h * SEQ + rn
    qk_scale = sm_scale * 1.44269504
    m = tl.full((BM,), float("-inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for _ in range(0, SEQ, BN):
        k = tl.load(kp).to(Q.dtype.element_ty)
        s = tl.dot(q, k) * (tl.load(ks) * qk_scale)[None, :]
        m_new = tl.maximum(m, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m - m_new)
        l = l * alpha + tl.sum(p, 1)
        v = (tl.load(vp).to(tl.float32) * tl.load(vs)[:, None]).to(Q.dtype.element_ty)
        acc = acc * alpha[:, None] + tl.dot(p.to(Q.dtype.element_ty), v)
        m = m_new
        kp += BN * stride_s
        vp += BN * stride_s
        ks += BN
        vs += BN
    tl.store(O + h * stride_h + rm[:, None] * stride_s + rd[None, :],
             (acc / l[:, None]).to(O.dtype.element_ty))
