//===- SingleWave.cpp - one wave per SIMD: overlap within the wave --------===//
//
// A 4-wave workgroup whose registers leave one wave per SIMD has no partner
// wave to take turns with, so pingpong has nothing to alternate. What is left
// is the one wave's own overlap: the MFMA pipe runs while the wave issues
// other instructions. The dot is cut into eight slices of the K-major dot
// order; each slice's MFMAs carry the LDS reads of the next slice, A's
// global loads go first and B's with the first slice. With register-staged
// loads the last two slices' reads go one slice early and the LDS writes,
// behind the loop's own barrier, among the MFMAs of the seventh slice.
//
// Model (docs/modes.md, "single-wave"), cycles per iteration at one
// workgroup per CU: NN 128x128x128 f16 gfx942 2659 (writes after the dot,
// until session 9: 3066; Triton 3575, llc-22 3951, one-cluster forced
// 3606); NN 128x256x64 2526 (2842; Triton 4158, llc-22 3206). Tried on
// 128x128x128 as layouts: all global loads first 3154, all of them with the
// first slice 3186, sixteen slices 3170, four 3422, an interleave clause (2
// MFMA, 1 LDS read) 3446; writes among the MFMAs in slices of 16: 2835.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"
#include "pingpong/Analysis/Throughput.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#include <algorithm>
#include <string>

#define DEBUG_TYPE "amdgpu-pingpong"

static llvm::cl::opt<bool> TwoWaveAttention(
    "amdgpu-pingpong-single-wave-two-waves", llvm::cl::Hidden,
    llvm::cl::init(true),
    llvm::cl::desc("single-wave attention: try the order held to two waves "
                   "per SIMD (P V in four parts) before the one-wave order"));

static llvm::cl::opt<bool> TwoWaveGate(
    "amdgpu-pingpong-single-wave-gate", llvm::cl::Hidden,
    llvm::cl::init(true),
    llvm::cl::desc("single-wave attention held to two waves per SIMD: gate "
                   "its dots (each dot's first MFMA at s_setprio 1, the rest "
                   "at 2), so the SIMD's two workgroups' waves take turns at "
                   "the dots"));

// Session 26 (onewaveattn, issue 28): the two-wave order with P V in eight
// parts and the global loads with the sixth, tried after the four-part one,
// and the values used after the loop computed again there
// (RematAfterLoop.cpp). See singleWaveEightPartsNoVerdict.
static llvm::cl::opt<bool> EightParts(
    "amdgpu-pingpong-single-wave-eight-parts", llvm::cl::init(true),
    llvm::cl::desc("gfx942 4-wave attention whose LLVM order needs more "
                   "vector registers than two waves per SIMD allow: values "
                   "live across the loop but used only after it computed "
                   "again at its exit, and after single-wave's four-part "
                   "order the order held to two waves per SIMD with P V in "
                   "eight parts and the global loads with the sixth, not "
                   "judged by the issue-bound verdict (it runs two waves per "
                   "SIMD where LLVM's order runs one; default on; "
                   "docs/modes.md, \"Session 26: onewaveattn\")"));

STATISTIC(NumEightParts, "4-wave attention loops given the two-wave "
                         "single-wave order with P V in eight parts");

static llvm::cl::opt<bool> OwnIssueCheck(
    "amdgpu-pingpong-single-wave-own-issue", llvm::cl::Hidden,
    llvm::cl::init(true),
    llvm::cl::desc("auto, LDS-bound pingpong: take single-wave only where a "
                   "wave's instructions, one issue turn each, fit in its own "
                   "dot's MFMA pipe clocks (ownWorkPastOwnDot)"));

static llvm::cl::opt<bool> CopiesFarAheadLayout(
    "amdgpu-pingpong-single-wave-copies-far-ahead", llvm::cl::Hidden,
    llvm::cl::init(true),
    llvm::cl::desc("single-wave, LDS DMA copies three iterations ahead after "
                   "every read (the three-stage DMA lookahead): two slices, "
                   "LLVM's latency scheduler inside them, no read interleave"));

