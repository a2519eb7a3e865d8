#!/usr/bin/env python3
"""fuzz-directives.py: bounded, seeded random driver over what the plugin reads.

Each case picks
  - a kernel shape from test/kernels (gemm.hip and its wrappers, and with
    --with-dma-kernels calib/fp4_gemm.hip's LDS DMA loops; -D tiles,
    WAVES, MFMA, DTYPE, KDOUBLE, KPACK, LOADS; debug info -g,
    -gline-tables-only or none) and an arch (gfx942 / gfx950),
  - llc options: -amdgpu-pingpong=<mode|garbage>, -amdgpu-pingpong-verify,
    -amdgpu-pingpong-waits, -amdgpu-pingpong-dma,
    -amdgpu-pingpong-replace-schedule, -amdgpu-pingpong-print-roles,
  - a function attribute "amdgpu-pingpong" (valid, invalid, empty, no value),
  - loop metadata on the kernel's loop: !{!"amdgpu.pingpong", ...} (valid,
    invalid, wrong-typed, missing or extra operands, two conflicting entries)
    and !{!"amdgpu.pingpong.layout", ...} (the three modes' layouts, and
    mutations of them),
then runs llc -O3 -verify-machineinstrs with the plugin (remarks on) under a
timeout and checks:
  - no crash (signal, "PLEASE submit a bug report"), no hang, no machine
    verifier error;
  - an invalid directive that the documented precedence makes effective
    (command line > loop metadata > function attribute) is an error with a
    message naming it; an invalid option value is an error;
  - a forced mode or layout that is not applied says so: a missed remark
    ("no pingpong: ...") or an error. Exit 0 with neither is "silent".
Optionally (--quiet-check) forced-but-not-applied cases are run again
without remark flags, to count those that say nothing unless asked (the
issue #9 behaviour; reported, not failed).

  scripts/fuzz-directives.py --seed 1 --cases 300 [-j 2] [--timeout 120] [--json out.json]
Exit status 1 if any crash, hang, verifier error, silent case or wrong
verdict on an invalid directive was seen.
"""
import argparse
import concurrent.futures as cf
import json
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))
from amdgpu_pingpong import tools  # noqa: E402 (the one place that knows where the tools are)
KERNELS = os.path.join(ROOT, "test", "kernels")
MODES = ["auto", "off", "one-cluster", "two-cluster", "four-cluster"]
BAD_MODES = ["", "bogus", "Four-Cluster", "four_cluster", "fourcluster", "2",
             "one-cluster ", " auto", "on", "true", "four-cluster,two-cluster",
             "x" * 200, "\\00", "ü"]
LAYOUTS = {
    "one-cluster": "pingpong-layout v1; mem mem-a: local-read.a, global-load.a; "
                   "mem mem-b: local-read, global-load; dot dot: dot; mem store: local-write",
    "two-cluster": "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
                   "mem mem0: local-read; mem+ mem0.global: global-load; dot dot0: dot[0/2]; "
                   "mem mem1: local-write; dot dot1: dot[1/2]",
    "four-cluster": "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
                    "mem mem0: local-read[0/4]; mem+ mem0.global: global-load.a, global-load.-; "
                    "dot dot0: dot[0/4]; mem mem1: local-read[1/4]; mem+ mem1.global: global-load.b; "
                    "dot dot1: dot[1/4]; mem mem2: local-read[2-3/4]; dot dot2: dot[2/4]; "
                    "mem mem3: local-write; dot dot3: dot[3/4]",
}
TOKENS = ["mem", "mem+", "dot", "sync", "barrier", "asymmetric", "delay-global-data",
          "local-read", "local-write", "global-load", "operand-prep", "dot", ".a", ".b",
          ".-", ".c", "[0/2]", "[1/2]", "[2/2]", "[0/0]", "[3-1/4]", "[0-3/4]",
          "[99999999999/3]", "[-1/2]", "[1/]", ":", ";", ",", "v1", "v2", "pingpong-layout",
          "mem0", "dot0", "", " ", "store", "\\22", "[", "]"]
REMARK_APPLIED = re.compile(r"remark: .*loop %bb\.\d+ of [^:]+: "
                            r"(one-cluster|two-cluster|four-cluster|custom layout) \(")
