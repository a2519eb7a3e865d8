#!/usr/bin/env python3
"""The floor invariant (issue 25): no build of the corpus runs faster than its own floor.

Reads bench/triton_bench.py's --json rows and, for every build (triton, triton-pp, llc, plugin)
that ran, compares its cycles per iteration with its floor (pingpong-sim's "floor": the largest of
the resource bound, the latency floor and the barrier-drain bound, at the asked occupancy). Prints one line per
build that breaks the invariant (cycles < floor x (1 - TOL)), a summary of which floor binds per
target and build, and the ratio cycles / floor (how much of the gap a schedule could still close).
Exit 1 if any build is under its floor.

usage: bench/floor-check.py OUT.json [--tolerance 0.01]
"""
import argparse
import collections
import json
import math
import sys

BUILDS = ("triton", "triton-pp", "llc", "plugin")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json")
    ap.add_argument("--tolerance", type=float, default=0.01,
                    help="the steady-state window's edge effects (default 1 %%)")
    a = ap.parse_args()
    rows = json.load(open(a.json))
    bad = 0
    n = 0
    binds = collections.Counter()
    ratio = collections.defaultdict(list)
    for r in rows:
        for b in BUILDS:
            if b not in r or b + "-floor" not in r:
                continue
            n += 1
            c, f = r[b], r[b + "-floor"]
            kind = r[b + "-floor-binds"].split(" (")[0]
            binds[(r.get("arch"), b, kind)] += 1
            ratio[(r.get("arch"), b)].append(c / f)
            if c < f * (1 - a.tolerance):
                bad += 1
                print(f"UNDER FLOOR: {r['case']} {b}: {c:.1f} cycles/iteration < floor {f:.1f} ({r[b + '-floor-binds']})")
    for (arch, b), xs in sorted(ratio.items()):
        g = math.exp(sum(math.log(x) for x in xs) / len(xs))
        kinds = ", ".join(f"{k} {v}" for (ar, bb, k), v in sorted(binds.items()) if ar == arch and bb == b)
        print(f"{arch} {b}: {len(xs)} builds, cycles/floor geomean {g:.3f} (min {min(xs):.3f}, max {max(xs):.3f}); binds: {kinds}")
    print(f"floor-check: {n} builds, {bad} under their floor (tolerance {a.tolerance:.0%})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
