#!/usr/bin/env python3
"""Count, in the first loop of an llc .s file, the SCHED_GROUP_BARRIERs of
its largest scheduling region (regions end at `sched_barrier mask(0)`,
s_setprio, block labels and branches: the boundaries AMDGPU's schedulers keep) and
the SCHED_BARRIERs with a nonzero mask (no boundary)."""
import re, sys

def main():
    on, cur, best, masked = False, 0, 0, 0
    for line in open(sys.argv[1]):
        t = line.strip()
        if "Inner Loop Header" in t:
            on = True
            continue
        if not on:
            continue
        if t.startswith("s_cbranch") or t.startswith("s_branch"):
            best = max(best, cur)
            break
        m = re.match(r"; sched_barrier mask\((0x[0-9A-Fa-f]+)\)", t)
        if (m and int(m.group(1), 16) == 0) or t.startswith("s_setprio") or (t.startswith(".LBB") and t.endswith(":")):
            best, cur = max(best, cur), 0
        elif m:
            masked += 1
        elif t.startswith("; sched_group_barrier"):
            cur += 1
    if not on:
        sys.exit("no loop in " + sys.argv[1])
    print(f"sched_group_barriers in the loop's largest region: {best}")
    print(f"masked sched_barriers in the loop: {masked}")

if __name__ == "__main__":
    main()
