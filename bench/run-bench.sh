#!/usr/bin/env bash
# run-bench.sh: the performance dashboard. For each kernel (.ll or .hip) and
# target, compile with plain llc and with the plugin, run the cycle model
# (build/bin/pingpong-sim) on both and print one table row per (kernel, target, mode):
#   kernel  target  mode  cycles/iter  MFMA-busy%  speedup(vs plain)
#
# usage: bench/run-bench.sh [options] KERNEL.ll|KERNEL.hip ...
#   env: TARGETS="gfx942 gfx950"  ITER=16  SIM_ARGS="--waves-per-simd 2"
#        LLVM_BIN=/usr/lib/llvm-22/bin  BUILD=build  OUT=build/bench
#        PP_ARGS="-amdgpu-pingpong=auto"  (extra llc args in plugin mode)
# Without arguments it runs every test/kernels/*.hip.
# A row with "-" means that step failed; the reason is in OUT/<name>.<target>.<mode>.log.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
LLVM_BIN="${LLVM_BIN:-/usr/lib/llvm-22/bin}"
BUILD="${BUILD:-$here/build}"
OUT="${OUT:-$BUILD/bench}"
TARGETS="${TARGETS:-gfx942 gfx950}"
ITER="${ITER:-16}"
SIM_ARGS="${SIM_ARGS:-}"
PP_ARGS="${PP_ARGS:-}"
PLUGIN="$BUILD/lib/AMDGPUPingpong.so"
SIM="$BUILD/bin/pingpong-sim"
mkdir -p "$OUT"
[ -x "$SIM" ] || { echo "run-bench: $SIM not built (ninja -C $BUILD pingpong-sim)" >&2; exit 1; }
[ -f "$PLUGIN" ] || echo "run-bench: warning: $PLUGIN missing: plugin rows will fail" >&2
if [ $# -eq 0 ]; then set -- "$here"/test/kernels/*.hip; fi

# json field reader (python3 is in the base image)
jget() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d[sys.argv[2]])' "$1" "$2" 2>/dev/null; }

printf '%-28s %-7s %-7s %12s %10s %8s\n' kernel target mode cycles/iter MFMA-busy% speedup
for src in "$@"; do
  name="$(basename "${src%.*}")"
  for t in $TARGETS; do
    ll="$OUT/$name.$t.ll"
    case "$src" in
      *.hip) "$LLVM_BIN/clang++" -x hip --offload-arch="$t" -nogpulib -nogpuinc --offload-device-only \
               -O3 -S -emit-llvm "$src" -o "$ll" 2> "$OUT/$name.$t.clang.log" || { echo "$name $t: clang failed (see $OUT/$name.$t.clang.log)"; continue; } ;;
      *.ll) cp "$src" "$ll" ;;
      *) echo "run-bench: skipping $src (not .ll/.hip)" >&2; continue ;;
    esac
    base=""
    for mode in plain plugin; do
      s="$OUT/$name.$t.$mode.s"; j="$OUT/$name.$t.$mode.json"; log="$OUT/$name.$t.$mode.log"
      extra=()
      [ "$mode" = plugin ] && extra=(-load "$PLUGIN" $PP_ARGS)
      cyc="-"; busy="-"; sp="-"
      if "$LLVM_BIN/llc" -mtriple=amdgcn-amd-amdhsa -mcpu="$t" -O3 "${extra[@]}" "$ll" -o "$s" > "$log" 2>&1 &&
         "$SIM" run "$s" --mcpu "$t" --iterations "$ITER" $SIM_ARGS --json "$j" >> "$log" 2>&1; then
        cyc="$(jget "$j" cycles_per_iteration)"; busy="$(jget "$j" mfma_busy_pct)"
        cyc="$(printf '%.1f' "$cyc")"; busy="$(printf '%.1f' "$busy")"
        if [ "$mode" = plain ]; then base="$cyc"; sp="1.00"
        elif [ -n "$base" ]; then sp="$(python3 -c "print('%.2f' % ($base / $cyc))")"; fi
      fi
      printf '%-28s %-7s %-7s %12s %10s %8s\n' "$name" "$t" "$mode" "$cyc" "$busy" "$sp"
    done
  done
done
