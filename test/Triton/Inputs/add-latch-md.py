#!/usr/bin/env python3
"""add-latch-md.py IN OUT LAYOUT: put !{!"amdgpu.pingpong.layout", !"LAYOUT"} on the back
edge of the first loop whose header follows a `.lr.ph` block, else of the first single-block
loop (Triton's IR carries no !llvm.loop to add it to)."""
import re
import sys

src, dst, layout = sys.argv[1:4]
ir = open(src).read()
m = re.search(r"^(\d+):\s+; preds = %\.lr\.ph, %(\d+)", ir, re.M) or \
    re.search(r"^(\d+):\s+; preds = %[\w.]+, %\1\b", ir, re.M)
if not m:
    sys.exit("add-latch-md.py: no loop header after a .lr.ph block and no single-block loop")
hdr = m.group(1)
latch = re.search(r"^\s+br i1 [^\n]*label %" + hdr + r"\b[^\n]*$", ir, re.M).group(0)
ir = ir.replace(latch, latch + ", !llvm.loop !99990", 1)
ir += '\n!99990 = distinct !{!99990, !99991}\n!99991 = !{!"amdgpu.pingpong.layout", !"%s"}\n' % layout
open(dst, "w").write(ir)
