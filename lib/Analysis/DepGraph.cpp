//===- DepGraph.cpp - dependences inside the loop body --------------------===//
#include "pingpong/Analysis/DepGraph.h"
#include "pingpong/Analysis/LDSObjects.h"
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Sync/SyncRules.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/ScheduleDAGInstrs.h"
#include "llvm/Support/ErrorHandling.h"

#include <optional>

using namespace llvm;
namespace pingpong {

namespace {
/// A DAG builder only: it never schedules.
class RegionDAG : public ScheduleDAGInstrs {
public:
  RegionDAG(MachineFunction &MF, const MachineLoopInfo &MLI)
      : ScheduleDAGInstrs(MF, &MLI, /*RemoveKillFlags=*/false) {}
  void schedule() override {}
};

/// LLVM orders every memory access against s_barrier (it has side effects).
/// A load of global memory into registers needs no such order: a bare
/// s_barrier orders no global memory (that takes a fence, which keeps its
/// edges), and the barrier's own release wait (lgkmcnt) is about LDS. So a
/// global load may cross the loop's barrier, as Triton's OnePP moves it.
bool barrierAndGlobalLoad(const InstInfo &A, const InstInfo &B) {
  auto IsBarrier = [](const InstInfo &I) {
    return I.R == Role::Sync &&
           (I.Kind == InstKind::Barrier || I.Kind == InstKind::Waitcnt);
  };
  return (IsBarrier(A) && B.Kind == InstKind::VMEMLoad) ||
         (IsBarrier(B) && A.Kind == InstKind::VMEMLoad);
}
/// ds_read / ds_write: their memory operand names the LDS bytes. Not LDS
/// DMA, whose lanes write past the address its operand names (the checker
/// computes those from M0 instead).
bool isLDSAccess(const InstInfo &I) {
  return I.Kind == InstKind::LDSRead || I.Kind == InstKind::LDSWrite;
}
} // namespace

unsigned DepGraph::numEdges() const {
  unsigned N = 0;
  for (const auto &P : Preds)
    N += P.size();
  return N;
}

DepGraph buildDepGraph(const LoopModel &Model, const MachineLoopInfo &MLI,
                       AAResults *AA) {
  MachineBasicBlock &MBB = *Model.Body;
  DepGraph G;
  G.Preds.resize(Model.Insts.size());
  G.Succs.resize(Model.Insts.size());
  DenseMap<const MachineInstr *, unsigned> Index;
  for (unsigned I = 0; I < Model.Insts.size(); ++I)
    Index[Model.Insts[I].MI] = I;

  RegionDAG DAG(*MBB.getParent(), MLI);
  MachineBasicBlock::iterator End = MBB.getFirstTerminator();
  // The region must be exactly Model.Insts: an instruction of the block the
  // model does not know would carry edges the graph loses (and LLVM sizes
  // its units from the count). Callers detach what they leave out.
  unsigned InBlock = 0;
  for (const MachineInstr &MI : make_range(MBB.getFirstNonPHI(), End))
    InBlock += !MI.isDebugInstr();
  if (InBlock != Model.Insts.size())
    report_fatal_error("amdgpu-pingpong: the loop region holds " +
                       Twine(InBlock) + " instructions, its model " +
                       Twine(Model.Insts.size()) +
                       " (an instruction left in the block; a plugin bug)");
  // LLVM's alias analysis cannot tell the buffers of one LDS arena apart
  // (Triton's shared memory, HIP kernels without alias scopes); the sync
  // library's identity can (Analysis/LDSObjects: objects, ranges, lane
  // bounds), and the checker orders waves by the same rule. Memory-order
  // edges between LDS accesses it proves disjoint are dropped.
  std::vector<std::optional<sync::LDSRegion>> Region(Model.Insts.size());
  auto RegionOf = [&](unsigned I) -> const sync::LDSRegion & {
    if (!Region[I])
      Region[I] = ldsRegionOf(*Model.Insts[I].MI);
    return *Region[I];
  };
  auto Disjoint = [&](unsigned A, unsigned B) {
    return isLDSAccess(Model.Insts[A]) && isLDSAccess(Model.Insts[B]) &&
           sync::overlap(RegionOf(A), RegionOf(B)).O ==
               sync::Overlap::Disjoint;
  };
  DAG.startBlock(&MBB);
  DAG.enterRegion(&MBB, MBB.getFirstNonPHI(), End, Model.Insts.size());
  DAG.buildSchedGraph(AA);
  for (SUnit &SU : DAG.SUnits) {
    auto To = Index.find(SU.getInstr());
    if (To == Index.end())
      continue;
    for (const SDep &D : SU.Preds) {
      SUnit *P = D.getSUnit();
      if (!P || P->isBoundaryNode())
        continue;
      auto From = Index.find(P->getInstr());
      if (From == Index.end() || From->second == To->second)
        continue;
      if (D.getKind() == SDep::Order &&
          (barrierAndGlobalLoad(Model.Insts[From->second],
                                Model.Insts[To->second]) ||
           Disjoint(From->second, To->second)))
        continue;
      G.Preds[To->second].push_back(From->second);
      G.Succs[From->second].push_back(To->second);
    }
  }
  DAG.exitRegion();
  DAG.finishBlock();
  return G;
}

} // namespace pingpong
