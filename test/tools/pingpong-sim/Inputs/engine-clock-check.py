#!/usr/bin/env python3
"""engine-clock-check.py RUN.json: the run's clock is the power rule's at its own MFMA busy,
f = min(peak, anchor clock x (anchor busy / busy)^(1/3)), with the anchors written here by hand
(docs/cycle-model.md "Engine clock under the power limit"): gfx942 MI300X MAF, 1.207 GHz at busy
0.943, peak 2.1; gfx950 AMD's MI355X Gluon GEMMs, 1.44 GHz at busy 0.995, peak 2.4 (session 15).
ns per iteration = cycles / clock. Prints the numbers; exit 1 on a mismatch."""
import json, sys
RULES = {"gfx942": (2.1, 1.207, 0.943), "gfx950": (2.4, 1.44, 0.995)}
d = json.load(open(sys.argv[1]))
peak, anchor, anchor_busy = RULES[d["mcpu"]]
busy, ghz = d["mfma_busy_pct"] / 100.0, d["clock_ghz"]
want = min(peak, anchor * (anchor_busy / busy) ** (1 / 3))
ok_clock = abs(ghz - want) <= 0.003 * peak  # the fixed point stops within 0.2 % of the peak
ok_ns = abs(d["ns_per_iteration"] - d["cycles_per_iteration"] / ghz) < 1e-6 * d["ns_per_iteration"]
print("%s: clock %.3f GHz, rule %.3f at busy %.3f: %s" % (d["mcpu"], ghz, want, busy, "ok" if ok_clock else "MISMATCH"))
print("ns per iteration %.1f = cycles %.1f / clock: %s" % (d["ns_per_iteration"], d["cycles_per_iteration"],
                                                           "ok" if ok_ns else "MISMATCH"))
sys.exit(0 if ok_clock and ok_ns else 1)
