//===- Pipeline.cpp - pingpong-sim: the clock loop -------------------------===//
//
// See Pipeline.h. The rules are implemented by the units (HardwareUnits.h),
// the value semantics by Values.cpp and the control-flow rules by Flow.cpp;
// this file only sequences them, one issue turn at a time.
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ppsim {

Pipeline::Pipeline(const Program &P, const KernelInfo &K, const Flow &F, const SimOptions &O,
                   const TargetParams &TP, std::vector<WaveState> &Waves, SimResult &R)
    : P(P), K(K), F(F), O(O), TP(TP), Waves(Waves), R(R), Arbiter(TP), Mfma(TP), Lds(TP),
      Memory(TP, O.L2HitRate) {
  std::vector<int> WorkgroupOf;
  for (const WaveState &W : Waves)
    WorkgroupOf.push_back(W.Wg);
  Barriers = std::make_unique<BarrierUnit>(WorkgroupOf);
}

bool Pipeline::run(SimError &E) {
  Live = (int)Waves.size();
  std::vector<WaveState *> Pool;
  int64_t T = 0;
  for (; Live > 0; ++T) {
    if (T > O.MaxCycles) {
      E.Code = Errc::Hang;
      E.Message = "simulation did not finish within " + std::to_string(O.MaxCycles) + " clocks (hang?); waves at lines:";
      for (const WaveState &W : Waves)
        if (!W.Done) E.Message += " w" + std::to_string(W.Gid) + ":" + std::to_string(P.Insts[W.Pc].Line);
      Clock = T;
      return false;
    }
    // the SIMD whose turn it is; its waves in arbitration order
    int Simd = Arbiter.simdAt(T);
    Pool.clear();
    for (WaveState &W : Waves)
      if (!W.Done && W.Simd == Simd) Pool.push_back(&W);
    if (Pool.empty())
      continue;
    Arbiter.order(Pool, T);
    IssueArbiter::Turn Turn;
    for (WaveState *W : Pool)
      if (!step(*W, T, Turn, E)) {
        Clock = T;
        return false;
      }
  }
  Clock = T;
  return true;
}

void Pipeline::stall(WaveState &W, int64_t T, Stall Why) {
  StallEvent S;
  S.Wave = W.Gid;
  S.T = T;
  S.Clocks = TP.IssuePeriod;
  S.Why = Why;
  for (SimListener *L : OnStall)
    L->onStall(S);
}

void Pipeline::end(WaveState &W, int64_t T) {
  W.Done = true;
  --Live;
  W.EndTime = T;
  Barriers->waveEnded(W.Gid);
}

bool Pipeline::step(WaveState &W, int64_t T, IssueArbiter::Turn &Turn, SimError &E) {
  if (T < W.NotBefore) {
    stall(W, T, W.NotBeforeWhy);
    return true;
  }
  if (W.Pc >= K.End) {
    R.Warnings.push_back("wave " + std::to_string(W.Gid) + " ran past the end of the kernel");
    end(W, T);
    return true;
  }
  const unsigned Pc = W.Pc;
  const Inst &In = P.Insts[Pc];
  if (In.C == Cat::Internal) {
    if (!issueInternal(W, In, T))
      return true;
  } else if (std::optional<Stall> Why = blocked(W, In, T, Turn)) {
    stall(W, T, *Why);
    return true;
  }
  unsigned Next = Pc + 1;
  IssueEvent Ev;
  Ev.Wave = W.Gid;
  Ev.Simd = W.Simd;
  Ev.Pc = Pc;
  Ev.In = &In;
  Ev.T = T;
  Ev.Busy = TP.IssuePeriod;
  Ev.InLoop = F.inBody(Pc);
  LdsBytes Bytes;
  LdsLanes Lanes;
  if (In.C != Cat::Internal) {
    if (In.C == Cat::Unknown && (In.Mnem.find("setpc") != std::string::npos || In.Mnem.find("swappc") != std::string::npos)) {
      E.Code = Errc::IndirectBranch;
      E.Message = "line " + std::to_string(In.Line) + ": indirect branch '" + In.Text + "' cannot be followed";
      return false;
    }
    if (WantLds && (In.C == Cat::LDS || In.LdsDma)) {
      // the bytes from the address operand before the instruction overwrites it
      Bytes = ldsBytes(W.Val, In);
      Ev.Lds = &Bytes;
      if (WantLanes) {
        Lanes = ldsLanes(W.Val, In);
        // the header's own access belongs to the iteration it starts
        Lanes.Iter = F.inBody(Pc) ? W.Loop.Iters + (Pc == F.LB && W.Loop.Iters < F.N) : W.Loop.Iters == 0 ? 0 : -1;
        Ev.Lanes = &Lanes;
      }
      static const bool Dbg = getenv("PPSIM_DEBUG_VALUES") != nullptr;
      if (Dbg && !Bytes.Known) fprintf(stderr, "unknown-lds: line %u %s%s\n", In.Line, In.Text.c_str(), F.inBody(Pc) ? " (loop)" : "");
      static const unsigned DbgLine = getenv("PPSIM_DEBUG_LINE") ? atoi(getenv("PPSIM_DEBUG_LINE")) : 0;
      if (DbgLine == In.Line) {
        fprintf(stderr, "line %u wave %d:", In.Line, W.Gid);
        for (auto &Iv : Bytes.Iv) fprintf(stderr, " [%#x,%#x)", Iv.first, Iv.second);
        fprintf(stderr, "\n");
      }
    }
    applyValues(W.Val, In);
    execute(W, In, T, Ev);
    if (In.C == Cat::Branch && !branch(W, Pc, In, Next, E))
      return false;
  }
  // issued
  if (++W.Issued > O.MaxInstrsPerWave) {
    E.Code = Errc::EndlessLoop;
    E.Message = "a wave executed more than " + std::to_string(O.MaxInstrsPerWave) +
                " instructions (endless loop?) at line " + std::to_string(In.Line);
    return false;
  }
  for (SimListener *L : OnIssue)
    L->onIssue(Ev);
  LoopStep S = F.advance(W.Loop, Pc, Next);
  if (S.IterationStarted)
    for (SimListener *L : OnIteration) L->onIteration(W.Gid, T);
  if (S.LoopLeft) // the next issue is at least one turn later: the end mark of the last iteration
    for (SimListener *L : OnIteration) L->onIteration(W.Gid, T + TP.IssuePeriod);
  W.Pc = Next;
  return true;
}

bool Pipeline::issueInternal(WaveState &W, const Inst &In, int64_t T) {
  switch (In.In) {
  case Internal::Waitcnt: {
    bool VmOk = In.Vm < 0 || W.Counters.outstandingVm(T) <= In.Vm;
    bool LgOk = In.Lgkm < 0 || W.Counters.outstandingLgkm(T) <= In.Lgkm;
    if (!VmOk) { stall(W, T, StVmcnt); return false; }
    if (!LgOk) { stall(W, T, StLgkmcnt); return false; }
    break;
  }
  case Internal::Barrier:
    if (!Barriers->arriveAndPass(W.Gid)) { stall(W, T, StBarrier); return false; }
    if (TP.BarrierReleaseDelay) { W.NotBefore = T + TP.BarrierReleaseDelay; W.NotBeforeWhy = StBarrier; }
    break;
  case Internal::Setprio: // used from the next turn on
    W.Prio = In.Imm & 3;
    break;
  case Internal::Nop: // N+1 wait states of one issue turn each
    W.NotBefore = T + (int64_t)TP.IssuePeriod * ((In.Imm & 0xf) + 1);
    W.NotBeforeWhy = StNop;
    break;
  case Internal::Sleep:
    W.NotBefore = T + 64 * (int64_t)In.Imm;
    W.NotBeforeWhy = StNop;
    break;
  case Internal::Endpgm:
    end(W, T);
    break;
  default: // s_waitcnt_depctr, s_code_end: no-ops
    break;
  }
  return true;
}

std::optional<Stall> Pipeline::blocked(WaveState &W, const Inst &In, int64_t T, IssueArbiter::Turn &Turn) const {
  if (W.Ready.readyAt(In.UseUnits) > T) return StDependency;
  if (In.C == Cat::MFMA && Mfma.busy(W.Simd, T)) return StMfmaBusy;
  if ((In.C == Cat::VALU || In.C == Cat::MFMA) && Mfma.valuBlocked(W.Simd, T)) return StValuBlocked;
  if (In.C == Cat::LDS && Lds.queueFull(W.Simd, T)) return StLdsQueue;
  return Turn.take(In.C, W.Prio);
}

void Pipeline::execute(WaveState &W, const Inst &In, int64_t T, IssueEvent &Ev) {
  int64_t DefReady = T;
  int Lanes = W.Val.ExecKnown ? __builtin_popcountll(W.Val.Exec) : 64;
  switch (In.C) {
  case Cat::VALU: DefReady = T + TP.ValuDepLatency; break;
  case Cat::SALU: case Cat::Unknown: case Cat::Branch: DefReady = T + TP.SaluDepLatency; break;
  case Cat::MFMA:
    DefReady = T + In.MfmaCycles + TP.MfmaDepExtra;
    Mfma.issue(W.Simd, T, In.MfmaCycles, In.MfmaCoexec);
    Ev.Busy = In.MfmaCycles;
    break;
  case Cat::VMEM: { // no interlock: software waits with s_waitcnt
    Ev.Bytes = (double)Lanes * In.BytesPerLane;
    MemoryPath::Access A = Memory.access(T, Ev.Bytes, In.IsLoad);
    Ev.L2Hit = A.L2Hit;
    Ev.Ready = W.Counters.issueVmem(A.Done, In.Flat);
    return;
  }
  case Cat::LDS: {
    Ev.Bytes = (double)Lanes * In.BytesPerLane;
    double Start = Lds.transfer(W.Simd, T, Ev.Bytes, In.IsStore && !In.IsLoad);
    Ev.Ready = W.Counters.issueLds((int64_t)std::ceil(Start) + TP.LdsLatency);
    return;
  }
  case Cat::SMEM:
    Ev.Ready = T + In.Latency;
    W.Counters.issueSmem(Ev.Ready);
    return;
  default:
    break;
  }
  W.Ready.define(In.DefUnits, DefReady);
  Ev.Ready = DefReady;
}

bool Pipeline::branch(WaveState &W, unsigned Pc, const Inst &In, unsigned &Next, SimError &E) {
  int C = branchCond(W.Val, In);
  Flow::Kind Kd;
  bool Both;
  bool Taken = F.decide(W.Loop, Pc, C, Kd, Both);
  BranchEvent B;
  B.In = &In;
  bool Decided = true; // by the model, not by a known condition
  if (Kd == Flow::Free) {
    B.K = BranchEvent::FreeChoice;
    B.Planned = W.PlanPos < W.Plan.size();
    if (B.Planned) Taken = W.Plan[W.PlanPos++];
    B.Both = Both;
    B.GoalIsEnd = F.done(W.Loop);
  } else if (Kd == Flow::Forced && F.inBody(Pc) && C < 0 && F.targetOf(Pc) != (int)F.LB) {
    B.K = BranchEvent::LoopExitTest;
    B.Stays = Taken == F.inBody(In.Target);
  } else if (Kd == Flow::Forced && !F.inBody(Pc) && (C < 0 || C != (int)Taken)) {
    B.K = BranchEvent::OuterLoop;
    B.Cond = C;
  } else {
    Decided = false;
  }
  B.Taken = Taken;
  if (Decided)
    for (SimListener *L : OnBranch) L->onBranch(W.Gid, B);
  if (C < 0) {
    bool ExecWasKnown = W.Val.ExecKnown;
    assumeCond(W.Val, In, Taken);
    if (!ExecWasKnown && W.Val.ExecKnown && W.Val.Exec)
      for (SimListener *L : OnBranch) L->onUniformExecAssumed(W.Gid, In);
  }
  W.Loop.LastBranch = (int)Pc;
  W.Loop.LastBranchKnown = C >= 0;
  if (Taken) {
    if (In.Target < 0) {
      E.Code = Errc::MissingLabel;
      E.Message = "line " + std::to_string(In.Line) + ": branch target '" + In.TargetLabel + "' not found";
      return false;
    }
    Next = In.Target;
  }
  return true;
}

} // namespace ppsim
