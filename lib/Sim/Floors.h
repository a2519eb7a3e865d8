//===- Floors.h - pingpong-sim: the latency floors of a loop ---------------===//
//
// Beside the resource bound (the busiest unit, Listeners.h UnitDemand), two
// latency floors of the hot loop (docs/cycle-model.md, "Latency floor"):
//  - the dependence chain: the longest loop-carried chain of true register
//    dependences (read after write) through one iteration's instructions, each
//    instruction's result latency from the model's own parameters (Params.h);
//    any order of the same instructions, on any number of units, needs at
//    least that per iteration;
//  - memory in flight (Little's law): a wave can have at most X requests of
//    a counter (vmcnt: VMEM, lgkmcnt: LDS and SMEM) outstanding, given its
//    s_waitcnt; each request is in flight for at least its level's latency,
//    so an iteration that issues requests of summed latency S takes at least
//    S / X clocks.
// and a third kind, the barrier-drain bound (docs/cycle-model.md, "Barrier-
// drain bound"): where every wave on a SIMD pair reaches a loop s_barrier
// with its LDS operations drained (an s_waitcnt lgkmcnt(0) after its last LDS
// issue), the pair's LDS port idles across that barrier from the end of its
// last transfer before it until the first transfer after it: that op
// completes LdsLatency after its transfer starts, its wave's wait passes no
// earlier, the s_barrier takes the wave's next issue turn, and no wave issues
// past the barrier before the turn after its release -- at least LdsLatency
// + 2 turns - the largest LDS op's port clocks. Counted once per barrier with
// an LDS op of the pair since the last counted one (the gaps are disjoint)
// and only with one workgroup on the CU (another's ops could fill the gap).
// The largest of the floors and the resource bound is the loop's floor; the
// report says which binds.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SIM_FLOORS_H
#define PINGPONG_SIM_FLOORS_H

#include "Listeners.h"

namespace ppsim {

// Every wave's issues (clock, pc, L2 hit) for the floors.
class IssueLog : public SimListener {
public:
  unsigned events() const override { return Issue; }
  explicit IssueLog(size_t Waves) : Log(Waves) {}
  void onIssue(const IssueEvent &E) override { Log[E.Wave].push_back({E.T, E.Pc, E.L2Hit, E.Bytes}); }
  struct Entry { int64_t T; unsigned Pc; bool L2Hit; double Bytes; };
  std::vector<std::vector<Entry>> Log;
};

// Fills R.Floor* from the waves' issues and their iteration starts
// (R.Waves[w].IterStart, R.Warmup, R.LastIter must be set).
void latencyFloors(const Program &P, const TargetParams &TP, const IssueLog &Log, SimResult &R);

} // namespace ppsim

#endif
