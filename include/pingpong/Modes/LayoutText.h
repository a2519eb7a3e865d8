//===- LayoutText.h - a mode's clusters as data, and their text -*- C++ -*-===//
//
// A layout names the clusters of one loop iteration, in order, and which
// instructions each takes: selectors over the loop model's roles (role,
// operand, dot group, slice of the dot order). Instructions no selector takes are placed
// by dependences (planClusters). The same layout has a text form, versioned,
// which the mode files are written in and which loop metadata can carry:
//
//   pingpong-layout v1; sync barrier asymmetric delay-global-data;
//   mem mem0: local-read; mem+ mem0.global: global-load;
//   dot dot0: dot[0/2]; mem mem1: local-write; dot dot1: dot[1/2]
//
// Clauses are separated by ';'. `sync` lists the layout's flags: `barrier`
// (s_barrier with the LDS drained between clusters; replaces the loop's own
// barriers), `asymmetric` (waves 4-7 one cluster behind), `delay-global-data`
// (VALU on global-load data goes with its users), `gate` (each dot cluster's
// first MFMA at s_setprio 1, the rest at 2: a wave enters its dot only when
// the other wave of its SIMD is out of its own), `dot-waits` (no LDS drain
// before a dot that no barrier precedes: its MFMAs wait for their own
// operands), `mem-priority` (memory clusters at s_setprio 1, dot clusters at
// 0: the chained-dot mode, whose dot clusters carry VALU work too, so a dot
// at high priority would take the VALU issue slots from the other wave's
// address arithmetic; excludes `gate`), `operand-waits` (each LDS DMA waited
// for before its own operand's first read, not every read's; without
// `barrier` the loop keeps its own waits and the post-RA wait placement,
// PingpongWaits, relaxes each vmcnt to the largest count the checker proves
// safe). A cluster
// clause is
// `mem|mem+|dot NAME: SELECTOR, ...`; `mem+` continues the cluster before it
// (only a scheduling fence between them). A selector is a role (`local-read`,
// `local-write`, `global-load`, `side-load`, `dot`, `operand-prep`,
// `inter-dot`, `async-copy`, `direct-load`, `acc-prep`, `exchange-write`,
// `exchange-read`; the exchanges are a dot group's results through LDS and
// back in the same iteration (LoopModel.h); a side-load is a global load VALU
// combines with an operand read from LDS, e.g. a scale vector; an async-copy
// is an LDS DMA; a direct-load an operand loaded straight into registers),
// optionally `.a`/`.b` for the operand,
// optionally `~N` for the pipeline stage (writes, DMA and prefetching loads
// whose data is read N iterations later, e.g. `async-copy~2` at three stages),
// optionally `@G` for dot group G
// (chained dots: `dot@0` is Q K^T, `dot@1` P V, `local-read@1` the reads of
// P V's operands, `local-write@0` the writes that fill Q K^T's buffers,
// `inter-dot@0` the softmax VALU on group 0's results), optionally `[i/S]`
// or `[i-j/S]`: slices i..j of S equal parts of the dot order (K step, then
// accumulator; over all groups). The first cluster with a matching selector
// takes an instruction.
//
// A cluster's name may be followed by its own sync policy, overriding the
// flags for that cluster: `prio=N` (s_setprio N, 0-3) and `drain=lds|none`
// (force the LDS drain at its end, or leave it out where no barrier
// follows), e.g. `mem m1 prio=2: local-read@1` in an attention layout whose
// second memory cluster must win over the other wave's softmax.
//
// `interleave NAME: KIND N, KIND N, ...` orders the instructions inside the
// cluster NAME (declared before it): groups of N instructions of each KIND
// (mfma, valu, salu, trans, vmem-read, vmem-write, ds-read, ds-write), in
// turn, the pattern repeated until the cluster's instructions of those kinds
// are used up; or `interleave NAME: cover-reductions`, an order the plan
// computes (Cluster::CoverReductions). It is emitted as AMDGPU's SCHED_GROUP_BARRIERs at the end of
// the cluster, so LLVM's own scheduler (IGroupLP) builds the order inside
// the cluster instead of the layout rejecting a mixed cluster; e.g. Triton's
// async two-cluster mode: `interleave dot0: mfma 1, salu 3`.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_MODES_LAYOUTTEXT_H
#define PINGPONG_MODES_LAYOUTTEXT_H

#include "pingpong/Modes/Modes.h"
#include "pingpong/Modes/Roles.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace pingpong {

struct InstInfo; // Analysis/LoopModel.h: matching is the plugin's (Layout.h)

