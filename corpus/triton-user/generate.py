#!/usr/bin/env python3
"""Compile the kernels of kernels.py with Triton's AMD backend into corpus/triton-user/<case>/.

usage: generate.py OUTDIR [--set tuning|heldout|heldout2|heldout3|heldout4|heldout5|heldout6|heldout7|heldout8|heldout9|heldout10|heldout11|heldout12] [--filter SUBSTR ...] [--jobs N] [--list]

Four sets: tuning (kernels.py: the attention shapes of issue 24 item 7, looked at while the
no-gain rule was designed), heldout (kernels_heldout.py: written before the rule was measured on
them, measured once at the end; looked at since) and heldout2 (kernels_heldout2.py: the same for
the session-12 rules), heldout3 (kernels_heldout3.py: masked-K GEMMs, session 13), heldout4
(kernels_heldout4.py: 4-warp attention with three stages, session 16).

The driver is corpus/triton/generate.py's (compile_one, the knobs, meta.json, Triton's pingpong
mode per _pp1 case); only the cases and their signatures are new. Each case runs in a fresh
process (Triton reads its knobs once). Per case OUTDIR/<case>/ gets kernel.ttgir, kernel.llir,
kernel.amdgcn and meta.json; commit.sh-style trimming (README.md) drops the ttgir and the _pp1
cases whose kernel.llir equals their _pp0 twin's.
"""
import argparse, concurrent.futures as cf, json, os, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.join(HERE, "..", "triton"))
import importlib.util
_spec = importlib.util.spec_from_file_location("triton_corpus_generate",
                                               os.path.join(HERE, "..", "triton", "generate.py"))
G = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(G)

D16, PTR, SHORT = G.D16, G.PTR, G.SHORT
MASKS = {0: "nomask", 1: "causal", 2: "window"}
KINDS = {"attn_bp": "bp", "attn_gqa": "gqa", "attn_tut": "tut", "attn_mixed": "mixed",
         "matmul_bias": "mmbias", "matmul_bp": "mmbp", "mha_fwd": "mha", "mha_alibi": "alibi",
         "mha_softcap": "softcap", "mm_silu": "mmsilu", "mm_rowscale": "mmscale",
         "mm_kmask": "mmk", "mm_kmask_tn": "mmktn", "mm_batched": "mmbat", "mm_splitk": "mmsplitk",
         "mm_int8": "mmint8", "mm_blockscale": "mmblock", "mm_swiglu": "mmswiglu",
         "attn_decode": "decode", "mm_moe": "mmmoe", "attn_paged": "paged", "mm_gelu": "mmgelu",
         "mm_w4a16": "w4a16", "attn_hd256": "hd256", "mm_persistent": "mmpers", "mm_at": "mmat",
         "attn_bwd_dkdv": "bwd", "attn_varlen": "varlen", "mm_conv": "mmconv",
         "mm_blockscale_rc": "mmblockrc", "mm_fp32": "mmf32", "mm_unroll": "mmunroll",
         "mm_lora": "mmlora", "attn_dv": "dv", "attn_kv8": "kv8",
         "attn_dropout": "drop", "attn_bsparse": "bsparse", "attn_fp8": "afp8",
         "attn_decay": "decay", "mm_grouped": "mmgroup", "mm_dbias": "mmdbias",
         "attn_bwd_dq": "bwdq", "attn_docmask": "docmask", "attn_hd96": "hd96",
         "attn_linear": "linattn", "mm_w8a16": "mmw8a16", "mm_rmsnorm": "mmrms",
         "mm_rowsum": "mmrowsum", "attn_mla": "mla", "attn_relbias": "relbias",
         "attn_diff": "diffattn", "mm_tf32": "mmtf32", "mm_bf16x3": "mmbf16x3",
         "mm_trmm": "mmtri", "mm_xent": "mmxent"}
MODULES = {"tuning": "kernels", "heldout": "kernels_heldout", "heldout2": "kernels_heldout2",
           "heldout3": "kernels_heldout3", "heldout4": "kernels_heldout4",
           "heldout5": "kernels_heldout5", "heldout6": "kernels_heldout6",
           "heldout7": "kernels_heldout7", "heldout8": "kernels_heldout8",
           "heldout9": "kernels_heldout9", "heldout10": "kernels_heldout10",
           "heldout11": "kernels_heldout11", "heldout12": "kernels_heldout12"}
STRIDES = {"attn_bp": ("stride_qh", "stride_qm", "stride_kh", "stride_kn", "stride_vh",
                       "stride_vn", "stride_oh", "stride_om", "SEQ"),
           "attn_mixed": ("stride_qm", "stride_kn", "stride_vn", "stride_om", "SEQ"),
           "matmul_bias": ("M", "N", "K", "stride_am", "stride_bk", "stride_cm"),
           "matmul_bp": ("M", "N", "K", "stride_am", "stride_bn", "stride_cm")}
