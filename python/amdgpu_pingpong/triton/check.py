"""Does the plugin help my kernel? One command, no GPU.

    pingpong-triton-check FILE.py:KERNEL --arch gfx942 --num-warps 8 \\
        --sig '*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32' BM=256 BN=256 BK=64
    python3 -m amdgpu_pingpong.triton.check ...            (the same)

FILE.py is the user's script or module holding the @triton.jit kernel (it is imported, so its
``if __name__ == "__main__":`` part does not run); MODULE:KERNEL works too. Constexprs are
NAME=VALUE; the other arguments' types come from --sig (in the order of the kernel's
non-constexpr parameters, or NAME=TYPE items). Pointers get 16-byte alignment and a 32-bit
range and integers divisibility by 16, as Triton's JIT specialises typical arguments
(--no-aligned: none).

It compiles, for the target, with Triton 3.6 and the tools of amdgpu_pingpong.tools:
  triton (pp off)    Triton's own code, its BlockPingpong off
  triton (pp on)     Triton's own code, its BlockPingpong on
  llc-22             plain llc-22 on Triton's LLVM IR (pp off): what the plugin starts from
  plugin             llc-22 + AMDGPUPingpong on the same IR
  enable()           what amdgpu_pingpong.triton.enable() gives with Triton's default setting
and runs pingpong-sim on each (cycles per K iteration of the GEMM's L2 reuse rule, MFMA busy,
the engine clock the power limit gives that busy and the time per iteration, the resource bound
and its unit, verify), then prints the table and the verdict; builds are compared by time.
Exit status: 0 done (whatever the verdict), 1 a compile failed, 2 bad usage.
"""
from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import inspect
import json
import os
import re
import sys
import tempfile
import warnings
from typing import Optional

from ..tools import Tools
from . import _core, _hook

TILE_NAMES = (("BM", "BN"), ("BLOCK_M", "BLOCK_N"), ("BLOCK_SIZE_M", "BLOCK_SIZE_N"),
              ("BLOCK_M", "BLOCK_K"))


def load_kernel(spec: str):
    """FILE.py:NAME or MODULE:NAME -> the JITFunction."""
    if ":" not in spec:
        raise SystemExit(f"pingpong-triton-check: '{spec}' is not FILE.py:KERNEL or MODULE:KERNEL")
    where, name = spec.rsplit(":", 1)
    if where.endswith(".py") or os.path.sep in where:
        path = os.path.abspath(where)
        sys.path.insert(0, os.path.dirname(path))
        modname = "_pingpong_check_" + re.sub(r"\W", "_", os.path.basename(path)[:-3])
        s = importlib.util.spec_from_file_location(modname, path)
        mod = importlib.util.module_from_spec(s)
        sys.modules[modname] = mod
        s.loader.exec_module(mod)
    else:
        mod = importlib.import_module(where)
    fn = getattr(mod, name, None)
    if fn is None or not hasattr(fn, "arg_names"):
        raise SystemExit(f"pingpong-triton-check: {spec}: no @triton.jit function {name}")
    return fn


