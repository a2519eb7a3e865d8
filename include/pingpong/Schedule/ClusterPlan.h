//===- ClusterPlan.h - the order a mode asks for ----------------*- C++ -*-===//
//
// The strategy half: a mode names its clusters and where each role goes
// (a ClusterLayout); planClusters() places every other instruction as the
// dependence graph allows and yields the new order (a ClusterPlan).
// Emission (Emit/) turns a plan into instructions.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SCHEDULE_CLUSTERPLAN_H
#define PINGPONG_SCHEDULE_CLUSTERPLAN_H

#include "pingpong/Analysis/Directives.h"
#include "pingpong/Analysis/LoopModel.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pingpong {
struct DepGraph;

enum class ClusterKind { Mem, Dot };

struct Cluster {
  ClusterKind Kind;
  std::string Name;
  /// Continues the cluster before it (same kind): only a scheduling fence
  /// between them, no barrier, wait or priority change. Fixes an order
  /// inside a memory cluster (e.g. LDS reads before global loads, so the
  /// LDS port starts first and the loads issue in its shadow).
  bool Joined = false;
};

/// What a mode asks for; built by the per-mode files.
struct ClusterLayout {
  Mode M = Mode::Off;
  std::vector<Cluster> Clusters;
  /// 8-wave modes: s_barrier between clusters and the asymmetric sync that
  /// shifts waves 4-7 one cluster behind waves 0-3. They replace the loop's
  /// own barriers and fences.
  bool BarrierBetweenClusters = false;
  bool AsymmetricSync = false;
  /// Instructions without a role that use this iteration's global-load data
  /// (v_perm/pack before an LDS write) go to the memory cluster of their
  /// users rather than the first one after the load, where they would wait
  /// out the global latency. Measured in the model: a gain for the 8-wave
  /// modes (barrier-paced), a loss for one-cluster (docs/modes.md).
  bool DelayGlobalDataUse = false;
  /// Cluster for an instruction with a role, or -1 to let dependences decide.
  std::function<int(const InstInfo &)> Desired;
};

struct ClusterPlan {
  ClusterLayout Layout;
  std::vector<unsigned> ClusterOf; // per LoopModel::Insts index
  std::vector<unsigned> Order;     // new order, indices into LoopModel::Insts
  unsigned count(unsigned C, Role R, const LoopModel &M) const;
  /// "mem0 6, dot0 16, ..." for remarks.
  std::string describe(const LoopModel &M) const;
};

/// Common precondition of the 8-wave modes: Slices divides the K steps of an
/// iteration, and the workgroup has the 8 waves the asymmetric sync pairs up.
bool canSliceAcrossWaveGroups(const LoopModel &M, unsigned Slices, Mode Md,
                              Rejection &Why);

/// The three layouts Triton's BlockPingpong uses (one file each). They fail
/// (nullopt + Why) when the loop cannot be cut that way.
std::optional<ClusterLayout> layoutOnePP(const LoopModel &M, Rejection &Why);
std::optional<ClusterLayout> layoutTwoPP(const LoopModel &M, Rejection &Why);
std::optional<ClusterLayout> layoutFourPP(const LoopModel &M, Rejection &Why);
std::optional<ClusterLayout> layoutFor(Mode Md, const LoopModel &M,
                                       Rejection &Why);

/// Place every instruction in a cluster, respecting the graph.
std::optional<ClusterPlan> planClusters(const LoopModel &M, const DepGraph &G,
                                        ClusterLayout Layout, Rejection &Why);

/// LDS-DMA loops (seed 002 "hack0"): an order that issues each LDS DMA, with
/// the instructions it needs, at the start of its barrier interval, i.e.
/// right after the barrier (and its wait) that frees the buffer it fills.
/// Moved counts the DMA instructions that move; nullopt if none would.
std::optional<std::vector<unsigned>> hoistLDSDMAOrder(const LoopModel &M,
                                                      const DepGraph &G,
                                                      unsigned &Moved);

/// Triton's tile-size thresholds (M*N*K*elemBits of the workgroup tile).
namespace tile {
constexpr uint64_t Min = 262144, Small = 16777216, Medium = 33554432,
                   Large = 67108864;
}

/// Auto selection: the modes worth trying for this loop, best first, or the
/// reason none applies. Register pressure is checked by the caller.
std::vector<Mode> candidateModes(const LoopModel &M, Rejection &Why);

} // namespace pingpong
#endif
