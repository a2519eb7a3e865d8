#!/usr/bin/env python3
"""Mutation test of the wait/barrier checker (-amdgpu-pingpong-verify).

Compiles a kernel with the plugin up to the final waits (MIR after
amdgpu-insert-delay-alu), then deletes each s_waitcnt and each s_barrier of
the kernel in turn -- one per copy -- and runs the checker on the copy.
Prints one line per mutation (caught / missed, and the checker's finding)
and a summary "N of M mutations caught".
usage: mutate-sync.py LLVM_BIN PLUGIN INPUT.ll MCPU OUTDIR [--loop-only] [llc args...]
"""
import os, re, subprocess, sys

bindir, plugin, ll, mcpu, out = sys.argv[1:6]
rest = sys.argv[6:]
loop_only = "--loop-only" in rest
rest = [a for a in rest if a != "--loop-only"]
llc = os.path.join(bindir, "llc")
os.makedirs(out, exist_ok=True)
base = os.path.join(out, "final.mir")
subprocess.run([llc, "-load", plugin, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", "-O3", ll,
                "-stop-after=amdgpu-insert-delay-alu", "-o", base] + rest, check=True)
lines = open(base).read().split("\n")

# Blocks: "  bb.N..." headers; the loop is the block that branches to itself.
block_of, cur = [], None
for l in lines:
    m = re.match(r"\s*bb\.(\d+)", l)
    if m and l.rstrip().endswith(":"):
        cur = m.group(1)
    block_of.append(cur)
loops = {b for i, (l, b) in enumerate(zip(lines, block_of))
         if b and re.search(r"S_CBRANCH_\w+ %bb\." + b + r"\b", l)}

def check(text):
    path = os.path.join(out, "mutant.mir")
    open(path, "w").write(text)
    r = subprocess.run([llc, "-load", plugin, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}",
                        "-run-pass=amdgpu-pingpong-sync-check", "-amdgpu-pingpong-verify",
                        path, "-o", os.devnull], capture_output=True, text=True)
    m = re.search(r"amdgpu-pingpong-verify: (.*)", r.stderr)
    return r.returncode != 0 and m is not None, (m.group(1) if m else r.stderr.strip()[-200:])

ok, msg = check("\n".join(lines))
if not ok and "amdgpu-pingpong-verify" not in msg:
    print("unmutated kernel: clean")
else:
    print("unmutated kernel: FINDING " + msg)
    sys.exit(1)

caught = total = 0
for i, l in enumerate(lines):
    s = l.strip()
    if not (s.startswith("S_WAITCNT ") or s == "S_BARRIER" or s.startswith("S_BARRIER ")):
        continue
    if loop_only and block_of[i] not in loops:
        continue
    total += 1
    ok, msg = check("\n".join(lines[:i] + lines[i + 1:]))
    caught += ok
    where = "loop" if block_of[i] in loops else "bb." + str(block_of[i])
    print(f"{'caught' if ok else 'MISSED'}: delete `{s}` (line {i + 1}, {where})"
          + (f": {msg[:400]}" if ok else ""))
print(f"{caught} of {total} mutations caught")
