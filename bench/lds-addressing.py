#!/usr/bin/env python3
"""LDS base-address folding (issue 12), measured on the Triton corpus.

For every corpus kernel (NAME_pp0/kernel.llir), llc-22 -O3 + AMDGPUPingpong twice: with the
fold off (-amdgpu-pingpong-lds-addressing=false) and on (the default). For each build, from the
assembly of the hot loop (the loop with the most MFMAs): VALU and SALU instructions per
iteration (v_mfma/v_smfmac and s_waitcnt/s_barrier/s_setprio/s_nop/branches not counted),
the kernel's VGPRs (NumVgprs + AGPRs) and ScratchSize, and the cycle model's cycles per
iteration (pingpong-sim run, the same options as bench/triton_bench.py). The fold's remark
says per loop whether it applied.

With --dma the two builds differ only in the LDS DMA destination fold
(-amdgpu-pingpong-lds-dma-destinations=false vs on; the DS fold on in both).

usage: bench/lds-addressing.py [--corpus DIR] [--out DIR] [--filter SUBSTR] [--jobs N]
                               [--markdown] [--json FILE] [--llc-arg OPT]... [--dma]
A build or model run that fails is "-" (OUT/<case>.<build>.log), never a number.
"""
import argparse
import concurrent.futures as cf
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from triton_bench import LLVM_BIN, ROOT, case_meta, first_existing, run, scratch, tools  # noqa: E402

NOT_COUNTED = re.compile(r"^(v_mfma|v_smfmac|s_waitcnt|s_barrier|s_setprio|s_nop|s_cbranch|s_branch|"
                         r"s_sleep|s_endpgm|s_sched|s_delay)")


def hot_loop(asm_text):
    """Instruction mnemonics of the loop (header label .. backward branch) with the most MFMAs."""
    lines = asm_text.splitlines()
    best, best_mfma = None, -1
    for i, l in enumerate(lines):
        m = re.match(r"^(\.LBB\d+_\d+):.*Loop Header", l)
        if not m:
            continue
        label = m.group(1)
        body = []
        for l2 in lines[i + 1:]:
            t = l2.strip()
            if not t or t.startswith((";", ".")):
                continue
            mn = t.split()[0]
            body.append(mn)
            if mn.startswith("s_cbranch") and t.split()[-1] == label:
                break
        n = sum(1 for x in body if x.startswith(("v_mfma", "v_smfmac")))
        if n > best_mfma:
            best, best_mfma = body, n
    return best


def counts(asm):
    text = open(asm).read()
    body = hot_loop(text)
    if not body:
        return None
    valu = sum(1 for x in body if x.startswith("v_") and not NOT_COUNTED.match(x))
    salu = sum(1 for x in body if x.startswith("s_") and not NOT_COUNTED.match(x))
    vg = re.search(r"; NumVgprs: (\d+)", text)
    ag = re.search(r"; NumAgprs: (\d+)", text)
    return {"valu": valu, "salu": salu,
            "vgprs": (int(vg.group(1)) if vg else 0) + (int(ag.group(1)) if ag else 0),
            "scratch": scratch(asm)}