STRIDES["attn_gqa"] = STRIDES["attn_tut"] = STRIDES["attn_bp"]
STRIDES.update({f: ("stride_h", "stride_s", "SEQ") for f in ("mha_fwd", "mha_alibi", "mha_softcap")})
STRIDES["mm_silu"] = ("M", "N", "K", "stride_am", "stride_bk", "stride_cm")
STRIDES["mm_rowscale"] = ("M", "N", "K", "stride_am", "stride_bn", "stride_cm")
STRIDES["mm_kmask"] = ("M", "N", "K", "stride_am", "stride_bk", "stride_cm")
STRIDES["mm_kmask_tn"] = ("M", "N", "K", "stride_am", "stride_bn", "stride_cm")
# heldout6: each kernel's pointer arguments (with their element type: "" the case's dtype), its
# integer arguments (divisible by 16, as Triton's JIT specialises them) and extra constexprs
HELDOUT6 = {
    "mm_batched": ({"A": "", "B": "", "C": "out"},
                   ("M", "N", "K", "stride_ab", "stride_am", "stride_bb", "stride_bk", "stride_cb",
                    "stride_cm"), {}),
    "mm_splitk": ({"A": "", "B": "", "C": "fp32"}, ("M", "N", "K", "stride_am", "stride_bk",
                                                    "stride_cm"), {"SPLIT_K": 4}),
    "mm_int8": ({"A": "", "B": "", "SA": "fp32", "SB": "fp32", "C": "fp16"},
                ("M", "N", "K", "stride_am", "stride_bn", "stride_cm"), {}),
    "mm_blockscale": ({"A": "", "B": "", "SA": "fp32", "SB": "fp32", "C": "bf16"},
                      ("M", "N", "K", "stride_am", "stride_bn", "stride_cm", "stride_sam",
                       "stride_sbn"), {}),
    "mm_swiglu": ({"X": "", "W1": "", "W3": "", "C": "out"},
                  ("M", "N", "K", "stride_xm", "stride_wk", "stride_cm"), {}),
    "attn_decode": ({"Q": "", "K": "", "V": "", "O": "", "LSE": "fp32"},
                    ("stride_qh", "stride_kh", "stride_kn", "stride_vh", "stride_vn", "stride_oh",
                     "SEQ"), {"SPLITS": 8}),
}
# heldout7 (session 21): the same form
HELDOUT7 = {
    "mm_moe": ({"A": "", "W": "", "TOK": "i32", "EXP": "i32", "C": "out"},
               ("M", "N", "K", "stride_am", "stride_we", "stride_wk", "stride_cm"), {}),
    "attn_paged": ({"Q": "", "KC": "", "VC": "", "BT": "i32", "O": ""},
                   ("stride_qh", "stride_kp", "stride_kn", "stride_vp", "stride_vn", "stride_oh",
                    "stride_bt", "NPAGES"), {}),
    "mm_gelu": ({"A": "", "B": "", "BIAS": "", "C": ""},
                ("M", "N", "K", "stride_am", "stride_bn", "stride_cm"), {"GROUP_M": 8}),
    "mm_w4a16": ({"A": "", "B": "u8", "SB": "u8", "C": ""},
                 ("M", "N", "K", "stride_am", "stride_bn", "stride_sbn", "stride_cm"), {}),
    "attn_hd256": ({"Q": "", "K": "", "V": "", "O": ""}, ("stride_h", "stride_s", "SEQ"), {}),
}
# heldout8 (session 22): the same form
HELDOUT8 = {
    "mm_persistent": ({"A": "", "B": "", "C": "out"}, ("M", "N", "K", "stride_am", "stride_bn",
                                                        "stride_cm"), {"NUM_PROGS": 304}),
    "mm_at": ({"A": "", "B": "", "C": "out"}, ("M", "N", "K", "stride_ak", "stride_bk",
                                                "stride_cm"), {}),
    "attn_bwd_dkdv": ({"Q": "", "K": "", "V": "", "DO": "", "LSE": "fp32", "DELTA": "fp32",
                       "DK": "", "DV": ""}, ("stride_h", "stride_s", "SEQ"), {}),
    "attn_varlen": ({"Q": "", "K": "", "V": "", "O": "", "CU": "i32"}, ("stride_h", "stride_s"),
                    {}),
    "mm_conv": ({"X": "", "W": "", "Y": "out"}, ("H", "WD", "C", "KO"), {}),
}
# heldout9 (session 23): the same form
HELDOUT9 = {
    "mm_fp32": ({"A": "", "B": "", "C": ""}, ("M", "N", "K", "stride_am", "stride_bk", "stride_cm"),
                {}),
    "mm_unroll": ({"A": "", "B": "", "C": "out"}, ("M", "N", "K", "stride_am", "stride_bn",
                                                    "stride_cm"), {}),
    "mm_lora": ({"X": "", "W": "", "LA": "", "LB": "", "C": "out"},
                ("M", "N", "K", "stride_xm", "stride_wk", "stride_cm"), {"R": 16}),
    "attn_dv": ({"Q": "", "K": "", "V": "", "O": ""}, ("stride_h", "stride_s", "stride_vs", "SEQ"),
                {"DV": 64}),
    "attn_kv8": ({"Q": "", "K": "i8", "V": "i8", "KS": "fp32", "VS": "fp32", "O": ""},
                 ("stride_h", "stride_s", "SEQ"), {}),
}
# heldout10 (session 24): the same form
HELDOUT10 = {
    "attn_dropout": ({"Q": "", "K": "", "V": "", "O": ""}, ("stride_h", "stride_s", "SEQ", "seed"),
                     {"P_DROP": 0.1}),
    "attn_bsparse": ({"Q": "", "K": "", "V": "", "O": "", "LUT": "i32"},
                     ("stride_h", "stride_s", "SEQ", "NB"), {}),
    "attn_fp8": ({"Q": "", "K": "", "V": "", "O": "out", "DESC": "fp32"},
                 ("stride_h", "stride_s", "SEQ"), {}),
    "attn_decay": ({"Q": "", "K": "", "V": "", "O": ""}, ("stride_h", "stride_s", "SEQ"),
                   {"LOG2_GAMMA": -0.03125}),
    "mm_grouped": ({"A": "", "B": "", "C": "out", "KS": "i32", "OFFS": "i32"},
                   ("M", "N", "stride_am", "stride_bk", "stride_cm"), {}),
    "mm_dbias": ({"A": "", "B": "", "C": "out", "DB": "fp32"},
                 ("M", "N", "K", "stride_am", "stride_bk", "stride_cm"), {}),
}
# heldout11 (session 25): the same form
HELDOUT11 = {
    "attn_bwd_dq": ({"Q": "", "K": "", "V": "", "DO": "", "LSE": "fp32", "DELTA": "fp32", "DQ": ""},
                    ("stride_h", "stride_s", "SEQ"), {}),
    "attn_docmask": ({"Q": "", "K": "", "V": "", "O": "", "DOC": "i32"},
                     ("stride_h", "stride_s", "SEQ"), {}),
    "attn_hd96": ({"Q": "", "K": "", "V": "", "O": ""}, ("stride_h", "stride_s", "SEQ"), {"HD": 96}),
    "attn_linear": ({"Q": "", "K": "", "V": "", "O": ""}, ("stride_h", "stride_s", "SEQ"), {}),
    "mm_w8a16": ({"A": "", "B": "i8", "SB": "fp32", "C": ""},
                 ("M", "N", "K", "stride_am", "stride_bk", "stride_cm"), {}),
    "mm_rmsnorm": ({"X": "", "W": "", "G": "", "C": ""},
                   ("M", "N", "K", "stride_xm", "stride_wk", "stride_cm"), {}),
}
# heldout12 (session 26): the same form
HELDOUT12 = {
    "attn_mla": ({"Q": "", "QPE": "", "KV": "", "KPE": "", "O": ""},
                 ("stride_h", "stride_s", "stride_ph", "stride_ps", "SEQ"), {"R": 32}),
    "attn_relbias": ({"Q": "", "K": "", "V": "", "O": "", "BIAS": ""},
                     ("stride_h", "stride_s", "stride_bh", "stride_bm", "SEQ"), {}),
    "attn_diff": ({"Q1": "", "Q2": "", "K1": "", "K2": "", "V": "", "O": ""},
                  ("stride_h", "stride_s", "SEQ"), {"LAMBDA": 0.5}),
    "mm_tf32": ({"A": "", "B": "", "C": ""}, ("M", "N", "K", "stride_am", "stride_bk", "stride_cm"),
                {}),
    "mm_bf16x3": ({"A": "", "B": "", "C": ""},
                  ("M", "N", "K", "stride_am", "stride_bk", "stride_cm"), {}),
    "mm_trmm": ({"A": "", "B": "", "C": "out"},
                ("M", "N", "K", "stride_am", "stride_bk", "stride_cm"), {}),
    "mm_xent": ({"X": "", "W": "", "T": "i32", "LOSS": "fp32"},
                ("M", "N", "K", "stride_xm", "stride_wn"), {}),
}
# tuning (session 22): per-row and per-column scales of each K block
TUNING22 = {"mm_blockscale_rc": HELDOUT6["mm_blockscale"]}
# tuning (session 25, cflow): a GEMM summing B's columns in the K loop
TUNING25 = {"mm_rowsum": ({"A": "", "B": "", "C": "out", "RS": "fp32"},
                          ("M", "N", "K", "stride_am", "stride_bk", "stride_cm"), {})}
SIGNATURES = {**HELDOUT6, **HELDOUT7, **HELDOUT8, **HELDOUT9, **HELDOUT10, **HELDOUT11, **HELDOUT12,
              **TUNING22,
              **TUNING25}
