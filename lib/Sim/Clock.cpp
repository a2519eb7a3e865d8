//===- Clock.cpp - pingpong-sim: the engine clock of a run ----------------===//
//
// docs/cycle-model.md, "Engine clock under the power limit": the peak, a given clock, or the clock
// under the power limit at the loop's MFMA busy (Params.h).
//
//===----------------------------------------------------------------------===//
#include "pingpong/Sim/Sim.h"

#include <algorithm>
#include <cmath>

namespace ppsim {

bool simulateAtClock(const Program &P, const SimOptions &O, ClockRule Rule, double GivenGHz,
                     SimResult &R, SimError &E) {
  SimOptions SO = O;
  SO.ClockGHz = Rule == ClockRule::Given ? GivenGHz : 0;
  R = SimResult();
  bool Ran = simulate(P, SO, R, E);
  R.ClockRule = Rule == ClockRule::Given ? "given" : "peak";
  const TargetParams &TP = paramsFor(P.Mcpu);
  if (Ran && Rule == ClockRule::Power) {
    // The clock depends on the MFMA busy and the busy on the clock (HBM time
    // in clocks): a fixed point, reached in two or three runs.
    double Ghz = TP.ClockGHz;
    for (int Step = 0; Ran && Step < 6; ++Step) {
      double Next = powerLimitedClockGHz(TP, R.MfmaBusyPct / 100.0);
      if (std::fabs(Next - Ghz) < 0.002 * TP.ClockGHz) break;
      Ghz = Next;
      SO.ClockGHz = Ghz;
      R = SimResult();
      Ran = simulate(P, SO, R, E);
    }
    R.ClockRule = TP.LoadedClockGHz <= 0      ? "peak: no clock under load sourced for " + R.Mcpu
                  : R.ClockGHz < TP.ClockGHz ? "power-limited at this MFMA busy"
                                             : "peak: under the power limit at this MFMA busy";
  }
  if (Ran) {
    // time at the bound and at the floor, each at the clock its own MFMA busy gives
    auto NsAt = [&](double Cycles) {
      if (Cycles <= 0) return 0.0;
      double Ghz = R.ClockGHz;
      if (Rule == ClockRule::Power)
        Ghz = std::min(Ghz, powerLimitedClockGHz(TP, std::min(1.0, R.MfmaBusyPct / 100.0 * R.CyclesPerIter / Cycles)));
      return Cycles / Ghz;
    };
    R.BoundNsPerIter = NsAt(R.ResourceBound);
    R.FloorNsPerIter = NsAt(R.Floor.Floor);
  }
  return Ran;
}

} // namespace ppsim
