#!/usr/bin/env python3
"""addr-mutate.py MODE IN.s OUT.s [DELTA]: one LDS address mistake in the hot
loop of an AMDGPU assembly file (the loop after LLVM's 'Loop Header' comment),
for `pingpong-sim addresses` to catch. Prints 'mutated line N: OLD -> NEW' for
each changed line; exits 1 if the loop has no candidate.

  offset   the first ds_read with offset:X, X + DELTA (default 128: the next
           slice's base instead of this one's); DELTA < 0 needs X >= -DELTA
  swap     the address VGPRs of the first two ds_reads with different ones and
           different offsets, neither VGPR written between them (with equal
           offsets and widths the swap only exchanges the destinations: the
           same bytes are read, which no address check can see)
  dropadd  a v_add_u32 vD, vS, X (X not 0) whose vD is the address of a later
           ds_* LDS access of its block: that access reads vS instead (the add
           is skipped for it)
  m0       the first s_add_i32 / s_add_u32 m0, sX, IMM: IMM + DELTA; without one (the M0 fold's
           m0 = sX + sY), one more s_add_i32 m0, m0, DELTA after the first such write (LDS DMA)
"""
import re
import sys

mode, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
delta = int(sys.argv[4], 0) if len(sys.argv) > 4 else 128
lines = open(src).read().split("\n")

start = next((i for i, l in enumerate(lines) if "Loop Header" in l), None)
if start is None:
    sys.exit(f"addr-mutate: {src}: no 'Loop Header' label")
end = next((i for i in range(start + 1, len(lines)) if re.match(r"\s*s_cbranch_\w+\s+" +
            re.escape(lines[start].split(":")[0]) + r"\b", lines[i])), len(lines))


def split(line):
    """(mnemonic, [operands], trailing modifiers) of an instruction line."""
    code = line.split(";")[0].strip()
    m = re.match(r"(\S+)\s*(.*)", code)
    if not m:
        return None, [], ""
    ops = [o.strip() for o in m.group(2).split(",")] if m.group(2) else []
    mods = ""
    if ops:  # modifiers follow the last operand after a space
        parts = ops[-1].split(None, 1)
        ops[-1] = parts[0]
        mods = parts[1] if len(parts) > 1 else ""
    return m.group(1), ops, mods


def join(mn, ops, mods):
    return "\t" + mn + " " + ", ".join(ops) + (" " + mods if mods else "")


def addr_index(mn):
    """Which operand of a ds_* instruction is the address."""
    return 1 if mn.startswith("ds_read") else 0


def regs(op):
    """VGPR numbers an operand names: v7 -> {7}, v[4:7] -> {4..7}."""
    m = re.fullmatch(r"v(\d+)", op)
    if m:
        return {int(m.group(1))}
    m = re.fullmatch(r"v\[(\d+):(\d+)\]", op)
    return set(range(int(m.group(1)), int(m.group(2)) + 1)) if m else set()


def is_ds_access(mn):
    """ds_* that reads or writes LDS memory (not the crossbar ops)."""
    return mn.startswith("ds_") and not re.match(r"ds_(b?permute|swizzle|nop|gws)", mn)


def defs(line):
    """VGPRs a line writes: its first operand (not for stores, whose first operand is read)."""
    mn, ops, _ = split(line)
    if not mn or not ops or re.match(r"(ds_write|buffer_store|global_store|scratch_store|flat_store)", mn):
        return set()
    return regs(ops[0])


def change(i, new):
    print(f"mutated line {i + 1}: '{lines[i].strip()}' -> '{new.strip()}'")
    lines[i] = new


done = False
if mode == "offset":
    for i in range(start, end):
        mn, ops, mods = split(lines[i])
        m = re.search(r"\boffset:(\d+)", mods)
        if mn and mn.startswith("ds_read") and "read2" not in mn and m and int(m.group(1)) + delta >= 0:
            change(i, join(mn, ops, mods.replace(m.group(0), f"offset:{int(m.group(1)) + delta}")))
            done = True
            break
elif mode == "swap":
    reads = [i for i in range(start, end) if (split(lines[i])[0] or "").startswith("ds_read")]
    for x, i in enumerate(reads):
        mi, oi, di = split(lines[i])
        for j in reads[x + 1:]:
            mj, oj, dj = split(lines[j])
            # each base must hold at the other line what it held at its own
            if any(defs(lines[k]) & (regs(oi[1]) | regs(oj[1])) for k in range(i, j)):
                break
            if oi[1] != oj[1] and re.findall(r"offset\d?:\d+", di) != re.findall(r"offset\d?:\d+", dj):
                a, b = oi[:], oj[:]
                a[1], b[1] = oj[1], oi[1]
                change(i, join(mi, a, di))
                change(j, join(mj, b, dj))
                done = True
                break
        if done:
            break
elif mode == "dropadd":
    for i in range(start, end):
        mn, ops, mods = split(lines[i])
        if not mn or not re.fullmatch(r"v_add_u32(_e32|_e64)?", mn) or len(ops) != 3 or mods:
            continue
        d = ops[0]
        srcs = [o for o in ops[1:] if regs(o) and o != d]
        other = [o for o in ops[1:] if o not in srcs]
        if not srcs or (other and other[0] in ("0", "0x0")):
            continue
        s = srcs[0]
        for j in range(i + 1, end):
            l = lines[j]
            if re.match(r"\s*(\.LBB|s_branch|s_cbranch|s_setpc)", l.strip()):
                break
            mj, oj, mdj = split(l)
            if not mj or mj.startswith(";") or mj.startswith("."):
                continue
            if is_ds_access(mj) and len(oj) > addr_index(mj) and oj[addr_index(mj)] == d:
                oj[addr_index(mj)] = s
                print(f"skipped line {i + 1}: '{lines[i].strip()}'")
                change(j, join(mj, oj, mdj))
                done = True
                break
            # a redefinition of vD or vS ends the search (the first operand is the def)
            if defs(l) & (regs(d) | regs(s)):
                break
        if done:
            break
elif mode == "m0":
    for i in range(start, end):
        mn, ops, mods = split(lines[i])
        if mn in ("s_add_i32", "s_add_u32") and len(ops) == 3 and ops[0] == "m0" and re.fullmatch(r"-?(0x[0-9a-f]+|\d+)", ops[2]):
            change(i, join(mn, ops[:2] + [hex(int(ops[2], 0) + delta)], mods))
            done = True
            break
    else:
        # the fold's form (the constant summed before the loop): M0 = sX + sY;
        # one more s_add after it (its SCC is dead, as the write's own was)
        for i in range(start, end):
            mn, ops, mods = split(lines[i])
            if mn in ("s_add_i32", "s_add_u32") and len(ops) == 3 and ops[0] == "m0":
                change(i, lines[i].rstrip() + "\n" + join(mn, ["m0", "m0", hex(delta)], ""))
                done = True
                break
else:
    sys.exit(f"addr-mutate: unknown mode '{mode}'")

if not done:
    print(f"addr-mutate: {src}: no candidate for '{mode}' in the loop (lines {start + 1}-{end + 1})")
    sys.exit(1)
open(dst, "w").write("\n".join(lines))