enum class ClusterKind { Mem, Dot };

struct Selector {
  Role R = Role::Other;
  std::optional<Operand> Op; // none: any operand
  std::optional<unsigned> Group; // dot group (chained dots); none: any
  /// Pipeline stage: iterations between an LDS write / LDS DMA / prefetching
  /// load and the reads of its data (InstInfo::StagesAhead); none: any.
  std::optional<unsigned> Stage;
  /// Exchange step (InstInfo::ExchangeStep, from 1); none: any.
  std::optional<unsigned> Step;
  unsigned Slices = 0;       // 0: any slice
  unsigned First = 0, Last = 0;
  bool matches(const InstInfo &I, unsigned NumDots) const;
};

/// One group of an interleave pattern: Size instructions of the kinds in
/// Mask (AMDGPU's sched_group_barrier mask bits).
struct InterleaveGroup {
  unsigned Mask = 0;
  unsigned Size = 0;
};
/// The sched_group_barrier mask of an interleave kind name, 0 if unknown.
unsigned interleaveMask(llvm::StringRef Kind);
/// The kind name of a mask built by interleaveMask.
const char *interleaveKindName(unsigned Mask);
/// A cluster's own sync policy, where it departs from the layout's flags
/// (text: attributes after the cluster's name, `mem m0 prio=1 drain=lds:`).
struct ClusterSync {
  /// `prio=N` (0-3): the cluster runs at s_setprio N (gated dots: the first
  /// MFMA at N, the rest at N+1). None: from the flags (dot 1, memory 0;
  /// mem-priority: memory 1, dot 0).
  std::optional<unsigned> Priority;
  /// `drain=lds`: drain LDS at the cluster's end even where the flags would
  /// not (no barrier, or dot-waits). `drain=none`: no drain before the next
  /// cluster, the per-cluster dot-waits; only where no barrier follows (the
  /// other wave group could otherwise race on what this cluster touched).
  std::optional<bool> Drain;
  bool empty() const { return !Priority && !Drain; }
};

struct Cluster {
  ClusterKind Kind;
  std::string Name;
  /// Continues the cluster before it (same kind): only a scheduling fence
  /// between them, no barrier, wait or priority change. Fixes an order
  /// inside a memory cluster (e.g. LDS reads before global loads, so the
  /// LDS port starts first and the loads issue in its shadow).
  bool Joined = false;
  std::vector<Selector> Takes;
  /// Order inside the cluster (`interleave` clause); empty: none.
  std::vector<InterleaveGroup> Interleave;
  /// `interleave NAME: cover-reductions` (instead of groups): the plan orders
  /// the cluster as one wave would issue it fastest, the latency of each
  /// cross-lane LDS op (the softmax's ds_bpermute/ds_swizzle row reductions)
  /// covered by the cluster's work that does not wait for it, and its LDS
  /// reads at the rate the SIMD pair's port serves them (orderInterleaves).
  bool CoverReductions = false;
  ClusterSync Sync;
};

