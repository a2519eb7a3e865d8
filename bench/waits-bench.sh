#!/usr/bin/env bash
# waits-bench.sh: the cycle model on the skinny MXFP4 LDS-DMA loops of seeds
# 002/004 (test/kernels/calib/fp4_gemm.hip, gfx950) with three wait
# placements: the author's vmcnt(0) before each barrier (WAITS=1), LLVM's own
# waits (WAITS=0; the checker reports a cross-wave race), and the plugin's
# placement (WAITS=0 + -amdgpu-pingpong-waits=place). Prints a markdown table.
# env: BUILD=build LLVM_BIN=/usr/lib/llvm-22/bin ITER=16
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${BUILD:-$here/build}"; L="${LLVM_BIN:-/usr/lib/llvm-22/bin}"; ITER="${ITER:-16}"
P="$BUILD/lib/AMDGPUPingpong.so"; SIM="$BUILD/bin/pingpong-sim"
OUT="$BUILD/waits-bench"; mkdir -p "$OUT"
K="$here/test/kernels/calib/fp4_gemm.hip"
cyc() { "$SIM" run "$1" --iterations "$ITER" $2 --json "$1.json" > /dev/null &&
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%.1f %.1f" % (d["cycles_per_iteration"], d["mfma_busy_pct"]))' "$1.json"; }
verdict() { "$L/llc" -load "$P" -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 -O3 "$1" -o /dev/null \
              -amdgpu-pingpong-verify $2 > /dev/null 2>&1 && echo clean || echo RACE; }
vm() { awk '/Inner Loop Header/,/s_cbranch_scc/' "$1" | grep -oE 'vmcnt\([0-9]+\)' | tr '\n' ' '; }
echo "| shape | load position | waits | vmcnt waits in the loop | checker | cycles/iter | MFMA busy % | vs author |"
echo "|---|---|---|---|---|---|---|---|"
for shape in "M=128 (seed 004): 128x128x512 8 waves, loads after the wait|-DLOADPOS=1|--gemm 128,106496,16384 --tile 128,128" \
             "M=32 (seed 002): 32x64x512, 4 waves, loads at end|-DBM=32 -DBN=64 -DWAVES=4 -DWAVES_M=1 -DLOADPOS=0|--gemm 32,53248,16384 --tile 32,64" \
             "M=32 (seed 002): 32x64x512, 4 waves, loads after the wait|-DBM=32 -DBN=64 -DWAVES=4 -DWAVES_M=1 -DLOADPOS=1|--gemm 32,53248,16384 --tile 32,64"; do
  IFS='|' read -r name flags simargs <<< "$shape"
  tag=$(echo "$flags" | tr -cd 'A-Za-z0-9')
  for w in 1 0; do
    "$L/clang++" -x hip --offload-arch=gfx950 -nogpulib -nogpuinc --offload-device-only -O3 -S -emit-llvm \
      "$K" $flags -DPINGPONG=0 -DWAITS=$w -o "$OUT/$tag.w$w.ll"
  done
  "$L/llc" -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 -O3 "$OUT/$tag.w1.ll" -o "$OUT/$tag.author.s"
  "$L/llc" -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 -O3 "$OUT/$tag.w0.ll" -o "$OUT/$tag.llvm.s"
  "$L/llc" -load "$P" -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 -O3 "$OUT/$tag.w0.ll" -o "$OUT/$tag.placed.s" \
    -amdgpu-pingpong-waits=place
  "$L/llc" -load "$P" -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 -O3 "$OUT/$tag.w0.ll" -o "$OUT/$tag.hoisted.s" \
    -amdgpu-pingpong-dma=hoist -amdgpu-pingpong-waits=place
  read -r ca ba < <(cyc "$OUT/$tag.author.s" "$simargs")
  pos=$(echo "$name" | sed 's/.*, //')
  for v in author llvm placed hoisted; do
    read -r c b < <(cyc "$OUT/$tag.$v.s" "$simargs")
    case $v in author) ll="$OUT/$tag.w1.ll"; x=""; label="author: vmcnt(0) before each barrier";;
               llvm) ll="$OUT/$tag.w0.ll"; x=""; label="LLVM's own";;
               placed) ll="$OUT/$tag.w0.ll"; x="-amdgpu-pingpong-waits=place"; label="plugin placement";;
               hoisted) ll="$OUT/$tag.w0.ll"; x="-amdgpu-pingpong-dma=hoist -amdgpu-pingpong-waits=place"; label="plugin hoist + placement";; esac
    echo "| ${name%%:*} | $pos | $label | $(vm "$OUT/$tag.$v.s")| $(verdict "$ll" "$x") | $c | $b | $(python3 -c "print('%.3f' % ($ca / $c))") |"
  done
done
