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


def fmt(v):
    if v is None:
        return "-"
    return ("%.1f" % v).rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


def cell(r, b):
    """A build's cycles; ¹ where fewer workgroups fit on the CU than were asked
    (the number is the CU's time for the asked ones: cycles x asked / fit)."""
    v = fmt(r.get(b))
    return v + "¹" if r.get(b + "-occupancy") else v


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
        sched = [r for r in scheduled if "vs-best" in r and "vs-llc" in r]
        total = sum(1 for r in rows if r.get("arch") == arch)
        g = lambda k: math.exp(sum(math.log(r[k]) for r in sched) / len(sched)) if sched else float("nan")
        lo = lambda k: min(r[k] for r in sched) if sched else float("nan")
        hi = lambda k: max(r[k] for r in sched) if sched else float("nan")
        gemm = [r for r in sched if not r["case"].startswith("attn") and "ceiling" in r]
        gg = lambda k: math.exp(sum(math.log(r[k]) for r in gemm) / len(gemm)) if gemm else float("nan")
        summary[arch] = (len(scheduled), total, g("vs-best"), lo("vs-best"), hi("vs-best"),
                         g("vs-llc"), lo("vs-llc"), hi("vs-llc"), len(sched), len(gemm), gg("vs-best"),
                         gg("ceiling"))
    out.append("| | gfx942 | gfx950 |")
    out.append("|---|---|---|")
    out.append("| kernels scheduled by the plugin | %d of %d | %d of %d |" %
               (summary["gfx942"][0], summary["gfx942"][1], summary["gfx950"][0], summary["gfx950"][1]))
    out.append("| of those, timed by the model (the rest do not fit on a CU: the table says why) | %d | %d |" %
               (summary["gfx942"][8], summary["gfx950"][8]))
    out.append("| geomean plugin vs the better of Triton with/without its pingpong (scheduled, timed) | "
               "**%.3f** (%.3f–%.3f) | **%.3f** (%.3f–%.3f) |" % (summary["gfx942"][2:5] + summary["gfx950"][2:5]))
    out.append("| geomean plugin vs plain llc-22 on the same IR (scheduled, timed) | "
               "**%.3f** (%.3f–%.3f) | **%.3f** (%.3f–%.3f) |" % (summary["gfx942"][5:8] + summary["gfx950"][5:8]))
    out.append("| GEMMs alone (scheduled, timed): geomean vs Triton's best / its ceiling (best / the plugin's "
               "resource bound) | %d: **%.3f** / %.3f | %d: **%.3f** / %.3f |" %
               (summary["gfx942"][9:12] + summary["gfx950"][9:12]))
    out.append("")
    out.append("| kernel | Triton | Triton-pp | llc-22 | plugin | plugin's bound | mode | vs-best | ceiling | vs-llc "
               "| spill llc → plugin (B) |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        mode = r.get("mode", "none")
        if mode == "none":
            mode = "— " + (r.get("why") or "not scheduled")[:64].rstrip()
        elif r.get("plugin") is None and r.get("unfit"):
            mode += " (not timed: " + r["unfit"][:60] + ")"
        cells = [r["case"], cell(r, "triton"), cell(r, "triton-pp"), cell(r, "llc"),
                 cell(r, "plugin"), bound(r), mode,
                 "%.3f" % r["vs-best"] if "vs-best" in r else "-",
                 "%.3f" % r["ceiling"] if "ceiling" in r else "-",
                 "%.3f" % r["vs-llc"] if "vs-llc" in r else "-",
                 "%s → %s" % (r.get("llc-scratch", "-"), r.get("plugin-scratch", "-"))]
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    out.append("The plugin's bound: pingpong-sim's resource bound of the plugin's build, the busiest unit's "
               "clocks per iteration (MFMA pipe, LDS port, the CU's L2/HBM share, issue turns); no order of the "
               "same instructions runs faster. ceiling = the better Triton / that bound: the most vs-best "
               "scheduling alone can reach.")
    out.append("")
    out.append("¹ fewer workgroups fit on the CU than the two 4-wave workgroups asked (VGPRs or LDS: the "
               "build's JSON row says which); the number is the CU's time for two workgroups' iterations, "
               "twice the cycles of the one that runs.")
    print("\n".join(out))


if __name__ == "__main__":
    main()
