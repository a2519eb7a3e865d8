#!/usr/bin/env python3
"""calib-check.py CALIB_OUTPUT: every 'calib: NAME published P model R error E% config C'
line has E = (R/P - 1)*100 (to the printed precision) and C in {full, partial}; the
'calib: pairs N' line counts them. Exit 1 with the offending line otherwise."""
import re, sys
pat = re.compile(r"^calib: (\S+) published ([0-9.]+) model ([0-9.]+) error ([-+][0-9.]+)% config (full|partial)")
n = 0
names = set()
for line in open(sys.argv[1]):
    if not line.startswith("calib: ") or line.startswith(("calib: pairs", "calib: full")):
        continue
    m = pat.match(line)
    if not m:
        sys.exit("bad line: " + line.rstrip())
    name, p, r, e = m.group(1), float(m.group(2)), float(m.group(3)), float(m.group(4))
    if abs((r / p - 1) * 100 - e) > 0.11:
        sys.exit("error does not match the ratios: " + line.rstrip())
    if name in names:
        sys.exit("pair twice: " + name)
    names.add(name)
    n += 1
m = [l for l in open(sys.argv[1]) if l.startswith("calib: pairs ")]
if not m or int(m[0].split()[2]) != n:
    sys.exit("pairs line does not count the %d pair lines" % n)
print("calib-check: %d pairs ok" % n)
