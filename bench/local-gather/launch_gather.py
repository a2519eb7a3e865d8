#!/usr/bin/env python3
"""Times the gather kernels bench/local-gather.sh prepared (PTX) with the CUDA
driver API through ctypes (libcuda.so.1 only: no toolkit, no numpy), checks
each result against gather.reference(), prints the table.

  launch_gather.py DIR     (DIR/manifest.txt: name form bucket rnumel maxgrid threads vec)

Environment: REPS (timed launches, median; default 21), WARMUP (default 3),
GRID (blocks; default 4 per SM, at most the kernel's maxgrid), DISTS (index
distributions, default "uniform clustered"), SEED (default 3).
Exit 0 when every kernel ran and matched.
"""
import ctypes
import os
import random
import statistics
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "test", "MLIR", "Inputs"))
import gather  # noqa: E402  (base_values, reference)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "test", "MLIR", "gpu-numeric"))
from cuda_driver import Driver  # noqa: E402

_driver = Driver("launch_gather.py")
cuda, check, device_buffer = _driver.cuda, _driver.check, _driver.device_buffer
init_context = _driver.init_context
# CUDA 12.8 added cuEventElapsedTime_v2 (same arguments); older drivers have
# only the first.
elapsed = getattr(cuda, "cuEventElapsedTime_v2", None) or cuda.cuEventElapsedTime


def indices(dist, bucket, rnumel, seed):
    """uniform: independent, uniform over the bucket. clustered: runs of 32
    nearby indices (a random start, then +1 each with a jitter of 0..3)."""
    rng = random.Random(f"{seed}-{dist}-{bucket}-{rnumel}")
    if dist == "uniform":
        return [rng.randrange(bucket) for _ in range(rnumel)]
    if dist == "clustered":
        out = []
        while len(out) < rnumel:
            start = rng.randrange(bucket)
            out += [(start + j + rng.randrange(4)) % bucket for j in range(32)]
        return out[:rnumel]
    raise SystemExit(f"unknown distribution {dist}")


class Kernel:
    def __init__(self, d, name):
        ptx = open(os.path.join(d, name + ".ptx"), "rb").read() + b"\0"
        self.mod = ctypes.c_void_p()
        check(cuda.cuModuleLoadData(ctypes.byref(self.mod), ptx), f"cuModuleLoadData {name}")
        self.fn = ctypes.c_void_p()
        check(cuda.cuModuleGetFunction(ctypes.byref(self.fn), self.mod, name.encode()),
              f"cuModuleGetFunction {name}")


def time_kernel(k, args, grid, threads, warmup, reps):
    """Median and min of `reps` launches in microseconds, each between two events."""
    params = (ctypes.c_void_p * len(args))(*[ctypes.cast(ctypes.byref(a), ctypes.c_void_p)
                                             for a in args])
    start, stop = ctypes.c_void_p(), ctypes.c_void_p()
    check(cuda.cuEventCreate(ctypes.byref(start), 0), "cuEventCreate")
    check(cuda.cuEventCreate(ctypes.byref(stop), 0), "cuEventCreate")
    launch = lambda: check(cuda.cuLaunchKernel(k.fn, grid, 1, 1, threads, 1, 1, 0, None,
                                               params, None), "cuLaunchKernel")
    for _ in range(warmup):
        launch()
    check(cuda.cuCtxSynchronize(), "cuCtxSynchronize (warm-up)")
    times = []
    for _ in range(reps):
        check(cuda.cuEventRecord(start, None), "cuEventRecord")
        launch()
        check(cuda.cuEventRecord(stop, None), "cuEventRecord")
        check(cuda.cuEventSynchronize(stop), "cuEventSynchronize")
        ms = ctypes.c_float()
        check(elapsed(ctypes.byref(ms), start, stop), "cuEventElapsedTime")
        times.append(ms.value * 1000.0)
    cuda.cuEventDestroy_v2(start)
    cuda.cuEventDestroy_v2(stop)
    return statistics.median(times), min(times)


def main():
    d = sys.argv[1]
    reps = int(os.environ.get("REPS", "21"))
    warmup = int(os.environ.get("WARMUP", "3"))
    dists = os.environ.get("DISTS", "uniform clustered").split()
    seed = os.environ.get("SEED", "3")
    devname, sms = init_context()
    rows = [l.split() for l in open(os.path.join(d, "manifest.txt")) if l.strip()]
    print(f"device: {devname}, {sms} SMs; median of {reps} (after {warmup} warm-up), "
          f"CUDA events, microseconds", flush=True)
    # (bucket, rnumel) -> {form: row}
    pairs = {}
    for name, form, bucket, rnumel, maxgrid, threads, vec in rows:
        pairs.setdefault((int(bucket), int(rnumel)), {})[form] = (
            name, int(maxgrid), int(threads), int(vec))
    failures = 0
    table = []
    for (bucket, rnumel), forms in sorted(pairs.items()):
        base = gather.base_values(bucket)
        dbase = device_buffer(struct.pack(f"<{bucket}f", *base))
        for dist in dists:
            idx = indices(dist, bucket, rnumel, seed)
            didx = device_buffer(struct.pack(f"<{rnumel}i", *idx))
            result = {}
            for form in ("global", "local"):
                if form not in forms:
                    continue
                name, maxgrid, threads, vec = forms[form]
                grid = min(int(os.environ.get("GRID", str(4 * sms))), maxgrid)
                want = gather.reference(base, idx, threads, vec)
                dout = device_buffer(b"\xff" * (4 * maxgrid * threads))  # NaN: unwritten shows
                try:
                    k = Kernel(d, name)
                    med, best = time_kernel(k, [dbase, didx, dout], grid, threads, warmup, reps)
                    out = ctypes.create_string_buffer(4 * grid * threads)
                    check(cuda.cuMemcpyDtoH_v2(out, dout, ctypes.c_size_t(4 * grid * threads)),
                          "cuMemcpyDtoH")
                    got = struct.unpack(f"<{grid * threads}f", out.raw)
                    bad = sum(1 for i, g in enumerate(got) if g != want[i % threads])
                    cuda.cuModuleUnload(k.mod)
                except RuntimeError as e:
                    print(f"{name} {dist}: {e}")
                    failures += 1
                    # a fault poisons the context: stop here
                    print_table(table)
                    return 1
                cuda.cuMemFree_v2(dout)
                if bad:
                    print(f"{name} {dist}: {bad} of {grid * threads} values differ from the reference")
                    failures += 1
                result[form] = (med, best, grid)
            cuda.cuMemFree_v2(didx)
            if "global" in result and "local" in result:
                table.append((bucket, dist, rnumel, forms["local"][2] * forms["local"][3],
                              result["global"], result["local"]))
        cuda.cuMemFree_v2(dbase)
    print_table(table)
    print("all results match the reference" if not failures else f"{failures} failed")
    return 1 if failures else 0


def print_table(table):
    print()
    print("| bucket (f32) | indices | per block (iterations) | blocks | global us (min) "
          "| local_gather us (min) | global / local |")
    print("|---|---|---|---|---|---|---|")
    for bucket, dist, rnumel, rblock, (gm, gb, grid), (lm, lb, _) in table:
        print(f"| {bucket} ({bucket * 4 // 1024} KiB) | {dist} | {rnumel} ({rnumel // rblock}) | {grid} "
              f"| {gm:.1f} ({gb:.1f}) | {lm:.1f} ({lb:.1f}) | {gm / lm:.3f} |")


if __name__ == "__main__":
    sys.exit(main())
