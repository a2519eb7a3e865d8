#!/usr/bin/env python3
"""corpus-run.py: compile a corpus of .ll / .llir / .hip files with and without the plugin.

For every input file (directories are searched recursively for *.ll, *.llir
(Triton's kernel.llir) and *.hip),
every --hip-flags set (HIP sources only) and every --arch, it runs

  plain:  llc -mtriple=amdgcn-amd-amdhsa -mcpu=ARCH -O3 -verify-machineinstrs
  plugin: the same + -load PLUGIN -amdgpu-pingpong-verify
          -pass-remarks=amdgpu-pingpong -pass-remarks-missed=amdgpu-pingpong
          -pass-remarks-analysis=amdgpu-pingpong

(HIP sources are first compiled to IR with clang++ -x hip --offload-arch=ARCH
-nogpulib -nogpuinc --offload-device-only -O3 -S -emit-llvm), each under a
timeout, and classifies the pair:

  input-error  the input does not compile without the plugin either (skipped)
  crash        only with the plugin: killed by a signal or "PLEASE submit a bug report"
  hang         only with the plugin: the timeout
  verifier     only with the plugin: the machine verifier failed
  checker      -amdgpu-pingpong-verify reported an error
  error        another error with the plugin (e.g. a rejected directive)
  identical    same assembly as plain llc, no loop scheduled
  scheduled    at least one loop scheduled (modes from the remarks; with
               -amdgpu-pingpong-waits=place also "waits-placed"), or only
               rotated / LDS-folded / repaired / copies moved ahead ("rotated",
               "lds-address-fold", "lds-dma-fold", "dma-wait-repair",
               "dma-lookahead", "loads-ahead", "occupancy-hint",
               "one-wave-latency", "lds-read-restored": the remarks that say
               the code changed)
  DIFFERENT    the assembly changed but no remark says a loop was scheduled
  silent       a loop with MFMAs of its own in the output got no remark (every
               such loop gets one: applied, or missed with the reason;
               scripts/asm_loops.py finds the loops in the assembly)

A summary line with the counts ends the output. Exit status 1 if any crash,
hang, verifier error, DIFFERENT or silent was seen (2 for a usage error).

--sim-verify also runs `pingpong-sim verify` on both outputs (plain and
plugin) and counts an *unreported race*: the plugin's compile reported
nothing (no "error:" or "warning:") and pingpong-sim verify finds something
in its output (exit 1 with "verify: finding"); "new" when plain llc's output
has no finding, "inherited" when it has one too (Triton's own races).
"cannot prove" (exit 3) is no finding. Exit status 1 also for a new one.
--plain-cache DIR keeps plain llc's outputs for the runs of a sweep
(scripts/silent-race-sweep.sh).

  scripts/corpus-run.py [-j N] [--timeout S] [--arch gfx942,gfx950] [--arch-from-path]
                        [--sim-verify] [--plain-cache DIR]
                        [--hip-flags "-DBM=256 -DWAVES=8" ...] [--json out.json]
                        [--keep DIR] [--extra-flag=-amdgpu-pingpong=off ...] PATH...
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))
from amdgpu_pingpong import tools  # noqa: E402 (the one place that knows where the tools are)
BAD = ("crash", "hang", "verifier", "DIFFERENT", "silent")
ORDER = ("input-error", "crash", "hang", "verifier", "checker", "error",
         "identical", "scheduled", "DIFFERENT", "silent")

# An "Applied" remark: "remark: <loc>: loop %bb.N of F: MODE (SOURCE), ..."
APPLIED_RE = re.compile(r"remark: .*loop %bb\.\d+ of [^:]+: "
                        r"((?:async-)?(?:one|two|four)-cluster|chained-dot|skinny|single-wave|custom layout) \(")
# Transformations that change the code without a mode: the while-loop
# rotation (RotateLoops.cpp) and the LDS address folds (lib/LDS).
TRANSFORM_RES = ((re.compile(r"remark: .*loop in \S+ rotated:"), "rotated"),
                 (re.compile(r"remark: .*LDS addresses folded"), "lds-address-fold"),
                 (re.compile(r"remark: .*LDS DMA destinations folded"), "lds-dma-fold"),
                 # LDS DMA copies a tile further ahead (DMALookahead.cpp)
                 (re.compile(r"remark: .*LDS DMA copies issued one more tile ahead"), "dma-lookahead"),
                 # register-staged and scale loads an iteration ahead (LoadLookahead.cpp)
                 (re.compile(r"remark: .*loop in \S+: .*issued one iteration ahead"), "loads-ahead"),
                 # the occupancy AMDGPU's scheduler aims at (OccupancyHint.cpp)
                 (re.compile(r"remark: .*AMDGPU's scheduler told the kernel runs at"), "occupancy-hint"),
                 # LLVM's order kept at one wave per SIMD, asked for latency (ModeChoice.cpp)
                 (re.compile(r"remark: .*AMDGPU's scheduler is asked to order it for latency"),
                  "one-wave-latency"),
                 # LLVM 22.1's missing LDS-DMA waits (RepairDMAWaits.cpp)
                 (re.compile(r"remark: .*LDS DMA wait repaired in"), "dma-wait-repair"),
                 # LDS reads MachineSink moved past a bare s_barrier
                 # (PinLDSReadsAtBarriers.cpp)
                 (re.compile(r"remark: .*LDS read \S+ in \S+ moved back before its s_barrier"),
                  "lds-read-restored"))
HOIST_RE = re.compile(r"remark: .*LDS DMA loads issued at the start")
# -amdgpu-pingpong-waits=place reports its vmcnt changes as an analysis remark.
WAITS_RE = re.compile(r"remark: .*vmcnt placement, loop")
CHECKER_RE = re.compile(r"error: amdgpu-pingpong-verify")
from llc_run import CRASH_RE, VERIFIER_RE, run  # noqa: E402 (scripts/ is on sys.path)
from asm_loops import silent_loops  # noqa: E402
# Anything the plugin's compile says above a remark (issue 24: a compile
# either reports or its output verifies).
REPORTED_RE = re.compile(r"^[^\n]*\b(error|warning): ", re.M)


def sim_verify(args, asm):
    """pingpong-sim verify on one .s: clean / finding / cannot-prove / not-run,
    and the finding's line."""
    try:
        p = subprocess.run([args.sim, "verify", asm], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return "not-run", "timeout"
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode == 0:
        return "clean", ""
    if p.returncode == 3:
        return "cannot-prove", first_line(out, "cannot prove")
    if p.returncode == 1 and "verify: finding" in out:
        return "finding", first_line(out, "verify: finding")
    return "not-run", first_line(out) or "exit %s" % p.returncode


def add_sim_verify(res, args, plain_s, pp_s, err):
    """--sim-verify: both outputs through pingpong-sim verify; an unreported
    race is a finding in the output of a compile that reported nothing."""
    res["reported"] = bool(REPORTED_RE.search(err))
    res["sim"], res["sim_detail"] = sim_verify(args, pp_s) if os.path.exists(pp_s) else ("not-run", "no output")
    res["sim_plain"], _ = sim_verify(args, plain_s)
    res["unreported_race"] = None
    if not res["reported"] and res["sim"] == "finding":
        res["unreported_race"] = "inherited" if res["sim_plain"] == "finding" else "new"


def plain_cache_path(args, src, flags, arch):
    """--plain-cache: plain llc's output of one (file, flags, arch), reused by
    the runs of a sweep (plain llc does not depend on the plugin's flags)."""
    if not args.plain_cache:
        return None
    key = re.sub(r"[^\w.-]+", "_", "%s.%s.%s" % (os.path.abspath(src), flags, arch))
    return os.path.join(args.plain_cache, key + ".s")


def first_line(text, pattern=None):
    for line in text.splitlines():
        if pattern is None or re.search(pattern, line):
            return line.strip()[:300]
    return ""


def classify(job, args):
    """One (file, hip flags, arch) job. Returns a result dict."""
    src, flags, arch, work = job
    res = {"file": src, "arch": arch, "hip_flags": flags, "status": None,
           "modes": [], "detail": ""}
    os.makedirs(work, exist_ok=True)
    ll = src
    if src.endswith(".hip"):
        ll = os.path.join(work, "in.ll")
        cmd = [args.clang, "-x", "hip", "--offload-arch=" + arch, "-nogpulib",
               "-nogpuinc", "--offload-device-only", "-O3", "-S", "-emit-llvm",
               src, "-o", ll] + flags.split()
        rc, err, _, to = run(cmd, args.timeout)
        if to or rc != 0:
            res["status"] = "input-error"
            res["detail"] = "clang: " + ("timeout" if to else first_line(err, "error") or first_line(err))
            return res
    base = [args.llc, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=" + arch, "-O3",
            "-verify-machineinstrs", ll]
    plain_s = os.path.join(work, "plain.s")
    pp_s = os.path.join(work, "plugin.s")
    cached = plain_cache_path(args, src, flags, arch)
    if cached and os.path.exists(cached):
        shutil.copyfile(cached, plain_s)
        rc, err, tp, to = 0, "", 0.0, False
    else:
        rc, err, tp, to = run(base + ["-o", plain_s], args.timeout)
        if cached and rc == 0 and not to:
            shutil.copyfile(plain_s, cached)
    res["seconds_plain"] = round(tp, 3)
    if to or rc != 0:
        res["status"] = "input-error"
        res["detail"] = "plain llc: " + ("timeout" if to else
                                         first_line(err, "error|ERROR|Bad machine") or
                                         "exit %s" % rc)
        return res
    cmd = base[:1] + ["-load", args.plugin] + base[1:] + [
        "-amdgpu-pingpong-verify", "-pass-remarks=amdgpu-pingpong",
        "-pass-remarks-missed=amdgpu-pingpong", "-pass-remarks-analysis=amdgpu-pingpong",
        "-o", pp_s] + args.extra_flag
    rc, err, tq, to = run(cmd, args.timeout)
    res["seconds_plugin"] = round(tq, 3)
    with open(os.path.join(work, "plugin.stderr"), "w") as f:
        f.write(err)
    res["modes"] = [m.group(1) for m in APPLIED_RE.finditer(err)]
    if HOIST_RE.search(err):
        res["modes"].append("dma-hoist")
    for regex, name in TRANSFORM_RES:
        if regex.search(err) and not res["modes"]:
            res["modes"].append(name)
    if to:
        res["status"], res["detail"] = "hang", "timeout after %ss" % args.timeout
    elif rc is not None and rc < 0:
        res["status"], res["detail"] = "crash", "signal %d: %s" % (-rc, first_line(err, CRASH_RE.pattern))
    elif CRASH_RE.search(err):
        res["status"], res["detail"] = "crash", first_line(err, CRASH_RE.pattern)
    elif VERIFIER_RE.search(err):
        res["status"], res["detail"] = "verifier", first_line(err, r"\*\*\* Bad|Bad machine|verifier")
    elif CHECKER_RE.search(err):
        res["status"], res["detail"] = "checker", first_line(err, CHECKER_RE.pattern)
    elif rc != 0:
        res["status"], res["detail"] = "error", first_line(err, "error") or "exit %s" % rc
    else:
        with open(plain_s, "rb") as a, open(pp_s, "rb") as b:
            same = a.read() == b.read()
        if res["modes"]:
            res["status"] = "scheduled"
            res["detail"] = ",".join(res["modes"])
        elif same:
            res["status"] = "identical"
        elif WAITS_RE.search(err):
            res["modes"].append("waits-placed")
            res["status"], res["detail"] = "scheduled", "waits-placed"
        else:
            res["status"] = "DIFFERENT"
            res["detail"] = "assembly differs from plain llc but no loop was scheduled"
        if res["status"] in ("identical", "scheduled"):
            with open(pp_s, errors="replace") as f:
                silent = silent_loops(f.read(), err)
            if silent:
                res["status"] = "silent"
                res["detail"] = "; ".join("%s: %d loop(s) with MFMAs, %d named in remarks" % (f, n, r)
                                          for f, (n, r) in sorted(silent.items()))
    if args.sim_verify and not to:
        add_sim_verify(res, args, plain_s, pp_s, err)
    return res


ALLOCA_RE = re.compile(r"^(\s*)(%[\w.]+) = alloca (.*)$", re.M)


def stress_corpus(args, out_dir):
    """llvm-stress modules made valid for amdgcn: allocas move to the private
    address space (5) behind an addrspacecast to flat; odd seeds become
    kernels (amdgpu_kernel), even seeds stay callable functions."""
    os.makedirs(out_dir, exist_ok=True)
    stress = os.path.join(args.llvm_bin, "llvm-stress")
    files = []
    for seed in range(args.stress_first, args.stress_first + args.llvm_stress):
        raw = subprocess.run([stress, "-seed", str(seed), "-size", str(args.stress_size)],
                             stdout=subprocess.PIPE, check=True).stdout.decode()
        ir = ALLOCA_RE.sub(lambda m: "%s%s.as5 = alloca %s, addrspace(5)\n"
                           "%s%s = addrspacecast ptr addrspace(5) %s.as5 to ptr" % (
                               m.group(1), m.group(2), m.group(3), m.group(1),
                               m.group(2), m.group(2)), raw)
        if seed % 2:
            ir = ir.replace("define void @autogen_", "define amdgpu_kernel void @autogen_")
        path = os.path.join(out_dir, "stress-%d.ll" % seed)
        with open(path, "w") as f:
            f.write(ir)
        files.append(path)
    return files


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for dirpath, dirnames, names in os.walk(p):
                dirnames.sort()
                for n in sorted(names):
                    if n.endswith((".ll", ".llir", ".hip")):
                        files.append(os.path.join(dirpath, n))
        elif os.path.isfile(p):
            files.append(p)
        else:
            print("corpus-run: no such file or directory: %s" % p, file=sys.stderr)
            sys.exit(2)
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*", help=".ll / .hip files or directories")
    ap.add_argument("--llvm-stress", type=int, default=0, metavar="N",
                    help="also compile N llvm-stress modules (seeds --stress-first..), made valid for amdgcn")
    ap.add_argument("--stress-first", type=int, default=1, help="first llvm-stress seed")
    ap.add_argument("--stress-size", type=int, default=300, help="llvm-stress -size")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per compile")
    ap.add_argument("--arch", default="gfx942,gfx950", help="comma-separated")
    ap.add_argument("--arch-from-path", action="store_true",
                    help="a file whose path names one of the --arch values (e.g. Triton's "
                         "mm_..._gfx950_pp1/kernel.llir) is compiled for that arch only")
    ap.add_argument("--hip-flags", action="append", default=None,
                    help="one set of extra clang flags for .hip files (repeatable; default: one empty set)")
    ap.add_argument("--json", help="write every result to this file")
    ap.add_argument("--keep", help="keep the work files here")
    ap.add_argument("--extra-flag", action="append", default=[],
                    help="extra llc flag for the plugin run only (repeatable)")
    ap.add_argument("--llvm-bin", default=str(tools.LLVM_BIN))
    ap.add_argument("--plugin", default=str(tools.in_build(tools.PLUGIN_IN_BUILD)))
    ap.add_argument("--sim-verify", action="store_true",
                    help="run pingpong-sim verify on both outputs and count unreported races")
    ap.add_argument("--plain-cache", metavar="DIR",
                    help="keep plain llc's outputs here and reuse them (sweeps over plugin flags)")
    ap.add_argument("--sim", default=str(tools.in_build(tools.SIM_IN_BUILD)))
    ap.add_argument("-q", "--quiet", action="store_true", help="print only non-identical results")
    args = ap.parse_args()
    args.llc = os.path.join(args.llvm_bin, "llc")
    args.clang = os.path.join(args.llvm_bin, "clang++")
    if args.plain_cache:
        os.makedirs(args.plain_cache, exist_ok=True)
    if not os.path.exists(args.plugin):
        print("corpus-run: plugin not found: %s (build it first)" % args.plugin, file=sys.stderr)
        return 2
    hip_sets = args.hip_flags if args.hip_flags is not None else [""]
    archs = [a for a in args.arch.split(",") if a]
    if not args.paths and not args.llvm_stress:
        ap.error("nothing to compile: give paths and/or --llvm-stress N")
    files = collect(args.paths)
    work_root = args.keep or tempfile.mkdtemp(prefix="corpus-run.")
    if args.llvm_stress:
        files += stress_corpus(args, os.path.join(work_root, "llvm-stress"))
    jobs = []
    for i, f in enumerate(files):
        for k, flags in enumerate(hip_sets if f.endswith(".hip") else [""]):
            file_archs = archs
            if args.arch_from_path:
                named = [a for a in archs if a in f]
                file_archs = named or archs
            for arch in file_archs:
                name = "%04d.%s.%d.%s" % (i, os.path.basename(f), k, arch)
                jobs.append((f, flags, arch, os.path.join(work_root, name)))
    counts = {k: 0 for k in ORDER}
    races = {"new": 0, "inherited": 0}
    modes = {}
    results = []
    t0 = time.monotonic()
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = [ex.submit(classify, j, args) for j in jobs]
        for fut in cf.as_completed(futs):
            r = fut.result()
            results.append(r)
            counts[r["status"]] += 1
            if r.get("unreported_race"):
                races[r["unreported_race"]] += 1
                r["detail"] = (r["detail"] + "; " if r["detail"] else "") + \
                    "UNREPORTED RACE (%s): %s" % (r["unreported_race"], r["sim_detail"])
            for m in r["modes"]:
                modes[m] = modes.get(m, 0) + 1
            if args.quiet and r["status"] in ("identical", "input-error") and not r.get("unreported_race"):
                continue
            label = r["file"] + (" [%s]" % r["hip_flags"] if r["hip_flags"] else "")
            print("%-11s %s %s%s" % (r["status"], r["arch"], label,
                                     (": " + r["detail"]) if r["detail"] else ""), flush=True)
    if not args.keep:
        shutil.rmtree(work_root, ignore_errors=True)
    results.sort(key=lambda r: (r["file"], r["hip_flags"], r["arch"]))
    summary = "corpus-run: %d files, %d compiles (%s) in %.0f s: " % (
        len(files), len(jobs), ",".join(archs), time.monotonic() - t0)
    summary += ", ".join("%s %d" % (k, counts[k]) for k in ORDER)
    if args.sim_verify:
        summary += " | unreported races: new %d, inherited %d" % (races["new"], races["inherited"])
    if modes:
        summary += " | modes: " + ", ".join("%s %d" % kv for kv in sorted(modes.items()))
    print(summary)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": counts, "modes": modes, "results": results}, f, indent=1)
    return 1 if any(counts[k] for k in BAD) or races["new"] else 0


if __name__ == "__main__":
    sys.exit(main())
