#!/usr/bin/env python3
"""Markdown table of the test/kernels matrix for test/kernels/MANIFEST.md.

usage: scripts/build-kernels.sh OUT && python3 scripts/kernels-table.py OUT
Joins OUT/jobs.txt (name src target -D...) with OUT/stats-all.txt
(scripts/kernel-stats.sh --all) and adds Triton's expected pingpong mode.
"""
import re
import sys

MIN_TILE, SMALL_TILE, MEDIUM_TILE, LARGE_TILE = 262144, 16777216, 33554432, 67108864

NEG_REASON = {
    "cast": "reject: VALU (fneg/v_pk_mul) between ds_read and MFMA; Triton pingpong_medium_cast "
            "rejects (dot slicing needs local_load->dot)",
    "if_load": "reject: control flow in the loop (extra load under if; Triton prologue_load)",
    "variant_mask": "reject: K-loop-variant load mask (Triton #10585); body is one block",
    "epilogue": "reject at machine level: persistent epilogue makes the loop multi-block "
                "(Triton accepts its scf.if pattern via isPersistentGemm)",
    "extra_load": "reject: third global load not feeding the dot (Triton three_load)",
}


def mode(waves, bits, mfma, kw8):
    if waves == 4:
        if MIN_TILE <= bits <= SMALL_TILE:
            return "OnePP"
        return "none: tile %d outside [%d, %d]" % (bits, MIN_TILE, SMALL_TILE)
    if bits == MEDIUM_TILE:
        return "TwoPP"
    if bits >= LARGE_TILE:
        if mfma == 16 and kw8:
            return "none: FourPP size, but Triton skips 16x16 && kWidth==8 (known spill)"
        return "FourPP"
    return "none: 8-wave tile %d is neither %d nor >= %d" % (bits, MEDIUM_TILE, LARGE_TILE)


def main():
    out = sys.argv[1]
    jobs = {}
    for l in open(out + "/jobs.txt"):
        f = l.split()
        jobs[f[0]] = (f[1], f[2], " ".join(d for d in f[3:]))
    rows = []
    for l in open(out + "/stats-all.txt"):
        f = l.split()
        if f[0] == "file":
            continue
        name = f[0][:-2]
        src, tgt, defs = jobs[name]
        (kern, loop, blocks, instrs, mf, dr, dw, vl, dma, sb, sw, sp, vg, ag, tv, vsp, ssp, scr) = f[1:]
        m = re.search(r"gemm_([a-z_]+?)_(\d+)x(\d+)x(\d+)_w(\d)_m(\d+)_(f16|bf16)_kd(\d)(_kp2)?_", kern)
        if m:
            var = m.group(1)
            bm, bn, bk, w, mfma, kd = (int(m.group(i)) for i in (2, 3, 4, 5, 6, 8))
            kw8 = kd == 1 or m.group(9) is not None
            bits = bm * bn * bk * 16
            exp = mode(w, bits, mfma, kw8)
            if var in NEG_REASON:
                if var == "cast" and w == 4:
                    exp = ("Triton: OnePP (pingpong_small has the same negf, no slicing at 4 waves); "
                           "VALU between ds_read and MFMA")
                else:
                    exp = NEG_REASON[var] + " [size rule: %s]" % exp
            elif var == "load_reorder":
                exp = exp + " (Triton accepts load_reorder)"
            bits_s = str(bits)
        elif kern.startswith("gemm_fma"):
            exp, bits_s = "reject: no MFMA (FMA dot; Triton fma_dot_neg)", "-"
        else:
            exp, bits_s = "no change: must stay byte-identical", "-"
        rows.append((f[0][:-2], "`%s` %s" % (kern, loop), tgt, defs or "-", blocks, instrs, mf, dr, dw, vl, dma, sb, sw, sp,
                     "%s/%s/%s" % (vg, ag, tv), vsp, bits_s, exp))
    print("| variant (.s stem) | kernel, loop | target | -D flags | blocks | instrs | mfma | ds_read | ds_write "
          "| vmem_load | lds_dma | s_barrier | s_waitcnt | spill_ops | VGPR arch/agpr/total "
          "| vgpr spills | tile bits | expected pingpong |")
    print("|" + "---|" * 18)
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")


if __name__ == "__main__":
    main()
