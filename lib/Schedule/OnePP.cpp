//===- OnePP.cpp - one memory and one dot cluster (4 warps) --------------===//
//
// Two waves per SIMD come from two different workgroups, so no barrier
// phase-shifts them: the priorities do. The dot is gated: its first MFMA
// issues at priority 1, the rest at 2, the memory cluster at 0. An MFMA at 1
// loses the MFMA pipe to the other wave's dot (2) and wins against its
// memory work (0), so a wave enters its dot only after the other wave's last
// MFMA, whatever the hardware does between waves of equal priority
// (docs/triton.md, "One-cluster: the gated dot").
// The memory cluster: A's global loads first (with the address arithmetic,
// in the shadow of the loop's LDS-write drain), A's LDS reads, then B's
// reads and loads; the dot waits for its own operands (no full drain), and
// VALU on this iteration's global-load data (B's v_perm packing) goes after
// the dot with the LDS writes it feeds, where the data has arrived.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"

namespace pingpong {

// Reads and loads of an unknown operand go with B.
static const char *OnePPLayout =
    "pingpong-layout v1; sync delay-global-data gate dot-waits; "
    "mem mem-g: global-load.a; "
    "mem mem-a: local-read.a; "
    "mem mem-b: local-read, global-load; "
    "dot dot: dot; "
    "mem store: local-write";

// A side input (a scale vector A * s[k], prefetched one iteration ahead):
// the LDS reads and their scaling first, then every global load with the
// side load, so the next tile's data and scale are not held beside the
// scaled operands. Issued first (as A's loads are without a side input),
// mmscale_f16_tn_128x128x64_w4 needed 254 VGPRs + 4 AGPRs after allocation
// (LLVM's pressure 244): one wave per SIMD, 5252 cycles per two
// workgroups' iterations in the model; this order: 213, two waves, 2808.
static const char *OnePPSideLoadLayout =
    "pingpong-layout v1; sync delay-global-data gate dot-waits; "
    "mem mem-a: local-read.a; "
    "mem mem-b: local-read; "
    "mem mem-g: global-load, side-load; "
    "dot dot: dot; "
    "mem store: local-write";

std::optional<ClusterLayout> layoutOnePP(const LoopModel &M, Rejection &Why) {
  std::optional<ClusterLayout> L = builtinLayout(
      M.NumSideLoads ? OnePPSideLoadLayout : OnePPLayout, Mode::OnePP, M, Why);
  // Past the port rule but held by the L2 share: say why not single-wave.
  if (L && portPastDot(M))
    L->Note = l2BelowPort(M);
  return L;
}

} // namespace pingpong
