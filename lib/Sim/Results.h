//===- Results.h - pingpong-sim: what a run measured -----------------------===//
//
// After the clock loop: how many iterations each wave ran (never a silent
// result), and the steady state of docs/cycle-model.md's rules "Steady
// state" and "Several workgroups" from what the listeners recorded.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SIM_RESULTS_H
#define PINGPONG_SIM_RESULTS_H

#include "Listeners.h"
#include "Pipeline.h"

namespace ppsim {

// The listeners a run result is made of (null: not recorded in this mode).
struct Recorders {
  IterationTimes *Iterations = nullptr;
  StallAccounting *Stalls = nullptr;
  TimelineRecorder *Timeline = nullptr;
  MfmaBusy *Mfma = nullptr;
  UnitDemand *Units = nullptr;
  ClusterStats *Clusters = nullptr;
  TraceRecorder *Trace = nullptr;
};

// R.ItersLine / ItersMsg / ItersShort and each wave's Iters, Visits, Why.
void summariseIterations(const std::vector<WaveState> &Waves, int N, unsigned HeaderLine, SimResult &R);

// Cycles per iteration, the window, MFMA busy %, and per wave its
// steady-state stalls and cluster times. False (E) when a wave's iterations
// do not cover the window.
bool steadyState(const std::vector<WaveState> &Waves, const Recorders &Rec, const TargetParams &TP, int N,
                 int WavesPerWg, SimResult &R, SimError &E);

} // namespace ppsim

#endif
