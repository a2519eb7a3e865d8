#!/usr/bin/env python3
"""Triton corpus benchmark: the plugin against Triton's own output, in the cycle model.

For every case of a Triton corpus (pairs of directories NAME_pp0 / NAME_pp1, compiled by Triton
with its BlockPingpong off / on), four builds of the same kernel run in pingpong-sim:

  triton      Triton's own assembly, its pingpong off   (NAME_pp0/kernel.amdgcn or kernel.s)
  triton-pp   Triton's own assembly, its pingpong on    (NAME_pp1/...)
  llc         plain llc-22 -O3 on Triton's LLVM IR      (NAME_pp0/kernel.llir or kernel.ll)
  plugin      llc-22 -O3 + AMDGPUPingpong on the same IR
  four-wave   the same with -amdgpu-pingpong-four-wave-attention, only where the plugin's remark
              names that option (auto kept LLVM's order on a 4-wave attention loop)

and the table gives cycles per K iteration (GEMM 8192^3 through the model's L2 reuse rule,
--gemm/--tile), MFMA busy %, the mode the plugin chose (or why it refused), the spills
(ScratchSize) of llc and plugin, and the ratios of time per iteration
  vs-best = min(race-free triton, triton-pp) / plugin      vs-llc = llc / plugin      (> 1: plugin faster).
  vs-best-hook = the same over the fastest verify-clean build of plugin, four-wave and llc-22
                 (LLVM 22's order, which the hook also times where auto scheduled a loop): what
                 amdgpu_pingpong.triton times against Triton's own code.
Every build is also checked by `pingpong-sim verify` (BUILD-verify in the JSON: clean, cannot-prove,
race, or failed, with the first finding in BUILD-finding). vs-best compares with the faster of
Triton's builds that verify does not find racing (cannot-prove counts, marked in the table): a
racing build's speed is not a bar to meet (issue 28; Triton's NN 256x128 TwoPP, #11696). Where both
of Triton's builds race, vs-best is "-"; vs-fastest compares with the faster of the two whatever
verify says, so nothing is hidden. A finding in the plugin's build is printed as RACE, and exits 1
where plain llc's build of the same IR is clean (a race the plugin added).
Time is cycles / engine clock. --clock power (default) runs each build at the clock the chip's
power limit gives its own MFMA busy (pingpong-sim run --clock power: gfx942 and gfx950 anchored
at AMD's measured clocks under dense MFMA), so a build that
keeps the MFMA pipe busier runs at a lower clock; --clock peak compares cycles, as before.
pingpong-sim's resource bound of the plugin's build (what its instructions ask of the busiest unit
per iteration: MFMA pipe, LDS port, L2/HBM share, issue turns) gives
  ceiling = best race-free Triton build / plugin's bound: the most vs-best any order of those instructions reaches.
Geomeans are printed over the GEMM cases the plugin scheduled, per target.

Every build's floor (pingpong-sim's "floor": the largest of the resource bound, the latency floor --
dependence chain, memory in flight per wave -- and the barrier-drain bound) is kept in the JSON rows as
BUILD-floor / BUILD-floor-binds; bench/floor-check.py checks that no build runs faster than it.
A case whose loop's trip count depends on the workgroup id (meta.json "workgroup_id": causal
attention) is timed at that workgroup (pingpong-sim --workgroup-id).

Occupancy as in bench/run-bench.sh: 8-wave kernels 1 workgroup per CU, 4-wave kernels 2, where
they fit: pingpong-sim --occupancy fit with the kernel's dynamic LDS (meta.json triton_shared)
runs the workgroups the VGPRs and LDS allow, and the number in the table is the CU's time for
the asked workgroups' iterations (cycles x 2 / 1 where one fits; "wg" in the JSON row says how
many ran). Triton's own attention at 352 VGPRs runs one workgroup per CU; timing two would
credit it with a second wave per SIMD it cannot have.
GEMM rows state their operands' element size (--elem-bytes from meta.json's dtype), which sets
gfx950's loaded round trip from the data the 8192^3 problem re-reads (docs/cycle-model.md, "Session
18 (ruler8)"); attention rows keep the measured round trip.
A build that fails, or a model run that does not reach the loop, is "-" with the reason in
OUT/<case>.<build>.log; it never counts as a result.

usage: bench/triton_bench.py [--corpus DIR] [--out DIR] [--filter SUBSTR] [--jobs N]
                             [--gemm M,N,K] [--iterations N] [--clock power|peak] [--markdown]
                             [--plugin-arg ARG]... [--llc-flags plain|triton] [--min-vs-llc X]

--llc-flags triton: the llc and plugin builds get the code-generation options Triton 3.6's own
translate_to_asm sets (python/amdgpu_pingpong/triton/_core.py, Target.llc_args: FP contraction,
no NaNs, PIC, trap on unreachable), as amdgpu_pingpong.triton compiles; plain (the default):
llc -O3 alone, as an llc user compiles.

--min-vs-llc X: exit 1 (naming them) when a build the plugin changed models below X times
plain llc-22 (issue 24 item 7: loading the plugin must not make a loop slower, X = 1). Changed
means a loop it scheduled, or any other difference of its assembly from llc-22's on the same IR:
a loop kept in LLVM's order but hinted (the occupancy hint, amdgpu-waves-per-eu; the latency
strategy, amdgpu-sched-strategy) or reshaped by an IR pass (loads or copies issued ahead). Two
lines count them: "scheduled loops below X x llc-22" (loops a mode scheduled) and "other changed
builds below X x llc-22" (the rest; issue 28, session 23). A build within one clock per iteration
of llc-22's is a tie (the model counts whole clocks), printed as such.
"""
import argparse
import concurrent.futures as cf
import json
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))
from amdgpu_pingpong import tools  # noqa: E402 (the one place that knows where the tools are)
from amdgpu_pingpong.triton._core import FOUR_WAVE_ATTENTION, Target  # noqa: E402 (one place each)
LLVM_BIN = str(tools.LLVM_BIN)
BUILDS = ("triton", "triton-pp", "llc", "plugin", "four-wave")
#: The option auto's remark names where it kept LLVM's order on a 4-wave attention loop
#: (docs/using.md); the "four-wave" build applies it, as amdgpu_pingpong.triton does before it times
#: both orders.
FOUR_WAVE_OPTION = FOUR_WAVE_ATTENTION


