#!/usr/bin/env bash
# kernel-stats.sh: per-loop instruction statistics of AMDGPU assembly (.s from llc).
#
# usage: scripts/kernel-stats.sh [--all] [--no-header] k.s [more.s ...]
#
# For every loop whose body contains MFMAs (every loop with --all) prints one
# line:
#   file kernel loop blocks instrs mfma ds_read ds_write vmem_load lds_dma
#   s_barrier s_waitcnt spill_ops vgpr agpr total_vgpr vgpr_spill sgpr_spill
#   scratch
#
# A loop is identified by its header label (the line carrying "This Inner
# Loop Header"); its blocks are the header plus every block that llc annotates
# with "in Loop: Header=<hdr>" or "Parent Loop <hdr>" (nested loops included).
# Blocks are .LBB labels and "; %bb.N:" fallthrough blocks.
#   blocks     basic blocks of the loop; 1 == single-block loop body
#   instrs     machine instructions in those blocks
#   mfma       v_mfma* / v_smfmac*
#   ds_read    ds_read*/ds_load* (LDS -> VGPR, incl. ds_read2*, *_tr_*)
#   ds_write   ds_write*/ds_store*
#   vmem_load  global_load* / buffer_load* / flat_load* that return to VGPRs
#   lds_dma    loads that write LDS directly (buffer_load_* ... lds,
#              global_load_lds_*)
#   s_barrier  s_barrier; s_waitcnt counts s_waitcnt* instructions
#   spill_ops  scratch_load*/scratch_store* (register spill traffic) in the loop
# Register numbers come from the "; Kernel info:" block (NumVgprs, NumAgprs,
# TotalNumVgprs, ScratchSize) and from the amdhsa metadata
# (.vgpr_spill_count, .sgpr_spill_count).
set -euo pipefail

all=0
header=1
files=()
for a in "$@"; do
  case "$a" in
    --all) all=1 ;;
    --no-header) header=0 ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) files+=("$a") ;;
  esac
