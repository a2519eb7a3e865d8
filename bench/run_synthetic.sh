#!/usr/bin/env bash
# run_synthetic.sh: generate the synthetic single-block kernels and time llc.
# usage: bench/run_synthetic.sh [OUTDIR] [-- extra llc args, e.g. -load build/lib/Plugin.so]
#   SIZES="5000 10000 20000 40000"  TARGETS="gfx942 gfx950"  LOADS=buffer  LLVM_BIN=/usr/lib/llvm-22/bin
# Prints: target N loads seconds maxRSS(KB) and the kernel-stats row of the loop.
# Note: above ~16K instructions the final .s shows 2 loop blocks: BranchRelaxation
# (the last pass) turns the backward s_cbranch into an s_getpc/s_setpc long
# branch in a new block; the loop is a single block before that pass.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:-$here/build/synthetic}"; shift || true
[ "${1:-}" = "--" ] && shift
LLVM_BIN="${LLVM_BIN:-/usr/lib/llvm-22/bin}"
SIZES="${SIZES:-5000 10000 20000 40000}"
TARGETS="${TARGETS:-gfx942 gfx950}"
LOADS="${LOADS:-buffer}"
mkdir -p "$OUT"
for n in $SIZES; do
  python3 "$here/bench/gen_synthetic.py" -n "$n" --loads "$LOADS" -o "$OUT/syn$n.$LOADS.ll" 2>/dev/null
  for t in $TARGETS; do
    s="$OUT/syn$n.$LOADS.$t.s"
    tm=$( { /usr/bin/time -f "%e %M" "$LLVM_BIN/llc" -mtriple=amdgcn-amd-amdhsa -mcpu="$t" -O3 \
            "$@" "$OUT/syn$n.$LOADS.ll" -o "$s"; } 2>&1 | tail -1)
    printf '%-7s N=%-6s %-7s llc %6ss %8sKB | %s\n' "$t" "$n" "$LOADS" ${tm% *} ${tm#* } \
      "$("$here/scripts/kernel-stats.sh" --no-header "$s" | awk '{print "blocks="$4, "instrs="$5, "mfma="$6, "ds_read="$7, "ds_write="$8, "vmem="$9, "vgpr="$13, "agpr="$14, "spill="$16}')"
  done
done
