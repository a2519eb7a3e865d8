#!/usr/bin/env python3
"""The docs/triton.md "Project corpus" summary and table from the JSON rows of
bench/triton_bench.py (--json): per kernel the model's cycles per K iteration of
Triton's output without/with its pingpong, plain llc-22 and llc-22 + plugin, the
mode or the reason it was refused, the ratios and the scratch bytes.

  bash bench/triton-bench.sh --json out.json && python3 bench/triton-table.py out.json
"""
import json
import math
import sys

from triton_bench import is_gemm_case


def fmt(v):
    if v is None:
        return "-"
    return ("%.1f" % v).rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


def cell(r, b):
    """A build's cycles; ¹ where fewer workgroups fit on the CU than were asked
    (the number is the CU's time for the asked ones: cycles x asked / fit); R where
    pingpong-sim verify finds the build racing, ? where it cannot prove its pairs ordered."""
    v = fmt(r.get(b))
    v = v + "¹" if r.get(b + "-occupancy") else v
    return v + {"race": " R", "cannot-prove": " ?"}.get(r.get(b + "-verify"), "")


UNIT = (("MFMA pipe", "MFMA"), ("LDS port", "LDS port"), ("L2", "L2"), ("HBM", "HBM"),
        ("VALU+MFMA issue", "VALU issue"), ("LDS issue", "LDS issue"), ("VMEM issue", "VMEM issue"),
        ("SALU", "SALU issue"), ("issue turns", "wave issue"))


def bound(r):
    """The plugin build's resource bound and its unit, shortened."""
    if "plugin-bound" not in r:
        return "-"
    unit = next((short for long, short in UNIT if r["plugin-bound-unit"].startswith(long)), r["plugin-bound-unit"])
    return "%s %s" % (fmt(r["plugin-bound"]), unit)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: triton-table.py ROWS.json")
    rows = json.load(open(sys.argv[1]))
    out = []
    summary = {}
    for arch in ("gfx942", "gfx950"):
        scheduled = [r for r in rows if r.get("arch") == arch and r.get("mode", "none") != "none"]
        # timed: the plugin's and llc's builds ran in the model; vs-best only where a Triton build
        # pingpong-sim verify does not find racing exists
        sched = [r for r in scheduled if "vs-llc" in r]
        total = sum(1 for r in rows if r.get("arch") == arch)
        def has(k):
            return [r[k] for r in sched if k in r]
        g = lambda k: math.exp(sum(math.log(x) for x in has(k)) / len(has(k))) if has(k) else float("nan")
        lo = lambda k: min(has(k), default=float("nan"))
        hi = lambda k: max(has(k), default=float("nan"))
        gemm = [r for r in sched if is_gemm_case(r["case"]) and "ceiling" in r and "vs-best" in r]
        gg = lambda k: math.exp(sum(math.log(r[k]) for r in gemm) / len(gemm)) if gemm else float("nan")
        # what the Triton hook times: auto's build, the 4-wave attention order where auto names
        # it, LLVM's order
        hook = [r["vs-best-hook"] for r in rows if r.get("arch") == arch and "vs-best-hook" in r
                and (r.get("mode", "none") != "none" or "four-wave-ns" in r)]
        gh = math.exp(sum(math.log(x) for x in hook) / len(hook)) if hook else float("nan")
        summary[arch] = (len(scheduled), total, g("vs-best"), lo("vs-best"), hi("vs-best"),
                         g("vs-llc"), lo("vs-llc"), hi("vs-llc"), len(sched), len(gemm), gg("vs-best"),
                         gg("ceiling"), g("vs-fastest"), lo("vs-fastest"), len(hook), gh,
                         min(hook, default=float("nan")))
    out.append("| | gfx942 | gfx950 |")
    out.append("|---|---|---|")
    out.append("| kernels scheduled by the plugin | %d of %d | %d of %d |" %
               (summary["gfx942"][0], summary["gfx942"][1], summary["gfx950"][0], summary["gfx950"][1]))
    out.append("| of those, timed by the model (the rest do not fit on a CU: the table says why) | %d | %d |" %
               (summary["gfx942"][8], summary["gfx950"][8]))
    out.append("| geomean plugin vs the better race-free Triton build, with/without its pingpong (scheduled, "
               "timed; a case where both race is left out) | "
               "**%.3f** (%.3f–%.3f) | **%.3f** (%.3f–%.3f) |" % (summary["gfx942"][2:5] + summary["gfx950"][2:5]))
    out.append("| the same against the faster Triton build whether or not it races (vs-fastest: geomean, min) | "
               "%.3f, %.3f | %.3f, %.3f |" % (summary["gfx942"][12:14] + summary["gfx950"][12:14]))
    out.append("| geomean plugin vs plain llc-22 on the same IR (scheduled, timed) | "
               "**%.3f** (%.3f–%.3f) | **%.3f** (%.3f–%.3f) |" % (summary["gfx942"][5:8] + summary["gfx950"][5:8]))
    out.append("| the Triton hook's candidate vs Triton's best: the fastest of auto's build, the 4-wave "
               "attention order where auto names it, and LLVM's order (count: geomean, min) | "
               "%d: %.3f, %.3f | %d: %.3f, %.3f |" % (summary["gfx942"][14:17] + summary["gfx950"][14:17]))
    out.append("| GEMMs alone (scheduled, timed): geomean vs Triton's best / its ceiling (best / the plugin's "
               "resource bound) | %d: **%.3f** / %.3f | %d: **%.3f** / %.3f |" %
               (summary["gfx942"][9:12] + summary["gfx950"][9:12]))
    out.append("")
    out.append("| kernel | Triton | Triton-pp | llc-22 | plugin | plugin's bound | mode | vs-best | vs-fastest | ceiling "
               "| vs-llc | spill llc → plugin (B) |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        mode = r.get("mode", "none")
        if mode == "none" and "four-wave" in r:
            mode = "— LLVM's order (the 4-wave order: %s)" % fmt(r["four-wave"])
        elif mode == "none":
            mode = "— " + (r.get("why") or "not scheduled")[:64].rstrip()
        elif r.get("plugin") is None and r.get("unfit"):
            mode += " (not timed: " + r["unfit"][:60] + ")"
        cells = [r["case"], cell(r, "triton"), cell(r, "triton-pp"), cell(r, "llc"),
                 cell(r, "plugin"), bound(r), mode,
                 "%.3f" % r["vs-best"] if "vs-best" in r else "-",
                 "%.3f" % r["vs-fastest"] if "vs-fastest" in r else "-",
                 "%.3f" % r["ceiling"] if "ceiling" in r else "-",
                 "%.3f" % r["vs-llc"] if "vs-llc" in r else "-",
                 "%s → %s" % (r.get("llc-scratch", "-"), r.get("plugin-scratch", "-"))]
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    out.append("The plugin's bound: pingpong-sim's resource bound of the plugin's build, the busiest unit's "
               "clocks per iteration (MFMA pipe, LDS port, the CU's L2/HBM share, issue turns); no order of the "
               "same instructions runs faster. ceiling = the better race-free Triton / that bound: the most "
               "vs-best scheduling alone can reach. R: `pingpong-sim verify` finds the build racing (it does not "
               "count for vs-best; vs-fastest counts it); ?: verify cannot prove some of its LDS pairs ordered "
               "(it counts).")
    out.append("")
    out.append("¹ fewer workgroups fit on the CU than the two 4-wave workgroups asked (VGPRs or LDS: the "
               "build's JSON row says which); the number is the CU's time for two workgroups' iterations, "
               "twice the cycles of the one that runs.")
    print("\n".join(out))


if __name__ == "__main__":
    main()
