//===- HardwareUnits.h - pingpong-sim: the CU's shared and per-wave units -===//
//
// Each unit holds its own state and implements one rule of the table in
// docs/cycle-model.md ("The rules"), quoted at the class. The numbers come
// from Params.h. Pipeline.cpp asks the units whether a wave may issue and
// tells them what it issued.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SIM_HARDWAREUNITS_H
#define PINGPONG_SIM_HARDWAREUNITS_H

#include "pingpong/Sim/Params.h"
#include "pingpong/Sim/Sim.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

namespace ppsim {

//===-- Issue arbitration -------------------------------------------------===//
// Rule "Issue": SIMD s has its issue turn at clocks t = s (mod 4). At its
// turn, the SIMD's waves are visited highest s_setprio first, then oldest.
// At most one instruction per wave per turn. At most one per category per
// turn: VALU+MFMA, VMEM, SALU+SMEM, LDS, branch. A wave that is ready but
// finds its category taken records a stall "lost arbitration", split into
// "higher priority" and "older wave".
// Rule "Internal instructions": s_waitcnt, s_barrier, s_setprio, s_nop,
// s_sleep and s_endpgm take the wave's turn but no category.
class IssueArbiter {
public:
  explicit IssueArbiter(const TargetParams &TP) : NumSimds(TP.NumSimds) {}
  int simdAt(int64_t T) const { return (int)(T % NumSimds); }

  // Does a wave of priority PrioA and age AgeA (its global id: lower is
  // older) go before one of PrioB / AgeB at turn T? Higher priority first;
  // between equal priorities, the older wave (cdna_model §7, unverified).
  // PPSIM_TIE_BREAK=youngest|hashed (a pseudo-random order per turn, age on
  // a hash collision) replaces that rule, to test whether a schedule's timing
  // depends on it (docs/cycle-model.md). The tie-break lives here alone.
  enum class Tie { Oldest, Youngest, Hashed };
  static Tie tieBreak() {
    static const Tie T = [] {
      const char *E = std::getenv("PPSIM_TIE_BREAK");
      if (E && !std::strcmp(E, "youngest"))
        return Tie::Youngest;
      if (E && !std::strcmp(E, "hashed"))
        return Tie::Hashed;
      return Tie::Oldest;
    }();
    return T;
  }
  static uint32_t tieHash(int Gid, int64_t T) {
    uint32_t H = uint32_t(Gid + 1) * 0x9E3779B1u ^ uint32_t(T) * 0x85EBCA6Bu;
    H ^= H >> 15;
    H *= 0x2C1B3C6Du;
    return H ^ (H >> 12);
  }
  static bool before(int PrioA, int AgeA, int PrioB, int AgeB, int64_t T) {
    if (PrioA != PrioB)
      return PrioA > PrioB;
    switch (tieBreak()) {
    case Tie::Youngest:
      return AgeA > AgeB;
    case Tie::Hashed:
      if (tieHash(AgeA, T) != tieHash(AgeB, T))
        return tieHash(AgeA, T) < tieHash(AgeB, T);
      break;
    case Tie::Oldest:
      break;
    }
    return AgeA < AgeB;
  }

  // The waves of turn T in issue order (stable: an insertion sort by
  // before(), no allocation per clock). W: a pointer to anything with Prio
  // and Gid.
  template <typename W> void order(std::vector<W *> &Pool, int64_t T) const {
    for (size_t I = 1; I < Pool.size(); ++I) {
      W *X = Pool[I];
      size_t J = I;
      for (; J > 0 && before(X->Prio, X->Gid, Pool[J - 1]->Prio, Pool[J - 1]->Gid, T); --J)
        Pool[J] = Pool[J - 1];
      Pool[J] = X;
    }
  }

  // The category slots of one turn.
  class Turn {
  public:
    // Takes the slot of category C for a wave of priority Prio, or returns
    // the stall: the slot went to a higher priority, or to an older wave.
    std::optional<Stall> take(Cat C, int Prio);

