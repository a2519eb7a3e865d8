#!/usr/bin/env python3
"""Compile the kernels of kernels.py with Triton's AMD backend into corpus/triton/<case>/.

usage: generate.py OUTDIR [--filter SUBSTR ...] [--jobs N] [--list] [--timeout SECONDS]

Every case is compiled for its arch (gfx942 or gfx950) twice: with Triton's BlockPingpong off
(_pp0) and on (_pp1).  No AMD GPU is needed: triton.compile() is given an explicit
GPUTarget("hip", arch, 64).  Per case OUTDIR/<case>/ gets kernel.ttgir, kernel.llir (the LLVM IR
Triton hands to LLVM), kernel.amdgcn (Triton's own assembly) and meta.json.  Cases that fail are
listed in OUTDIR/FAILED.txt; OUTDIR/index.json summarises all.
"""
import argparse, glob, json, multiprocessing as mp, os, re, shutil, sys, tempfile, time, traceback

HERE = os.path.dirname(os.path.abspath(__file__))

D16 = [["tt.divisibility", 16]]
PTR = [["tt.divisibility", 16], ["tt.pointer_range", 32]]

OUT_TY = {"fp16": "fp16", "bf16": "bf16", "fp8e4b8": "fp16", "fp8e4nv": "fp16"}
SHORT = {"fp16": "f16", "bf16": "bf16", "fp8e4b8": "fp8", "fp8e4nv": "fp8"}


def fp8_for(arch):
    # e4m3: gfx942 has the fnuz flavour (fp8e4b8), gfx950 the OCP one (fp8e4nv)
    return "fp8e4b8" if arch == "gfx942" else "fp8e4nv"


