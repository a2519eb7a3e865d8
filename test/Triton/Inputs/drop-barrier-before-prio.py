#!/usr/bin/env python3
"""drop-barrier-before-prio.py IN.mir OUT.mir: delete the first S_BARRIER that
directly follows an S_SETPRIO 0 and is followed by SCHED_BARRIER 0 and
S_SETPRIO 1 (a barrier between two raised clusters of a scheduled loop)."""
import sys

src, dst = sys.argv[1:3]
lines = open(src).read().split("\n")
for i in range(len(lines) - 2):
    if (i > 0 and lines[i - 1].strip().startswith("S_SETPRIO 0")
            and lines[i].strip().startswith("S_BARRIER")
            and lines[i + 1].strip().startswith("SCHED_BARRIER 0")
            and lines[i + 2].strip().startswith("S_SETPRIO 1")):
        del lines[i]
        break
else:
    sys.exit("no S_BARRIER before a raised dot cluster")
open(dst, "w").write("\n".join(lines))