REMARK_HOIST = re.compile(r"remark: .*LDS DMA loads issued at the start")
REMARK_MISSED = re.compile(r"remark: .*no pingpong: (.*)")
from llc_run import CRASH_RE as CRASH, VERIFIER_RE as VERIFIER, run  # noqa: E402
FAIL = ("crash", "hang", "verifier", "silent", "wrong-verdict")


# ---------------------------------------------------------------- shapes
def random_shape(rng, with_dma=False):
    if with_dma and rng.random() < 0.3:
        # test/kernels/calib/fp4_gemm.hip: LDS DMA loads (gfx950 only), with or
        # without the author's own pingpong (s_setprio + sched_barrier)
        d = {"PINGPONG": rng.choice([0, 1]), "LOADPOS": rng.choice([0, 1]),
             "WAITS": rng.choice([0, 1]), "WAVES": 8}
        if not d["PINGPONG"] and rng.random() < 0.5:
            d["WAVES"] = 4
        return ("calib/fp4_gemm.hip", "gfx950", tuple(sorted(d.items())),
                rng.choice(["", "", "-g"]))
    arch = rng.choice(["gfx942", "gfx950"])
    src = rng.choice(["gemm.hip"] * 6 + ["neg_cast.hip", "pos_load_reorder.hip",
                                         "neg_variant_mask.hip", "neg_if_load.hip",
                                         "neg_small_tile.hip"])
    tile = rng.choice([(128, 128, 64, 4), (256, 128, 64, 8), (256, 256, 64, 8),
                       (128, 128, 32, 4), (64, 64, 64, 4), (256, 256, 32, 8),
                       (128, 256, 64, 8), (128, 128, 64, 8)])
    d = {"BM": tile[0], "BN": tile[1], "BK": tile[2], "WAVES": tile[3],
         "MFMA": rng.choice([16, 32]), "DTYPE": rng.choice(["f16", "bf16"]),
         "LOADS": rng.choice(["buffer", "global"])}
    if arch == "gfx950" and rng.random() < 0.3:
        d["KDOUBLE"] = 1
    elif rng.random() < 0.2:
        d["KPACK"] = 2
    dbg = rng.choice(["", "", "-g", "-gline-tables-only"])
    return (src, arch, tuple(sorted(d.items())), dbg)


class ShapeCache:
    """Compiles each (source, arch, -D set, debug) once; thread-safe."""

    def __init__(self, args, work):
        self.args, self.work = args, work
        self.lock = threading.Lock()
        self.entries = {}

    def get(self, shape):
        with self.lock:
            ent = self.entries.get(shape)
            if ent is None:
                ent = self.entries[shape] = {"event": threading.Event(), "path": None,
                                             "err": None}
                owner = True
            else:
                owner = False
        if owner:
            src, arch, defs, dbg = shape
            path = os.path.join(self.work, "k%04d.ll" % len(self.entries))
            cmd = [self.args.clang, "-x", "hip", "--offload-arch=" + arch, "-nogpulib",
                   "-nogpuinc", "--offload-device-only", "-O3", "-S", "-emit-llvm",
                   os.path.join(KERNELS, src), "-o", path] + \
                  ["-D%s=%s" % kv for kv in defs] + ([dbg] if dbg else [])
            rc, err, _, to = run(cmd, self.args.timeout)
            if rc == 0 and not to:
                with open(path) as f:
                    ent["text"] = f.read()
                ent["path"] = path
            else:
                ent["err"] = "timeout" if to else (err.strip().splitlines() or ["?"])[-1]
            ent["event"].set()
        ent["event"].wait()
        return ent


