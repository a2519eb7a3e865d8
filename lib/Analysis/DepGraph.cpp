//===- DepGraph.cpp - dependences inside the loop body --------------------===//
#include "pingpong/Analysis/DepGraph.h"
#include "pingpong/Analysis/LoopModel.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/ScheduleDAGInstrs.h"

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
      G.Preds[To->second].push_back(From->second);
      G.Succs[From->second].push_back(To->second);
    }
  }
  DAG.exitRegion();
  DAG.finishBlock();
  return G;
}

} // namespace pingpong
