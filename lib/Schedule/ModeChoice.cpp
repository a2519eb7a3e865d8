//===- ModeChoice.cpp - which mode a loop gets -----------------------------===//
#include "pingpong/Schedule/ModeChoice.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "pingpong/Schedule/ClusterPlan.h"
#include "pingpong/Analysis/DepGraph.h"
#include "pingpong/Analysis/RegPressure.h"
#include "pingpong/Analysis/Throughput.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;
STATISTIC(NumOneForLoadWindow, "8-wave loops given one-cluster: the loaded "
                               "round trip outlasts two-cluster's load window");
STATISTIC(NumFourWaveNoRoom, "4-wave attention loops given the 4-wave order: "
                             "LLVM's order at two waves' registers");
STATISTIC(NumKeptLLVMOrder, "Orders refused as no gain over LLVM's "
                            "(issue- or LDS-port-bound attention, memory "
                            "past the partner's dot)");

static cl::opt<bool> NoHarmGuard(
    "amdgpu-pingpong-no-harm", cl::Hidden, cl::init(true),
    cl::desc("auto: no chained-dot or single-wave order for "
             "register-staged attention loops with nothing to overlap: issue "
             "turns past the MFMA pipe and LDS port (8 waves, one wave per "
             "SIMD), the LDS port past both (the 4-wave gate); no "
             "async-one-cluster order whose memory cluster outlasts the "
             "partner's dot; LLVM's order is kept"));

static cl::opt<bool> FourWaveAttention(
    "amdgpu-pingpong-four-wave-attention", cl::init(false),
    cl::desc("auto, 4-wave register-staged attention: apply the chained-dot "
             "order (two workgroups' waves taking turns on each SIMD: gated, "
             "or ungated where the LDS port binds). Off (the default), LLVM's "
             "order is kept with a remark: the order's gain over it depends "
             "on AMDGPU's machine scheduler, which runs after the plugin "
             "(docs/modes.md); amdgpu_pingpong.triton times both orders"));

static cl::opt<bool> FourWaveNoRoom(
    "amdgpu-pingpong-four-wave-no-room", cl::init(true), cl::Hidden,
    cl::desc("auto, 4-wave register-staged attention: apply the chained-dot "
             "order where LLVM's order already needs about two waves' "
             "vector registers before AMDGPU's scheduler runs (no room left "
             "to reorder it for latency), instead of keeping LLVM's order "
             "(default on; docs/modes.md, session 23; AMDGPUPingpong "
             "plugin)"));

/// The most the register estimate of a chained-dot loop's order fell short
/// of the registers allocated for it (design.md, modes.md: 12-39 on the
/// 8-wave corpus loops; 0-26 on the 4-wave tuning and corpus loops, session
/// 23).
static constexpr unsigned ChainedDotEstimateError = 39;
unsigned pingpong::chainedDotEstimateError() {
  return ChainedDotEstimateError;
}

static cl::opt<bool> LDSOccupancy(
    "amdgpu-pingpong-lds-occupancy", cl::Hidden, cl::init(true),
    cl::desc("auto, 4 waves: where the loop's LDS buffers leave room for one "
             "workgroup per CU (each SIMD then runs one wave), take the "
             "one-wave order (single-wave) instead of the modes that pair two "
             "workgroups' waves (AMDGPUPingpong plugin)"));

static cl::opt<bool> OneWaveTurns(
    "amdgpu-pingpong-one-wave-turns", cl::Hidden, cl::init(true),
    cl::desc("auto, single-wave's one-wave attention order (one wave per "
             "SIMD): no gain over LLVM's order where the wave's own issue "
             "turns, one per instruction of any kind, outlast its MFMA pipe "
             "and LDS port (AMDGPUPingpong plugin)"));

static cl::opt<bool> IssueBoundOffDots(
    "amdgpu-pingpong-issue-bound-off-dots", cl::Hidden, cl::init(true),
    cl::desc("auto, attention: the issue-bound no-gain verdicts do not hold "
             "where most of a wave's VALU is off the dots' chain (dropout's "
             "Philox draws): the orders may put it beside the wave's waits "
             "(AMDGPUPingpong plugin)"));

STATISTIC(NumIssueBoundOffDots,
          "Issue-bound attention loops scheduled: most of the VALU off the "
          "dots' chain");

static cl::opt<bool> CheckTrying(
    "amdgpu-pingpong-check-trying", cl::Hidden, cl::init(false),
    cl::desc("check that trying modes leaves the loop body's MIR as it was "
             "(a hash of its instructions and operands after each mode "
             "tried); a fatal error names the mode that changed it"));