def first_existing(d, names):
    for n in names:
        p = os.path.join(d, n)
        if os.path.exists(p):
            return p
    return None


def case_meta(name, d):
    """Target, waves and tile from meta.json when there is one, else from the name."""
    meta = {}
    mj = os.path.join(d, "meta.json")
    if os.path.exists(mj):
        with open(mj) as f:
            meta = json.load(f)
    arch = meta.get("arch") or (re.search(r"gfx9\d+", name) or [None])[0]
    waves = meta.get("num_warps")
    if waves is None:
        m = re.search(r"_w(\d+)_", name)
        waves = int(m.group(1)) if m else None
    bm = meta.get("BM")
    bn = meta.get("BN")
    if not (bm and bn):
        tile = meta.get("tile")
        m = re.search(r"(\d+)x(\d+)x(\d+)", tile or name)
        if m:
            bm, bn = int(m.group(1)), int(m.group(2))
    # the workgroup a causal loop is timed at: "workgroup_id" (corpus/triton),
    # "workgroup_id_x" (corpus/triton-user)
    wgid = meta.get("workgroup_id", meta.get("workgroup_id_x"))
    return arch, waves, bm, bn, meta.get("triton_shared") or 0, wgid


#: Bytes per operand element by Triton dtype: they size the data a GEMM re-reads, which sets
#: gfx950's loaded round trip in the model (pingpong-sim --elem-bytes, docs/cycle-model.md
#: "Session 18 (ruler8)").
ELEM_BYTES = {"fp16": 2, "bf16": 2, "fp8e4b8": 1, "fp8e4nv": 1, "fp8e5": 1, "int8": 1, "e2m1": 0.5}


def gemm_elem_bytes(d):
    """The operands' element size of a GEMM case (meta.json "dtype"), None for attention (its
    K/V streams are not a GEMM's re-read operands) or an unknown dtype: the model then keeps the
    round trip it was measured at."""
    mj = os.path.join(d, "meta.json")
    if not os.path.exists(mj):
        return None
    with open(mj) as f:
        meta = json.load(f)
    kernel = meta.get("kernel") or ""
    if kernel.startswith(("attn", "mha")):
        return None
    return ELEM_BYTES.get(meta.get("dtype"))


