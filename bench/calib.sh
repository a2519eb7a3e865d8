#!/usr/bin/env bash
# calib.sh: the cycle model against every published hardware pair (issue 25,
# docs/cycle-model.md "Calibration: published pairs").
#
# Each pair is two builds of a kernel rebuilt from its published description
# (HIP in test/kernels/calib/ and test/kernels/, or Triton 3.6's own assembly in
# corpus/triton), run in pingpong-sim at the stated problem through the L2 rule.
# Per build it prints
#   NAME  cycles/iter  MFMA-busy%  ratio-to-the-pair's-first-build
# and per pair one line
#   calib: NAME published R model R error E% config full|partial
# with E = model/published - 1 in %, then `calib: pairs N` and the counts
# within the bands (full: +-10 %, partial: +-20 %).
#
# The ratio is the pair's throughput ratio (second build over first):
#   cycles  same work per iteration: first's time / second's time per iteration
#   busy    different tiles or wave counts, the same MFMA instruction: the
#           ratio of MFMA-busy % x engine clock (FLOPs per CU per second)
# Time is cycles / engine clock. CLOCK=power (default) runs each build at the
# clock the chip's power limit gives its MFMA busy (`pingpong-sim run --clock
# power`: gfx942 anchored at AMD's measured MAF clock, gfx950 at AMD's MI355X
# Gluon GEMMs, session 15); CLOCK=peak runs every build at the peak clock (the
# ratio is then the cycle ratio, as before issue 25's clock rule).
# "full": every parameter that sets the loop (tile, waves, data type, MFMA,
# copy path, stages, problem) is stated by the source; "partial": at least one
# is assumed, and the assumption is written beside the pair below.
#
# env: LLVM_BIN=/usr/lib/llvm-22/bin BUILD=build OUT=build/calib ITER=16 SIM=… PLUGIN=… CLOCK=power|peak
#      PAIRS="name ..." (only those pairs; default all)
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
LLVM_BIN="${LLVM_BIN:-/usr/lib/llvm-22/bin}"
BUILD="${BUILD:-$here/build}"
OUT="${OUT:-$BUILD/calib}"
ITER="${ITER:-16}"
SIM="${SIM:-$BUILD/bin/pingpong-sim}"
PLUGIN="${PLUGIN:-$BUILD/lib/AMDGPUPingpong.so}"
PAIRS="${PAIRS:-}"
CLOCK="${CLOCK:-power}"
mkdir -p "$OUT"
K="$here/test/kernels"
T="$here/corpus/triton"

hipcc() { "$LLVM_BIN/clang++" -x hip --offload-arch="$1" -nogpulib -nogpuinc --offload-device-only -O3 -S -emit-llvm "${@:2}"; }
llcc() { "$LLVM_BIN/llc" -mtriple=amdgcn-amd-amdhsa -mcpu="$1" -O3 "${@:2}"; }

