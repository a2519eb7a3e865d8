#!/usr/bin/env python3
"""prologue-barrier.py SIM IN.s OUT.s [verify options...]: Triton's four-stage attention
kernels refill K's first LDS buffer by DMA in the prologue while another wave may still read
it (no s_barrier between: Triton's own race, test/tools/pingpong-sim/verify-attn-prologue.test;
plain llc-22 keeps it). Verify stops at its first finding, so to check the loop this inserts
`s_waitcnt lgkmcnt(0)` + `s_barrier` (every wave runs it) before each such prologue DMA and
writes OUT.s. Only findings whose DMA comes before the loop header are touched; exits 1 if
none was found (nothing to fix: the test should not need this) or after 4 tries."""
import re
import subprocess
import sys

sim, src, dst, opts = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
lines = open(src).read().split("\n")
header = next(i for i, l in enumerate(lines) if "Loop Header" in l)
fixed = 0
for _ in range(4):
    open(dst, "w").write("\n".join(lines))
    r = subprocess.run([sim, "verify", dst] + opts, capture_output=True, text=True)
    m = re.search(r"LDS race: .* LDS DMA write at line (\d+) .* and read at line (\d+)", r.stdout + r.stderr)
    if not m or int(m.group(1)) - 1 >= header or int(m.group(2)) - 1 >= header:
        break
    at = int(m.group(1)) - 1
    lines[at:at] = ["\ts_waitcnt lgkmcnt(0)", "\ts_barrier"]
    header += 2
    fixed += 1
print("prologue-barrier: %d prologue DMA race(s) fenced" % fixed)
sys.exit(0 if fixed else 1)