/// What a mode asks for; built from its text by the per-mode files.
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
  /// out the global latency. Measured in the model: a gain in every mode;
  /// one-cluster needs the gate with it, or its waves stop alternating.
  bool DelayGlobalDataUse = false;
  /// A dot cluster's first MFMA issues at priority 1, the rest at 2 (memory
  /// clusters at 0): while the other wave of the SIMD runs its dot at 2, an
  /// MFMA at 1 loses every arbitration for the MFMA pipe, so a wave starts
  /// its dot only once the other's has issued its last MFMA; at 1 it still
  /// wins against the other's memory work. Paces two waves without a
  /// barrier (one-cluster: they are of two workgroups).
  bool GateDotEntry = false;
  /// No LDS drain before a dot cluster that no barrier precedes: LLVM's
  /// SIInsertWaitcnts waits for each LDS read before its first MFMA, so the
  /// dot starts on its first operands and the rest land during it.
  bool WaitsInDot = false;
  /// Memory clusters at priority 1, dot clusters at 0 (Triton's chained-dot
  /// schedule): when both waves of a SIMD have VALU work (the softmax in the
  /// dot clusters), the memory cluster's address arithmetic and LDS traffic
  /// win the issue slots, while the MFMAs, on their own pipe, lose nothing.
  bool MemPriority = false;
  /// LDS DMA waits per operand (`operand-waits`): each DMA is due before the
  /// first read of its own operand (A with the A-scale) and may refill after
  /// that operand's last read, instead of every read's; vmcnt in issue order
  /// then leaves the later operand's copies in flight (the skinny mode).
  /// Without barriers (4 waves) the loop's own waits stay and are relaxed
  /// after LLVM's wait insertion (PingpongWaits, the checker as oracle).
  bool OperandWaits = false;
  /// `latency`: AMDGPU's pre-RA machine scheduler, which orders the inside
  /// of each cluster (SCHED_BARRIER 0 and s_setprio end its regions), orders
  /// for latency (amdgpu-sched-strategy=max-ilp on the function) instead of
  /// occupancy, for layouts whose waves per SIMD the registers fix anyway
  /// (Emit: askLatencyScheduling; a strategy the user named stands).
  bool LatencyInsideClusters = false;
  /// `results-next-dot`: VALU without a role on a dot cluster's MFMA results
  /// (a block scale applied to the dot's result, its accumulation) goes to
  /// the next dot cluster, among that dot's MFMAs, instead of the next
  /// memory cluster; with none after it, the default (planClusters).
  bool ResultsNextDot = false;
  /// `delay-copy-address`: instructions without a role whose every use in
  /// the iteration is an LDS DMA copy (or another such instruction: the
  /// copies' M0 sums, their address and mask selects) go to the memory
  /// cluster of the copies rather than the first cluster their inputs
  /// allow. Where every read sits in the first memory interval and the
  /// copies in a later one (the copies-ahead layouts), the first interval
  /// paces the iteration and the later one has room.
  bool DelayCopyAddress = false;
  /// `delay-write-address`: the same for LDS writes of register-staged
  /// loads: instructions without a role whose every use in the iteration is
  /// an LDS write (or another such instruction: the writes' address sums) go
  /// to the writes' memory cluster rather than the first cluster their
  /// inputs allow, so their registers are not live across the dot (session
  /// 25, regbudget: the register-lean single-wave order held to two waves).
  bool DelayWriteAddress = false;
  /// `address-in-dot`: instructions without a role whose values reach one
  /// global load only (its address arithmetic, bounds compares, mask select:
  /// an SCC order alone is no use), for the later half of the iteration's
  /// global loads, go to the last dot cluster before the loads rather than
  /// the first cluster their inputs allow, among the MFMAs. Where that work
  /// outweighs the dot (im2col addresses of a convolution) the memory
  /// cluster holding all of it faces the other group's dot and paces the
  /// iteration; split, each half faces the other (planClusters).
  bool AddressInDot = false;
  /// `advances-in-dot`: VALU without a role whose value only reaches the
  /// back edge (each load offset's advance for the next iteration, through
  /// the latch copy into the header PHI) goes among the MFMAs, spread over
  /// the dot clusters its inputs and users allow in program order, rather
  /// than the first cluster its inputs allow. It costs no register (the old
  /// offset dies where its advance is), and the MFMAs' pipe clocks cover
  /// its issue (session 26, leangemm: the grouped GEMM's 64 advances a wave
  /// ran as one block before the dot).
  bool AdvancesInDot = false;
  /// `side-loads-early`: a dot result's side input loaded an iteration
  /// ahead (the scale loads) no longer follows the last reader of the
  /// register it refills (DepGraph::SideStaging); it goes where its
  /// selector puts it, and the header PHI takes a latch copy, which waits
  /// for the load at the end of the iteration. Where the readers span the
  /// iteration (the scaling of each slice's results), the load otherwise
  /// issues after the last of them and is waited for by the first of the
  /// next iteration: its round trip in the wave's path.
  bool SideLoadsEarly = false;
  /// Dots of the loop, for slice selectors.
  unsigned NumDots = 0;
  /// Why a mode picked this variant of its layouts (the applied remark
  /// says it); empty for a mode's only layout and for custom layouts.
  std::string Note;

  /// Cluster for an instruction with a role, or -1 to let dependences decide.
  int desired(const InstInfo &I) const;
  /// The s_setprio cluster C runs at: its own `prio=` or the flags'.
  unsigned priority(unsigned C) const;
  /// Whether an s_barrier follows cluster C (none after a cluster continued
  /// by `mem+`, nor after the last one).
  bool barrierAfter(unsigned C) const;
  /// The text form (parseLayout(print()) gives the same layout).
  std::string print() const;
};

/// Parse the text form for a loop with NumDots MFMAs. On error: nullopt and
/// Error names the clause and what was expected.
std::optional<ClusterLayout> parseLayout(llvm::StringRef Text, unsigned NumDots,
                                         std::string &Error);

} // namespace pingpong
#endif
