#!/usr/bin/env bash
# The demo: compile the bundled 256x256x64 bf16 GEMM (8 waves, gfx942) with
# plain llc and with the plugin, show the hot loop of each, the remarks, and,
# when pingpong-sim is built, what the cycle model says about both.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${1:-$here/build}"
L=/usr/lib/llvm-22/bin
PLUGIN="$BUILD/lib/AMDGPUPingpong.so"
OUT="$BUILD/demo"
mkdir -p "$OUT"
CPU=gfx942
FLAGS=(-DBM=256 -DBN=256 -DBK=64 -DWAVES=8 -DMFMA=32 -DDTYPE=bf16)

"$L/clang++" -x hip --offload-arch=$CPU -nogpulib -nogpuinc --offload-device-only \
  -O3 -S -emit-llvm "$here/test/kernels/gemm.hip" "${FLAGS[@]}" -o "$OUT/gemm.ll"
"$L/llc" -mtriple=amdgcn-amd-amdhsa -mcpu=$CPU -O3 "$OUT/gemm.ll" -o "$OUT/plain.s"
"$L/llc" -load "$PLUGIN" -mtriple=amdgcn-amd-amdhsa -mcpu=$CPU -O3 "$OUT/gemm.ll" \
  -o "$OUT/pingpong.s" -pass-remarks=amdgpu-pingpong \
  -pass-remarks-missed=amdgpu-pingpong -pass-remarks-analysis=amdgpu-pingpong \
  2> "$OUT/remarks.txt"

# The hot loop: from the innermost loop header label to its back-edge branch,
# with MFMAs and LDS/VMEM ops summarised as runs.
loop() {
  awk '/; =>This Inner Loop Header/{on=1} on{print} on && /s_cbranch_(scc|vcc)/{exit}' "$1" |
    sed -E 's/^\s+//' | awk '
      { op=$1 }
      op ~ /^v_mfma/ { k="v_mfma" } op ~ /^ds_read/ { k="ds_read" } op ~ /^ds_write/ { k="ds_write" }
      op ~ /^(buffer|global)_load/ { k="load" }
      !(op ~ /^(v_mfma|ds_read|ds_write|buffer_load|global_load)/) { k="" }
      { if (k != "" && k == prev) { n++; next } if (n) print "    ... " n " more " prev; n=0; prev=k;
        if (op ~ /^(s_setprio|s_barrier|s_waitcnt|;|v_mfma|ds_|buffer_load|global_load|s_cbranch|\.LBB)/) print "  " $0 }
      END { if (n) print "    ... " n " more " prev }'
}
echo "=== GEMM 256x256x64 bf16, 8 waves, $CPU: hot loop with plain llc"
loop "$OUT/plain.s"
echo
echo "=== the same loop with -load AMDGPUPingpong.so"
loop "$OUT/pingpong.s"
echo
echo "=== remarks (-pass-remarks=amdgpu-pingpong)"
cat "$OUT/remarks.txt"
if [ -x "$BUILD/bin/pingpong-sim" ]; then
  echo
  echo "=== cycle model (pingpong-sim run, an 8192^3 GEMM: L2 reuse of the 256x256 tiles)"
  for v in plain pingpong; do
    echo "--- $v"
    "$BUILD/bin/pingpong-sim" run "$OUT/$v.s" --mcpu $CPU --iterations 16 \
      --gemm 8192,8192,8192 --tile 256,256 \
      --timeline "$OUT/$v.svg" | head -20 || true
  done
  echo "(timelines: $OUT/plain.svg $OUT/pingpong.svg)"
fi
echo
echo "files: $OUT"
