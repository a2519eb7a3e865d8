#!/usr/bin/env python3
"""Compile-time cost of the plugin (a benchmark, not a test).

Instruction counts come from valgrind/callgrind: they are deterministic, while
this machine's wall clock varies by +-20% between identical llc runs.
For the test GEMM kernels (auto mode, the plugin applies its mode) and the
synthetic single-block loops of bench/gen_synthetic.py (mode forced to
one-cluster so analysis, planning and emission all run), it reports:
  - llc's instructions without the plugin;
  - the instructions spent inside the plugin's three passes (callgrind
    --toggle-collect), their share of plain llc, and per loop instruction
    (flat when the plugin's cost grows linearly with the loop);
  - llc's instructions with the plugin loaded, end to end, and the
    difference; this includes LLVM compiling the transformed code and the
    effect of the plugin's IR pass on LLVM's analysis order.

--corpus: instead, every corpus/triton/*_pp0/kernel.llir (the IR the model's
benchmark compiles), plain llc against llc with the plugin, each the best of
--repeat runs of `llc -time-passes` (user+system CPU of the pass timers; the
2-core machine is shared, so CPU time, not wall, and the best of several).
Prints the overhead per kernel and, for those above --threshold percent, where
the time goes (the passes whose time grew most). With --threshold it exits 1
when a kernel is above it (a check run by hand: docs/compile-time.md).
usage: bench/compile-time.py [--build build] [--sizes 2500,5000,10000,20000]
       bench/compile-time.py --corpus [--repeat 3] [--threshold 5] [--only SUBSTR]
"""
import argparse, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(HERE, "python"))
from amdgpu_pingpong import tools  # noqa: E402 (the one place that knows where the tools are)
L = str(tools.LLVM_BIN)
OWN = ["*PingpongSchedule::runOnMachineFunction*", "*PingpongFinalCheck::runOnMachineFunction*",
       "*PingpongLoopDirectives::runOnFunction*"]

def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True)

def icount(cmd, toggles=()):
    vg = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    vg += [f"--toggle-collect={t}" for t in toggles]
    out = subprocess.run(vg + cmd, capture_output=True, text=True)
    m = re.search(r"Collected : (\d+)", out.stderr)
    if not m:
        sys.exit("callgrind failed: " + out.stderr[-400:])
    return int(m.group(1))

def loop_instrs(s_file):
    n, on = 0, False
    for line in open(s_file):
        if "=>This Inner Loop Header" in line:
            on, n = True, 0
            continue
        if on:
            t = line.strip()
            if t and not t.startswith(";") and not t.endswith(":"):
                n += 1
            if t.startswith("s_cbranch_scc") or t.startswith("s_cbranch_vcc"):
                on = False
    return n

def pass_times(cmd):
    """(total, {pass: seconds}) of llc's pass execution timing report."""
    err = subprocess.run(cmd + ["-time-passes"], check=True, capture_output=True,
                         text=True).stderr
    rep = err.split("Pass execution timing report", 1)[-1]
    total = float(re.search(r"Total Execution Time: ([\d.]+) seconds", rep).group(1))
    passes = {}
    for line in rep.splitlines():
        cols = re.findall(r"([\d.]+) \(\s*[\d.]+%\)", line)
        name = re.sub(r"^(\s*[\d.]+ \(\s*[\d.]+%\))+\s*", "", line).strip()
        if len(cols) >= 2 and name and name != "Total":
            # user, [system, user+system,] wall: the CPU column before wall
            passes[name] = passes.get(name, 0.0) + float(cols[-2])
    return total, passes

def best_of(cmd, n):
    return min((pass_times(cmd) for _ in range(n)), key=lambda r: r[0])

