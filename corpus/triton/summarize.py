#!/usr/bin/env python3
"""Print the markdown table of the corpus (one row per kernel: pp0 and pp1 side by side) from the
meta.json files under corpus/triton.  usage: summarize.py [CORPUS_DIR]"""
import glob, json, os, sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))


def load(p):
    try:
        return json.load(open(p))
    except Exception:
        return None


def regs(m):
    if not m or m.get("status") != "ok":
        return "-"
    s = f"{m.get('vgpr_count', '?')}"
    if m.get("vgpr_spill_count"):
        s += f" (spill {m['vgpr_spill_count']})"
    return s


rows = []
for p1 in sorted(glob.glob(os.path.join(root, "*_pp1", "meta.json"))):
    m1 = load(p1)
    base = os.path.basename(os.path.dirname(p1))[:-4]
    m0 = load(os.path.join(root, base + "_pp0", "meta.json"))
    m = m0 or m1
    mode = m1.get("triton_pingpong_mode", "?") if m1.get("status") == "ok" else "compile error (see FAILED.txt)"
    mk = m1.get("markers", {})
    rows.append("| `%s` | %s | %s | %s | %d/%d | %s | %s | %s | %s | %s |" % (
        base, m["arch"], m["kernel"], m["dtype"] + ("" if not m.get("layout") else " " + m["layout"]),
        m["num_warps"], m["num_stages"], "yes" if m["async"] else "", regs(m0), regs(m1), mode,
        "%d/%d" % (mk.get("amdgcn_s_setprio", 0), mk.get("ttgir_cond_barrier", 0))))
print("| case (`_pp0`/`_pp1`) | arch | kernel | dtype | warps/stages | async | VGPRs pp0 | VGPRs pp1 "
      "| Triton pingpong (pp1) | pp1 s_setprio / cond_barrier |")
print("|---|---|---|---|---|---|---|---|---|---|")
print("\n".join(rows))