  private:
    bool Used[5] = {false, false, false, false, false};
    int Prio[5] = {};
  };

private:
  int NumSimds;
};

//===-- Register scoreboard (per wave) ------------------------------------===//
// Rule "Dependencies": register units (MCRegisterInfo) are scoreboarded for
// VALU, SALU and MFMA results. Memory results are not interlocked, as on
// gfx9: software waits with s_waitcnt.
class Scoreboard {
public:
  explicit Scoreboard(size_t NumUnits) : Ready(NumUnits, 0) {}
  int64_t readyAt(const std::vector<unsigned> &Uses) const {
    int64_t R = 0;
    for (unsigned U : Uses) R = std::max(R, Ready[U]);
    return R;
  }
  void define(const std::vector<unsigned> &Defs, int64_t At) {
    for (unsigned U : Defs) Ready[U] = std::max(Ready[U], At);
  }

private:
  std::vector<int64_t> Ready; // per register unit: the clock its value is usable
};

//===-- Wait counters (per wave) ------------------------------------------===//
// Rule "s_waitcnt": the wave waits until at most N of its operations on the
// counter are outstanding.
// Rule "vmcnt": every VMEM load and store, including LDS DMA, counts on
// vmcnt; completions are forced in order. FLAT counts on both vmcnt and
// lgkmcnt.
// Rule "lgkmcnt": LDS operations complete in order among themselves. SMEM
// completes out of order.
class WaitCounters {
public:
  // A VMEM operation whose data arrives at Done: it completes no earlier
  // than the older ones (in order). Returns its completion clock.
  int64_t issueVmem(double Done, bool Flat);
  // An LDS operation whose data arrives at Done (in order among LDS ops).
  int64_t issueLds(int64_t Done);
  // An SMEM operation completing at Done (out of order).
  void issueSmem(int64_t Done) { Lgkm.push_back(Done); }
  // Operations still outstanding at clock T (completed ones are dropped).
  int64_t outstandingVm(int64_t T) { return countAfter(Vm, T); }
  int64_t outstandingLgkm(int64_t T) { return countAfter(Lgkm, T); }

private:
  static int64_t countAfter(std::vector<int64_t> &V, int64_t T);
  std::vector<int64_t> Vm, Lgkm; // completion clocks of outstanding operations
  int64_t LastVmDone = 0, LastLdsDone = 0;
};

//===-- Barrier unit (per workgroup) --------------------------------------===//
// Rule "s_barrier": the wave arrives (its barrier count +1). It passes when
// every live wave of its workgroup has a count >= its own: the rule counts
// barriers, not PCs. Waves that have ended do not count. Release costs
// BarrierReleaseDelay (0) clocks.
class BarrierUnit {
public:
  explicit BarrierUnit(const std::vector<int> &WorkgroupOfWave)
      : Wg(WorkgroupOfWave), Count(Wg.size(), 0), Waiting(Wg.size(), false), Live(Wg.size(), true) {}
  // Wave W is at an s_barrier: it arrives (once) and may pass?
  bool arriveAndPass(int W);
  void waveEnded(int W) { Live[W] = false; }

private:
  std::vector<int> Wg;
  std::vector<int> Count;
  std::vector<bool> Waiting, Live;
};

//===-- MFMA pipe (per SIMD) ----------------------------------------------===//
// Rule "MFMA": the SIMD's XDL pipe is busy for the instruction's cycles. The
// next MFMA on that SIMD, from any wave, waits for it. An independent VALU
// can issue at the next turn (the co-exec delay). FP32/FP64 MFMAs (no
// co-exec) block the SIMD's VALU while they run. (The result latency,
// cycles + MfmaDepExtra, is the scoreboard's.)
class MfmaPipe {
public:
  explicit MfmaPipe(const TargetParams &TP) : XdlFree(TP.NumSimds, 0), NonCoexecUntil(TP.NumSimds, 0) {}
  bool busy(int Simd, int64_t T) const { return XdlFree[Simd] > T; }
  bool valuBlocked(int Simd, int64_t T) const { return NonCoexecUntil[Simd] > T; }
  void issue(int Simd, int64_t T, int Cycles, bool Coexec) {
    XdlFree[Simd] = T + Cycles;
    if (!Coexec) NonCoexecUntil[Simd] = T + Cycles;
  }

private:
  std::vector<int64_t> XdlFree, NonCoexecUntil;
};

//===-- LDS ports (per SIMD pair) -----------------------------------------===//
// Rule "LDS": bytes = active lanes x bytes per lane. Each SIMD pair (0-1,
// 2-3) has one port. Transfer start = max(issue, port free); the port is busy
// bytes / bandwidth (read or write); data arrives at start + LDS latency.
// Rule "LDS queue": a pair holds at most LdsQueueDepth requests not yet
// served; while it is full its SIMDs issue no LDS instruction.
class LdsPorts {
public:
  explicit LdsPorts(const TargetParams &TP) : TP(TP) {}
  // The clock the transfer starts (the port is then busy for its bytes).
  double transfer(int Simd, int64_t T, double Bytes, bool Write);
  // May SIMD Simd not add an LDS request at clock T? The pair's queue is
  // full, or its last free slot goes to the other SIMD of the pair, which was
  // refused at its last turn while this one took the previous slot (the two
  // SIMDs share the queue in turn: one ds_read_b128 each per 16 clocks).
  bool queueFull(int Simd, int64_t T) const;

private:
  const TargetParams &TP;
  double Free[2] = {0, 0};
  std::vector<double> Ends[2]; // per pair: service end of each queued request
  int LastSimd[2] = {-1, -1};  // per pair: the SIMD that queued the last request
  mutable int64_t Refused[4] = {-100, -100, -100, -100}; // per SIMD: its last refused turn
};

//===-- Memory path: HBM and L2 -------------------------------------------===//
// Rule "VMEM": the same scheme against the CU's sustained HBM share; data
// arrives at start + VMEM latency. With an L2 hit rate F, a deterministic
// fraction F of loads (a load hits when the running sum of F crosses an
// integer) are L2 hits: L2 latency and the CU's L2 bandwidth share, no HBM
// bandwidth. F = --l2-hit-rate, or from the L2 reuse rule (--gemm/--tile).
class MemoryPath {
public:
  MemoryPath(const TargetParams &TP, double L2HitRate)
      : TP(TP), HitRate(L2HitRate), HbmBytesPerClk(hbmBytesPerClk(TP)) {}
  struct Access {
    double Done = 0; // data arrival
    bool L2Hit = false;
  };
  Access access(int64_t T, double Bytes, bool IsLoad);

private:
  const TargetParams &TP;
  double HitRate, HbmBytesPerClk;
  double HbmFree = 0, L2Free = 0, HitSum = 0;
};

} // namespace ppsim

#endif
