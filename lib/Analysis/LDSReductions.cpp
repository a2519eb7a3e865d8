//===- LDSReductions.cpp - a GEMM's cross-warp sums through LDS -----------===//
//
// A GEMM that also sums a tile across its warps inside the K loop (Triton's
// `tl.sum(b, 0)` beside `tl.dot(a, b)`: a weight gradient's bias gradient,
// a zero-point correction's column sums) does it through LDS in the
// iteration: each warp stores its partial sums, a barrier, every work-item
// reads a slot and adds its neighbours', stores the slot's sum back, a
// barrier, each lane reads the totals into a loop-carried sum. Those LDS
// accesses feed no dot and fill no operand buffer; until session 26 the
// model refused the loop at the first such read ("LDS read that does not
// feed the dot"). With -amdgpu-pingpong-flatten-lane-stores their
// lane-predicated stores are straight-line code and the loop one block.
//
// Here the round trip gets the exchange roles chained dots use for theirs
// (Roles.h): ExchangeWrite for each LDS write that is neither an operand
// tile's write nor an exchange of dot results, ExchangeRead for each LDS
// read that feeds no dot, numbered in steps (numberExchangeSteps). Only
// where the pattern is exactly that: every such read may meet bytes such a
// write stored before one of the loop's barriers in the same iteration (the
// checker's identity: not proven disjoint), and every such write is read so.
// Anything else stays Other and checkLeftovers refuses it as before.
//
// The roles say where the traffic is; what keeps it ordered are the loop's
// own barriers between the steps. A layout that replaces them (`sync
// barrier`) would let one wave read a slot before another wrote it, so
// ModeChoice refuses those layouts for such loops, and the built-in orders
// that keep them measured slower than LLVM's: only a layout given as loop
// metadata that keeps the loop's barriers takes them (ldsReductionRefusal,
// LDSInLoop.cpp; docs/modes.md, "Session 26: cflow2").
//
//===----------------------------------------------------------------------===//
#include "ModelBuilder.h"
#include "pingpong/Analysis/LDSObjects.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;

STATISTIC(NumLDSReductionLoops,
          "GEMM loops whose cross-warp sums cross LDS in the iteration");

static cl::opt<bool> LDSReductions(
    "amdgpu-pingpong-lds-reductions", cl::init(true),
    cl::desc("model a GEMM loop's cross-warp sums through LDS (partials, "
             "barrier, reads) as LDS exchanges in steps between the loop's "
             "own barriers, which only a layout keeping those barriers may "
             "place, instead of refusing the loop as 'LDS read that does not "
             "feed the dot' (docs/modes.md, session 26: cflow2; "
             "AMDGPUPingpong plugin)"));