// Session 25 (regbudget, issue 28): 4-wave register-staged GEMMs whose
// LLVM order is estimated past the two waves' registers. On by default since
// session 26 (leangemm): see singleWaveLeanGemmShape.
static llvm::cl::opt<bool> LeanGemm(
    "amdgpu-pingpong-lean-gemm", llvm::cl::init(true),
    llvm::cl::desc("4-wave register-staged GEMMs whose LLVM order or "
                   "one-cluster's needs more vector registers than two waves "
                   "per SIMD allow (estimated before AMDGPU's scheduler): "
                   "single-wave's K slices, each slice's LDS reads three "
                   "slices ahead, the load offsets' advances among the "
                   "MFMAs, held to two waves per SIMD (default on; "
                   "docs/modes.md, \"Session 25: regbudget\", \"Session 26: "
                   "leangemm\")"));

// Session 26 (leangemm): the lean order's load offset advances among its
// MFMAs (the layout's advances-in-dot).
static llvm::cl::opt<bool> LeanAdvancesInDot(
    "amdgpu-pingpong-lean-gemm-advances-in-dot", llvm::cl::Hidden,
    llvm::cl::init(true),
    llvm::cl::desc("the register-lean GEMM order: each load offset's advance "
                   "for the next iteration among the dot's MFMAs "
                   "(advances-in-dot) instead of in one block before the "
                   "dot"));