ATTENTION_SIGNATURES = ("attn_decode", "attn_paged", "attn_hd256", "attn_bwd_dkdv", "attn_varlen",
                        "attn_dv", "attn_kv8", "attn_dropout", "attn_bsparse", "attn_fp8",
                        "attn_decay", "attn_bwd_dq", "attn_docmask", "attn_hd96",
                        "attn_linear", "attn_mla", "attn_relbias", "attn_diff")


class UserCase(G.Case):
    def __init__(self, fn, arch, dtype, tile, warps, stages, mask=0, window=256, async_copy=False,
                 nonkdim=16, heldout=False):
        super().__init__("attn", arch, dtype, None, tile, warps, stages, nonkdim=nonkdim,
                         async_copy=async_copy, fn=fn)
        self.mask, self.window, self.heldout = mask, window, heldout

    def base(self):
        bm, bn, d = self.tile
        parts = [KINDS[self.fn], SHORT.get(self.dtype, self.dtype), f"{bm}x{bn}x{d}",
                 f"w{self.warps}", f"ns{self.stages}"]
        if self.fn == "attn_bp":
            parts.append(MASKS[self.mask])
        elif self.fn == "mha_fwd":
            parts.append("causal" if self.mask else "nomask")
        elif self.fn == "attn_tut":
            parts.append("causal" if self.mask else "full")
        elif self.fn == "attn_mixed":
            parts.append("pad" if self.mask else "nopad")
        return self.join_name(parts)

    def spec(self):
        bm, bn, d = self.tile
        dt = self.dtype
        opts = {"num_warps": self.warps, "num_stages": self.stages,
                "matrix_instr_nonkdim": self.nonkdim}
        if self.fn in SIGNATURES:
            ptr_types, strides, extra = SIGNATURES[self.fn]
            out = "fp16" if dt.startswith("fp8") or dt == "int8" else dt
            elem = {"": "i8" if dt == "int8" else dt, "out": out}
            sig = {k: "*" + elem.get(t, t) for k, t in ptr_types.items()}
            ptrs = list(sig)
            if self.fn in ATTENTION_SIGNATURES:
                sig["sm_scale"] = "fp32"
            sig.update({k: "i32" for k in strides})
            cst = ({"BM": bm, "BN": bn, "D": d} if self.fn in ATTENTION_SIGNATURES
                   else {"BM": bm, "BN": bn, "BK": d})
            cst.update(extra)
            sig.update({k: "constexpr" for k in cst})
            attrs = {k: PTR for k in ptrs}
            attrs.update({k: D16 for k in strides})
            return sig, cst, attrs, opts
        strides = STRIDES[self.fn]
        if self.fn in ("mm_silu", "mm_rowscale", "mm_kmask", "mm_kmask_tn"):
            out = "fp16" if dt.startswith("fp8") else dt
            sig = {"A": "*" + dt, "B": "*" + dt}
            if self.fn == "mm_rowscale":
                sig.update({"SA": "*fp32", "SB": "*fp32"})
            sig["C"] = "*" + out
            ptrs = list(sig)
            sig.update({k: "i32" for k in strides})
            cst = {"BM": bm, "BN": bn, "BK": d}
            if self.fn == "mm_silu":
                sig["scale"] = "fp32"
            if self.fn != "mm_rowscale":
                cst["GROUP_M"] = 8
            sig.update({k: "constexpr" for k in cst})
        elif self.fn.startswith("mha_"):
            sig = {"Q": "*" + dt, "K": "*" + dt, "V": "*" + dt, "O": "*" + dt}
            if self.fn == "mha_alibi":
                sig["SLOPES"] = "*fp32"
            ptrs = list(sig)
            sig["sm_scale"] = "fp32"
            sig.update({k: "i32" for k in strides})
            cst = {"BM": bm, "BN": bn, "D": d}
            if self.fn == "mha_fwd":
                cst["CAUSAL"] = bool(self.mask)
            elif self.fn == "mha_softcap":
                cst["CAP"] = 30.0
            sig.update({k: "constexpr" for k in cst})
        elif self.fn.startswith("matmul"):
            out = "fp16" if dt.startswith("fp8") else dt
            sig = {"A": "*" + dt, "B": "*" + dt}
            if self.fn == "matmul_bias":
                sig["BIAS"] = "*" + out
            sig["C"] = "*" + out
            ptrs = [k for k in sig]
            sig.update({k: "i32" for k in strides})
            sig.update({"BM": "constexpr", "BN": "constexpr", "BK": "constexpr"})
            cst = {"BM": bm, "BN": bn, "BK": d}
            if self.fn == "matmul_bias":
                sig["GROUP_M"] = "constexpr"
                cst["GROUP_M"] = 8
        else:
            qk = dt
            pv = "fp16" if self.fn == "attn_mixed" else dt
            sig = {"Q": "*" + qk, "K": "*" + qk, "V": "*" + pv, "O": "*" + pv}
            if self.fn == "attn_mixed":
                sig["LENS"] = "*i32"
            ptrs = [k for k in sig]
            sig["sm_scale"] = "fp32"
            sig.update({k: "i32" for k in strides})
            sig.update({"BM": "constexpr", "BN": "constexpr", "D": "constexpr"})
            cst = {"BM": bm, "BN": bn, "D": d}
            if self.fn == "attn_bp":
                sig.update({"MASK": "constexpr", "WINDOW": "constexpr"})
                cst.update({"MASK": self.mask, "WINDOW": self.window})
            elif self.fn == "attn_tut":
                sig["CAUSAL"] = "constexpr"
                cst["CAUSAL"] = bool(self.mask)
            elif self.fn == "attn_mixed":
                sig["PAD"] = "constexpr"
                cst["PAD"] = bool(self.mask)
        attrs = {k: PTR for k in ptrs}
        attrs.update({k: D16 for k in strides})
        return sig, cst, attrs, opts


