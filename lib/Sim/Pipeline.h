//===- Pipeline.h - pingpong-sim: the clock loop ---------------------------===//
//
// Runs every wave of the CU clock by clock: at each clock one SIMD has its
// issue turn (IssueArbiter); each of its waves, in arbitration order, issues
// its next instruction if the units let it (scoreboard, wait counters,
// barrier, MFMA pipe, category slot) or records a stall. Issued instructions
// go to their unit (LDS port, memory path, MFMA pipe, counters), their values
// to the value tracker, branches to the Flow rules; listeners see every
// event.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SIM_PIPELINE_H
#define PINGPONG_SIM_PIPELINE_H

#include "Flow.h"
#include "HardwareUnits.h"
#include "Listeners.h"
#include "Values.h"

#include <memory>
#include <vector>

namespace ppsim {

// One wave: where it is, what it waits for, what its registers hold.
struct WaveState {
  WaveState(int Wg, int Id, int Gid, int Simd, size_t RegUnits)
      : Wg(Wg), Id(Id), Gid(Gid), Simd(Simd), Ready(RegUnits) {}
  int Wg, Id, Gid, Simd; // workgroup, wave in it, global id (age: lower is older), SIMD
  unsigned Pc = 0;
  int Prio = 0;            // s_setprio
  bool Done = false;
  int64_t NotBefore = 0;   // s_nop / s_sleep / barrier release: no issue before
  Stall NotBeforeWhy = StNop;
  int64_t EndTime = 0;
  int64_t Issued = 0;
  Scoreboard Ready;
  WaitCounters Counters;
  WaveValues Val;
  LoopProgress Loop;
  std::vector<char> Plan;  // the path search's directions of free decisions, in order
  size_t PlanPos = 0;
};

class Pipeline {
public:
  Pipeline(const Program &P, const KernelInfo &K, const Flow &F, const SimOptions &O, const TargetParams &TP,
           std::vector<WaveState> &Waves, SimResult &R);
  void addListener(SimListener *L) {
    unsigned E = L->events();
    if (E & SimListener::Issue) OnIssue.push_back(L);
    if (E & SimListener::Stalls) OnStall.push_back(L);
    if (E & SimListener::Iterations) OnIteration.push_back(L);
    if (E & SimListener::Branches) OnBranch.push_back(L);
  }
  // Computes the LDS bytes of every LDS access (verify's traces).
  void recordLdsBytes() { WantLds = true; }
  // ... and their lane addresses (pingpong-sim addresses).
  void recordLdsLanes() { WantLds = WantLanes = true; }
  // Runs until every wave ended. False with E on a hang, an endless loop or
  // an instruction it cannot follow.
  bool run(SimError &E);
  int64_t clock() const { return Clock; }

private:
  // One wave at its SIMD's turn: issues or stalls. False on an error.
  bool step(WaveState &W, int64_t T, IssueArbiter::Turn &Turn, SimError &E);
  // s_waitcnt, s_barrier, s_setprio, s_nop, s_sleep, s_endpgm: false if the
  // wave must wait (the stall is recorded).
  bool issueInternal(WaveState &W, const Inst &In, int64_t T);
  // Why an instruction that needs a unit cannot issue now, if it cannot.
  std::optional<Stall> blocked(WaveState &W, const Inst &In, int64_t T, IssueArbiter::Turn &Turn) const;
  // The instruction's work in its unit; fills the event's timing.
  void execute(WaveState &W, const Inst &In, int64_t T, IssueEvent &Ev);
  // The direction of a branch (Flow rules, the path search's plan) and the
  // next pc. False on an error.
  bool branch(WaveState &W, unsigned Pc, const Inst &In, unsigned &Next, SimError &E);
  void stall(WaveState &W, int64_t T, Stall Why);
  void end(WaveState &W, int64_t T);

  const Program &P;
  const KernelInfo &K;
  const Flow &F;
  const SimOptions &O;
  const TargetParams &TP;
  std::vector<WaveState> &Waves;
  SimResult &R;
  std::vector<SimListener *> OnIssue, OnStall, OnIteration, OnBranch; // by the events they receive
  bool WantLds = false, WantLanes = false;
  int64_t Clock = 0;
  int Live = 0;
  // the CU's shared units
  IssueArbiter Arbiter;
  MfmaPipe Mfma;
  LdsPorts Lds;
  MemoryPath Memory;
  std::unique_ptr<BarrierUnit> Barriers;
};

} // namespace ppsim

#endif
