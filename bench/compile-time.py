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
usage: bench/compile-time.py [--build build] [--sizes 2500,5000,10000,20000]
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

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=str(tools.in_build(".")))
    ap.add_argument("--sizes", default="2500,5000,10000,20000")
    a = ap.parse_args()
    plugin = os.path.join(a.build, tools.PLUGIN_IN_BUILD)
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
