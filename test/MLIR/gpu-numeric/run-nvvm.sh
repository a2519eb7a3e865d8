#!/usr/bin/env bash
# Numeric check of --pingpong-aggregate-load on an NVIDIA GPU (issue 11): the
# GEMM kernel of test/MLIR/Inputs/gemm.py (elementwise dot instead of MFMA,
# so it lowers to NVVM), before and after the rewrite, and with seed 000's
# bug injected (test-slice-base), run on the GPU against the function
# check_gemm.py computes. Expected: original and rewritten match, the bug
# variant does not.
#
#   bash test/MLIR/gpu-numeric/run-nvvm.sh prepare [DIR]   on the build machine:
#        PTX from build/bin/pingpong-opt + pingpong-translate + LLVM 22 opt/llc
#        (NVPTX) into DIR (default build/gpu-numeric), with a manifest
#   bash test/MLIR/gpu-numeric/run-nvvm.sh run [DIR]       on the GPU machine:
#        needs python3 and the NVIDIA driver (libcuda.so.1) only: no MLIR,
#        no CUDA toolkit, no numpy; loads the PTX with the driver's JIT
#   bash test/MLIR/gpu-numeric/run-nvvm.sh all [DIR]       both, where both work
# Exit status 0 when every expectation holds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cmd="${1:-}"
dir="${2:-$root/build/gpu-numeric}"
LLVM_BIN=/usr/lib/llvm-22/bin
BIN="${PINGPONG_BIN:-$root/build/bin}"
SM="${SM:-sm_80}"

# name | gemm.py arguments | aggregate-load options ("" = not rewritten) | expect
CONFIGS=(
  "w4_32x64x64_orig|--tile 32,64,64 --waves 4 --shape 64,128,512||match"
  "w4_32x64x64_al|--tile 32,64,64 --waves 4 --shape 64,128,512|lds-budget=49152|match"
  "w4_32x64x64_bug|--tile 32,64,64 --waves 4 --shape 64,128,512|lds-budget=49152 test-slice-base=true|mismatch"
  "w4_64x64x64_orig|--tile 64,64,64 --waves 4 --shape 128,128,256||match"
  "w4_64x64x64_alb|--tile 64,64,64 --waves 4 --shape 128,128,256|lds-budget=49152 operand=b|match"
  "w8_128x64x64_orig|--tile 128,64,64 --waves 8 --shape 256,128,256||match"
  "w8_128x64x64_al|--tile 128,64,64 --waves 8 --shape 256,128,256|lds-budget=49152|match"
  "w8_128x64x64_bug|--tile 128,64,64 --waves 8 --shape 256,128,256|lds-budget=49152 test-slice-base=true|mismatch"
  # chunked K: 3 of A's 8 tiles per chunk (2 chunks, then 1 iteration and the last tile)
  "w4_32x64x64_ch3|--tile 32,64,64 --waves 4 --shape 64,128,512|lds-budget=20480|match"
  # 7 per chunk: 1 chunk, then the last tile alone
  "w4_32x64x64_ch7|--tile 32,64,64 --waves 4 --shape 64,128,512|lds-budget=36864|match"
  "w4_32x64x64_ch3bug|--tile 32,64,64 --waves 4 --shape 64,128,512|lds-budget=20480 test-slice-base=true|mismatch"
  # 8 waves, B chunked by 2 of its 4 tiles (1 chunk, then 1 iteration and the last tile)
  "w8_128x64x64_ch2|--tile 128,64,64 --waves 8 --shape 256,128,256|lds-budget=32768|match"
)

prepare() {
  mkdir -p "$dir"
  local manifest="$dir/manifest.txt"
  : > "$manifest"
  for c in "${CONFIGS[@]}"; do
    IFS='|' read -r name args al expect <<< "$c"
    python3 "$root/test/MLIR/Inputs/gemm.py" $args --no-mfma --name "$name" > "$dir/$name.mlir"
    local pre=()
    # The numbers, not the occupancy: NVIDIA's 48 KiB budget is over what
    # keeps two gfx942 workgroups per CU, which the guard would refuse.
    [ -n "$al" ] && pre=(--pingpong-aggregate-load="$al allow-occupancy-loss=true")
    if [ -n "$al" ]; then
      "$BIN/pingpong-opt" "$dir/$name.mlir" "${pre[@]}" -o "$dir/$name.al.mlir" 2> "$dir/$name.remarks"
      grep -qE "loaded before the loop|K in chunks of" "$dir/$name.remarks" ||
        { echo "$name: the rewrite did not happen:"; cat "$dir/$name.remarks"; exit 1; }
    else
      cp "$dir/$name.mlir" "$dir/$name.al.mlir"
    fi
    "$BIN/pingpong-opt" "$dir/$name.al.mlir" \
        --pingpong-nvvm="chip=$SM annotate=false debug-info=false" -o "$dir/$name.nvvm.mlir"
    "$BIN/pingpong-translate" --mlir-to-llvmir "$dir/$name.nvvm.mlir" |
      "$LLVM_BIN/opt" -O3 -S -o "$dir/$name.ll"
    "$LLVM_BIN/llc" -march=nvptx64 -mcpu="$SM" -O3 "$dir/$name.ll" -o "$dir/$name.ptx"
    # tile, waves, shape from the gemm.py arguments
    local tile waves shape
    tile=$(sed -n 's/.*--tile \([^ ]*\).*/\1/p' <<< "$args")
    waves=$(sed -n 's/.*--waves \([^ ]*\).*/\1/p' <<< "$args")
    shape=$(sed -n 's/.*--shape \([^ ]*\).*/\1/p' <<< "$args")
    echo "$name $tile $waves $shape $expect" >> "$manifest"
  done
  echo "PTX for ${#CONFIGS[@]} kernels in $dir ($SM)"
}

run() {
  python3 "$here/launch_nvvm.py" "$dir"
}

case "$cmd" in
  prepare) prepare ;;
  run) run ;;
  all) prepare; run ;;
  *) sed -n '2,20p' "$0"; exit 2 ;;
esac
