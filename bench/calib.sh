#!/usr/bin/env bash
# calib.sh: the direction checks of docs/cycle-model.md ("Calibration:
# published comparisons"). Builds each pair of test/kernels/calib/ and
# test/kernels/gemm.hip variants for gfx950, runs pingpong-sim on both at the
# stated problem size (L2 reuse rule) and prints
#   check  variant  cycles/iter  MFMA-busy%  ratio(baseline/variant)
# env: LLVM_BIN=/usr/lib/llvm-22/bin BUILD=build OUT=build/calib ITER=16 SIM=… PLUGIN=…
# "speedup" = baseline cycles / variant cycles; for the HipKittens pair (different
# tiles) it is the MFMA-busy ratio variant / baseline (throughput at equal clock).
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
LLVM_BIN="${LLVM_BIN:-/usr/lib/llvm-22/bin}"
BUILD="${BUILD:-$here/build}"
OUT="${OUT:-$BUILD/calib}"
ITER="${ITER:-16}"
SIM="${SIM:-$BUILD/bin/pingpong-sim}"
PLUGIN="${PLUGIN:-$BUILD/lib/AMDGPUPingpong.so}"
mkdir -p "$OUT"
hipcc() { "$LLVM_BIN/clang++" -x hip --offload-arch=gfx950 -nogpulib -nogpuinc --offload-device-only -O3 -S -emit-llvm "$@"; }
llc() { "$LLVM_BIN/llc" -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 -O3 "$@"; }
base=""; baseb=""
# run NAME SRC "DFLAGS" "LLC_EXTRA" "SIM ARGS"  (first of a pair = baseline)
run() {
  local name="$1" src="$2" d="$3" lx="$4" sa="$5" first="${6:-}" by="${7:-cycles}"
  hipcc "$src" $d -o "$OUT/$name.ll" && llc $lx "$OUT/$name.ll" -o "$OUT/$name.s" 2> "$OUT/$name.llc.log" &&
    "$SIM" run "$OUT/$name.s" --iterations "$ITER" $sa --json "$OUT/$name.json" > "$OUT/$name.report" ||
    { echo "$name: failed (see $OUT)"; return; }
  read -r c b < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%.1f %.1f" % (d["cycles_per_iteration"], d["mfma_busy_pct"]))' "$OUT/$name.json")
  [ "$first" = first ] && { base="$c"; baseb="$b"; }
  local r
  if [ "$by" = busy ]; then r="$(python3 -c "print('%.3f' % ($b / $baseb))")"
  else r="$(python3 -c "print('%.3f' % ($base / $c))")"; fi
  printf '%-34s %12s %8s %8s\n' "$name" "$c" "$b" "$r"
}
# runasm NAME FILE.s "SIM ARGS" [first]: the same for committed assembly (no compile)
runasm() {
  local name="$1" asm="$2" sa="$3" first="${4:-}"
  "$SIM" run "$asm" --iterations "$ITER" $sa --json "$OUT/$name.json" > "$OUT/$name.report" ||
    { echo "$name: failed (see $OUT/$name.report)"; return; }
  read -r c b < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%.1f %.1f" % (d["cycles_per_iteration"], d["mfma_busy_pct"]))' "$OUT/$name.json")
  [ "$first" = first ] && { base="$c"; baseb="$b"; }
  printf '%-34s %12s %8s %8s\n' "$name" "$c" "$b" "$(python3 -c "print('%.3f' % ($base / $c))")"
}
K="$here/test/kernels"
printf '%-34s %12s %8s %8s\n' variant cycles/iter MFMA% speedup
# (a) seed 004: skinny M=128 MXFP4, 128x128x512 tile, 8 waves, LDS DMA, 2 stages.
A="--gemm 128,106496,16384 --tile 128,128"
run seed004.no-pingpong  "$K/calib/fp4_gemm.hip" "-DLOADPOS=1 -DPINGPONG=0" "" "$A" first
run seed004.pingpong     "$K/calib/fp4_gemm.hip" "-DLOADPOS=1 -DPINGPONG=1" "" "$A"
# (b) seed 002: M=32, 32x64x512 tile, 4 waves, loads at the end vs right after the wait.
B="--gemm 32,53248,16384 --tile 32,64"
run seed002.load-at-end    "$K/calib/fp4_gemm.hip" "-DBM=32 -DBN=64 -DWAVES=4 -DWAVES_M=1 -DLOADPOS=0" "" "$B" first
run seed002.load-after-wait "$K/calib/fp4_gemm.hip" "-DBM=32 -DBN=64 -DWAVES=4 -DWAVES_M=1 -DLOADPOS=1" "" "$B"
# (c) HipKittens bf16: 4-wave (1 wave per SIMD, 128x128x64, compiler interleave)
#     vs 8-wave pingpong (256x256x64, the plugin's four-cluster), 8192^3.
#     Different tiles: compare MFMA busy % (throughput), not cycles.
run hk.bf16.4wave "$K/gemm.hip" "-DBM=128 -DBN=128 -DWAVES=4 -DMFMA=16 -DDTYPE=bf16" "" \
    "--gemm 8192,8192,8192 --tile 128,128 --workgroups-per-cu 1 --waves-per-workgroup 4" first busy
run hk.bf16.8wave-pingpong "$K/gemm.hip" "-DBM=256 -DBN=256 -DWAVES=8 -DMFMA=16 -DDTYPE=bf16" \
    "-load $PLUGIN -pass-remarks=amdgpu-pingpong" "--gemm 8192,8192,8192 --tile 256,256" "" busy
# (d) Triton PR #5018 (block pingpong, MI300X = gfx942): "+10% on a compute-bound fbgemm fp8
#     shape" (tile not stated). Triton 3.6's own assembly (corpus/triton) of the fp8 gfx942 GEMM
#     its pingpong changes: 128x128x128 TN, 4 warps, one-cluster; the 256x256x128 and 256x128x128
#     fp8 gfx942 cases compile to the same code with and without it. Two workgroups per CU (LDS
#     32 KB, occupancy 2), 8192^3 through the L2 rule.
T="$here/corpus/triton"
D="--mcpu gfx942 --waves-per-workgroup 4 --workgroups-per-cu 2 --gemm 8192,8192,8192 --tile 128,128"
runasm triton5018.fp8.no-pingpong "$T/mm_fp8_tn_128x128x128_w4_ns2_gfx942_pp0/kernel.amdgcn" "$D" first
runasm triton5018.fp8.pingpong    "$T/mm_fp8_tn_128x128x128_w4_ns2_gfx942_pp1/kernel.amdgcn" "$D"