def cases():
    L = []

    def bp(arch, dt, tile, w, ns, mask=0, **kw):
        L.append(UserCase("attn_bp", arch, dt, tile, w, ns, mask=mask, **kw))

    # the issue's twelve: block pointers, bf16, head dims 64/128, in-loop causal and
    # sliding-window masks, GQA, num_stages 1-3, 4 and 8 warps, both targets
    bp("gfx942", "fp16", (128, 64, 128), 4, 2)
    bp("gfx942", "bf16", (128, 64, 128), 4, 2, mask=1)
    bp("gfx942", "fp16", (128, 64, 64), 4, 2, mask=2)
    bp("gfx942", "bf16", (128, 64, 64), 8, 2, mask=1)
    bp("gfx942", "fp16", (128, 64, 128), 8, 2)
    bp("gfx942", "fp16", (128, 64, 64), 4, 3)
    bp("gfx950", "fp16", (128, 64, 128), 4, 1)
    bp("gfx950", "bf16", (128, 64, 128), 8, 2, mask=1, async_copy=True)
    bp("gfx950", "fp16", (128, 64, 128), 8, 3, mask=2, async_copy=True)
    bp("gfx950", "bf16", (128, 128, 64), 4, 2, mask=1)
    L.append(UserCase("attn_gqa", "gfx942", "fp16", (128, 64, 128), 4, 2))
    L.append(UserCase("attn_gqa", "gfx950", "bf16", (128, 64, 64), 8, 2))
    # session 19: fp8 GEMMs with block-wise scales inside the loop (heldout6's kernel, other
    # configurations), to develop the plugin's side loads of a dot's result against
    L.append(UserCase("mm_blockscale", "gfx942", "fp8e4b8", (256, 128, 128), 8, 2))
    L.append(UserCase("mm_blockscale", "gfx950", "fp8e4nv", (128, 128, 128), 8, 2))
    # session 21: head dimension 256 at 8 warps, LDS-port-bound (heldout7's attn_hd256 had
    # lost to LLVM's order); a twin on each target
    bp("gfx950", "bf16", (128, 32, 256), 8, 2)
    bp("gfx942", "fp16", (128, 32, 256), 8, 2)
    # session 21: 4-warp gfx950 GEMMs whose operands go through LDS DMA (one workgroup per CU
    # at three stages; a per-K-block scale at two), to develop the one-wave DMA order against
    L.append(UserCase("matmul_bias", "gfx950", "bf16", (128, 128, 64), 4, 3, async_copy=True))
    L.append(UserCase("mm_kmask_tn", "gfx950", "fp8e4nv", (128, 128, 128), 4, 3, async_copy=True))
    L.append(UserCase("mm_blockscale", "gfx950", "fp8e4nv", (128, 64, 128), 4, 2, async_copy=True))
    # session 22 (mmblock): 4-warp LDS-DMA fp8 GEMMs with per-row and per-column scales of each
    # K block, at three stages and at two (mm_blockscale itself fails in Triton 3.6.0's
    # ConvertToBufferOps at three stages)
    L.append(UserCase("mm_blockscale_rc", "gfx950", "fp8e4nv", (128, 128, 128), 4, 3,
                      async_copy=True))
    L.append(UserCase("mm_blockscale_rc", "gfx950", "fp8e4nv", (128, 64, 128), 4, 2,
                      async_copy=True))
    # session 23: a K loop the user unrolls twice (heldout9's mm_unroll, other tiles): an unrolled
    # loop and a remainder loop, to check the model times the unrolled one
    L.append(UserCase("mm_unroll", "gfx942", "bf16", (128, 128, 32), 4, 2))
    L.append(UserCase("mm_unroll", "gfx950", "fp16", (256, 128, 32), 8, 2, async_copy=True))
    # session 22 (dma8w): 8-warp three-stage gfx950 LDS-DMA GEMMs (three buffers: the copies may
    # go a tile further ahead), twins of heldout's and heldout5's 8-wave loops in other kernels
    L.append(UserCase("mm_kmask_tn", "gfx950", "fp16", (256, 128, 64), 8, 3, async_copy=True))
    L.append(UserCase("mm_silu", "gfx950", "bf16", (256, 128, 32), 8, 3, async_copy=True))
    L.append(UserCase("mm_kmask", "gfx950", "fp8e4nv", (256, 256, 64), 8, 3, async_copy=True))
    # session 22: 8-warp gfx950 attention with K/V through LDS DMA (the LDS-DMA gate's family:
    # it helped the bf16/f16 loops and hurt the held-out fp8 ns3 one), fp8 and 16-bit, two and
    # three stages, head dims 64 and 128
    L.append(UserCase("attn_mixed", "gfx950", "fp8e4nv", (128, 64, 128), 8, 2, async_copy=True))
    L.append(UserCase("attn_mixed", "gfx950", "fp8e4nv", (128, 64, 64), 8, 3, mask=1,
                      async_copy=True))
    bp("gfx950", "bf16", (128, 64, 64), 8, 3, async_copy=True)
    bp("gfx950", "fp16", (128, 64, 128), 8, 2, async_copy=True)
    # session 22 (noregress): 8-warp register-staged attention across the port gate's line (the
    # softmax's VALU issue against the MFMA pipe, ~0.6-1.5): head dims 128/256, exp2 (attn_bp,
    # attn_gqa, attn_tut: heldout's kernel) and exp (mha_fwd, heldout2's kernel) softmax,
    # bf16/f16, both targets
    bp("gfx950", "fp16", (128, 32, 256), 8, 2)
    bp("gfx942", "bf16", (128, 32, 256), 8, 2)
    bp("gfx950", "bf16", (128, 64, 128), 8, 2)
    L.append(UserCase("mha_fwd", "gfx950", "bf16", (128, 32, 256), 8, 2))
    L.append(UserCase("mha_fwd", "gfx950", "fp16", (128, 64, 128), 8, 2))
    L.append(UserCase("mha_fwd", "gfx942", "fp16", (128, 32, 256), 8, 2))
    L.append(UserCase("mha_fwd", "gfx942", "bf16", (128, 64, 128), 8, 2))
    bp("gfx950", "bf16", (128, 64, 256), 8, 2)
    L.append(UserCase("mha_fwd", "gfx950", "bf16", (128, 64, 256), 8, 2))
    L.append(UserCase("mha_fwd", "gfx950", "fp16", (128, 32, 128), 8, 2))
    L.append(UserCase("attn_gqa", "gfx950", "bf16", (128, 32, 256), 8, 2))
    L.append(UserCase("attn_gqa", "gfx950", "fp16", (128, 32, 256), 8, 2))
    L.append(UserCase("attn_tut", "gfx950", "bf16", (128, 32, 256), 8, 2))
    L.append(UserCase("attn_tut", "gfx942", "fp16", (128, 32, 256), 8, 2))
    # and attention backward (heldout8's dK/dV kernel, other tiles) near the same budget
    L.append(UserCase("attn_bwd_dkdv", "gfx942", "bf16", (32, 128, 64), 4, 2))
    L.append(UserCase("attn_bwd_dkdv", "gfx942", "fp16", (32, 64, 64), 4, 2))
    L.append(UserCase("attn_bwd_dkdv", "gfx942", "fp16", (64, 64, 64), 4, 2))
    # and 4-warp gfx942 attention near the two-wave register budget (the occupancy hint)
    bp("gfx942", "fp16", (64, 32, 256), 4, 2)
    L.append(UserCase("mha_fwd", "gfx942", "bf16", (64, 32, 256), 4, 2))
    bp("gfx942", "bf16", (64, 32, 128), 4, 2)
    bp("gfx942", "fp16", (64, 64, 128), 4, 2)
    L.append(UserCase("mha_fwd", "gfx942", "fp16", (64, 64, 128), 4, 2))
    # session 23 (nolossall): 4-warp gfx942 head-dim-128 attention at one wave per SIMD with an
    # in-loop mask (the mask's compares and selects: a wave's own issue turns against its MFMA
    # pipe, single-wave's one-wave order), sliding window and causal
    bp("gfx942", "fp16", (128, 64, 128), 4, 2, mask=2)
    bp("gfx942", "fp16", (128, 64, 128), 4, 2, mask=1)
    # and gfx950 implicit-GEMM convolutions (heldout8's kernel, other tiles and types): A's rows
    # gathered 16 bits at a time, one offset per load, the load lookahead's register estimate
    L.append(UserCase("mm_conv", "gfx950", "fp16", (256, 128, 64), 8, 2))
    L.append(UserCase("mm_conv", "gfx950", "bf16", (128, 128, 64), 4, 2))
    L.append(UserCase("mm_conv", "gfx950", "fp16", (256, 128, 32), 8, 2))
    # session 23 (mixstage): gfx950 LDS-DMA GEMMs with one operand register-staged next to the
    # other's DMA (heldout7's mm_w4a16: packed e2m1 B and its scales; heldout9's mm_lora: the
    # LoRA A tile), other tiles, 4 and 8 warps
    L.append(UserCase("mm_w4a16", "gfx950", "bf16", (128, 128, 128), 4, 2, async_copy=True))
    L.append(UserCase("mm_w4a16", "gfx950", "bf16", (128, 256, 128), 8, 2, async_copy=True))
    L.append(UserCase("mm_lora", "gfx950", "fp16", (128, 64, 64), 4, 2, async_copy=True))
    L.append(UserCase("mm_lora", "gfx950", "fp16", (256, 128, 64), 8, 2, async_copy=True))
    # session 24 (lead): fp8 attention end to end (heldout10's attn_fp8, other tiles), where the
    # chained-dot order lost to LLVM's on the held-out gfx950 loop
    L.append(UserCase("attn_fp8", "gfx950", "fp8e4nv", (128, 64, 128), 8, 2, async_copy=True))
    L.append(UserCase("attn_fp8", "gfx950", "fp8e4nv", (128, 128, 64), 8, 2))
    L.append(UserCase("attn_fp8", "gfx942", "fp8e4b8", (128, 128, 64), 8, 2))
    L.append(UserCase("attn_fp8", "gfx950", "fp8e4nv", (128, 128, 64), 8, 2, async_copy=True))
    L.append(UserCase("attn_fp8", "gfx950", "fp8e4nv", (256, 128, 64), 8, 2, async_copy=True))
    # session 24 (lead): grouped GEMMs (heldout10's mm_grouped, other tiles and types): operand
    # offsets loaded from a table, 16-bit loads, LLVM's order past two waves' registers at 4 warps
    L.append(UserCase("mm_grouped", "gfx950", "fp16", (128, 128, 64), 4, 2))
    L.append(UserCase("mm_grouped", "gfx942", "bf16", (128, 128, 64), 4, 2))
    L.append(UserCase("mm_grouped", "gfx950", "bf16", (128, 64, 64), 4, 2, async_copy=True))
    # session 24 (lead): attention with dropout (heldout10's attn_dropout, other tiles): a Philox
    # draw per score, issue-bound by VALU
    L.append(UserCase("attn_dropout", "gfx942", "bf16", (128, 64, 64), 4, 2))
    L.append(UserCase("attn_dropout", "gfx950", "fp16", (128, 64, 64), 8, 2))
    L.append(UserCase("attn_dropout", "gfx942", "fp16", (128, 32, 128), 8, 2))
    # session 24 (directdot): 8-warp gfx950 attention backward (heldout8's dK/dV kernel, other
    # tiles): the log-sum-exp and delta rows loaded from global memory straight into the
    # registers the VALU between the dots reads, llc-22 spilling; BN 64: P^T and dS^T through LDS
    L.append(UserCase("attn_bwd_dkdv", "gfx950", "fp16", (64, 64, 128), 8, 2))
    L.append(UserCase("attn_bwd_dkdv", "gfx950", "bf16", (128, 64, 64), 8, 2))
    # and two whose K/V block is 128 rows (16 per wave, as heldout8's): P^T and dS^T stay in
    # registers there (no LDS exchange), the loads of the log-sum-exp and delta rows prefetched
    L.append(UserCase("attn_bwd_dkdv", "gfx950", "fp16", (64, 128, 64), 8, 2))
    L.append(UserCase("attn_bwd_dkdv", "gfx950", "bf16", (32, 128, 128), 8, 2))
    L.append(UserCase("attn_bwd_dkdv", "gfx950", "fp16", (128, 128, 64), 8, 2))
    # session 25 (lead): weight-only int8 GEMMs (heldout11's mm_w8a16, other tiles and types): B
    # converted to the activation type in the loop; auto's one-cluster lost to LLVM's order on the
    # held-out gfx942 4-warp loop
    L.append(UserCase("mm_w8a16", "gfx942", "bf16", (128, 128, 64), 4, 2))
    L.append(UserCase("mm_w8a16", "gfx942", "fp16", (128, 128, 32), 4, 2))
    L.append(UserCase("mm_w8a16", "gfx942", "fp16", (128, 64, 64), 4, 2))
    L.append(UserCase("mm_w8a16", "gfx942", "fp16", (256, 128, 64), 8, 2))
    L.append(UserCase("mm_w8a16", "gfx950", "fp16", (128, 128, 64), 4, 2))
    # session 25 (lead): packed-sequence attention (heldout11's attn_docmask, other tiles): the
    # document ids of each K block loaded into registers and compared with the query rows' ids
    L.append(UserCase("attn_docmask", "gfx942", "bf16", (128, 64, 64), 8, 2))
    L.append(UserCase("attn_docmask", "gfx942", "fp16", (128, 32, 128), 8, 2))
    L.append(UserCase("attn_docmask", "gfx950", "fp16", (128, 64, 128), 8, 2))
    L.append(UserCase("attn_docmask", "gfx942", "fp16", (128, 64, 128), 4, 2))
    # session 25 (cflow): GEMMs summing B's columns in the K loop (heldout10's mm_dbias shape,
    # other tiles, types and targets): the cross-warp sum's lane-predicated LDS stores make the
    # loop body several blocks
    L.append(UserCase("mm_rowsum", "gfx950", "bf16", (128, 128, 64), 4, 2))
    L.append(UserCase("mm_rowsum", "gfx942", "fp16", (256, 128, 64), 8, 2))
    L.append(UserCase("mm_rowsum", "gfx950", "fp16", (128, 256, 64), 8, 2, async_copy=True))
    # session 25 (ldsinloop): gfx942 GEMMs whose LDS round trip stays inside one iteration
    # (heldout8's mm_conv and heldout10's mm_grouped, other tiles and types): Triton does not
    # pipeline the 16-bit loads, so the loop loads, writes LDS, waits at a barrier and reads the
    # same buffer back before its dot
    L.append(UserCase("mm_conv", "gfx942", "bf16", (128, 128, 64), 4, 2))
    L.append(UserCase("mm_conv", "gfx942", "fp16", (128, 64, 64), 4, 2))
    L.append(UserCase("mm_grouped", "gfx942", "bf16", (256, 128, 64), 8, 2))
    # session 25 (regbudget): 4-warp gfx950 GEMMs whose LLVM order is estimated near or past two
    # waves' registers (heldout10's grouped GEMM with and without Triton's LDS-DMA option at other
    # types and tiles, the convolution and the bias GEMM with it): the register-lean order
    L.append(UserCase("mm_grouped", "gfx950", "fp16", (128, 128, 64), 4, 2, async_copy=True))
    L.append(UserCase("mm_grouped", "gfx950", "fp16", (128, 256, 64), 4, 2, async_copy=True))
    L.append(UserCase("mm_conv", "gfx950", "bf16", (128, 128, 64), 4, 2, async_copy=True))
    L.append(UserCase("matmul_bias", "gfx950", "fp16", (128, 128, 64), 4, 2, async_copy=True))
    L.append(UserCase("mm_grouped", "gfx950", "bf16", (128, 128, 64), 4, 2))
    L.append(UserCase("mm_grouped", "gfx950", "fp16", (64, 256, 64), 4, 2))
    L.append(UserCase("mm_grouped", "gfx950", "fp16", (64, 256, 64), 4, 2, async_copy=True))
    L.append(UserCase("mm_grouped", "gfx950", "bf16", (256, 64, 64), 4, 2))
    L.append(UserCase("mm_grouped", "gfx950", "bf16", (256, 64, 64), 4, 2, async_copy=True))
    # session 26 (cflow2): 4-warp GEMMs summing B's columns in the K loop at smaller tiles: on
    # gfx942 the lanes' slots keep the workgroups per CU, so the flattened loop reaches the modes
    # (its cross-warp sums through LDS); on gfx950 they are left as they are
    L.append(UserCase("mm_rowsum", "gfx942", "fp16", (64, 128, 64), 4, 2))
    L.append(UserCase("mm_rowsum", "gfx950", "fp16", (128, 64, 64), 4, 2))
    # session 26 (onewaveattn): gfx942 4-warp bf16 attention past two waves' registers in
    # LLVM's order and issue-bound (the tuning causal loop's twins: no mask, sliding window, GQA;
    # bf16's rounding VALU on gfx942): the two-wave order with P V in eight parts
    bp("gfx942", "bf16", (128, 64, 128), 4, 2)
    bp("gfx942", "bf16", (128, 64, 128), 4, 2, mask=2)
    L.append(UserCase("attn_gqa", "gfx942", "bf16", (128, 64, 128), 4, 2))
    return [(c, pp) for c in L for pp in (0, 1)]


