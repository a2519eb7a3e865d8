#!/usr/bin/env python3
"""Every forced mode against auto's choice, in the cycle model (issue 28: "auto still picks the
faster mode").

For each case of a Triton corpus (as bench/triton_bench.py), builds the plugin with each mode that
fits the case's shape forced (-amdgpu-pingpong=MODE), runs it in pingpong-sim the way
triton_bench.py runs its builds (its `one` with only the plugin build), and verifies it. Auto's own
build and plain llc-22's come from a triton_bench.py JSON of the same corpus (--auto), so only the
forced builds are run. A forced mode counts as an alternative where it planned (the remark says
"(forced)"), verify is clean and it spills no more than llc-22; the table flags the cases where the
fastest such mode beats auto's build by more than --margin (default 2 %).

usage: bench/mode-sweep.py --corpus DIR --auto X.json --json OUT.json [--filter S] [--jobs N]
                           [--margin 0.02] [--out DIR]
Exit 1 where some case has such a miss (so a sweep can gate), 2 on bad input.
"""
import argparse
import concurrent.futures as cf
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "triton_bench", os.path.join(os.path.dirname(os.path.abspath(__file__)), "triton_bench.py"))
tb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tb)

ATTENTION = ("attn", "bp_", "gqa", "mixed_", "tut_", "alibi", "mha", "softcap")


def modes_for(case, waves):
    """The modes whose shape the case can have (Modes.def: waves, DMA); the others refuse at once."""
    if case.startswith(ATTENTION):
        return ["chained-dot", "single-wave"]
    if "_async" in case:
        ms = ["async-one-cluster", "single-wave", "skinny"]
        if waves == 8:
            ms += ["async-two-cluster", "async-four-cluster"]
        return ms
    ms = ["one-cluster", "single-wave"]
    if waves == 8:
        ms += ["two-cluster", "four-cluster"]
    return ms


def forced(args, base, mode):
    """triton_bench.one with MODE forced and only the plugin build timed (see main)."""
    a = argparse.Namespace(**vars(args))
    a.plugin_arg = list(args.plugin_arg) + [f"-amdgpu-pingpong={mode}"]
    a.out = os.path.join(args.out, mode)
    os.makedirs(a.out, exist_ok=True)
    row = tb.one(a, base, a.corpus)
    # a forced mode's remark says "(command line)", not triton_bench's "(auto)"
    log = os.path.join(a.out, base + ".plugin.log")
    planned = os.path.exists(log) and f"{mode} (command line)" in open(log).read()
    row["mode"] = mode if planned else "none"
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--auto", required=True, help="triton_bench.py --json of the same corpus")
    ap.add_argument("--json", required=True)
    ap.add_argument("--out", default=os.path.join(tb.ROOT, "build", "mode-sweep"))
    ap.add_argument("--filter", default="")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--margin", type=float, default=0.02)
    ap.add_argument("--gemm", default="8192,8192,8192")
    ap.add_argument("--iterations", type=int, default=32)
    ap.add_argument("--clock", default="power")
    ap.add_argument("--plugin", default=str(tb.tools.in_build(tb.tools.PLUGIN_IN_BUILD)))
    ap.add_argument("--sim", default=str(tb.tools.in_build(tb.tools.SIM_IN_BUILD)))
    ap.add_argument("--plugin-arg", action="append", default=[])
    ap.add_argument("--llc-flags", default="plain")
    args = ap.parse_args()
    with open(args.auto) as f:
        auto = {r["case"]: r for r in json.load(f)}
    cases = sorted(c for c in auto if args.filter in c)
    if not cases:
        sys.exit(2)
    jobs = [(c, m) for c in cases for m in modes_for(c, auto[c].get("waves"))
            if m != auto[c].get("mode")]
    print(f"mode-sweep: {len(jobs)} forced builds over {len(cases)} cases", file=sys.stderr)
    # only the plugin build is timed: no Triton assembly, llc's build is compiled, not run
    first = tb.first_existing
    tb.first_existing = lambda d, names: None if names[0] == "kernel.amdgcn" else first(d, names)
    tb.BUILDS = ("plugin",)
    res = {}
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        futs = {ex.submit(forced, args, c, m): (c, m) for c, m in jobs}
        for n, fu in enumerate(cf.as_completed(futs), 1):
            c, m = futs[fu]
            r = fu.result()
            res.setdefault(c, {})[m] = {k: r.get(k) for k in (
                "mode", "plugin", "plugin-ns", "plugin-verify", "plugin-scratch", "why")}
            print(f"  [{n}/{len(jobs)}] {c} {m}: {r.get('mode')} {r.get('plugin')}",
                  file=sys.stderr, flush=True)
    rows, misses = [], 0
    for c in cases:
        ar = auto[c]
        amode = ar.get("mode", "none")
        ans = ar.get("plugin-ns") if amode != "none" else ar.get("llc-ns")
        llc_scr = ar.get("llc-scratch") or 0
        alts = []
        for m, r in sorted(res.get(c, {}).items()):
            ok = (r["mode"] == m and r["plugin-ns"] and r["plugin-verify"] == "clean"
                  and (r["plugin-scratch"] or 0) <= llc_scr)
            alts.append(dict(r, forced=m, ok=ok))
        good = [x for x in alts if x["ok"]]
        best = min(good, key=lambda x: x["plugin-ns"]) if good else None
        gain = ans / best["plugin-ns"] if best and ans else None
        miss = gain is not None and gain > 1 + args.margin
        misses += miss
        rows.append({"case": c, "auto": amode, "auto-ns": ans, "auto-cycles":
                     ar.get("plugin") if amode != "none" else ar.get("llc"),
                     "llc-ns": ar.get("llc-ns"), "best-ns": ar and min(
                         [ar[b + "-ns"] for b in ("triton", "triton-pp") if b + "-ns" in ar
                          and ar.get(b + "-verify") in ("clean", "cannot-prove")] or [None],
                         key=lambda v: v or 1e30),
                     "fastest": best["forced"] if best else None,
                     "fastest-cycles": best["plugin"] if best else None,
                     "gain": gain, "miss": miss, "forced": alts})
        fm = best["forced"] if best else "-"
        print(f"{c:52s} auto {amode:18s} {rows[-1]['auto-cycles'] or 0:8.0f}  fastest {fm:18s} "
              f"{(best or {}).get('plugin') or 0:8.0f}  {('%.3f' % gain) if gain else '-':6s}"
              f"{'  MISS' if miss else ''}")
    with open(args.json, "w") as f:
        json.dump(rows, f, indent=1)
    print(f"mode-sweep: {misses} of {len(cases)} cases where a forced race-free mode beats auto by "
          f"more than {args.margin:.0%}")
    sys.exit(1 if misses else 0)


if __name__ == "__main__":
    main()