declare -A CYC BUSY GHZ NS ARCH
# build NAME ARCH SRC "DFLAGS" "LLC_EXTRA": HIP -> .ll -> .s (skipped when the .s is newer)
build() {
  local name="$1" arch="$2" src="$3" d="$4" lx="$5"
  hipcc "$arch" "$src" $d -o "$OUT/$name.ll" && llcc "$arch" $lx "$OUT/$name.ll" -o "$OUT/$name.s" 2> "$OUT/$name.llc.log"
}
# sim NAME FILE.s "SIM ARGS": run the model at the clock rule CLOCK, keep cycles,
# MFMA busy, the engine clock and ns per iteration
sim() {
  local name="$1" asm="$2" sa="$3" c b g t a
  if ! "$SIM" run "$asm" --iterations "$ITER" --clock "$CLOCK" $sa --json "$OUT/$name.json" > "$OUT/$name.report" 2>&1; then
    echo "$name: model run failed (see $OUT/$name.report)"; CYC[$name]=""; return 1
  fi
  read -r c b g t a < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%.1f %.2f %.3f %.1f %s" % (d["cycles_per_iteration"], d["mfma_busy_pct"], d["clock_ghz"], d["ns_per_iteration"], d["mcpu"]))' "$OUT/$name.json")
  CYC[$name]="$c"; BUSY[$name]="$b"; GHZ[$name]="$g"; NS[$name]="$t"; ARCH[$name]="$a"
}
want() { [ -z "$PAIRS" ] || [[ " $PAIRS " == *" $1 "* ]]; }
NP=0; NFULL=0; NFULL_OK=0; NPART=0; NPART_OK=0
# pair NAME PUBLISHED BASE VARIANT cycles|busy full|partial
pair() {
  local name="$1" pub="$2" a="$3" b="$4" by="$5" cfg="$6"
  if [ -z "${CYC[$a]:-}" ] || [ -z "${CYC[$b]:-}" ]; then
    echo "calib: $name published $pub model - error - config $cfg (a build failed)"; NP=$((NP + 1)); return
  fi
  local line
  line="$(python3 - "$name" "$pub" "${NS[$a]}" "${BUSY[$a]}" "${GHZ[$a]}" "${CYC[$a]}" "${NS[$b]}" "${BUSY[$b]}" "${GHZ[$b]}" "${CYC[$b]}" "$by" "$cfg" "$a" "$b" "${ARCH[$a]}" "${ARCH[$b]}" <<'EOF'
import sys
name, pub, na, ba, ga, ca, nb, bb, gb, cb, by, cfg, a, b, xa, xb = sys.argv[1:]
pub, na, ba, ga, ca, nb, bb, gb, cb = map(float, (pub, na, ba, ga, ca, nb, bb, gb, cb))
# time per iteration (same work), or MFMA busy x clock (FLOPs per second per CU)
r = na / nb if by == "cycles" else (bb * gb) / (ba * ga)
e = (r / pub - 1) * 100
band = 10 if cfg == "full" else 20
print("%-34s %12.1f %8.2f %6.3f %10.1f %8s %s" % (a, ca, ba, ga, na, "1.000", xa))
print("%-34s %12.1f %8.2f %6.3f %10.1f %8.3f %s" % (b, cb, bb, gb, nb, r, xb))
print("calib: %s published %.3f model %.3f error %+.1f%% config %s%s" % (
    name, pub, r, e, cfg, "" if abs(e) <= band else "  (outside +-%d%%)" % band))
EOF
)"
  echo "$line"
  NP=$((NP + 1))
  local e; e="$(echo "$line" | sed -n 's/^calib: .* error \([-+0-9.]*\)%.*/\1/p')"
  if [ "$cfg" = full ]; then NFULL=$((NFULL + 1)); python3 -c "import sys; sys.exit(abs($e) > 10)" && NFULL_OK=$((NFULL_OK + 1))
  else NPART=$((NPART + 1)); python3 -c "import sys; sys.exit(abs($e) > 20)" && NPART_OK=$((NPART_OK + 1)); fi
}

printf '%-34s %12s %8s %6s %10s %8s %s  (clock %s)\n' build cycles/iter MFMA% GHz ns/iter ratio arch "$CLOCK"

# (1) seed 004: skinny M=128 MXFP4 (N=106496, K=16384), 128x128x512, 8 waves, LDS DMA,
#     2 stages: no pingpong ("hack0") -> hand-written 8-wave pingpong ("hack1"): 3.20 -> 3.68 TB/s.
if want seed004; then
  A="--gemm 128,106496,16384 --tile 128,128 --elem-bytes 0.5"
  build seed004.no-pingpong gfx950 "$K/calib/fp4_gemm.hip" "-DLOADPOS=1 -DPINGPONG=0" "" && sim seed004.no-pingpong "$OUT/seed004.no-pingpong.s" "$A"
  build seed004.pingpong gfx950 "$K/calib/fp4_gemm.hip" "-DLOADPOS=1 -DPINGPONG=1" "" && sim seed004.pingpong "$OUT/seed004.pingpong.s" "$A"
  pair seed004 1.150 seed004.no-pingpong seed004.pingpong cycles full
fi

# (2) seed 002: M=32 MXFP4 (N=53248), 32x64x512, 4 waves, 2 stages: copies at the loop's end
#     ("orig") -> right after the wait that frees their buffer ("hack0"): 2471 -> 2720 GB/s.
if want seed002; then
  B="--gemm 32,53248,16384 --tile 32,64 --elem-bytes 0.5"
  build seed002.load-at-end gfx950 "$K/calib/fp4_gemm.hip" "-DBM=32 -DBN=64 -DWAVES=4 -DWAVES_M=1 -DLOADPOS=0" "" && sim seed002.load-at-end "$OUT/seed002.load-at-end.s" "$B"
  build seed002.load-after-wait gfx950 "$K/calib/fp4_gemm.hip" "-DBM=32 -DBN=64 -DWAVES=4 -DWAVES_M=1 -DLOADPOS=1" "" && sim seed002.load-after-wait "$OUT/seed002.load-after-wait.s" "$B"
  pair seed002 1.101 seed002.load-at-end seed002.load-after-wait cycles full
