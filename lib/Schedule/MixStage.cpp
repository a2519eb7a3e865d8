//===- MixStage.cpp - LDS DMA next to register-staged LDS writes ----------===//
//
// A GEMM loop whose operands reach LDS two ways (session 23, mixstage): one
// by LDS DMA (Triton's async copy on gfx950), another through registers (a
// global load, then a ds_write one iteration later: heldout9's LoRA GEMM's W,
// heldout7's weight-only MXFP4 GEMM's scales). Triton 3.6's order, which
// LLVM keeps: the loop-top wait and barrier, this iteration's register loads
// and copies, the reads of the copied operand, the ds_writes of the loads of
// the iteration before, a wait and barrier, the reads of the written buffer,
// the dot. LLVM's alias analysis cannot tell a copy's bytes (scope
// amdg.AsyncCopies) from a ds_write without a scope, so its wait insertion
// holds the ds_writes for the copies just issued -- vmcnt(0), which waits for
// the register loads issued before them too: a loaded round trip in every
// iteration, beside the dot instead of under it.
//
// The layout writes first: the ds_writes of the registers loaded the
// iteration before, then (drain, barrier) every LDS read, then the copies and
// the register loads of the next iteration, then (drain, barrier) the gated
// dot. Nothing waits for a load issued in the same iteration; the copies and
// loads land under this dot and the partner's. The layout's barriers replace
// the loop's (ClusterPlan's DMA rules give each its vmcnt): the one after the
// dot orders the next writes and copies after every wave's reads, the one
// after the writes orders them before the other waves' reads. The dependence
// graph lets the writes go ahead of the copies where the checker's identity
// of LDS bytes proves them apart (DepGraph.cpp, mixedStageDisjoint).
//
// Model (docs/modes.md, "Session 23: mixstage"), cycles per iteration,
// llc-22 -> this layout: mmlora_f16_128x64x64_w4 3934 -> 2012,
// mmlora_f16_256x128x64_w8 4713 -> 2349 (tuning twins of heldout9's LoRA
// GEMM). The weight-only MXFP4 GEMMs (mm_w4a16) store their scales after
// the dot from this iteration's loads: not this layout, but single-wave's
// one-wave order (session 24, at the end of this file).
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#include <string>

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;

STATISTIC(NumMixedStage, "Writes-first layouts built for loops with LDS DMA "
                         "next to register-staged LDS writes");
STATISTIC(NumMixedStageOneWave,
          "One-wave layouts built for loops with LDS DMA next to LDS writes "
          "of the same iteration's global loads");

static cl::opt<bool> MixedStage(
    "amdgpu-pingpong-mixed-stage", cl::Hidden, cl::init(true),
    cl::desc("auto: loops with LDS DMA next to register-staged LDS writes get "
             "async-one-cluster's writes-first layout (docs/modes.md, "
             "\"Session 23: mixstage\"); false: refused as before"));

static cl::opt<bool> MixedStageOneWave(
    "amdgpu-pingpong-mixed-stage-one-wave", cl::Hidden, cl::init(true),
    cl::desc("auto: loops with LDS DMA next to LDS writes of the same "
             "iteration's global loads (weight-only MXFP4 GEMMs' scales) get "
             "single-wave's one-wave order, the first K slice's LDS reads "
             "ahead of the copies, where each SIMD runs one wave or the workgroup has 8 "
             "waves (docs/modes.md, \"Session 24: w4a16\"); false: "
             "async-one-cluster's writes-first layout, refused there"));

