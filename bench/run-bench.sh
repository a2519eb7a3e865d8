#!/usr/bin/env bash
# run-bench.sh: the performance dashboard (issue 3).
#
# Compiles the project's GEMM kernel matrix (test/kernels/gemm.hip: 128x128x64
# 4 waves, 256x128x64 8 waves, 256x256x64 8 waves; f16/bf16; 16x16/32x32 MFMA;
# gfx942/gfx950; see test/kernels/MANIFEST.md) to IR with clang, then with plain
# `llc -O3` and with `llc -load build/lib/AMDGPUPingpong.so -O3`, reads the mode
# the plugin chose from -pass-remarks=amdgpu-pingpong, runs the cycle model
# (build/bin/pingpong-sim) on both at the problem size GEMM (L2 reuse rule
# --gemm/--tile, and the operands' element size, which sets gfx950's loaded
# round trip: docs/cycle-model.md) and prints one row per kernel:
#   kernel target mode  cyc/iter plain  cyc/iter plugin  MFMA% plain  MFMA% plugin  spills  speedup
# spill-pl / spill-pp: scratch bytes per lane (.private_segment_fixed_size);
# speedup = plain cycles / plugin cycles (> 1: the plugin's schedule is faster).
#
# Then the scaled-MXFP4 GEMM (test/kernels/mxfp4_gemm.hip, gfx950 only, BK 256,
# fp4 A/B with e8m0 scales): register-staged ("regs") and LDS-DMA ("dma")
# copies at 256x256 8 waves and 128x128 4 waves (rows mxfp4.*, MXFP4_TILES,
# MXFP4_COPIES; MXFP4_COPIES="" leaves them out).
#
# Occupancy (the same for both compiles): 8-wave kernels run 1 workgroup per CU
# (2 waves per SIMD); 4-wave kernels run 2 workgroups per CU, because 4-wave
# OnePP relies on two waves per SIMD coming from two different workgroups.
#
# usage: bench/run-bench.sh            (the whole matrix)
#   env: TARGETS="gfx942 gfx950"  TILES="128x128x4 256x128x8 256x256x8"
#        DTYPES="f16 bf16"  MFMAS="16 32"  GEMM=8192,8192,8192  ITER=32
#        MXFP4_TILES="256x256x8 128x128x4"  MXFP4_COPIES="regs dma"
#        SIM_ARGS=""  (extra pingpong-sim args)  PP_ARGS="" (extra plugin llc args)
#        LLVM_BIN=/usr/lib/llvm-22/bin  BUILD=build  OUT=build/bench  JOBS=nproc
#        SIM=$BUILD/bin/pingpong-sim  PLUGIN=$BUILD/lib/AMDGPUPingpong.so
# Every intermediate (.ll, .s, remarks, JSON, report) is kept in OUT; a row with
# "-" means a step failed, the reason is in OUT/<row>.*.log.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
LLVM_BIN="${LLVM_BIN:-/usr/lib/llvm-22/bin}"
BUILD="${BUILD:-$here/build}"
OUT="${OUT:-$BUILD/bench}"
TARGETS="${TARGETS:-gfx942 gfx950}"
TILES="${TILES:-128x128x4 256x128x8 256x256x8}"
DTYPES="${DTYPES:-f16 bf16}"
MFMAS="${MFMAS:-16 32}"
MXFP4_TILES="${MXFP4_TILES-256x256x8 128x128x4}"
MXFP4_COPIES="${MXFP4_COPIES-regs dma}"
GEMM="${GEMM:-8192,8192,8192}"
ITER="${ITER:-32}"
SIM_ARGS="${SIM_ARGS:-}"
PP_ARGS="${PP_ARGS:-}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
PLUGIN="${PLUGIN:-$BUILD/lib/AMDGPUPingpong.so}"
SIM="${SIM:-$BUILD/bin/pingpong-sim}"
SRC="$here/test/kernels/gemm.hip"
MXSRC="$here/test/kernels/mxfp4_gemm.hip"
mkdir -p "$OUT"
command -v "$SIM" >/dev/null || { echo "run-bench: $SIM not built (ninja -C $BUILD pingpong-sim)" >&2; exit 1; }
[ -f "$PLUGIN" ] || { echo "run-bench: $PLUGIN not built" >&2; exit 1; }

# The row name of a matrix entry ("mxfp4" entries: the copy kind in place of
# the MFMA size).
row_name() {
  local t="$1" tile="$2" dt="$3" mf="$4"
  local bm="${tile%%x*}" rest="${tile#*x}"; local bn="${rest%%x*}" w="${rest#*x}"
  if [ "$dt" = mxfp4 ]; then echo "mxfp4.${bm}x${bn}x256.w${w}.${mf}.${t}"
  else echo "${bm}x${bn}x64.w${w}.${dt}.m${mf}.${t}"; fi
}

