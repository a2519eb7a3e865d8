#!/usr/bin/env python3
"""Check the plugin on every kernel of a Triton corpus against an expectation table.

For each case directory (NAME_pp0 / NAME_pp1 with kernel.llir or kernel.ll, target from meta.json
or the name) runs

  llc -O3 -verify-machineinstrs -load AMDGPUPingpong.so -amdgpu-pingpong-verify
      -pass-remarks=amdgpu-pingpong -pass-remarks-missed=amdgpu-pingpong

and reduces the outcome to one line: `scheduled <mode>`, `kept <reason>` (a loop Triton already
scheduled), `refused <reason>` or `error <message>` (llc failed: verifier, checker, crash). With
--expect FILE, every line must match the file's line for that case (the file holds `case<TAB>outcome`
with the outcome as a prefix: a reason may be abbreviated); a missing, extra or different case
fails. --update rewrites the file from the results. Exit status: 0 if all match, 1 otherwise.
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
from amdgpu_pingpong import tools  # noqa: E402 (the one place that knows where the tools are)
LLVM_BIN = str(tools.LLVM_BIN)


def arch_of(name, d):
    mj = os.path.join(d, "meta.json")
    if os.path.exists(mj):
        with open(mj) as f:
            a = json.load(f).get("arch")
        if a:
            return a
    m = re.search(r"gfx9\d+", name)
    return m.group(0) if m else None


def outcome(args, case):
    d = os.path.join(args.corpus, case)
    ir = next((os.path.join(d, n) for n in ("kernel.llir", "kernel.ll")
               if os.path.exists(os.path.join(d, n))), None)
    arch = arch_of(case, d)
    mj = os.path.join(d, "meta.json")
    if not ir and os.path.exists(mj):
        with open(mj) as f:
            status = json.load(f).get("status", "")
        if status != "ok":
            return case, f"skipped Triton did not compile it ({status})"
    if not ir or not arch:
        return case, "error no kernel.llir or target"
    cmd = [os.path.join(LLVM_BIN, "llc"), "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={arch}", "-O3",
           "-verify-machineinstrs", "-load", args.plugin, "-amdgpu-pingpong-verify",
           "-pass-remarks=amdgpu-pingpong", "-pass-remarks-missed=amdgpu-pingpong",
           ir, "-o", os.devnull] + args.llc_args
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return case, f"error timeout after {args.timeout} s"
    text = p.stdout
    if p.returncode:
        first = next((l for l in text.splitlines() if "error" in l.lower() or "Bad machine" in l),
                     text.strip().splitlines()[0] if text.strip() else f"exit {p.returncode}")
        return case, "error " + re.sub(r"^.*?error: ", "", first)[:160]
    m = re.search(r": ((?:async-)?(?:one|two|four)-cluster|chained-dot|skinny|single-wave|custom layout) \((?:auto|command line|function "
                  r"attribute|loop metadata)\)", text)
    if m:
        return case, "scheduled " + m.group(1)
    m = re.search(r"no pingpong: (.*)", text)
    if m:
        why = m.group(1).strip()
        if why.startswith("loop already carries"):
            return case, "kept " + why
        return case, "refused " + why
    return case, "refused no MFMA loop"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--expect")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--filter", default="")
    ap.add_argument("--plugin", default=str(tools.in_build(tools.PLUGIN_IN_BUILD)))
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("llc_args", nargs="*")
    a = ap.parse_args()
    a.corpus = os.path.abspath(a.corpus)
    cases = sorted(n for n in os.listdir(a.corpus)
                   if re.search(r"_pp[01]$", n) and a.filter in n
                   and os.path.isdir(os.path.join(a.corpus, n)))
    if not cases:
        sys.exit(f"triton-corpus-check: no NAME_pp0/NAME_pp1 case in {a.corpus}")
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        results = dict(ex.map(lambda c: outcome(a, c), cases))
    for c in cases:
        print(f"{c}\t{results[c]}")
    counts = {}
    for r in results.values():
        counts[r.split(" ")[0]] = counts.get(r.split(" ")[0], 0) + 1
    print("summary: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) +
          f" of {len(cases)} kernels")
    if a.update and a.expect:
        with open(a.expect, "w") as f:
            f.write("# case<TAB>outcome (prefix): written by scripts/triton-corpus-check.py --update\n")
            for c in cases:
                f.write(f"{c}\t{results[c]}\n")
        return 0
    if not a.expect:
        return 1 if counts.get("error") else 0
    expected = {}
    with open(a.expect) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                k, _, v = line.rstrip("\n").partition("\t")
                expected[k] = v
    bad = 0
    for c in sorted(set(cases) | set(expected)):
        got, want = results.get(c), expected.get(c)
        if want is None or got is None or not got.startswith(want):
            print(f"MISMATCH {c}: expected '{want}', got '{got}'")
            bad += 1
    print(f"triton-corpus-check: {len(cases) - bad} of {len(set(cases) | set(expected))} as expected")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
