#!/usr/bin/env python3
"""mutations-check.py K.s OUTDIR [verify options...]: runs scripts/mutate-sync-asm.py
(every s_waitcnt / s_barrier of the kernel deleted in turn, `pingpong-sim verify`
on each copy) and judges the hot loop's mutations:

  caught       verify reports a finding;
  explained    missed, and the deleted wait provably waits for nothing: an earlier
               s_waitcnt of the same basic block already waited at least as far on
               each counter it names, and no operation on that counter was issued
               in between (e.g. a second lgkmcnt(0) with only MFMAs since the first;
               counter by counter: vmcnt(0) lgkmcnt(0) after a vmcnt(0), LDS ops and
               an lgkmcnt(0));
               or (saturated) every LDS result the deleted lgkmcnt wait completes is read
               only after at least 15 younger LDS/SMEM operations issued (gfx9's 4-bit
               lgkmcnt: a wave cannot have more outstanding, so it is complete there, as
               LLVM's SIInsertWaitcnts and pingpong-sim assume);
               or the deleted s_barrier is one of a redundant pair: deleting it
               together with another barrier of the loop is caught (each alone
               orders every pair, e.g. Triton's two barriers per iteration of a
               three-stage loop, where a buffer is rewritten one iteration after
               its last read);
  UNEXPLAINED  missed otherwise: a checker gap, or a wait/barrier the rules do not
               see a need for.

Prints one line per explained or unexplained mutation and a summary; exits 1 if the
unmutated kernel is not clean, if the loop gave no mutation at all, or if any loop
mutation is unexplained. Waits and barriers outside the loop are not mutated.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "..", "..", "scripts", "mutate-sync-asm.py")

src, out = sys.argv[1], sys.argv[2]
# only the loop is judged, so only the loop is mutated (--loop-only)
r = subprocess.run([sys.executable, SCRIPT, src, out, "--loop-only"] + sys.argv[3:],
                   capture_output=True, text=True)
lines = open(src).read().split("\n")
res = r.stdout.split("\n")
name = os.path.basename(os.path.dirname(os.path.abspath(src))) or src

if not any(l.startswith("unmutated kernel: clean") for l in res):
    print(f"{name}: the unmutated kernel is not clean:\n" + r.stdout + r.stderr)
    sys.exit(1)


def code(l):
    t = l.split(";")[0].strip()
    return "" if not t or t.startswith(".") else t


def waits(text):
    """Counters an s_waitcnt names: {'vm': n, 'lgkm': n}."""
    return {c: int(n) for c, n in re.findall(r"\b(vm|lgkm)cnt\((\d+)\)", text)}


def counters_of(op):
    """Which counters an instruction increments (gfx9): vm and/or lgkm."""
    c = set()
    if re.match(r"(buffer|global|scratch|tbuffer|flat)_", op):
        c.add("vm")
    if re.match(r"(ds_|flat_|s_load|s_buffer_load|s_store|s_buffer_store|s_sendmsg|s_memtime|"
                r"s_memrealtime|s_dcache|s_atomic|s_buffer_atomic|s_scratch_)", op):
        c.add("lgkm")
    return c


def redundant(i):
    """Line index i holds an s_waitcnt: the earlier wait of its block that makes it redundant
    (each counter it names already waited at least as far, by that wait or, counter by counter,
    by a later one of the block, with no operation on the counter issued since: the earliest
    such wait is returned)."""
    need = waits(code(lines[i]))
    if not need:
        return None
    done = {}  # counter -> the line index of the wait that already covers it
    for k in range(i - 1, -1, -1):
        t = code(lines[k])
        if not t:
            continue
        if t.endswith(":") or t.startswith("s_cbranch") or t.startswith("s_branch"):
            return None  # block boundary: other paths may reach the wait
        if t.startswith("s_waitcnt"):
            have = waits(t)
            for c, n in need.items():
                if c not in done and c in have and have[c] <= n:
                    done[c] = k
            if len(done) == len(need):
                return min(done.values())
            continue
        if counters_of(t) & (set(need) - set(done)):
            return None
    return None


LGKM_MAX = 15  # gfx9's lgkmcnt field (4 bits)


def regs(text):
    """VGPR/AGPR numbers named in an operand string: v7, v[4:7], a[0:3]."""
    out = set()
    for kind, a, b in re.findall(r"\b([va])\[(\d+):(\d+)\]", text):
        out |= {(kind, i) for i in range(int(a), int(b) + 1)}
    for kind, a in re.findall(r"\b([va])(\d+)\b", text):
        out.add((kind, int(a)))
    return out


def saturated(i):
    """Line index i holds an `s_waitcnt lgkmcnt(N)` (no vmcnt): every LDS read
    outstanding at it that it would complete (N or more LDS/SMEM operations
    younger, in the same block) is read first where at least LGKM_MAX younger
    ones were issued, or not read before the block's next lgkm wait."""
    need = waits(code(lines[i]))
    if set(need) != {"lgkm"}:
        return False
    n = need["lgkm"]
    ops = []  # [line index, destination registers] of the block's lgkm ops before i
    for k in range(i - 1, -1, -1):
        t = code(lines[k])
        if not t:
            continue
        if t.endswith(":") or t.startswith("s_cbranch") or t.startswith("s_branch"):
            # The block's start: what other paths left outstanding is older than
            # every operation here, complete at the wait if the block issued the
            # counter's limit before it.
            if len(ops) < LGKM_MAX:
                return False
            break
        if t.startswith("s_waitcnt") and "lgkm" in waits(t):
            break
        if "lgkm" in counters_of(t):
            parts = t.split(None, 1)
            dst = regs(parts[1].split(",")[0]) if len(parts) > 1 and parts[0].startswith("ds_read") else set()
            ops.insert(0, [k, dst])
    pending = [d for j, (k, d) in enumerate(ops) if len(ops) - 1 - j >= n and d]
    if not pending:
        return False
    younger = {id(d): len(ops) - 1 - j for j, (k, d) in enumerate(ops)}
    for k in range(i + 1, len(lines)):
        t = code(lines[k])
        if not t:
            continue
        if t.endswith(":") or t.startswith("s_cbranch") or t.startswith("s_branch") or \
                (t.startswith("s_waitcnt") and "lgkm" in waits(t)):
            return True
        parts = t.split(None, 1)
        args = parts[1] if len(parts) > 1 else ""
        used = regs(args)
        for d in pending:
            if d & used and younger[id(d)] < LGKM_MAX:
                return False
        if "lgkm" in counters_of(t):
            for d in pending:
                younger[id(d)] += 1
    return False