namespace pingpong {

// Attention (two chained dots, register-staged loads): the first three
// quarters of Q K^T (K-major: its first K steps) with the global loads; then
// one cluster with Q K^T's last quarter, the softmax, P V, V's LDS reads and
// the LDS writes, which LLVM's scheduler orders. There the row maximum's
// VALU starts on each score tile as its last K step lands, among the
// remaining Q K^T MFMAs, the exp/convert chain of P runs among P V's MFMAs,
// and the writes (behind the loop's own barrier) fill issue slots between
// them instead of running after the dot with the MFMA pipe idle. V's reads
// stay after Q K^T's (their registers not live across it; issued with K's
// they queue on the LDS port ahead of the softmax's reductions).
// Model, cycles per workgroup iteration, one workgroup per CU (docs/modes.md,
// single-wave, session 15): corpus attn_f16_128x64x128_w4_ns2_gfx942 3830 ->
// 3474 (Triton 3795), tuning bp_f16_128x64x128_w4_ns2_nomask_gfx942 3990 ->
// 3434 (Triton 3703, llc-22 3854). Before (session 9): `d0: dot@0,
// global-load | d1: dot@1, inter-dot, local-read@1 | store: local-write`.
// Tried: Q K^T's last eighth or last three eighths with the softmax 3710 /
// 3838, the writes in a cluster of their own 3826, V's reads with Q K^T
// 4014, the global loads with the softmax 3702, P V in two clusters around
// the writes 3878-3930, an interleave clause in either cluster 3706-4398.
// Without `latency` (session 15's max-ilp inside the clusters, which the
// session-9 order took: 7980 -> 7292): with it 3806 / 3622 against 3434 /
// 3474, LLVM's default strategy already fills this cluster's issue slots.
// The first attention variant, held to the two-wave register budget: all
// of Q K^T; then P V in four parts of its K steps, each part's MFMAs with
// the next part's P (its exp/convert chain: inter-dot instructions carry the
// dot order of the first P V MFMA they feed) and V's reads, Triton's order
// in P V; the global loads with the third part, the LDS writes with the
// last. Only one part of P and of V is live at a time, so the order fits
// two waves per SIMD where the one-wave order below does not (~250
// estimated, 250-252 allocated, against 288-296), and two workgroups share
// the CU. Model, cycles for two workgroups' iterations (docs/modes.md,
// single-wave, session 15): corpus attn_f16_128x64x128_w4_ns2_gfx942 6948
// (one-wave order) -> 5743 (Triton 7590), tuning
// bp_f16_128x64x128_w4_ns2_nomask_gfx942 6868 -> 5869, the reference's 32x32
// twin 7060 -> 5407. The global loads with the second part: 5565 / 5824,
// but ~254 estimated, 256 allocated on the nomask loop, and 257 estimated on
// the reference; with Q K^T 3582 per iteration at one workgroup (264
// VGPRs). Alone on the CU it is ~5% behind the one-wave order.
// Gated (session 21, issue 28): the SIMD's other wave is the other
// workgroup's, which no barrier reaches; each dot's first MFMA at
// s_setprio 1 and the rest at 2 (the 4-wave chained-dot order's gate) lets a
// wave that started a dot keep the MFMA pipe to its end while the other
// runs its softmax, instead of the two interleaving MFMA by MFMA. Model, ns
// per iteration (bench rows): attn_f16_128x64x128 4336 -> 4274, tuning
// bp_f16_128x64x128_nomask 4398 -> 4204, gqa_f16_128x64x128 4320 -> 4275.
// Session 26 (onewaveattn): Parts 8, the global loads with part 5
// (singleWaveEightPartsOrder).
static std::string singleWaveTwoWaveLayout(const LoopModel &M,
                                           unsigned Parts = 4,
                                           unsigned LoadPart = 2) {
  const DotGroup &PV = M.Groups[1];
  auto Part = [&](unsigned J) {
    unsigned Per = PV.NumDots / Parts;
    return "[" + std::to_string(PV.FirstDotOrder + J * Per) + "-" +
           std::to_string(PV.FirstDotOrder + (J + 1) * Per - 1) + "/" +
           std::to_string(M.NumDots) + "]";
  };
  // Gated: no cluster's own priority (it would override the gate's).
  const std::string Prio = TwoWaveGate ? "" : " prio=0";
  std::string T = std::string("pingpong-layout v1; sync delay-global-data "
                              "dot-waits") +
                  (TwoWaveGate ? " gate" : "") + "; dot d0" + Prio +
                  ": dot@0; dot p0" + Prio + ": inter-dot" + Part(0) +
                  ", local-read@1" + Part(0);
  for (unsigned J = 0; J < Parts; ++J) {
    T += "; dot d" + std::to_string(J + 1) + Prio + ": dot@1" + Part(J);
    if (J + 1 < Parts)
      T += ", inter-dot" + Part(J + 1) + ", local-read@1" + Part(J + 1);
    if (J == LoadPart)
      T += ", global-load";
    if (J + 1 == Parts)
      T += ", local-write";
  }
  return T;
}

unsigned singleWaveVariants(const LoopModel &M) {
  if (M.chainedDots())
    return TwoWaveAttention ? (EightParts ? 3 : 2) : 1;
  // The register-lean GEMM order last: chooseMode tries it only where the
  // registers ask for it (leanGemmCase).
  return LeanGemm && singleWaveLeanGemmShape(M) ? 2 : 1;
}

bool singleWaveLeanGemmVariant(const LoopModel &M, unsigned Variant) {
  return !M.chainedDots() && LeanGemm && singleWaveLeanGemmShape(M) &&
         Variant == 1;
}

bool singleWaveEightPartsRequested() { return EightParts && TwoWaveAttention; }

bool singleWaveEightPartsOrder(const LoopModel &M, unsigned Variant) {
  return M.chainedDots() && TwoWaveAttention && EightParts && Variant == 1;
}

bool singleWaveTwoWaveOrder(const LoopModel &M, unsigned Variant) {
  return (M.chainedDots() && TwoWaveAttention && Variant == 0) ||
         singleWaveEightPartsOrder(M, Variant) ||
         singleWaveLeanGemmVariant(M, Variant);
}

/// Session 26 (onewaveattn, issue 28). The issue-bound verdict
/// (noGainOverLLVM, ModeChoice.cpp) keeps LLVM's order where a wave's VALU
/// and MFMA issue turns outlast its MFMA pipe and LDS port: every order of
/// the same work is held to those turns. That compares orders at the same
/// waves per SIMD. Where LLVM's order needs more than two waves' registers
/// (Before > Budget: one workgroup per CU, one wave per SIMD; tuning
/// bp_bf16_128x64x128 causal gfx942: ~309 estimated, 305 allocated) and this
/// order is held to two, the SIMD runs two waves, and one wave's latency
/// stalls (LLVM's order at one wave: 4318 cycles per workgroup iteration
/// against 2532 issue clocks) are the other's issue turns. The gain is the
/// second wave, not the order: the verdict does not apply. It holds only if
/// the order is allocated within 256 registers: alone it landed at 256 + 0-3
/// (AGPRs taking the values live across the loop for the code after it, so
/// one wave per SIMD on the window loops); with those values computed again
/// after the loop (RematAfterLoop.cpp) at 250-253 (docs/modes.md, "Session
/// 26: onewaveattn").
std::string singleWaveEightPartsNoVerdict(const LoopModel &M, unsigned Variant,
                                          unsigned Before, unsigned Budget) {
  if (!singleWaveEightPartsOrder(M, Variant) || Before <= Budget)
    return "";
  ++NumEightParts;
  return "LLVM's order needs about " + std::to_string(Before) +
         " vector registers, past the " + std::to_string(Budget) +
         " of two waves per SIMD: it runs one wave per SIMD, this order two, "
         "so the issue-bound verdict (orders at the same waves per SIMD) "
         "does not apply";
}

/// The register-lean order's slices of the dot order and how many slices
/// ahead each slice's LDS reads go. Tried as layouts on the tuning twins
/// (docs/modes.md, "Session 25: regbudget"), cycles per iteration of
/// mmgroup_f16_128x128x64 gfx950 (LLVM's order at two waves per SIMD 2256,
/// the LDS-DMA twin's at one 5262): 8 slices, the next slice's reads 2365 /
/// 2433; 16 slices, reads 2 ahead 2346 / 2439, 3 ahead 2278 / 2410 (kept),
/// 4 ahead past the budget (one wave per SIMD); 32 slices, 6 ahead 2277 /
/// 2420. Gated (the 4-wave gate's priorities) the order needs more
/// registers (256-266 allocated): one wave per SIMD on the LDS-DMA twin.
static constexpr unsigned LeanSlices = 16, LeanReadsAhead = 3;

bool singleWaveLeanGemmRequested() { return LeanGemm; }

/// Session 25 (regbudget, issue 28). A 4-wave register-staged GEMM keeps in
/// its registers at once its accumulators, the staged tile (loaded at the
/// iteration's top, written to LDS at its end: the LDS buffer is the one the
/// iteration reads), the per-load offsets where the loads are 16-bit (the
/// operands' alignment unknown: Triton's grouped GEMM, offsets from a table,
/// 64 ushort loads a wave with 64 offset registers) and the dot's operands.
/// Read all before the dot (LLVM's order as the IR gives it, one-cluster's
/// memory cluster) those are past the 256 of two waves per SIMD (tuning
/// mmgroup 128x128x64: ~278 estimated). Single-wave's K slices, each with
/// the reads of the slice three after it, hold a few slices' operands at a
/// time. Whether LLVM's own order ends at one or two waves per SIMD is
/// AMDGPU's scheduler's doing, after this pass: of eight tuning loops with
/// that estimate near or past the budget, it lands four at one wave and
/// four at two, the grouped GEMM with and without Triton's LDS-DMA option
/// (one loop but for its LDS address arithmetic) one each way
/// (docs/modes.md, "Session 25: regbudget"). Where it lands at one wave the
/// lean order gains 1.55-1.74x; at two, 1.16x on the convolution and 0.994x
/// on the grouped GEMM 128x128x64 (within the model's noise, but below
/// llc-22). So auto keeps LLVM's order unless -amdgpu-pingpong-lean-gemm is
/// given (the refusal names it).
bool singleWaveLeanGemmShape(const LoopModel &M) {
  return M.Waves == 4 && !M.chainedDots() && !M.NumAsyncCopies &&
         M.NumGlobalLoads && M.NumLocalWrites && !M.NumGlobalLoadsAhead &&
         M.NumDots >= LeanSlices && !ldsFootprint(M).onePerCU() &&
         !singleWaveLDSBound(M);
}

/// Every global load first (their round trip has the whole dot), the dot in
/// K-major slices each with the reads of the slice three on (the first
/// three slices' with the loads), the LDS writes last;
/// the later half of the loads' address work among the MFMAs
/// (address-in-dot) and the writes' address sums with the writes
/// (delay-write-address), so neither is live across the dot.
std::string singleWaveLeanGemmLayout(const LoopModel &M) {
  const unsigned S = LeanSlices;
  auto Slice = [&](unsigned I) {
    return "[" + std::to_string(I) + "/" + std::to_string(S) + "]";
  };
  std::string T = std::string("pingpong-layout v1; sync delay-global-data "
                              "dot-waits delay-write-address address-in-dot") +
                  (LeanAdvancesInDot ? " advances-in-dot" : "") +
                  "; mem m: global-load";
  for (unsigned I = 0; I < LeanReadsAhead && I < S; ++I)
    T += ", local-read" + Slice(I);
  for (unsigned I = 0; I < S; ++I) {
    T += "; dot d" + std::to_string(I) + ": dot" + Slice(I);
    if (I + LeanReadsAhead < S)
      T += ", local-read" + Slice(I + LeanReadsAhead);
  }
  return T + "; mem s: local-write";
}

static std::string singleWaveChainedLayout(const LoopModel &M) {
  const DotGroup &QK = M.Groups[0];
  const unsigned Head = std::max(1u, QK.NumDots * 3 / 4);
  return "pingpong-layout v1; sync delay-global-data dot-waits; "
         "dot d0 prio=0: dot@0[" +
         std::to_string(QK.FirstDotOrder) + "-" +
         std::to_string(QK.FirstDotOrder + Head - 1) + "/" +
         std::to_string(M.NumDots) +
         "], global-load; "
         "dot d1 prio=0: dot, inter-dot, local-read@1, local-write";
}

std::optional<ClusterLayout> layoutSingleWave(const LoopModel &M,
                                              Rejection &Why,
                                              unsigned Variant) {
  const std::string Name = modeName(Mode::SingleWave);
  if (M.chainedDots()) {
    if (M.Groups.size() != 2 || M.Groups[1].FedBy != 0 ||
        M.Groups[1].FedLate || M.NumAsyncCopies) {
      Why.Reason = Name + " places two chained dot groups fed in the same "
                          "iteration through register-staged loads only";
      return std::nullopt;
    }
    if (singleWaveEightPartsOrder(M, Variant)) {
      // Eight parts of P V's dot order (half K steps where it has four),
      // the global loads with the sixth: P's and V's registers of one
      // eighth live at a time, and the staged global data only across the
      // last quarter of P V. Tried as layouts on tuning bp_bf16_128x64x128
      // causal gfx942 (NumVgprs + NumAgprs allocated; cycles for two
      // workgroups' iterations): four parts, loads with the third 256+2 (one
      // wave per SIMD: 9549), with the fourth 256+2; eight parts, loads with
      // the fourth / fifth / sixth / seventh 256+10 / 256+2 / 256+0 (two
      // waves: 6897) / 256+2; sixteen parts, loads with the tenth / twelfth
      // 256+6 / 256+0 (6821). Q K^T in two or four slices 271-287: its K
      // reads are ds_read2 pairs of K steps k and k+4, all issued by K step 3.
      const DotGroup &PV = M.Groups[1];
      if (PV.NumDots % 8) {
        Why.Reason = Name + " splits P V in eight parts of its dot order; "
                            "this one has " + std::to_string(PV.NumDots) +
                     " MFMAs";
        return std::nullopt;
      }
      std::optional<ClusterLayout> L = builtinLayout(
          singleWaveTwoWaveLayout(M, 8, 5).c_str(), Mode::SingleWave, M, Why);
      if (L)
        L->Note = "P V in eight parts, each with the next part's P and V "
                  "reads, the global loads with the sixth: held to two waves "
                  "per SIMD";
      return L;
    }
    if (singleWaveTwoWaveOrder(M, Variant)) {
      // Four parts of whole K steps.
      const DotGroup &PV = M.Groups[1];
      if (PV.ChainLen % 4 || PV.NumDots % 4) {
        Why.Reason = Name + " splits P V in four parts of its K steps; this "
                            "one has " + std::to_string(PV.ChainLen);
        return std::nullopt;
      }
      std::optional<ClusterLayout> L = builtinLayout(
          singleWaveTwoWaveLayout(M).c_str(), Mode::SingleWave, M, Why);
      if (L)
        L->Note = "P V in four parts, each with the next part's P and V "
                  "reads: held to two waves per SIMD";
      return L;
    }
    return builtinLayout(singleWaveChainedLayout(M).c_str(), Mode::SingleWave,
                         M, Why);
  }
  // LDS DMA next to LDS writes of the iteration's own loads (MixStage.cpp).
  if (mixedStageOneWaveShape(M))
    return layoutMixedStageOneWave(M, Why);
  if (singleWaveLeanGemmVariant(M, Variant)) {
    std::optional<ClusterLayout> L = builtinLayout(
        singleWaveLeanGemmLayout(M).c_str(), Mode::SingleWave, M, Why);
    if (L)
      L->Note = "register-lean order held to two waves per SIMD: the dot in " +
                std::to_string(LeanSlices) + " K slices, each with the LDS "
                "reads of the slice " + std::to_string(LeanReadsAhead) +
                " after it" +
                (LeanAdvancesInDot ? ", the load offsets' advances among the "
                                     "MFMAs"
                                   : "");
    return L;
  }
  if (M.NumDots < 2) {
    Why.Reason = Name + " needs at least two MFMAs to overlap reads with";
    return std::nullopt;
  }
  // With LDS DMA four slices (one per K step of the MXFP4 128x128x512 tile:
  // 2182 cycles against 2290 for eight, 2318 for sixteen). Register-staged:
  // four to eight, with at least eight MFMAs each where there are enough to
  // cover the next slice's reads (8-wave NN 128x128x64, 32 MFMAs per wave:
  // 1343 cycles in four slices against 1415 in eight).
  // Copies three iterations ahead, after every read (the three-stage DMA
  // lookahead, DMALookahead.cpp): the copies' round trip is out of the
  // iteration, and what is left is the wave's own issue. Two slices, each
  // slice's MFMAs ordered by LLVM's latency scheduler (`latency`) with the
  // next slice's reads and the iteration's other work, no read interleave.
  // Model, cycles per iteration, one workgroup per CU (docs/modes.md,
  // "Session 21"), tuning mmbias_bf16_128x128x64_w4_ns3 / mmktn_fp8_128x128x
  // 128_w4_ns3 gfx950: four slices with the reads one per MFMA 866 / 983;
  // without the interleave 926 / 899; two slices 846 / 954 with it, 810 /
  // 778 without, 798 / 742 with `latency` (kept); three slices 842 / 835;
  // the copies in a memory cluster of their own 878 / 854. The two-stage
  // lookahead's MXFP4 128x128x512 keeps four slices (two: 2082 against
  // 1969).
  const bool CopiesFarAhead =
      CopiesFarAheadLayout && M.NumAsyncCopies && M.copiesFollowReads() &&
      llvm::all_of(M.Insts, [](const InstInfo &I) {
        return I.R != Role::AsyncCopy || I.StagesAhead >= 3;
      });
  const unsigned S =
      CopiesFarAhead ? 2u
      : M.NumAsyncCopies
          ? std::min(4u, M.NumDots)
          : std::min(M.NumDots, std::clamp(M.NumDots / 8, 4u, 8u));
  auto Slice = [&](unsigned I) {
    return "[" + std::to_string(I) + "/" + std::to_string(S) + "]";
  };
  // With LDS DMA every copy goes first (it has no LDS write to wait for;
  // the loop's own waits and barriers stay): 2290 against 2769 for A's
  // first and B's with the first slice.
  const bool DMA = M.NumAsyncCopies;
  // Register-staged, at least four slices: the LDS writes go among the MFMAs
  // of the second-to-last slice instead of after the dot. The last two
  // slices' reads are issued one slice earlier, so the loop's barrier (the
  // other waves' reads done) can come at that slice's start; the writes and
  // B's v_perm packing (delay-global-data: with their writes) then fill the
  // issue slots between its MFMAs, and the last slice's MFMAs take the
  // rest of the VALU. Before, the writes ran after the dot with the MFMA
  // pipe idle (pingpong-sim's resource bound: the run at 66.8 % of it).
  const bool WritesInDot = !DMA && S >= 4;
  // Copies into the buffer this iteration reads (-amdgpu-pingpong-dma-
  // lookahead: tile i+2 two buffers on) follow every read and the barrier
  // after them: with the last slice.
  const bool CopiesLast = DMA && M.copiesFollowReads();
  // A dot result's side inputs loaded an iteration ahead (the block scales
  // of mm_blockscale_rc): their readers, the scaling of each slice's
  // results, span the iteration, so a load that refills its reader's
  // register issues after the last one and is waited for by the first one
  // of the next iteration (the round trip in the wave's path). First in
  // the iteration instead, with the PHIs' latch copies (which wait for
  // them) in an empty cluster at its end: a whole iteration for the round
  // trip, for one v_mov each.
  const bool EarlySide = CopiesFarAhead && sideLoadsEarly(M);
  std::string T = DMA ? std::string(CopiesFarAhead
                                        ? EarlySide
                                              ? "pingpong-layout v1; sync "
                                                "dot-waits latency "
                                                "side-loads-early; mem s "
                                                "prio=0: side-load~1; "
                                              : "pingpong-layout v1; sync "
                                                "dot-waits latency; "
                                        : "pingpong-layout v1; sync dot-waits; ") +
                            (CopiesLast ? "" : "mem mem-g: async-copy; ")
                      : "pingpong-layout v1; sync delay-global-data dot-waits; "
                        "mem mem-g: global-load.a; ";
  for (unsigned I = 0; I < S; ++I) {
    // prio=0: no s_setprio, there is no other wave to win against.
    T += "dot d" + std::to_string(I) + " prio=0: dot" + Slice(I);
    if (WritesInDot && I + 3 == S)
      T += ", local-read" + Slice(I + 1) + ", local-read" + Slice(I + 2);
    else if (I + 1 < S && !(WritesInDot && I + 2 >= S))
      T += ", local-read" + Slice(I + 1);
    if (I == 0 && !DMA)
      T += ", global-load";
    if (CopiesLast && I + 1 == S)
      T += ", async-copy";
    if (WritesInDot && I + 2 == S)
      T += ", local-write";
    T += I + 1 < S || !DMA ? "; " : "";
  }
  // A scale applied to the dot's result waits for its side load, issued
  // in this iteration: after the slice it scales, the wait stops the
  // wave's next slices too. An empty memory cluster after the last slice
  // takes that VALU (planClusters moves role-less VALU out of a dot into
  // the next memory cluster), so every MFMA and LDS write issues first.
  // Model, cycles/iter (GEMM 8192^3), mmblock_fp8_128x128x128_w8 gfx950:
  // 2085 -> 1862. Only where that round trip is long (gfx942, none known:
  // the 256x128x128 loop 3087 -> 3107; docs/triton.md).
  if (WritesInDot && resultSideLoadsPastDot(M))
    T += "mem scale:; ";
  if (EarlySide)
    T += "; dot tail prio=0:";
  if (WritesInDot)
    T += "interleave d" + std::to_string(S - 2) +
         ": mfma 1, valu 2, ds-write 1; interleave d" + std::to_string(S - 1) +
         ": mfma 1, valu 2";
  else if (!DMA)
    T += "mem store: local-write";
  // With LDS DMA, the next slice's reads one per MFMA: as a burst at the
  // slice's start they queued ahead of its MFMAs' operand waits. Model
  // (docs/modes.md, session 17), cycles per iteration, one workgroup per CU:
  // corpus mxfp4_e2m1_128x128x512 2182 -> 2090; held-out set 5, three-stage
  // DMA GEMMs: mmsilu_bf16 867 -> 827 (llc-22 843), mmbias_f16 911 -> 871
  // (915), mmscale_fp8 947 -> 947 (1015).
  if (DMA && !CopiesFarAhead)
    for (unsigned I = 0; I + 1 < S; ++I)
      T += "; interleave d" + std::to_string(I) + ": mfma 1, ds-read 1";
  std::optional<ClusterLayout> L =
      builtinLayout(T.c_str(), Mode::SingleWave, M, Why);
  if (L && singleWaveLDSBound(M)) {
    LDSPortBound B = ldsPortBound(M);
    L->Note = "LDS-bound pingpong: " +
              std::string(M.Waves == 8 ? "one wave group's reads take "
                                       : "a wave's reads and writes take ") +
              std::to_string(unsigned(B.MemClocks)) +
              " port clocks per SIMD pair against a " +
              std::to_string(B.DotClocks) +
              (M.Waves == 8 ? "-clock dot half" : "-clock dot") +
              ": each wave overlaps its own LDS traffic";
  } else if (L && M.Waves == 4) {
    const LDSFootprint F = ldsFootprint(M);
    if (F.onePerCU())
      L->Note = "one workgroup per CU: its LDS buffers (" +
                std::to_string(F.Buffers) + " x " +
                std::to_string(F.BytesPerBuffer) + " B) leave no room for a "
                "second in the CU's " +
                std::to_string(F.CUBytes) +
                " B, so each SIMD runs one wave: no partner to take turns with";
  }
  return L;
}

bool hasResultSideLoads(const LoopModel &M, bool InIteration) {
  return llvm::any_of(M.Insts, [&](const InstInfo &I) {
    return I.R == Role::SideLoad && I.Op == Operand::None &&
           (!InIteration || !I.StagesAhead);
  });
}

static llvm::cl::opt<bool> SideLoadsEarlyOpt(
    "amdgpu-pingpong-side-loads-early", llvm::cl::Hidden,
    llvm::cl::init(true),
    llvm::cl::desc("copies-ahead LDS-DMA loops (single-wave, async-one-"
                   "cluster) with a dot result's side inputs loaded an "
                   "iteration ahead: issue those loads first in the "
                   "iteration, the header PHIs' latch copies in a cluster "
                   "of their own at its end"));

bool sideLoadsEarly(const LoopModel &M) {
  return SideLoadsEarlyOpt && M.NumAsyncCopies &&
         llvm::any_of(M.Insts, [](const InstInfo &I) {
           return I.R == Role::SideLoad && I.Op == Operand::None &&
                  I.StagesAhead;
         });
}

unsigned sideLoadsInIteration(const LoopModel &M) {
  return llvm::count_if(M.Insts, [](const InstInfo &I) {
    return I.R == Role::SideLoad &&
           !(I.Op == Operand::None && I.StagesAhead);
  });
}

bool resultSideLoadsPastDot(const LoopModel &M) {
  // Loads issued an iteration ahead (LoadLookahead.cpp) have the whole
  // iteration for their round trip whatever the mode.
  if (M.Waves != 8 || M.NumAsyncCopies ||
      !hasResultSideLoads(M, /*InIteration=*/true))
    return false;
  const IssueBound B = issueBound(M, 2); // MFMA clocks of both waves
  return B.Known && loadedRoundTrip(M) > B.MFMAClocks;
}

bool singleWaveLDSBound(const LoopModel &M) {
  return portPastDot(M) && notLDSBound(M).empty();
}

std::string notLDSBound(const LoopModel &M) {
  if (std::string Why = l2BelowPort(M); !Why.empty())
    return Why;
  return ownWorkPastOwnDot(M);
}

std::string ownWorkPastOwnDot(const LoopModel &M) {
  // Single-wave hides a wave's LDS traffic behind the wave's own MFMAs: it
  // issues the next slice's reads (and the rest of its work) while its
  // slice's MFMAs run. A wave issues one instruction per turn, so that holds
  // only where all its instructions' turns fit in its own dot's pipe clocks.
  // Past them the wave's own work outlasts its dot; with two waves per SIMD
  // and no turn-taking nothing orders the two waves' work against each
  // other's dots (held-out mmbias_f16_64x64x64_w4_ns3 gfx942, masked loads:
  // 123 instructions against 70, the two workgroups drift apart in the model
  // at 879 and 1098 cycles/iter; one-cluster 910 against single-wave 976).
  // The loops the rule was written on fit (8-wave NN 128x128x64, 4-wave TN
  // 64x64x64, 8-wave 128x128x32 three-stage: docs/modes.md).
  const IssueBound B = issueBound(M, 1);
  if (!OwnIssueCheck || !B.Known)
    return "";
  const double Turns = B.waveTurnClocks();
  LLVM_DEBUG(llvm::dbgs() << "amdgpu-pingpong: single-wave: a wave's "
                          << B.NonMFMA + B.MFMAs << " instructions take "
                          << Turns << " issue clocks, its dot "
                          << B.MFMAClocks << " pipe clocks\n");
  if (Turns <= B.MFMAClocks)
    return "";
  return "not LDS-bound for single-wave: a wave's " +
         std::to_string(B.NonMFMA + B.MFMAs) + " instructions (" +
         std::to_string(B.MFMAs) + " MFMA) take " +
         std::to_string(unsigned(Turns)) +
         " issue clocks per iteration, more than its own dot's " +
         std::to_string(unsigned(B.MFMAClocks)) +
         " pipe clocks: its LDS traffic cannot hide behind its own MFMAs, "
         "the partner wave's dot takes it in turns";
}

bool portPastDot(const LoopModel &M) {
  if (M.NumAsyncCopies || M.chainedDots())
    return false;
  LDSPortBound B = ldsPortBound(M);
  return B.Known && B.ratio() > 1.25;
}

std::string l2BelowPort(const LoopModel &M) {
  // LDS-bound means the port binds, not the CU's L2 share: where the global
  // loads take the L2 share as long as the port takes the LDS traffic, the
  // loads queue at the iteration's pace, and single-wave's LDS writes, two
  // slices after their loads in the same iteration, wait for them (heldout
  // mmbp_bf16_64x128x64_w4_ns3_gfx950: 384 : 384 clocks, a 420-clock vmcnt
  // wait per wave, 1118 cycles against 1009 for LLVM's order; one-cluster,
  // its writes after the dot, 925). docs/modes.md, "No harm by default".
  LDSPortBound B = ldsPortBound(M);
  CopyBound CB = copyBound(M);
  if (!B.Known || !CB.Known || CB.CopyClocks < B.IterationPortClocks)
    return "";
  return "not LDS-bound: the global loads take the CU's L2 share " +
         std::to_string(unsigned(CB.CopyClocks)) +
         " clocks per workgroup iteration, as long as the LDS port's " +
         std::to_string(unsigned(B.IterationPortClocks)) +
         ": single-wave's LDS writes, two slices after their loads, would "
         "wait for them";
}

} // namespace pingpong