def is_gemm_case(case):
    """A GEMM (MXFP4 and weight-only ones included) by its case name's kind: the project corpus
    names GEMMs mm/mmscale/pmm/mxfp4, the user corpora mm<variant> and w4a16; every other kind
    (attn, bp, mha, tut, drop, afp8, ...) is attention."""
    return case.split("_")[0].startswith(("mm", "pmm", "mxfp4", "w4a16"))


def run(cmd, log, timeout=300):
    with open(log, "a") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            f.write(f"timeout after {timeout} s\n")
            return 124, ""
        f.write(p.stdout)
    return p.returncode, p.stdout


def scratch(asm):
    m = re.search(r"; ScratchSize: (\d+)", open(asm).read())
    return int(m.group(1)) if m else None


def verify(args, asm, arch, wgid, log):
    """pingpong-sim verify on one build: (status, first finding line). Exit 0 clean, 3 no finding
    but pairs it cannot prove ordered, 1 with a `verify: finding` line a race or pacing fault;
    anything else (bad input, the loop not run) is "failed", never clean."""
    cmd = [args.sim, "verify", asm, "--mcpu", arch]
    if wgid is not None:
        cmd += ["--workgroup-id", str(wgid)]
    with open(log, "a") as f:
        f.write("$ " + " ".join(cmd) + "\n")
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        rc, text = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        rc, text = None, "timeout\n"
    with open(log, "a") as f:
        f.write(text)
    finding = re.search(r"^verify: finding: ([^\n]*)", text, re.M)
    if rc == 0:
        return "clean", ""
    if rc == 3:
        return "cannot-prove", ""
    if rc == 1 and finding:
        return "race", finding.group(1)[:160]
    return "failed", ""


