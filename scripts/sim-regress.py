#!/usr/bin/env python3
"""sim-regress.py: does a change of pingpong-sim change what it computes?

`collect` runs one pingpong-sim binary over a fixed set of kernels and keeps everything it
prints; `compare` puts two such collections side by side and lists every difference, with the
run time per kernel before and after.

Kernels (each one a "case"):
  corpus/triton/*_pp0, *_pp1 (kernel.amdgcn), with bench/triton_bench.py's command line:
      run K --mcpu ARCH --iterations 32 --waves-per-workgroup W --workgroups-per-cu (2 if W == 4
      else 1) --gemm 8192,8192,8192 --tile BM,BN [--iterations-per-visit 32 for pmm_*]
  the dashboard's HIP kernels (bench/run-bench.sh): every INPUTS/hip/*.s, named as run-bench
      names them (BMxBNx64.wW.DT.mMF.TARGET.{plain,plugin}.s), with run-bench's command line
  INPUTS/extra/*.s: run --iterations 4, verify with its defaults
and for each case `verify` with the same shape options (no --json/--gemm/--tile; verify's own
default of 4 iterations).

Per case and per command the collection keeps: stdout, stderr, the exit code, user+sys CPU
seconds, the JSON (run) and the timeline SVG (run --timeline). With --values it also runs
verify with PPSIM_DEBUG_VALUES=1 (every unmodelled instruction and unknown LDS address, as
counted lines); with --dump, PPSIM_DUMP=1 (the instruction table the parser builds).

  scripts/sim-regress.py collect --sim build/bin/pingpong-sim --out build/simregress/after \\
        [--inputs build/simregress/inputs] [--jobs 2] [--filter SUBSTR] [--values] [--dump]
  scripts/sim-regress.py compare build/simregress/before build/simregress/after [--show 20]
  scripts/sim-regress.py timing --before OLD/pingpong-sim --after build/bin/pingpong-sim [--repeat 3]
        [--iterations 16] [--verify] [--filter SUBSTR]

timing runs both binaries alternately on every case (`run`, the case's options, --iterations N)
and prints the fastest of --repeat runs per case (user+sys CPU seconds) and the sums.

compare exits 1 if anything differs. It prints, per artefact, how many cases are identical,
the first differing lines of the others, and the per-kernel times (sum, median, max, and the
ratio after/before).
"""
import argparse
import collections
import concurrent.futures as cf
import difflib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "python"))
from amdgpu_pingpong import tools  # noqa: E402 (the one place that knows where the tools are)
from triton_bench import case_meta  # noqa: E402  (the benchmark's own reading of meta.json)

HIP_RE = re.compile(r"^(\d+)x(\d+)x64\.w(\d+)\.(\w+)\.m(\d+)\.(gfx9\d+)\.(plain|plugin)\.s$")
GEMM = "8192,8192,8192"
ITER = 32


def cases(args):
    """(name, input file, options for run, shape options shared with verify)."""
    out = []
    corpus = os.path.join(ROOT, "corpus", "triton")
    for d in sorted(os.listdir(corpus)):
        k = os.path.join(corpus, d, "kernel.amdgcn")
        if not re.search(r"_pp[01]$", d) or not os.path.exists(k):
            continue
        base = d[:-4]
        arch, waves, bm, bn, _, _ = case_meta(base, os.path.join(corpus, d))
        shape = ["--mcpu", arch, "--waves-per-workgroup", str(waves),
                 "--workgroups-per-cu", "2" if waves == 4 else "1"]
        if base.startswith("pmm"):
            shape += ["--iterations-per-visit", str(ITER)]
        run = ["--iterations", str(ITER), "--gemm", GEMM, "--tile", f"{bm},{bn}"]
        out.append(("triton/" + d, k, run, shape))
    hip = os.path.join(args.inputs, "hip")
    for f in sorted(os.listdir(hip)) if os.path.isdir(hip) else []:
        m = HIP_RE.match(f)
        if not m:
            continue
        bm, bn, w, _, _, t, _ = m.groups()
        shape = ["--mcpu", t, "--workgroups-per-cu", "2" if w == "4" else "1",
                 "--waves-per-workgroup", w]
        run = ["--iterations", str(ITER), "--gemm", GEMM, "--tile", f"{bm},{bn}"]
        out.append(("hip/" + f[:-2], os.path.join(hip, f), run, shape))
    extra = os.path.join(args.inputs, "extra")
    for f in sorted(os.listdir(extra)) if os.path.isdir(extra) else []:
        if f.endswith(".s"):
            out.append(("extra/" + f[:-2], os.path.join(extra, f), ["--iterations", "4"], []))
    return [c for c in out if args.filter in c[0]]


