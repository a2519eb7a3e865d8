#!/usr/bin/env python3
"""Does regenerating the corpus reproduce it? (Triton 3.6.0 on the CPU; no device needed)

usage: check_regen.py [--filter SUBSTR ...] [--jobs N] [--out DIR] [--stages llir,ttgir,amdgcn]
                      [--compare-only]

Runs generate.py for the cases (all, or those matching a filter) into OUT (a temporary
directory by default; --compare-only: compare what OUT holds) and compares each stage file with
the committed one after normalising what depends on the machine that compiled it, not on the
compiler: the checkout's path (debug info, MLIR locations, .file directives) and Triton's
install path (its language files in the debug info); in the assembly, the .debug_str offset
comments those paths' lengths move.
Prints one line per differing file (and its first differing line), then
"regenerated N cases: M identical llir, ..." and exits 1 if an llir differs or a case that the
corpus has failed to compile. Only llir is compared by default: it is the plugin's input.
"""
import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def normalise(text):
    """Paths of the machine that compiled, not of the compiler: the checkout's corpus/triton
    (debug info, locations, .file directives) and Triton's install directory."""
    text = re.sub(r'/[^"\s:]*?/corpus/triton', "<corpus>", text)
    text = re.sub(r'/[^"\s:]*?/site-packages/triton', "<triton>", text)
    # .debug_str: a longer path moves the offsets of the strings after it (a comment only)
    text = re.sub(r'[ \t]*; string offset=\d+', "", text)
    return text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--filter", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--out")
    ap.add_argument("--stages", default="llir")
    ap.add_argument("--compare-only", action="store_true")
    a = ap.parse_args()
    out = a.out or tempfile.mkdtemp(prefix="corpus-regen-")
    if a.compare_only:
        return compare(out, a.stages.split(","))
    cmd = [sys.executable, os.path.join(HERE, "generate.py"), out, "--jobs", str(a.jobs)]
    for f in a.filter:
        cmd += ["--filter", f]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=HERE)
    if p.returncode != 0:
        print(p.stdout[-3000:])
        print(f"check_regen: generate.py exited {p.returncode}")
        return 1
    print("generate.py: " + (p.stdout.strip().splitlines() or [""])[-1])
    return compare(out, a.stages.split(","))


def compare(out, stages):
    cases = sorted(d for d in os.listdir(out) if os.path.isdir(os.path.join(out, d)))
    same = {s: 0 for s in stages}
    bad = 0
    for case in cases:
        for stage in stages:
            mine = os.path.join(HERE, case, "kernel." + stage)
            new = os.path.join(out, case, "kernel." + stage)
            if not os.path.exists(mine):
                continue            # the corpus has no such file (a failed case): nothing to compare
            if not os.path.exists(new):
                print(f"{case}/kernel.{stage}: not regenerated")
                bad += stage == "llir"
                continue
            with open(mine) as f1, open(new) as f2:
                t1, t2 = normalise(f1.read()), normalise(f2.read())
            if t1 == t2:
                same[stage] += 1
                continue
            bad += stage == "llir"
            diff = next((l for l in difflib.unified_diff(t1.splitlines(), t2.splitlines(), lineterm="", n=0)
                         if l[:1] in "+-" and not l.startswith(("+++", "---"))), "")
            print(f"{case}/kernel.{stage}: differs, first: {diff[:160]}")
    # cases that fail inside Triton fail the same way (FAILED.txt: "case: status: error")
    def failed(path):
        try:
            with open(path) as f:
                return {l.split(":", 1)[0] for l in f if l.strip()}
        except OSError:
            return set()
    want = failed(os.path.join(HERE, "FAILED.txt")) & set(cases)
    got = failed(os.path.join(out, "FAILED.txt"))
    if want != got:
        print(f"FAILED.txt: the corpus lists {sorted(want)}, the regeneration {sorted(got)}")
        bad += 1
    print(f"regenerated {len(cases)} cases into {out}: " +
          ", ".join(f"{same[s]} identical {s}" for s in stages) + f"; {bad} llir differ or missing")
    return 1 if bad or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
