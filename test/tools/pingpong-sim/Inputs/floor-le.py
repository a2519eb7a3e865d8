"""floor-le.py RUN.json...: each run's cycles per iteration is at least its floor (pingpong-sim's
"floor": the largest of the resource bound, the latency floor and the barrier-drain bound), within 1 % for the
steady-state window's edges. Prints one line per run; exit 1 if any run is under its floor."""
import json
import sys

bad = 0
for p in sys.argv[1:]:
    r = json.load(open(p))
    c, f = r["cycles_per_iteration"], r["floor"]["cycles_per_iteration"]
    lf = r["latency_floor"]
    ok = c >= 0.99 * f and f > 0
    bad += not ok
    print(f"{'ok' if ok else 'UNDER'}: cycles {c:.1f} floor {f:.1f} ({r['floor']['binds']}); "
          f"latency floor {lf['cycles_per_iteration']:.1f} ({lf['kind']})")
sys.exit(1 if bad else 0)
