//===- ChainedPP.cpp - chained dots: attention's QK^T, softmax, PV --------===//
//
// Triton's chained-dot schedule (seed 001), at machine level. Two dot groups
// per iteration (group 0 = Q K^T, group 1 = P V, the softmax between them as
// inter-dot VALU); the memory clusters run at priority 1 and the dot clusters
// at 0: both kinds of cluster carry VALU work here (the softmax goes with the
// dots), so a dot at high priority would take the VALU issue slots from the
// other wave's address arithmetic, while the MFMAs, on their own pipe, lose
// nothing to a memory cluster. Each memory cluster ends with the LDS drained
// (no s_waitcnt lands inside a dot cluster); SALU work (loop counter,
// pointers) stays in the last memory cluster.
// That is the 8-wave order. At 4 waves (two workgroups per SIMD, no barrier
// to pace them) the model prefers the one-cluster gate (docs/modes.md).
// Triton's four-stage loops compute P V one iteration behind Q K^T (group 1
// FedLate): the two dots are independent there and get a layout of their own.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"
#include "pingpong/Analysis/LDSObjects.h"
#include "pingpong/Analysis/Throughput.h"
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/Sync/SyncRules.h"
#include "pingpong/Target/InstrNames.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "amdgpu-pingpong"

STATISTIC(NumDMAGatedSoftmax, "8-wave LDS-DMA attention loops given the "
                              "softmax at the head of P V's gated cluster");

STATISTIC(NumDMAReadSpread, "8-wave LDS-DMA attention loops given V's reads "
                            "spread through the softmax (LDS request queue)");

static llvm::cl::opt<bool> DMAGatedSoftmax(
    "amdgpu-pingpong-dma-gated-softmax", llvm::cl::init(false),
    llvm::cl::Hidden,
    llvm::cl::desc("8-wave chained dots with LDS DMA: the softmax at the "
                   "head of P V's gated cluster where Q K^T's MFMA pipe "
                   "clocks are at least P V's, instead of V's reads spread "
                   "through the softmax (docs/modes.md, session 22)"));

static llvm::cl::opt<bool> DMAReadSpread(
    "amdgpu-pingpong-dma-read-spread", llvm::cl::init(true), llvm::cl::Hidden,
    llvm::cl::desc("8-wave chained dots with LDS DMA: V's reads spread "
                   "through the softmax where they outnumber the SIMD pair's "
                   "LDS request queue (docs/modes.md, session 22)"));
using namespace llvm;

STATISTIC(NumPortGateByWaveTurns,
          "port-bound 8-wave attention gated by a wave's issue turns alone");

STATISTIC(NumSoftmaxWithReads,
          "8-wave register-staged attention gated with the softmax beside "
          "V's reads (slow LDS reads)");

static cl::opt<bool> SoftmaxWithReads(
    "amdgpu-pingpong-chained-softmax-with-reads", cl::init(true), cl::Hidden,
    cl::desc("8-wave register-staged attention under the gate, on targets "
             "whose SIMD pair reads LDS at under 128 B/clk (gfx942): the "
             "softmax in one memory cluster with V's reads, P V's dot "
             "ungated of them, the LDS writes after P V (docs/modes.md, "
             "session 24: attnfloor; default on; AMDGPUPingpong plugin)"));

STATISTIC(NumCoverReductions,
          "8-wave attention layouts whose softmax cluster covers its "
          "reductions' latency (slow LDS reads)");

static cl::opt<bool> CoverReductions(
    "amdgpu-pingpong-chained-cover-reductions", cl::init(true), cl::Hidden,
    cl::desc("8-wave attention on targets whose SIMD pair reads LDS at under "
             "128 B/clk (gfx942): the memory cluster of the softmax and V's "
             "reads in the plan's latency order (interleave "
             "cover-reductions) instead of one read per three VALU "
             "(docs/modes.md, session 25: attnfloor2; default on; "
             "AMDGPUPingpong plugin)"));

static cl::opt<bool> PortGateWaveWork(
    "amdgpu-pingpong-port-gate-wave-work", cl::init(true), cl::Hidden,
    cl::desc("8-wave register-staged attention bound by the LDS port: take "
             "the gate also where one wave's issue turns besides its MFMAs "
             "outlast its own MFMAs, not only "
             "where the SIMD's VALU issue outlasts its MFMA pipe (default on; "
             "AMDGPUPingpong plugin)"));