def held_out(build):
    """A held-out set from build(add): add(fn, arch, dtype, tile, warps, stages, mask=0, **kw)
    appends one case; each case comes with Triton's pingpong off and on."""
    L = []

    def add(fn, arch, dt, tile, w, ns, mask=0, **kw):
        L.append(UserCase(fn, arch, dt, tile, w, ns, mask=mask, heldout=True, **kw))
    build(add)
    return [(c, pp) for c in L for pp in (0, 1)]


def heldout_cases():
    def build(add):
        # attention: the tutorial's two-loop causal form, other tiles, ns 3
        add("attn_tut", "gfx942", "fp16", (64, 64, 128), 4, 2, mask=1)
        add("attn_tut", "gfx942", "bf16", (128, 32, 64), 4, 3, mask=1)
        add("attn_tut", "gfx942", "fp16", (256, 64, 64), 8, 2)
        add("attn_tut", "gfx950", "bf16", (128, 128, 128), 8, 2, mask=1)
        add("attn_tut", "gfx950", "fp16", (64, 128, 64), 4, 3, async_copy=True)
        # mixed precision: fp8 Q K^T, fp16 P V; a key-padding mask in the loop
        add("attn_mixed", "gfx950", "fp8e4nv", (128, 64, 128), 8, 2, mask=1)
        add("attn_mixed", "gfx942", "fp8e4b8", (128, 64, 64), 4, 2)
        add("attn_mixed", "gfx950", "fp8e4nv", (128, 64, 128), 8, 3, async_copy=True)
        # GEMMs as users write them: K-tail masks and a fused epilogue; block pointers
        add("matmul_bias", "gfx942", "fp16", (128, 64, 64), 4, 2)
        add("matmul_bias", "gfx950", "bf16", (256, 128, 32), 8, 3, async_copy=True)
        add("matmul_bp", "gfx942", "fp16", (128, 256, 32), 8, 2)
        add("matmul_bp", "gfx950", "bf16", (64, 128, 64), 4, 3)
    return held_out(build)


