#!/usr/bin/env python3
"""Compile the GEMM kernel matrix of issue 2 (3 tiles x 2 targets x 2 types x
2 MFMA sizes) with the plugin and print, per kernel, the mode auto chose, the
final check, the scratch size and the wait/barrier
checker's verdict: one line each, for FileCheck.
usage: matrix.py LLVM_BIN PLUGIN KERNEL OUTDIR"""
import os, re, subprocess, sys

bindir, plugin, kernel, out = sys.argv[1:5]
clang = os.path.join(bindir, "clang++")
llc = os.path.join(bindir, "llc")
os.makedirs(out, exist_ok=True)
for tgt in ("gfx942", "gfx950"):
    for bm, bn, waves in ((128, 128, 4), (256, 128, 8), (256, 256, 8)):
        for dt in ("f16", "bf16"):
            for mf in (16, 32):
                name = f"{bm}x{bn}x64.w{waves}.{dt}.m{mf}.{tgt}"
                ll = os.path.join(out, name + ".ll")
                subprocess.run([clang, "-x", "hip", f"--offload-arch={tgt}", "-nogpulib", "-nogpuinc",
                                "--offload-device-only", "-O3", "-S", "-emit-llvm", kernel, "-o", ll,
                                f"-DBM={bm}", f"-DBN={bn}", "-DBK=64", f"-DWAVES={waves}",
                                f"-DMFMA={mf}", f"-DDTYPE={dt}"], check=True)
                r = subprocess.run([llc, "-load", plugin, "-verify-machineinstrs", "-mtriple=amdgcn-amd-amdhsa",
                                    f"-mcpu={tgt}", "-O3", ll, "-o", "-",
                                    "-pass-remarks=amdgpu-pingpong", "-pass-remarks-missed=amdgpu-pingpong",
                                    "-pass-remarks-analysis=amdgpu-pingpong",
                                    "-amdgpu-pingpong-verify"],
                                   capture_output=True, text=True)
                if r.returncode:
                    print(f"{name}: llc failed: {r.stderr[-500:]}")
                    continue
                m = re.search(r": (one|two|four)-cluster \(auto\)", r.stderr)
                mode = m.group(1) + "-cluster" if m else "none"
                fc = re.search(r"(\d+) dot clusters intact, waits inside them: (\d+)", r.stderr)
                check = f"{fc.group(1)} dots intact, {fc.group(2)} waits inside" if fc else "no final check"
                scratch = re.search(r"; ScratchSize: (\d+)", r.stdout).group(1)
                clean = len(re.findall(r"wait/barrier check, .*whole kernel path.*: no finding", r.stderr))
                print(f"{name}: {mode}; {check}; scratch {scratch}; checker clean on {clean} loop(s)")
