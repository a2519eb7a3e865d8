//===- Floors.cpp - pingpong-sim: the latency floors of a loop -------------===//
//
// See Floors.h; docs/cycle-model.md, "Latency floor".
//
//===----------------------------------------------------------------------===//
#include "Floors.h"

#include <algorithm>
#include <map>

namespace ppsim {

namespace {

// Clocks from an instruction's issue until a dependent instruction may use its
// result, in the model's own terms (Pipeline::execute, HardwareUnits): VALU,
// SALU, MFMA (pipe cycles + the dependent extra), LDS (its latency; the port
// can only add), VMEM (the latency of the fastest level the run uses), SMEM.
// Instructions without a register result (waits, barriers, stores) define
// nothing and take no part.
int resultLatency(const Inst &In, const TargetParams &TP, bool L2Used) {
  switch (In.C) {
  case Cat::VALU: return TP.ValuDepLatency;
  case Cat::SALU: case Cat::Unknown: case Cat::Branch: return TP.SaluDepLatency;
  case Cat::MFMA: return In.MfmaCycles + TP.MfmaDepExtra;
  case Cat::LDS: return TP.LdsLatency;
  case Cat::VMEM: return L2Used ? std::min(TP.L2HitLatency, TP.VmemLatency) : TP.VmemLatency;
  case Cat::SMEM: return In.Latency;
  default: return 0;
  }
}

const char *kindName(Cat C) {
  switch (C) {
  case Cat::VALU: return "VALU";
  case Cat::SALU: case Cat::Branch: case Cat::Unknown: return "SALU";
  case Cat::MFMA: return "MFMA";
  case Cat::LDS: return "LDS";
  case Cat::VMEM: return "VMEM";
  case Cat::SMEM: return "SMEM";
  default: return "other";
  }
}

// The longest loop-carried chain through the iteration Seq (instruction
// indices in issue order): Seq is repeated K times with every instruction
// issued as soon as its register sources are ready (no unit, no issue order,
// no write-after-read: a floor for any order); the chain's growth per copy
// over the second half is the recurrence's clocks per iteration (exact for
// the max-plus growth once the first half's transient is over).
double chainPerIter(const Program &P, const TargetParams &TP, bool L2Used, const std::vector<unsigned> &Seq,
                    int &Insts, std::string &What) {
  const int K = 64;
  const size_t L = Seq.size();
  std::map<unsigned, std::pair<int64_t, int64_t>> Ready; // unit -> (ready clock, producing node)
  std::vector<int64_t> Pred(L * K, -1);
  int64_t Half = 0, End = 0, EndNode = -1;
  for (int C = 0; C < K; ++C) {
    for (size_t X = 0; X < L; ++X) {
      const Inst &In = P.Insts[Seq[X]];
      int64_t T = 0, From = -1;
      for (unsigned U : In.UseUnits) {
        auto It = Ready.find(U);
        if (It != Ready.end() && It->second.first > T) { T = It->second.first; From = It->second.second; }
      }
      int64_t Node = (int64_t)C * L + X;
      Pred[Node] = From;
      int Lat = resultLatency(In, TP, L2Used);
      if (Lat <= 0) continue;
      for (unsigned U : In.DefUnits) Ready[U] = {T + Lat, Node};
      if (T + Lat > End) { End = T + Lat; EndNode = Node; }
    }
    if (C == K / 2 - 1) Half = End;
  }
  // the chain: the nodes of one middle copy on the path to the latest result
  std::map<std::string, int> Count;
  Insts = 0;
  unsigned First = ~0u;
  for (int64_t N = EndNode; N >= 0; N = Pred[N])
    if (N / (int64_t)L == K / 2) {
      const Inst &In = P.Insts[Seq[N % L]];
      ++Count[kindName(In.C)];
      ++Insts;
      First = Seq[N % L];
    }
  What.clear();
  for (auto &KV : Count) What += (What.empty() ? "" : " + ") + std::to_string(KV.second) + " " + KV.first;
  if (First != ~0u) What += ", from line " + std::to_string(P.Insts[First].Line) + " '" + P.Insts[First].Text + "'";
  return double(End - Half) / (K - K / 2);
}

// One wave alone (the wave path): the iteration Seq repeated K times under the
// model's rules for one wave -- one instruction per issue turn, in order;
// register dependences at their latencies; s_waitcnt waits for its counter
// (VMEM at the fastest level's latency, LDS, SMEM; VMEM and LDS complete in
// order); s_nop / s_sleep; the wave's own MFMAs one after another on its
// pipe -- and nothing else: no other wave, no bandwidth, barriers free. Every
// other wave and unit can only delay the wave, so its growth per copy is a
// floor for this build's order (not for any order: the waits are the
// schedule's). Returns clocks per iteration.
double wavePathPerIter(const Program &P, const TargetParams &TP, bool L2Used, const std::vector<unsigned> &Seq) {
  const int K = 64;
  const int64_t Turn = TP.IssuePeriod;
  std::map<unsigned, int64_t> Ready;
  std::vector<int64_t> Vm, Lgkm;
  int64_t T = -Turn, NotBefore = 0, PipeFree = 0, LastVm = 0, LastLds = 0, Half = 0;
  auto WaitFor = [](std::vector<int64_t> &Q, int N, int64_t Now) {
    if (N < 0 || (int)Q.size() <= N) return Now;
    std::vector<int64_t> D = Q;
    std::sort(D.begin(), D.end(), std::greater<int64_t>());
    int64_t At = std::max(Now, D[N]);
    Q.erase(std::remove_if(Q.begin(), Q.end(), [&](int64_t X) { return X <= At; }), Q.end());
    return At;
  };
  for (int C = 0; C < K; ++C) {
    if (C == K / 2) Half = T;
    for (unsigned Pc : Seq) {
      const Inst &In = P.Insts[Pc];
      int64_t Now = std::max(T + Turn, NotBefore);
      for (unsigned U : In.UseUnits) {
        auto It = Ready.find(U);
        if (It != Ready.end()) Now = std::max(Now, It->second);
      }
      if (In.C == Cat::MFMA) Now = std::max(Now, PipeFree);
      if (In.C == Cat::Internal && In.In == Internal::Waitcnt) {
        Now = WaitFor(Vm, In.Vm, Now);
        Now = WaitFor(Lgkm, In.Lgkm, Now);
      }
      Now = (Now + Turn - 1) / Turn * Turn; // at an issue turn
      T = Now;
      switch (In.C) {
      case Cat::MFMA: PipeFree = T + In.MfmaCycles; break;
      case Cat::VMEM:
        LastVm = std::max(LastVm, T + resultLatency(In, TP, L2Used));
        Vm.push_back(LastVm);
        break;
      case Cat::LDS:
        LastLds = std::max(LastLds, T + TP.LdsLatency);
        Lgkm.push_back(LastLds);
        break;
      case Cat::SMEM: Lgkm.push_back(T + In.Latency); break;
      case Cat::Internal:
        if (In.In == Internal::Nop) NotBefore = T + Turn * ((In.Imm & 0xf) + 1);
        else if (In.In == Internal::Sleep) NotBefore = T + 64 * (int64_t)In.Imm;
        break;
      default: break;
      }
      int Lat = resultLatency(In, TP, L2Used);
      if (Lat > 0)
        for (unsigned U : In.DefUnits) Ready[U] = T + Lat;
    }
  }
  return double(T - Half) / (K - K / 2);
}

// A SIMD pair's LDS port bandwidth for In (UnitDemand, LdsPorts::transfer).
double portBytesPerClk(const Inst &In, const TargetParams &TP) {
  return In.IsStore && !In.IsLoad ? TP.LdsWriteBytesPerClkPair : TP.LdsReadBytesPerClkPair;
}

// The barrier-drain bound (Floors.h) of the run: per SIMD pair, its LDS port
// clocks per iteration plus the drained
// barriers per iteration x the gap; the largest pair's. Fills F.BarrierDrain
// and F.Drain*; F.DrainNone says why it is 0.
void barrierDrainBound(const Program &P, const TargetParams &TP, const IssueLog &Log, SimResult &R) {
  SimResult::Floors &F = R.Floor;
  const int Iters = R.LastIter - R.Warmup;
  if (R.Wgs != 1) { F.DrainNone = "more than one workgroup on the CU"; return; }
  if (R.Waves.empty() || Iters <= 0 || (int)R.Waves[0].IterStart.size() <= R.LastIter) {
    F.DrainNone = "no steady state";
    return;
  }
  const int Pairs = TP.NumSimds / 2;
  // Per wave, its barriers in issue order: drained (no LDS op since its last
  // lgkmcnt(0)) and whether it issued an LDS op since its previous barrier;
  // per pair, its largest LDS op in port clocks.
  struct Bar { int64_t T; bool Drained, Lds; };
  std::vector<std::vector<Bar>> Bars(R.Waves.size());
  std::vector<double> MaxOp(Pairs, 0);
  for (size_t W = 0; W < R.Waves.size(); ++W) {
    bool Drained = true, Lds = false;
    for (const IssueLog::Entry &E : Log.Log[W]) {
      const Inst &In = P.Insts[E.Pc];
      if (In.C == Cat::LDS) {
        double &M = MaxOp[R.Waves[W].Simd / 2];
        M = std::max(M, E.Bytes / portBytesPerClk(In, TP));
        Drained = false;
        Lds = true;
      } else if (In.C == Cat::Internal && In.In == Internal::Waitcnt && In.Lgkm == 0) {
        Drained = true;
      } else if (In.C == Cat::Internal && In.In == Internal::Barrier) {
        Bars[W].push_back({E.T, Drained, Lds});
        Lds = false;
      }
    }
  }
  // barrier instance K is every wave's K-th s_barrier; the window: wave 0's
  // steady-state iterations
  size_t Instances = Bars[0].size();
  for (auto &B : Bars) Instances = std::min(Instances, B.size());
  const int64_t A = R.Waves[0].IterStart[R.Warmup], B = R.Waves[0].IterStart[R.LastIter];
  const double Gap = TP.LdsLatency + TP.IssuePeriod + std::max(TP.IssuePeriod, TP.BarrierReleaseDelay);
  // each pair's port clocks per iteration from its waves' whole iterations
  // (the resource bound's window would cut them at its edges)
  std::vector<double> PortClocks(Pairs, 0);
  for (size_t W = 0; W < R.Waves.size(); ++W) {
    const WaveResult &WR = R.Waves[W];
    if ((int)WR.IterStart.size() <= R.LastIter) { F.DrainNone = "no steady state"; return; }
    for (const IssueLog::Entry &E : Log.Log[W]) {
      const Inst &In = P.Insts[E.Pc];
      if (In.C != Cat::LDS || E.T < WR.IterStart[R.Warmup] || E.T >= WR.IterStart[R.LastIter]) continue;
      PortClocks[WR.Simd / 2] += E.Bytes / portBytesPerClk(In, TP);
    }
  }
  for (double &C : PortClocks) C /= Iters;
  for (int Q = 0; Q < Pairs; ++Q) {
    if (PortClocks[Q] <= 0 || Gap - MaxOp[Q] <= 0) continue;
    int Counted = 0;
    bool LdsSince = false;
    for (size_t K = 0; K < Instances; ++K) {
      bool Drained = true, Any = false;
      for (size_t W = 0; W < R.Waves.size(); ++W) {
        if (R.Waves[W].Simd / 2 != Q) continue;
        Any = true;
        Drained &= Bars[W][K].Drained;
        LdsSince |= Bars[W][K].Lds;
      }
      if (!Any || !Drained || !LdsSince) continue;
      LdsSince = false; // the next gap needs a transfer of this pair after this one
      Counted += Bars[0][K].T >= A && Bars[0][K].T < B;
    }
    double PerIter = double(Counted) / Iters, Bound = PortClocks[Q] + PerIter * (Gap - MaxOp[Q]);
    if (Counted && Bound > F.BarrierDrain) {
      F.BarrierDrain = Bound;
      F.DrainPortClocks = PortClocks[Q];
      F.DrainBarriers = PerIter;
      F.DrainGap = Gap - MaxOp[Q];
      F.DrainUnit = "LDS port, SIMD pair " + std::to_string(Q);
    }
  }
  if (F.BarrierDrain == 0)
    F.DrainNone = Instances ? "no loop barrier with every wave's LDS operations drained before it" : "no barrier";
}

} // namespace

void latencyFloors(const Program &P, const TargetParams &TP, const IssueLog &Log, SimResult &R) {
  SimResult::Floors &F = R.Floor;
  const int Iters = R.LastIter - R.Warmup;
  const bool L2Used = R.L2HitRate > 0;
  for (size_t W = 0; W < R.Waves.size() && Iters > 0; ++W) {
    const WaveResult &WR = R.Waves[W];
    if ((int)WR.IterStart.size() <= R.LastIter) continue;
    const int64_t A = WR.IterStart[R.Warmup], B = WR.IterStart[R.LastIter], A1 = WR.IterStart[R.Warmup + 1];
    // (a) the dependence chain through the wave's first steady-state iteration
    std::vector<unsigned> Seq;
    for (const IssueLog::Entry &E : Log.Log[W])
      if (E.T >= A && E.T < A1) Seq.push_back(E.Pc);
    int Insts = 0;
    std::string What;
    double Chain = chainPerIter(P, TP, L2Used, Seq, Insts, What);
    if (Chain > F.Chain) { F.Chain = Chain; F.ChainInsts = Insts; F.ChainWhat = What; }
    F.WavePath = std::max(F.WavePath, wavePathPerIter(P, TP, L2Used, Seq));
    // (b) Little's law per counter over the wave's window: the counter as the
    // waits leave it (a request counts until a wait lets at most N remain),
    // its largest value, and the summed latency of the requests issued
    int Vm = 0, Lg = 0, MaxVm = 0, MaxLg = 0;
    double SumVm = 0, SumLg = 0, NVm = 0, NLg = 0;
    for (const IssueLog::Entry &E : Log.Log[W]) {
      if (E.T >= B) break;
      const Inst &In = P.Insts[E.Pc];
      const bool In_ = E.T >= A;
      if (In.C == Cat::VMEM) {
        ++Vm;
        if (In_) { SumVm += E.L2Hit ? TP.L2HitLatency : TP.VmemLatency; ++NVm; }
      } else if (In.C == Cat::LDS || In.C == Cat::SMEM) {
        ++Lg;
        if (In_) { SumLg += In.C == Cat::LDS ? TP.LdsLatency : In.Latency; ++NLg; }
      } else if (In.C == Cat::Internal && In.In == Internal::Waitcnt) {
        if (In.Vm >= 0) Vm = std::min(Vm, In.Vm);
        if (In.Lgkm >= 0) Lg = std::min(Lg, In.Lgkm);
      }
      if (In_) { MaxVm = std::max(MaxVm, Vm); MaxLg = std::max(MaxLg, Lg); }
    }
    auto Put = [&](SimResult::InFlight &IF, double Sum, double N, int Max) {
      if (!Max || !N) return;
      double PerIter = Sum / Iters / Max;
      if (PerIter > IF.PerIter) IF = {PerIter, N / Iters, Max, Sum / N};
    };
    Put(F.Vmem, SumVm, NVm, MaxVm);
    Put(F.Lgkm, SumLg, NLg, MaxLg);
  }
  F.Latency = F.Chain;
  F.LatencyWhat = "dependence chain";
  if (F.Vmem.PerIter > F.Latency) { F.Latency = F.Vmem.PerIter; F.LatencyWhat = "VMEM in flight"; }
  if (F.Lgkm.PerIter > F.Latency) { F.Latency = F.Lgkm.PerIter; F.LatencyWhat = "LDS/SMEM in flight"; }
  barrierDrainBound(P, TP, Log, R);
  if (R.ResourceBound >= F.Latency) {
    F.Floor = R.ResourceBound;
    F.Binds = "resource bound (" + R.ResourceBoundUnit + ")";
  } else {
    F.Floor = F.Latency;
    F.Binds = "latency floor (" + F.LatencyWhat + ")";
  }
  if (F.BarrierDrain > F.Floor) {
    F.Floor = F.BarrierDrain;
    F.Binds = "barrier-drain bound (" + F.DrainUnit + ")";
  }
}

} // namespace ppsim
