#!/usr/bin/env python3
"""usage: compare-vgpr-count.py BASE.s NEW.s

Compares the register counts the AMDGPU backend wrote for each kernel of two
builds of the same code (.vgpr_count, .agpr_count and .private_segment_fixed_size
of the HSA metadata). Prints one line per kernel and exits 1 if NEW needs more
of any than BASE, 2 if a file has no kernel or the two name different kernels.
"""
import re
import sys

FIELDS = ("vgpr_count", "agpr_count", "private_segment_fixed_size")


def kernels(path):
    """{kernel name: {field: value}} from the amdhsa.kernels metadata (one
    "  - ." list item per kernel; its fields, .name among them, in any order)."""
    out, entries, inside = {}, [], False
    for line in open(path):
        if line.startswith("amdhsa.kernels:"):
            inside = True
            continue
        if not inside:
            continue
        if re.match(r"^\S", line):  # the next top-level key
            inside = False
            continue
        if line.startswith("  - ."):
            entries.append({})
        m = re.match(r"^  (?:- |  )\.(\w+):\s+(\S+)\s*$", line)
        if m and entries:
            entries[-1][m.group(1)] = m.group(2)
    for e in entries:
        if "name" in e and "vgpr_count" in e:
            out[e["name"]] = {f: int(e.get(f, 0)) for f in FIELDS}
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    base, new = kernels(sys.argv[1]), kernels(sys.argv[2])
    if not base or not new or set(base) != set(new):
        print(f"compare-vgpr-count: kernels differ or missing: {sorted(base)} vs {sorted(new)}",
              file=sys.stderr)
        return 2
    worse = False
    for name in sorted(base):
        more = any(new[name][f] > base[name][f] for f in FIELDS)
        print(f"{name}: " + ", ".join(f"{f} {base[name][f]} -> {new[name][f]}" for f in FIELDS) +
              (": MORE" if more else ""))
        worse |= more
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