# ---------------------------------------------------------------- directives
def mutate_layout(rng, text):
    clauses = [c.strip() for c in text.split(";")]
    kind = rng.randrange(9)
    if kind == 0 and len(clauses) > 1:          # drop a clause
        del clauses[rng.randrange(1, len(clauses))]
    elif kind == 1 and len(clauses) > 2:        # swap two clauses
        i, j = rng.sample(range(1, len(clauses)), 2)
        clauses[i], clauses[j] = clauses[j], clauses[i]
    elif kind == 2:                             # replace a token
        toks = re.split(r"(\s+|[;:,])", text)
        idx = [i for i, t in enumerate(toks) if t.strip() and t not in ";:,"]
        toks[rng.choice(idx)] = rng.choice(TOKENS)
        return "".join(toks)
    elif kind == 3:                             # insert a token
        pos = rng.randrange(len(text) + 1)
        return text[:pos] + rng.choice(TOKENS) + text[pos:]
    elif kind == 4:                             # truncate
        return text[:rng.randrange(len(text) + 1)]
    elif kind == 5:                             # change a slice
        return re.sub(r"\[(\d+)(-\d+)?/(\d+)\]",
                      lambda m: "[%d/%d]" % (rng.randrange(6), rng.choice([0, 1, 2, 3, 4, 5, 8, 64])),
                      text, count=rng.randint(1, 3))
    elif kind == 6:                             # duplicate a clause
        clauses.insert(rng.randrange(1, len(clauses) + 1), rng.choice(clauses[1:] or clauses))
    elif kind == 7:                             # toggle sync flags
        flags = rng.sample(["barrier", "asymmetric", "delay-global-data", "bogus"], rng.randint(0, 3))
        clauses = [c for c in clauses if not c.startswith("sync")]
        if flags:
            clauses.insert(1, "sync " + " ".join(flags))
    else:                                       # random bytes
        pos = rng.randrange(len(text) + 1)
        return text[:pos] + "".join(rng.choice("aZ09;:,.[]/- +\t") for _ in range(rng.randint(1, 6))) + text[pos:]
    return "; ".join(clauses)


def md_string(s):
    out = []
    for ch in s:
        if ch == '"' or ch == "\\" or not (32 <= ord(ch) < 127):
            out.extend("\\%02X" % b for b in ch.encode())
        else:
            out.append(ch)
    return '!"%s"' % "".join(out)


def random_directives(rng):
    """Returns (llc option list, attribute or None, loop metadata list, expectation dict)."""
    opts = []
    exp = {"cl": "auto", "cl_bad": False, "md": None, "md_bad": False, "layout": None,
           "attr": None, "attr_bad": False}
    if rng.random() < 0.5:
        if rng.random() < 0.12:
            v = rng.choice(BAD_MODES)
            exp["cl_bad"] = True
        else:
            v = rng.choice(MODES)
            exp["cl"] = v
        opts.append("-amdgpu-pingpong=" + v)
    for flag, vals in (("-amdgpu-pingpong-verify", [None, "=true", "=false", "=0"]),
                       ("-amdgpu-pingpong-replace-schedule", [None, "=true", "=false"]),
                       ("-amdgpu-pingpong-print-roles", [None])):
        if rng.random() < 0.3:
            opts.append(flag + (rng.choice(vals) or ""))
    for flag, vals in (("-amdgpu-pingpong-waits", ["off", "place"]),
                       ("-amdgpu-pingpong-dma", ["off", "hoist"])):
        if rng.random() < 0.3:
            if rng.random() < 0.1:
                opts.append(flag + "=" + rng.choice(["bogus", "", "on"]))
                exp["cl_bad"] = True
            else:
                opts.append(flag + "=" + rng.choice(vals))
    attr = None
    if rng.random() < 0.4:
        r = rng.random()
        if r < 0.6:
            attr = '"amdgpu-pingpong"="%s"' % rng.choice(MODES)
        elif r < 0.85:
            bad = rng.choice([b for b in BAD_MODES if '"' not in b and "\\" not in b])
            attr = '"amdgpu-pingpong"="%s"' % bad
            exp["attr_bad"] = True
        else:
            attr = '"amdgpu-pingpong"'      # no value: reads as ""
            exp["attr_bad"] = True
        if not exp["attr_bad"]:
            exp["attr"] = attr.split("=")[1].strip('"')
    md = []
    if rng.random() < 0.5:
        r = rng.random()
        if r < 0.35:
            m = rng.choice(MODES)
            md.append('!{!"amdgpu.pingpong", %s}' % md_string(m))
            exp["md"] = m
        elif r < 0.5:
            md.append('!{!"amdgpu.pingpong", %s}' % md_string(rng.choice(BAD_MODES)))
            exp["md_bad"] = True
        elif r < 0.6:
            md.append(rng.choice(['!{!"amdgpu.pingpong", i32 4}', '!{!"amdgpu.pingpong"}',
                                  '!{!"amdgpu.pingpong", !"four-cluster", !"two-cluster"}',
                                  '!{!"amdgpu.pingpong", !{!"four-cluster"}}',
                                  '!{!"amdgpu.pingpong", null}']))
            exp["md_bad"] = True
        elif r < 0.7:
            a, b = rng.sample(MODES, 2)
            md.append('!{!"amdgpu.pingpong", !"%s"}' % a)
            md.append('!{!"amdgpu.pingpong", !"%s"}' % b)
            exp["md"] = "conflict"
        else:
            base = LAYOUTS[rng.choice(sorted(LAYOUTS))]
            text = base if rng.random() < 0.3 else mutate_layout(rng, base)
            if rng.random() < 0.1:
                md.append(rng.choice(['!{!"amdgpu.pingpong.layout", i32 1}',
                                      '!{!"amdgpu.pingpong.layout"}']))
                exp["md_bad"] = True
            else:
                md.append('!{!"amdgpu.pingpong.layout", %s}' % md_string(text))
                exp["layout"] = text
            if rng.random() < 0.2:
                md.append('!{!"amdgpu.pingpong", !"%s"}' % rng.choice(MODES))
    return opts, attr, md, exp


