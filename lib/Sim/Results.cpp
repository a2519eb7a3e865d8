//===- Results.cpp - pingpong-sim: what a run measured ---------------------===//
//
// See Results.h.
//
//===----------------------------------------------------------------------===//
#include "Results.h"

#include <algorithm>
#include <climits>
#include <cstdio>

namespace ppsim {

namespace {
std::string formatCpi(int G, double C) {
  char Buf[64];
  snprintf(Buf, sizeof Buf, " wg%d %.1f", G, C);
  return Buf;
}
} // namespace

void summariseIterations(const std::vector<WaveState> &Waves, int N, unsigned HeaderLine, SimResult &R) {
  bool Same = true;
  // waves with the same count and reason are listed together
  std::vector<std::pair<std::string, std::vector<int>>> Short;
  for (size_t X = 0; X < Waves.size(); ++X) {
    const WaveState &W = Waves[X];
    WaveResult &WR = R.Waves[X];
    WR.Iters = W.Loop.Iters;
    WR.Visits = W.Loop.Visits;
    if (W.Loop.Iters < N) {
      R.ItersShort = true;
      std::string Why = W.Loop.Why;
      if (Why.empty()) Why = W.Loop.Visits ? "it left the loop early" : "it never entered the loop";
      WR.Why = Why;
      std::string Key = " ran " + std::to_string(W.Loop.Iters) + " of " + std::to_string(N) + " iterations of loop " +
                        R.LoopLabel + " (line " + std::to_string(HeaderLine) + "): " + Why;
      auto It = std::find_if(Short.begin(), Short.end(), [&](auto &S) { return S.first == Key; });
      if (It == Short.end()) Short.push_back({Key, {W.Gid}});
      else It->second.push_back(W.Gid);
    }
    Same &= W.Loop.Iters == Waves[0].Loop.Iters && W.Loop.Visits == Waves[0].Loop.Visits;
  }
  for (auto &S : Short) {
    std::string Ws = S.second.size() == 1 ? "wave " + std::to_string(S.second[0]) : "waves";
    if (S.second.size() > 1) {
      bool Run = S.second.back() - S.second.front() + 1 == (int)S.second.size();
      if (Run) Ws += " " + std::to_string(S.second.front()) + "-" + std::to_string(S.second.back());
      else for (size_t X = 0; X < S.second.size(); ++X) Ws += (X ? "," : " ") + std::to_string(S.second[X]);
      Ws += " each";
    }
    R.ItersMsg += Ws + S.first + "\n";
  }
  auto Visits = [](int V) { return std::to_string(V) + (V == 1 ? " entry" : " entries"); };
  if (Same)
    R.ItersLine = "iterations of loop " + R.LoopLabel + ": every wave ran " + std::to_string(Waves[0].Loop.Iters) +
                  " of " + std::to_string(N) + " (" + Visits(Waves[0].Loop.Visits) + " into the loop)";
  else {
    R.ItersLine = "iterations of loop " + R.LoopLabel + " per wave (of " + std::to_string(N) + "):";
    for (const WaveState &W : Waves)
      R.ItersLine += " w" + std::to_string(W.Gid) + " " + std::to_string(W.Loop.Iters) + "/" + Visits(W.Loop.Visits);
  }
}

bool steadyState(const std::vector<WaveState> &Waves, const Recorders &Rec, const TargetParams &TP, int N,
                 int WavesPerWg, SimResult &R, SimError &E) {
  // Steady state: from the start of iteration Warmup to the start of
  // iteration LastIter of each wave, averaged over waves.
  double SumCpi = 0, WB = 0, WE = 0;
  int Cnt = 0;
  for (const WaveState &W : Waves) {
    const std::vector<int64_t> &S = Rec.Iterations->starts(W.Gid);
    if (R.ItersShort || (int)S.size() < N + 1) {
      E.Code = R.ItersShort ? Errc::LoopNotRun : Errc::StuckInLoop;
      E.Message = R.ItersMsg.empty() ? "wave " + std::to_string(W.Gid) + " did not leave the loop after its iterations\n"
                                     : R.ItersMsg;
      E.Message.pop_back();
      return false;
    }
    SumCpi += double(S[R.LastIter] - S[R.Warmup]) / (R.LastIter - R.Warmup);
    WB += S[R.Warmup];
    WE += S[R.LastIter];
    ++Cnt;
  }
  R.CyclesPerIter = SumCpi / Cnt;
  R.WindowBegin = (int64_t)(WB / Cnt);
  R.WindowEnd = (int64_t)(WE / Cnt);
  const int Wgs = R.Wgs;
  if (Wgs > 1) {
    // Several workgroups share the CU and need not progress at the same rate
    // (the older one wins arbitration), so one finishes its N iterations while
    // the other still runs, alone and faster. Measure throughput in the common
    // window where every wave is in its steady state: [latest start of
    // iteration Warmup, earliest start of iteration LastIter]. Each wave's
    // progress in the window is interpolated from its iteration start times;
    // cycles/iteration = window / mean iterations advanced per wave, i.e. the
    // CU's throughput expressed per workgroup iteration.
    int64_t CB = 0, CE = INT64_MAX;
    for (const WaveState &W : Waves) {
      const std::vector<int64_t> &S = Rec.Iterations->starts(W.Gid);
      CB = std::max(CB, S[R.Warmup]);
      CE = std::min(CE, S[R.LastIter]);
    }
    auto Progress = [&](const std::vector<int64_t> &S, double T) {
      for (int K = R.Warmup; K < R.LastIter; ++K)
        if (T <= S[K + 1]) return K + (T - S[K]) / std::max<double>(1, S[K + 1] - S[K]);
      return (double)R.LastIter;
    };
    double Slowest = 0;
    std::vector<double> WgRate(Wgs, 0);
    double Adv = 0;
    for (const WaveState &W : Waves) {
      const std::vector<int64_t> &S = Rec.Iterations->starts(W.Gid);
      Slowest = std::max(Slowest, double(S[R.LastIter] - S[R.Warmup]) / (R.LastIter - R.Warmup));
      if (CE > CB) {
        double A = Progress(S, CE) - Progress(S, CB);
        Adv += A;
        WgRate[W.Wg] += A / WavesPerWg;
      }
    }
    if (CE - CB >= 2 * Slowest && Adv > 0) {
      R.CyclesPerIter = (CE - CB) / (Adv / Cnt);
      R.WindowBegin = CB;
      R.WindowEnd = CE;
      std::string Rates;
      for (int G = 0; G < Wgs; ++G) Rates += formatCpi(G, (CE - CB) / std::max(1e-9, WgRate[G]));
      R.Warnings.push_back("multi-workgroup steady state: common window " + std::to_string(CB) + "-" +
                           std::to_string(CE) + "; workgroup cycles/iteration in it:" + Rates);
    } else {
      // The workgroups ran one after another (the older one won the turns
      // until it finished): every workgroup advancing one iteration took the
      // sum of their own periods, not one period.
      std::vector<double> Own(Wgs, 0);
      std::vector<int> Members(Wgs, 0);
      for (const WaveState &W : Waves) {
        const std::vector<int64_t> &S = Rec.Iterations->starts(W.Gid);
        Own[W.Wg] += double(S[R.LastIter] - S[R.Warmup]) / (R.LastIter - R.Warmup);
        ++Members[W.Wg];
      }
      double Serial = 0;
      for (int G = 0; G < Wgs; ++G)
        Serial += Own[G] / std::max(1, Members[G]);
      R.CyclesPerIter = Serial;
      R.WorkgroupsSerial = true;
      R.Warnings.push_back("multi-workgroup: the workgroups' steady states overlap by less than two iterations "
                           "(window " + std::to_string(CB) + "-" + std::to_string(CE) +
                           "): they ran one after another, so cycles/iteration is the sum of each workgroup's "
                           "own period (more --iterations may let them overlap)");
    }
  }
  R.CyclesPerIterAtAsked = R.CyclesPerIter * std::max(R.Wgs, R.WgsAsked) / std::max(1, R.Wgs);
  // MFMA busy %: the pipe clocks of the MFMAs each SIMD's waves issue per
  // iteration (each wave over its own whole iterations) against the cycles
  // per iteration. A window's edges would cut MFMA bursts at a phase that
  // differs between builds: two orders of the same loop with equal cycles
  // must read the same busy, and so get the same clock.
  double Len = std::max<double>(1, R.WindowEnd - R.WindowBegin), Busy = 0;
  std::vector<double> PerIter(TP.NumSimds, 0);
  for (const WaveState &W : Waves) {
    const std::vector<int64_t> &St = Rec.Iterations->starts(W.Gid);
    PerIter[W.Simd] += Rec.Mfma->issuedBy(W.Gid, St[R.Warmup], St[R.LastIter]) / (R.LastIter - R.Warmup);
  }
  for (int S = 0; S < TP.NumSimds; ++S) {
    double B = std::min(1.0, PerIter[S] / std::max(1.0, R.CyclesPerIter));
    R.MfmaBusySimd[S] = 100.0 * B;
    Busy += B;
  }
  R.MfmaBusyPct = 100.0 * Busy / TP.NumSimds;
  if (Rec.Units) {
    std::vector<double> D = Rec.Units->inWindow(R.WindowBegin, R.WindowEnd);
    double Scale = R.CyclesPerIter / Len; // iterations in the window: Len / CyclesPerIter
    for (size_t U = 0; U < D.size(); ++U) {
      double PerIter = D[U] * Scale;
      R.Units.push_back({Rec.Units->names()[U], PerIter});
      if (PerIter > R.ResourceBound) {
        R.ResourceBound = PerIter;
        R.ResourceBoundUnit = Rec.Units->names()[U];
      }
    }
  }
  // per wave: stalls and cluster times in its own window
  for (const WaveState &W : Waves) {
    WaveResult &WR = R.Waves[W.Gid];
    int64_t A = WR.IterStart[R.Warmup], B = WR.IterStart[R.LastIter];
    std::array<int64_t, NumStalls> In = Rec.Stalls->inWindow(W.Gid, A, B);
    std::copy(In.begin(), In.end(), WR.LoopStalls);
    Rec.Clusters->finish(W.Gid, A, B, R.LastIter - R.Warmup, R.Clusters.size(), WR.ClusterTime, WR.ClusterStarts);
  }
  return true;
}

} // namespace ppsim
