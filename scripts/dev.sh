#!/usr/bin/env bash
# One entry point for people and CI (see README.md):
#   bash scripts/dev.sh demo   install missing Debian packages, build, run the demo
#   bash scripts/dev.sh test   install missing Debian packages, build, run every test
#   bash scripts/dev.sh build  install missing Debian packages, build
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
BUILD="${BUILD_DIR:-$here/build}"
LLVM_BIN=/usr/lib/llvm-22/bin

packages=(llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22
          ninja-build cmake python3 python3-psutil libgtest-dev)

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
}

build() {
  install_missing
  cmake -S "$here" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_COMPILER="$LLVM_BIN/clang++" -DCMAKE_C_COMPILER="$LLVM_BIN/clang"
  cmake --build "$BUILD"
}

run_tests() {
  build
  local log="$BUILD/lit.log" rc=0
  # -v lists every test as PASS/FAIL; the count line is for people and CI.
  "$LLVM_BIN/lit" -v --timeout 600 "$BUILD/test" 2>&1 | tee "$log" || rc=$?
  local pass fail
  pass=$(grep -cE '^(PASS|XFAIL): ' "$log" || true)
  fail=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ' "$log" || true)
  echo "lit: $pass passed, $fail failed"
  [ "$pass" -gt 0 ] || { echo "no test ran"; return 1; }
  return $rc
}

case "${1:-}" in
  demo) build; bash "$here/scripts/demo.sh" "$BUILD" ;;
  test) run_tests ;;
  build) build ;;
  *) echo "usage: bash scripts/dev.sh demo|test|build" >&2; exit 2 ;;
esac