done
if [ ${#files[@]} -eq 0 ]; then
  echo "usage: $0 [--all] [--no-header] k.s [more.s ...]" >&2
  exit 2
fi

if [ "$header" = 1 ]; then
  printf '%-28s %-52s %-9s %6s %6s %5s %7s %8s %9s %7s %9s %9s %7s %5s %5s %10s %10s %10s %7s\n' \
    file kernel loop blocks instrs mfma ds_read ds_write vmem_load lds_dma \
    s_barrier s_waitcnt spill_ops vgpr agpr total_vgpr vgpr_spill sgpr_spill scratch
fi

for f in "${files[@]}"; do
  awk -v ALL="$all" -v FILE="$(basename "$f")" '
  function flush_fn(   h, lab, key, b, j, l, blocks, ni, mf, dr, dw, vl, dma, sb, sw, sp, op, k, nb, bstart, bann, inl) {
    # split the function into blocks; annotation = label line + following
    # comment-only lines (LLVM prints loop membership there)
    nb = 0
    for (j = 1; j <= nl; j++) {
      l = line[j]
      if (l ~ /^\.LBB[0-9_]+:/ || l ~ /^; %bb\.[0-9]+:/) {
        bstart[++nb] = j; bann[nb] = l
        for (k = j + 1; k <= nl && line[k] ~ /^[ \t]+;/; k++) bann[nb] = bann[nb] " " line[k]
      }
    }
    bstart[nb + 1] = nl + 1
    for (h = 1; h <= nhdr; h++) {
      lab = hdr_label[h]; key = substr(lab, 3)          # .LBB0_2 -> BB0_2
      blocks = ni = mf = dr = dw = vl = dma = sb = sw = sp = 0
      for (b = 1; b <= nb; b++) {
        inl = (line[bstart[b]] ~ ("^" lab ":")) || index(bann[b], "Header=" key " ") || \
              index(bann[b], "Parent Loop " key " ")
        if (!inl) continue
        blocks++
        for (j = bstart[b]; j < bstart[b + 1]; j++) {
          l = line[j]
          if (l !~ /^[ \t]+[a-z]/) continue
          op = l; sub(/^[ \t]+/, "", op); sub(/[ \t].*$/, "", op)
          ni++
          if (op ~ /^v_(mfma|smfmac)/) mf++
          else if (op ~ /^ds_(read|load)/) dr++
          else if (op ~ /^ds_(write|store)/) dw++
          else if (op ~ /^global_load_lds/ || (op ~ /^buffer_load/ && l ~ /[ \t]lds([ \t]|$)/)) dma++
          else if (op ~ /^(global|buffer|flat)_load/) vl++
          else if (op == "s_barrier") sb++
          else if (op ~ /^s_waitcnt/) sw++
          else if (op ~ /^scratch_(load|store)/) sp++
        }
      }
      if (mf == 0 && !ALL) continue
      k = nrec++
      r_fn[k] = fn; r_lab[k] = lab
      r_data[k] = sprintf("%6d %6d %5d %7d %8d %9d %7d %9d %9d %7d", blocks, ni, mf, dr, dw, vl, dma, sb, sw, sp)
    }
    nl = 0; nhdr = 0; fn = ""
  }
  # function start: "name:" right after ".type name,@function"
  /^[ \t]*\.type[ \t]+[^,]+,@function/ {
    t = $0; sub(/^[ \t]*\.type[ \t]+/, "", t); sub(/,.*/, "", t); pending = t; next
  }
  pending != "" && index($0, pending ":") == 1 { fn = pending; pending = ""; nl = 0; nhdr = 0; next }
  fn != "" && /^\.Lfunc_end[0-9]+:/ { flush_fn(); next }
  fn != "" {
    line[++nl] = $0
    if ($0 ~ /^\.LBB[0-9_]+:/) { lastlab = $0; sub(/:.*/, "", lastlab) }
    else if ($0 !~ /^[ \t]+;/) lastlab = ""
    # the annotation is on the label line or on a comment line right after it
    if ($0 ~ /This Inner Loop Header/ && lastlab != "") {
      hdr_label[++nhdr] = lastlab; hdr_line[nhdr] = nl
    }
    next
  }
  # "; Kernel info:" blocks follow each function in order
  /^; Kernel info:/ { kinfo_fn = last_fn_done; next }
  /^[ \t]*\.size[ \t]/ { t = $2; sub(/,.*/, "", t); last_fn_done = t }
  /^; NumVgprs: /      { vg[kinfo_fn] = $3 }
  /^; NumAgprs: /      { ag[kinfo_fn] = $3 }
  /^; TotalNumVgprs: / { tv[kinfo_fn] = $3 }
  /^; ScratchSize: /   { sc[kinfo_fn] = $3 }
  # amdhsa metadata: list items "  - .agpr_count: ..." with sorted keys
  /^  - \./ { mdi++ }
  /^[ \t]+-?[ \t]*\.name:[ \t]/ && mdi > 0 { md_name[mdi] = $NF }
  /^[ \t]+\.vgpr_spill_count:/ && mdi > 0 { md_vsp[mdi] = $NF }
  /^[ \t]+\.sgpr_spill_count:/ && mdi > 0 { md_ssp[mdi] = $NF }
  END {
    for (i = 1; i <= mdi; i++) { vsp[md_name[i]] = md_vsp[i]; ssp[md_name[i]] = md_ssp[i] }
    for (k = 0; k < nrec; k++) {
      n = r_fn[k]
      printf "%-28s %-52s %-9s %s %5s %5s %10s %10s %10s %7s\n", FILE, n, r_lab[k], r_data[k],
        (n in vg ? vg[n] : "?"), (n in ag ? ag[n] : "?"), (n in tv ? tv[n] : "?"),
        (n in vsp ? vsp[n] : "?"), (n in ssp ? ssp[n] : "?"), (n in sc ? sc[n] : "?")
    }
  }
  ' "$f"
done