# One matrix entry: compile, run both, write OUT/<row>.row (tab separated).
one() {
  local t="$1" tile="$2" dt="$3" mf="$4"
  local bm="${tile%%x*}" rest="${tile#*x}"; local bn="${rest%%x*}" w="${rest#*x}"
  local row wgs=1 src="$SRC" defs
  row="$(row_name "$@")"
  [ "$w" = 4 ] && wgs=2
  if [ "$dt" = mxfp4 ]; then src="$MXSRC"; defs=(-DBM="$bm" -DBN="$bn" -DWAVES="$w" -DCOPY="$mf")
  else defs=(-DBM="$bm" -DBN="$bn" -DBK=64 -DWAVES="$w" -DMFMA="$mf" -DDTYPE="$dt"); fi
  local ll="$OUT/$row.ll" r=("$row" "$t" "-" "-" "-" "-" "-" "-" "-" "-")
  if ! "$LLVM_BIN/clang++" -x hip --offload-arch="$t" -nogpulib -nogpuinc --offload-device-only -O3 -S -emit-llvm \
       "$src" -o "$ll" "${defs[@]}" > "$OUT/$row.clang.log" 2>&1; then
    (IFS=$'\t'; echo "${r[*]}") > "$OUT/$row.row"; return
  fi
  # the operands' element size sets gfx950's loaded round trip from the data
  # the GEMM re-reads (pingpong-sim --elem-bytes, docs/cycle-model.md)
  local mode cyc busy eb=2
  [ "$dt" = mxfp4 ] && eb=0.5
  for m in plain plugin; do
    local s="$OUT/$row.$m.s" j="$OUT/$row.$m.json" log="$OUT/$row.$m.log" extra=()
    [ "$m" = plugin ] && extra=(-load "$PLUGIN" -pass-remarks=amdgpu-pingpong $PP_ARGS)
    if "$LLVM_BIN/llc" -mtriple=amdgcn-amd-amdhsa -mcpu="$t" -O3 "${extra[@]}" "$ll" -o "$s" > "$log" 2>&1 &&
       "$SIM" run "$s" --mcpu "$t" --iterations "$ITER" --workgroups-per-cu "$wgs" --waves-per-workgroup "$w" \
              --gemm "$GEMM" --tile "$bm,$bn" --elem-bytes "$eb" --occupancy fit $SIM_ARGS --json "$j" > "$OUT/$row.$m.report" 2>> "$log"; then
      read -r cyc busy < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%.1f %.1f" % (d["cycles_per_iteration_at_asked_occupancy"], d["mfma_busy_pct"]))' "$j")
      if [ "$m" = plain ]; then r[3]="$cyc"; r[5]="$busy"; else r[4]="$cyc"; r[6]="$busy"; fi
    fi
    local spill
    spill="$(grep -m1 -oE '\.private_segment_fixed_size: [0-9]+' "$s" 2>/dev/null | grep -oE '[0-9]+$')"
    if [ "$m" = plain ]; then r[8]="${spill:--}"; else r[9]="${spill:--}"; fi
    if [ "$m" = plugin ]; then
      mode="$(grep -oE '[a-z-]+-cluster \((auto|forced)\)' "$log" | head -1 | cut -d' ' -f1)"
      r[2]="${mode:-none}"
    fi
  done
  if [ "${r[3]}" != - ] && [ "${r[4]}" != - ]; then r[7]="$(python3 -c "print('%.3f' % (${r[3]} / ${r[4]}))")"; fi
  (IFS=$'\t'; echo "${r[*]}") > "$OUT/$row.row"
  echo "run-bench: $row done (${r[2]}, speedup ${r[7]})" >&2
}
export -f one row_name
export LLVM_BIN OUT ITER GEMM SIM_ARGS PP_ARGS PLUGIN SIM SRC MXSRC

rows=()
for t in $TARGETS; do for tile in $TILES; do for dt in $DTYPES; do for mf in $MFMAS; do
  rows+=("$t $tile $dt $mf")
done; done; done; done
if [[ " $TARGETS " == *" gfx950 "* ]]; then
  for tile in $MXFP4_TILES; do for c in $MXFP4_COPIES; do rows+=("gfx950 $tile mxfp4 $c"); done; done
fi
echo "run-bench: ${#rows[@]} kernels, $JOBS at a time, intermediates in $OUT" >&2
printf '%s\n' "${rows[@]}" | xargs -P "$JOBS" -L 1 bash -c 'one "$@"' _

echo "problem: GEMM $GEMM (L2 reuse rule), $ITER iterations simulated; 4-wave kernels: 2 workgroups per CU"
printf '%-30s %-7s %-18s %10s %10s %8s %8s %8s %8s %8s\n' kernel target mode cyc/it-plain cyc/it-pp MFMA%-pl MFMA%-pp spill-pl spill-pp speedup
for r in "${rows[@]}"; do
  f="$OUT/$(row_name $r).row"
  [ -f "$f" ] || { echo "run-bench: missing $f" >&2; continue; }
  IFS=$'\t' read -r k t mode c1 c2 b1 b2 sp s1 s2 < "$f"
  printf '%-30s %-7s %-18s %10s %10s %8s %8s %8s %8s %8s\n' "${k%.$t}" "$t" "$mode" "$c1" "$c2" "$b1" "$b2" "$s1" "$s2" "$sp"
done
