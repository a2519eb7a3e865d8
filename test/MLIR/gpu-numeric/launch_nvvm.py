#!/usr/bin/env python3
"""Runs the PTX kernels run-nvvm.sh prepared, with the CUDA driver API through
ctypes (libcuda.so.1 only), and checks C against check_gemm.reference().

  launch_nvvm.py DIR      (DIR/manifest.txt: name tile waves shape expect)
"""
import array
import ctypes
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
import check_gemm  # noqa: E402

from cuda_driver import Driver  # noqa: E402

_driver = Driver("launch_nvvm.py")
cuda, check, device_buffer = _driver.cuda, _driver.check, _driver.device_buffer


def run_one(d, name, tile, waves, shape):
    gm, gn, gk = shape
    bm, bn, _ = tile
    ptx = open(os.path.join(d, name + ".ptx"), "rb").read() + b"\0"
    mod = ctypes.c_void_p()
    check(cuda.cuModuleLoadData(ctypes.byref(mod), ptx), f"cuModuleLoadData {name}")
    fn = ctypes.c_void_p()
    check(cuda.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()), "cuModuleGetFunction")
    A, B = check_gemm.inputs(shape)
    dA = device_buffer(struct.pack(f"<{len(A)}e", *A))
    dB = device_buffer(struct.pack(f"<{len(B)}e", *B))
    dC = device_buffer(b"\xff" * (4 * gm * gn))  # NaN: an unwritten C shows
    args = [dA, dB, dC]
    params = (ctypes.c_void_p * 3)(*[ctypes.cast(ctypes.byref(a), ctypes.c_void_p) for a in args])
    grid = (gm // bm) * (gn // bn)
    check(cuda.cuLaunchKernel(fn, grid, 1, 1, 64 * waves, 1, 1, 0, None, params, None),
          "cuLaunchKernel")
    check(cuda.cuCtxSynchronize(), "cuCtxSynchronize")
    out = ctypes.create_string_buffer(4 * gm * gn)
    check(cuda.cuMemcpyDtoH_v2(out, dC, ctypes.c_size_t(4 * gm * gn)), "cuMemcpyDtoH")
    for a in args:
        cuda.cuMemFree_v2(a)
    cuda.cuModuleUnload(mod)
    return list(array.array("f", out.raw))


def init_context():
    return _driver.init_context()[0]


def one(d, line):
    """Run one manifest line in this process; print one result line. A CUDA
    fault (e.g. an out-of-range shared-memory access of a buggy kernel)
    poisons the context, so the parent runs every kernel in its own process."""
    name, tile, waves, shape, expect = line.split()
    tile = tuple(int(x) for x in tile.split(","))
    shape = tuple(int(x) for x in shape.split(","))
    init_context()
    try:
        got = run_one(d, name, tile, int(waves), shape)
    except RuntimeError as e:
        # A kernel that faults computes no result: it cannot match.
        ok = expect == "mismatch"
        print(f"{name:22s} fault    ({e}) expected {expect}: {'ok' if ok else 'FAIL'}")
        return 0 if ok else 1
    notes = []
    bad = check_gemm.compare(got, check_gemm.reference(tile, int(waves), shape), shape[1],
                             out=notes.append)
    result = "match" if bad == 0 else "mismatch"
    ok = result == expect
    print(f"{name:22s} {result:8s} ({bad} of {shape[0] * shape[1]} differ) "
          f"expected {expect}: {'ok' if ok else 'FAIL'}")
    if not ok:
        for n in notes:
            print("   ", n)
    return 0 if ok else 1


def main():
    d = sys.argv[1]
    if len(sys.argv) > 3 and sys.argv[2] == "--one":
        return one(d, sys.argv[3])
    print(f"device: {init_context()}", flush=True)
    failures = 0
    for line in open(os.path.join(d, "manifest.txt")):
        if not line.strip():
            continue
        r = subprocess.run([sys.executable, os.path.abspath(__file__), d, "--one", line.strip()])
        failures += r.returncode != 0
    print("all expectations hold" if not failures else f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