def one(args, base, corpus):
    d0 = os.path.join(corpus, base + "_pp0")
    d1 = os.path.join(corpus, base + "_pp1")
    arch, waves, bm, bn, lds, wgid = case_meta(base, d0)
    elem = gemm_elem_bytes(d0)
    row = {"case": base, "arch": arch, "waves": waves, "tile": f"{bm}x{bn}"}
    if wgid is not None:
        # a loop whose trip count depends on the workgroup id (causal attention) is timed at
        # this workgroup (meta.json "workgroup_id"; workgroup 0 never enters it)
        row["workgroup-id"] = wgid
    out = os.path.join(args.out, base)
    ir = first_existing(d0, ("kernel.llir", "kernel.ll"))
    asm = {"triton": first_existing(d0, ("kernel.amdgcn", "kernel.s")),
           "triton-pp": first_existing(d1, ("kernel.amdgcn", "kernel.s")) if os.path.isdir(d1) else None}
    for b in ("llc", "plugin", "four-wave"):
        if not ir or not arch:
            continue
        if b == "four-wave" and not row.get("four-wave-asked"):
            continue
        s = f"{out}.{b}.s"
        log = f"{out}.{b}.log"
        open(log, "w").close()
        cmd = [os.path.join(LLVM_BIN, "llc"), "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={arch}", "-O3", ir, "-o", s]
        if args.llc_flags == "triton":
            cmd[1:4] = Target("amdgcn-amd-amdhsa", arch).llc_args()
        if b in ("plugin", "four-wave"):
            cmd += ["-load", args.plugin, "-pass-remarks=amdgpu-pingpong",
                    "-pass-remarks-missed=amdgpu-pingpong"] + args.plugin_arg
        if b == "four-wave":
            cmd.append(FOUR_WAVE_OPTION)
        rc, text = run(cmd, log)
        if rc == 0:
            asm[b] = s
            row[b + "-scratch"] = scratch(s)
        if b == "plugin" and rc == 0 and asm.get("llc"):
            # what loading the plugin changed, a scheduled loop or not: its assembly against
            # llc-22's (byte-identical where it did nothing)
            with open(asm["llc"], "rb") as f0, open(s, "rb") as f1:
                row["changed"] = f0.read() != f1.read()
        if b == "plugin":
            m = re.search(r"((?:async-)?(?:one|two|four)-cluster|chained-dot|skinny|single-wave) \((auto|forced)\)", text)
            why = re.search(r"no pingpong: ([^\n]*)", text)
            row["mode"] = m.group(1) if m else "none"
            row["why"] = why.group(1)[:90] if (why and not m) else ""
            row["four-wave-asked"] = FOUR_WAVE_OPTION in text and FOUR_WAVE_OPTION not in args.plugin_arg
    for b in BUILDS:
        a = asm.get(b)
        if not a or not arch or not waves or not bm:
            continue
        j = f"{out}.{b}.json"
        log = f"{out}.{b}.log"
        if b.startswith("triton"):
            open(log, "w").close()
        def model(iterations):
            cmd = [args.sim, "run", a, "--mcpu", arch, "--iterations", str(iterations),
                   "--waves-per-workgroup", str(waves), "--workgroups-per-cu", "2" if waves == 4 else "1",
                   "--gemm", args.gemm, "--tile", f"{bm},{bn}", "--json", j, "--occupancy", "fit",
                   "--clock", args.clock]
            if lds:
                cmd += ["--lds-bytes", str(lds)]
            if elem:
                cmd += ["--elem-bytes", str(elem)]
            if wgid is not None:
                cmd += ["--workgroup-id", str(wgid)]
            if base.startswith("pmm"):  # persistent: the K loop runs inside a loop over tiles
                cmd += ["--iterations-per-visit", str(iterations)]
            return run(cmd, log)
        rc, text = model(args.iterations)
        if rc == 0 and os.path.exists(j):
            with open(j) as f:
                if tools.ran_serially(json.load(f)):
                    # the workgroups did not overlap in the short run: time it longer
                    row[b + "-iterations"] = args.iterations * tools.SERIAL_RERUN_FACTOR
                    rc, text = model(row[b + "-iterations"])
        unfit = re.search(r"error: (one workgroup of \d+ waves does not fit on a CU: [^\n]*)", text)
        if unfit:
            row["unfit"] = unfit.group(1)
        if rc == 0 and os.path.exists(j):
            with open(j) as f:
                r = json.load(f)
            row[b] = r["cycles_per_iteration_at_asked_occupancy"]
            # the ratios compare time: cycles at each build's own engine clock
            row[b + "-ns"] = r["ns_per_iteration_at_asked_occupancy"]
            row[b + "-ghz"] = r["clock_ghz"]
            row[b + "-busy"] = r["mfma_busy_pct"]
            row[b + "-wg"] = r["workgroups"]
            rb = r.get("resource_bound")
            if rb and rb.get("unit"):
                row[b + "-bound"] = rb["cycles_per_iteration_at_asked_occupancy"]
                row[b + "-bound-unit"] = rb["unit"]
                row[b + "-bound-ns"] = rb["ns_per_iteration_at_asked_occupancy"]
            # the loop's floor: the resource bound or a latency floor, whichever is larger
            fl = r.get("floor")
            if fl and fl.get("cycles_per_iteration"):
                row[b + "-floor"] = fl["cycles_per_iteration_at_asked_occupancy"]
                row[b + "-floor-binds"] = fl["binds"]
                lf = r["latency_floor"]
                row[b + "-latency-floor"] = lf["cycles_per_iteration_at_asked_occupancy"]
                row[b + "-latency-floor-kind"] = lf["kind"]
            if r["workgroups"] < r["workgroups_asked"]:
                row[b + "-occupancy"] = r["occupancy_limit"]
        if b + "-ns" in row:
            row[b + "-verify"], finding = verify(args, a, arch, wgid, log)
            if finding:
                row[b + "-finding"] = finding
    fastest = [row[b + "-ns"] for b in ("triton", "triton-pp") if b + "-ns" in row]
    best = [row[b + "-ns"] for b in ("triton", "triton-pp")
            if b + "-ns" in row and row.get(b + "-verify") in ("clean", "cannot-prove")]
    if "plugin-ns" in row and fastest:
        row["vs-fastest"] = min(fastest) / row["plugin-ns"]
    if "plugin-ns" in row and best:
        row["vs-best"] = min(best) / row["plugin-ns"]
    if "plugin-ns" in row and "llc-ns" in row:
        row["vs-llc"] = row["llc-ns"] / row["plugin-ns"]
    # what amdgpu_pingpong.triton would hand on: the fastest of auto's build, the four-wave one
    # and LLVM's order
    hook = [row[b + "-ns"] for b in ("plugin", "four-wave", "llc")
            if b + "-ns" in row and row.get(b + "-verify") == "clean"]
    if hook and best:
        row["vs-best-hook"] = min(best) / min(hook)
    if "plugin-bound-ns" in row and best:
        # the most any order of the plugin's instructions could reach: best / its resource bound
        # (the bound's time at the clock its MFMA busy gives)
        row["ceiling"] = min(best) / row["plugin-bound-ns"]
    return row


