//===- HardwareUnits.cpp - pingpong-sim: the CU's shared and per-wave units ===//
//
// See HardwareUnits.h for the rule each unit implements.
//
//===----------------------------------------------------------------------===//
#include "HardwareUnits.h"

#include <algorithm>
#include <cmath>

namespace ppsim {

namespace {
// The issue category of an instruction: VALU+MFMA, VMEM, SALU+SMEM (and the
// unknown instructions, issued as SALU), LDS, branch.
int slotOf(Cat C) {
  switch (C) {
  case Cat::VALU: case Cat::MFMA: return 0;
  case Cat::VMEM: return 1;
  case Cat::SALU: case Cat::SMEM: case Cat::Unknown: return 2;
  case Cat::LDS: return 3;
  case Cat::Branch: return 4;
  default: return 0;
  }
}
} // namespace

std::optional<Stall> IssueArbiter::Turn::take(Cat C, int WavePrio) {
  int S = slotOf(C);
  if (Used[S])
    return Prio[S] > WavePrio ? StArbHigher : StArbOlder;
  Used[S] = true;
  Prio[S] = WavePrio;
  return std::nullopt;
}

int64_t WaitCounters::countAfter(std::vector<int64_t> &V, int64_t T) {
  V.erase(std::remove_if(V.begin(), V.end(), [&](int64_t X) { return X <= T; }), V.end());
  return (int64_t)V.size();
}

int64_t WaitCounters::issueVmem(double Done, bool Flat) {
  int64_t D = std::max<int64_t>((int64_t)std::ceil(Done), LastVmDone); // vmcnt returns in order
  LastVmDone = D;
  Vm.push_back(D);
  if (Flat)
    Lgkm.push_back(D);
  return D;
}

int64_t WaitCounters::issueLds(int64_t Done) {
  int64_t D = std::max<int64_t>(Done, LastLdsDone);
  LastLdsDone = D;
  Lgkm.push_back(D);
  return D;
}

bool BarrierUnit::arriveAndPass(int W) {
  if (!Waiting[W]) {
    Waiting[W] = true;
    ++Count[W];
  }
  for (size_t O = 0; O < Wg.size(); ++O)
    if (Wg[O] == Wg[W] && Live[O] && Count[O] < Count[W])
      return false;
  Waiting[W] = false;
  return true;
}

double LdsPorts::transfer(int Simd, int64_t T, double Bytes, bool Write) {
  double BW = Write ? TP.LdsWriteBytesPerClkPair : TP.LdsReadBytesPerClkPair;
  double &PortFree = Free[Simd / 2];
  double Start = std::max((double)T, PortFree);
  PortFree = Start + Bytes / BW;
  if (TP.LdsQueueDepth > 0) {
    std::vector<double> &E = Ends[Simd / 2];
    E.erase(std::remove_if(E.begin(), E.end(), [&](double X) { return X <= (double)T; }), E.end());
    E.push_back(PortFree);
    LastSimd[Simd / 2] = Simd;
  }
  return Start;
}

bool LdsPorts::queueFull(int Simd, int64_t T) const {
  if (TP.LdsQueueDepth <= 0)
    return false;
  int N = 0;
  for (double X : Ends[Simd / 2])
    N += X > (double)T;
  bool Yield = N == TP.LdsQueueDepth - 1 && LastSimd[Simd / 2] == Simd &&
               Refused[Simd ^ 1] >= T - TP.IssuePeriod;
  if (N >= TP.LdsQueueDepth || Yield) {
    Refused[Simd] = T;
    return true;
  }
  return false;
}

MemoryPath::Access MemoryPath::access(int64_t T, double Bytes, bool IsLoad) {
  Access A;
  if (IsLoad && HitRate > 0) {
    double Prev = HitSum;
    HitSum += HitRate;
    A.L2Hit = std::floor(HitSum + 1e-9) > std::floor(Prev + 1e-9);
  }
  if (A.L2Hit) {
    double Start = std::max((double)T, L2Free);
    L2Free = Start + Bytes / TP.L2BytesPerClkCu;
    A.Done = Start + TP.L2HitLatency;
  } else {
    double Start = std::max((double)T, HbmFree);
    HbmFree = Start + Bytes / HbmBytesPerClk;
    A.Done = Start + TP.VmemLatency;
  }
  return A;
}

} // namespace ppsim
