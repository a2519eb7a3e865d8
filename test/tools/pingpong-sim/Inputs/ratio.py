#!/usr/bin/env python3
"""ratio.py TABLE NAME... : from a calib.sh / run-bench-style table (first
column the variant name, last column its speedup/ratio), print
'NAME faster|slower RATIO' for each NAME, so a test can CHECK the direction
without hard-coding a number that depends on the kernel compile."""
import sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 2:
        rows[f[0]] = f[-1]
for name in sys.argv[2:]:
    if name not in rows:
        print(f"{name} missing")
        continue
    r = float(rows[name])
    print(f"{name} {'faster' if r > 1.0 else 'slower'} {r:.3f}")
