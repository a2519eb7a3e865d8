"""pingpong-triton-check: "does the plugin help my kernel?" in one command."""
import json
import os
import subprocess
import sys

import conftest as C


def test_check_prints_the_table_and_verdict(tmp_path):
    out = tmp_path / "rows.json"
    cmd = [sys.executable, "-m", "amdgpu_pingpong.triton.check",
           C.KERNELS_PY + ":gemm", "--arch", "gfx942", "--num-warps", "8",
           "--sig", "*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32", "BM=256", "BN=256", "BK=64",
           "GROUP=1", "B_NK=True", "--option", "matrix_instr_nonkdim=16", "--json", str(out),
           "--keep", str(tmp_path / "keep")]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300,
                       env=dict(os.environ, TRITON_CACHE_DIR=str(tmp_path / "cache")))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "tile 256x256" in lines[0]
    assert lines[1].split()[:3] == ["build", "cycles/iter", "MFMA"]
    for label in ("triton (pp off)", "triton (pp on)", "llc-22", "plugin", "enable()"):
        assert any(l.startswith(label) for l in lines), label
    rows = json.loads(out.read_text())["rows"]
    assert rows["plugin"]["note"] == "four-cluster (auto)"
    assert all(r["verify"] for r in rows.values())
    assert rows["plugin"]["ns"] < rows["triton (pp off)"]["ns"]
    assert rows["enable()"]["cycles"] == rows["plugin"]["cycles"]
    assert rows["enable()"]["ns"] == rows["plugin"]["ns"]
    assert "verdict: enable() keeps the plugin's code for gemm" in p.stdout
    assert (tmp_path / "keep" / "plugin.s").read_text().count("s_setprio") == 8


def test_check_usage_errors(tmp_path):
    cmd = [sys.executable, "-m", "amdgpu_pingpong.triton.check",
           C.KERNELS_PY + ":gemm", "BM=256", "BN=256", "BK=64", "GROUP=1",
           "B_NK=True"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    assert p.returncode != 0 and "--sig needs the types of A, B, C" in p.stderr
