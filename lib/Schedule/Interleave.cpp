//===- Interleave.cpp - placing an interleave clause's instructions -------===//
//
// An `interleave` clause asks for groups of N instructions of some kinds in
// turn. Left to AMDGPU's IGroupLP as one pipeline of SCHED_GROUP_BARRIERs
// for the whole cluster, its solver tries every instruction in every group
// of its kind, each try reachability searches in the DAG: 44% of llc on the
// 8-wave chained-dot loops (docs/compile-time.md). The plan assigns the
// groups itself, the way IGroupLP's greedy solver does (each instruction,
// in order, to the first group of its kinds with room that its
// predecessors' groups allow), and orders the cluster group by group; the
// emitter fences the groups apart.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/DepGraph.h"
#include "pingpong/Schedule/ClusterPlan.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/Support/CommandLine.h"

#include <algorithm>

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;

STATISTIC(NumInterleaveGroups, "Interleave groups placed by the plan");

// Off: the emission before issue 28, the clause's groups as one IGroupLP
// pipeline per cluster (for comparing orders and compile time).
static cl::opt<bool> PlanInterleave(
    "amdgpu-pingpong-plan-interleave", cl::init(true), cl::Hidden,
    cl::desc("Place interleave groups in the plan and fence them apart "
             "(false: SCHED_GROUP_BARRIERs for IGroupLP to solve)"));

// The solver's work grows with the square of the groups: clauses of 16-22
// groups cost no machine-scheduler time over plain llc, the 8-wave
// chained-dot's softmax clause (70) took it from 7 to 31 ms.
static cl::opt<unsigned> MinGroups(
    "amdgpu-pingpong-plan-interleave-min-groups", cl::init(24), cl::Hidden,
    cl::desc("Clauses of fewer groups than this are left to IGroupLP"));

namespace pingpong {

void orderInterleaves(const LoopModel &M, const DepGraph &G,
                      ClusterPlan &Plan) {
  const ClusterLayout &Layout = Plan.Layout;
  const unsigned N = M.Insts.size();
  Plan.GroupOf.clear(); // empty: the emitter leaves the clusters to IGroupLP
  if (!PlanInterleave || N == 0)
    return;
  Plan.GroupOf.assign(N, ~0u);
  const TargetInstrInfo &TII =
      *M.Body->getParent()->getSubtarget().getInstrInfo();
  // Per instruction of an interleaved cluster: its group (step * groups +
  // group), for instructions of other kinds the group after which they
  // stay; never below a predecessor's in the same cluster.
  std::vector<int> Key(N, 0);
  unsigned Begin = 0;
  for (unsigned C = 0; C < Layout.Clusters.size(); ++C) {
    unsigned End = Begin;
    while (End < Plan.Order.size() && Plan.ClusterOf[Plan.Order[End]] == C)
      ++End;
    const Cluster &Cl = Layout.Clusters[C];
    // A gated dot's first MFMA (and what precedes it) issues before its
    // s_setprio, a region of its own: the groups start after it.
    unsigned From = Begin;
    if (!Cl.Interleave.empty() && Cl.Kind == ClusterKind::Dot &&
        Layout.GateDotEntry) {
      while (From < End && M.Insts[Plan.Order[From]].Kind != InstKind::MFMA)
        ++From;
      From = std::min(End, From + 1);
    }
    if (Cl.Interleave.empty() || From == End) {
      Begin = End;
      continue;
    }
    auto InGroups = [&](unsigned I) {
      return Plan.ClusterOf[I] == C && Plan.GroupOf[I] != ~0u;
    };
    const unsigned NG = Cl.Interleave.size();
    std::vector<unsigned> Fill; // per group
    for (unsigned P = From; P < End; ++P) {
      const unsigned I = Plan.Order[P];
      int Lvl = 0;
      for (unsigned Pred : G.Preds[I])
        if (InGroups(Pred))
          Lvl = std::max(Lvl, Key[Pred]);
      Plan.GroupOf[I] = 0; // in the groups; which one follows below
      StringRef Name = TII.getName(M.Insts[I].MI->getOpcode());
      bool Matches = false;
      for (const InterleaveGroup &IG : Cl.Interleave)
        Matches |= interleaveMatches(IG.Mask, M.Insts[I].Kind, Name);
      if (!Matches) {
        // Free to cross the fences (IGroupLP leaves it free): it starts as
        // early as its predecessors allow, so that it delays no group.
        Key[I] = Lvl;
        continue;
      }
      for (unsigned Gi = Lvl;; ++Gi) {
        if (Fill.size() <= Gi)
          Fill.resize(Gi + 1, 0);
        const InterleaveGroup &IG = Cl.Interleave[Gi % NG];
        if (Fill[Gi] < IG.Size &&
            interleaveMatches(IG.Mask, M.Insts[I].Kind, Name)) {
          ++Fill[Gi];
          Key[I] = Gi;
          break;
        }
      }
    }
    if (Fill.size() < MinGroups) {
      // Few groups: IGroupLP solves them at no measurable cost, and its
      // order is the one measured (docs/compile-time.md).
      for (unsigned P = From; P < End; ++P)
        Plan.GroupOf[Plan.Order[P]] = ~0u;
      Begin = End;
      continue;
    }
    // Keys never decrease along an edge and the plan's order is
    // topological: sorting by (key, plan position) keeps every dependence.
    std::stable_sort(Plan.Order.begin() + From, Plan.Order.begin() + End,
                     [&](unsigned A, unsigned B) { return Key[A] < Key[B]; });
    unsigned Last = ~0u;
    for (unsigned P = From; P < End; ++P) {
      const unsigned I = Plan.Order[P];
      Plan.GroupOf[I] = unsigned(Key[I]);
      NumInterleaveGroups += Plan.GroupOf[I] != Last;
      Last = Plan.GroupOf[I];
    }
    Begin = End;
  }
}

} // namespace pingpong
