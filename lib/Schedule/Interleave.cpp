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
#include "pingpong/Analysis/Throughput.h"
#include "pingpong/Schedule/ClusterPlan.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#include <algorithm>

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;

STATISTIC(NumInterleaveGroups, "Interleave groups placed by the plan");
STATISTIC(NumCoveredReductions,
          "Cross-lane LDS ops a cover-reductions cluster orders around");

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

namespace {
/// Bytes an LDS access moves per lane: its LDS memory operands, or for an
/// access without one (ds_bpermute, ds_swizzle: a lane exchange through the
/// LDS crossbar) the width of the register it defines.
double ldsLaneBytes(const MachineInstr &MI) {
  double Size = 0;
  for (const MachineMemOperand *MMO : MI.memoperands())
    if (MMO->getSize().hasValue() && MMO->getAddrSpace() == 3)
      Size += MMO->getSize().getValue();
  if (Size > 0)
    return Size;
  const MachineFunction &MF = *MI.getParent()->getParent();
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
  for (const MachineOperand &MO : MI.defs())
    if (MO.isReg() && MO.getReg().isVirtual())
      return TRI.getRegSizeInBits(MO.getReg(), MF.getRegInfo()) / 8.0;
  return 4;
}
} // namespace

/// `interleave NAME: cover-reductions`: one wave's issue of the cluster as a
/// list schedule. LDS results come back in issue order, one SIMD pair's port
/// serves the LDS ops of the waves of a wave group on it (two at 8 waves
/// under the asymmetric skew, one per SIMD; every wave of the pair
/// otherwise), and a cross-lane reduction (ds_bpermute/ds_swizzle, LDSOther)
/// makes the work after it wait an LDS latency and its port time: the
/// softmax's row maximum and row sum. Each turn the wave issues, of the
/// instructions whose inputs are ready, the one with the longest latency
/// path to the cluster's end; an LDS read that nothing in the cluster uses
/// (P V's operands) counts, as its path, the port time of itself and of
/// every such read after it, so the reads go at the rate the port drains
/// them and fill the turns the reductions leave idle, rather than queue
/// ahead of a reduction that then returns behind them. Returns the order
/// (indices into M.Insts) of the cluster's instructions Plan.Order[From,
/// End), a topological order of G.
static std::vector<unsigned>
coverReductionsOrder(const LoopModel &M, const DepGraph &G,
                     const ClusterPlan &Plan, unsigned From, unsigned End) {
  const unsigned N = End - From;
  std::vector<unsigned> Insts(Plan.Order.begin() + From,
                              Plan.Order.begin() + End);
  DenseMap<unsigned, unsigned> Local; // M.Insts index -> position in Insts
  for (unsigned P = 0; P < N; ++P)
    Local[Insts[P]] = P;
  const target::TargetFacts *TF =
      target::factsFor(M.Body->getParent()->getSubtarget().getCPU());
  const double PortBytesPerClk =
      TF ? TF->LDSReadBytesPerClkPerSIMDPair : 64.0;
  const unsigned Lanes = TF ? TF->WaveSize : 64;
  // The waves of one wave group on a SIMD pair issue the cluster together.
  const unsigned Sharing =
      std::max(1u, M.Waves / (Plan.Layout.AsymmetricSync ? 4 : 2));
  auto PortClocks = [&](unsigned I) {
    return ldsLaneBytes(*M.Insts[I].MI) * Lanes * Sharing / PortBytesPerClk;
  };
  auto IsLDS = [&](unsigned I) {
    InstKind K = M.Insts[I].Kind;
    return K == InstKind::LDSRead || K == InstKind::LDSOther;
  };
  auto Latency = [&](unsigned I) -> double {
    switch (M.Insts[I].Kind) {
    case InstKind::LDSRead:
    case InstKind::LDSOther:
      return LDSLatencyClocks + PortClocks(I);
    case InstKind::MFMA:
      return 4 * IssueTurnClocks;
    default:
      return IssueTurnClocks;
    }
  };
  std::vector<SmallVector<unsigned, 4>> Preds(N), Succs(N);
  for (unsigned P = 0; P < N; ++P)
    for (unsigned Pred : G.Preds[Insts[P]]) {
      auto It = Local.find(Pred);
      if (It == Local.end())
        continue;
      Preds[P].push_back(It->second);
      Succs[It->second].push_back(P);
    }
  // The reads nothing in the cluster uses (P V's operands): they only have
  // to be through the port by the cluster's end.
  std::vector<bool> Free(N, false);
  for (unsigned P = 0; P < N; ++P)
    Free[P] = M.Insts[Insts[P]].Kind == InstKind::LDSRead && Succs[P].empty();
  // Heights (latency path to the cluster's end), reverse topological order.
  std::vector<double> Height(N, 0);
  for (unsigned P = N; P-- > 0;) {
    Height[P] = Latency(Insts[P]);
    for (unsigned S : Succs[P])
      Height[P] = std::max(Height[P], Latency(Insts[P]) + Height[S]);
  }
  // One wave's issue: each turn the ready instruction of the longest path;
  // a free read where nothing else is ready and the port is idle (it then
  // delays no reduction issued after it), or where the reads left would no
  // longer drain through the port by the end the other work takes (EndAt;
  // the first run, without the free reads, finds it).
  auto Run = [&](bool WithFree, double EndAt, std::vector<unsigned> *Out) {
    std::vector<unsigned> Waiting(N);
    std::vector<double> ReadyAt(N, 0);
    std::vector<bool> Done(N, false);
    double FreeLeft = 0;
    for (unsigned P = 0; P < N; ++P) {
      Waiting[P] = Preds[P].size();
      Done[P] = Free[P] && !WithFree;
      if (Free[P] && WithFree)
        FreeLeft += PortClocks(Insts[P]);
    }
    double T = 0, PortFree = 0, LastLDS = 0;
    for (;;) {
      int Best = -1, FirstFree = -1;
      double Next = -1;
      for (unsigned P = 0; P < N; ++P) {
        if (Done[P] || Waiting[P])
          continue;
        if (Free[P]) {
          if (FirstFree < 0)
            FirstFree = int(P);
          continue;
        }
        if (ReadyAt[P] > T) {
          Next = Next < 0 ? ReadyAt[P] : std::min(Next, ReadyAt[P]);
          continue;
        }
        if (Best < 0 || Height[P] > Height[unsigned(Best)])
          Best = int(P);
      }
      if (FirstFree >= 0) {
        const bool Due = T + FreeLeft + LDSLatencyClocks >= EndAt;
        if (Due || (Best < 0 && PortFree <= T))
          Best = FirstFree;
        else if (Best < 0)
          Next = Next < 0 ? PortFree : std::min(Next, PortFree);
      }
      if (Best < 0) {
        if (Next < 0)
          break; // all issued
        T = std::max(T, Next);
        continue;
      }
      const unsigned P = unsigned(Best);
      Done[P] = true;
      if (Out)
        Out->push_back(Insts[P]);
      double Result = T + IssueTurnClocks;
      if (IsLDS(Insts[P])) {
        double Start = std::max(T, PortFree);
        PortFree = Start + PortClocks(Insts[P]);
        LastLDS = std::max(LastLDS, Start + LDSLatencyClocks);
        Result = LastLDS; // results return in issue order
        if (Free[P])
          FreeLeft -= PortClocks(Insts[P]);
      } else if (M.Insts[Insts[P]].Kind == InstKind::MFMA) {
        Result = T + Latency(Insts[P]);
      }
      for (unsigned S : Succs[P]) {
        ReadyAt[S] = std::max(ReadyAt[S], Result);
        --Waiting[S];
      }
      T += IssueTurnClocks;
    }
    return T;
  };
  const double EndAt = Run(false, 0, nullptr);
  std::vector<unsigned> Out;
  [[maybe_unused]] const double T = Run(true, EndAt, &Out);
  for (unsigned P = 0; P < N; ++P)
    NumCoveredReductions += M.Insts[Insts[P]].Kind == InstKind::LDSOther;
  LLVM_DEBUG(dbgs() << "amdgpu-pingpong: cover-reductions: " << N
                    << " instructions, one wave's issue ~" << unsigned(T)
                    << " clocks (" << unsigned(EndAt)
                    << " without P V's reads)\n");
  return Out;
}

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
    if (Cl.CoverReductions && End > Begin) {
      // Every instruction its own group: the fences hold the order.
      std::vector<unsigned> Ordered =
          coverReductionsOrder(M, G, Plan, Begin, End);
      for (unsigned P = Begin; P < End; ++P) {
        Plan.Order[P] = Ordered[P - Begin];
        Plan.GroupOf[Plan.Order[P]] = P - Begin;
      }
      NumInterleaveGroups += End - Begin;
      Begin = End;
      continue;
    }
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