def heldout2_cases():
    def build(add):
        # attention in a [batch*heads, seq, d] layout, natural-log softmax, scale after the dot
        add("mha_fwd", "gfx942", "fp16", (128, 64, 64), 4, 2)
        add("mha_fwd", "gfx942", "fp16", (64, 64, 64), 4, 2, mask=1)
        add("mha_fwd", "gfx950", "bf16", (128, 64, 128), 8, 2, mask=1)
        add("mha_fwd", "gfx950", "fp16", (128, 64, 64), 4, 3, async_copy=True)
        # score modifiers in the loop: ALiBi bias, soft-capping
        add("mha_alibi", "gfx942", "fp16", (128, 64, 128), 8, 2)
        add("mha_alibi", "gfx950", "bf16", (128, 32, 64), 4, 2)
        add("mha_softcap", "gfx942", "bf16", (128, 64, 64), 8, 2)
        # GEMMs with epilogues: SiLU and scale; fp8 with per-row/per-column scales
        add("mm_silu", "gfx942", "fp16", (256, 128, 64), 8, 2)
        add("mm_silu", "gfx950", "bf16", (128, 128, 64), 4, 2)
        add("mm_rowscale", "gfx950", "fp8e4nv", (128, 128, 128), 4, 2)
    return held_out(build)


def heldout3_cases():
    def build(add):
        # the tutorial GEMM with K-tail masks (B stored K x N), and with B stored N x K
        add("mm_kmask", "gfx942", "fp16", (256, 256, 64), 8, 2)
        add("mm_kmask", "gfx942", "fp16", (256, 128, 64), 8, 2)
        add("mm_kmask", "gfx942", "bf16", (128, 128, 64), 4, 2)
        add("mm_kmask", "gfx942", "fp16", (128, 128, 32), 4, 3)
        add("mm_kmask", "gfx942", "fp8e4b8", (128, 128, 128), 4, 2)
        add("mm_kmask_tn", "gfx942", "fp16", (256, 256, 64), 8, 2)
        add("mm_kmask", "gfx950", "bf16", (256, 256, 64), 8, 2)
        add("mm_kmask", "gfx950", "fp16", (128, 128, 64), 4, 2)
        add("mm_kmask_tn", "gfx950", "bf16", (256, 128, 64), 8, 2, async_copy=True)
        add("mm_kmask", "gfx950", "fp8e4nv", (256, 256, 128), 8, 2, async_copy=True)
    return held_out(build)


def heldout4_cases():
    def build(add):
        # 4 warps, three stages (the LDS written two iterations ahead), gfx942 register-staged:
        # the kernels of the other sets in configurations none of them has
        add("mha_fwd", "gfx942", "fp16", (128, 64, 64), 4, 3)
        add("mha_fwd", "gfx942", "bf16", (64, 64, 64), 4, 3, mask=1)
        add("mha_alibi", "gfx942", "fp16", (128, 32, 64), 4, 3)
        add("mha_softcap", "gfx942", "bf16", (128, 64, 64), 4, 3)
        add("attn_mixed", "gfx942", "fp8e4b8", (128, 64, 64), 4, 3)
        add("attn_bp", "gfx942", "bf16", (128, 64, 64), 4, 3, mask=1)
        add("attn_gqa", "gfx942", "fp16", (128, 64, 64), 4, 3)
        # two-stage twins (the gate is not judged there) and a gfx950 three-stage loop
        add("mha_alibi", "gfx942", "fp16", (128, 32, 64), 4, 2)
        add("mha_softcap", "gfx942", "bf16", (128, 64, 64), 4, 2)
        add("mha_fwd", "gfx950", "bf16", (128, 64, 64), 4, 3)
    return held_out(build)


