#!/usr/bin/env python3
"""calib-check.py CALIB_OUTPUT: every 'calib: NAME published P model R error E% config C'
line has E = (R/P - 1)*100 (to the printed precision) and C in {full, partial}; the
'calib: pairs N' line counts them. Every build row has ns/iter = cycles / GHz, and under
`(clock power)` its GHz is the power rule's at its own MFMA busy, f = min(peak, anchor x
(anchor busy / busy)^(1/3)), the anchors written here by hand (docs/cycle-model.md "Engine
clock under the power limit"). Exit 1 with the offending line otherwise."""
import re, sys
RULES = {"gfx942": (2.1, 1.207, 0.943), "gfx950": (2.4, 1.44, 0.995)}
pat = re.compile(r"^calib: (\S+) published ([0-9.]+) model ([0-9.]+) error ([-+][0-9.]+)% config (full|partial)")
row = re.compile(r"^(\S+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+(gfx9\d\d)$")
n = rows = 0
names = set()
power = False
for line in open(sys.argv[1]):
    line = line.rstrip()
    if line.startswith("build "):
        power = line.endswith("(clock power)")
        continue
    m = row.match(line)
    if m:
        cyc, busy, ghz, ns = (float(m.group(i)) for i in (2, 3, 4, 5))
        if abs(cyc / ghz - ns) > 0.06 + 0.002 * ns:
            sys.exit("ns/iter is not cycles / GHz: " + line)
        if power:
            peak, anchor, anchor_busy = RULES[m.group(7)]
            want = peak if busy <= 0 else min(peak, anchor * (anchor_busy / (busy / 100)) ** (1 / 3))
            if abs(ghz - want) > 0.01 * peak:  # the fixed point stops within a step of the rule
                sys.exit("clock %.3f is not the power rule's %.3f: %s" % (ghz, want, line))
        rows += 1
        continue
    if not line.startswith("calib: ") or line.startswith(("calib: pairs", "calib: full")):
        continue
    m = pat.match(line)
    if not m:
        sys.exit("bad line: " + line)
    name, p, r, e = m.group(1), float(m.group(2)), float(m.group(3)), float(m.group(4))
    if abs((r / p - 1) * 100 - e) > 0.11:
        sys.exit("error does not match the ratios: " + line)
    if name in names:
        sys.exit("pair twice: " + name)
    names.add(name)
    n += 1
m = [l for l in open(sys.argv[1]) if l.startswith("calib: pairs ")]
if not m or int(m[0].split()[2]) != n:
    sys.exit("pairs line does not count the %d pair lines" % n)
if rows != 2 * n:
    sys.exit("%d build rows for %d pairs" % (rows, n))
print("calib-check: %d pairs ok, %d build rows%s" % (n, rows, " at the power rule's clock" if power else ""))
