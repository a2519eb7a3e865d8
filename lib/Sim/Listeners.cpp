//===- Listeners.cpp - pingpong-sim: events of the run and who records them ===//
//
// See Listeners.h.
//
//===----------------------------------------------------------------------===//
#include "Listeners.h"

#include <algorithm>

namespace ppsim {

void StallAccounting::onStall(const StallEvent &E) {
  Total[E.Wave][E.Why] += E.Clocks;
  std::vector<Segment> &S = Spans[E.Wave];
  if (!S.empty() && S.back().Kind == E.Why && S.back().End == E.T)
    S.back().End = E.T + E.Clocks;
  else
    S.push_back({E.T, E.T + E.Clocks, E.Why});
}

std::array<int64_t, NumStalls> StallAccounting::inWindow(int W, int64_t Begin, int64_t End) const {
  std::array<int64_t, NumStalls> Out{};
  for (const Segment &S : Spans[W]) {
    int64_t X = std::max(S.Begin, Begin), Y = std::min(S.End, End);
    if (Y > X) Out[S.Kind] += Y - X;
  }
  return Out;
}

void TimelineRecorder::add(int W, int64_t B, int64_t E, int Kind) {
  std::vector<Segment> &S = Segs[W];
  if (!S.empty() && S.back().Kind == Kind && S.back().End == B)
    S.back().End = E;
  else
    S.push_back({B, E, Kind});
}

void TimelineRecorder::onIssue(const IssueEvent &E) {
  // internal instructions draw no bar, except the waits that passed
  const Inst &In = *E.In;
  if (In.C != Cat::Internal || In.In == Internal::Barrier || In.In == Internal::Waitcnt)
    add(E.Wave, E.T, E.T + E.Busy, In.C == Cat::Internal ? SegPassedWait : (int)In.C);
}

void TimelineRecorder::onStall(const StallEvent &E) { add(E.Wave, E.T, E.T + E.Clocks, SegStall + E.Why); }

void MfmaBusy::onIssue(const IssueEvent &E) {
  if (E.In->C != Cat::MFMA)
    return;
  Busy[E.Simd].push_back({E.T, E.T + E.In->MfmaCycles});
  if ((int)ByWave.size() <= E.Wave)
    ByWave.resize(E.Wave + 1);
  ByWave[E.Wave].push_back({E.T, E.In->MfmaCycles});
}

double MfmaBusy::issuedBy(int W, int64_t Begin, int64_t End) const {
  double C = 0;
  if (W < (int)ByWave.size())
    for (auto &[T, Cycles] : ByWave[W])
      if (T >= Begin && T < End) C += Cycles;
  return C;
}

double MfmaBusy::busyIn(int S, int64_t Begin, int64_t End) const {
  double B = 0;
  for (auto &Iv : Busy[S]) {
    int64_t A = std::max(Iv.first, Begin), E = std::min(Iv.second, End);
    if (E > A) B += E - A;
  }
  return B;
}

void ClusterStats::finish(int W, int64_t A, int64_t E, int Iterations, size_t Clusters, std::vector<double> &Time,
                          std::vector<std::pair<int64_t, int>> &Starts) const {
  Time.assign(Clusters, 0);
  int64_t Prev = -1;
  int PrevCluster = -1;
  for (auto &Ev : Issues[W]) {
    int C = ClusterOf[Ev.second];
    if (Prev >= 0 && Ev.first > A && Ev.first <= E && C >= 0)
      Time[C] += Ev.first - Prev;
    if (C >= 0 && C != PrevCluster)
      Starts.push_back({Ev.first, C});
    PrevCluster = C;
    Prev = Ev.first;
  }
  for (auto &X : Time) X /= Iterations;
}

void LoopLoads::onIssue(const IssueEvent &E) {
  if (E.In->C != Cat::VMEM || !E.In->IsLoad || !E.InLoop)
    return;
  Bytes += (int64_t)E.Bytes;
  ++Loads;
  L2Hits += E.L2Hit;
}

UnitDemand::UnitDemand(const TargetParams &TP, size_t Waves) : TP(TP) {
  auto Group = [&](const char *Name, int N) {
    int First = (int)Names.size();
    for (int I = 0; I < N; ++I)
      Names.push_back(N == 1 ? std::string(Name) : std::string(Name) + " " + std::to_string(I));
    return First;
  };
  Xdl = Group("MFMA pipe, SIMD", TP.NumSimds);
  IssueVM = Group("VALU+MFMA issue, SIMD", TP.NumSimds);
  IssueLds = Group("LDS issue, SIMD", TP.NumSimds);
  IssueVmem = Group("VMEM issue, SIMD", TP.NumSimds);
  IssueSalu = Group("SALU+SMEM issue, SIMD", TP.NumSimds);
  LdsPort = Group("LDS port, SIMD pair", TP.NumSimds / 2);
  L2 = Group("L2 (the CU's share)", 1);
  Hbm = Group("HBM (the CU's share)", 1);
  WaveIssue = Group("issue turns, wave", (int)Waves);
}

void UnitDemand::onIssue(const IssueEvent &E) {
  const Inst &In = *E.In;
  const double Turn = TP.IssuePeriod;
  // every instruction, internal ones too, takes one of its wave's turns
  Uses.push_back({E.T, WaveIssue + E.Wave, Turn});
  switch (In.C) {
  case Cat::MFMA:
    Uses.push_back({E.T, Xdl + E.Simd, (double)In.MfmaCycles});
    [[fallthrough]];
  case Cat::VALU:
    Uses.push_back({E.T, IssueVM + E.Simd, Turn});
    break;
  case Cat::LDS: {
    Uses.push_back({E.T, IssueLds + E.Simd, Turn});
    bool Write = In.IsStore && !In.IsLoad;
    double BW = Write ? TP.LdsWriteBytesPerClkPair : TP.LdsReadBytesPerClkPair;
    Uses.push_back({E.T, LdsPort + E.Simd / 2, E.Bytes / BW});
    break;
  }
  case Cat::VMEM:
    Uses.push_back({E.T, IssueVmem + E.Simd, Turn});
    if (E.L2Hit)
      Uses.push_back({E.T, L2, E.Bytes / TP.L2BytesPerClkCu});
    else
      Uses.push_back({E.T, Hbm, E.Bytes / hbmBytesPerClk(TP)});
    break;
  case Cat::SALU: case Cat::SMEM: case Cat::Unknown:
    Uses.push_back({E.T, IssueSalu + E.Simd, Turn});
    break;
  default:
    break;
  }
}

std::vector<double> UnitDemand::inWindow(int64_t Begin, int64_t End) const {
  std::vector<double> D(Names.size(), 0);
  for (const Use &U : Uses)
    if (U.T >= Begin && U.T < End)
      D[U.Unit] += U.Clocks;
  return D;
}

void TraceRecorder::onIssue(const IssueEvent &E) {
  int Idx = -1;
  if (E.Lds) {
    Idx = (int)Lds[E.Wave].size();
    Lds[E.Wave].push_back(*E.Lds);
    if (E.Lanes) Lanes[E.Wave].push_back(*E.Lanes);
  }
  Trace[E.Wave].push_back({E.Pc, Idx});
}

void UnknownInstructions::onIssue(const IssueEvent &E) {
  if (E.In->C == Cat::Unknown && Seen.insert(E.Pc).second)
    Lines.push_back("line " + std::to_string(E.In->Line) + ": '" + E.In->Text +
                    "' is not modelled (issued as one SALU slot, results unknown)");
}

void BranchNotes::onBranch(int, const BranchEvent &E) {
  const Inst &In = *E.In;
  std::string At = "line " + std::to_string(In.Line) + ": ";
  switch (E.K) {
  case BranchEvent::FreeChoice: {
    std::string Goal = E.GoalIsEnd ? "the kernel's end" : "the loop";
    std::string Why = !E.Both ? "the only direction that reaches " + Goal
                      : !E.Taken ? "both directions reach " + Goal + "; fall-through first"
                      : E.Planned ? "both directions reach " + Goal + "; the path search took it: the fall-through led nowhere"
                                  : "both directions reach " + Goal;
    Notes[At + "data-dependent '" + In.Text + "': " + (E.Taken ? "taken (" : "not taken (") + Why + ")"]++;
    break;
  }
  case BranchEvent::LoopExitTest:
    Notes[At + "data-dependent '" + In.Text + "' leaves the loop: " +
          (E.Stays ? "stays while iterations are left" : "exits after the last iteration")]++;
    break;
  case BranchEvent::OuterLoop:
    Notes[At + "'" + In.Text + "' " + (E.Taken ? "taken" : "not taken") +
          " after the loop's iterations: the other way goes back around the loop" +
          (E.Cond >= 0 ? " (against its known condition)" : "")]++;
    break;
  }
}

void BranchNotes::onUniformExecAssumed(int, const Inst &In) {
  Notes["line " + std::to_string(In.Line) + ": assumed every lane active before the guard takes the same direction ('" +
        In.Text + "')"]++;
}

void BranchNotes::finish(std::vector<std::string> &Warnings) const {
  for (auto &KV : Notes)
    Warnings.push_back(KV.first + " x" + std::to_string(KV.second));
}

} // namespace ppsim
