#!/usr/bin/env python3
"""What amdgpu_pingpong.triton.enable() does on the project's Triton corpus (corpus/triton).

usage: build/venv/bin/python bench/triton_hook.py [--filter SUBSTR] [--jobs N] [--markdown]
                                                 [--verify strict|no-findings] [--replace-schedule]

Every kernel of corpus/triton/generate.py's case list is compiled once by Triton 3.6.0 for its
target with Triton's default BlockPingpong setting (on for gfx942, on for gfx950 with async copy)
and the hook enabled (decide="model", the GEMM-8192 L2 rule with the case's BM x BN tile), as a
user's program would get it. The table gives, per kernel, whose code Triton got, the plugin's
mode, the model's cycles per K iteration of Triton's own code and of the plugin's, and the
hook's reason; the summary counts the kernels that got the plugin's code and the geomean
speedup over Triton's own code at its default setting (1.0 where Triton's code was kept).
"""
import argparse
import concurrent.futures as cf
import math
import multiprocessing as mp
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "corpus", "triton")


def one(job):
    case, verify, replace = job
    sys.path.insert(0, CORPUS)
    import warnings

    import kernels
    import triton
    from triton import knobs
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    import amdgpu_pingpong.triton as pp
    knobs.cache.dir = tempfile.mkdtemp(prefix="hook-bench-")
    knobs.amd.use_async_copy = bool(case.async_copy)
    knobs.amd.use_block_pingpong = None          # Triton's default
    sig, cst, attrs, opts = case.spec()
    fn = getattr(kernels, case.fn)
    path_attrs = {(fn.arg_names.index(k),): v for k, v in attrs.items()}
    bm, bn, _ = case.tile
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pp.enable(kernels={case.fn: {"tile": (bm, bn)}}, verify=verify, replace_schedule=replace)
        try:
            k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=cst, attrs=path_attrs),
                               target=GPUTarget("hip", case.arch, 64), options=opts)
            rep = dict(k.metadata.amdgpu_pingpong)
        except Exception as e:  # noqa: BLE001 - Triton's own failure (the corpus has one)
            rep = {"decision": "-", "reason": f"Triton failed: {str(e).splitlines()[0][:80]}"}
    rep["warnings"] = [str(w.message)[:120] for w in caught]
    rep["case"] = case.base()
    rep["arch"] = case.arch
    rep.pop("remarks", None)
    return rep


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--filter", default="")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--verify", default="strict", choices=("strict", "no-findings"))
    ap.add_argument("--replace-schedule", action="store_true",
                    help="enable(replace_schedule=True): re-schedule loops Triton's BlockPingpong scheduled")
    a = ap.parse_args()
    sys.path.insert(0, CORPUS)
    import generate
    seen, todo = set(), []
    for c, _ in generate.cases():
        if c.base() not in seen and a.filter in c.base():
            seen.add(c.base())
            todo.append(c)
    with cf.ProcessPoolExecutor(a.jobs, mp_context=mp.get_context("spawn")) as ex:
        rows = sorted(ex.map(one, [(c, a.verify, a.replace_schedule) for c in todo]), key=lambda r: r["case"])
    sep = " | " if a.markdown else "  "
    head = ["kernel", "got", "mode", "Triton", "plugin", "x", "reason"]
    if a.markdown:
        print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for r in rows:
        t, p = r.get("triton_cycles"), r.get("plugin_cycles")
        x = t / p if (t and p and r.get("decision") == "plugin") else 1.0
        r["x"] = x
        cells = [r["case"], r.get("decision", "-"), r.get("plugin_mode") or "-",
                 f"{t:g}" if t else "-", f"{p:g}" if p else "-", f"{x:.3f}",
                 (r.get("reason") or "")[:110]]
        print(("| " if a.markdown else "") + sep.join(cells) + (" |" if a.markdown else ""))
        for w in r["warnings"]:
            print(f"    warning: {w}")
    for arch in sorted({r["arch"] for r in rows}):
        sel = [r for r in rows if r["arch"] == arch and r.get("decision") in ("plugin", "triton")]
        took = [r for r in sel if r["decision"] == "plugin"]
        g = math.exp(sum(math.log(r["x"]) for r in sel) / len(sel)) if sel else 1.0
        gt = math.exp(sum(math.log(r["x"]) for r in took) / len(took)) if took else 1.0
        print(f"{arch}: the plugin's code in {len(took)} of {len(sel)} kernels (geomean {gt:.3f}x "
              f"where taken); over all {len(sel)}: {g:.3f}x, never below 1.000 "
              f"(min {min((r['x'] for r in sel), default=1):.3f})")


if __name__ == "__main__":
    main()
