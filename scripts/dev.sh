#!/usr/bin/env bash
# One entry point for people and CI (see README.md):
#   bash scripts/dev.sh demo   install missing Debian packages, build, run the demo
#   bash scripts/dev.sh test   install missing Debian packages, build, set up the Python
#                              environment, run every test: lit (C++, the tools, the corpus),
#                              then pytest (the Triton hook, python/tests)
#   bash scripts/dev.sh build  install missing Debian packages, build, set up the Python
#                              environment
#   bash scripts/dev.sh python set up the Python environment only
#
# The Python environment is a venv at $PINGPONG_VENV (default: BUILD/venv), made from Debian's
# python3 (whose own site-packages are "externally managed", PEP 668). It holds triton==3.6.0
# and pytest from PyPI (pinned below) and this repository's package amdgpu_pingpong, installed
# editable (`pip install -e .`). When everything is there at the pinned versions, nothing is
# installed (a second run costs about a second). Use it: BUILD/venv/bin/python, or
# `source build/venv/bin/activate`.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
BUILD="${BUILD_DIR:-$here/build}"
LLVM_BIN=/usr/lib/llvm-22/bin
VENV="${PINGPONG_VENV:-$BUILD/venv}"
TRITON_PIN=3.6.0
PYTEST_PIN=9.2.0

packages=(llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22
          ninja-build cmake python3 python3-psutil python3-venv libgtest-dev)

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
  python_env
}

# The venv with triton, pytest and amdgpu_pingpong (editable, from this checkout); idempotent.
python_env() {
  local py="$VENV/bin/python"
  [ -x "$py" ] || /usr/bin/python3 -m venv "$VENV"
  if "$py" - "$here" "$TRITON_PIN" "$PYTEST_PIN" <<'PYEOF' 2>/dev/null; then return 0; fi
import importlib.metadata as md, os, sys, site
here, triton_pin, pytest_pin = sys.argv[1:4]
assert md.version("triton") == triton_pin and md.version("pytest") == pytest_pin
import amdgpu_pingpong
assert os.path.realpath(amdgpu_pingpong.__file__).startswith(os.path.realpath(here) + os.sep)
assert any(os.path.exists(os.path.join(d, "amdgpu_pingpong_autoload.pth")) for d in site.getsitepackages())
PYEOF
  echo "== python: triton==$TRITON_PIN, pytest==$PYTEST_PIN and amdgpu_pingpong (editable) into $VENV"
  "$py" -m pip install -q --disable-pip-version-check "triton==$TRITON_PIN" "pytest==$PYTEST_PIN"
  "$py" -m pip install -q --disable-pip-version-check -e "$here"
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
  [ "$pass" -gt 0 ] || { echo "no test ran"; rc=1; }
  # pytest last: its closing line ("N passed in S s") ends the log. -rfEw lists failures,
  # errors and warnings; --durations the slowest tests (the suite's budget: docs/triton.md).
  local prc=0
  "$VENV/bin/python" -m pytest -p no:cacheprovider -rfEw --durations=10 "$here/python/tests" 2>&1 |
    tee "$BUILD/pytest.log" || prc=$?
  [ $prc -eq 0 ] || echo "pytest failed (exit $prc)"
  [ $rc -eq 0 ] && rc=$prc
  return $rc
}

case "${1:-}" in
  demo) build; bash "$here/scripts/demo.sh" "$BUILD" ;;
  test) run_tests ;;
  build) build ;;
  python) install_missing; python_env ;;
  *) echo "usage: bash scripts/dev.sh demo|test|build|python" >&2; exit 2 ;;
esac