def apply_directives(ir, attr, md):
    """Adds the attribute to every kernel and the loop metadata to every loop."""
    if attr:
        groups = set(re.findall(r"^define [^\n]*amdgpu_kernel [^\n]*\)[^\n]*?#(\d+)\b[^\n]*\{$",
                                ir, re.M))
        assert groups, "no kernel attribute group found"
        for g in groups:
            ir = re.sub(r"^(attributes #%s = \{ )" % g, lambda m: m.group(1) + attr + " ", ir,
                        flags=re.M)
    if md:
        loops = sorted(set(re.findall(r"!llvm\.loop !(\d+)", ir)), key=int)
        extra = []
        nid = 90000
        for old in loops:
            m = re.search(r"^!%s = distinct !\{(.*)\}$" % old, ir, re.M)
            ops = [o.strip() for o in m.group(1).split(",")][1:] if m else []
            ids = []
            for node in md:
                extra.append("!%d = %s" % (nid, node))
                ids.append("!%d" % nid)
                nid += 1
            loop_id = nid
            nid += 1
            extra.append("!%d = distinct !{!%d%s}" % (loop_id, loop_id,
                                                     "".join(", " + o for o in ops + ids)))
            ir = re.sub(r"!llvm\.loop !%s\b" % old, "!llvm.loop !%d" % loop_id, ir)
        assert loops, "no !llvm.loop found"
        ir += "\n" + "\n".join(extra) + "\n"
    return ir


def expected(exp, has_loop_md):
    """What the documented precedence makes of the directives: ('bad-option'|
    'bad-directive'|'forced'|'auto'|'maybe', mode)."""
    if exp["cl_bad"]:
        return "bad-option", None
    if exp["cl"] != "auto":
        return "forced", exp["cl"]
    if has_loop_md:
        if exp["md_bad"]:
            return "bad-directive", None
        if exp["layout"] is not None:
            return "layout", None
        if exp["md"] == "conflict":
            return "maybe", None
        if exp["md"] and exp["md"] != "auto":
            return "forced", exp["md"]
    if exp["attr_bad"]:
        return "bad-directive", None
    if exp["attr"] and exp["attr"] != "auto":
        return "forced", exp["attr"]
    return "auto", None