def value(text: str):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def build_source(fn, constexprs: dict, sig_text: str, aligned: bool):
    from triton.compiler import ASTSource
    params = list(fn.params)
    cst_names = {p.name for p in params if p.is_constexpr}
    cst = {}
    for p in params:
        if p.is_constexpr:
            if p.name in constexprs:
                cst[p.name] = constexprs[p.name]
            elif p.default is not inspect.Parameter.empty:     # a default in the signature
                cst[p.name] = p.default
            else:
                raise SystemExit(f"pingpong-triton-check: constexpr {p.name} needs a value ({p.name}=...)")
    extra = set(constexprs) - cst_names
    if extra:
        raise SystemExit(f"pingpong-triton-check: {sorted(extra)} are not constexpr parameters of "
                         f"{fn.__name__} ({', '.join(sorted(cst_names))})")
    others = [p.name for p in params if not p.is_constexpr]
    items = [x.strip() for x in sig_text.split(",") if x.strip()] if sig_text else []
    sig = {}
    if items and all("=" in x for x in items):
        sig = dict(x.split("=", 1) for x in items)
    elif items and not any("=" in x for x in items):
        if len(items) != len(others):
            raise SystemExit(f"pingpong-triton-check: --sig has {len(items)} types for "
                             f"{len(others)} parameters ({', '.join(others)})")
        sig = dict(zip(others, items))
    elif items:
        raise SystemExit("pingpong-triton-check: --sig is either all TYPE or all NAME=TYPE")
    for p in params:                  # annotated parameters (A: "*fp16") need no --sig entry
        ann = getattr(p, "annotation", "")
        if not p.is_constexpr and p.name not in sig and isinstance(ann, str) and ann:
            sig[p.name] = ann
    missing = [n for n in others if n not in sig]
    if missing:
        raise SystemExit(f"pingpong-triton-check: --sig needs the types of {', '.join(missing)} "
                         f"(e.g. *fp16, *bf16, *fp8e4nv, i32, fp32)")
    signature = {p.name: ("constexpr" if p.is_constexpr else sig[p.name]) for p in params}
    attrs = {}
    if aligned:
        for i, p in enumerate(params):
            t = signature[p.name]
            if t.startswith("*"):
                attrs[(i,)] = [["tt.divisibility", 16], ["tt.pointer_range", 32]]
            elif t in ("i32", "i64", "u32", "u64"):
                attrs[(i,)] = [["tt.divisibility", 16]]
    return ASTSource(fn=fn, signature=signature, constexprs=cst, attrs=attrs), cst


def tile_from(cst: dict) -> Optional[tuple]:
    for a, b in TILE_NAMES:
        if isinstance(cst.get(a), int) and isinstance(cst.get(b), int):
            return cst[a], cst[b]
    return None


def compile_triton(src, arch, opts, pingpong: Optional[bool], async_copy: bool, cache: str):
    """triton.compile with Triton's BlockPingpong on/off (None: Triton's default), hook off."""
    import triton
    from triton import knobs
    from triton.backends.compiler import GPUTarget
    saved = (knobs.amd.use_block_pingpong, knobs.amd.use_async_copy, knobs.cache.dir,
             knobs.compilation.always_compile)
    knobs.amd.use_block_pingpong = pingpong
    knobs.amd.use_async_copy = async_copy
    knobs.cache.dir = cache
    knobs.compilation.always_compile = True
    try:
        return triton.compile(src, target=GPUTarget("hip", arch, 64), options=dict(opts))
    finally:
        (knobs.amd.use_block_pingpong, knobs.amd.use_async_copy, knobs.cache.dir,
         knobs.compilation.always_compile) = saved