def heldout5_cases():
    def build(add):
        # three stages on gfx950 with LDS DMA: 4 warps (three 32 KB buffers: one workgroup per CU)
        # and 8 warps
        add("mm_silu", "gfx950", "bf16", (128, 128, 64), 4, 3, async_copy=True)
        add("matmul_bias", "gfx950", "fp16", (128, 128, 64), 4, 3, async_copy=True)
        add("mm_rowscale", "gfx950", "fp8e4nv", (128, 128, 128), 4, 3, async_copy=True)
        add("matmul_bp", "gfx950", "bf16", (256, 128, 64), 8, 3, async_copy=True)
        add("mm_kmask_tn", "gfx950", "bf16", (256, 256, 32), 8, 3, async_copy=True)
        # three stages, register-staged: gfx950 and gfx942 (64 KB of LDS per CU)
        add("mm_kmask", "gfx950", "fp16", (128, 128, 64), 4, 3)
        add("mm_silu", "gfx950", "bf16", (256, 128, 64), 8, 3)
        add("matmul_bias", "gfx942", "fp16", (64, 64, 64), 4, 3)
        add("mm_kmask", "gfx942", "bf16", (128, 64, 64), 4, 3)
        add("matmul_bp", "gfx942", "fp16", (128, 128, 32), 8, 3)
    return held_out(build)


def heldout6_cases():
    def build(add):
        # shapes no other set has (session 19): batched, split-K with atomics, int8 W8A8, fp8 with
        # block-wise scales inside the loop, two GEMMs sharing an operand, split-KV decoding
        add("mm_batched", "gfx942", "fp16", (256, 256, 64), 8, 2)
        add("mm_batched", "gfx950", "bf16", (256, 128, 64), 8, 2, async_copy=True)
        add("mm_splitk", "gfx942", "bf16", (128, 128, 64), 4, 2)
        add("mm_splitk", "gfx950", "fp16", (128, 128, 64), 4, 2)
        add("mm_int8", "gfx942", "int8", (128, 128, 128), 4, 2)
        add("mm_int8", "gfx950", "int8", (256, 256, 128), 8, 2)
        add("mm_blockscale", "gfx942", "fp8e4b8", (128, 128, 128), 8, 2)
        add("mm_blockscale", "gfx950", "fp8e4nv", (128, 128, 128), 4, 2, async_copy=True)
        add("mm_swiglu", "gfx942", "fp16", (128, 128, 64), 8, 2)
        add("mm_swiglu", "gfx950", "bf16", (128, 64, 64), 4, 2)
        add("attn_decode", "gfx942", "fp16", (16, 64, 128), 4, 2)
        add("attn_decode", "gfx950", "bf16", (16, 128, 128), 4, 2, async_copy=True)
    return held_out(build)


def heldout7_cases():
    def build(add):
        # shapes no other set has (session 21): a gathered-row MoE GEMM, paged decoding attention
        # (K/V bases loaded from a block table each iteration), a GELU-epilogue GEMM with
        # contiguity hints, bf16 x MXFP4 weight-only quantization, head dimension 256
        add("mm_moe", "gfx942", "fp16", (128, 128, 64), 4, 2)
        add("mm_moe", "gfx950", "bf16", (256, 128, 64), 8, 2, async_copy=True)
        add("attn_paged", "gfx942", "fp16", (16, 64, 128), 4, 2)
        add("attn_paged", "gfx950", "bf16", (16, 64, 128), 4, 2)
        add("mm_gelu", "gfx950", "fp16", (128, 256, 64), 8, 2)
        add("mm_gelu", "gfx942", "bf16", (64, 128, 64), 4, 2)
        add("mm_w4a16", "gfx950", "bf16", (128, 128, 128), 4, 2)
        add("mm_w4a16", "gfx950", "bf16", (256, 128, 128), 8, 2, async_copy=True)
        add("attn_hd256", "gfx950", "bf16", (128, 32, 256), 8, 2)
        add("attn_hd256", "gfx942", "fp16", (64, 32, 256), 4, 2)
    return held_out(build)


def heldout8_cases():
    def build(add):
        # shapes no other set has (session 22): a persistent GEMM (the K loop inside the tile
        # loop), a transposed left operand, the attention backward's dK/dV loop (four dots),
        # variable-length attention (masked K/V), a 3x3 convolution as an implicit GEMM
        add("mm_persistent", "gfx942", "fp16", (256, 256, 64), 8, 2)
        add("mm_persistent", "gfx950", "bf16", (128, 128, 64), 4, 2, async_copy=True)
        add("mm_at", "gfx942", "bf16", (128, 128, 64), 4, 2)
        add("mm_at", "gfx950", "fp16", (256, 256, 64), 8, 2)
        add("attn_bwd_dkdv", "gfx942", "fp16", (32, 128, 64), 4, 2)
        add("attn_bwd_dkdv", "gfx950", "bf16", (64, 128, 128), 8, 2)
        add("attn_varlen", "gfx942", "fp16", (128, 64, 128), 4, 2)
        add("attn_varlen", "gfx950", "bf16", (128, 64, 64), 8, 2)
        add("mm_conv", "gfx942", "fp16", (128, 128, 64), 4, 2)
        add("mm_conv", "gfx950", "bf16", (256, 128, 64), 8, 2)
    return held_out(build)


def heldout9_cases():
    def build(add):
        # shapes no other set has (session 23): fp32 operands with IEEE products, a K loop the
        # user unrolls twice, a LoRA GEMM (a rank-16 dot sharing X's tile), attention with V's
        # head dimension apart from Q/K's, attention over an int8 K/V cache with per-token scales
        add("mm_fp32", "gfx942", "fp32", (128, 128, 32), 4, 2)
        add("mm_fp32", "gfx950", "fp32", (256, 128, 32), 8, 2, async_copy=True)
        add("mm_unroll", "gfx942", "fp16", (256, 128, 32), 8, 2)
        add("mm_unroll", "gfx950", "bf16", (128, 128, 64), 4, 2, async_copy=True)
        add("mm_lora", "gfx942", "fp16", (256, 128, 64), 8, 2)
        add("mm_lora", "gfx950", "bf16", (128, 128, 64), 4, 2, async_copy=True)
        add("attn_dv", "gfx942", "fp16", (128, 64, 128), 4, 2)
        add("attn_dv", "gfx950", "bf16", (128, 64, 128), 8, 2)
        add("attn_kv8", "gfx942", "fp16", (128, 64, 128), 8, 2)
        add("attn_kv8", "gfx950", "bf16", (128, 64, 64), 4, 2)
    return held_out(build)