# ---------------------------------------------------------------- one case
def run_case(i, args, cache, work):
    rng = random.Random("%d/%d" % (args.seed, i))
    shape = random_shape(rng, args.with_dma_kernels)
    opts, attr, md, exp = random_directives(rng)
    if args.focus == "layout":
        # Every case carries a layout (the modes' own or a mutation) that the
        # command line does not override.
        opts = [o for o in opts if not o.startswith("-amdgpu-pingpong=")]
        exp["cl"], exp["cl_bad"] = "auto", any(o.split("=")[-1] in ("bogus", "", "on")
                                               for o in opts if o.startswith(("-amdgpu-pingpong-waits",
                                                                              "-amdgpu-pingpong-dma")))
        base_layout = LAYOUTS[rng.choice(sorted(LAYOUTS))]
        text = base_layout if rng.random() < 0.2 else mutate_layout(rng, base_layout)
        if rng.random() < 0.5:
            text = mutate_layout(rng, text)
        md = ['!{!"amdgpu.pingpong.layout", %s}' % md_string(text)]
        exp.update(md=None, md_bad=False, layout=text)
    if args.verify:
        opts = [o for o in opts if not o.startswith("-amdgpu-pingpong-verify")] + \
               ["-amdgpu-pingpong-verify"]
    rec = {"case": i, "shape": {"src": shape[0], "arch": shape[1],
                                "defs": dict(shape[2]), "debug": shape[3]},
           "options": opts, "attribute": attr, "loop_md": md, "outcome": None, "detail": ""}
    k = cache.get(shape)
    if k["path"] is None:
        rec["outcome"], rec["detail"] = "input-error", k["err"]
        return rec
    ir = apply_directives(k["text"], attr, md)
    has_loop = "!llvm.loop" in k["text"]
    path = os.path.join(work, "case%05d.ll" % i)
    with open(path, "w") as f:
        f.write(ir)
    base = [args.llc, "-load", args.plugin, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=" + shape[1],
            "-O3", "-verify-machineinstrs", path, "-o", os.devnull]
    remarks = ["-pass-remarks=amdgpu-pingpong", "-pass-remarks-missed=amdgpu-pingpong"]
    rc, err, secs, to = run(base + remarks + opts, args.timeout)
    rec["seconds"] = round(secs, 2)
    applied = REMARK_APPLIED.findall(err) + ["dma-hoist"] * len(REMARK_HOIST.findall(err))
    missed = REMARK_MISSED.findall(err)
    # Anything on stderr that is not a remark or the role printout is a message.
    errors = [l for l in err.splitlines() if l.strip() and not l.startswith("remark:")
              and not l.startswith("amdgpu-pingpong: ") and not l.startswith(" ")]
    rec["applied"], rec["missed"] = applied, [m[:200] for m in missed]
    verdict, mode = expected(exp, has_loop and bool(md))
    rec["expected"] = verdict if mode is None else "%s %s" % (verdict, mode)
    if to:
        rec["outcome"] = "hang"
    elif (rc is not None and rc < 0) or CRASH.search(err):
        rec["outcome"], rec["detail"] = "crash", (CRASH.search(err) or [""])[0] if rc >= 0 else "signal %d" % -rc
    elif VERIFIER.search(err):
        rec["outcome"] = "verifier"
        rec["detail"] = next((l for l in err.splitlines() if VERIFIER.search(l)), "")
    elif rc != 0:
        if not errors:
            rec["outcome"], rec["detail"] = "silent", "exit %d without an error message" % rc
        elif "amdgpu-pingpong-verify" in err:
            rec["outcome"], rec["detail"] = "checker", errors[0][:300]
        elif verdict == "bad-option":
            rec["outcome"], rec["detail"] = "rejected-option", errors[0][:200]
        elif verdict in ("bad-directive", "layout", "maybe") and "amdgpu-pingpong" in err:
            rec["outcome"], rec["detail"] = "rejected-directive", errors[0][:200]
        else:
            rec["outcome"], rec["detail"] = "wrong-verdict", "unexpected error: " + errors[0][:200]
    else:
        if verdict == "bad-option":
            rec["outcome"], rec["detail"] = "wrong-verdict", "invalid option value accepted"
        elif verdict == "bad-directive":
            rec["outcome"], rec["detail"] = "wrong-verdict", "invalid directive accepted without an error"
        elif applied:
            rec["outcome"] = "applied"
            rec["detail"] = ",".join(sorted(set(applied)))
        elif verdict in ("forced", "layout", "maybe") and mode != "auto":
            if missed:
                rec["outcome"], rec["detail"] = "refused-with-remark", missed[0][:200]
            elif verdict == "maybe":
                rec["outcome"] = "no-loop-directive"
            else:
                rec["outcome"] = "silent"
                rec["detail"] = "forced %s not applied and no remark" % (mode or "layout")
        else:
            rec["outcome"] = "refused-with-remark" if missed else "untouched"
            rec["detail"] = missed[0][:200] if missed else ""
    # Forced but not applied: does it say anything without remark flags?
    if args.quiet_check and rec["outcome"] == "refused-with-remark" and \
            verdict in ("forced", "layout") and mode != "off":
        rc2, err2, _, to2 = run(base + opts, args.timeout)
        rec["quiet"] = not (err2.strip()) and rc2 == 0
    return rec


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--json", help="write every case to this file")
    ap.add_argument("--keep", help="keep the generated .ll files here")
    ap.add_argument("--focus", choices=["any", "layout"], default="any",
                    help="layout: every case carries a (mostly mutated) layout in its loop metadata")
    ap.add_argument("--with-dma-kernels", action="store_true",
                    help="30%% of the shapes from test/kernels/calib/fp4_gemm.hip (LDS DMA, "
                         "gfx950; PINGPONG/LOADPOS/WAITS variants)")
    ap.add_argument("--verify", action="store_true",
                    help="every case runs -amdgpu-pingpong-verify (the wait/barrier checker)")
    ap.add_argument("--quiet-check", action="store_true",
                    help="rerun forced-but-refused cases without remark flags and count the silent ones")
    ap.add_argument("--llvm-bin", default=str(tools.LLVM_BIN))
    ap.add_argument("--plugin", default=str(tools.in_build(tools.PLUGIN_IN_BUILD)))
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case")
    args = ap.parse_args()
    args.llc = os.path.join(args.llvm_bin, "llc")
    args.clang = os.path.join(args.llvm_bin, "clang++")
    if not os.path.exists(args.plugin):
        print("fuzz-directives: plugin not found: %s" % args.plugin, file=sys.stderr)
        return 2
    work = args.keep or tempfile.mkdtemp(prefix="fuzz-directives.")
    os.makedirs(work, exist_ok=True)
    cache = ShapeCache(args, work)
    t0 = time.monotonic()
    counts, recs = {}, []
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        for rec in ex.map(lambda i: run_case(i, args, cache, work), range(args.cases)):
            recs.append(rec)
            counts[rec["outcome"]] = counts.get(rec["outcome"], 0) + 1
            if args.verbose or rec["outcome"] in FAIL:
                print("case %d: %s (%s) %s %s %s attr=%s md=%s: %s" % (
                    rec["case"], rec["outcome"], rec.get("expected"), rec["shape"]["arch"],
                    rec["shape"]["src"], " ".join("-D%s=%s" % kv for kv in rec["shape"]["defs"].items())
                    + (" " + rec["shape"]["debug"] if rec["shape"]["debug"] else ""),
                    rec["attribute"], rec["loop_md"], rec["detail"]), flush=True)
                if rec["outcome"] in FAIL:
                    print("  options: %s" % " ".join(rec["options"]), flush=True)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    quiet = sum(1 for r in recs if r.get("quiet"))
    order = ["applied", "refused-with-remark", "rejected-directive", "rejected-option",
             "untouched", "no-loop-directive", "checker", "input-error"] + list(FAIL)
    line = "fuzz-directives: seed %d%s, %d cases, %d kernel builds in %.0f s: " % (
        args.seed, (" (%s%s)" % ("focus layout" if args.focus == "layout" else "",
                                   ", verify" if args.verify else "")).replace("(, ", "(")
        if args.focus == "layout" or args.verify else "", args.cases, len(cache.entries), time.monotonic() - t0)
    line += ", ".join("%s %d" % (k, counts.get(k, 0)) for k in order)
    if args.quiet_check:
        line += " | forced, refused, silent without remark flags: %d" % quiet
    print(line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"counts": counts, "quiet_without_remarks": quiet, "cases": recs}, f, indent=1)
    return 1 if any(counts.get(k, 0) for k in FAIL) else 0


if __name__ == "__main__":
    sys.exit(main())
