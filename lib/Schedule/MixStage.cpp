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
// GEMM). The weight-only MXFP4 GEMMs (mm_w4a16) do not plan: their scales
// are stored after the dot from this iteration's loads, and their reads'
// bytes are unknown to the checker's identity, so the copies stay ordered
// before them (the remark names the dependence).
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/ClusterPlan.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#include <string>

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;

STATISTIC(NumMixedStage, "Writes-first layouts built for loops with LDS DMA "
                         "next to register-staged LDS writes");

static cl::opt<bool> MixedStage(
    "amdgpu-pingpong-mixed-stage", cl::Hidden, cl::init(true),
    cl::desc("auto: loops with LDS DMA next to register-staged LDS writes get "
             "async-one-cluster's writes-first layout (docs/modes.md, "
             "\"Session 23: mixstage\"); false: refused as before"));

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

} // namespace pingpong