def one(args, base):
    d0 = os.path.join(args.corpus, base + "_pp0")
    ir = first_existing(d0, ("kernel.llir", "kernel.ll"))
    arch, waves, bm, bn, lds = case_meta(base, d0)
    row = {"case": base, "arch": arch}
    out = os.path.join(args.out, base)
    off = ["-amdgpu-pingpong-lds-dma-destinations=false"] if args.dma else ["-amdgpu-pingpong-lds-addressing=false"]
    for b, extra in (("off", off), ("on", [])):
        s, log = f"{out}.{b}.s", f"{out}.{b}.log"
        open(log, "w").close()
        cmd = [os.path.join(LLVM_BIN, "llc"), "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={arch}", "-O3",
               ir, "-o", s, "-load", args.plugin, "-pass-remarks=amdgpu-pingpong",
               "-pass-remarks-analysis=amdgpu-pingpong"] + extra + args.llc_arg
        rc, text = run(cmd, log)
        if rc != 0:
            continue
        if b == "on":
            what = "LDS DMA destinations" if args.dma else "LDS addresses"
            row["folded"] = what + " folded" in text
            kept = re.search(what + r" kept(?: \(\d+ M0 writes\))?: ([^(\n]*)", text)
            row["why"] = kept.group(1).strip() if kept and not row["folded"] else ""
        c = counts(s)
        if not c:
            continue
        for k, v in c.items():
            row[f"{k}-{b}"] = v
        if waves and bm:
            j = f"{out}.{b}.json"
            cmd = [args.sim, "run", s, "--mcpu", arch, "--iterations", "16",
                   "--waves-per-workgroup", str(waves), "--workgroups-per-cu",
                   "2" if waves == 4 else "1", "--gemm", "8192,8192,8192", "--tile", f"{bm},{bn}",
                   "--json", j, "--occupancy", "fit"]
            if lds:
                cmd += ["--lds-bytes", str(lds)]
            if base.startswith("pmm"):
                cmd += ["--iterations-per-visit", "16"]
            rc, _ = run(cmd, log)
            if rc == 0 and os.path.exists(j):
                # the CU's time for the asked workgroups where fewer fit (bench/triton_bench.py)
                row[f"cycles-{b}"] = json.load(open(j))["cycles_per_iteration_at_asked_occupancy"]
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=os.path.join(ROOT, "corpus", "triton"))
    ap.add_argument("--out", default="/tmp/lds-addressing")
    ap.add_argument("--plugin", default=str(tools.in_build(tools.PLUGIN_IN_BUILD)))
    ap.add_argument("--sim", default=str(tools.in_build(tools.SIM_IN_BUILD)))
    ap.add_argument("--filter", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--dma", action="store_true",
                    help="measure the LDS DMA destination (M0) fold alone")
    ap.add_argument("--llc-arg", action="append", default=[],
                    help="an extra llc option for both builds (repeatable)")
    ap.add_argument("--json")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    cases = sorted(d[:-4] for d in os.listdir(args.corpus)
                   if d.endswith("_pp0") and args.filter in d and
                   first_existing(os.path.join(args.corpus, d), ("kernel.llir", "kernel.ll")))
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        rows = list(ex.map(lambda b: one(args, b), cases))
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)

    def f(r, k):
        v = r.get(k)
        return "-" if v is None else (f"{v:.1f}" if isinstance(v, float) else str(v))
    heads = ["case", "folded", "VALU/iter", "SALU/iter", "VGPRs", "scratch", "cycles/iter"]
    sep = " | " if args.markdown else "  "
    if args.markdown:
        print("| " + " | ".join(heads) + " |")
        print("|" + "---|" * len(heads))
    for r in rows:
        cells = [r["case"], "yes" if r.get("folded") else ("no: " + r.get("why", "") if "folded" in r else "-")]
        for k in ("valu", "salu", "vgprs", "scratch", "cycles"):
            cells.append(f"{f(r, k + '-off')} → {f(r, k + '-on')}")
        print(("| " if args.markdown else "") + sep.join(cells) + (" |" if args.markdown else ""))
    folded = [r for r in rows if r.get("folded")]
    dv = [r["valu-off"] - r["valu-on"] for r in folded if "valu-on" in r and "valu-off" in r]
    dg = [r["vgprs-off"] - r["vgprs-on"] for r in folded if "vgprs-on" in r and "vgprs-off" in r]
    cy = [r["cycles-off"] / r["cycles-on"] for r in folded if r.get("cycles-on") and r.get("cycles-off")]
    print(f"\n{len(folded)} of {len(rows)} kernels folded; VALU per iteration saved: "
          f"{sum(dv)} in all (max {max(dv, default=0)}); VGPRs freed: {sum(dg)} in all "
          f"(range {min(dg, default=0)}..{max(dg, default=0)}); cycles off/on geomean "
          f"{math.exp(sum(map(math.log, cy)) / len(cy)) if cy else float('nan'):.4f} over {len(cy)}")


if __name__ == "__main__":
    main()
