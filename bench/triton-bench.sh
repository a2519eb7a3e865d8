#!/usr/bin/env bash
# The Triton corpus benchmark (issue 7): Triton's own output with and without its pingpong,
# plain llc-22 and llc-22 + the plugin on Triton's LLVM IR, in the cycle model.
# Details and options: bench/triton_bench.py --help. Default corpus: corpus/triton.
#   bash bench/triton-bench.sh [--corpus ../shared/triton-reference] [--filter gfx942] [--markdown]
set -euo pipefail
exec python3 "$(dirname "$0")/triton_bench.py" "$@"