namespace pingpong {

/// Does the value of the instruction at Pos reach, through VALU (and the
/// loop's PHIs), the sums' LDS writes and nothing else of the body: no
/// MFMA, no other memory access?
static bool feedsSumsOnly(ModelBuilder &B, unsigned Pos) {
  LoopModel &M = B.M;
  SmallVector<const MachineInstr *, 16> Work{M.Insts[Pos].MI};
  SmallPtrSet<const MachineInstr *, 32> Seen{M.Insts[Pos].MI};
  bool ReachesSum = false;
  while (!Work.empty()) {
    const MachineInstr *MI = Work.pop_back_val();
    for (const MachineOperand &Def : MI->defs()) {
      if (!Def.isReg() || !Def.getReg().isVirtual())
        return false;
      for (const MachineInstr &U : B.MRI.use_nodbg_instructions(Def.getReg())) {
        if (!Seen.insert(&U).second)
          continue;
        if (Seen.size() > 512)
          return false;
        if (U.isPHI()) {
          if (U.getParent() == M.Body)
            Work.push_back(&U);
          continue;
        }
        auto It = B.PosOf.find(&U);
        if (It == B.PosOf.end())
          continue; // after the loop
        const InstInfo &UI = M.Insts[It->second];
        if (UI.R == Role::ExchangeWrite) {
          ReachesSum = true;
          continue;
        }
        if (UI.R != Role::Other ||
            (UI.Kind != InstKind::Other && UI.Kind != InstKind::ValuFMA &&
             UI.Kind != InstKind::LDSOther))
          return false;
        Work.push_back(&U);
      }
    }
  }
  return ReachesSum;
}

void markLDSReductions(ModelBuilder &B) {
  LoopModel &M = B.M;
  if (!LDSReductions || M.Groups.size() != 1)
    return;
  // The loop's LDS writes (the role pass calls every one a LocalWrite; an
  // operand's have their reads) and reads that feed no dot, with the number
  // of loop barriers before each.
  struct Access {
    unsigned Pos;
    sync::LDSRegion R;
    unsigned Barriers;
  };
  SmallVector<Access, 32> Writes, Reads, OperandReads;
  unsigned Barriers = 0;
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    const InstInfo &II = M.Insts[I];
    if (II.Kind == InstKind::Barrier)
      ++Barriers;
    else if (II.Kind == InstKind::LDSWrite &&
             (II.R == Role::LocalWrite || II.R == Role::Other))
      Writes.push_back({I, ldsRegionForCheck(*II.MI), Barriers});
    else if (II.Kind == InstKind::LDSRead && II.R == Role::Other)
      Reads.push_back({I, ldsRegionForCheck(*II.MI), Barriers});
    else if (II.Kind == InstKind::LDSRead && II.R == Role::LocalRead)
      OperandReads.push_back({I, ldsRegionForCheck(*II.MI), Barriers});
  }
  if (Reads.empty())
    return;
  // A read meets a write it follows by at least one barrier of the
  // iteration whose bytes it may share.
  auto Meets = [](const Access &W, const Access &R) {
    return W.Pos < R.Pos && W.Barriers < R.Barriers &&
           sync::overlap(W.R, R.R).O != sync::Overlap::Disjoint;
  };
  SmallVector<unsigned, 16> Sums;
  for (const Access &W : Writes) {
    // An operand tile's write (read back by the dot's reads, or by nothing
    // of this iteration: the next tile) stays what it is.
    if (llvm::any_of(OperandReads,
                     [&](const Access &R) { return Meets(W, R); }) ||
        llvm::none_of(Reads, [&](const Access &R) { return Meets(W, R); }))
      continue;
    Sums.push_back(W.Pos);
  }
  SmallDenseSet<unsigned, 16> IsSum(Sums.begin(), Sums.end());
  for (const Access &R : Reads)
    if (llvm::none_of(Writes, [&](const Access &W) {
          return IsSum.contains(W.Pos) && Meets(W, R);
        }))
      return; // another kind of read: checkLeftovers names it
  // Steps: the barrier intervals of the iteration the sums run through, from
  // the first partial's (1: the partials; 2: the reads of them, per-slot
  // sums and their stores; 3: the totals' reads), so that a layout can select
  // each step (`exchange-write#1`) the way the loop's barriers delimit them.
  // (Chained dots number their exchanges by the bytes they may share,
  // DotGroups.cpp: there a write and a read of one interval are two steps.)
  unsigned First = ~0u;
  for (const Access &W : Writes)
    if (IsSum.contains(W.Pos))
      First = std::min(First, W.Barriers);
  for (const Access &W : Writes)
    if (IsSum.contains(W.Pos)) {
      InstInfo &I = M.Insts[W.Pos];
      I.R = Role::ExchangeWrite;
      I.Op = Operand::None;
      I.Group = 0;
      I.ExchangeStep = 1 + W.Barriers - First;
    }
  for (const Access &R : Reads) {
    InstInfo &I = M.Insts[R.Pos];
    I.R = Role::ExchangeRead;
    I.Group = 0;
    I.ExchangeStep = 1 + R.Barriers - First;
  }
  M.NumSumCrossbar = 0;
  for (unsigned I = 0; I < M.Insts.size(); ++I)
    M.NumSumCrossbar += M.Insts[I].Kind == InstKind::LDSOther &&
                        M.Insts[I].R == Role::Other && feedsSumsOnly(B, I);
  ++NumLDSReductionLoops;
  LLVM_DEBUG(dbgs() << "amdgpu-pingpong: cross-warp sums through LDS: "
                    << Sums.size() << " writes, " << Reads.size()
                    << " reads\n");
}

} // namespace pingpong