loop_barriers = [int(m.group(3)) for m in
                 (re.match(r"(caught|MISSED): delete `(s_barrier.*)` \(line (\d+), loop\)", l)
                  for l in res) if m]


def redundant_pair(line, barrier=None):
    """A missed s_barrier (1-based line): another loop barrier whose deletion
    together with it verify catches, and the finding; or None. With barrier,
    line is the drain wait right before that barrier: another loop barrier
    whose deletion together with the wait is caught."""
    sim = os.environ.get("PINGPONG_SIM", "pingpong-sim")
    for other in loop_barriers:
        if other in (line, barrier):
            continue
        both = os.path.join(out, f"pair-{line}-{other}.s")
        with open(both, "w") as f:
            f.write("\n".join(t for i, t in enumerate(lines) if i + 1 not in (line, other)))
        v = subprocess.run([sim, "verify", both] + [a for a in sys.argv[3:] if a != "--accept-unproven"],
                           capture_output=True, text=True)
        finding = next((x for x in v.stdout.split("\n") if "finding:" in x), None)
        if v.returncode == 1 and finding:
            return other, finding.split("finding:", 1)[1].strip()
    return None


total = caught = explained = 0
bad = []
pat = re.compile(r"(caught|MISSED): delete `(.*)` \(line (\d+), (\w+)\): (.*)")
for l in res:
    m = pat.match(l)
    if not m:
        continue
    hit, text, line, where = m.group(1) == "caught", m.group(2), int(m.group(3)), m.group(4)
    if where not in ("loop", "asym"):
        continue
    total += 1
    if hit:
        caught += 1
        continue
    k = redundant(line - 1) if text.startswith("s_waitcnt") else None
    sat = k is None and text.startswith("s_waitcnt") and saturated(line - 1)
    pair = redundant_pair(line) if text.startswith("s_barrier") else None
    drain = None
    if k is None and text.startswith("s_waitcnt"):
        # The drain right before a barrier: where that barrier's own deletion
        # is missed too (one of a redundant pair, e.g. a three-stage loop's
        # two barriers per iteration), the wait is needed only as that
        # barrier's drain; deleted together with the pair's other barrier it
        # must be caught.
        nxt = next((j for j in range(line, len(lines)) if code(lines[j])), None)
        if nxt is not None and code(lines[nxt]).startswith("s_barrier") and \
                (nxt + 1) in loop_barriers and \
                any(re.match(rf"MISSED: delete `s_barrier.*` \(line {nxt + 1}, loop\)", x)
                    for x in res) and redundant_pair(nxt + 1) is not None:
            p2 = redundant_pair(line, barrier=nxt + 1)
            if p2 is not None:
                drain = (nxt + 1,) + p2
    if k is not None:
        explained += 1
        print(f"explained: line {line} `{text}` waits for nothing: line {k + 1} `{code(lines[k])}` "
              f"already did, and no operation on its counter was issued since")
    elif sat:
        explained += 1
        print(f"explained: line {line} `{text}`: every LDS result it completes is read only "
              f"after {LGKM_MAX} younger LDS/SMEM operations issued (the counter's limit)")
    elif pair is not None:
        explained += 1
        print(f"explained: line {line} `{text}` is one of a redundant pair: deleted together "
              f"with line {pair[0]}'s s_barrier, caught: {pair[1][:160]}")
    elif drain is not None:
        explained += 1
        print(f"explained: line {line} `{text}` drains for line {drain[0]}'s s_barrier, one of a "
              f"redundant pair: deleted together with line {drain[1]}'s s_barrier, caught: "
              f"{drain[2][:160]}")
    else:
        bad.append(l)
        print(f"UNEXPLAINED: {l}")
print(f"{name}: {total} loop mutations: {caught} caught, {explained} explained, "
      f"{len(bad)} unexplained")
if total == 0:
    print(f"{name}: no mutation of the loop was produced (no hot loop, or no wait/barrier in it)")
sys.exit(1 if bad or total == 0 else 0)