class Case:
    def __init__(self, kind, arch, dtype, layout, tile, warps, stages, kpack=1, nonkdim=16,
                 async_copy=False, fn="gemm"):
        self.kind, self.arch, self.dtype, self.layout = kind, arch, dtype, layout
        self.tile, self.warps, self.stages = tile, warps, stages
        self.kpack, self.nonkdim, self.async_copy, self.fn = kpack, nonkdim, async_copy, fn

    def base(self):
        bm, bn, bk = self.tile
        parts = [self.kind, SHORT.get(self.dtype, self.dtype)]
        if self.layout:
            parts.append(self.layout.lower())
        parts += [f"{bm}x{bn}x{bk}", f"w{self.warps}", f"ns{self.stages}"]
        if self.kpack != 1:
            parts.append(f"kp{self.kpack}")
        return self.join_name(parts)

    def join_name(self, parts):
        """The case name from its kind-specific parts: the MFMA size when not 16, the arch, async."""
        if self.nonkdim != 16:
            parts.append(f"mi{self.nonkdim}")
        parts.append(self.arch)
        if self.async_copy:
            parts.append("async")
        return "_".join(parts)

    def name(self, pp):
        return f"{self.base()}_pp{pp}"

    # signature, constexprs, attributes (by name), options
    def spec(self):
        bm, bn, bk = self.tile
        opts = {"num_warps": self.warps, "num_stages": self.stages,
                "matrix_instr_nonkdim": self.nonkdim, "kpack": self.kpack}
        if self.fn in ("gemm", "gemm_persistent"):
            dt = self.dtype
            sig = {"A": "*" + dt, "B": "*" + dt, "C": "*" + OUT_TY[dt],
                   "M": "i32", "N": "i32", "K": "i32", "lda": "i32", "ldb": "i32", "ldc": "i32"}
            if self.fn == "gemm_persistent":
                sig["NPROG"] = "i32"
            sig.update({"BM": "constexpr", "BN": "constexpr", "BK": "constexpr", "GROUP": "constexpr",
                        "B_NK": "constexpr"})
            cst = {"BM": bm, "BN": bn, "BK": bk, "GROUP": 8, "B_NK": self.layout == "TN"}
            attrs = {"A": PTR, "B": PTR, "C": PTR}
            attrs.update({k: D16 for k in ("M", "N", "K", "lda", "ldb", "ldc")})
        elif self.fn == "gemm_rowscale":
            dt = self.dtype
            sig = {"A": "*" + dt, "B": "*" + dt, "S": "*fp32", "BIAS": "*" + OUT_TY[dt], "C": "*" + OUT_TY[dt],
                   "M": "i32", "N": "i32", "K": "i32", "lda": "i32", "ldb": "i32", "ldc": "i32",
                   "BM": "constexpr", "BN": "constexpr", "BK": "constexpr", "GROUP": "constexpr"}
            cst = {"BM": bm, "BN": bn, "BK": bk, "GROUP": 8}
            attrs = {k: PTR for k in ("A", "B", "S", "BIAS", "C")}
            attrs.update({k: D16 for k in ("M", "N", "K", "lda", "ldb", "ldc")})
        elif self.fn == "gemm_mxfp4":
            sig = {"A": "*u8", "B": "*u8", "SA": "*u8", "SB": "*u8", "C": "*bf16",
                   "M": "i32", "N": "i32", "K": "i32", "lda": "i32", "ldb": "i32", "ldsa": "i32",
                   "ldsb": "i32", "ldc": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
            cst = {"BM": bm, "BN": bn, "BK": bk}
            attrs = {k: PTR for k in ("A", "B", "SA", "SB", "C")}
            attrs.update({k: D16 for k in ("M", "N", "K", "lda", "ldb", "ldsa", "ldsb", "ldc")})
            opts.pop("kpack")
        elif self.fn in ("attn_fwd", "attn_fwd_causal"):
            dt = self.dtype
            sig = {"Q": "*" + dt, "K": "*" + dt, "V": "*" + dt, "O": "*" + dt, "scale": "fp32",
                   "ldq": "i32", "ldk": "i32", "ldv": "i32", "ldo": "i32", "SEQ": "i32",
                   "BM": "constexpr", "BN": "constexpr", "D": "constexpr"}
            cst = {"BM": bm, "BN": bn, "D": bk}
            attrs = {k: PTR for k in ("Q", "K", "V", "O")}
            attrs.update({k: D16 for k in ("ldq", "ldk", "ldv", "ldo", "SEQ")})
            opts.pop("kpack")
        else:
            raise ValueError(self.fn)
        return sig, cst, attrs, opts


def cases():
    L = []
    T1, T2, T3 = (128, 128, 64, 4), (256, 128, 64, 8), (256, 256, 64, 8)  # Triton's three pp classes

    def mm(arch, dt, lay, bm, bn, bk, w, ns, **kw):
        L.append(Case("mm", arch, dt, lay, (bm, bn, bk), w, ns, **kw))

    # gfx942: the three pingpong tile classes, fp16/bf16, NN and TN
    for dt in ("fp16", "bf16"):
        for lay in ("NN", "TN"):
            for bm, bn, bk, w in (T1, T2, T3):
                mm("gfx942", dt, lay, bm, bn, bk, w, 2)
    # gfx942: MFMA shape, kpack, BK=128, warps, stages
    mm("gfx942", "fp16", "NN", 256, 256, 64, 8, 2, nonkdim=32)
    mm("gfx942", "fp16", "NN", 128, 128, 64, 4, 2, nonkdim=32)
    mm("gfx942", "bf16", "TN", 256, 128, 64, 8, 2, nonkdim=32)
    mm("gfx942", "fp16", "NN", 256, 256, 64, 8, 2, kpack=2)
    mm("gfx942", "fp16", "TN", 128, 128, 64, 4, 2, kpack=2)
    mm("gfx942", "fp16", "NN", 128, 128, 128, 4, 2)
    mm("gfx942", "fp16", "TN", 256, 128, 128, 8, 2)
    mm("gfx942", "fp16", "NN", 128, 128, 64, 8, 2)
    mm("gfx942", "fp16", "NN", 128, 256, 64, 4, 2)
    mm("gfx942", "fp16", "NN", 256, 256, 64, 8, 3)
    mm("gfx942", "bf16", "TN", 64, 64, 64, 4, 2)
    # fp8 on both archs (e4m3fnuz on gfx942, e4m3 on gfx950)
    for arch in ("gfx942", "gfx950"):
        f8 = fp8_for(arch)
        mm(arch, f8, "TN", 256, 256, 128, 8, 2)
        mm(arch, f8, "NN", 256, 256, 128, 8, 2)
        mm(arch, f8, "TN", 128, 128, 128, 4, 2)
        mm(arch, f8, "TN", 256, 128, 128, 8, 2)
    mm("gfx950", fp8_for("gfx950"), "TN", 256, 256, 128, 8, 2, async_copy=True)
    # gfx950 without async copy
    for bm, bn, bk, w in (T1, T2, T3):
        mm("gfx950", "fp16", "NN", bm, bn, bk, w, 2)
    mm("gfx950", "bf16", "TN", 256, 256, 64, 8, 2)
    mm("gfx950", "bf16", "TN", 128, 128, 64, 4, 2, nonkdim=32)
    # gfx950 with async copy (LDS DMA)
    mm("gfx950", "fp16", "NN", 256, 256, 64, 8, 2, async_copy=True)
    mm("gfx950", "bf16", "TN", 256, 256, 64, 8, 2, async_copy=True)
    mm("gfx950", "bf16", "NN", 256, 256, 32, 8, 3, async_copy=True)
    mm("gfx950", "bf16", "TN", 256, 256, 32, 8, 3, async_copy=True)
    mm("gfx950", "fp16", "NN", 128, 128, 64, 4, 2, async_copy=True)
    mm("gfx950", "bf16", "TN", 256, 128, 64, 8, 2, async_copy=True)
    # persistent GEMM
    for arch, ac in (("gfx942", False), ("gfx950", True)):
        L.append(Case("pmm", arch, "fp16", "NN", (256, 256, 64), 8, 2, async_copy=ac, fn="gemm_persistent"))
        L.append(Case("pmm", arch, "bf16", "TN", (128, 128, 64), 4, 2, async_copy=ac, fn="gemm_persistent"))
    # extra op in the K loop (per-K scale of A) and bias epilogue
    L.append(Case("mmscale", "gfx942", "fp16", "TN", (256, 256, 64), 8, 2, fn="gemm_rowscale"))
    L.append(Case("mmscale", "gfx942", "fp16", "TN", (128, 128, 64), 4, 2, fn="gemm_rowscale"))
    L.append(Case("mmscale", "gfx950", "bf16", "TN", (256, 256, 64), 8, 2, async_copy=True, fn="gemm_rowscale"))
    # MXFP4 dot_scaled (gfx950)
    for tile, w, ns in (((256, 256, 256), 8, 2), ((32, 64, 512), 4, 3), ((128, 128, 256), 4, 2),
                        ((128, 128, 512), 8, 2), ((128, 128, 512), 4, 2), ((64, 64, 512), 4, 2)):
        L.append(Case("mxfp4", "gfx950", "e2m1", None, tile, w, ns, async_copy=True, fn="gemm_mxfp4"))
    L.append(Case("mxfp4", "gfx950", "e2m1", None, (256, 256, 256), 8, 2, fn="gemm_mxfp4"))
    # attention forward; tile = BLOCK_M x BLOCK_N x HEAD_DIM
    L.append(Case("attn", "gfx942", "fp16", None, (128, 64, 128), 4, 2, fn="attn_fwd"))
    L.append(Case("attn", "gfx942", "fp16", None, (128, 64, 128), 8, 2, fn="attn_fwd"))
    L.append(Case("attn", "gfx942", "bf16", None, (128, 64, 64), 4, 2, fn="attn_fwd"))
    L.append(Case("attn", "gfx950", "fp16", None, (128, 64, 128), 8, 2, async_copy=True, fn="attn_fwd"))
    L.append(Case("attn", "gfx950", "fp16", None, (256, 64, 128), 8, 4, async_copy=True, fn="attn_fwd"))
    L.append(Case("attn", "gfx950", "fp16", None, (128, 64, 128), 4, 2, fn="attn_fwd"))
    # 32x32 MFMAs: Triton gives P V another warp layout than Q K^T and converts P through LDS
    # inside the loop (the shape of ../shared/triton-reference's attn_128x64x128_w8_ns2 async)
    L.append(Case("attn", "gfx950", "fp16", None, (128, 64, 128), 8, 2, nonkdim=32, async_copy=True,
                  fn="attn_fwd"))
    L.append(Case("attn", "gfx942", "fp16", None, (128, 64, 128), 8, 2, nonkdim=32, fn="attn_fwd"))
    # chained-dot pingpong (8 warps, 4 stages) in configs that may fit without spills (issue 10:
    # Triton's 256x64x128 spills); which ones do is recorded in README.md
    for tile in ((256, 64, 64), (256, 32, 128), (128, 64, 128), (128, 128, 64)):
        L.append(Case("attn", "gfx950", "fp16", None, tile, 8, 4, async_copy=True, fn="attn_fwd"))
    # causal attention: the trip count depends on the workgroup id (issue 25)
    L.append(Case("attncausal", "gfx942", "fp16", None, (128, 64, 128), 4, 2, fn="attn_fwd_causal"))
    out = []
    for c in L:
        for pp in (0, 1):
            out.append((c, pp))
    return out


def set_knobs(pp, async_copy, cache):
    os.environ["TRITON_HIP_USE_BLOCK_PINGPONG"] = "1" if pp else "0"
    os.environ["TRITON_HIP_USE_ASYNC_COPY"] = "1" if async_copy else "0"
    os.environ["TRITON_CACHE_DIR"] = cache
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"
    import triton
    kn = getattr(triton, "knobs", None)
    if kn is None:
        return
    for obj, attr, val in ((getattr(kn, "amd", None), "use_block_pingpong", bool(pp)),
                           (getattr(kn, "amd", None), "use_async_copy", bool(async_copy)),
                           (getattr(kn, "cache", None), "dir", cache),
                           (getattr(kn, "compilation", None), "always_compile", True)):
        if obj is not None:
            try:
                setattr(obj, attr, val)
            except Exception:
                pass


AMDGCN_KEYS = {
    "vgpr_count": r"\.vgpr_count:\s+(\d+)", "sgpr_count": r"\.sgpr_count:\s+(\d+)",
    "agpr_count": r"\.agpr_count:\s+(\d+)", "vgpr_spill_count": r"\.vgpr_spill_count:\s+(\d+)",
    "sgpr_spill_count": r"\.sgpr_spill_count:\s+(\d+)", "lds_bytes": r"\.group_segment_fixed_size:\s+(\d+)",
    "scratch_bytes": r"\.private_segment_fixed_size:\s+(\d+)", "occupancy": r";\s*Occupancy:\s+(\d+)",
    "num_vgprs_comment": r";\s*NumVgprs:\s+(\d+)", "num_agprs_comment": r";\s*NumAgprs:\s+(\d+)",
}


def count(pat, text):
    return len(re.findall(pat, text, flags=re.M)) if text else 0


def markers(ttgir, amdgcn):
    return {
        "ttgir_setprio": count(r"rocdl\.s\.setprio", ttgir),
        "ttgir_sched_barrier": count(r"rocdl\.sched\.barrier", ttgir),
        "ttgir_cond_barrier": count(r"cond_barrier", ttgir),
        "ttgir_barrier": count(r"(gpu\.barrier|rocdl\.s\.barrier|ttg\.barrier)", ttgir),
        "ttgir_dots": count(r"= tt\.dot(_scaled)? ", ttgir),
        "ttgir_async_copy": count(r"(async_copy_global_to_local|buffer_load_to_local)", ttgir),
        "amdgcn_lds_dma": count(r"^\s*(global_load_lds\w*|buffer_load\w*\s.*\blds\b)", amdgcn),
        "amdgcn_s_setprio": count(r"^\s*s_setprio\b", amdgcn),
        "amdgcn_sched_barrier": count(r"sched_barrier", amdgcn),
        "amdgcn_s_barrier": count(r"^\s*s_barrier\b", amdgcn),
    }


def compile_one(job):
    case, pp, outdir = job
    name = case.name(pp)
    d = os.path.join(outdir, name)
    os.makedirs(d, exist_ok=True)
    cache = tempfile.mkdtemp(prefix="tc_")
    t0 = time.time()
    sig, cst, attrs, opts = case.spec()
    bm, bn, bk = case.tile
    meta = {"case": name, "kernel": case.fn, "arch": case.arch, "num_warps": case.warps,
            "num_stages": case.stages, "tile": f"{bm}x{bn}x{bk}", "BM": bm, "BN": bn, "BK": bk,
            "dtype": case.dtype, "layout": case.layout, "kpack": case.kpack,
            "matrix_instr_nonkdim": case.nonkdim, "async": bool(case.async_copy), "pingpong": pp,
            "options": opts, "constexprs": cst}
    if case.fn == "attn_fwd_causal":
        # the loop runs pid * BM / BN times: time it at a stated workgroup id
        # (bench/triton_bench.py passes it to pingpong-sim --workgroup-id)
        meta["workgroup_id"] = 8
    if case.fn in ("attn_fwd", "attn_fwd_causal"):
        meta["tile_meaning"] = "BLOCK_M x BLOCK_N x HEAD_DIM"
    err = None
    ck = None
    errfile = os.path.join(cache, "stderr.txt")
    saved = os.dup(2)
    fd = os.open(errfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(fd, 2)
    os.close(fd)
    try:
        set_knobs(pp, case.async_copy, cache)
        import triton
        import kernels
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource
        meta["triton"] = triton.__version__
        fn = getattr(kernels, case.fn)
        path_attrs = {(fn.arg_names.index(k),): v for k, v in attrs.items()}
        src = ASTSource(fn=fn, signature=sig, constexprs=cst, attrs=path_attrs)
        ck = triton.compile(src, target=GPUTarget("hip", case.arch, 64), options=opts)
    except Exception as e:
        err = "".join(traceback.format_exception_only(type(e), e)).strip()
    sys.stderr.flush()
    os.dup2(saved, 2)
    os.close(saved)
    if err:
        # keep the diagnostics (error:/note: lines and their two source lines), not the IR dump
        lines = open(errfile, errors="replace").read().splitlines()
        diag = []
        for i, l in enumerate(lines):
            if re.search(r"\b(error|note|warning):", l):
                diag += [l] + lines[i + 1:i + 3]
        if diag:
            meta["diagnostics"] = "\n".join(diag)[-4000:]
            err = err + "\n" + next(l for l in diag if "error:" in l or "note:" in l).strip()
    wanted = {"ttgir": "kernel.ttgir", "llir": "kernel.llir", "amdgcn": "kernel.amdgcn"}
    if ck is not None:
        for stage, fname in wanted.items():
            text = ck.asm.get(stage)
            if isinstance(text, str):
                open(os.path.join(d, fname), "w").write(text)
        md = getattr(ck, "metadata", None)
        if md is not None:
            mdd = md._asdict() if hasattr(md, "_asdict") else dict(getattr(md, "__dict__", {}))
            for k in ("shared", "n_regs", "n_spills", "n_max_threads", "name", "waves_per_eu"):
                if k in mdd and isinstance(mdd[k], (int, str, float, type(None))):
                    meta["triton_" + k] = mdd[k]
    # stages that reached the cache before a failure (e.g. hsaco linking)
    for f in glob.glob(os.path.join(cache, "**", "*"), recursive=True):
        for stage, fname in wanted.items():
            if f.endswith("." + stage) and not os.path.exists(os.path.join(d, fname)):
                shutil.copy(f, os.path.join(d, fname))
        if f.endswith(".json") and not os.path.basename(f).startswith("__grp__") and "triton_shared" not in meta:
            try:
                j = json.load(open(f))
                for k in ("shared", "n_regs", "n_spills", "name"):
                    if k in j:
                        meta["triton_" + k] = j[k]
            except Exception:
                pass
    shutil.rmtree(cache, ignore_errors=True)

    def rd(fname):
        p = os.path.join(d, fname)
        return open(p).read() if os.path.exists(p) else ""
    ttgir, amdgcn = rd("kernel.ttgir"), rd("kernel.amdgcn")
    for k, pat in AMDGCN_KEYS.items():
        m = re.search(pat, amdgcn)
        if m:
            meta[k] = int(m.group(1))
    meta["markers"] = markers(ttgir, amdgcn)
    meta["files"] = sorted(f for f in os.listdir(d) if f.startswith("kernel."))
    meta["status"] = "ok" if err is None and len(meta["files"]) == 3 else (
        "partial" if meta["files"] else "failed")
    if err:
        meta["error"] = err[-4000:]
    meta["compile_s"] = round(time.time() - t0, 2)
    json.dump(meta, open(os.path.join(d, "meta.json"), "w"), indent=1, sort_keys=True)
    return name, meta["status"], err


def strip_locs(ttgir):
    t = re.sub(r"\s*loc\(#loc\d*\)", "", ttgir)
    t = re.sub(r"^#loc.*$", "", t, flags=re.M)
    return "\n".join(l for l in t.splitlines() if l.strip())


def infer_mode(m0, m1, t0, t1):
    """Triton's pingpong mode of a pp1 case, from its ttgir markers against its pp0 twin."""
    if not t1:
        return "unknown (no ttgir)"
    if t0 and strip_locs(t0) == strip_locs(t1):
        return "none (ttgir identical to pp0)"
    mk = m1["markers"]
    m0k = m0["markers"] if m0 else {k: 0 for k in mk}
    if not (mk["ttgir_setprio"] or mk["ttgir_cond_barrier"] or mk["ttgir_sched_barrier"]):
        return "none (no pingpong markers; loop differs from pp0)"
    # the pass slices the loop's dot along K: extra dots in the file = slices - 1
    slices = mk["ttgir_dots"] - m0k["ttgir_dots"] + 1
    scaled = " dot_scaled" if m1["kernel"] == "gemm_mxfp4" else ""
    if not mk["ttgir_cond_barrier"]:
        if mk["ttgir_setprio"] and m1["num_warps"] == 4:
            return "one-cluster (OnePP: setprio around the dot, no cond_barrier)"
        return "setprio/sched.barrier only, no cond_barrier (unclassified)"
    if slices >= 4:
        return "four-cluster (FourPP: dot sliced in %d, cond_barrier, setprio)" % slices
    if slices == 2:
        return "two-cluster (TwoPP: dot sliced in 2, cond_barrier, setprio)"
    if m1["kernel"] == "attn_fwd":
        return "chained-dot (cond_barrier, setprio around each of the 2 dots)"
    if mk["ttgir_setprio"]:
        return "cond_barrier + setprio, dot not sliced%s" % scaled
    return "async two-cluster%s (cond_barrier + sched.barrier, no setprio, dot not sliced)" % scaled


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--filter", action="append", default=[], help="substring of the case name (any)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--timeout", type=float, default=0, help="give up on unfinished cases after this (s)")
    a = ap.parse_args()
    sys.path.insert(0, HERE)
    todo = [(c, pp) for c, pp in cases() if not a.filter or any(f in c.name(pp) for f in a.filter)]
    if a.list:
        for c, pp in todo:
            print(c.name(pp))
        print(len(todo), "cases", file=sys.stderr)
        return
    os.makedirs(a.outdir, exist_ok=True)
    t0 = time.time()
    results = {}
    ctx = mp.get_context("spawn")
    with ctx.Pool(a.jobs, maxtasksperchild=1) as pool:
        # biggest kernels first
        jobs = sorted(todo, key=lambda cp: -(cp[0].tile[0] * cp[0].tile[1] * cp[0].tile[2]))
        asy = {c.name(pp): pool.apply_async(compile_one, ((c, pp, a.outdir),)) for c, pp in jobs}
        for n, r in asy.items():
            left = None if not a.timeout else max(1.0, a.timeout - (time.time() - t0))
            try:
                name, status, err = r.get(timeout=left)
            except mp.TimeoutError:
                name, status, err = n, "timeout", "no result within %ss" % a.timeout
            except Exception as e:
                name, status, err = n, "failed", repr(e)
            results[name] = (status, err)
            print(f"[{time.time() - t0:6.1f}s] {name}: {status}" + (f"  {err.splitlines()[-1][:200]}" if err else ""),
                  flush=True)
        if a.timeout:
            pool.terminate()
    # Triton's pingpong mode per pp1 case, against its pp0 twin
    for c, pp in todo:
        if pp != 1:
            continue
        d1 = os.path.join(a.outdir, c.name(1))
        d0 = os.path.join(a.outdir, c.name(0))
        try:
            m1 = json.load(open(os.path.join(d1, "meta.json")))
        except Exception:
            continue
        m0 = None
        t0s = ""
        if os.path.exists(os.path.join(d0, "meta.json")):
            m0 = json.load(open(os.path.join(d0, "meta.json")))
            if os.path.exists(os.path.join(d0, "kernel.ttgir")):
                t0s = open(os.path.join(d0, "kernel.ttgir")).read()
        t1s = open(os.path.join(d1, "kernel.ttgir")).read() if os.path.exists(os.path.join(d1, "kernel.ttgir")) else ""
        m1["triton_pingpong_mode"] = infer_mode(m0, m1, t0s, t1s)
        json.dump(m1, open(os.path.join(d1, "meta.json"), "w"), indent=1, sort_keys=True)
        if m0 is not None:
            m0["triton_pingpong_mode"] = "off (pp0)"
            json.dump(m0, open(os.path.join(d0, "meta.json"), "w"), indent=1, sort_keys=True)
    bad = {n: r for n, r in results.items() if r[0] != "ok"}
    with open(os.path.join(a.outdir, "FAILED.txt"), "w") as f:
        for n in sorted(bad):
            st, err = bad[n]
            last = (err or "").strip().splitlines()
            f.write(f"{n}: {st}: {' | '.join(l.strip() for l in last[-2:])}\n")
    print(f"{len(results) - len(bad)} ok, {len(bad)} not ok, {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
