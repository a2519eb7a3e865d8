"""corpus/triton/generate.py runs on the CPU and reproduces the committed corpus's LLVM IR.

A few cases here (one per kernel kind and target); the whole corpus: corpus/triton/check_regen.py
(docs/triton.md gives the last full run)."""
import os
import subprocess
import sys

import conftest as C

ROOT = os.path.dirname(os.path.dirname(C.HERE))
CASES = ["mm_f16_tn_256x256x64_w8_ns2_gfx942", "mm_fp8_tn_128x128x128_w4_ns2_gfx950",
         "attn_f16_128x64x128_w8_ns2_gfx942", "mxfp4_e2m1_128x128x512_w8_ns2_gfx950_async"]


def test_regenerating_reproduces_the_corpus_llir(tmp_path):
    cmd = [sys.executable, os.path.join(ROOT, "corpus", "triton", "check_regen.py"),
           "--out", str(tmp_path / "regen"), "--jobs", "2", "--stages", "llir,amdgcn"]
    for c in CASES:
        cmd += ["--filter", c]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    assert p.returncode == 0, p.stdout
    n = 2 * len(CASES)          # _pp0 and _pp1 of each
    assert f"regenerated {n} cases" in p.stdout
    assert f"{n} identical llir, {n} identical amdgcn; 0 llir differ" in p.stdout, p.stdout
