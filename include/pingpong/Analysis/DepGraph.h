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
  unsigned numEdges() const;
};

/// The graph over exactly Model.Insts, in the body's order: instructions of
/// the body the model leaves out are not in it. Leaves the body as it is.
DepGraph buildDepGraph(const LoopModel &Model, const llvm::MachineLoopInfo &MLI,
                       llvm::AAResults *AA);

/// A dot result's side input loaded an iteration ahead (LoadLookahead.cpp)
/// refills the registers its readers free: each such load that LLVM's order
/// issues before a reader of the value it replaces moves right after the
/// last one (the loop writes no memory but LDS). The staging edges then
/// keep it there in every mode; before them, the PHI needs a copy at the
/// latch that waits for the load. Returns whether it moved any (the model
/// must then be built again).
bool sinkAheadSideLoads(const LoopModel &Model);

} // namespace pingpong
#endif
