//===- DepGraph.h - dependences inside the loop body ------------*- C++ -*-===//
//
// LLVM's ScheduleDAGInstrs over the loop region (register def/use, anti and
// output deps, physical registers, memory order with alias analysis),
// flattened to index lists over LoopModel::Insts.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_ANALYSIS_DEPGRAPH_H
#define PINGPONG_ANALYSIS_DEPGRAPH_H

#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace llvm {
class AAResults;
class MachineLoopInfo;
} // namespace llvm

namespace pingpong {
struct LoopModel;

struct DepGraph {
  std::vector<llvm::SmallVector<unsigned, 4>> Preds, Succs;
  /// The staging edges (reader, load) of a dot result's side input loaded
  /// an iteration ahead (the scale loads): not a dependence of the loop's
  /// values, only what lets the allocator give the load and the header PHI
  /// it refills one register (no latch copy). Also in Preds and Succs.
  llvm::SmallVector<std::pair<unsigned, unsigned>, 8> SideStaging;
  unsigned numEdges() const;
  /// The same graph without SideStaging: the loads issue where their inputs
  /// allow, and the PHI takes a latch copy (layout flag side-loads-early).
  DepGraph withoutSideStaging() const;
};

/// The graph over exactly Model.Insts, in the body's order: instructions of
/// the body the model leaves out are not in it. Leaves the body as it is.
DepGraph buildDepGraph(const LoopModel &Model, const llvm::MachineLoopInfo &MLI,
                       llvm::AAResults *AA);

} // namespace pingpong
#endif