def fmt(v, f="{:g}"):
    return "-" if v is None else (f.format(v) if isinstance(v, (int, float)) else str(v))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="pingpong-triton-check",
                                 description="Does AMDGPUPingpong help this Triton kernel? "
                                             "(cycle model, no GPU)")
    ap.add_argument("kernel", help="FILE.py:KERNEL or MODULE:KERNEL")
    ap.add_argument("constexprs", nargs="*", metavar="NAME=VALUE", help="the kernel's constexprs")
    ap.add_argument("--arch", default="gfx942", choices=sorted(_core.LDS_BYTES))
    ap.add_argument("--sig", default="", help="types of the other parameters: 'T1,T2,...' in order, "
                                              "or 'NAME=T,...' (*fp16, *bf16, *fp8e4nv, i32, fp32, ...)")
    ap.add_argument("--num-warps", type=int, default=4)
    ap.add_argument("--num-stages", type=int, default=2)
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="another Triton compile option (matrix_instr_nonkdim=16, kpack=2, ...)")
    ap.add_argument("--async-copy", action="store_true", help="TRITON_HIP_USE_ASYNC_COPY=1 (LDS DMA)")
    ap.add_argument("--no-aligned", action="store_true", help="no divisibility/range attributes")
    ap.add_argument("--mode", default="auto", choices=_core.MODES, help="the plugin's mode")
    ap.add_argument("--problem", default="8192,8192,8192", help="the GEMM M,N,K of the L2 reuse rule")
    ap.add_argument("--tile", help="BM,BN for the L2 rule (default: the plugin's remark, or the "
                                   "constexprs BM/BN, BLOCK_M/BLOCK_N, BLOCK_SIZE_M/BLOCK_SIZE_N)")
    ap.add_argument("--keep", help="write every build's assembly and IR into this directory")
    ap.add_argument("--json", help="write the rows as JSON")
    a = ap.parse_intermixed_args(argv)

    ok, why = _hook.triton_supported()
    if not ok:
        print(f"pingpong-triton-check: {why}", file=sys.stderr)
        return 2
    tools = Tools.find()
    missing = tools.missing()
    if missing:
        print("pingpong-triton-check: " + "; ".join(missing), file=sys.stderr)
        return 2
    cst = {}
    for item in a.constexprs:
        if "=" not in item:
            ap.error(f"'{item}' is not NAME=VALUE")
        k, v = item.split("=", 1)
        cst[k] = value(v)
    opts = {"num_warps": a.num_warps, "num_stages": a.num_stages}
    for item in a.option:
        k, v = item.split("=", 1)
        opts[k] = value(v)
    problem = tuple(int(x) for x in a.problem.split(","))
    fn = load_kernel(a.kernel)
    src, cst = build_source(fn, cst, a.sig, not a.no_aligned)
    keep = a.keep or tempfile.mkdtemp(prefix="pingpong-check-")
    os.makedirs(keep, exist_ok=True)
    cache = tempfile.mkdtemp(prefix="pingpong-check-cache-")

    rows = {}
    try:
        off = compile_triton(src, a.arch, opts, False, a.async_copy, cache)
        on = compile_triton(src, a.arch, opts, True, a.async_copy, cache)
    except Exception as e:  # noqa: BLE001
        print(f"pingpong-triton-check: Triton could not compile {a.kernel}: {e}", file=sys.stderr)
        return 1
    name = off.metadata.name
    shared = int(off.metadata.shared or 0)
    from triton.backends.amd import compiler as amdc
    target = _core.Target(amdc.amd.TARGET_TRIPLE, a.arch, "", (), bool(getattr(off.metadata, "enable_fp_fusion", True)))
    asms = {"triton (pp off)": off.asm["amdgcn"], "triton (pp on)": on.asm["amdgcn"]}
    notes = {"triton (pp on)": "Triton's BlockPingpong " +
             ("changed nothing" if on.asm["ttgir"] == off.asm["ttgir"] else "applied")}
    builds = {}
    for label, mode in (("llc-22", None), ("plugin", a.mode)):
        try:
            b = _core.compile_with_plugin(off.asm["llir"], target, tools, mode or "auto",
                                          load_plugin=mode is not None)
        except _core.PluginError as e:
            print(f"pingpong-triton-check: {label}: {e}", file=sys.stderr)
            return 1
        builds[label] = b
        asms[label] = b.asm
    pb = builds["plugin"]
    notes["plugin"] = (f"{pb.mode} ({'forced' if pb.forced else 'auto'})" if pb.mode
                       else f"no loop scheduled: {pb.why_not}")
    notes["llc-22"] = "no plugin"
    tile = pb.tile[:2] if pb.tile else None
    if a.tile:
        tile = tuple(int(x) for x in a.tile.split(","))[:2]
    tile = tile or tile_from(cst)

    # what enable() does with Triton's default BlockPingpong setting
    import amdgpu_pingpong.triton as pp
    was = pp.config()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pp.enable(a.mode, kernels={name: {"tile": tile}} if tile else None, problem=problem)
        try:
            hooked = compile_triton(src, a.arch, opts, None, a.async_copy, cache)
        finally:
            pp.disable()
            if was is not None:
                _hook._install(was)
    rep = getattr(hooked.metadata, "amdgpu_pingpong", None) or {}
    asms["enable()"] = hooked.asm["amdgcn"]
    notes["enable()"] = (f"{rep.get('decision', '?')}'s code" if rep else "?") + \
        (f": {rep.get('reason')}" if rep.get("reason") else "")

    for label, text in asms.items():
        fname = re.sub(r"\W+", "_", label).strip("_") + ".s"
        with open(os.path.join(keep, fname), "w") as f:
            f.write(text)
    with open(os.path.join(keep, "kernel.llir"), "w") as f:
        f.write(off.asm["llir"])
    sims, vers = _core.measure(asms, a.arch, a.num_warps, shared, tile, problem, tools,
                               verify=tuple(asms))

    print(f"{a.kernel}: {name} on {a.arch}, {a.num_warps} warps, {a.num_stages} stages"
          + (", async copy" if a.async_copy else "")
          + (f"; model: GEMM {'x'.join(map(str, problem))}, tile {tile[0]}x{tile[1]}" if tile
             else "; model: no tile known, every load misses L2 (give --tile BM,BN)"))
    head = ["build", "cycles/iter", "MFMA busy", "GHz", "ns/iter", "bound", "bound unit", "verify", "VGPRs",
            "scratch", "note"]
    table = []
    for label in asms:
        s, v = sims[label], vers[label]
        table.append([label, fmt(s.cycles), fmt(s.mfma_busy, "{:.1f}%"), fmt(s.ghz, "{:.3f}"), fmt(s.ns),
                      fmt(s.bound), s.bound_unit or "-",
                      v.describe() if v.rc is not None else "-",
                      fmt(s.vgprs), fmt(s.scratch), notes.get(label, "") + (f" [model: {s.error}]" if s.error else "")])
        rows[label] = {"cycles": s.cycles, "ns": s.ns, "ghz": s.ghz, "mfma_busy": s.mfma_busy, "bound": s.bound,
                       "bound_unit": s.bound_unit, "verify": v.clean, "verify_status": v.describe(),
                       "verify_message": v.message,
                       "vgprs": s.vgprs, "scratch": s.scratch, "note": notes.get(label, ""),
                       "model_error": s.error}
    widths = [max(len(str(r[i])) for r in table + [head]) for i in range(len(head) - 1)]
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)) + "  " + head[-1])
    for r in table:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)) + "  " + r[-1])
    for label, v in vers.items():
        if v.clean is False:
            print(f"  verify {label}: {v.message[:200]}")

    # compared by time: each build at the clock the power limit gives its MFMA busy
    best_label = min((l for l in ("triton (pp off)", "triton (pp on)") if sims[l].ns),
                     key=lambda l: sims[l].ns, default=None)
    p = sims["plugin"].ns
    if best_label and p and pb.mode:
        r = sims[best_label].ns / p
        print(f"plugin vs Triton's best ({best_label}, {sims[best_label].ns:.1f} ns): {r:.3f}x"
              + ("" if vers["plugin"].clean else " (but verify found a problem)"))
    elif not pb.mode:
        print(f"plugin: no loop scheduled ({pb.why_not})")
    if rep:
        sp = rep.get("speedup") or (rep["triton_ns"] / rep["plugin_ns"]
                                    if rep.get("triton_ns") and rep.get("plugin_ns") else None)
        print(f"verdict: enable() keeps {'the plugin' if rep['decision'] == 'plugin' else 'Triton'}'s code "
              f"for {name}" + (f" ({sp:.3f}x over Triton's own at its default setting)"
                               if rep["decision"] == "plugin" and sp else "")
              + (f": {rep['reason']}" if rep.get("reason") else ""))
    for w in caught:
        print(f"warning: {w.message}", file=sys.stderr)
    print(f"assembly and IR: {keep}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"kernel": a.kernel, "name": name, "arch": a.arch, "tile": tile,
                       "problem": problem, "rows": rows, "enable": rep}, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