def fmt(v, f="%.1f"):
    return "-" if v is None else (f % v if isinstance(v, float) else str(v))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default_corpus = os.path.join(ROOT, "corpus", "triton")
    ap.add_argument("--corpus", default=default_corpus)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "triton-bench"))
    ap.add_argument("--filter", default="")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--gemm", default="8192,8192,8192")
    ap.add_argument("--iterations", type=int, default=32)
    ap.add_argument("--clock", choices=("power", "peak"), default="power",
                    help="each build's engine clock (pingpong-sim run --clock): power (default) compares "
                         "time at the clock the power limit gives its MFMA busy; peak compares cycles")
    ap.add_argument("--plugin", default=str(tools.in_build(tools.PLUGIN_IN_BUILD)))
    ap.add_argument("--sim", default=str(tools.in_build(tools.SIM_IN_BUILD)))
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--json", help="also write the rows as JSON")
    ap.add_argument("--plugin-arg", action="append", default=[],
                    help="an extra llc option for the plugin build (repeatable)")
    ap.add_argument("--llc-flags", choices=("plain", "triton"), default="plain",
                    help="the llc and plugin builds' code-generation options: plain llc -O3 (default) "
                         "or the ones Triton's own compile sets, as amdgpu_pingpong.triton uses")
    ap.add_argument("--min-vs-llc", type=float,
                    help="exit 1 when a scheduled loop's vs-llc is below this")
    args = ap.parse_args()
    for p in (args.plugin, args.sim):
        if not os.path.exists(p):
            sys.exit(f"triton-bench: {p} is not built (bash scripts/dev.sh build)")
    if not os.path.isdir(args.corpus):
        sys.exit(f"triton-bench: no corpus at {args.corpus}")
    os.makedirs(args.out, exist_ok=True)
    bases = sorted({n[:-4] for n in os.listdir(args.corpus)
                    if n.endswith("_pp0") and args.filter in n})
    if not bases:
        sys.exit("triton-bench: no NAME_pp0 case in the corpus" + (" matches the filter" if args.filter else ""))
    print(f"triton-bench: {len(bases)} cases from {args.corpus}, GEMM {args.gemm}, "
          f"{args.iterations} iterations", file=sys.stderr, flush=True)
    rows = []
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        futs = {ex.submit(one, args, b, args.corpus): b for b in bases}
        for n, fu in enumerate(cf.as_completed(futs), 1):
            rows.append(fu.result())
            print(f"  [{n}/{len(bases)}] {futs[fu]}", file=sys.stderr, flush=True)
    rows.sort(key=lambda r: r["case"])
    cols = [("case", 44), ("triton", 9), ("triton-pp", 9), ("llc", 9), ("plugin", 9), ("mode", 20),
            ("vs-best", 7), ("vs-fastest", 10), ("vs-llc", 7), ("llc-scratch", 6), ("plugin-scratch", 6)]
    heads = ["case", "triton", "triton-pp", "llc-22", "plugin", "mode", "vs-best", "vs-fastest", "vs-llc",
             "llc-spill", "pp-spill"]
    # a build verify finds racing is marked R, one it cannot prove ordered ?, one it could not
    # check !
    if args.markdown:
        print("| " + " | ".join(heads) + " | why not |")
        print("|" + "---|" * (len(heads) + 1))
    else:
        print("  ".join(h.ljust(w) for h, (_, w) in zip(heads, cols)) + "  why not")
    for r in rows:
        vals = []
        for k, w in cols:
            v = r.get(k)
            mark = {"race": " R", "cannot-prove": " ?", "failed": " !"}.get(r.get(k + "-verify"), "")
            vals.append(fmt(v, "%.3f") if k.startswith("vs-") else fmt(v) + mark)
        if args.markdown:
            print("| " + " | ".join(vals) + " | " + r.get("why", "") + " |")
        else:
            print("  ".join(v.ljust(w) for v, (_, w) in zip(vals, cols)) + "  " + r.get("why", ""))
    for arch in sorted({r["arch"] for r in rows if r.get("arch")}):
        sel = [r for r in rows if r.get("arch") == arch and r.get("mode", "none") != "none"]
        for key in ("vs-best", "vs-fastest", "vs-llc", "ceiling"):
            xs = [r[key] for r in sel if key in r]
            if xs:
                g = math.exp(sum(math.log(x) for x in xs) / len(xs))
                print(f"{arch}: geomean {key} {g:.3f} over {len(xs)} scheduled cases "
                      f"(min {min(xs):.3f}, max {max(xs):.3f})")
        hook = [r["vs-best-hook"] for r in rows if r.get("arch") == arch and "vs-best-hook" in r
                and (r.get("mode", "none") != "none" or "four-wave-ns" in r)]
        if hook:
            g = math.exp(sum(math.log(x) for x in hook) / len(hook))
            print(f"{arch}: geomean vs-best-hook {g:.3f} over {len(hook)} cases the Triton hook "
                  f"would time (auto's build, or the 4-wave attention order where auto's remark names it; "
                  f"min {min(hook):.3f})")
        gemms = [r for r in sel if is_gemm_case(r["case"])]
        for key in ("vs-best", "vs-fastest", "ceiling"):
            xs = [r[key] for r in gemms if key in r and "vs-best" in r]
            if xs:
                g = math.exp(sum(math.log(x) for x in xs) / len(xs))
                print(f"{arch} GEMMs: geomean {key} {g:.3f} over {len(xs)} scheduled cases")
    sched = sum(1 for r in rows if r.get("mode", "none") != "none")
    print(f"scheduled by the plugin: {sched} of {len(rows)} cases")
    for b in BUILDS:
        racing = [r["case"] for r in rows if r.get(b + "-verify") == "race"]
        print(f"{b} builds verify finds racing: {len(racing)}" + (f" ({', '.join(racing)})" if racing else ""))
    # the plugin must not add a race: one its build has and plain llc's build of the IR has not
    added = [(r, b) for r in rows for b in ("plugin", "four-wave")
             if r.get(b + "-verify") == "race" and r.get("llc-verify") != "race"]
    for r, b in added:
        print(f"RACE: {r['case']} {b} build: {r[b + '-finding']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    if args.min_vs_llc is not None:
        # every build the plugin changed: a scheduled loop, or LLVM's order hinted or reshaped
        # (a build whose assembly is llc-22's, byte for byte, cannot be below it)
        below = [r for r in rows if (r.get("mode", "none") != "none" or r.get("changed"))
                 and "vs-llc" in r and r["vs-llc"] < args.min_vs_llc]
        # The model counts whole clocks: builds within one clock per
        # iteration of each other are a tie, whatever their ratio of times.
        ties = [r for r in below if abs(r["plugin"] - r["llc"]) < 1]
        slow = [r for r in below if r not in ties]
        def what(r):
            return r["mode"] if r.get("mode", "none") != "none" else "none (LLVM's order, changed)"
        for r in ties:
            print(f"tie with llc-22: {r['case']} {what(r)} {r['plugin']:.3f} vs {r['llc']:.3f} cycles/iter")
        for r in slow:
            print(f"below llc-22: {r['case']} {what(r)} vs-llc {r['vs-llc']:.3f}")
        sched = [r for r in slow if r.get("mode", "none") != "none"]
        other = [r for r in slow if r not in sched]
        changed = sum(1 for r in rows if r.get("mode", "none") == "none" and r.get("changed"))
        print(f"scheduled loops below {args.min_vs_llc} x llc-22: {len(sched)}")
        print(f"other changed builds below {args.min_vs_llc} x llc-22: {len(other)} "
              f"(of {changed} kept in LLVM's order but changed: hints, loads ahead)")
        if slow:
            sys.exit(1)
    if added:
        sys.exit(1)


if __name__ == "__main__":
    main()