namespace pingpong {

/// The LDS exchanges of an iteration (DotGroups: dot results written to LDS
/// and read back by other waves) as a chain of dependent steps
/// (InstInfo::ExchangeStep). Intervals: what the steps need under the
/// asymmetric skew, two barrier intervals per dependence, the wrap to the
/// next iteration's first conflicting access included.
struct ExchangeSteps {
  unsigned Steps = 0;
  unsigned Intervals = 0;
};
static ExchangeSteps exchangeSteps(const LoopModel &M) {
  struct Access {
    sync::LDSRegion R;
    bool Write;
    unsigned Step;
  };
  std::vector<Access> Xs;
  ExchangeSteps X;
  for (const InstInfo &II : M.Insts)
    if (II.ExchangeStep) {
      Xs.push_back({ldsRegionOf(*II.MI), II.R == Role::ExchangeWrite,
                    II.ExchangeStep});
      X.Steps = std::max(X.Steps, II.ExchangeStep);
    }
  if (!X.Steps)
    return X;
  X.Intervals = 2 * (X.Steps - 1) + 1;
  // B of the next iteration after A of this one: 2 * (steps between) + 2.
  for (const Access &A : Xs)
    for (const Access &B : Xs)
      if (A.Step >= B.Step && A.Write != B.Write &&
          sync::overlap(A.R, B.R).O != sync::Overlap::Disjoint)
        X.Intervals = std::max(X.Intervals, 2 * (A.Step - B.Step + 1));
  return X;
}

/// The interleave that spreads the second dot's operand reads through the
/// softmax, one read after every three VALU (session 9, gfx942's slower
/// LDS port; session 22, gfx950's LDS request queue with LDS DMA).
static const char *SoftmaxReadSpread = "valu 3, ds-read 1";

// Session 25 (attnfloor2): the softmax's cross-lane reductions (the row
// maximum's and the row sum's ds_bpermute/ds_swizzle) are LDS ops: their
// results come back in issue order behind every LDS read the wave issued
// before them, and nothing of the softmax after a reduction can issue until
// it returns (~70 clocks each, four in a row on the corpus kernels). The
// spread above issues V's reads at a fixed rate, ahead of the reductions as
// well as after them, and leaves each reduction's wait idle. The plan's
// `cover-reductions` order (Interleave.cpp) issues V's reads in the turns a
// reduction leaves idle and, where the port would not otherwise drain them
// by the end of the softmax, one per turn the port frees: the SIMD pair's
// port and the in-order return as the model has them. Only where V's reads
// go straight into P V's MFMAs: where VALU packs them (fp8 V, operand-prep)
// the cluster's order is that VALU's, which the plan does not time (tuning
// afp8_fp8_128x128x64_w8 gfx942 4463 -> 4695 with it). gfx950 (128 B/clk,
// and its LDS request queue) keeps the spread: the LDS-DMA gate loops lose
// with it (corpus attn_f16_128x64x128_w8_ns2_gfx950_async 1956 -> 1988).
// Model, cycles per iteration (docs/modes.md, "Session 25: attnfloor2").
static bool coverSoftmaxReductions(const LoopModel &M) {
  const target::TargetFacts *T =
      target::factsFor(M.Body->getParent()->getSubtarget().getCPU());
  if (!CoverReductions || M.Waves != 8 || !T ||
      T->LDSReadBytesPerClkPerSIMDPair >= 128 || M.Groups.size() != 2)
    return false;
  const MachineFunction &MF = *M.Body->getParent();
  const MachineRegisterInfo &MRI = MF.getRegInfo();
  const OpcodeTable &Ops = OpcodeTable::get(*MF.getSubtarget().getInstrInfo());
  // A value of V's reads that reaches an instruction other than an MFMA
  // (through COPY / REG_SEQUENCE, which are no instructions yet, and the
  // read that fills a register's other half).
  auto Packed = [&](const MachineInstr &Read) {
    SmallVector<Register, 8> Work;
    for (const MachineOperand &MO : Read.defs())
      if (MO.isReg() && MO.getReg().isVirtual())
        Work.push_back(MO.getReg());
    for (unsigned Seen = 0; !Work.empty() && Seen < 64; ++Seen) {
      Register R = Work.pop_back_val();
      for (const MachineInstr &U : MRI.use_nodbg_instructions(R)) {
        // A d16_hi read fills the other half of its register (gfx942's
        // 16-bit V reads): the pair goes to the MFMA.
        if (U.isCopy() || U.isRegSequence() || U.isInsertSubreg() ||
            U.isSubregToReg() || Ops.classify(U) == InstKind::LDSRead) {
          for (const MachineOperand &MO : U.defs())
            if (MO.isReg() && MO.getReg().isVirtual())
              Work.push_back(MO.getReg());
          continue;
        }
        if (U.isPHI() || U.getParent() != M.Body)
          continue;
        if (Ops.classify(U) != InstKind::MFMA)
          return true;
      }
    }
    return false;
  };
  bool Reductions = false;
  for (const InstInfo &I : M.Insts) {
    if (I.R == Role::LocalRead && I.Group == 1 && Packed(*I.MI))
      return false;
    Reductions |= I.R == Role::InterDot && I.Kind == InstKind::LDSOther;
  }
  LLVM_DEBUG(dbgs() << "amdgpu-pingpong: chained-dot: softmax reductions "
                    << (Reductions ? "covered" : "none") << "\n");
  return Reductions;
}

/// The order of the memory cluster that holds the softmax and V's reads on
/// a target of slow LDS reads: the latency order where it applies, else the
/// spread.
static std::string softmaxReadOrder(const LoopModel &M) {
  if (!coverSoftmaxReductions(M))
    return SoftmaxReadSpread;
  ++NumCoverReductions;
  return "cover-reductions";
}

// 4 waves: the two waves of a SIMD come from two workgroups, so no barrier
// can pair them: the one-cluster gate paces them (OnePP.cpp), and in the
// model it beats raising the memory clusters here (docs/modes.md). The LDS
// writes go with P V, one after every four MFMAs.
static const char *ChainedPP4Layouts[] = {
    "pingpong-layout v1; sync delay-global-data gate; "
    "mem mem0: local-read@0, global-load; "
    "dot dot0: dot@0; "
    "mem mem1: local-read@1, inter-dot; "
    "dot dot1: dot@1, local-write; "
    "interleave dot1: mfma 4, ds-write 1",
    // The fallback when the first does not fit the registers: the softmax
    // first, P V's operand reads after it, the LDS writes in a memory
    // cluster of their own.
    "pingpong-layout v1; sync delay-global-data gate; "
    "mem mem0: local-read@0, global-load; "
    "dot dot0: dot@0; "
    "mem mem1: inter-dot; mem+ mem1.lds: local-read@1; "
    "dot dot1: dot@1; "
    "mem store: local-write"};

// 8 waves: s_barrier between clusters and the asymmetric sync (waves 4-7 one
// cluster behind), the memory clusters raised, the softmax with Q K^T. The
// LDS writes must sit two barrier intervals from every read of their buffer
// (the other wave group runs the neighbouring cluster). Variant 0 reads V
// with the softmax, after Q K^T, so V's registers are not live across it,
// and splits P V in two halves with the writes between them: K's reads
// (mem0) and V's (mem1) are both two intervals from the writes (mem2), which
// the per-buffer check in planClusters allows where K's and V's tiles are
// proven apart. Inside the memory clusters (interleave clauses): K's reads
// first in mem0, so the LDS port starts at once; the LDS writes of mem2 one
// per VALU (their data packing); where the LDS port reads 64 B/clk per SIMD
// pair (gfx942), V's reads spread through the softmax in mem1, one per three
// VALU: LDS ops complete in order per wave, and a burst of V's reads queued
// ahead of the softmax's cross-lane reductions (ds_bpermute/ds_swizzle)
// makes them wait (at 128 B/clk the spread costs more than it saves). Model
// (docs/modes.md), cycles per iteration: attn_f16_128x64x128_w8_ns2_gfx942
// 3930 -> 3715 (Triton 3898, llc-22 3926), HIP attention.hip gfx942 3759 ->
// 3607, gfx950 3394 -> 3307 (before: Q K^T's MFMAs pinned in order).
// Since session 25 the plan's cover-reductions order instead where
// coverSoftmaxReductions holds (attn 3695 -> 3260). The
// other layout: every read in the first memory cluster, the writes in the
// second; the fallback for buffers not proven apart. Since session 17 it
// goes before the split where the loop is issue-bound (since session 19
// after the softmax's own orders below, as their register fallback): V's reads under Q K^T rather than in the softmax's interval,
// the one that binds (model, cycles per iteration, split -> this: mha bf16
// 128x64x128 gfx950 3664 -> 3545, tut f16 256x64x64 gfx942 4355 -> 4276,
// gqa bf16 128x64x64 gfx950 2041 -> 1765). Not where the pipe or port
// binds: HIP attention.hip gfx942 3687 -> 4757, gfx950 3307 -> 4104
// (docs/modes.md, session 17).
static std::string chainedPP8Split(const LoopModel &M) {
  const DotGroup &PV = M.Groups[1];
  unsigned First = PV.FirstDotOrder, Half = PV.NumDots / 2;
  const target::TargetFacts *T =
      target::factsFor(M.Body->getParent()->getSubtarget().getCPU());
  const bool SlowLDSReads = T && T->LDSReadBytesPerClkPerSIMDPair < 128;
  unsigned KReads = 0;
  for (const InstInfo &I : M.Insts)
    KReads += I.R == Role::LocalRead && I.Group == 0;
  // Slices of size one dot: a slice index is a dot's position in the order.
  std::string S = "/" + std::to_string(M.NumDots) + "]";
  return "pingpong-layout v1; sync barrier asymmetric delay-global-data "
         "mem-priority; "
         "mem mem0: local-read@0, global-load; "
         "dot dot0: dot@0; "
         "mem mem1: inter-dot, local-read@1; "
         "dot dot1: dot@1[" + std::to_string(First) + "-" +
         std::to_string(First + Half - 1) + S + "; "
         "mem mem2: local-write; "
         "dot dot1.tail: dot@1[" + std::to_string(First + Half) + "-" +
         std::to_string(M.NumDots - 1) + S + "; "
         "interleave mem0: ds-read " + std::to_string(std::max(1u, KReads)) +
         ", valu 1; " +
         (SlowLDSReads ? "interleave mem1: " + softmaxReadOrder(M) +
                             "; "
                       : std::string()) +
         "interleave mem2: ds-write 1, valu 1";
}
/// The loops of the 8-wave LDS-DMA layout below: two chained dot groups,
/// P V fed in the same iteration, no LDS exchange.
static bool dmaAttention(const LoopModel &M) {
  return M.Waves == 8 && M.NumAsyncCopies && !M.NumExchangeWrites &&
         M.Groups.size() == 2 && !M.Groups[1].FedLate;
}

/// 8-wave LDS-DMA attention (dmaAttention): more of P V's operand reads (V's
/// tile, mem1) than the SIMD pair's LDS request queue holds
/// (TargetFacts::LDSQueueDepthPerSIMDPair; 0: no queue modelled). Returns
/// the count of those reads where it is past the queue, else 0.
static unsigned dmaReadsPastQueue(const LoopModel &M) {
  if (!DMAReadSpread || !dmaAttention(M))
    return 0;
  const target::TargetFacts *T =
      target::factsFor(M.Body->getParent()->getSubtarget().getCPU());
  if (!T || !T->LDSQueueDepthPerSIMDPair)
    return 0;
  unsigned VReads = 0;
  for (const InstInfo &I : M.Insts)
    VReads += I.R == Role::LocalRead && I.Group == 1;
  LLVM_DEBUG(llvm::dbgs() << "amdgpu-pingpong: chained-dot LDS DMA: " << VReads
                          << " reads of P V's operands against an LDS queue of "
                          << T->LDSQueueDepthPerSIMDPair << "\n");
  return VReads > T->LDSQueueDepthPerSIMDPair ? VReads : 0;
}

// 8 waves, operands through LDS DMA (seed 001's two dot chains with two
// stages, which Triton's pass leaves alone): no ds_write to keep apart from
// the reads, so four clusters: K's reads, Q K^T with every DMA issued among
// its MFMAs, the softmax with V's reads, P V. The DMA's waits are the async
// rules' (planClusters checks dmaAfterLastRead / dmaDeadline). Measured in
// the model on attn_f16_128x64x128_w8_ns2_gfx950_async: the DMA in dot0
// beats it in mem0 with K's reads, in mem1, split by operand, and in dot1
// (docs/modes.md). Paced by the gate (the SIMD's two waves, i and i+4, take
// turns at the dots; the loop's own barriers stay) instead of a barrier
// between clusters under the asymmetric skew: the softmax interval (~730
// clocks on the held-out fp8 loop) no longer waits at a barrier for dots of
// 108 and 308; with `latency` (the registers, ~140-156, leave one workgroup
// per CU in every order), session 15: fp8 2022 -> 1832 (llc-22 1882),
// attn 2094 -> 2068, tuning bf16 causal 2382 -> 2316, f16 window 2666 -> 2648.
// Session 22: where V's reads outnumber the SIMD pair's LDS request queue
// (TargetFacts::LDSQueueDepthPerSIMDPair: 8 on gfx950, the only target with
// LDS DMA here), mem1's reads no longer go as one burst ahead of the
// softmax but one after every three of its VALU: a burst fills the queue,
// the wave's next instruction waits behind the stalled read, and the
// softmax's VALU with it (AMD's advice for such bursts: non-LDS work between
// them). Model, cycles per iteration, LDS queue off (the model's default) /
// on (`PPSIM_PARAMS=LdsQueueDepth=8`): corpus attn_f16_128x64x128_w8_ns2
// 2068 / 2068 -> 1956 / 2048, tuning bf16 causal 2316 / 2612 -> 2288 /
// 2444, f16 window ns3 2648 / 2896 -> 2556 / 2724, and the session's tuning
// twins bf16 hd64 ns3 1870 / 1808 -> 1802 / 1726, f16 hd128 ns2 2120 / 2172
// -> 2016 / 2112, fp8 hd128 ns2 1840 / 1912 -> 1768 / 1742, fp8 hd64 ns3
// 1960 / 1976 -> 1952 / 1952 (docs/modes.md).
static std::string chainedPP8Async(const LoopModel &M) {
  std::string L =
      "pingpong-layout v1; sync delay-global-data gate dot-waits latency; "
      "mem mem0: local-read@0; "
      "dot dot0: dot@0, async-copy; "
      "mem mem1: inter-dot, local-read@1; "
      "dot dot1: dot@1";
  if (dmaReadsPastQueue(M))
    L += "; interleave mem1: " + std::string(SoftmaxReadSpread);
  return L;
}
// 8 waves, LDS DMA, session 22, off by default
// (-amdgpu-pingpong-dma-gated-softmax; the read spread above measured better
// with the LDS queue modelled): the same gate with the softmax at the head
// of P V's cluster (the register-staged loops' gated-softmax order): V's reads
// alone between the dots, then the softmax at s_setprio 1 ahead of P V's
// MFMAs. Under the gate the SIMD's two waves take turns at the dots, and the
// leading wave's softmax runs beside the partner's Q K^T (MFMAs at priority 2,
// the softmax's VALU in the turns they leave), the partner's softmax beside
// the leading wave's P V. Model, cycles per iteration (the layout above ->
// this, docs/modes.md): attn_f16_128x64x128_w8_ns2 2068 -> 1968, tuning bf16
// causal 2316 -> 2252, f16 window ns3 2648 -> 2468, bf16 hd64 ns3 1870 ->
// 1806, f16 hd128 ns2 2120 -> 2040, fp8 hd64 ns3 1960 -> 1876. Not where Q
// K^T's pipe clocks are under P V's (fp8 Q K^T at K 128 beside a 16-bit
// P V: 128 against 256 clocks a wave): the leading wave's softmax, ~450
// issue clocks, then has half the partner's MFMAs beside it and the two
// softmaxes meet at priority 1 (held-out fp8 hd128 ns3 1832 -> 1876, its
// ns2 twin 1840 -> 1824). With the LDS queue modelled it loses on two loops
// of its own rule (attn 2068 -> 2128, f16 hd128 ns2 2172 -> 2220), where the
// read spread gains on all seven.
static const char *ChainedPP8AsyncGatedSoftmaxLayout =
    "pingpong-layout v1; sync delay-global-data gate dot-waits latency; "
    "mem mem0: local-read@0; "
    "dot dot0: dot@0, async-copy; "
    "mem mem1: local-read@1; "
    "dot dot1: inter-dot, dot@1";

/// 8-wave LDS-DMA attention (dmaAttention), the VALU issue turns binding
/// (Throughput.h): the softmax at the head of P V's gated cluster where Q
/// K^T's MFMA pipe clocks are at least P V's.
static bool dmaSoftmaxAtPV(const LoopModel &M) {
  if (!DMAGatedSoftmax || !dmaAttention(M))
    return false;
  if (!issueBound(M, 2).issueBound())
    return false;
  const std::vector<uint64_t> C = groupMFMAClocks(M);
  LLVM_DEBUG(if (C.size() == 2) llvm::dbgs()
             << "amdgpu-pingpong: chained-dot LDS DMA: Q K^T " << C[0]
             << " and P V " << C[1] << " MFMA clocks a wave\n");
  return C.size() == 2 && C[0] >= C[1];
}

// 8 waves, LDS DMA, the second group's inputs through LDS in two steps
// (P, and alpha once RelocateExchange has moved its scratch out of P's
// buffer): K's reads; Q K^T with every DMA, and by dependences the part of
// the softmax that P needs; the exchange writes with V's reads (a dot
// cluster: its partner interval is the other group's Q K^T); an interval for
// the exchange's spacing (its writes and reads two barriers apart), where
// the rest of the softmax lands; the exchange reads, the rescale of O and
// P V. Model, attn_f16_128x64x128_w8_ns2_mi32_gfx950_async (docs/modes.md):
// 3324 cycles per iteration (Triton 3862, llc-22 4111); the writes in a
// memory cluster 3524, the softmax in a cluster of its own 3568.
// Session 19: the softmax in an interval of its own between Q K^T and the
// exchange writes (`sm`, placed there by dependences) instead of behind Q
// K^T's MFMAs in dot0, which made dot0 the longest cluster of two
// intervals (1072 clocks a wave): 3348 -> 3218 (with V's reads in it too
// 3214; dots at priority 2 3218; mem-priority 3610).
static const char *ChainedPP8ExchangeLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
    "mem mem0: local-read@0; "
    "dot dot0: dot@0, async-copy; "
    "mem sm: ; "
    "dot xchg: exchange-write, local-read@1; "
    "mem mem1: ; "
    "dot dot1: exchange-read, acc-prep, dot@1";
// 8 waves, register-staged operands, the second group's inputs through LDS
// in four steps (Triton's 32x32-MFMA attention on gfx942: alpha's scratch
// inside P's buffer, so write alpha, read alpha, write P over it, read P).
// Under the skew the steps need 8 intervals; in lockstep (barriers, no skew)
// one each, as in LLVM's order, which this one reorders: Q K^T with K's
// reads, the global loads and the row maximum that alpha needs, alpha's
// write; alpha's read with V's reads and, by dependences, the rest of the
// softmax (P's exp and row sum: VALU that V's reads, one per three VALU on
// gfx942's slower LDS port, run under; since session 25 in the
// cover-reductions order where coverSoftmaxReductions holds: 5608 -> 5530); P's writes with the rescale of O by
// alpha (one VALU per write); P's reads, P V and the LDS writes of the next
// tiles. In LLVM's order V's reads ran in an interval of their own, after
// the whole softmax, and the rescale with P V. Model,
// attn_f16_128x64x128_w8_ns2_mi32_gfx942 (docs/modes.md): 5608 cycles per
// iteration (Triton 5874, llc-22 6118); the rescale with P V 5702, without
// the x1 clause 5830, the global loads with V's reads 6148.
static std::string chainedPP8LockstepExchange(const LoopModel &M) {
  const target::TargetFacts *T =
      target::factsFor(M.Body->getParent()->getSubtarget().getCPU());
  const bool SlowLDSReads = T && T->LDSReadBytesPerClkPerSIMDPair < 128;
  return std::string(
             "pingpong-layout v1; sync barrier delay-global-data "
             "mem-priority; "
             "dot dot0: local-read@0, dot@0, global-load, exchange-write#1; "
             "mem x1: exchange-read#2, local-read@1; "
             "mem x2: exchange-write#3, acc-prep; "
             "dot dot1: exchange-read#4, dot@1, local-write; "
             "interleave x2: ds-write 1, valu 1") +
         (SlowLDSReads ? "; interleave x1: " + softmaxReadOrder(M)
                       : std::string());
}
// 8 waves, LDS DMA, P V fed by Q K^T of the previous iteration (Triton's
// four-stage pipeline: P and alpha cross the back edge in registers, K's
// tile is read one iteration ahead into registers). Triton-pp's order: Q K^T
// alone; K's DMA and V's reads; P V (old) with the softmax of Q K^T (new)
// among its MFMAs, five VALU after each (these loops are VALU-bound: 92-164
// softmax VALU for 32 MFMAs, so the VALU rides in the MFMAs' shadow); V's
// DMA and K's prefetch reads. V's DMA refills the buffer V's reads used in
// this iteration (two rotating buffers, two stages ahead: Stages.cpp counts
// them), so it must follow them by two barriers; planClusters checks it.
// Tried in the model (cycles per iteration, attn_f16_256x32x128_w8_ns4 /
// attn_f16_256x64x64_w8_ns4; llc-22 2264 / 2675): this 2122 / 2538; three
// VALU per MFMA 2125 / 2550, two 2169 / 2692, eight 2162 / 2574; without
// the interleave 2224 / 2376; without mem-priority 2309 / -; the softmax
// with Q K^T 2425 / -; both dots in one cluster 2251 / 2707; V's reads with
// the softmax between two dot clusters 2312 / 2716 (docs/modes.md).
// The rescale of P V's accumulators by alpha of the previous iteration
// (acc-prep: 32 v_pk_mul_f32 and their packing) rides among Q K^T's MFMAs,
// as in Triton-pp, instead of lengthening mem1: 2122 -> 1958 / 2552 -> 2460
// (rotated 128x128x64 / 128x64x128: 2457 -> 2425 / 1826 -> 1762); one VALU
// group per MFMA in dot0 measured worse (3 per MFMA: 2014 / 2554).
static const char *ChainedPP8LateLayout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data "
    "mem-priority operand-waits; "
    "dot dot0: dot@0, acc-prep@1; "
    "mem mem1: async-copy@0, local-read@1; "
    "dot dot1: dot@1, inter-dot; "
    "mem mem2: async-copy@1, local-read@0; "
    "interleave dot1: mfma 1, valu 5";
static const char *ChainedPP8Layout =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data mem-priority; "
    "mem mem0: local-read, global-load; "
    "dot dot0: dot@0, inter-dot; "
    "mem mem1: local-write; "
    "dot dot1: dot@1";
// 8 waves, register-staged, issue-bound (Throughput.h), session 19: under
// the skew every barrier interval costs the longer of its two clusters, so
// the softmax (a chain of 100-200 VALU behind Q K^T's last MFMA) counts in
// two intervals wherever it sits. Where the VALU outweighs the MFMAs (pipe
// under 0.8 of the issue turns), the gate instead: no barrier between the
// clusters (the loop keeps its own), the SIMD's two waves take turns at the
// dots, and the softmax runs at the head of P V's cluster, its VALU
// between the partner's MFMAs. Model, cycles per iteration (LLVM's order /
// the layout above / this; docs/modes.md, session 19):
// gqa_bf16_128x64x64_w8_ns2_gfx950 2127 / 1765 / 1492,
// mixed_fp8_128x64x128_w8_ns2_pad_gfx950 3588 / 2381 / 2204,
// mha_bf16_128x64x128_w8_ns2_causal_gfx950 3940 / 3545 / 3123,
// bp_bf16_128x64x64_w8_ns2_causal_gfx942 3972 / 3740 / 3340.
static const char *ChainedPP8GatedSoftmaxLayout =
    "pingpong-layout v1; sync delay-global-data gate dot-waits latency; "
    "mem mem0: local-read@0, global-load; "
    "dot dot0: dot@0; "
    "mem mem1: local-read@1; "
    "dot dot1: inter-dot, dot@1, local-write";
// Where the MFMAs nearly fill the issue turns themselves (pipe at 0.8 of
// them or more), the skew, the softmax alone in a memory cluster with the
// LDS writes (two intervals from every read, all in mem0), and the dots
// raised above it (prio 2): the MFMAs, one issue turn each, keep the pipe
// fed while the partner's softmax takes the turns between them; in mem0
// every read before the VALU that packs their data, so the LDS port, which
// binds that interval (both SIMDs of a pair read there at once), starts at
// once. Model, tut_f16_256x64x64_w8_ns2_full_gfx942: LLVM 4648, the layout
// above 4276, the gate 4076, this 3397 (without the clause 3628; the dots
// at the memory clusters' priority 3790, below it 3992).
static std::string chainedPP8SoftmaxAlone(const LoopModel &M) {
  unsigned Reads = 0;
  for (const InstInfo &I : M.Insts)
    Reads += I.R == Role::LocalRead;
  return "pingpong-layout v1; sync barrier asymmetric delay-global-data "
         "mem-priority; "
         "mem mem0: local-read, global-load; "
         "dot dot0 prio=2: dot@0; "
         "mem mem1: inter-dot, local-write; "
         "dot dot1 prio=2: dot@1; "
         "interleave mem0: ds-read " + std::to_string(std::max(1u, Reads)) +
         ", valu " + std::to_string(M.Insts.size());
}

// Session 24 (attnfloor): the gated softmax where the SIMD pair's port
// reads LDS at 64 B/clk (gfx942). The layout above fences V's reads (mem1)
// off from the softmax at the head of P V's cluster: the four waves of a
// pair issue their V reads (31 ds_read_b64 a wave on the head-dim-128 bf16
// loop, ~990 port clocks for the pair) and each wave's first cross-lane
// reduction of the row maximum then returns behind all of its own reads
// (LDS results come back in order): the timeline shows each wave waiting
// ~1000 clocks on lgkmcnt there with nothing else to issue, the MFMA pipe
// idle. Here the softmax and V's reads share one memory cluster, so AMDGPU's
// latency scheduler issues the softmax's VALU while the reads stream; the
// LDS writes leave P V's cluster for a memory cluster after it, so the
// loop's own barrier before them no longer stops a wave after P V's first
// MFMA. On gfx950 (128 B/clk, half the port time) the same order loses
// (tuning mha_f16_128x64x128_w8 2907 -> 3027, gqa_bf16_128x64x64_w8 1492
// -> 1599): the fenced order stays there. Model, cycles per iteration
// (docs/modes.md, "Session 24: attnfloor"): tuning
// mha_bf16_128x64x128_w8_ns2_nomask_gfx942 5356 -> 4795,
// bp_bf16_128x64x64_w8_ns2_causal_gfx942 3340 -> 3186.
static const char *ChainedPP8GatedSoftmaxWithReadsLayout =
    "pingpong-layout v1; sync delay-global-data gate dot-waits latency; "
    "mem mem0: local-read@0, global-load; "
    "dot dot0: dot@0; "
    "mem mem1: inter-dot, local-read@1; "
    "dot dot1: dot@1; "
    "mem mem2: local-write";

/// The target reads LDS at under 128 B/clk per SIMD pair (gfx942).
static bool slowLDSReads(const LoopModel &M) {
  const target::TargetFacts *T =
      target::factsFor(M.Body->getParent()->getSubtarget().getCPU());
  return T && T->LDSReadBytesPerClkPerSIMDPair < 128;
}

/// The gate's premise without the issue bound: the SIMD pair's LDS port
/// binds, but a wave's VALU issue turns (mostly the softmax) still outlast
/// its MFMA pipe. Under the skew the softmax counts in two barrier intervals
/// and the split's memory clusters (V's reads and the softmax) face dots
/// shorter than either; the gate keeps the loop's own barriers and hands the
/// turns between a dot's MFMAs to the partner's softmax. Where the pipe
/// outlasts the VALU the skew's dots cover the softmax and the split stays
/// (session 21, docs/modes.md: bp_bf16_128x32x256_w8 gfx950, port 1280,
/// VALU+MFMA issue 1080, pipe 1024 clocks: LLVM 2138, split 2625, gate 2047;
/// its gfx942 twin, issue 1416 under the pipe's 2048: split 3562, gate 3944).
//
// Session 22: the same holds wave by wave. Under the split's skew each of a
// wave's memory clusters shares a barrier interval with a dot of its SIMD
// partner; where one wave's issue turns besides its MFMAs (one per VALU,
// LDS, SALU and load instruction) outlast that wave's own MFMA clocks, the
// partner's dots cannot cover them and the split's intervals wait on the
// memory clusters (the softmax's twice), while the gate pays for the dots
// once. Turns only (nonMFMAIssueClocks), not the LDS round trips a chain of
// them waits through (memoryIntervalClocks): the softmax's VALU, which needs no LDS result,
// issues while those wait. The VALU-only count misses that line where the
// softmax uses exp2 and sits just under the pipe: tuning
// tut_bf16_128x32x256_w8 gfx950 (VALU+MFMA issue 0.95 of the pipe; a wave's
// turns 1.15 of its MFMAs): split 2529, gate 1963, LLVM 2012; every gfx942
// twin under the issue line has its turns under its MFMAs (0.59-0.87) and the
// split wins there (docs/modes.md, "Session 22").
static bool waveTurnsPastDots(const IssueBound &B) {
  return PortGateWaveWork && B.Known && B.WavesPerSIMD &&
         B.nonMFMAIssueClocks() > B.MFMAClocks / B.WavesPerSIMD;
}
static bool portBoundSoftmaxPastPipe(const IssueBound &B) {
  if (!B.portBound())
    return false;
  if (B.IssueClocks > B.MFMAClocks)
    return true;
  LLVM_DEBUG(dbgs() << "chained-dot port gate: a wave's " << B.NonMFMA
                    << " instructions besides its MFMAs take "
                    << B.nonMFMAIssueClocks()
                    << " issue clocks against its MFMAs' "
                    << B.MFMAClocks / B.WavesPerSIMD << "\n");
  return waveTurnsPastDots(B);
}

/// 8 waves, register-staged operands, no LDS exchange, P V fed in the same
/// iteration: the loops with the softmax's own order first (variant 0):
/// issue-bound, or port-bound with the softmax past the pipe.
static bool issueBoundRegisterStaged(const LoopModel &M) {
  if (M.Waves != 8 || M.NumAsyncCopies || M.NumExchangeWrites ||
      M.Groups.size() != 2 || M.Groups[1].FedLate)
    return false;
  const IssueBound B = issueBound(M, 2);
  return B.issueBound() || portBoundSoftmaxPastPipe(B);
}

// Session 23 (chainreg): the register-lean order. Every other 8-wave
// register-staged layout reads a dot group's whole LDS tile in one memory
// cluster ahead of its dot, so the tile's registers are live together: at
// head dimension 256 K's tile and V's take 128 VGPRs each (64x256 16-bit
// per wave), on top of O (64), Q (32) and the next tiles' staged global
// data (32), and the orders need ~302-410 registers of the 256 two waves
// per SIMD have (tuning mha/bp_bf16_128x64x256_w8 gfx950). LLVM's order
// needs as many and spills (172 and 36 bytes of scratch), while Triton's
// own order of the same loop holds 226 (kernel.amdgcn): it reads each K
// step's operands just before the MFMAs that take them, K's tile among
// Q K^T and V's among P V. This order does that with the layout's own
// words: each dot group in eight slices of its dot order (K step, then
// accumulator), one dot cluster per slice, which issues the next slice's
// reads before its own MFMAs; so at most two slices' reads are live. The
// loop keeps its barriers and the gate paces the SIMD's two waves (a
// barrier between clusters would put MFMAs in neighbouring intervals under
// the skew); the softmax heads P V's first slice, as in the gated softmax
// order. Taken only as the last register fallback, and only where LLVM's
// order is past the budget too (ModeChoice.cpp): it trades the reads'
// latency, waited for inside the dots, for registers, which pays only where
// the alternative spills (docs/modes.md, "Session 23: chainreg").
static cl::opt<bool> RegisterLean(
    "amdgpu-pingpong-chained-lean", cl::init(true), cl::Hidden,
    cl::desc("8-wave register-staged attention whose other chained-dot "
             "orders and LLVM's own are past the register budget: each dot "
             "group in eight slices, each slice's LDS reads issued during "
             "the slice before it (default on; docs/modes.md, session 23)"));

STATISTIC(NumRegisterLean, "8-wave attention loops given the register-lean "
                           "chained-dot order");

/// Slices of each dot group in the register-lean order.
static constexpr unsigned LeanSlices = 8;

/// The loops the register-lean order is for: 8 waves, register-staged
/// operands, two chained groups fed in the same iteration, no LDS exchange.
static bool leanShape(const LoopModel &M) {
  return RegisterLean && (M.Waves == 8 || M.Waves == 4) && !M.NumAsyncCopies &&
         !M.NumExchangeWrites && M.Groups.size() == 2 &&
         M.Groups[1].FedBy == 0 && !M.Groups[1].FedLate &&
         M.Groups[0].FirstDotOrder == 0 &&
         M.Groups[1].FirstDotOrder == M.Groups[0].NumDots &&
         M.Groups[0].NumDots + M.Groups[1].NumDots == M.NumDots;
}

// Session 24 (directdot): the direct loads of the inter-dot work's own rows
// (attention backward's log-sum-exp and delta; InterDotLoads.cpp), which
// Triton's pipeline issues an iteration ahead into the registers the next
// iteration's softmax reads (through header PHIs). Placed by dependences
// they land in the first memory cluster, so a row's registers are live for
// the whole iteration, across both dots, on top of the registers the lean
// order saves. Their last reader is this iteration's softmax (at the head of
// P V's first slice), and the next reader the next softmax: issued with P
// V's last slice they are live only from there to the next iteration's
// softmax. Tuning bwd_f16_128x128x64_w8 gfx950 (16 dwordx4 rows, 64
// registers), the lean order with them by dependences ~310 estimated, 256 B
// of scratch, 24450 cycles per iteration; in P V's fifth slice 28 B, 6507;
// in its last slice ~233 (no scratch) and 3711 (llc-22 46965, 548 B;
// Triton's own 5927); docs/modes.md, "Session 24: directdot".
STATISTIC(NumLeanInterDotLoads, "register-lean chained-dot loops given the "
                                "inter-dot work's row loads with P V's last "
                                "slice");

static bool interDotLoadsAhead(const LoopModel &M) {
  if (!M.NumInterDotLoads || M.NumInterDotLoads != M.NumDirectLoads)
    return false;
  for (const InstInfo &I : M.Insts)
    if (I.R == Role::DirectLoad && (!I.InterDotInput || !I.StagesAhead))
      return false;
  return true;
}

/// The register-lean layout (leanShape): slice I of group G is the dots of
/// DotOrder [First + I * N / S, First + (I + 1) * N / S).
static std::string chainedPP8Lean(const LoopModel &M) {
  auto Slice = [&](unsigned G, unsigned I) {
    const DotGroup &D = M.Groups[G];
    const unsigned S = std::min(LeanSlices, D.NumDots);
    return "[" + std::to_string(D.FirstDotOrder + I * D.NumDots / S) + "-" +
           std::to_string(D.FirstDotOrder + (I + 1) * D.NumDots / S - 1) +
           "/" + std::to_string(M.NumDots) + "]";
  };
  std::string L = "pingpong-layout v1; sync delay-global-data gate dot-waits "
                  "latency; mem mem0: local-read@0" + Slice(0, 0) +
                  ", global-load";
  for (unsigned G = 0; G < 2; ++G) {
    const unsigned S = std::min(LeanSlices, M.Groups[G].NumDots);
    if (G == 1)
      L += "; mem mem1: local-read@1" + Slice(1, 0);
    for (unsigned I = 0; I < S; ++I) {
      L += "; dot " + std::string(G ? "pv" : "qk") + std::to_string(I) + ": ";
      if (G == 1 && I == 0)
        L += "inter-dot, ";
      if (I + 1 < S)
        L += "local-read@" + std::to_string(G) + Slice(G, I + 1) + ", ";
      L += "dot@" + std::to_string(G) + Slice(G, I);
      if (G == 1 && I + 1 == S)
        L += ", local-write";
      if (G == 1 && I + 1 == S && interDotLoadsAhead(M))
        L += ", direct-load";
    }
  }
  return L;
}

// Session 26 (bwd8): the register-lean order for the four exchange steps in
// lockstep. Attention backward where the K/V block has fewer rows than 16 a
// wave (BN 64 at 8 waves: tuning bwd_bf16_128x64x64_w8, bwd_f16_64x64x128_w8
// gfx950) has four dots an iteration, K Q^T and V dO^T (group 0) and
// P^T dO and dS^T Q (group 1), with P^T and dS^T through one LDS buffer:
// write P^T (#1), read it (#2), write dS^T over it (#3), read that (#4).
// The lockstep exchange order reads each group's whole tile in one cluster
// (group 0's 32 ds_read_b128 are 128 VGPRs beside its 64 accumulator
// VGPRs and the rows): ~310 estimated, 92 B of scratch on the bf16 loop.
// Here group 0 runs in four slices of its dot order, each slice's reads
// issued during the slice before it, P^T's writes after the last; group 1
// splits by the exchange step its operands are read from (ExchangeFeed):
// the dots fed by #2 (P^T dO) in a cluster after #2's reads, which also
// writes #3 (the barrier before it drained #2 in every wave) and reads the
// rest's A operand; the dots fed by #4 after #4's reads, with the next
// tiles' LDS writes and the rows' loads for the next iteration. Every
// cluster is one barrier interval (sync barrier, no skew: the steps need one
// interval each). ~220 estimated, no scratch; 11664 -> 4160 cycles per
// iteration on the bf16 loop (Triton's best 6436), 3579 -> 3436 on the f16
// one (docs/modes.md, "Session 26: bwd8"). Slices of group 0 tried on the
// bf16 loop: 2 spill (64 B, 12142), 8 4462; its two dots one after the
// other (K Q^T's K steps, then V dO^T's) 4449.
static cl::opt<bool> LeanExchange(
    "amdgpu-pingpong-chained-lean-exchange", cl::init(true), cl::Hidden,
    cl::desc("8-wave register-staged chained dots whose results cross LDS in "
             "four steps, the second group fed at two of them (attention "
             "backward): the register-lean order in lockstep as their "
             "register fallback (default on; docs/modes.md, session 26)"));

STATISTIC(NumLeanExchange, "8-wave chained-dot loops with four exchange "
                           "steps given the register-lean lockstep order");

/// Slices of group 0 in the register-lean exchange order.
static constexpr unsigned LeanExchangeSlices = 4;

/// The loops the lean exchange order is for: 8 waves, register-staged, two
/// chained groups in the same iteration, four exchange steps (writes at
/// odd steps, reads at even ones), and group 1's dots fed at step 2 and
/// at step 4, both.
static bool leanExchangeShape(const LoopModel &M) {
  if (!RegisterLean || !LeanExchange || M.Waves != 8 || M.NumAsyncCopies ||
      !M.NumExchangeWrites || M.Groups.size() != 2 ||
      M.Groups[1].FedBy != 0 || M.Groups[1].FedLate ||
      M.Groups[0].FirstDotOrder != 0 ||
      M.Groups[1].FirstDotOrder != M.Groups[0].NumDots ||
      M.Groups[0].NumDots + M.Groups[1].NumDots != M.NumDots ||
      M.Groups[0].NumDots < LeanExchangeSlices ||
      exchangeSteps(M).Steps != 4)
    return false;
  bool Fed2 = false, Fed4 = false;
  for (const InstInfo &I : M.Insts) {
    if (I.ExchangeStep &&
        (I.R == Role::ExchangeWrite) != (I.ExchangeStep % 2 == 1))
      return false;
    if (I.R != Role::Dot || I.Group != 1)
      continue;
    if (I.ExchangeFeed == 2)
      Fed2 = true;
    else if (I.ExchangeFeed == 4)
      Fed4 = true;
    else
      return false;
  }
  return Fed2 && Fed4;
}

/// The lean exchange layout (leanExchangeShape).
static std::string chainedPP8LeanExchange(const LoopModel &M) {
  const DotGroup &D0 = M.Groups[0];
  const std::string Of = "/" + std::to_string(M.NumDots) + "]";
  auto Slice = [&](unsigned I) {
    const unsigned S = LeanExchangeSlices;
    return "[" + std::to_string(I * D0.NumDots / S) + "-" +
           std::to_string((I + 1) * D0.NumDots / S - 1) + Of;
  };
  // Group 1's dots fed at Step, as runs of their dot order, each run one
  // selector of Role.
  auto Fed = [&](unsigned Step, const char *What) {
    std::vector<bool> In(M.NumDots, false);
    for (const InstInfo &I : M.Insts)
      if (I.R == Role::Dot && I.Group == 1 && I.ExchangeFeed == Step &&
          I.DotOrder < M.NumDots)
        In[I.DotOrder] = true;
    std::string Sel;
    for (unsigned B = 0; B < M.NumDots; ++B) {
      if (!In[B])
        continue;
      unsigned E = B;
      while (E + 1 < M.NumDots && In[E + 1])
        ++E;
      Sel += (Sel.empty() ? "" : ", ") + std::string(What) + "@1[" +
             std::to_string(B) + "-" + std::to_string(E) + Of;
      B = E;
    }
    return Sel;
  };
  std::string L = "pingpong-layout v1; sync barrier delay-global-data; "
                  "mem mem0: local-read@0" + Slice(0) + ", global-load";
  for (unsigned I = 0; I < LeanExchangeSlices; ++I) {
    L += "; dot s" + std::to_string(I) + ": ";
    if (I + 1 < LeanExchangeSlices)
      L += "local-read@0" + Slice(I + 1) + ", ";
    L += "dot@0" + Slice(I);
    if (I + 1 == LeanExchangeSlices)
      L += ", exchange-write#1";
  }
  L += "; mem x2: exchange-read#2, " + Fed(2, "local-read");
  L += "; dot f2: " + Fed(2, "dot") + ", exchange-write#3, " +
       Fed(4, "local-read");
  L += "; dot f4: exchange-read#4, " + Fed(4, "dot") + ", local-write";
  if (interDotLoadsAhead(M))
    L += ", direct-load";
  return L;
}

static bool anyLeanShape(const LoopModel &M) {
  return leanShape(M) || leanExchangeShape(M);
}

// Session 26 (bwd8): attention backward at 8 waves (rows loaded for the
// inter-dot work an iteration ahead, interDotLoadsAhead): the register-lean
// order first, not only as the register fallback.
static cl::opt<bool> LeanFirstRows(
    "amdgpu-pingpong-chained-lean-rows-first", cl::init(true), cl::Hidden,
    cl::desc("8-wave chained dots whose inter-dot work reads rows loaded an "
             "iteration ahead (attention backward): the register-lean order "
             "as the first chained-dot order (default on; docs/modes.md, "
             "session 26: bwd8)"));

STATISTIC(NumLeanRowsFirst, "8-wave chained-dot loops with inter-dot rows "
                            "given the register-lean order first");

/// The inter-dot work is elementwise: no instruction of it reads another
/// lane (a softmax's row maximum and sum do, through the LDS crossbar or
/// v_permlane/DPP; attention backward's P^T = exp2(S - lse) and
/// dS^T = P^T (dP^T - delta) do not).
static bool elementwiseInterDot(const LoopModel &M) {
  const TargetInstrInfo *TII =
      M.Body->getParent()->getSubtarget().getInstrInfo();
  for (const InstInfo &I : M.Insts)
    if (I.R == Role::InterDot && I.MI &&
        target::readsOtherLanes(TII->getName(I.MI->getOpcode())))
      return false;
  return true;
}

static bool leanFirst(const LoopModel &M) {
  return LeanFirstRows && M.Waves == 8 && leanShape(M) &&
         interDotLoadsAhead(M) && elementwiseInterDot(M);
}

unsigned chainedPPVariants(const LoopModel &M) {
  if (M.NumAsyncCopies || (M.Groups.size() > 1 && M.Groups[1].FedLate))
    return dmaSoftmaxAtPV(M) ? 2 : 1;
  return leanFirst(M) + (issueBoundRegisterStaged(M) ? 3 : 2) +
         anyLeanShape(M);
}

bool chainedPPLeanVariant(const LoopModel &M, unsigned Variant) {
  return anyLeanShape(M) && Variant + 1 == chainedPPVariants(M);
}

std::optional<ClusterLayout> layoutChainedPP(const LoopModel &M, Rejection &Why,
                                             unsigned Variant) {
  const std::string Name = modeName(Mode::ChainedPP);
  if (M.Groups.size() != 2) {
    Why.Reason = Name + " needs two chained dot groups (attention's Q K^T "
                        "and P V); this loop has " +
                 std::to_string(M.Groups.size());
    return std::nullopt;
  }
  if (M.Groups[1].FedBy != 0) {
    Why.Reason = Name + " needs the second dot group fed by the first";
    return std::nullopt;
  }
  // P (or alpha) through LDS between the dots: each step of the round trip
  // must be two barrier intervals from the next under the asymmetric skew
  // (the other wave group one cluster behind), and the dots' clusters must
  // alternate with memory clusters around them; the 8-wave layouts have
  // four or five intervals and two dots.
  if (M.NumExchangeWrites && M.Waves == 8) {
    ExchangeSteps X = exchangeSteps(M);
    if (X.Steps <= 2 && M.NumAsyncCopies && !M.Groups[1].FedLate)
      return builtinLayout(ChainedPP8ExchangeLayout, Mode::ChainedPP, M, Why);
    // Four steps with register-staged operands: one barrier interval each,
    // without the skew.
    if (X.Steps == 4 && !M.NumAsyncCopies && !M.Groups[1].FedLate) {
      // The register-lean order in lockstep: the last register fallback.
      if (leanExchangeShape(M) && chainedPPLeanVariant(M, Variant)) {
        auto L = builtinLayout(chainedPP8LeanExchange(M).c_str(),
                               Mode::ChainedPP, M, Why);
        if (L) {
          L->Note = "register-lean exchange: the first dot group in " +
                    std::to_string(LeanExchangeSlices) +
                    " slices, each slice's LDS reads during the slice before "
                    "it; the second split by the exchange step it reads, one "
                    "barrier interval per step";
          ++NumLeanExchange;
        }
        return L;
      }
      return builtinLayout(chainedPP8LockstepExchange(M).c_str(),
                           Mode::ChainedPP, M, Why);
    }
    unsigned Intervals = X.Intervals;
    Why.Reason = "the second dot group's inputs cross LDS in " +
                 std::to_string(X.Steps) + " dependent step" +
                 (X.Steps == 1 ? "" : "s") + " per iteration (" +
                 std::to_string(M.NumExchangeWrites) + " LDS writes and " +
                 std::to_string(M.NumExchangeReads) +
                 " reads of the first group's results" +
                 (X.Steps > 2 ? "; the row statistics' scratch overlaps P's "
                                "buffer" : "") +
                 "): under the asymmetric skew each step is two barrier "
                 "intervals from the next, " + std::to_string(Intervals) +
                 " intervals with nothing but the exchange between the two "
                 "dots; the exchange layouts take two steps with LDS DMA, four "
                 "without";
    for (const InstInfo &II : M.Insts)
      if (II.R == Role::ExchangeWrite) {
        Why.At = II.MI;
        break;
      }
    return std::nullopt;
  }
  if (M.Groups[1].FedLate) {
    if (M.Waves != 8 || !M.NumAsyncCopies) {
      Why.Reason = Name + " places P V fed one iteration late only with LDS "
                          "DMA at 8 waves";
      return std::nullopt;
    }
    return builtinLayout(ChainedPP8LateLayout, Mode::ChainedPP, M, Why);
  }
  if (M.Waves != 4 && M.Waves != 8) {
    Why.Reason = Name + " needs 4 or 8 waves per workgroup; this kernel has " +
                 std::to_string(M.Waves);
    return std::nullopt;
  }
  if (M.NumAsyncCopies) {
    if (M.Waves != 8) {
      Why.Reason = Name + " places LDS DMA only at 8 waves (the barriers "
                          "its waits need); this kernel has " +
                   std::to_string(M.Waves);
      return std::nullopt;
    }
    // The softmax at the head of P V first, the layout above as its register
    // fallback.
    if (Variant == 0 && dmaSoftmaxAtPV(M)) {
      auto L = builtinLayout(ChainedPP8AsyncGatedSoftmaxLayout,
                             Mode::ChainedPP, M, Why);
      if (L) {
        L->Note = "LDS DMA, issue-bound, Q K^T's MFMA clocks at least P V's: "
                  "the softmax at the head of P V's gated cluster, beside the "
                  "partner wave's Q K^T";
        ++NumDMAGatedSoftmax;
      }
      return L;
    }
    auto L = builtinLayout(chainedPP8Async(M).c_str(), Mode::ChainedPP, M, Why);
    if (unsigned VReads = L ? dmaReadsPastQueue(M) : 0) {
      L->Note = std::to_string(VReads) +
                " reads of V's tile past the SIMD pair's LDS request queue: "
                "spread through the softmax, one after every three VALU";
      ++NumDMAReadSpread;
    }
    return L;
  }
  // The register-lean order: the first order of attention backward's
  // loops (leanFirst), and the last register fallback.
  const bool LeanNow = leanFirst(M) && Variant == 0;
  if (leanFirst(M) && !chainedPPLeanVariant(M, Variant) && Variant)
    --Variant;
  if (LeanNow || chainedPPLeanVariant(M, Variant)) {
    auto L = builtinLayout(chainedPP8Lean(M).c_str(), Mode::ChainedPP, M, Why);
    if (L) {
      L->Note = "register-lean: each dot group in " +
                std::to_string(LeanSlices) +
                " slices, each slice's LDS reads during the slice before it";
      if (interDotLoadsAhead(M)) {
        L->Note += "; the inter-dot work's " +
                   std::to_string(M.NumInterDotLoads) +
                   " row loads for the next iteration with P V's last slice "
                   "(live from there to the next softmax, not across the "
                   "dots)";
        ++NumLeanInterDotLoads;
      }
      if (LeanNow) {
        L->Note += "; first: attention backward's rows";
        ++NumLeanRowsFirst;
      }
      ++NumRegisterLean;
    }
    return L;
  }
  if (M.Waves == 4) {
    std::string L = ChainedPP4Layouts[Variant ? 1 : 0];
    // LDS-port-bound (the SIMD pair's port outlasts its MFMA pipe and issue
    // turns, Throughput.h): under the gate each dot starts after the
    // partner's last MFMA and its own drained memory cluster, so it waits
    // for the port first. Ungated, with dot-waits, a dot waits for its own
    // operands only and reads stay in flight across MFMAs, as in LLVM's
    // order (docs/modes.md, session 14: tut_f16_64x64x128 3705 -> 3477,
    // gated 3992).
    if (issueBound(M, 2).portBound())
      L.replace(L.find(" gate;"), 6, " dot-waits;");
    return builtinLayout(L.c_str(), Mode::ChainedPP, M, Why);
  }
  // Issue-bound: the softmax's own order first, the two below as register
  // fallbacks.
  if (issueBoundRegisterStaged(M)) {
    if (Variant == 0) {
      const IssueBound B = issueBound(M, 2);
      if (!B.issueBound() && B.IssueClocks <= B.MFMAClocks)
        ++NumPortGateByWaveTurns;
      // Softmax-alone reads every tile in one interval, both SIMDs of a
      // pair at once: not where the port binds.
      if (B.issueBound() && B.MFMAClocks >= 0.8 * B.IssueClocks)
        return builtinLayout(chainedPP8SoftmaxAlone(M).c_str(),
                             Mode::ChainedPP, M, Why);
      if (SoftmaxWithReads && slowLDSReads(M)) {
        const bool Cover = coverSoftmaxReductions(M);
        std::string Text = ChainedPP8GatedSoftmaxWithReadsLayout;
        if (Cover)
          Text += "; interleave mem1: " + softmaxReadOrder(M);
        auto L = builtinLayout(Text.c_str(), Mode::ChainedPP, M, Why);
        if (L) {
          L->Note = std::string("gated, LDS reads at 64 B/clk: the softmax "
                                "beside V's reads") +
                    (Cover ? ", its reductions' latency covered" : "") +
                    ", the LDS writes after P V";
          ++NumSoftmaxWithReads;
        }
        return L;
      }
      return builtinLayout(ChainedPP8GatedSoftmaxLayout, Mode::ChainedPP, M,
                           Why);
    }
    --Variant;
  }
  // Issue-bound (Throughput.h): the softmax's interval binds, so V's reads
  // leave it for mem0 and the split is only the register fallback. Where
  // the pipe or the port binds, V's reads in mem0 would lengthen the memory
  // interval instead: the split first. It needs P V in two equal halves.
  const unsigned Split = issueBound(M, 2).issueBound() ? 1 : 0;
  if (Variant == Split && M.Groups[1].NumDots >= 2 &&
      M.Groups[1].NumDots % 2 == 0)
    return builtinLayout(chainedPP8Split(M).c_str(), Mode::ChainedPP, M, Why);
  return builtinLayout(ChainedPP8Layout, Mode::ChainedPP, M, Why);
}

} // namespace pingpong

