#!/usr/bin/env bash
# Seed 003's benchmark (docs/local-gather.md): the RFC's gather kernel
# (test/MLIR/Inputs/gather.py) in two forms, global gather and local_gather
# (bucket preloaded into shared memory), for several bucket sizes, loop
# lengths and index distributions, through the project's NVVM lowering.
#
#   bash bench/local-gather.sh prepare [DIR]   on the build machine: PTX from
#        build/bin/pingpong-opt (--pingpong-nvvm) + pingpong-translate + LLVM
#        22 opt/llc (NVPTX) into DIR (default build/local-gather), with a
#        manifest
#   bash bench/local-gather.sh run [DIR]       on the GPU machine: python3 and
#        libcuda.so.1 only; times each kernel with CUDA events (warm-up, median
#        of REPS, default 21), checks both forms against the Python reference,
#        prints the table. Environment: REPS, WARMUP, GRID (blocks; default
#        4 per SM), DISTS ("uniform clustered")
#   bash bench/local-gather.sh all [DIR]       both, where both work
# Exit status 0 when every kernel ran and matched the reference.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
cmd="${1:-}"
dir="${2:-$root/build/local-gather}"
LLVM_BIN=/usr/lib/llvm-22/bin
BIN="${PINGPONG_BIN:-$root/build/bin}"
SM="${SM:-sm_80}"
THREADS=128
VEC=4
# Buckets of f32: 4, 16 and 48 KiB (48 KiB is NVIDIA's static shared memory
# limit). Loop lengths: indices each block walks (RBLOCK = 512 per iteration).
BUCKETS="${BUCKETS:-1024 4096 12288}"
RNUMELS="${RNUMELS:-8192 131072}"
# Blocks per grid, baked into the kernel's `out` size: the launcher may run
# fewer (GRID), never more.
MAXGRID="${MAXGRID:-1056}"

prepare() {
  mkdir -p "$dir"
  local manifest="$dir/manifest.txt" n=0
  : > "$manifest"
  for bucket in $BUCKETS; do
    for rnumel in $RNUMELS; do
      for form in global local; do
        local name="gather_${form}_b${bucket}_r${rnumel}"
        python3 "$root/test/MLIR/Inputs/gather.py" --form "$form" --bucket "$bucket" \
          --rnumel "$rnumel" --grid "$MAXGRID" --threads "$THREADS" --vec "$VEC" \
          --name "$name" > "$dir/$name.mlir"
        "$BIN/pingpong-opt" "$dir/$name.mlir" \
          --pingpong-nvvm="chip=$SM annotate=false debug-info=false" -o "$dir/$name.nvvm.mlir"
        "$BIN/pingpong-translate" --mlir-to-llvmir "$dir/$name.nvvm.mlir" |
          "$LLVM_BIN/opt" -O3 -S -o "$dir/$name.ll"
        "$LLVM_BIN/llc" -march=nvptx64 -mcpu="$SM" -O3 "$dir/$name.ll" -o "$dir/$name.ptx"
        # The forms must differ where they should: shared loads in the loop
        # of the local form, none in the global one.
        if [ "$form" = local ]; then
          grep -q 'ld\.shared\.' "$dir/$name.ptx" ||
            { echo "$name: no ld.shared in the PTX" >&2; exit 1; }
        elif grep -q 'ld\.shared' "$dir/$name.ptx"; then
          echo "$name: ld.shared in the global form" >&2; exit 1
        fi
        echo "$name $form $bucket $rnumel $MAXGRID $THREADS $VEC" >> "$manifest"
        n=$((n + 1))
      done
    done
  done
  echo "PTX for $n kernels in $dir ($SM)"
}

run() {
  python3 "$here/local-gather/launch_gather.py" "$dir"
}

case "$cmd" in
  prepare) prepare ;;
  run) run ;;
  all) prepare; run ;;
  *) sed -n '2,19p' "$0"; exit 2 ;;
esac
