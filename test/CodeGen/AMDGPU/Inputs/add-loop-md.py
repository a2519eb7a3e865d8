#!/usr/bin/env python3
"""add-loop-md.py IN OUT NODE...: append loop-option NODEs (LLVM metadata text,
e.g. '!{!"amdgpu.pingpong.layout", !"pingpong-layout v1; ..."}') to every
!llvm.loop of IN, keeping the options already there."""
import re
import sys

src, dst, nodes = sys.argv[1], sys.argv[2], sys.argv[3:]
ir = open(src).read()
extra, nid = [], 90000
for old in sorted(set(re.findall(r"!llvm\.loop !(\d+)", ir)), key=int):
    m = re.search(r"^!%s = distinct !\{(.*)\}$" % old, ir, re.M)
    ops = [o.strip() for o in m.group(1).split(",")][1:] if m else []
    for node in nodes:
        extra.append("!%d = %s" % (nid, node))
        ops.append("!%d" % nid)
        nid += 1
    extra.append("!%d = distinct !{!%d%s}" % (nid, nid, "".join(", " + o for o in ops)))
    ir = re.sub(r"!llvm\.loop !%s\b" % old, "!llvm.loop !%d" % nid, ir)
    nid += 1
if not extra:
    sys.exit("add-loop-md.py: no !llvm.loop in %s" % src)
open(dst, "w").write(ir + "\n" + "\n".join(extra) + "\n")
