#!/usr/bin/env python3
"""count-in-loop.py K.s MNEMONIC: how many instructions starting with MNEMONIC the hot loop has
(the text from a label to the branch back to it, the shortest such span that holds an MFMA).
Prints the count; exit 1 if no loop with an MFMA is found."""
import re, sys

lines = open(sys.argv[1]).read().split("\n")
labels = {}
best = None
for i, l in enumerate(lines):
    m = re.match(r"^(\.LBB[0-9_]+):", l)
    if m:
        labels[m.group(1)] = i
        continue
    m = re.match(r"^\s*s_(?:c?branch)\S*\s+(\.LBB[0-9_]+)", l)
    if m and m.group(1) in labels and labels[m.group(1)] < i:
        body = lines[labels[m.group(1)]:i + 1]
        if any("v_mfma" in b for b in body) and (best is None or len(body) < len(best)):
            best = body
if best is None:
    sys.exit("count-in-loop: no loop with an MFMA in " + sys.argv[1])
print(sum(1 for b in best if b.strip().split(";")[0].strip().startswith(sys.argv[2])))