fi

# (3) Triton PR #5018 (gfx942, Dec 2024): "10% speedup ... on a compute-bound fbgemm fp8 shape".
#     ASSUMED (partial): the shape is Triton 3.6's own fp8 128x128x128 TN 4-warp GEMM, the fp8
#     gfx942 tile Triton 3.6's pingpong changes (one-cluster; its 8-warp fp8 tiles compile the
#     same with and without it), 8192^3, 2 workgroups per CU. Triton 3.6's committed assembly.
if want triton5018; then
  D="--mcpu gfx942 --waves-per-workgroup 4 --workgroups-per-cu 2 --gemm 8192,8192,8192 --tile 128,128 --elem-bytes 1"
  sim triton5018.pp0 "$T/mm_fp8_tn_128x128x128_w4_ns2_gfx942_pp0/kernel.amdgcn" "$D"
  sim triton5018.pp1 "$T/mm_fp8_tn_128x128x128_w4_ns2_gfx942_pp1/kernel.amdgcn" "$D"
  pair triton5018 1.100 triton5018.pp0 triton5018.pp1 cycles partial
fi

# (4)-(6) AMD's CDNA4 FP8 GEMM (rocm-blogs "cdna4-gemm-kernels", Mar 2026; MI355X, M=N=K=4096):
#     FP8 E4M3, TN, 256x256x128, 512 threads (2x4 waves, 128x64 per wave), direct-to-LDS loads,
#     two LDS stages, 16x16x128 MFMA. Table 5: 2288.16 -> 2680.33 TFLOPS with 8-wave ping-pong
#     (1.171); the gpuaidev notebook fp8_gemm_hip_cdna4 on the same kernels 2002.8 -> 2650.1
#     (1.323). Table 4: 128x128 / 512 threads 1828.74 vs 256x256 / 512 threads 2288.16 (1.251).
if want cdna4blog.pingpong || want cdna4notebook.pingpong || want cdna4blog.tile; then
  P="--gemm 4096,4096,4096 --tile 256,256 --elem-bytes 1"
  build cdna4.fp8.256.pp0 gfx950 "$K/calib/dma_gemm_pp.hip" "-DELEM=fp8 -DPINGPONG=0" "" && sim cdna4.fp8.256.pp0 "$OUT/cdna4.fp8.256.pp0.s" "$P"
  build cdna4.fp8.256.pp1 gfx950 "$K/calib/dma_gemm_pp.hip" "-DELEM=fp8 -DPINGPONG=1" "" && sim cdna4.fp8.256.pp1 "$OUT/cdna4.fp8.256.pp1.s" "$P"
  want cdna4blog.pingpong && pair cdna4blog.pingpong 1.171 cdna4.fp8.256.pp0 cdna4.fp8.256.pp1 cycles full
  want cdna4notebook.pingpong && pair cdna4notebook.pingpong 1.323 cdna4.fp8.256.pp0 cdna4.fp8.256.pp1 cycles full
  if want cdna4blog.tile; then
    # 128x128 / 8 waves at 4096^3: 1024 workgroups on 256 CUs; two are resident (LDS 64 KiB each).
    build cdna4.fp8.128.pp0 gfx950 "$K/calib/dma_gemm_pp.hip" "-DELEM=fp8 -DBM=128 -DBN=128 -DPINGPONG=0" "" &&
      sim cdna4.fp8.128.pp0 "$OUT/cdna4.fp8.128.pp0.s" "--gemm 4096,4096,4096 --tile 128,128 --elem-bytes 1 --workgroups-per-cu 2"
    pair cdna4blog.tile 1.251 cdna4.fp8.128.pp0 cdna4.fp8.256.pp0 busy full
  fi
fi

