//===- Listeners.h - pingpong-sim: events of the run and who records them -===//
//
// The pipeline (Pipeline.cpp) only runs the waves; everything that is
// counted or drawn is a listener on its events, as in llvm-mca's
// HWEventListener: an instruction issued (with its unit's timing: bytes,
// L2 hit, the clock its result is ready or its counter operation completes),
// a wave stalled at its turn (and why), a loop iteration started, a branch
// decided on data the model does not know. The listeners below turn them
// into the report's statistics (stalls, per-cluster cycles, MFMA busy, loop
// loads), the timeline, verify's traces and the warnings about branches.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SIM_LISTENERS_H
#define PINGPONG_SIM_LISTENERS_H

#include "pingpong/Sim/Sim.h"

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ppsim {

// A wave issued an instruction at its turn.
struct IssueEvent {
  int Wave = 0;                 // global wave id (workgroup * waves per workgroup + wave)
  int Simd = 0;
  unsigned Pc = 0;
  const Inst *In = nullptr;
  int64_t T = 0;                // issue clock
  int64_t Busy = 0;             // clocks the wave is busy with it (an MFMA: its pipe cycles)
  bool InLoop = false;          // in the hot loop's body
  double Bytes = 0;             // VMEM / LDS: bytes moved (active lanes x bytes per lane)
  bool L2Hit = false;           // VMEM load: served by L2
  int64_t Ready = 0;            // its result is usable / its counter operation completes
  const LdsBytes *Lds = nullptr; // the LDS bytes it touches (only when traces are recorded)
  const LdsLanes *Lanes = nullptr; // its lane addresses (only when lane addresses are recorded)
};

// A wave could not issue at its turn.
struct StallEvent {
  int Wave = 0;
  int64_t T = 0, Clocks = 0;
  Stall Why = StNop;
};

// A conditional branch whose direction the model chose itself (not from a
// known condition).
struct BranchEvent {
  enum Kind {
    FreeChoice,   // data-dependent: the way that reaches the goal (loop, then the end)
    LoopExitTest, // data-dependent exit of the hot loop: stays while iterations are left
    OuterLoop,    // after the iterations: not back around a loop enclosing the hot loop
  } K = FreeChoice;
  const Inst *In = nullptr;
  bool Taken = false;
  bool Both = false;        // FreeChoice: both directions reach the goal
  bool Planned = false;     // FreeChoice: the path search decided it
  bool GoalIsEnd = false;   // FreeChoice: the goal is the kernel's end (the loop ran)
  bool Stays = false;       // LoopExitTest: the direction taken stays in the loop
  int Cond = -1;            // OuterLoop: the condition as the model knows it (-1: unknown)
};

class SimListener {
public:
  // The events a listener receives (the pipeline calls only those).
  enum Events : unsigned { Issue = 1, Stalls = 2, Iterations = 4, Branches = 8 };
  virtual ~SimListener() = default;
  virtual unsigned events() const = 0;
  virtual void onIssue(const IssueEvent &) {}
  virtual void onStall(const StallEvent &) {}
  // Wave started an iteration of the hot loop at T (or, once, left it after
  // its last iteration: the end mark of the last iteration).
  virtual void onIteration(int Wave, int64_t T) {}
  virtual void onBranch(int Wave, const BranchEvent &) {}
  // Wave executed a data-dependent exec branch into guarded code assuming
  // every lane active before the guard (a uniform condition).
  virtual void onUniformExecAssumed(int Wave, const Inst &) {}
};

//===-- The listeners -----------------------------------------------------===//

// Issue stalls by cause: whole run and, given each wave's steady-state
// window, inside it.
class StallAccounting : public SimListener {
public:
  unsigned events() const override { return Stalls; }
  explicit StallAccounting(size_t Waves) : Total(Waves), Spans(Waves) {}
  void onStall(const StallEvent &E) override;
  const std::array<int64_t, NumStalls> &total(int W) const { return Total[W]; }
  // Stall clocks of wave W inside [Begin, End), by cause.
  std::array<int64_t, NumStalls> inWindow(int W, int64_t Begin, int64_t End) const;

private:
  std::vector<std::array<int64_t, NumStalls>> Total;
  std::vector<std::vector<Segment>> Spans; // stall intervals (Kind = Stall), adjacent ones merged
};

// When each wave starts each iteration of the hot loop.
class IterationTimes : public SimListener {
public:
  unsigned events() const override { return Iterations; }
  explicit IterationTimes(size_t Waves) : Starts(Waves) {}
  void onIteration(int W, int64_t T) override { Starts[W].push_back(T); }
  const std::vector<int64_t> &starts(int W) const { return Starts[W]; }

private:
  std::vector<std::vector<int64_t>> Starts;
};

// What --timeline draws for each wave: bars per category (issues) and per
// stall cause, merged where they touch.
class TimelineRecorder : public SimListener {
public:
  unsigned events() const override { return Issue | Stalls; }
  explicit TimelineRecorder(size_t Waves) : Segs(Waves) {}
  void onIssue(const IssueEvent &E) override;
  void onStall(const StallEvent &E) override;
  std::vector<Segment> &segments(int W) { return Segs[W]; }

private:
  void add(int W, int64_t B, int64_t E, int Kind);
  std::vector<std::vector<Segment>> Segs;
};

// The XDL pipe's busy intervals per SIMD, and its busy share of a window.
class MfmaBusy : public SimListener {
public:
  unsigned events() const override { return Issue; }
  explicit MfmaBusy(int Simds) : Busy(Simds) {}
  void onIssue(const IssueEvent &E) override;
  // Busy clocks of SIMD S inside [Begin, End).
  double busyIn(int S, int64_t Begin, int64_t End) const;
  // Pipe clocks of the MFMAs wave W (global id) issued inside [Begin, End).
  double issuedBy(int W, int64_t Begin, int64_t End) const;
  std::vector<std::vector<std::pair<int64_t, int64_t>>> &intervals() { return Busy; }

private:
  std::vector<std::vector<std::pair<int64_t, int64_t>>> Busy;
  std::vector<std::vector<std::pair<int64_t, int64_t>>> ByWave; // issue clock, pipe clocks
};

// Where each wave's time goes in the hot loop: the clusters (split at
// s_setprio, s_barrier and '; sched_barrier' lines). The time between two
// issues is charged to the cluster of the instruction that issues second.
class ClusterStats : public SimListener {
public:
  unsigned events() const override { return Issue; }
  ClusterStats(size_t Waves, const std::vector<int> &ClusterOf) : ClusterOf(ClusterOf), Issues(Waves) {}
  void onIssue(const IssueEvent &E) override { Issues[E.Wave].push_back({E.T, E.Pc}); }
  // Wave W's clocks per iteration in each cluster, over its window (A, E]
  // of Iterations iterations, and the clocks where it enters a cluster.
  void finish(int W, int64_t A, int64_t E, int Iterations, size_t Clusters, std::vector<double> &Time,
              std::vector<std::pair<int64_t, int>> &Starts) const;

private:
  const std::vector<int> &ClusterOf; // per instruction: its cluster, -1 outside the loop
  std::vector<std::vector<std::pair<int64_t, unsigned>>> Issues; // per wave: (clock, pc)
};

// VMEM loads issued by the hot loop's body: bytes, count, L2 hits.
class LoopLoads : public SimListener {
public:
  unsigned events() const override { return Issue; }
  void onIssue(const IssueEvent &E) override;
  int64_t Bytes = 0, Loads = 0, L2Hits = 0;
};

// What the issued instructions ask of each shared unit (docs/cycle-model.md,
// "Resource bound"): clocks of the unit each issue occupies, with its issue
// clock, so the steady state can sum them inside its window. A unit's demand
// per iteration is a floor no order of the same instructions gets under.
class UnitDemand : public SimListener {
public:
  unsigned events() const override { return Issue; }
  UnitDemand(const TargetParams &TP, size_t Waves);
  void onIssue(const IssueEvent &E) override;
  // Unit names, and the clocks each was asked for by issues in [Begin, End).
  const std::vector<std::string> &names() const { return Names; }
  std::vector<double> inWindow(int64_t Begin, int64_t End) const;

private:
  struct Use { int64_t T; int Unit; double Clocks; };
  const TargetParams &TP;
  std::vector<std::string> Names;
  std::vector<Use> Uses;
  int Xdl, IssueVM, IssueLds, IssueVmem, IssueSalu, LdsPort, L2, Hbm, WaveIssue;
};

// verify: every wave's executed instruction stream and the LDS bytes of its
// LDS accesses; addresses: their lane addresses too (Lanes, parallel to Lds).
class TraceRecorder : public SimListener {
public:
  unsigned events() const override { return Issue; }
  explicit TraceRecorder(size_t Waves) : Trace(Waves), Lds(Waves), Lanes(Waves) {}
  void onIssue(const IssueEvent &E) override;
  std::vector<std::vector<TraceStep>> Trace;
  std::vector<std::vector<LdsBytes>> Lds;
  std::vector<std::vector<LdsLanes>> Lanes;
};

// Instructions the model does not know, each reported once.
class UnknownInstructions : public SimListener {
public:
  unsigned events() const override { return Issue; }
  void onIssue(const IssueEvent &E) override;
  std::vector<std::string> Lines;

private:
  std::set<unsigned> Seen;
};

// The warnings about branches the model decided itself: one line per branch
// and reason, with a count.
class BranchNotes : public SimListener {
public:
  unsigned events() const override { return Branches; }
  void onBranch(int Wave, const BranchEvent &E) override;
  void onUniformExecAssumed(int Wave, const Inst &In) override;
  void finish(std::vector<std::string> &Warnings) const;

private:
  std::map<std::string, int> Notes;
};

} // namespace ppsim

#endif
