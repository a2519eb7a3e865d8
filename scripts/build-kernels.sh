#!/usr/bin/env bash
# build-kernels.sh: compile the test/kernels matrix (HIP -> .ll -> .s) for
# gfx942 and gfx950 and print scripts/kernel-stats.sh rows for all of it.
#
# usage: scripts/build-kernels.sh [OUTDIR]      (default: build/kernels)
#   LLVM_BIN=/usr/lib/llvm-22/bin  JOBS=$(nproc)
# Outputs OUTDIR/<name>.ll, OUTDIR/<name>.s, OUTDIR/stats.txt (all loops with
# MFMAs), OUTDIR/stats-all.txt (--all), OUTDIR/failures.txt.
# <name> = <source>.<config>.<target>, e.g.
#   gemm.256x128x64.w8.m32.bf16.kd0.buffer.gfx950
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
K="$here/test/kernels"
OUT="${1:-$here/build/kernels}"
LLVM_BIN="${LLVM_BIN:-/usr/lib/llvm-22/bin}"
JOBS="${JOBS:-$(nproc)}"
mkdir -p "$OUT"
: > "$OUT/failures.txt"

jobs_file="$OUT/jobs.txt"
: > "$jobs_file"
add() { # name src target defines...
  echo "$*" >> "$jobs_file"
}

for tgt in gfx942 gfx950; do
  for shape in 128x128x64.4 256x128x64.8 256x256x64.8; do
    IFS=x. read -r bm bn bk w <<< "$shape"
    for dt in f16 bf16; do
      for mf in 16 32; do
        for kd in 0 1; do
          [ "$kd" = 1 ] && [ "$tgt" != gfx950 ] && continue
          for ld in buffer global; do
            add "gemm.${bm}x${bn}x${bk}.w$w.m$mf.$dt.kd$kd.$ld.$tgt" gemm.hip "$tgt" \
              -DBM=$bm -DBN=$bn -DBK=$bk -DWAVES=$w -DMFMA=$mf -DDTYPE=$dt -DKDOUBLE=$kd -DLOADS=$ld
          done
        done
      done
    done
    # Triton kpack=2 (kWidth=8) on gfx942: ds_read_b128 feeding two MFMAs
    if [ "$tgt" = gfx942 ]; then
      for dt in f16 bf16; do
        for mf in 16 32; do
          add "gemm.${bm}x${bn}x${bk}.w$w.m$mf.$dt.kp2.buffer.$tgt" gemm.hip "$tgt" \
            -DBM=$bm -DBN=$bn -DBK=$bk -DWAVES=$w -DMFMA=$mf -DDTYPE=$dt -DKPACK=2 -DLOADS=buffer
        done
      done
    fi
  done
  # all fragments read before the MFMAs (Triton order): 256x256 16x16 spills at 8 waves
  for mf in 16 32; do
    add "pos_load_reorder.256x256x64.w8.m$mf.buffer.$tgt" pos_load_reorder.hip "$tgt" \
      -DBM=256 -DBN=256 -DWAVES=8 -DMFMA=$mf -DLOADS=buffer
    if [ "$tgt" = gfx950 ]; then
      add "pos_load_reorder.256x256x64.w8.m$mf.kd1.buffer.$tgt" pos_load_reorder.hip "$tgt" \
        -DBM=256 -DBN=256 -DWAVES=8 -DMFMA=$mf -DKDOUBLE=1 -DLOADS=buffer
    else
      add "pos_load_reorder.256x256x64.w8.m$mf.kp2.buffer.$tgt" pos_load_reorder.hip "$tgt" \
        -DBM=256 -DBN=256 -DWAVES=8 -DMFMA=$mf -DKPACK=2 -DLOADS=buffer
    fi
  done
  for f in neg_cast neg_if_load neg_small_tile neg_variant_mask neg_epilogue \
           pos_load_reorder neg_extra_load neg_fma; do
    for ld in buffer global; do
      add "$f.$ld.$tgt" "$f.hip" "$tgt" -DLOADS=$ld
    done
  done
  # neg_cast at the OnePP shape (Triton's pingpong_small has the same negf)
  add "neg_cast.128x128x64.w4.buffer.$tgt" neg_cast.hip "$tgt" -DBM=128 -DBN=128 -DWAVES=4 -DLOADS=buffer
  add "neg_cast.scale.buffer.$tgt" neg_cast.hip "$tgt" -DCAST_KIND=scale -DLOADS=buffer
  # Triton pingpong_reject: 8 waves, 256x256x16 (= smallTile bits, neither TwoPP nor FourPP)
  add "neg_small_tile.256x256x16.w8.buffer.$tgt" neg_small_tile.hip "$tgt" \
    -DBM=256 -DBN=256 -DBK=16 -DWAVES=8 -DWAVES_M=2 -DWAVES_N=4 -DLOADS=buffer
  add "neg_variant_mask.bf16.m32.buffer.$tgt" neg_variant_mask.hip "$tgt" -DDTYPE=bf16 -DMFMA=32 -DLOADS=buffer
  add "nothing_to_do.$tgt" nothing_to_do.hip "$tgt"
done

build_one() {
  name=$1 src=$2 tgt=$3; shift 3
  if ! "$LLVM_BIN/clang++" -x hip --offload-arch="$tgt" -nogpulib -nogpuinc \
        --offload-device-only -O3 -S -emit-llvm "$K/$src" "$@" -o "$OUT/$name.ll" \
        2> "$OUT/$name.err" ||
     ! "$LLVM_BIN/llc" -mtriple=amdgcn-amd-amdhsa -mcpu="$tgt" -O3 "$OUT/$name.ll" \
        -o "$OUT/$name.s" 2>> "$OUT/$name.err"; then
    echo "$name" >> "$OUT/failures.txt"
  fi
  [ -s "$OUT/$name.err" ] || rm -f "$OUT/$name.err"
  # Progress on stderr, one line per kernel (the table comes at the end).
  echo "built $name ($(ls "$OUT"/*.s 2>/dev/null | wc -l)/$TOTAL)" >&2
}
export -f build_one
TOTAL=$(wc -l < "$jobs_file")
export K OUT LLVM_BIN TOTAL
echo "build-kernels: $TOTAL builds, $JOBS at a time, into $OUT" >&2
xargs -P "$JOBS" -L 1 bash -c 'build_one "$@"' _ < "$jobs_file"

mapfile -t ss < <(ls "$OUT"/*.s | sort)
"$here/scripts/kernel-stats.sh" "${ss[@]}" > "$OUT/stats.txt"
"$here/scripts/kernel-stats.sh" --all "${ss[@]}" > "$OUT/stats-all.txt"
cat "$OUT/stats.txt"
if [ -s "$OUT/failures.txt" ]; then
  echo "FAILED:" >&2; cat "$OUT/failures.txt" >&2; exit 1
fi
