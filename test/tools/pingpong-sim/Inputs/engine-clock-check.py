#!/usr/bin/env python3
"""engine-clock-check.py RUN.json: the run's clock is the power rule's at its own MFMA busy
(MI300X MAF anchor: 1.207 GHz at busy 0.943, f ~ busy^(-1/3), never above the 2.1 GHz peak) and
ns per iteration = cycles / clock. Prints the numbers; exit 1 on a mismatch."""
import json, sys
d = json.load(open(sys.argv[1]))
busy, ghz = d["mfma_busy_pct"] / 100.0, d["clock_ghz"]
want = min(2.1, 1.207 * (0.943 / busy) ** (1 / 3))
ok_clock = abs(ghz - want) <= 0.003 * 2.1  # the fixed point stops within 0.2 % of the peak
ok_ns = abs(d["ns_per_iteration"] - d["cycles_per_iteration"] / ghz) < 1e-6 * d["ns_per_iteration"]
print("clock %.3f GHz, rule %.3f at busy %.3f: %s" % (ghz, want, busy, "ok" if ok_clock else "MISMATCH"))
print("ns per iteration %.1f = cycles %.1f / clock: %s" % (d["ns_per_iteration"], d["cycles_per_iteration"],
                                                           "ok" if ok_ns else "MISMATCH"))
sys.exit(0 if ok_clock and ok_ns else 1)
