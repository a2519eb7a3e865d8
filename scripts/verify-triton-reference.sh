#!/bin/bash
# Both wait/barrier checkers over Triton's reference corpus (../shared/triton-reference:
# 16 kernels x pp0/pp1), one line per kernel: the in-pass checker on kernel.ll
# (llc-22 + plugin, -amdgpu-pingpong-verify: error / cannot prove / clean) and
# pingpong-sim verify on Triton's kernel.s (exit 0 clean, 1 finding, 3 cannot prove).
# usage: scripts/verify-triton-reference.sh [BUILD_DIR] [CORPUS_DIR]
B=${1:-build}; C=${2:-/work/shared/triton-reference}; LLC=/usr/lib/llvm-22/bin/llc
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for d in "$C"/*_pp[01]; do
  n=$(basename "$d"); cpu=gfx942; [[ $n == *gfx950* ]] && cpu=gfx950
  "$LLC" -load "$B/lib/AMDGPUPingpong.so" -amdgpu-pingpong-verify -pass-remarks-analysis=amdgpu-pingpong \
    -mtriple=amdgcn-amd-amdhsa -mcpu=$cpu -O3 "$d/kernel.ll" -o /dev/null 2> "$T/err"
  if grep -q 'error: amdgpu-pingpong-verify' "$T/err"; then pass=error
  elif grep -q 'not proven ordered' "$T/err"; then pass="cannot-prove"
  else pass=clean; fi
  "$B/bin/pingpong-sim" verify "$d/kernel.s" > "$T/out" 2>&1
  case $? in 0) tool=clean;; 1) grep -q 'verify: finding' "$T/out" && tool=finding || tool=not-run;;
             3) tool="cannot-prove";; *) tool=not-run;; esac
  printf '%-46s pass=%-13s tool=%s\n' "$n" "$pass" "$tool"
done