namespace pingpong {

static const char *MixedStageLayout =
    "pingpong-layout v1; sync barrier gate dot-waits; "
    "mem mem-w: local-write; "
    "mem mem-r: local-read; "
    "mem+ mem-g: async-copy, global-load; "
    "dot dot: dot";

bool mixedStageShape(const LoopModel &M) { return M.mixedStaging(); }

bool mixedStageEnabled() { return MixedStage; }

/// The register-staged LDS writes LLVM's order issues after an LDS DMA of the
/// same iteration (the body's order is LLVM's pre-scheduling order, which its
/// wait insertion follows).
static unsigned writesBehindCopies(const LoopModel &M) {
  bool Copied = false;
  unsigned N = 0;
  for (const InstInfo &I : M.Insts) {
    Copied |= I.R == Role::AsyncCopy;
    N += Copied && I.R == Role::LocalWrite;
  }
  return N;
}

std::string mixedStageNoGain(const LoopModel &M) {
  LLVM_DEBUG(dbgs() << "amdgpu-pingpong: mixed staging: " << M.NumLocalWrites
                    << " LDS writes, " << writesBehindCopies(M)
                    << " of them after a copy in LLVM's order\n");
  if (writesBehindCopies(M))
    return "";
  return "no gain over LLVM's order: its " + std::to_string(M.NumLocalWrites) +
         " register-staged LDS write(s) already come before the iteration's "
         "LDS DMA, so no wait holds them for the copies; LLVM's order is kept";
}

std::optional<ClusterLayout> layoutMixedStage(const LoopModel &M,
                                              Rejection &Why) {
  std::optional<ClusterLayout> L =
      builtinLayout(MixedStageLayout, Mode::AsyncOnePP, M, Why);
  if (!L)
    return L;
  ++NumMixedStage;
  L->Note = "LDS DMA next to " + std::to_string(M.NumLocalWrites) +
            " register-staged LDS write(s) (" +
            std::to_string(writesBehindCopies(M)) +
            " of them behind the copies' wait in LLVM's order): the writes "
            "first, then every LDS read, then the copies and register loads "
            "of the next iteration";
  return L;
}

// ---------------------------------------------------------------------------
// Session 24 (w4a16): the register-staged writes store this iteration's loads.
//
// heldout7's weight-only MXFP4 GEMM (mm_w4a16: bf16 A and packed e2m1 B by
// LDS DMA, B's e8m0 scales through registers) loads its scales and stores
// them in the same iteration, after the dot, into the slot the next
// iteration reads. The writes-first layout cannot lead with those writes
// (their data is the iteration's own load). What costs in LLVM's order is
// the scale reads: they come after the iteration's copies and carry no alias
// scope, so LLVM's wait insertion holds them for every copy just issued
// (vmcnt(0), with the scale load): a loaded round trip before the dot's
// first operands, every iteration. The checker's identity bounds them now
// (a stage pointer PHI, LDSObjects.cpp) and proves them apart from the
// copies, so the order can read first. The loop is VALU+MFMA issue-bound
// (the unpacking and scaling of B ahead of each MFMA: ~390 VALU against 64
// MFMAs a wave at 4 waves), so no turn-taking: single-wave's order, the dot
// in four K slices each after its reads, the copies and the scale load
// after the first slice's reads, the scale writes last (after the dot; the
// loop keeps its own wait and barrier, which order them before the next
// iteration's reads).
//
// Model, cycles per iteration (layouts as loop metadata, GEMM 8192^3):
// tuning w4a16_bf16_128x128x128_w4: llc-22 12036, Triton 11282; the gated
// async-one-cluster order with its barriers 8543, without gate and barriers
// 8527, two slices 8152, four slices 6852 (kept); the writes among the last
// slice 9008. w4a16_bf16_128x256x128_w8: llc-22 7653, Triton 7085; the
// asymmetric two-cluster barriers with four read slices 5431 (two slices
// spill 156 B: 21938), the four-slice one-wave order 5234 (kept).
//===----------------------------------------------------------------------===//

/// The global loads each register-staged LDS write stores are of its own
/// iteration: one of its register operands is (through full copies) the
/// value of a global load of the body.
bool mixedStageOneWaveShape(const LoopModel &M) {
  if (!M.mixedStaging() || !M.Body)
    return false;
  const MachineRegisterInfo &MRI = M.Body->getParent()->getRegInfo();
  SmallPtrSet<const MachineInstr *, 8> Loads;
  for (const InstInfo &I : M.Insts)
    if (I.R == Role::GlobalLoad && I.MI)
      Loads.insert(I.MI);
  unsigned Writes = 0;
  for (const InstInfo &I : M.Insts) {
    if (I.R != Role::LocalWrite || !I.MI)
      continue;
    bool Own = false;
    for (const MachineOperand &MO : I.MI->uses()) {
      if (!MO.isReg() || !MO.getReg().isVirtual())
        continue;
      const MachineInstr *Def = MRI.getVRegDef(MO.getReg());
      while (Def && Def->isFullCopy() && Def->getParent() == M.Body &&
             Def->getOperand(1).getReg().isVirtual())
        Def = MRI.getVRegDef(Def->getOperand(1).getReg());
      Own |= Def && Loads.contains(Def);
    }
    if (!Own)
      return false;
    ++Writes;
  }
  return Writes;
}

Mode mixedStageMode(const LoopModel &M, bool OneWavePerSIMD) {
  if (MixedStageOneWave && (M.Waves == 8 || OneWavePerSIMD) &&
      mixedStageOneWaveShape(M))
    return Mode::SingleWave;
  return Mode::AsyncOnePP;
}

/// The LDS reads LLVM's order issues after an LDS DMA of the same iteration
/// whose memory operand carries no alias scope the copies' is declared apart
/// from: LLVM's wait insertion holds each for the copies issued before it.
static unsigned readsHeldForCopies(const LoopModel &M) {
  bool Copied = false;
  unsigned N = 0;
  for (const InstInfo &I : M.Insts) {
    Copied |= I.R == Role::AsyncCopy;
    if (!Copied || I.R != Role::LocalRead || !I.MI)
      continue;
    bool Apart = !I.MI->memoperands_empty();
    for (const MachineMemOperand *MMO : I.MI->memoperands())
      Apart &= MMO->getAAInfo().NoAlias != nullptr;
    N += !Apart;
  }
  return N;
}

std::string mixedStageOneWaveNoGain(const LoopModel &M) {
  const unsigned Held = readsHeldForCopies(M);
  LLVM_DEBUG(dbgs() << "amdgpu-pingpong: mixed staging, writes of the "
                       "iteration's own loads: "
                    << Held << " LDS reads after a copy without a scope\n");
  if (Held)
    return "";
  return "no gain over LLVM's order: no LDS read without an alias scope "
         "follows the iteration's LDS DMA, so no wait holds the reads for "
         "the copies; LLVM's order is kept";
}

std::optional<ClusterLayout> layoutMixedStageOneWave(const LoopModel &M,
                                                     Rejection &Why) {
  const std::string Name = modeName(Mode::SingleWave);
  if (M.NumDots < 2) {
    Why.Reason = Name + " needs at least two MFMAs to overlap reads with";
    return std::nullopt;
  }
  const unsigned S = std::min(4u, M.NumDots);
  auto Slice = [&](unsigned I) {
    return "[" + std::to_string(I) + "/" + std::to_string(S) + "]";
  };
  // prio=0: no s_setprio (no turn-taking: each wave overlaps its own reads
  // and VALU with its own MFMAs).
  std::string T = "pingpong-layout v1; sync dot-waits; mem m0 prio=0: "
                  "local-read" + Slice(0) +
                  "; mem+ mem-g: global-load, async-copy";
  for (unsigned I = 0; I < S; ++I) {
    if (I)
      T += "; mem m" + std::to_string(I) + " prio=0: local-read" + Slice(I);
    T += "; dot d" + std::to_string(I) + " prio=0: dot" + Slice(I);
  }
  T += "; mem store prio=0: local-write";
  std::optional<ClusterLayout> L =
      builtinLayout(T.c_str(), Mode::SingleWave, M, Why);
  if (!L)
    return L;
  ++NumMixedStageOneWave;
  L->Note = "LDS DMA next to " + std::to_string(M.NumLocalWrites) +
            " LDS write(s) of the iteration's own global loads (" +
            std::to_string(readsHeldForCopies(M)) +
            " LDS read(s) held for the copies in LLVM's order): the first "
            "slice's reads ahead of the copies, the dot in " +
            std::to_string(S) + " slices, the writes last";
  return L;
}

} // namespace pingpong
