//===- FourPP.cpp - dot sliced in four along K (8 warps) -----------------===//
//
// mem0: LDS reads of slice 0, then global loads of A; dot0;
// mem1: LDS reads of slice 1, then global loads of B; dot1;
// mem2: LDS reads of slices 2 and 3; dot2;
// mem3: LDS writes; dot3.
// Each slice's reads sit in the memory cluster before its dot, so fewer
// operand registers are live at once than with all reads up front
// (Triton's transformFourPPClusters). Slices cut the dot order (K step,
// then accumulator), so 2 K steps still give four slices.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"

#include "llvm/Support/CommandLine.h"

#include <string>

static llvm::cl::opt<bool> FirstMFMAFirst(
    "amdgpu-pingpong-four-cluster-first-mfma", llvm::cl::Hidden,
    llvm::cl::init(true),
    llvm::cl::desc("four-cluster: each dot's first MFMA right after the "
                   "barrier at priority 0, s_setprio 1 after it (the gate "
                   "one level down)"));

namespace pingpong {

/// The layout text with each dot's entry gated one level down: its first
/// MFMA issues right after the barrier, the s_setprio 1 after it.
static std::string firstMFMAFirst(const char *Text) {
  std::string T = Text;
  if (!FirstMFMAFirst)
    return T;
  const std::string Flags = "delay-global-data;";
  T.replace(T.find(Flags), Flags.size(), "delay-global-data gate;");
  for (unsigned I = 0; I < 4; ++I) {
    const std::string D = "dot dot" + std::to_string(I) + ":";
    T.replace(T.find(D), D.size(), "dot dot" + std::to_string(I) + " prio=0:");
  }
  return T;
}

// Each memory cluster reads LDS first, then issues its global loads (loads
// of an unknown operand go with A's).
static const char *FourPPLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
    "mem mem0: local-read[0/4]; mem+ mem0.global: global-load.a, global-load.-; "
    "dot dot0: dot[0/4]; "
    "mem mem1: local-read[1/4]; mem+ mem1.global: global-load.b; "
    "dot dot1: dot[1/4]; "
    "mem mem2: local-read[2-3/4]; dot dot2: dot[2/4]; "
    "mem mem3: local-write; dot dot3: dot[3/4]";

// With a side input (a scale vector A * s[k]) every memory cluster also
// runs the VALU that scales its slice of the operand; with the global data
// held from mem0/mem1 to the LDS writes that is more than the register
// budget (Triton's IR at 256x256x64: ~284 of 256, spills right after the
// global loads, each a vmcnt(0) wait). All global loads and the side input
// go after mem2's reads instead, past the last use of the old scale: ~252
// (docs/triton.md, "Loops with a scale vector").
static const char *FourPPSideLoadLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
    "mem mem0: local-read[0/4]; dot dot0: dot[0/4]; "
    "mem mem1: local-read[1/4]; dot dot1: dot[1/4]; "
    "mem mem2: local-read[2-3/4]; mem+ mem2.global: global-load, side-load; "
    "dot dot2: dot[2/4]; "
    "mem mem3: local-write; dot dot3: dot[3/4]";

// Under the target's loaded round trip (gfx950, TargetFacts::LoadedRoundTrip)
// B's loads go with A's in mem0: a load's data is written in mem3, so the
// earlier it issues the less of the round trip is left to wait for there
// (one-cluster's reason, OnePP.cpp). Its data is then held from mem0, not
// mem1: where that is past the register budget the usual layout follows
// (variant 1). Model, cycles per iteration at 8192^3 (docs/modes.md,
// session 17): mm_f16_nn_256x256x64_w8 gfx950 2293 -> 2211.
static const char *FourPPRoundTripLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
    "mem mem0: local-read[0/4]; mem+ mem0.global: global-load; "
    "dot dot0: dot[0/4]; "
    "mem mem1: local-read[1/4]; "
    "dot dot1: dot[1/4]; "
    "mem mem2: local-read[2-3/4]; dot dot2: dot[2/4]; "
    "mem mem3: local-write; dot dot3: dot[3/4]";

// Loads issued one iteration ahead (Passes/LoadLookahead.cpp) refill the
// registers mem3's LDS writes free (two-cluster's reason, TwoPP.cpp): a
// whole iteration in flight before their own writes in the next one.
static const char *FourPPLoadsAheadLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
    "mem mem0: local-read[0/4]; dot dot0: dot[0/4]; "
    "mem mem1: local-read[1/4]; dot dot1: dot[1/4]; "
    "mem mem2: local-read[2-3/4]; dot dot2: dot[2/4]; "
    "mem mem3: local-write, global-load; dot dot3: dot[3/4]";

std::optional<ClusterLayout> fourPPRegisterWitness(const LoopModel &M,
                                                   Rejection &Why) {
  // Global data held only from past the last slice's reads to the writes:
  // the side-input layout's placement, the fewest registers four-cluster's
  // clusters allow.
  if (M.NumGlobalLoadsAhead || !canSliceAcrossWaveGroups(M, 4, Mode::FourPP, Why))
    return std::nullopt;
  return builtinLayout(FourPPSideLoadLayout, Mode::FourPP, M, Why);
}

unsigned fourPPVariants(const LoopModel &M) {
  return !M.NumSideLoads && loadedRoundTrip(M) > 0 ? 2 : 1;
}

std::optional<ClusterLayout> layoutFourPP(const LoopModel &M, Rejection &Why,
                                          unsigned Variant) {
  if (!canSliceAcrossWaveGroups(M, 4, Mode::FourPP, Why))
    return std::nullopt;
  if (M.NumGlobalLoadsAhead && !M.NumSideLoads)
    return builtinLayout(firstMFMAFirst(FourPPLoadsAheadLayout).c_str(),
                         Mode::FourPP, M, Why);
  if (Variant == 0 && fourPPVariants(M) == 2)
    return builtinLayout(firstMFMAFirst(FourPPRoundTripLayout).c_str(),
                         Mode::FourPP, M, Why);
  return builtinLayout(
      firstMFMAFirst(M.NumSideLoads ? FourPPSideLoadLayout : FourPPLayout)
          .c_str(),
      Mode::FourPP, M, Why);
}

} // namespace pingpong