def corpus(a, plugin):
    import glob, json
    rows, over = [], []
    for ir in sorted(glob.glob(os.path.join(HERE, "corpus", "triton", "*_pp0", "kernel.llir"))):
        case = os.path.basename(os.path.dirname(ir))
        if a.only and a.only not in case:
            continue
        arch = json.load(open(os.path.join(os.path.dirname(ir), "meta.json")))["arch"]
        base = [f"{L}/llc", "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={arch}", "-O3", ir,
                "-o", os.devnull]
        pt, pp = best_of(base, a.repeat)
        wt, wp = best_of(base + ["-load", plugin], a.repeat)
        pct = 100 * (wt - pt) / pt
        rows.append(pct)
        print(f"{case:48} {pt * 1e3:8.1f} ms {wt * 1e3:8.1f} ms {pct:+7.1f}%", flush=True)
        if a.threshold is not None and pct > a.threshold:
            over.append(case)
            grew = sorted(set(pp) | set(wp), key=lambda k: pp.get(k, 0) - wp.get(k, 0))
            for k in grew[:4]:
                print(f"    {k:52} {pp.get(k, 0) * 1e3:7.1f} -> {wp.get(k, 0) * 1e3:7.1f} ms")
    print(f"kernels {len(rows)}, mean overhead {sum(rows) / max(len(rows), 1):+.1f}%, "
          f"max {max(rows, default=0):+.1f}%")
    if a.threshold is not None:
        print(f"above {a.threshold}%: {len(over)}" + (" (" + ", ".join(over) + ")" if over else ""))
        return 1 if over else 0
    return 0

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=str(tools.in_build(".")))
    ap.add_argument("--sizes", default="2500,5000,10000,20000")
    ap.add_argument("--corpus", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threshold", type=float)
    ap.add_argument("--only", help="corpus kernels whose name contains this")
    a = ap.parse_args()
    plugin = os.path.join(a.build, tools.PLUGIN_IN_BUILD)
    if a.corpus:
        sys.exit(corpus(a, plugin))
    tmp = tempfile.mkdtemp(prefix="pp-ctime-")
    inputs = []
    kern = os.path.join(HERE, "test", "kernels", "gemm.hip")
    for name, cpu, flags in [
        ("gemm 128x128x64 4w f16 (one-cluster)", "gfx942", ["-DBM=128", "-DBN=128", "-DWAVES=4"]),
        ("gemm 256x128x64 8w f16 (two-cluster)", "gfx942", ["-DBM=256", "-DBN=128", "-DWAVES=8"]),
        ("gemm 256x256x64 8w bf16 32x32 (four-cluster)", "gfx942",
         ["-DBM=256", "-DBN=256", "-DWAVES=8", "-DMFMA=32", "-DDTYPE=bf16"]),
        ("gemm 256x256x64 8w f16 (four-cluster)", "gfx950", ["-DBM=256", "-DBN=256", "-DWAVES=8"]),
    ]:
        ll = os.path.join(tmp, re.sub(r"\W+", "_", name) + ".ll")
        run([f"{L}/clang++", "-x", "hip", f"--offload-arch={cpu}", "-nogpulib", "-nogpuinc",
             "--offload-device-only", "-O3", "-S", "-emit-llvm", kern, "-o", ll] + flags)
        inputs.append((name, cpu, ll, []))
    for n in [int(x) for x in a.sizes.split(",")]:
        ll = os.path.join(tmp, f"syn{n}.ll")
        run([sys.executable, os.path.join(HERE, "bench", "gen_synthetic.py"), "-n", str(n),
             "--loads", "buffer", "-o", ll])
        inputs.append((f"synthetic N={n} (forced one-cluster)", "gfx942", ll,
                       ["-amdgpu-pingpong=one-cluster"]))

    print("| input | target | loop instrs | llc (G instr) | plugin passes (M instr) | share | instr per loop instr | llc + plugin (G instr) | end to end |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, cpu, ll, extra in inputs:
        base = [f"{L}/llc", "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-O3", ll]
        s = os.path.join(tmp, "plain.s")
        plain = icount(base + ["-o", s])
        n = loop_instrs(s)
        withp = base + ["-load", plugin, "-o", os.devnull] + extra
        own = icount(withp, OWN)
        total = icount(withp)
        print(f"| {name} | {cpu} | {n} | {plain / 1e9:.3f} | {own / 1e6:.1f} | "
              f"{100 * own / plain:.2f}% | {own / max(n, 1):.0f} | {total / 1e9:.3f} | "
              f"{100 * (total - plain) / plain:+.2f}% |", flush=True)

if __name__ == "__main__":
    main()
