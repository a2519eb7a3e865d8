#!/usr/bin/env python3
"""Compile-time cost of the plugin (a benchmark, not a test).

For the test GEMM kernels and the synthetic single-block loops of
bench/gen_synthetic.py (5k..40k instructions) it reports:
  - llc wall time without the plugin and with it loaded (auto), minimum of R
    interleaved runs (this machine's wall clock varies by +-20% between
    identical runs, so the reliable comparison is the next column);
  - llc's executed instructions (valgrind/callgrind, deterministic) without
    and with the plugin loaded (auto), and the difference in percent;
  - the time of the plugin's passes from -time-passes with the mode forced
    (one-cluster), so the whole path (analysis, planning, emission) runs even
    where auto would reject the loop, and that time per loop instruction
    (flat when the cost grows linearly).
usage: bench/compile-time.py [--build build] [--reps 5] [--sizes 5000,10000,20000,40000]
"""
import argparse, os, re, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
L = "/usr/lib/llvm-22/bin"

def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True)

def walls(cmds, reps):
    """Minimum wall time of each command over reps rounds, run interleaved so
    that machine noise hits all of them alike."""
    best = [float("inf")] * len(cmds)
    for _ in range(reps):
        for i, cmd in enumerate(cmds):
            t = time.perf_counter()
            run(cmd)
            best[i] = min(best[i], time.perf_counter() - t)
    return best

def icount(cmd):
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                         capture_output=True, text=True)
    m = re.search(r"Collected : (\d+)", out.stderr)
    return int(m.group(1)) if m else 0

def pass_time(cmd):
    out = run(cmd + ["-time-passes"]).stderr
    total = 0.0
    for line in out.splitlines():
        if "AMDGPU block pingpong" in line:
            # columns: user, system, user+system, wall (seconds then percent)
            nums = re.findall(r"(\d+\.\d+) \(", line)
            total += float(nums[-1])
    return total

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

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(HERE, "build"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--sizes", default="5000,10000,20000,40000")
    a = ap.parse_args()
    plugin = os.path.join(a.build, "lib", "AMDGPUPingpong.so")
    tmp = tempfile.mkdtemp(prefix="pp-ctime-")
    inputs = []
    kern = os.path.join(HERE, "test", "kernels", "gemm.hip")
    for name, cpu, flags in [
        ("gemm 128x128x64 w4 f16", "gfx942", ["-DBM=128", "-DBN=128", "-DWAVES=4"]),
        ("gemm 256x128x64 w8 f16", "gfx942", ["-DBM=256", "-DBN=128", "-DWAVES=8"]),
        ("gemm 256x256x64 w8 bf16 32x32", "gfx942", ["-DBM=256", "-DBN=256", "-DWAVES=8", "-DMFMA=32", "-DDTYPE=bf16"]),
        ("gemm 256x256x64 w8 f16", "gfx950", ["-DBM=256", "-DBN=256", "-DWAVES=8"]),
    ]:
        ll = os.path.join(tmp, name.replace(" ", "_") + ".ll")
        run([f"{L}/clang++", "-x", "hip", f"--offload-arch={cpu}", "-nogpulib", "-nogpuinc",
             "--offload-device-only", "-O3", "-S", "-emit-llvm", kern, "-o", ll] + flags)
        inputs.append((name, cpu, ll))
    for n in [int(x) for x in a.sizes.split(",")]:
        ll = os.path.join(tmp, f"syn{n}.ll")
        run([sys.executable, os.path.join(HERE, "bench", "gen_synthetic.py"), "-n", str(n),
             "--loads", "buffer", "-o", ll])
        inputs.append((f"synthetic N={n}", "gfx942", ll))

    print("| input | target | loop instrs | llc plain (s) | llc + plugin, auto (s) | llc plain (G instr) | llc + plugin, auto (G instr) | added | pingpong passes, forced (ms) | share of llc | us per loop instr |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, cpu, ll in inputs:
        base = [f"{L}/llc", "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-O3", ll]
        s = os.path.join(tmp, "plain.s")
        t_plain, t_plug = walls([base + ["-o", s], base + ["-load", plugin, "-o", os.devnull]], a.reps)
        n = loop_instrs(s)
        pt = pass_time(base + ["-load", plugin, "-amdgpu-pingpong=one-cluster", "-o", os.devnull]) \
            if name.startswith("synthetic") else \
            pass_time(base + ["-load", plugin, "-o", os.devnull])
        i_plain = icount(base + ["-o", os.devnull])
        i_plug = icount(base + ["-load", plugin, "-o", os.devnull])
        print(f"| {name} | {cpu} | {n} | {t_plain:.3f} | {t_plug:.3f} | "
              f"{i_plain / 1e9:.3f} | {i_plug / 1e9:.3f} | "
              f"{100 * (i_plug - i_plain) / max(i_plain, 1):+.2f}% | {1000 * pt:.1f} | "
              f"{100 * pt / t_plain:.1f}% | {1e6 * pt / max(n, 1):.2f} |")

if __name__ == "__main__":
    main()