namespace pingpong {

/// The gated one-cluster order with LDS DMA (issue 24 item 7, session 13):
/// a wave's memory cluster runs while its SIMD partner (the other
/// workgroup's wave) runs its dot, then its own dot; the order gains where
/// the memory cluster fits in the partner's dot, the MFMA pipe then busy on
/// every clock. The memory cluster takes at least one issue turn per
/// instruction plus an LDS latency per LDS result its own work waits for in
/// sequence (a ds_bpermute into a DMA's address, a scale byte into its VALU
/// merge). Where the whole memory work outlasts the dot, the layout moves
/// the second K half's reads and the later DMA into the dot
/// (asyncOneMemory, AsyncOnePP.cpp); where even the rest outlasts it, each
/// wave runs the two in sequence, past the pipe's bound, while LLVM's order
/// overlaps the wave's own memory work with its own MFMAs.
/// The operand-split wait (OperandWaits, session 19) is judged as the
/// layout it emits: its dot takes the other operand's reads. It is chosen
/// where LLVM's order is held by the loop-top vmcnt(0) instead, each copy's
/// loaded round trip plus the workgroup's copy bytes at the CU's L2 share
/// per iteration; where the SIMD's two memory clusters in sequence take
/// less than that, LLVM's order does not overlap its memory work with its
/// MFMAs either, it waits for the copies: no verdict (only where the copies
/// are all the loop loads from global memory).
static std::string memoryPastPartnerDot(const LoopModel &M, bool OperandWaits,
                                        const std::string &Name) {
  const AsyncOneMemory A = asyncOneMemory(M, OperandWaits);
  LLVM_DEBUG(dbgs() << "amdgpu-pingpong: " << Name << ": memory cluster "
                    << A.Clocks << " clocks (" << A.MovedToDot
                    << " instructions moved into the dot), dot "
                    << A.DotClocks << " pipe clocks per wave\n");
  if (!A.Known || A.Clocks <= A.DotClocks)
    return "";
  // Block-scaled loops with the copies a tile ahead and the scale loads an
  // iteration ahead (DMALookahead.cpp, LoadLookahead.cpp, session 22): each
  // iteration issues its scale loads after its copies (after their last
  // reader, at the end of the dot), and vmcnt counts in issue order, so the
  // next iteration's wait for a scale waits for these copies too: LLVM's
  // order holds each copy to about one iteration as the loop-top vmcnt(0)
  // did, and is judged the same way as the operand-split wait below.
  unsigned ScalesAhead = 0, ScalesIn = 0;
  for (const InstInfo &I : M.Insts)
    if (I.R == Role::SideLoad)
      ++(I.StagesAhead == 1 ? ScalesAhead : ScalesIn);
  const bool ScalesBehindCopies =
      M.copiesOneTileAhead() && ScalesAhead && !ScalesIn;
  if (ScalesBehindCopies) {
    const CopyBound CB = copyBound(M);
    const unsigned RoundTrip = loadedRoundTrip(M);
    LLVM_DEBUG(dbgs() << "amdgpu-pingpong: " << Name << ": scale loads behind "
                      << "the copies: two memory clusters " << 2 * A.Clocks
                      << " clocks against LLVM's copy wait "
                      << RoundTrip + CB.CopyClocks << "\n");
    if (CB.Known && RoundTrip && !M.NumGlobalLoads &&
        2.0 * A.Clocks < RoundTrip + CB.CopyClocks)
      return "";
  }
  if (A.OperandWaits) {
    const CopyBound CB = copyBound(M);
    const unsigned RoundTrip = loadedRoundTrip(M);
    LLVM_DEBUG(dbgs() << "amdgpu-pingpong: " << Name << ": two memory "
                      << "clusters " << 2 * A.Clocks << " clocks against "
                      << "LLVM's copy wait " << RoundTrip + CB.CopyClocks
                      << "\n");
    // Only where the copies are the loop's global traffic: a side load
    // (a scale read into registers) has its own round trip in the
    // iteration, which LLVM's order overlaps with its MFMAs too.
    if (CB.Known && RoundTrip && !M.NumSideLoads && !M.NumGlobalLoads &&
        2.0 * A.Clocks < RoundTrip + CB.CopyClocks)
      return "";
  }
  return formatv("no gain over LLVM's order: a wave's memory cluster ({0} "
                 "instructions besides its {1} MFMA, {2} of them moved into "
                 "its dot, {3} dependent LDS round trip{4}) takes at least "
                 "{5} clocks per iteration, more than the {6:F0} pipe clocks "
                 "of the partner wave's dot it faces: it cannot hide behind "
                 "that dot, each wave runs the two in sequence where LLVM's "
                 "order overlaps its own memory work with its own MFMAs; "
                 "LLVM's order is kept",
                 A.NonMFMA, A.MFMAs, A.MovedToDot, A.LDSTrips,
                 A.LDSTrips == 1 ? "" : "s", A.Clocks, A.DotClocks)
      .str();
}

/// Attention orders that cannot beat LLVM's (issue 24 item 7): the
/// chained-dot and single-wave orders win by overlapping memory work (LDS
/// reads and writes, the global loads' latency) with MFMAs, one wave's
/// against its partner's (8 waves: barrier intervals under the skew; 4
/// waves: the gate, two workgroups' waves on a SIMD) or its own (one wave
/// per SIMD). Two bounds say there is nothing to overlap:
/// - issue-bound (8 waves, one wave per SIMD): the SIMD's vector issue
///   turns, mostly the softmax's VALU, outlast both its MFMA pipe and its LDS
///   port; the SIMD issues on every turn whatever the order, and the
///   turn-taking only adds waits (barriers pace a VALU-heavy wave against a
///   short dot). The gate is not judged by this one: its priorities hand the
///   turns between a dot's MFMAs to the partner's VALU (the corpus's gated
///   attention gains while issue-bound).
/// (The 4-wave gate's LDS-port-bound case, which kept LLVM's order in
/// sessions 12-13, now gets an ungated layout instead: ChainedPP.cpp.)
/// With LDS DMA the modes also replace LLVM 22's DMA waits, a gain of its
/// own: not judged, except where the copies' loaded round trip is placed
/// for and the memory work outlasts the dot (asyncCopiesPastDot,
/// AsyncTwoPP.cpp). Returns why, with the numbers; empty: no verdict.
static std::string noGainOverLLVM(const LoopModel &M, Mode Md, bool OneWave,
                                  bool AloneOnSIMD, bool OperandWaits,
                                  const std::string &Name) {
  if (Md == Mode::AsyncOnePP && mixedStageShape(M))
    return mixedStageNoGain(M);
  if (Md == Mode::SingleWave && mixedStageOneWaveShape(M))
    return mixedStageOneWaveNoGain(M);
  if (Md == Mode::AsyncOnePP)
    return memoryPastPartnerDot(M, OperandWaits, Name);
  if (Md == Mode::AsyncTwoPP || Md == Mode::AsyncFourPP)
    return asyncCopiesPastDot(M);
  if (Md == Mode::ChainedPP && M.chainedDots() && M.NumAsyncCopies)
    return chainedDMANoGain(M);
  if (!M.chainedDots() || M.NumAsyncCopies)
    return "";
  const bool Paced = Md == Mode::ChainedPP && M.Waves == 8;
  // The 4-wave gate is judged by neither bound: its priorities hand the
  // turns between a dot's MFMAs to the partner's VALU, and a port-bound loop
  // gets the ungated layout (ChainedPP.cpp).
  if (!Paced && !OneWave)
    return "";
  IssueBound B = issueBound(M, OneWave ? 1 : 2);
  LLVM_DEBUG(dbgs() << "amdgpu-pingpong: " << Name << ": issue " << B.IssueClocks
                    << ", MFMA pipe " << B.MFMAClocks << ", LDS port "
                    << B.PortClocks << " clocks per iteration per SIMD\n");
  // 8 waves: one wave's issue turns past the pipe and the port together, not
  // just the SIMD's past the busier of them. Short of that LLVM's order
  // leaves issue turns idle on its own latencies, and the partner wave's
  // memory work fills them under the pacing (session 17, docs/modes.md:
  // held-out and tuning loops with a wave's turns at 0.35-0.56 of pipe +
  // port gain 4-32 % chained, the soft-capped loop at 1.31 loses 22 %).
  // One wave per SIMD has no partner to fill them: past the busier unit is
  // enough.
  // A wave alone on its SIMD (single-wave's one-wave order, not the order
  // held to two waves per SIMD, whose SIMD runs the other workgroup's wave
  // too) issues every instruction itself, one per issue turn whatever the
  // unit: its LDS reads and writes, waits, SALU and loads take turns as its
  // VALU does. Where those turns outlast the pipe and the port, every order
  // of the wave's work is held to them, LLVM's included (session 23, issue
  // 28: heldout8's masked varlen loop, 436 + 128 instructions, 2256 turn
  // clocks against a 2048-clock pipe, lost 4.6 % in the one-wave order; the
  // corpus and tuning loops that gain, 474-486 instructions, 1896-1944).
  const bool TurnBound =
      !Paced && AloneOnSIMD && OneWaveTurns && B.waveTurnsPastUnits();
  if (Paced ? !B.waveIssueBoundPastBoth() : !B.issueBound() && !TurnBound)
    return "";
  // Every issue turn is used in any order only where a global load lands
  // within the iteration's issue turns; a loaded round trip past them leaves
  // turns idle in LLVM's order too, for the turn-taking to fill.
  if (loadedRoundTrip(M) >
      (B.issueBound() || Paced ? B.IssueClocks : B.waveTurnClocks()))
    return "";
  // Both verdicts say LLVM's order already keeps the SIMD issuing. That holds
  // where the VALU is the softmax, waiting for Q K^T's results in any order:
  // the orders can only move it along the dots' chain (tuning bp causal and
  // window w4 gfx942, heldout8 varlen: 25-42 % of the VALU off that chain,
  // single-wave's order 0.875-0.935x of llc-22's). Where most of it is off
  // the chain (attention with dropout: a Philox draw per score from the
  // offsets and the seed, 85-89 % of the VALU), LLVM's order still stalls on
  // its LDS reads and on VALU latencies (model: llc-22 at 1.3-2.7x of the
  // issue turns), which the orders fill with that ready work (session 24,
  // tuning dropout twins: chained-dot 1.059-1.060x, single-wave 1.017x of
  // llc-22; docs/modes.md, "Session 24: issue-bound, off the dots").
  if (IssueBoundOffDots && B.valuMostlyOffDots()) {
    LLVM_DEBUG(dbgs() << "amdgpu-pingpong: " << Name << ": issue-bound, but "
                      << B.OffDotVALU << " of " << B.VALU
                      << " VALU off the dots' chain: no verdict\n");
    ++NumIssueBoundOffDots;
    return "";
  }
  if (!Paced && !B.issueBound())
    return formatv("no gain over LLVM's order: the wave runs alone on its "
                   "SIMD and issues each of its {0} instructions ({1} MFMA) "
                   "itself, one per issue turn: {2:F0} clocks per iteration, "
                   "more than its MFMA pipe ({3:F0}) and its LDS port "
                   "({4:F0}) need: every order of its work is held to those "
                   "turns, LLVM's too, and the one-wave order's clusters "
                   "only add waits; LLVM's order is kept ({5} of its {6} "
                   "VALU off the dots' chain, not most)",
                   B.NonMFMA + B.MFMAs, B.MFMAs, B.waveTurnClocks(),
                   B.MFMAClocks, B.PortClocks, B.OffDotVALU, B.VALU)
        .str();
  return formatv("no gain over LLVM's order: the loop is issue-bound ({0} "
                 "VALU and {1} MFMA per wave take {2:F0} issue clocks per "
                 "iteration on each SIMD ({3} wave{4}), more than its MFMA "
                 "pipe ({5:F0}) and its LDS port ({6:F0}) need{9}): no unit "
                 "is left idle for {7} to fill, its {8} only add waits; "
                 "LLVM's order is kept ({10} of the {0} VALU off the dots' "
                 "chain, not most)",
                 B.VALU, B.MFMAs, B.IssueClocks, B.WavesPerSIMD,
                 B.WavesPerSIMD == 1 ? "" : "s", B.MFMAClocks, B.PortClocks,
                 OneWave ? "its own memory work" : "the partner's memory work",
                 OneWave ? "serialized clusters" : "barrier intervals",
                 Paced ? formatv(" together, even a wave's {0:F0}",
                                 B.IssueClocks / B.WavesPerSIMD)
                             .str()
                       : std::string(),
                 B.OffDotVALU)
      .str();
}

bool fourWaveAttentionRequested() { return FourWaveAttention; }
/// Session 23 (attn4w, issue 28): the 4-wave attention loops where LLVM's
/// order leaves AMDGPU's scheduler no registers to reorder it with. The
/// 4-wave order's verdict is AMDGPU's scheduler's (fourWaveGainUnjudged):
/// on LLVM's order it gains by moving work for latency (session 20: the
/// occupancy hint lent it registers for that, ALiBi 116 -> 156 VGPRs, 35 LDS
/// requests in flight instead of 5), and each such move costs registers.
/// Where LLVM's order already needs two waves' registers within the
/// estimate's error before that scheduler runs (Before, the estimate of the
/// body's own order), it has none to spend at the two waves per SIMD the
/// kernel runs at, whatever occupancy it is told (tuning
/// mha_f16_64x64x128 and bp_f16_64x64x128: the same cycles with the hint
/// and without it, 228 and 226 VGPRs either way), and LLVM's order runs
/// much as the IR gives it: the softmax between the two dots of one wave,
/// nothing of the partner's beside it but the arbitration. The plugin's
/// order pairs the two workgroups' waves instead (the gate), held to the
/// same budget by chooseMode. Model, tuning and corpus (docs/modes.md,
/// "Session 23: attn4w"): the two gated loops this takes (LLVM's order at
/// 227 and 241 estimated) gain 1.028-1.258x over llc-22 with plain llc
/// options and 1.051-1.261x with Triton's; the four it leaves (153-192)
/// lose 1-12 % in the 4-wave order against the hinted LLVM order. Returns
/// why the order is taken, "" where not.
static std::string fourWaveNoRoom(const LoopModel &M, unsigned Before,
                                  unsigned Budget) {
  if (!FourWaveNoRoom || M.Waves != 4 || !M.chainedDots() ||
      M.NumAsyncCopies || Before + ChainedDotEstimateError <= Budget)
    return "";
  // Where the LDS port binds, the 4-wave order is ungated (ChainedPP.cpp):
  // its clusters alone, no turns handed to the partner; its gain over LLVM's
  // order is thin there (tuning bp_f16_64x64x128: 1.046x of llc-22 with
  // plain llc options, 1.001x with Triton's).
  if (issueBound(M, target::PingpongWavesPerSIMD).portBound())
    return "";
  return "the 4-wave order: LLVM's order needs about " +
         std::to_string(Before) + " vector registers before AMDGPU's "
         "scheduler runs, within the estimate's error (" +
         std::to_string(ChainedDotEstimateError) + ") of the " +
         std::to_string(Budget) + " of two waves per SIMD: no room for it "
         "to reorder LLVM's order for latency";
}

/// The 4-wave attention orders (issue 24 item 7, session 18): the two
/// waves of a SIMD come from two workgroups and take turns at the dots,
/// under the gate or, where the LDS port binds, with dot-waits alone.
/// Whether that beats LLVM's order is decided by AMDGPU's machine scheduler,
/// which runs after this pass: on LLVM's order it gains 5-13 % on some loops
/// and loses 13-27 % on others, while the plugin's order is close to the one
/// it is given (session 17's table, docs/modes.md); the verdict also flips
/// with the code-generation options (FP contraction: five of 19 loops,
/// session 18). The plugin cannot see that scheduler's result (machine SSA,
/// its strategy internal to the target) and none of its bounds separate the
/// two groups, so auto does not claim the gain: LLVM's order is kept unless
/// asked.
static std::string fourWaveGainUnjudged(const LoopModel &M, Mode Md,
                                        unsigned Before, unsigned Budget) {
  if (FourWaveAttention || Md != Mode::ChainedPP || M.Waves != 4 ||
      !M.chainedDots() || M.NumAsyncCopies)
    return "";
  if (!fourWaveNoRoom(M, Before, Budget).empty())
    return "";
  return "no gain over LLVM's order the plugin can show: the 4-wave order's "
         "gain (two workgroups' waves taking turns on each SIMD) depends on "
         "AMDGPU's machine scheduler, which reorders LLVM's order after this "
         "pass (in the model 0.95x to 1.34x of llc-22's order over 20 such "
         "loops, docs/modes.md); LLVM's order is kept "
         "(-amdgpu-pingpong-four-wave-attention applies it; "
         "amdgpu_pingpong.triton times both)";
}

bool wavesPerEUTold(const Function &F) {
  if (!F.hasFnAttribute("amdgpu-waves-per-eu"))
    return false;
  StringRef V = F.getFnAttribute("amdgpu-waves-per-eu").getValueAsString();
  unsigned Min = 0;
  return !V.split(',').first.trim().getAsInteger(10, Min) && Min > 0;
}

std::string oneWaveLatency(const LoopModel &M, const MachineFunction &MF) {
  if (M.Waves != target::WavesPerGroup || !M.chainedDots() ||
      M.NumAsyncCopies || MF.getSubtarget().getCPU() != target::Gfx942.CPU)
    return "";
  // Told its occupancy (the hint, OccupancyHint.cpp, or the user's own
  // minimum): the scheduler aims at that; the two are not combined (the
  // model, tuning bp_bf16_128x64x128_w4_ns2_causal: max-ilp alone 8094
  // cycles per iteration, with "1,2" 8724, llc-22 8636).
  if (wavesPerEUTold(MF.getFunction()))
    return "";
  std::vector<unsigned> Identity(M.Insts.size());
  for (unsigned I = 0; I < Identity.size(); ++I)
    Identity[I] = I;
  const unsigned Before = peakVectorPressure(M, Identity);
  const unsigned Budget = vectorRegisterBudget(MF);
  if (Before <= Budget)
    return "";
  return "LLVM's order needs about " + std::to_string(Before) +
         " vector registers, past the " + std::to_string(Budget) +
         " of two waves per SIMD: one wave per SIMD, no other wave to hide "
         "its stalls; AMDGPU's scheduler is asked to order it for latency "
         "(amdgpu-sched-strategy=max-ilp)";
}

/// Two-cluster's window for a register-staged global load (issue 28,
/// session 19): the loads issue in mem0 and their LDS writes are in mem1,
/// one dot interval later, about half the iteration's MFMA clocks per SIMD.
/// Where the target's loaded round trip outlasts that window, every wave
/// waits for its loads before it writes, each iteration (gfx950, 256x128
/// tiles: round trip 1000 against 512; vmcnt 27 % of the stalls).
/// One-cluster issues every global load first and writes at the end of the
/// iteration: the whole iteration to land. Returns why, with the numbers;
/// empty: the loads land within two-cluster's window.
static std::string loadsPastTwoClusterWindow(const LoopModel &M) {
  // Loads issued an iteration ahead (LoadLookahead.cpp) have the whole
  // iteration before the write they feed whatever the mode.
  if (M.NumAsyncCopies || !M.NumGlobalLoads || !M.NumLocalWrites ||
      M.NumGlobalLoadsAhead)
    return "";
  const unsigned RoundTrip = loadedRoundTrip(M);
  const CopyBound CB = copyBound(M);
  if (!RoundTrip || !CB.Known || 2 * RoundTrip <= CB.MFMAClocks)
    return "";
  return "one cluster, not two: a global load's loaded round trip (" +
         std::to_string(RoundTrip) + " clocks) outlasts two-cluster's " +
         std::to_string(CB.MFMAClocks / 2) +
         " clocks from its load to its LDS write (half the iteration's MFMA "
         "clocks per SIMD); one-cluster gives it the whole iteration";
}

/// The body's instructions, in order, with their operands.
static hash_code hashBody(const MachineBasicBlock &MBB) {
  hash_code H = hash_value(MBB.size());
  for (const MachineInstr &MI : MBB) {
    H = hash_combine(H, &MI, MI.getOpcode());
    for (const MachineOperand &MO : MI.operands())
      H = hash_combine(H, MO);
  }
  return H;
}

std::string unscheduledShapes(const LoopModel &M) {
  std::vector<std::string> Shapes;
  auto N = [](unsigned V) { return std::to_string(V); };
  // LDS DMA alone is what the async modes schedule; with another shape it
  // is named too. Crossbar ops next to LDS DMA are Triton's coalesced async
  // copy shuffling its global offsets (ds_bpermute): address arithmetic,
  // placed by dependences like the rest. Scaled MFMA is no other shape
  // there: the scales are operands, their DMA and reads go with A or B.
  // Two chained dots fed by LDS DMA at 8 waves are the chained-dot mode's
  // (its layout places the DMA; seed 001's two dot chains with two stages).
  bool ChainedDMA = M.chainedDots() && M.Groups.size() == 2 && M.Waves == 8;
  // Direct operand loads next to LDS DMA at 4 waves: seed 002's M=32 loop,
  // the skinny mode's (SkinnyPP.cpp); its ds_bpermute is the DMA's address
  // shuffle, as above.
  if (skinnyFourWaveShape(M))
    return "";
  // Chained dots: direct loads that only the inter-dot work reads (attention
  // backward's log-sum-exp and delta rows; InterDotLoads.cpp) are the
  // chained-dot layouts' to place, as their global loads (session 24).
  const unsigned DirectLoads =
      M.NumDirectLoads -
      (M.chainedDots() && M.Groups.size() == 2 ? M.NumInterDotLoads : 0);
  bool OtherShape = (M.chainedDots() && !ChainedDMA) || DirectLoads;
  if (M.NumAsyncCopies && OtherShape)
    Shapes.push_back("operands through LDS DMA (" + N(M.NumAsyncCopies) +
                     " async copies" +
                     (M.NumStages ? ", " + N(M.NumStages) + " stages" : "") +
                     ")");
  if (M.scaled() && OtherShape)
    Shapes.push_back("scaled MFMA (v_mfma_scale with A/B scales)");
  // Two chained dots alone are the chained-dot mode's; with another shape
  // no mode takes they are named too.
  // Crossbar ops next to the chained dots' DMA: address shuffles, as above.
  // A GEMM's cross-warp sums shuffle lanes on their way to LDS (gfx942's
  // ds_swizzle/ds_bpermute): VALU of the sums, placed by dependences
  // (LDSReductions.cpp).
  const unsigned Crossbar = M.NumCrossbar - M.NumSumCrossbar;
  bool Others = (M.NumAsyncCopies && !ChainedDMA) || M.scaled() ||
                DirectLoads ||
                (Crossbar && !(ChainedDMA && M.NumAsyncCopies));
  if (M.chainedDots() && (M.Groups.size() > 2 || Others)) {
    unsigned InterDot = 0;
    for (const DotGroup &G : M.Groups)
      InterDot += G.InterDot;
    Shapes.push_back("chained dots (" + N(M.Groups.size()) +
                     " dot groups, " + N(InterDot) +
                     " VALU instructions between them, e.g. attention's "
                     "softmax)");
  }
  if (DirectLoads)
    Shapes.push_back("operands loaded straight from global memory (" +
                     N(DirectLoads) + " direct loads)");
  if (Crossbar && (!M.NumAsyncCopies || OtherShape))
    Shapes.push_back("LDS crossbar ops (ds_bpermute/ds_swizzle) in the loop");
  std::string S;
  for (const std::string &X : Shapes)
    S += (S.empty() ? "" : "; ") + X;
  return S;
}

std::vector<Mode> candidateModes(const LoopModel &M, Rejection &Why) {
  auto Bits = [](uint64_t B) { return std::to_string(B); };
  std::string Tile = "tile " + M.tileText() + " = " + Bits(M.TileBits) + " bits";
  // Attention: no GEMM tile to size; the chained-dot layouts need 4 or 8
  // waves and say why not otherwise.
  // At 4 waves past the two-wave registers: single-wave (chooseMode's gate).
  if (M.chainedDots() && M.Waves == 4 && !M.NumAsyncCopies)
    return {Mode::ChainedPP, Mode::SingleWave};
  if (M.chainedDots() && (M.Waves == 4 || M.Waves == 8))
    return {Mode::ChainedPP};
  // Seed 002's M=32 loop (direct loads, LDS DMA, a register-staged scale):
  // skinny's 4-wave layout; in the model 1000 cycles/iter against 1567 for
  // llc-22 and 1749 for Triton (docs/modes.md).
  if (skinnyFourWaveShape(M))
    return {Mode::SkinnyPP};
  // LDS DMA next to register-staged LDS writes, 4 or 8 waves:
  // async-one-cluster's writes-first layout (MixStage.cpp).
  // Where its writes store the iteration's own loads, single-wave's
  // one-wave order (MixStage.cpp, session 24).
  if (mixedStageShape(M) && mixedStageEnabled() &&
      (M.Waves == 4 || M.Waves == 8))
    return {mixedStageMode(M, M.Waves == 4 && LDSOccupancy &&
                                  ldsFootprint(M).onePerCU())};
  if (M.NumAsyncCopies && (M.NumLocalWrites || M.NumGlobalLoads)) {
    Why.Reason = "LDS DMA next to LDS writes of register-staged global loads "
                 "(" + std::to_string(M.NumLocalWrites) + " LDS writes): no "
                 "mode schedules both";
    return {};
  }
  // Four-cluster (reads in four slices) where two-cluster's registers do
  // not fit; slower in the model on every corpus kernel (docs/modes.md).
  if (M.NumAsyncCopies && M.Waves == 8)
    return {Mode::AsyncTwoPP, Mode::AsyncFourPP};
  // The registry's auto rule by waves and tile (Modes.def), refined here by
  // what only the model knows.
  if (M.Waves == 4 || M.Waves == 8) {
    std::vector<Mode> Modes = autoGemmModes(M.Waves, M.TileBits);
    if (Modes.empty()) {
      Why.Reason = M.Waves == 4
                       ? Tile + " is below the minimum " + Bits(tile::Min) +
                             " (4 warps): too little dot work to hide "
                             "memory behind"
                       : Tile + " is below " + Bits(tile::TwoClusterMin) +
                             ", the smallest two-cluster tile for 8 warps";
      return {};
    }
    // The 4-wave modes pair two workgroups' waves on each SIMD. Where the
    // loop's LDS buffers leave room for one workgroup per CU (three stages
    // of a 128x128x64 tile: 3 x 32 KB on gfx950's 160 KB), each SIMD runs
    // one wave: the one-wave order. Model (docs/modes.md, session 17),
    // held-out set 5, cycles per two workgroups' iterations, one-cluster ->
    // single-wave (llc-22): mmscale_fp8_128x128x128 ns3 DMA 2124 -> 1894
    // (2030), mmbias_f16_128x128x64 ns3 DMA 2022 -> 1822 (1830),
    // mmk_bf16_128x64x64 ns3 gfx942 2180 -> 1969 (3778).
    if (M.Waves == 4 && LDSOccupancy && ldsFootprint(M).onePerCU())
      return {Mode::SingleWave};
    // A block scale of the dot's result loaded and used in one iteration
    // whose round trip outlasts both waves' dots (gfx950: ~1000 clocks
    // against 2 x 256): turn-taking adds the other group's dot to a
    // latency-bound iteration. Model, mmblock_fp8_128x128x128_w8 gfx950:
    // one-cluster 2282 (two-cluster 2317) -> single-wave 1862
    // (docs/triton.md).
    if (Modes.size() == 1 && Modes[0] == Mode::TwoPP &&
        resultSideLoadsPastDot(M))
      return {Mode::SingleWave, Modes[0]};
    // LDS-bound pingpong: where a wave's (one-cluster) or one wave group's
    // (two-cluster) LDS reads take the SIMD pair's port for much longer than
    // the other's dot (half), the memory cluster cannot hide behind it (one
    // buffer: the reads cannot move to the writes' cluster either). Each wave
    // then overlaps its own reads with its MFMAs (single-wave's order, no
    // turn-taking). Model, gfx942: bf16 TN 64x64x64 (384 : 256) 884 -> 844;
    // 8 waves, NN 128x128x64 (reads 384 port clocks against a 256-clock dot
    // half) 1590 -> 1343; the 256x128 tiles (512 against 512) keep
    // two-cluster, 6-7% ahead of single-wave (docs/modes.md).
    if (Modes.size() == 1 &&
        (Modes[0] == Mode::OnePP || Modes[0] == Mode::TwoPP) &&
        singleWaveLDSBound(M))
      return {Mode::SingleWave, Modes[0]};
    if (Modes.size() == 1 && Modes[0] == Mode::TwoPP &&
        !loadsPastTwoClusterWindow(M).empty())
      return {Mode::OnePP, Mode::TwoPP};
    if (Modes[0] == Mode::OnePP && M.NumAsyncCopies)
      return {Mode::AsyncOnePP};
    return Modes;
  }
  if (M.Waves == 0)
    Why.Reason = "workgroup size unknown (no \"amdgpu-flat-work-group-size\", "
                 "e.g. __launch_bounds__): cannot tell how waves share a SIMD";
  else
    Why.Reason = "workgroup of " + std::to_string(M.Waves) +
                 " waves: pingpong modes need 4 or 8";
  return {};
}

/// A layout with its own barriers between clusters replaces the loop's
/// barriers and fences: out of the model the plan sees, deleted by emission.
/// They have no register operands, so the pressure estimate (use lists)
/// does not see them either.
static void dropSync(ModeChoice &C) {
  std::vector<InstInfo> Kept;
  for (const InstInfo &II : C.Work.Insts)
    (II.R == Role::Sync ? C.Drop.push_back(II.MI) : Kept.push_back(II));
  C.Work.Insts = std::move(Kept);
}

/// The register peak of the loop planned in Layout (its plan not kept), 0
/// where it does not plan.
static unsigned layoutPeak(const LoopModel &M, const ClusterLayout &Layout,
                           PlanContext &Ctx) {
  Rejection W;
  ModeChoice C;
  C.Work = M;
  if (Layout.BarrierBetweenClusters)
    dropSync(C);
  DepGraph G = buildDepGraph(C.Work, Ctx.MLI, Ctx.AA);
  std::optional<ClusterPlan> Plan = planClusters(C.Work, G, Layout, W);
  return Plan ? peakVectorPressure(C.Work, Plan->Order) : 0;
}

/// The peak of the loop's register witness (fourPPRegisterWitness: an
/// order of the body, whichever mode asks), 0 where it does not plan.
static unsigned registerWitnessPeak(const LoopModel &M, PlanContext &Ctx) {
  Rejection W;
  std::optional<ClusterLayout> Layout = fourPPRegisterWitness(M, W);
  return Layout ? layoutPeak(M, *Layout, Ctx) : 0;
}

/// Chained-dot's register-lean order (ChainedPP.cpp, session 23) waits for
/// each slice's LDS reads inside the dots, where the other orders hide them
/// behind a memory cluster: it pays only where the registers bind, that is
/// where LLVM's own order is past the budget too. At 8 waves past it means
/// spills, which LLVM's scheduler may still avoid a little past the
/// estimate (tuning bp_bf16_128x32x256_w8 gfx942: ~233 estimated, 248
/// allocated, no scratch; the lean order models 0.99x of it): LLVM's order
/// past the budget. At 4 waves a register past it costs the second
/// workgroup on each SIMD (one wave per SIMD, no partner to take turns
/// with): LLVM's order within the chained-dot margin of it (tuning
/// mha_bf16_64x32x256_w4 gfx942: ~255 estimated, 257 allocated).
static bool leanOrderWanted(const LoopModel &M, unsigned Before,
                            unsigned Budget, unsigned Margin) {
  return M.Waves == 4 ? Before + Margin > Budget : Before > Budget;
}

/// At 4 waves the lean order itself must fit two waves per SIMD with the
/// chained-dot margin (Peak: its estimate). Empty where it does; else why.
static std::string leanOrderPastMargin(const LoopModel &M, unsigned Peak,
                                       unsigned Budget, unsigned Margin) {
  if (M.Waves != 4 || Peak + Margin <= Budget)
    return "";
  return "register-lean order: needs about " + std::to_string(Peak) +
         " vector registers, not within the " + std::to_string(Margin) +
         "-register margin of the " + std::to_string(Budget) +
         " two 4-wave workgroups per CU need";
}

/// Registers the 8-wave chained-dot orders keep free below the budget
/// (see chooseMode).
static constexpr unsigned ChainedDotMargin = 24;

// Session 24 (directdot): an 8-wave chained-dot order past the budget is
// taken where LLVM's order is further past it (the relief rule below: fewer
// spills), but each spill is still a scratch round trip in the loop. Where
// the register-lean order (the last chained-dot variant, itself taken as
// relief where it is within the budget but not its margin) is estimated
// within the budget, it spills little or nothing: the orders past the
// budget that only relieve are left for it. Tuning bwd_f16_128x128x64_w8
// gfx950 (attention backward, P^T and dS^T in registers): LLVM's order ~385
// estimated, 548 B of scratch, 46965 cycles per iteration; the split ~383,
// 516 B, 65188; the lean order ~250, no scratch, 3711 (docs/modes.md,
// "Session 24: directdot").
static cl::opt<bool> LeanBeforeRelief(
    "amdgpu-pingpong-chained-lean-first", cl::init(true), cl::Hidden,
    cl::desc("8-wave chained dots past the register budget in LLVM's order: "
             "where the register-lean order is estimated within the budget, "
             "the other "
             "chained-dot orders that are past it too are not taken as "
             "relief (default on; docs/modes.md, session 24: directdot)"));

STATISTIC(NumLeanBeforeRelief, "8-wave chained-dot loops whose register-lean "
                               "order was taken before a relieving order");

/// The register-lean order's estimated peak where the loop has one
/// (chainedPPLeanVariant), else 0. Its plan is not kept.
static unsigned leanOrderPeak(const LoopModel &M, PlanContext &Ctx) {
  const unsigned N = layoutVariants(Mode::ChainedPP, M);
  if (!N || !chainedPPLeanVariant(M, N - 1))
    return 0;
  Rejection W;
  std::optional<ClusterLayout> Layout = layoutFor(Mode::ChainedPP, M, W, N - 1);
  return Layout ? layoutPeak(M, *Layout, Ctx) : 0;
}

STATISTIC(NumLeanGemm, "4-wave register-staged GEMMs past the two waves' "
                       "registers given the register-lean single-wave order");

/// Session 25 (regbudget): a 4-wave register-staged GEMM whose LLVM order is
/// estimated past the two waves' registers (Before), where the register-lean
/// single-wave order applies (singleWaveLeanGemmShape, SingleWave.cpp).
/// Session 26 (leangemm): or whose own pingpong order, one-cluster's, is
/// past them (OnePeak, 0 where not known): with the load offsets' advances
/// among its MFMAs the lean order is at least LLVM's where AMDGPU's
/// scheduler lands LLVM's at two waves per SIMD too (docs/modes.md,
/// "Session 26: leangemm"), so what LLVM's order needs no longer decides.
static bool leanGemmCase(const LoopModel &M, unsigned Before, unsigned Budget,
                         unsigned OnePeak) {
  return (Before > Budget || OnePeak > Budget) && singleWaveLeanGemmShape(M);
}

/// With -amdgpu-pingpong-lean-gemm off, what a register-budget refusal adds
/// where the lean order would fit: its estimate and the option. Empty
/// elsewhere.
static std::string leanGemmNote(const LoopModel &M, unsigned Before,
                                unsigned Budget, unsigned OnePeak,
                                PlanContext &Ctx) {
  if (singleWaveLeanGemmRequested() ||
      !leanGemmCase(M, Before, Budget, OnePeak))
    return "";
  Rejection W;
  std::optional<ClusterLayout> Layout = builtinLayout(
      singleWaveLeanGemmLayout(M).c_str(), Mode::SingleWave, M, W);
  const unsigned Peak = Layout ? layoutPeak(M, *Layout, Ctx) : 0;
  if (!Peak || Peak > Budget)
    return "";
  return "; LLVM's order needs about " + std::to_string(Before) +
         " before AMDGPU's scheduler, which lands it at one or two waves per "
         "SIMD (not known here); the register-lean single-wave order fits in "
         "about " + std::to_string(Peak) +
         " (-amdgpu-pingpong-lean-gemm takes it)";
}

std::optional<ModeChoice> chooseMode(const LoopModel &M, const ModeRequest &Req,
                                     PlanContext &Ctx, Rejection &Why) {
  const bool Forced = Req.forced();
  // Mode::Auto stands for the custom layout in this list.
  std::vector<Mode> Modes = Req.Custom ? std::vector<Mode>{Mode::Auto}
                            : Forced   ? std::vector<Mode>{Req.D.M}
                                       : candidateModes(M, Why);
  if (Modes.empty())
    return std::nullopt;

  std::string Tried;
  const unsigned Budget = vectorRegisterBudget(Ctx.MF);
  std::vector<unsigned> Identity(M.Insts.size());
  for (unsigned I = 0; I < Identity.size(); ++I)
    Identity[I] = I;
  const unsigned Before = peakVectorPressure(M, Identity);
  const target::TargetFacts *TF =
      target::factsFor(Ctx.MF.getSubtarget().getCPU());
  const unsigned OneWaveBudget = target::vgprBudget(TF ? *TF : target::Gfx942, 1);
  const hash_code BodyBefore = CheckTrying ? hashBody(*M.Body) : hash_code(0);
  // The register-lean order after the modes that hold no registers back
  // (leanGemmCase: where LLVM's order or one-cluster's is past the budget;
  // -amdgpu-pingpong-lean-gemm, on by default). One-cluster's peak where its
  // order was refused on the budget (OnePeak), known once it was tried.
  const bool LeanShape = !Forced && !Req.Custom &&
                         singleWaveLeanGemmRequested() &&
                         singleWaveLeanGemmShape(M);
  const bool LeanAppended =
      LeanShape && llvm::find(Modes, Mode::SingleWave) == Modes.end();
  if (LeanAppended)
    Modes.push_back(Mode::SingleWave);
  unsigned OnePeak = 0;
  bool LeanGemm = false;
  std::optional<unsigned> WitnessPeak; // registerWitnessPeak(M), once asked
  std::optional<unsigned> LeanPeak;    // leanOrderPeak(M), once asked
  for (Mode Md : Modes)
  for (unsigned Variant = 0; Variant < (Req.Custom ? 1 : layoutVariants(Md, M));
       ++Variant) {
    const std::string Name = Req.Custom ? "custom layout" : modeName(Md);
    if (LeanShape && Md == Mode::SingleWave) {
      // The lean variant only where the registers ask for it; the ordinary
      // single-wave layout only where single-wave was a candidate anyway.
      const bool LeanVariant = singleWaveLeanGemmVariant(M, Variant);
      LeanGemm = LeanVariant && leanGemmCase(M, Before, Budget, OnePeak);
      if (LeanVariant ? !LeanGemm : LeanAppended)
        continue;
    }
    // Chained-dot's register-lean order, a register fallback: where the
    // registers do not bind it is not tried and has nothing to say.
    const bool Lean = !Forced && !Req.Custom && Md == Mode::ChainedPP &&
                      chainedPPLeanVariant(M, Variant);
    if (Lean && !leanOrderWanted(M, Before, Budget, ChainedDotMargin))
      continue;
    Rejection W;
    std::optional<ClusterLayout> Layout =
        Req.Custom ? Req.Custom : layoutFor(Md, M, W, Variant);
    if (Req.Custom && Req.Custom->AsymmetricSync && M.Waves != 8) {
      Layout.reset();
      W.Reason = "the layout's asymmetric sync needs 8 waves per workgroup; "
                 "this kernel has " + std::to_string(M.Waves);
    }
    std::string Fail;
    bool BodyFits = false; // the witness order of the body is within the budget
    // Single-wave's own order is held to the one-wave budget. Attention
    // takes it only where chained-dot's orders (tried first) and LLVM's
    // (the estimate before scheduling) are past the two-wave budget.
    // (Not where the loop is LDS-bound pingpong: two waves per SIMD.)
    const bool OneWave = Md == Mode::SingleWave && !Req.Custom &&
                         M.Waves <= 4 && !singleWaveLDSBound(M);
    // Except its attention order meant to fit two waves per SIMD (two
    // workgroups per CU): held to that budget; past it, the next variant.
    const bool TwoWaveOrder =
        OneWave && singleWaveTwoWaveOrder(M, Variant);
    if (OneWave && !Forced && M.chainedDots() && Before <= Budget)
      Fail = "two waves per SIMD fit its registers (LLVM's order ~" +
             std::to_string(Before) + " of " + std::to_string(Budget) +
             "): single-wave is for attention with one wave per SIMD";
    ModeChoice C;
    C.Work = M;
    C.Drop = M.OldSchedule;
    if (!Fail.empty()) {
      // the attention gate above said no
    } else if (!Layout) {
      Fail = W.Reason;
    } else if (std::string Sums =
                   ldsReductionRefusal(M, *Layout, bool(Req.Custom));
               !Sums.empty()) {
      Fail = Sums; // a GEMM's cross-warp sums through LDS (LDSInLoop.cpp)
    } else if (Layout->AsymmetricSync && !Ctx.NoAsymmetricSync.empty()) {
      Fail = Ctx.NoAsymmetricSync;
    } else if (Layout->BarrierBetweenClusters && !Ctx.L.getLoopPreheader()) {
      // The loop's own barriers go; the wait and barrier before the loop
      // (the prologue's LDS traffic and DMA) need a preheader.
      Fail = "the layout's barriers need a loop with a preheader (the wait "
             "and s_barrier before the loop go there)";
    } else {
      if (Layout->BarrierBetweenClusters)
        dropSync(C);
      DepGraph G = buildDepGraph(C.Work, Ctx.MLI, Ctx.AA);
      std::optional<ClusterPlan> Plan = planClusters(C.Work, G, *Layout, W);
      if (!Plan) {
        Fail = W.Reason;
        if (std::string Skew = ldsInLoopSkewRefusal(M, *Layout, W);
            !Skew.empty())
          Fail = Skew;
      } else {
        C.Plan = std::move(*Plan);
        C.Peak = peakVectorPressure(C.Work, C.Plan.Order);
        // Over the budget is still better than LLVM's own order when that
        // one is further over: fewer spills (Triton's IR at 256x256 with
        // 32x32 MFMAs, fp8, three stages). That holds where the workgroup
        // itself puts two waves on each SIMD (8 waves): past the budget they
        // spill. A 4-wave workgroup past it does not spill but runs alone on
        // its SIMDs, with no partner wave to take turns with: pingpong only
        // costs there (the model: attention 128x64x128 on gfx942 at 279
        // VGPRs, 0.92x of llc-22's order at the same one wave per SIMD).
        const bool SpillsPastBudget = C.Work.Waves >= 8;
        bool Relieves = SpillsPastBudget && Before > Budget && C.Peak < Before;
        // The estimate is within 1-7 registers of the allocation on the
        // corpus GEMMs, but under it by 12-39 on the 8-wave chained-dot
        // loops (highest VGPR the allocated loop touches against the
        // estimate: attn ns2 gfx942 222/207, ns2 DMA 156/144, ns4 200/161,
        // 200/169, 224/204): at ~236 of 256, attn_f16_256x64x128_w8_ns4
        // spilled 124 VGPRs (7809 cycles/iter against 3320 for LLVM's
        // order, docs/modes.md). Those keep a margin.
        const unsigned Margin =
            Md == Mode::ChainedPP && C.Work.Waves == 8 ? ChainedDotMargin : 0;
        // "LLVM's own order" above is the body before AMDGPU's scheduler,
        // which orders for registers where a region is past its occupancy
        // target. Where four-cluster's clusters have an order within the
        // budget, the body has one, and LLVM's order is not known to spill:
        // no relief (heldout8 mm_at 256x256 gfx950: ~359 before, four-cluster
        // ~279 spilled 88 bytes and ran 5x slower; llc-22 allocates 238).
        if (Relieves && C.Peak + Margin > Budget) {
          if (!WitnessPeak)
            WitnessPeak = registerWitnessPeak(M, Ctx);
          if (*WitnessPeak && *WitnessPeak <= Budget) {
            Relieves = false;
            BodyFits = true;
          }
        }
        // The register-lean order fits where this one only relieves: leave
        // it for the lean order (LeanBeforeRelief above).
        unsigned LeanFits = 0;
        if (Relieves && C.Peak + Margin > Budget && LeanBeforeRelief &&
            Md == Mode::ChainedPP && !Lean && !Forced && !Req.Custom) {
          if (!LeanPeak)
            LeanPeak = leanOrderPeak(M, Ctx);
          if (*LeanPeak && *LeanPeak <= Budget && *LeanPeak < C.Peak) {
            Relieves = false;
            LeanFits = *LeanPeak;
            ++NumLeanBeforeRelief;
          }
        }
        const unsigned ModeBudget =
            OneWave && !TwoWaveOrder ? OneWaveBudget : Budget;
        if (TwoWaveOrder && C.Peak > ModeBudget && !Forced)
          Fail = "register budget: the " + Name + " order for two waves per "
                 "SIMD needs about " + std::to_string(C.Peak) +
                 " vector registers, more than the " +
                 std::to_string(ModeBudget) + " two waves per SIMD allow";
        else if (OneWave && C.Peak > ModeBudget && !Forced)
          Fail = "register budget: the " + Name + " order needs about " +
                 std::to_string(C.Peak) + " vector registers, more than the " +
                 std::to_string(ModeBudget) + " of one wave per SIMD";
        else if (!OneWave && C.Peak + Margin > Budget && !Forced && !Relieves)
          Fail = "register budget: the " + Name + " order needs about " +
                 std::to_string(C.Peak) + " vector registers" +
                 (Margin ? " (+" + std::to_string(Margin) +
                               " margin for the estimate's error on "
                               "chained dots)"
                         : std::string()) +
                 ", more than the " +
                 std::to_string(Budget) + " two waves per SIMD allow (" +
                 (SpillsPastBudget ? std::string("it would spill")
                                   : "one wave per SIMD: no partner wave to "
                                     "take turns with") +
                 ")" +
                 (BodyFits
                      ? "; the loop fits in about " +
                            std::to_string(*WitnessPeak) +
                            " in another order (four-cluster's, its global "
                            "loads after the last reads), so LLVM's "
                            "scheduler is not known to spill"
                      : std::string()) +
                 (LeanFits ? "; the register-lean order fits in about " +
                                 std::to_string(LeanFits)
                           : std::string()) +
                 (Md == Mode::OnePP && !Forced
                      ? leanGemmNote(M, Before, Budget, C.Peak, Ctx)
                      : std::string());
        if (Md == Mode::OnePP && !Forced && !Req.Custom && !Fail.empty())
          OnePeak = std::max(OnePeak, C.Peak);
      }
    }
    if (CheckTrying && hashBody(*M.Body) != BodyBefore)
      report_fatal_error("amdgpu-pingpong: trying " + Twine(Name) +
                         " changed the loop body's MIR");
    // The register-lean order is judged by the registers alone (its gain
    // at 4 waves is the second workgroup per SIMD LLVM's order has no room
    // for, not AMDGPU's scheduler's verdict).
    if (Fail.empty() && Lean)
      Fail = leanOrderPastMargin(M, C.Peak, Budget, ChainedDotMargin);
    // Session 26 (onewaveattn): the two-wave order's eight-part form where
    // LLVM's order runs at one wave per SIMD (SingleWave.cpp).
    std::string NoVerdict;
    if (Fail.empty() && !Forced && !Req.Custom && Md == Mode::SingleWave)
      NoVerdict = singleWaveEightPartsNoVerdict(M, Variant, Before, Budget);
    if (!NoVerdict.empty())
      C.Plan.Layout.Note +=
          (C.Plan.Layout.Note.empty() ? "" : "; ") + NoVerdict;
    if (Fail.empty() && !Forced && !Req.Custom && NoHarmGuard &&
        NoVerdict.empty()) {
      Fail = noGainOverLLVM(C.Work, Md, OneWave, OneWave && !TwoWaveOrder,
                            C.Plan.Layout.OperandWaits, Name);
      if (Fail.empty() && !Lean)
        Fail = fourWaveGainUnjudged(C.Work, Md, Before, Budget);
      NumKeptLLVMOrder += !Fail.empty();
    }
    if (!Fail.empty()) {
      // A mode's fallback layout that fails for the same reason says nothing new.
      std::string Entry = Name + (Variant ? " (fallback layout)" : "") + ": ";
      if (!Variant || Tried.find(Name + ": " + Fail) == std::string::npos)
        Tried += std::string(Tried.empty() ? "" : "; ") + Entry + Fail;
      continue;
    }
    if (!Forced && !Req.Custom && Md == Mode::OnePP && M.Waves == 8)
      if (std::string Why8 = loadsPastTwoClusterWindow(C.Work); !Why8.empty()) {
        C.Plan.Layout.Note += (C.Plan.Layout.Note.empty() ? "" : "; ") + Why8;
        ++NumOneForLoadWindow;
      }
    // Past the port rule but not LDS-bound for single-wave (one-cluster's
    // layout says so itself): why two-cluster, not single-wave. Judged on
    // the loop as candidateModes judged it, its own sync included.
    if (!Forced && !Req.Custom && Md == Mode::TwoPP && portPastDot(M))
      if (std::string WhyNot = notLDSBound(M); !WhyNot.empty())
        C.Plan.Layout.Note +=
            (C.Plan.Layout.Note.empty() ? "" : "; ") + WhyNot;
    if (!Forced && !Req.Custom && NoHarmGuard && !FourWaveAttention &&
        Md == Mode::ChainedPP)
      if (std::string NoRoom = fourWaveNoRoom(C.Work, Before, Budget);
          !NoRoom.empty()) {
        C.Plan.Layout.Note +=
            (C.Plan.Layout.Note.empty() ? "" : "; ") + NoRoom;
        ++NumFourWaveNoRoom;
      }
    if (LeanGemm && Md == Mode::SingleWave) {
      C.Plan.Layout.Note +=
          std::string(C.Plan.Layout.Note.empty() ? "" : "; ") +
          (Before > Budget
               ? "LLVM's order needs about " + std::to_string(Before) +
                     " vector registers before AMDGPU's scheduler"
               : "one-cluster's order needs about " +
                     std::to_string(OnePeak) + " vector registers") +
          ", past the " + std::to_string(Budget) + " of two waves per SIMD";
      ++NumLeanGemm;
    }
    C.Name = Name;
    C.Before = Before;
    C.Budget = OneWave && !TwoWaveOrder ? OneWaveBudget : Budget;
    C.Forced = Forced;
    return std::optional<ModeChoice>(std::move(C));
  }
  Why.Reason = Tried;
  Why.At = nullptr;
  return std::nullopt;
}

} // namespace pingpong