// Session 25 (afp8, issue 28): 8-wave LDS-DMA attention whose P crosses LDS
// between the dots (Triton's 16x16x128 fp8 P V operand: P stored a byte a
// lane, a barrier, read back transposed). Neither chained-dot order gains on
// those loops in the model, and LLVM's order is kept with a remark.
static cl::opt<bool> DMARoundTripNoGain(
    "amdgpu-pingpong-dma-round-trip-no-gain", cl::Hidden, cl::init(true),
    cl::desc("auto, 8-wave LDS-DMA attention whose P crosses LDS between the "
             "dots: keep LLVM's order where the gate's turn-taking cannot "
             "hold (the loop's own barrier between P's writes and reads) or "
             "the exchange layout's skew serializes the softmaxes (one "
             "wave's issue past the SIMD's MFMA pipe) (AMDGPUPingpong "
             "plugin)"));
STATISTIC(NumDMARoundTripKept, "8-wave LDS-DMA attention loops with P "
                               "through LDS left in LLVM's order");

namespace pingpong {

/// LDS writes of the iteration's softmax (data an inter-dot instruction of
/// the body defines) followed, later in the body, by a barrier of the loop's
/// own: P's LDS round trip where the exchange analysis finds no exchange
/// (its lane extents unknown). Returns the count of such writes (0: none, or
/// no barrier after them).
static unsigned softmaxWritesBeforeBarrier(const LoopModel &M) {
  const MachineRegisterInfo &MRI = M.Body->getParent()->getRegInfo();
  DenseSet<const MachineInstr *> InterDot;
  for (const InstInfo &I : M.Insts)
    if (I.R == Role::InterDot)
      InterDot.insert(I.MI);
  unsigned Writes = 0;
  for (const InstInfo &I : M.Insts) {
    if (I.Kind == InstKind::Barrier && Writes)
      return Writes;
    if (I.R != Role::LocalWrite)
      continue;
    for (const MachineOperand &MO : I.MI->uses())
      if (MO.isReg() && MO.getReg().isVirtual())
        if (const MachineInstr *D = MRI.getVRegDef(MO.getReg());
            D && InterDot.count(D)) {
          ++Writes;
          break;
        }
  }
  return 0;
}

std::string chainedDMANoGain(const LoopModel &M) {
  if (!DMARoundTripNoGain || M.Waves != 8 || !M.NumAsyncCopies ||
      M.Groups.size() != 2 || M.Groups[1].FedLate)
    return "";
  // The gated layout (dmaAttention) keeps the loop's own barriers: the
  // SIMD's two waves take turns at the dots only where nothing brings them
  // back into step inside the iteration. A barrier between P's writes and
  // P V's reads of them does, every iteration: the leading wave waits there
  // for its partner's softmax (tuning afp8_fp8_128x128x64 gfx950: 884 clocks
  // an iteration at that barrier), so the gate only delays the partner's
  // Q K^T.
  if (dmaAttention(M)) {
    unsigned W = softmaxWritesBeforeBarrier(M);
    if (!W)
      return "";
    ++NumDMARoundTripKept;
    return formatv("no gain over LLVM's order: P crosses LDS between the "
                   "dots ({0} LDS writes of the softmax's results, then the "
                   "loop's own barrier before P V reads them): the barrier "
                   "brings the SIMD's two waves back into step every "
                   "iteration, so the gate's turn-taking at the dots cannot "
                   "hold and only adds waits; LLVM's order is kept",
                   W)
        .str();
  }
  // The exchange layout (skewed barriers, ChainedPP8ExchangeLayout): the
  // two waves of a SIMD run their softmaxes in different barrier intervals,
  // each beside the partner's dot or exchange cluster. Where one wave's VALU
  // and MFMA issue alone outlasts the SIMD's MFMA pipe (both waves' dots),
  // no partner cluster covers a softmax interval: the intervals run the two
  // softmaxes one after the other, while LLVM's order issues them together
  // and keeps every MFMA beside VALU (tuning afp8_fp8_256x128x64 gfx950:
  // 1664 issue clocks a wave against 1536 pipe clocks; the lead wave waits
  // ~1130 clocks an iteration at the barriers). Corpus mi32 (876 against
  // 1536) gains 1.29x.
  if (!M.NumExchangeWrites || exchangeSteps(M).Steps > 2)
    return "";
  const IssueBound B = issueBound(M, 2);
  if (!B.Known || B.IssueClocks / B.WavesPerSIMD <= B.MFMAClocks)
    return "";
  ++NumDMARoundTripKept;
  return formatv("no gain over LLVM's order: P crosses LDS between the dots "
                 "({0} LDS writes and {1} reads of the first group's "
                 "results), and one wave's VALU and MFMA issue ({2:F0} "
                 "clocks per iteration, {3} VALU and {4} MFMA) outlasts its "
                 "SIMD's MFMA pipe for both waves ({5:F0}): under the "
                 "exchange layout's skew the two waves' softmaxes run in "
                 "different barrier intervals with no dot long enough beside "
                 "them, where LLVM's order issues them together; LLVM's "
                 "order is kept",
                 M.NumExchangeWrites, M.NumExchangeReads,
                 B.IssueClocks / B.WavesPerSIMD, B.VALU, B.MFMAs,
                 B.MFMAClocks)
      .str();
}

} // namespace pingpong