# (7)-(8) HipKittens (arXiv 2511.08083; analysis/paper_experiments/pingpong_micro, MI355X):
#     4-wave interleave (one wave per SIMD) vs 8-wave ping-pong "m=16" (16x16 MFMAs).
#     FP8: 3303 vs 3066 TF (0.928); BF16: 1507 vs 1580 TF (1.048).
#     4-wave side: calib/hk_gemm_4wave.hip, HipKittens' FP8_4wave structure (256x256, 2x2 waves,
#     128x128 per wave as four 64x64 blocks, LDS DMA, two stages, register double buffer, MFMAs
#     interleaved with ds_reads and copies under sched_barrier, two barriers per K tile).
#     ASSUMED (partial): BK 128 (fp8) / 64 (bf16), 8192^3; the bf16 4-wave kernel has the fp8 one's
#     structure (its source is not published); the 8-wave ping-pong is the one-cluster form of (4).
if want hk.fp8; then
  H="--gemm 8192,8192,8192 --tile 256,256 --elem-bytes 1"
  build hk.fp8.4wave gfx950 "$K/calib/hk_gemm_4wave.hip" "-DELEM=fp8" "" && sim hk.fp8.4wave "$OUT/hk.fp8.4wave.s" "$H"
  build hk.fp8.8wave-pp gfx950 "$K/calib/dma_gemm_pp.hip" "-DELEM=fp8 -DPINGPONG=1" "" && sim hk.fp8.8wave-pp "$OUT/hk.fp8.8wave-pp.s" "$H"
  pair hk.fp8 0.928 hk.fp8.4wave hk.fp8.8wave-pp busy partial
fi
if want hk.bf16; then
  H="--gemm 8192,8192,8192 --tile 256,256 --elem-bytes 2"
  build hk.bf16.4wave gfx950 "$K/calib/hk_gemm_4wave.hip" "-DELEM=bf16" "" && sim hk.bf16.4wave "$OUT/hk.bf16.4wave.s" "$H"
  build hk.bf16.8wave-pp gfx950 "$K/calib/dma_gemm_pp.hip" "-DELEM=bf16 -DBK=64 -DPINGPONG=1" "" && sim hk.bf16.8wave-pp "$OUT/hk.bf16.8wave-pp.s" "$H"
  pair hk.bf16 1.048 hk.bf16.4wave hk.bf16.8wave-pp busy partial
fi

# (9)-(10) TLX warp-pipeline GEMM (facebookexperimental/triton PR #1548, gfx950): BLOCK 256x256x32,
#     NUM_BUFFERS=2, num_warps=8, 16x16 MFMAs, async copy (LDS DMA), 16-bit operands: with vs
#     without warp_pipeline_stage ("mem" / "mfma" stages = one-cluster 8-wave ping-pong):
#     4096^3 888 -> 955 TF (1.075), 8192^3 824 -> 833 TF (1.011). (bf16 here: same MFMA cycles as f16.)
# (11)-(12) TLX PR #2353/#2354 (gfx950 bf16): ping-pong (+sched_barrier) vs interwave: 4096^3
#     1367 -> 1359 (0.994), 8192^3 1399 -> 1411 (1.009). ASSUMED (partial): the same tile and loop
#     as #1548 (the PRs do not state the interwave kernel's tile; #2353 splits the dot in two
#     M-halves, here one dot cluster).
if want tlx1548.4096 || want tlx1548.8192 || want tlx2354.4096 || want tlx2354.8192; then
  build tlx.bf16.pp0 gfx950 "$K/calib/dma_gemm_pp.hip" "-DELEM=bf16 -DBK=32 -DPINGPONG=0" ""
  build tlx.bf16.pp1 gfx950 "$K/calib/dma_gemm_pp.hip" "-DELEM=bf16 -DBK=32 -DPINGPONG=1" ""
  for n in 4096 8192; do
    sim tlx.bf16.pp0.$n "$OUT/tlx.bf16.pp0.s" "--gemm $n,$n,$n --tile 256,256 --elem-bytes 2"
    sim tlx.bf16.pp1.$n "$OUT/tlx.bf16.pp1.s" "--gemm $n,$n,$n --tile 256,256 --elem-bytes 2"
  done
  want tlx1548.4096 && pair tlx1548.4096 1.075 tlx.bf16.pp0.4096 tlx.bf16.pp1.4096 cycles full
  want tlx1548.8192 && pair tlx1548.8192 1.011 tlx.bf16.pp0.8192 tlx.bf16.pp1.8192 cycles full
  want tlx2354.4096 && pair tlx2354.4096 0.994 tlx.bf16.pp0.4096 tlx.bf16.pp1.4096 cycles partial
  want tlx2354.8192 && pair tlx2354.8192 1.009 tlx.bf16.pp0.8192 tlx.bf16.pp1.8192 cycles partial
fi

echo "calib: pairs $NP"
echo "calib: full $NFULL, within +-10%: $NFULL_OK; partial $NPART, within +-20%: $NPART_OK"
