#!/usr/bin/env python3
"""Mutation test of `pingpong-sim verify` on assembly.

Deletes each s_waitcnt and each s_barrier of the kernel's text in a .s file in
turn -- one per copy -- and runs `pingpong-sim verify` on every copy. Prints a
line per mutation (caught / MISSED, where it is, the first finding), then

  N of M mutations caught
  required (hot loop + asymmetric-sync barriers): R of Q caught

"loop" = between the hot loop's header label and its back-edge (the innermost
back-edge whose body has an MFMA, as pingpong-sim picks it); "asym" = an
s_barrier that is the first instruction after a conditional branch (the wave
group's extra barrier of the asymmetric sync); "prologue"/"epilogue" otherwise.

usage: mutate-sync-asm.py K.s OUTDIR [--loop-only] [pingpong-sim verify options...]
--loop-only: mutate only the hot loop's waits and barriers (and the
asymmetric-sync barriers), the required ones; faster on kernels with long
prologues and epilogues.
--accept-unproven: the unmutated kernel may have pairs verify cannot prove
(exit 3) as long as it reports 0 findings (e.g. Triton's replicated-value
stores); a mutation is caught only by a finding.
Exit code: 0 if the unmutated kernel is clean and every required mutation is
caught, else 1.
"""
import os, re, subprocess, sys

src, out = sys.argv[1:3]
extra = sys.argv[3:]
loop_only = "--loop-only" in extra
accept_unproven = "--accept-unproven" in extra
extra = [a for a in extra if a not in ("--loop-only", "--accept-unproven")]
sim = os.environ.get("PINGPONG_SIM", "pingpong-sim")
os.makedirs(out, exist_ok=True)
lines = open(src).read().split("\n")


def code(l):
    """The instruction on a line, without comments (empty for labels/directives)."""
    t = l.split(";")[0].strip()
    if not t or t.startswith(".") or t.endswith(":"):
        return ""
    return t


# kernel text: from the first function label to its .Lfunc_end
start = end = None
for i, l in enumerate(lines):
    m = re.match(r"\s*\.type\s+([\w.$]+),@function", l)
    if m and start is None:
        name = m.group(1)
        for j in range(i, len(lines)):
            if lines[j].startswith(name + ":"):
                start = j
                break
    if start is not None and end is None and i > start and re.match(r"\.Lfunc_end\d+:", l):
        end = i
if start is None or end is None:
    sys.exit(f"{src}: no function found")

labels = {}
for i in range(start, end):
    m = re.match(r"([.\w$]+):", lines[i])
    if m:
        labels[m.group(1)] = i

# hot loop: the innermost back-edge whose body contains an MFMA
loop = None
for i in range(start, end):
    m = re.match(r"s_(?:c?branch\w*)\s+([.\w$]+)", code(lines[i]))
    if not m or m.group(1) not in labels or labels[m.group(1)] >= i:
        continue
    h = labels[m.group(1)]
    if any(code(lines[k]).startswith("v_mfma") for k in range(h, i)):
        if loop is None or i - h < loop[1] - loop[0]:
            loop = (h, i)


def where(i):
    if loop and loop[0] < i < loop[1]:
        return "loop"
    if code(lines[i]).startswith("s_barrier"):
        prev = next((code(lines[k]) for k in range(i - 1, start, -1) if code(lines[k])), "")
        if prev.startswith("s_cbranch_"):
            return "asym"
    return "prologue" if loop is None or i < loop[0] else "epilogue"


def verify(text):
    path = os.path.join(out, "mutant.s")
    open(path, "w").write(text)
    r = subprocess.run([sim, "verify", path] + extra, capture_output=True, text=True)
    m = re.search(r"verify: finding: (.*)", r.stdout)
    if r.returncode == 1 and m:
        return True, m.group(1)
    if r.returncode == 0:
        return False, r.stdout.strip().split("\n")[-1]
    clean = re.search(r"verify: .*, 0 findings", r.stdout)
    if r.returncode == 3 and accept_unproven and clean:
        return False, clean.group(0) + " (some pairs not proven)"
    return False, "ERROR rc=%d: %s" % (r.returncode, (r.stderr or r.stdout).strip()[-300:])


ok, msg = verify("\n".join(lines))
if ok or msg.startswith("ERROR"):
    print("unmutated kernel: FINDING " + msg)
    sys.exit(1)
print("unmutated kernel: clean: " + msg)

caught = total = req = req_caught = 0
for i in range(start, end):
    c = code(lines[i])
    if not (c.startswith("s_waitcnt") or c == "s_barrier"):
        continue
    w = where(i)
    if loop_only and w not in ("loop", "asym"):
        continue
    mutant = lines[:i] + [";" + lines[i]] + lines[i + 1:]  # same line numbers
    hit, why = verify("\n".join(mutant))
    total += 1
    caught += hit
    if w in ("loop", "asym"):
        req += 1
        req_caught += hit
    print(f"{'caught' if hit else 'MISSED'}: delete `{c}` (line {i + 1}, {w}): {why}")
print(f"{caught} of {total} mutations caught")
print(f"required (hot loop + asymmetric-sync barriers): {req_caught} of {req} caught")
sys.exit(0 if req_caught == req else 1)
