#!/usr/bin/env python3
"""Checks the C matrix a gemm.py kernel printed (printMemrefF32 text) against the kernel's function computed here.

  check_gemm.py --tile BM,BN,BK --waves W --shape M,N,K OUTPUT

(gpu-numeric/launch_nvvm.py imports reference() and compare() from here.)

The kernels of gemm.py --cpu / --no-mfma compute, for each lane of each wave,
acc[m][n][j] = sum over K tiles and K steps of a[j] * b[j] on the lane's two
4-element fragments, stored at C[m0 + wm*WTM + 16m + 4*(lane/16) + j,
n0 + wn*WTN + 16n + lane%16]. With the inputs of gemm.py's main,
A[i][k] = ((7i + 3k) % 17 - 8) / 8 and B[j][k] = ((5j + 11k) % 13 - 6) / 8,
that is a dot of one row of A and one row of B over the k of one residue
class mod 16. Exit 0 when every element matches, 1 (with the first
differences) otherwise.
"""
import argparse
import re
import sys


def parse(text):
    text = text.split("data =", 1)[-1]
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d*)?(?:e[-+]?\d+)?|nan|inf", text)]


def wave_grid(waves, bm, bn):
    """Waves along M and N of the gemm.py kernels (the same grid as test/kernels/gemm.hip)."""
    if waves == 4:
        return 2, 2
    return (4, 2) if bm >= bn else (2, 4)


def reference(tile, waves, shape, valid_rows=None):
    """C as the gemm.py kernels compute it (row-major list of floats); rows of
    A from valid_rows on read as 0 (gemm.py --valid-rows)."""
    bm, bn, bk = tile
    gm, gn, gk = shape
    wgm, wgn = wave_grid(waves, bm, bn)
    wtm, wtn = bm // wgm, bn // wgn
    A = [[((7 * i + 3 * k) % 17 - 8) / 8 if valid_rows is None or i < valid_rows else 0.0
          for k in range(gk)] for i in range(gm)]
    B = [[((5 * j + 11 * k) % 13 - 6) / 8 for k in range(gk)] for j in range(gn)]
    C = []
    for r in range(gm):
        rb = r - r % wtm            # the wave's first row
        m, rr = divmod(r - rb, 16)
        kgrp, j = divmod(rr, 4)
        for c in range(gn):
            cb = c - c % wtn
            n, frow = divmod(c - cb, 16)
            ra, rbv = A[rb + 16 * m + frow], B[cb + 16 * n + frow]
            C.append(sum(ra[k] * rbv[k] for k in range(4 * kgrp + j, gk, 16)))
    return C


def inputs(shape):
    """A and B of gemm.py's main, row-major lists."""
    gm, gn, gk = shape
    A = [((7 * i + 3 * k) % 17 - 8) / 8 for i in range(gm) for k in range(gk)]
    B = [((5 * j + 11 * k) % 13 - 6) / 8 for j in range(gn) for k in range(gk)]
    return A, B


def compare(got, ref, gn, out=print):
    """Number of elements that differ (the first few printed)."""
    if len(got) != len(ref):
        out(f"expected {len(ref)} values, got {len(got)}")
        return max(1, len(ref))
    bad = 0
    for i, (x, y) in enumerate(zip(got, ref)):
        if not abs(x - y) <= 1e-4 * max(1.0, abs(y)):
            if bad < 5:
                out(f"C[{i // gn}][{i % gn}] = {x}, expected {y}")
            bad += 1
    return bad


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tile", required=True)
    p.add_argument("--waves", type=int, required=True)
    p.add_argument("--shape", required=True)
    p.add_argument("--valid-rows", type=int, default=None)
    p.add_argument("output")
    a = p.parse_args()
    tile = tuple(int(x) for x in a.tile.split(","))
    shape = tuple(int(x) for x in a.shape.split(","))
    got = parse(open(a.output).read())
    bad = compare(got, reference(tile, a.waves, shape, a.valid_rows), shape[1])
    if bad:
        print(f"{bad} of {shape[0] * shape[1]} values differ")
        return 1
    print(f"all {shape[0] * shape[1]} values match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