def run_one(cmd, cwd, env=None):
    t0 = time.time()
    pid = os.fork()
    if pid == 0:  # child: redirect and exec
        try:
            os.chdir(cwd)
            so = os.open(os.path.join(cwd, ".so"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            se = os.open(os.path.join(cwd, ".se"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(so, 1)
            os.dup2(se, 2)
            os.execve(cmd[0], cmd, env if env is not None else os.environ)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    rc = os.waitstatus_to_exitcode(status)
    with open(os.path.join(cwd, ".so")) as f:
        so = f.read()
    with open(os.path.join(cwd, ".se")) as f:
        se = f.read()
    os.remove(os.path.join(cwd, ".so"))
    os.remove(os.path.join(cwd, ".se"))
    return rc, so, se, ru.ru_utime + ru.ru_stime, time.time() - t0


_OCCUPANCY = {}


def occupancy_option(sim):
    """Whether this pingpong-sim binary has --occupancy (newer than 2026-11-23)."""
    if sim not in _OCCUPANCY:
        out = subprocess.run([sim, "--help"], capture_output=True, text=True).stdout
        _OCCUPANCY[sim] = "--occupancy" in out
    return _OCCUPANCY[sim]


def collect_case(args, case):
    name, src, run_opts, shape = case
    d = os.path.join(args.out, name)
    os.makedirs(d, exist_ok=True)
    res = {}
    cmd = [args.sim, "run", src] + shape + run_opts + ["--json", "run.json", "--timeline", "run.svg"]
    if occupancy_option(args.sim):
        # a binary that checks occupancy times what was asked, as older ones did
        cmd += ["--occupancy", "ignore"]
    rc, so, se, cpu, wall = run_one(cmd, d)
    res["run"] = {"rc": rc, "cpu": cpu, "wall": wall}
    for n, t in (("run.out", so), ("run.err", se)):
        with open(os.path.join(d, n), "w") as f:
            f.write(t)
    cmd = [args.sim, "verify", src] + shape
    rc, so, se, cpu, wall = run_one(cmd, d)
    res["verify"] = {"rc": rc, "cpu": cpu, "wall": wall}
    for n, t in (("verify.out", so), ("verify.err", se)):
        with open(os.path.join(d, n), "w") as f:
            f.write(t)
    if args.values:
        env = dict(os.environ, PPSIM_DEBUG_VALUES="1")
        rc, so, se, _, _ = run_one(cmd, d, env)
        counts = collections.Counter(se.splitlines())
        with open(os.path.join(d, "values.txt"), "w") as f:
            for line, n in sorted(counts.items()):
                f.write(f"{n:7d} {line}\n")
    if args.dump:
        env = dict(os.environ, PPSIM_DUMP="1")
        # a kernel name that does not exist: the parser's table, then an error
        rc, so, se, _, _ = run_one([args.sim, "run", src] + shape + ["--kernel", "__sim_regress__"], d, env)
        with open(os.path.join(d, "dump.txt"), "w") as f:
            f.write(se)
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump({"case": name, "input": src, "run_options": shape + run_opts, "verify_options": shape,
                   **res}, f, indent=1)
    return name, res


def collect(args):
    cs = cases(args)
    if not cs:
        sys.exit("sim-regress: no case")
    args.out = os.path.abspath(args.out)
    os.makedirs(args.out, exist_ok=True)
    # run a copy, so that a rebuild during the collection changes nothing
    snap = os.path.join(args.out, "pingpong-sim")
    shutil.copy2(os.path.abspath(args.sim), snap)
    args.sim = snap
    print(f"sim-regress: {len(cs)} cases, {args.jobs} at a time, into {args.out}", file=sys.stderr)
    t0 = time.time()
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        for n, (name, res) in enumerate(ex.map(lambda c: collect_case(args, c), cs), 1):
            if n % 20 == 0 or n == len(cs):
                print(f"  [{n}/{len(cs)}] {name}", file=sys.stderr, flush=True)
    print(f"sim-regress: done in {time.time() - t0:.0f} s", file=sys.stderr)


# ---------------------------------------------------------------- compare
ARTEFACTS = ("run.out", "run.err", "run.json", "run.svg", "verify.out", "verify.err", "values.txt",
             "dump.txt")


def read(p):
    try:
        with open(p) as f:
            return f.read()
    except FileNotFoundError:
        return None


def json_diff(a, b, path=""):
    """Differences between two JSON values as 'path: a -> b' lines."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in list(a) + [k for k in b if k not in a]:
            out += json_diff(a.get(k), b.get(k), f"{path}.{k}")
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += json_diff(x, y, f"{path}[{i}]")
        return out
    return [] if a == b else [f"{path}: {json.dumps(a)[:200]} -> {json.dumps(b)[:200]}"]


def compare(args):
    names = []
    for root, _, files in os.walk(args.before):
        if "meta.json" in files:
            names.append(os.path.relpath(root, args.before))
    names.sort()
    differ = collections.defaultdict(list)
    same = collections.Counter()
    missing = []
    times = {"run": [], "verify": []}
    for n in names:
        a, b = os.path.join(args.before, n), os.path.join(args.after, n)
        if not os.path.exists(os.path.join(b, "meta.json")):
            missing.append(n)
            continue
        ma, mb = json.load(open(os.path.join(a, "meta.json"))), json.load(open(os.path.join(b, "meta.json")))
        for c in ("run", "verify"):
            if ma[c]["rc"] != mb[c]["rc"]:
                differ[c + ".rc"].append((n, [f"exit code {ma[c]['rc']} -> {mb[c]['rc']}"]))
            else:
                same[c + ".rc"] += 1
            times[c].append((n, ma[c]["cpu"], mb[c]["cpu"]))
        for art in ARTEFACTS:
            ta, tb = read(os.path.join(a, art)), read(os.path.join(b, art))
            if ta is None and tb is None:
                continue
            if ta == tb:
                same[art] += 1
                continue
            if art == "run.json" and ta and tb:
                lines = json_diff(json.loads(ta), json.loads(tb))
            else:
                lines = [l for l in difflib.unified_diff((ta or "").splitlines(), (tb or "").splitlines(),
                                                         lineterm="", n=0)
                         if not l.startswith(("---", "+++", "@@"))]
            differ[art].append((n, lines))
    print(f"sim-regress compare: {len(names)} cases; before {args.before}, after {args.after}")
    if missing:
        print(f"  missing after: {len(missing)}: {' '.join(missing[:10])}")
    bad = bool(missing)
    for art in ("run.rc", "verify.rc") + ARTEFACTS:
        if not same[art] and not differ[art]:
            continue
        print(f"  {art:11s} identical in {same[art]} of {same[art] + len(differ[art])} cases")
        for n, lines in differ[art][:args.show]:
            bad = True
            print(f"    {n}: {len(lines)} differing line(s)")
            for l in lines[:args.lines]:
                print(f"      {l[:240]}")
        if len(differ[art]) > args.show:
            bad = True
            print(f"    ... and {len(differ[art]) - args.show} more cases")
    for c, ts in times.items():
        if not ts:
            continue
        ba = [t[1] for t in ts]
        af = [t[2] for t in ts]
        worst = max(ts, key=lambda t: t[2])
        print(f"  time {c:6s}: sum {sum(ba):7.2f} s -> {sum(af):7.2f} s ({sum(af) / max(sum(ba), 1e-9):.3f}x); "
              f"median {statistics.median(ba):.3f} -> {statistics.median(af):.3f} s; "
              f"max {max(ba):.3f} -> {max(af):.3f} s ({worst[0]})")
        if args.times:
            for n, x, y in ts:
                print(f"    {n:70s} {x:7.3f} {y:7.3f}  {y / max(x, 1e-9):.2f}x")
    return 1 if bad else 0


def timing(args):
    """Both binaries alternately, per case: the fastest of args.repeat runs."""
    cs = cases(args)
    tmp = os.path.abspath(os.path.join(args.out, "timing"))
    os.makedirs(tmp, exist_ok=True)
    rows = []
    for name, src, run_opts, shape in cs:
        opts = [o for o in run_opts]
        if "--iterations" in opts:
            opts[opts.index("--iterations") + 1] = str(args.iterations)
        cmd = "run"
        if args.verify:  # verify with its own default of 4 iterations
            cmd, opts = "verify", []
        best = {}
        for _ in range(args.repeat):
            for tag, sim in (("before", args.before), ("after", args.after)):
                occ = ["--occupancy", "ignore"] if cmd == "run" and occupancy_option(sim) else []
                rc, _, _, cpu, _ = run_one([os.path.abspath(sim), cmd, src] + shape + opts + occ, tmp)
                best[tag] = min(best.get(tag, 1e9), cpu)
        rows.append((name, best["before"], best["after"]))
        print(f"  {name:70s} {best['before']:7.3f} {best['after']:7.3f}  {best['after'] / max(best['before'], 1e-9):.2f}x",
              flush=True)
    b = sum(r[1] for r in rows)
    a = sum(r[2] for r in rows)
    worst = max(rows, key=lambda r: r[2])
    what = "verify" if args.verify else f"run --iterations {args.iterations}"
    print(f"sim-regress timing: {len(rows)} cases, {what}, fastest of {args.repeat}: "
          f"sum {b:.2f} s -> {a:.2f} s ({a / max(b, 1e-9):.3f}x); median {statistics.median(r[1] for r in rows):.3f} -> "
          f"{statistics.median(r[2] for r in rows):.3f} s; max {max(r[1] for r in rows):.3f} -> {worst[2]:.3f} s ({worst[0]})")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--sim", default=str(tools.in_build(tools.SIM_IN_BUILD)))
    c.add_argument("--out", required=True)
    c.add_argument("--inputs", default=os.path.join(ROOT, "build", "simregress", "inputs"))
    c.add_argument("--jobs", type=int, default=2)
    c.add_argument("--filter", default="")
    c.add_argument("--values", action="store_true")
    c.add_argument("--dump", action="store_true")
    p = sub.add_parser("compare")
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--show", type=int, default=20, help="cases shown per artefact")
    p.add_argument("--lines", type=int, default=12, help="lines shown per case")
    p.add_argument("--times", action="store_true", help="every case's times")
    t = sub.add_parser("timing")
    t.add_argument("--before", required=True)
    t.add_argument("--after", default=str(tools.in_build(tools.SIM_IN_BUILD)))
    t.add_argument("--inputs", default=os.path.join(ROOT, "build", "simregress", "inputs"))
    t.add_argument("--out", default=os.path.join(ROOT, "build", "simregress"))
    t.add_argument("--filter", default="")
    t.add_argument("--repeat", type=int, default=3)
    t.add_argument("--iterations", type=int, default=16)
    t.add_argument("--verify", action="store_true", help="time verify instead of run")
    args = ap.parse_args()
    if args.cmd == "timing":
        return timing(args)
    if args.cmd == "collect":
        collect(args)
        return 0
    return compare(args)


if __name__ == "__main__":
    sys.exit(main())
