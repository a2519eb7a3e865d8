#!/usr/bin/env python3
"""Run pingpong-sim on two assembly files with the same options and print
"A <cycles> B <cycles> speedup <A/B>" from the model's JSON report.
usage: faster.py A.s B.s [pingpong-sim run options...]"""
import json, subprocess, sys, tempfile, os

a, b, opts = sys.argv[1], sys.argv[2], sys.argv[3:]
res = []
for f in (a, b):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as t:
        out = t.name
    subprocess.run(["pingpong-sim", "run", f, "--json", out] + opts, check=True,
                   stdout=subprocess.DEVNULL)
    res.append(json.load(open(out))["cycles_per_iteration"])
    os.unlink(out)
print(f"A {res[0]:.1f} B {res[1]:.1f} speedup {res[0] / res[1]:.3f}")
print("B faster" if res[1] < res[0] else "B not faster")
