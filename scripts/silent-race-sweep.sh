#!/bin/bash
# Issue 24: a compile either reports (error or warning) or its output verifies.
# Runs scripts/corpus-run.py --sim-verify over the project's Triton corpus and
# Triton's reference corpus (pp0 and pp1) for auto and every forced GEMM mode,
# with and without -amdgpu-pingpong-replace-schedule, always with
# -amdgpu-pingpong-verify; one summary line per configuration and, at the
# end, the silent races (corpus-run's "unreported race": the compile said
# nothing, no error or warning, and pingpong-sim verify finds a race or a
# pacing fault in its output; not corpus-run's "silent" status, which is a
# loop no remark names).
# usage: scripts/silent-race-sweep.sh [-j N] [--plugin SO] [--sim BIN] [OUTDIR]
#        MODES="auto two-cluster" to run fewer modes.
set -u
here="$(cd "$(dirname "$0")/.." && pwd)"
jobs=2; plugin="$here/build/lib/AMDGPUPingpong.so"; sim="$here/build/bin/pingpong-sim"
while [ $# -gt 0 ]; do
  case "$1" in
    -j) jobs=$2; shift 2;;
    --plugin) plugin=$2; shift 2;;
    --sim) sim=$2; shift 2;;
    *) break;;
  esac
done
out=${1:-$(mktemp -d /tmp/silent-race.XXXX)}
mkdir -p "$out"
corpora=("$here/corpus/triton")
ref="$here/../shared/triton-reference"
[ -d "$ref" ] && corpora+=("$ref")
modes=${MODES:-"auto four-cluster two-cluster single-wave one-cluster"}
for mode in $modes; do
  for replace in off on; do
    tag="$mode.replace-$replace"
    flags=(--extra-flag=-amdgpu-pingpong=$mode)
    [ $replace = on ] && flags+=(--extra-flag=-amdgpu-pingpong-replace-schedule)
    python3 "$here/scripts/corpus-run.py" -q -j "$jobs" --arch-from-path --sim-verify \
      --plugin "$plugin" --sim "$sim" --plain-cache "$out/plain" --json "$out/$tag.json" \
      "${flags[@]}" "${corpora[@]}" > "$out/$tag.log" 2>&1
    echo "$tag: $(tail -1 "$out/$tag.log")"
  done
done
echo "== unreported races ($out/*.log)"
grep -h "UNREPORTED RACE" "$out"/*.log | sed 's/^/  /' | sort | uniq -c | sort -rn | head -100
python3 - "$out" <<'PY'
import glob, json, sys
new = inh = 0
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    for r in json.load(open(f))["results"]:
        if r.get("unreported_race") == "new": new += 1
        elif r.get("unreported_race") == "inherited": inh += 1
print("unreported races: new %d, inherited %d (over all configurations)" % (new, inh))
PY