def heldout10_cases():
    def build(add):
        # shapes no other set has (session 24): attention with dropout (a Philox draw per score),
        # block-sparse attention (K/V blocks named by a lookup table), fp8 attention end to end,
        # softmax-free attention with a distance decay, a grouped GEMM whose K extent comes from
        # memory, a weight-gradient GEMM summing its right operand's columns in the loop
        add("attn_dropout", "gfx942", "fp16", (128, 64, 128), 4, 2)
        add("attn_dropout", "gfx950", "bf16", (128, 64, 128), 8, 2)
        add("attn_bsparse", "gfx942", "bf16", (128, 64, 64), 8, 2)
        add("attn_bsparse", "gfx950", "fp16", (128, 64, 128), 8, 2, async_copy=True)
        add("attn_fp8", "gfx942", "fp8e4b8", (128, 64, 128), 8, 2)
        add("attn_fp8", "gfx950", "fp8e4nv", (128, 128, 128), 8, 2, async_copy=True)
        add("attn_decay", "gfx942", "fp16", (128, 64, 64), 4, 2)
        add("attn_decay", "gfx950", "bf16", (128, 64, 128), 8, 2)
        add("mm_grouped", "gfx942", "fp16", (256, 128, 64), 8, 2)
        add("mm_grouped", "gfx950", "bf16", (128, 128, 64), 4, 2, async_copy=True)
        add("mm_dbias", "gfx942", "bf16", (128, 128, 64), 4, 2)
        add("mm_dbias", "gfx950", "fp16", (256, 128, 64), 8, 2, async_copy=True)
    return held_out(build)


def heldout11_cases():
    def build(add):
        # shapes no other set has (session 25): the attention backward's dQ loop (three dots),
        # packed-sequence attention masked by document ids loaded per K block, head dimension 96
        # padded to 128 (masked loads), chunked linear attention (a store and a carried state in
        # the loop), a weight-only int8 GEMM, a GEMM fused behind RMSNorm (norm weight per K block)
        add("attn_bwd_dq", "gfx942", "bf16", (64, 64, 64), 4, 2)
        add("attn_bwd_dq", "gfx950", "fp16", (128, 64, 128), 8, 2)
        add("attn_docmask", "gfx942", "fp16", (128, 64, 128), 8, 2)
        add("attn_docmask", "gfx950", "bf16", (128, 64, 64), 4, 2, async_copy=True)
        add("attn_hd96", "gfx942", "bf16", (128, 64, 128), 4, 2)
        add("attn_hd96", "gfx950", "fp16", (128, 64, 128), 8, 2)
        add("attn_linear", "gfx942", "fp16", (64, 64, 64), 4, 2)
        add("attn_linear", "gfx950", "bf16", (64, 64, 128), 4, 2)
        add("mm_w8a16", "gfx942", "fp16", (128, 128, 64), 4, 2)
        add("mm_w8a16", "gfx950", "bf16", (256, 128, 64), 8, 2)
        add("mm_rmsnorm", "gfx942", "bf16", (256, 128, 64), 8, 2)
        add("mm_rmsnorm", "gfx950", "fp16", (128, 128, 64), 4, 2, async_copy=True)
    return held_out(build)


def heldout12_cases():
    def build(add):
        # shapes no other set has (session 26): latent attention whose one K/V tile is both K and
        # V (plus a rotary Q K^T), a bias tile loaded with every K block, differential attention
        # (two softmaxes over one V), a TF32 GEMM (bf16x3 on gfx950), a triangular GEMM (the K loop to the diagonal,
        # the diagonal block masked in the loop), a fused linear + cross-entropy (a K loop nested
        # in the vocabulary loop)
        add("attn_mla", "gfx942", "fp16", (64, 64, 128), 4, 2)
        add("attn_mla", "gfx950", "bf16", (128, 64, 128), 8, 2, async_copy=True)
        add("attn_relbias", "gfx942", "bf16", (128, 64, 128), 8, 2)
        add("attn_relbias", "gfx950", "fp16", (128, 64, 64), 4, 2, async_copy=True)
        add("attn_diff", "gfx942", "fp16", (128, 64, 64), 8, 2)
        add("attn_diff", "gfx950", "bf16", (128, 64, 64), 4, 2)
        add("mm_tf32", "gfx942", "fp32", (128, 128, 32), 4, 2)
        add("mm_tf32", "gfx942", "fp32", (256, 128, 32), 8, 2)
        add("mm_bf16x3", "gfx950", "fp32", (128, 128, 32), 4, 2)
        add("mm_trmm", "gfx942", "fp16", (128, 128, 64), 4, 2)
        add("mm_trmm", "gfx950", "bf16", (256, 128, 64), 8, 2, async_copy=True)
        add("mm_xent", "gfx942", "bf16", (128, 128, 64), 8, 2)
        add("mm_xent", "gfx950", "fp16", (128, 128, 64), 4, 2, async_copy=True)
    return held_out(build)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--filter", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--set", choices=tuple(MODULES), default="tuning")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    a = ap.parse_args()
    every = {"tuning": cases, "heldout": heldout_cases, "heldout2": heldout2_cases,
             "heldout3": heldout3_cases, "heldout4": heldout4_cases,
             "heldout5": heldout5_cases, "heldout6": heldout6_cases,
             "heldout7": heldout7_cases, "heldout8": heldout8_cases,
             "heldout9": heldout9_cases, "heldout10": heldout10_cases,
             "heldout11": heldout11_cases, "heldout12": heldout12_cases}[a.set]()
    todo = [(c, pp) for c, pp in every if not a.filter or any(f in c.name(pp) for f in a.filter)]
    if a.one:
        c, pp = next((c, pp) for c, pp in every if c.name(pp) == a.one)
        if a.set != "tuning":  # compile_one imports `kernels`: the held-out module
            import importlib
            sys.modules["kernels"] = importlib.import_module(MODULES[a.set])
        name, status, err = G.compile_one((c, pp, a.outdir))
        if c.fn in ("attn_bp", "attn_tut", "mha_fwd") and c.mask:
            # the causal band starts at the diagonal: from block 0 a pipelined loop may not run
            # at all; the bench times block 15 (pingpong-sim --sgpr on the workgroup id x)
            mj = os.path.join(a.outdir, name, "meta.json")
            m = json.load(open(mj))
            m["workgroup_id_x"] = 15
            json.dump(m, open(mj, "w"), indent=1, sort_keys=True)
        print(f"{name}: {status}" + (f"  {err.splitlines()[-1][:200]}" if err else ""), flush=True)
        return
    if a.list:
        for c, pp in todo:
            print(c.name(pp))
        return
    os.makedirs(a.outdir, exist_ok=True)
    t0 = time.time()

    def one(cp):
        return subprocess.run([sys.executable, __file__, a.outdir, "--set", a.set, "--one",
                               cp[0].name(cp[1])],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for out in ex.map(one, todo):
            print(f"[{time.time() - t0:6.1f}s] {out.strip()}", flush=True)
    for c, pp in todo:  # Triton's pingpong mode of each _pp1 case, against its _pp0 twin
        if pp != 1:
            continue
        d0, d1 = (os.path.join(a.outdir, c.name(p)) for p in (0, 1))
        try:
            m1 = json.load(open(os.path.join(d1, "meta.json")))
            m0 = json.load(open(os.path.join(d0, "meta.json")))
        except Exception:
            continue
        rd = lambda d: open(os.path.join(d, "kernel.ttgir")).read() if os.path.exists(
            os.path.join(d, "kernel.ttgir")) else ""
        m1["triton_pingpong_mode"] = G.infer_mode(m0, m1, rd(d0), rd(d1))
        m0["triton_pingpong_mode"] = "off (pp0)"
        for d, m in ((d0, m0), (d1, m1)):
            json.dump(m, open(os.path.join(d, "meta.json"), "w"), indent=1, sort_keys=True)
    print(f"{len(todo)} cases, {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
