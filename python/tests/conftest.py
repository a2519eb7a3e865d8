"""Shared helpers: compile the project corpus's Triton kernels (corpus/triton/kernels.py, the
one copy of them) for gfx942/gfx950 with Triton 3.6 (no GPU), each test in its own Triton cache,
the hook disabled after every test."""
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "corpus", "triton")
KERNELS_PY = os.path.join(CORPUS, "kernels.py")
sys.path.insert(0, HERE)
sys.path.insert(1, CORPUS)

import triton  # noqa: E402
from triton import knobs  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

import amdgpu_pingpong.triton as pp  # noqa: E402
from amdgpu_pingpong.tools import Tools  # noqa: E402

import kernels  # noqa: E402

D16 = [["tt.divisibility", 16]]
PTR = [["tt.divisibility", 16], ["tt.pointer_range", 32]]
OUT = {"fp16": "fp16", "bf16": "bf16", "fp8e4b8": "fp16", "fp8e4nv": "fp16"}


def _src(fn, sig, cst, ptrs, ints):
    attrs = {(fn.arg_names.index(k),): PTR for k in ptrs}
    attrs.update({(fn.arg_names.index(k),): D16 for k in ints})
    sig = dict(sig, **{k: "constexpr" for k in cst})
    return ASTSource(fn=fn, signature=sig, constexprs=cst, attrs=attrs)


def gemm_src(dtype, layout, bm, bn, bk):
    sig = {"A": "*" + dtype, "B": "*" + dtype, "C": "*" + OUT[dtype], "M": "i32", "N": "i32",
           "K": "i32", "lda": "i32", "ldb": "i32", "ldc": "i32"}
    return _src(kernels.gemm, sig, {"BM": bm, "BN": bn, "BK": bk, "GROUP": 1,
                                     "B_NK": layout == "TN"},
                "ABC", ("M", "N", "K", "lda", "ldb", "ldc"))


def attn_src(dtype, bm, bn, d):
    sig = {"Q": "*" + dtype, "K": "*" + dtype, "V": "*" + dtype, "O": "*" + dtype, "scale": "fp32",
           "ldq": "i32", "ldk": "i32", "ldv": "i32", "ldo": "i32", "SEQ": "i32"}
    return _src(kernels.attn_fwd, sig, {"BM": bm, "BN": bn, "D": d}, "QKVO",
                ("ldq", "ldk", "ldv", "ldo", "SEQ"))


def mxfp4_src(bm, bn, bk):
    sig = {"A": "*u8", "B": "*u8", "SA": "*u8", "SB": "*u8", "C": "*bf16", "M": "i32", "N": "i32",
           "K": "i32", "lda": "i32", "ldb": "i32", "ldsa": "i32", "ldsb": "i32", "ldc": "i32"}
    return _src(kernels.gemm_mxfp4, sig, {"BM": bm, "BN": bn, "BK": bk}, ("A", "B", "SA", "SB", "C"),
                ("M", "N", "K", "lda", "ldb", "ldsa", "ldsb", "ldc"))


def compile_src(src, arch, warps, stages, async_copy=False, **opts):
    """triton.compile for `arch` (TRITON_HIP_USE_ASYNC_COPY as asked, Triton's other defaults)."""
    old = knobs.amd.use_async_copy
    knobs.amd.use_async_copy = async_copy
    try:
        return triton.compile(src, target=GPUTarget("hip", arch, 64),
                              options=dict(num_warps=warps, num_stages=stages, **opts))
    finally:
        knobs.amd.use_async_copy = old


def count(pattern, text):
    return len(re.findall(pattern, text, re.M))


def disassemble(hsaco: bytes, arch: str, tmp_path) -> str:
    """llvm-objdump -d of a code object."""
    p = tmp_path / "k.hsaco"
    p.write_bytes(hsaco)
    return subprocess.run(["/usr/lib/llvm-22/bin/llvm-objdump", "-d", f"--mcpu={arch}", str(p)],
                          check=True, stdout=subprocess.PIPE, text=True).stdout


def kernel_abi(hsaco: bytes, tmp_path) -> dict:
    """What the launcher relies on in a code object: the ELF target flags, the target id and, per
    kernel, the kernel arguments' layout and the kernarg segment size (llvm-readobj --notes)."""
    p = tmp_path / "abi.hsaco"
    p.write_bytes(hsaco)
    out = subprocess.run(["/usr/lib/llvm-22/bin/llvm-readobj", "--file-headers", "--notes", str(p)],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    flags = re.search(r"Flags \[ \((0x[0-9A-Fa-f]+)\)", out).group(1)
    target = re.search(r"amdhsa\.target:\s+(\S+)", out).group(1)
    keep = re.compile(r"^\s*-?\s*\.(offset|size|value_kind|address_space|kernarg_segment_size|"
                      r"kernarg_segment_align|wavefront_size|max_flat_workgroup_size|name):")
    return {"flags": flags, "target": target,
            "kernels": [l.strip() for l in out.splitlines() if keep.match(l)]}


def sim_verify(asm: str, tmp_path) -> subprocess.CompletedProcess:
    p = tmp_path / "final.s"
    p.write_text(asm)
    return subprocess.run([str(Tools.find().sim), "verify", str(p)], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


@pytest.fixture(scope="session", autouse=True)
def _tools_built():
    missing = Tools.find().missing()
    assert not missing, "; ".join(missing)   # fail, never skip: dev.sh builds them first


@pytest.fixture(autouse=True)
def triton_cache(tmp_path, monkeypatch):
    """A Triton cache of the test's own; the hook off before and after."""
    d = tmp_path / "triton-cache"
    monkeypatch.setenv("TRITON_CACHE_DIR", str(d))
    old = knobs.cache.dir
    knobs.cache.dir = str(d)
    pp.disable()
    yield d
    pp.disable()
    knobs.cache.dir = old
