//===- Params.h - every parameter of the pingpong-sim cycle model ---------===//
//
// THE parameter table of the model. Every number the simulator uses is here,
// with its source; docs/cycle-model.md repeats this table. Tags as in
// /work/shared/reference/cdna_model.md (called "cdna_model" below):
//   [A] AMD document / AMD-maintained source, [M] third-party measurement,
//   [D] arithmetic from cited numbers, [?] not in the sources: a stated guess.
// Nothing here is tuned to favour any schedule: values are the sources'
// numbers, or the middle of a published range where the sources give a range.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SIM_PARAMS_H
#define PINGPONG_SIM_PARAMS_H

#include "pingpong/Target/MFMACycles.h"
#include "pingpong/Target/TargetFacts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace ppsim {

struct TargetParams {
  const char *Name;
  // --- Issue (cdna_model §1.3, §5) ---
  // NumSimds, MaxWavesPerSimd, VgprsPerSimdLane come from the plugin's target
  // table (include/pingpong/Target/TargetFacts.h).
  int NumSimds;        // 4 SIMDs per CU [A] pipeline-descriptions.rst
  int IssuePeriod;     // a SIMD gets an issue turn every 4 clocks [A] hardware_implementation.rst
  int MaxWavesPerSimd; // 8 wave slots per SIMD [A] getMaxWavesPerEU
  int VgprsPerSimdLane; // 512 VGPRs (arch+acc) per lane of a SIMD [A] CDNA4 ISA §3.6.4
  // --- VALU / MFMA (cdna_model §1.2, §5) ---
  int ValuDepLatency;  // dependent VALU chain ~8 clocks [M] Meta AMDLatencyModel (gfx950)
  int SaluDepLatency;  // SALU result usable at the next turn: 1 pass = 4 clocks [A] SISchedule.td (Write32Bit latency 1 pass)
  int MfmaDepExtra;    // dependent MFMA: +2 clocks after the pipe time (18 vs 16) [M] Meta; ISA Table 38 "0-2 wait states"
  int MfmaCoexecDelay; // independent VALU may issue 4 clocks after an MFMA [A] matrix_calculator.py coexec_delay=4
  // --- LDS (cdna_model §1.1, §1.2, §5) ---
  int LdsLatency;            // ~64 clocks ds_read_b128 [M] pyhip (MI308X); 64-69 [M] Meta (gfx950)
  double LdsReadBytesPerClkPair;  // per SIMD pair port: gfx942 64 B/clk [A] pipeline-descriptions.rst; gfx950 128 [A] gfx950-gluon-tutorials lds_throughput.md (a 128 B/clk bus per pair, 256 B/clk per CU)
  double LdsWriteBytesPerClkPair; // gfx942 64 [A]; gfx950 writes not documented: 64 (= CDNA3) [?]
  // LDS requests (ds_read/ds_write) a SIMD pair may have queued or in service;
  // a full queue stops LDS issue on both SIMDs of the pair. The number and
  // its source: TargetFacts::LDSQueueDepthPerSIMDPair (gfx950 8 [A], gfx942
  // 0 = unbounded [?]). Default 0 on both until every plugin order holds
  // with it (docs/cycle-model.md "Session 14 (ruler3)", "Session 15
  // (ldsqueue)"); PPSIM_PARAMS=LdsQueueDepth=8 turns it on.
  int LdsQueueDepth;
  // --- VMEM (cdna_model §1.1, §1.2, §5) ---
  int VmemLatency;     // 650 clocks: middle of the measured 500-800 HBM dwordx4 range [M] pyhip
  int L2HitLatency;    // ~140 ns vector L2 hit (MI210 chase 233-259 clk at 1.7 GHz [M] gpu-benches; CDNA3 no
                       // slower [M] Chips and Cheese MI300X) x clock: 294 (2.1 GHz) / 336 (2.4 GHz) [D]; --gemm / --l2-hit-rate only
  double HbmTBps;      // 5.3 (gfx942) / 8.0 (gfx950) TB/s [A] mi300.md / mi350.rst
  int Cus;             // 304 / 256 [A] gpu-specs.rst
  double ClockGHz;     // 2.1 / 2.4 peak engine clock [A]
  // --- Engine clock under load (cdna_model §1.1 "Clock under dense MFMA load", MAF trade-off) ---
  // The clock the run is at: ClockGHz (the peak) unless `run --clock power` or
  // --clock-ghz set it (atClock). Latencies and bandwidths outside the engine
  // clock domain (HBM) are fixed in ns and bytes/s, so they scale with it.
  double EngineClockGHz;
  // MI300X under dense BF16 MFMA (MAF): 708 TF at a median 1207 MHz [A] AMD blog
  // "Measuring Max-Achievable FLOPs, part 2"; at that clock the pipe is busy
  // 708 / (1307 x 1207/2100) = 0.943 of the time [D]. MI355X: AMD's gfx950
  // Gluon GEMMs (ROCm/gfx950-gluon-tutorials, inter_wave a16w16/a8w8, 4- and
  // 8-wave, K 8192-32768) deliver 1425-3233 TF at a loop MFMA efficiency
  // (ATT) of 97.6-99.8 % [M]: TF / (peak TF per GHz x efficiency) puts the
  // clock at 1.37-1.55 GHz, median 1.44 at efficiency 0.995 [D] (a lower
  // bound: time outside the loop is counted as loop time).
  double LoadedClockGHz;
  double LoadedMfmaBusy;
  // Dynamic power ~ activity x f x V^2 with V ~ f in the DVFS range [D]: at a
  // fixed power limit, f ~ (1 / MFMA busy)^(1/3) (powerLimitedClockGHz).
  double PowerClockExponent;
  // A VMEM load's round trip inside a GEMM that fills the chip (--gemm): every
  // CU streams, the 32 KB TCP and the ~12-entry VMEM queue of each CU fill, and
  // the round trip stretches until the memory system keeps up. gfx950: ~1000
  // clocks at K = 8192 with the working set mostly in L2 [M] (AMD, ROCm/gfx950-
  // gluon-tutorials docs/tcp_bound_tile_model.md §1, from the a16w16 v8 ATT
  // trace; its per-tile test at L = 1000 predicts the measured loop MFMA
  // efficiency of the 5 bandwidth-bound tile shapes within 2 points). Under --gemm an L2
  // hit takes it and a miss at least it (withGemmLoad); 0: the unloaded
  // L2HitLatency / VmemLatency stay. The number is TargetFacts::LoadedRoundTrip
  // (the plugin places copies for it: -amdgpu-pingpong-loaded-round-trip). On for
  // gfx950 since session 16 (docs/cycle-model.md "Session 16"); gfx942: not
  // sourced (0). PPSIM_PARAMS=gfx950.LoadedRoundTrip=0 turns it off.
  int LoadedRoundTrip;
  // The loaded round trip grows with the data the GEMM re-reads: AMD measured
  // LoadedRoundTrip on 4096x4096 fp16 at K = 8192 (A + B = 128 MiB); at K =
  // 16384 (256 MiB) "L2 capacity is exceeded and the miss rate rises": the v7
  // loop, which issues its copies ~1000 clocks apart, stalls (> 1000), and v8's
  // ~1500 clocks "cover even the worst-case HBM latency at large K" (<= 1500)
  // [A] ROCm/gfx950-gluon-tutorials intra_wave/a16w16/v8_sliceMN README §4.5-4.6.
  // LargeRoundTrip is the middle of (1000, 1500] [D]; linear in between [D]; held
  // above LargeRoundTripMiB (no source past it) [?]. Applies when the run
  // states the GEMM's K and element size (withGemmLoad). 0: off (gfx942).
  int LoadedRoundTripMiB;
  int LargeRoundTrip;
  int LargeRoundTripMiB;
  double HbmSustained; // 0.65: middle of cdna_model §5 "use 50-80 % of that as the sustained figure" [D]
  double L2BytesPerClkCu; // 16 ch x 128 B/clk per XCD / CUs per XCD: 2048/38 = 53.9 (gfx942), 2048/32 = 64 (gfx950) [A]/[D]
  int SmemLatencyPasses; // fallback if the sched model has none: 5 passes (WriteSMEM) [A] SISchedule.td
  // --- Barrier (cdna_model §1.3, §7) ---
  int BarrierReleaseDelay; // 0 extra clocks: the release cost is an open gap in the sources [?]
};

// HBM share per CU in bytes/clock, sustained: chip bandwidth / CUs / clock x fraction [D].
inline double hbmBytesPerClk(const TargetParams &P) {
  return P.HbmTBps * 1e12 / P.Cus / (P.EngineClockGHz * 1e9) * P.HbmSustained;
}

// The engine clock of a loop whose MFMA pipe is busy MfmaBusy (0..1) of the
// time, under the chip's power limit: the MAF anchor scaled by the power law,
// never above the peak. Targets without a sourced anchor run at the peak.
inline double powerLimitedClockGHz(const TargetParams &P, double MfmaBusy) {
  if (P.LoadedClockGHz <= 0 || MfmaBusy <= 0) return P.ClockGHz;
  double F = P.LoadedClockGHz * std::pow(P.LoadedMfmaBusy / MfmaBusy, 1.0 / P.PowerClockExponent);
  return F < P.ClockGHz ? F : P.ClockGHz;
}

// The parameters of a run at engine clock GHz: the HBM latency (sourced in
// clocks at the peak clock, i.e. fixed in ns) and the HBM bytes per clock
// follow the clock; the engine-domain units (LDS, L2, MFMA, issue) keep
// their clocks.
inline TargetParams atClock(TargetParams P, double GHz) {
  P.VmemLatency = (int)std::lround(P.VmemLatency * GHz / P.ClockGHz);
  P.EngineClockGHz = GHz;
  return P;
}

inline bool isGfx950(const std::string &Cpu) {
  const pingpong::target::TargetFacts *T = pingpong::target::factsFor(Cpu);
  return T && T->Id == pingpong::target::GPU::Gfx950;
}

// The loaded round trip of a GEMM that re-reads ReReadMiB of operand data
// (< 0: not stated): LoadedRoundTrip up to LoadedRoundTripMiB, LargeRoundTrip
// from LargeRoundTripMiB on, linear in between.
inline int loadedRoundTrip(const TargetParams &P, double ReReadMiB) {
  int L = P.LoadedRoundTrip;
  if (L <= 0 || P.LargeRoundTrip <= 0 || ReReadMiB <= P.LoadedRoundTripMiB) return L;
  if (ReReadMiB >= P.LargeRoundTripMiB) return P.LargeRoundTrip;
  double T = (ReReadMiB - P.LoadedRoundTripMiB) / (P.LargeRoundTripMiB - P.LoadedRoundTripMiB);
  return (int)std::lround(L + T * (P.LargeRoundTrip - L));
}

// The parameters of a --gemm run (the whole chip runs the GEMM): the loaded
// round trip, where sourced, for L2 hits, and no miss faster than a hit.
inline TargetParams withGemmLoad(TargetParams P, double ReReadMiB = 0) {
  int L = loadedRoundTrip(P, ReReadMiB);
  if (L <= 0) return P;
  P.L2HitLatency = L;
  P.VmemLatency = std::max(P.VmemLatency, L);
  return P;
}

// Applies PPSIM_PARAMS (see paramsFor); unknown names abort with a message.
inline TargetParams overridden(TargetParams P) {
  const char *E = std::getenv("PPSIM_PARAMS");
  if (!E || !*E) return P;
  std::string S(E);
  size_t Pos = 0;
  while (Pos < S.size()) {
    size_t End = S.find(',', Pos);
    if (End == std::string::npos) End = S.size();
    std::string Item = S.substr(Pos, End - Pos);
    Pos = End + 1;
    size_t Eq = Item.find('=');
    if (Eq == std::string::npos) continue;
    std::string N = Item.substr(0, Eq);
    double V = std::atof(Item.c_str() + Eq + 1);
    // "gfx950.Name=value": this target only
    size_t Dot = N.find('.');
    if (Dot != std::string::npos) {
      if (N.compare(0, Dot, P.Name) != 0) continue;
      N = N.substr(Dot + 1);
    }
    if (N == "LdsLatency") P.LdsLatency = (int)V;
    else if (N == "VmemLatency") P.VmemLatency = (int)V;
    else if (N == "L2HitLatency") P.L2HitLatency = (int)V;
    else if (N == "BarrierReleaseDelay") P.BarrierReleaseDelay = (int)V;
    else if (N == "HbmSustained") P.HbmSustained = V;
    else if (N == "L2BytesPerClkCu") P.L2BytesPerClkCu = V;
    else if (N == "LdsReadBytesPerClkPair") P.LdsReadBytesPerClkPair = V;
    else if (N == "LdsWriteBytesPerClkPair") P.LdsWriteBytesPerClkPair = V;
    else if (N == "LdsQueueDepth") P.LdsQueueDepth = (int)V;
    else if (N == "MfmaDepExtra") P.MfmaDepExtra = (int)V;
    else if (N == "LoadedClockGHz") P.LoadedClockGHz = V;
    else if (N == "LoadedMfmaBusy") P.LoadedMfmaBusy = V;
    else if (N == "PowerClockExponent") P.PowerClockExponent = V;
    else if (N == "LoadedRoundTrip") P.LoadedRoundTrip = (int)V;
    else if (N == "LoadedRoundTripMiB") P.LoadedRoundTripMiB = (int)V;
    else if (N == "LargeRoundTrip") P.LargeRoundTrip = (int)V;
    else if (N == "LargeRoundTripMiB") P.LargeRoundTripMiB = (int)V;
    else {
      std::fprintf(stderr, "pingpong-sim: PPSIM_PARAMS: unknown parameter '%s'\n", N.c_str());
      std::exit(2);
    }
  }
  return P;
}

inline const TargetParams &paramsFor(const std::string &Cpu) {
  static const TargetParams Gfx942 = {
      pingpong::target::Gfx942.CPU, pingpong::target::Gfx942.SIMDsPerCU, 4,
      pingpong::target::Gfx942.MaxWavesPerSIMD, pingpong::target::Gfx942.VGPRsPerSIMDLane,
      /*ValuDepLatency*/ 8, /*SaluDepLatency*/ 4, /*MfmaDepExtra*/ 2, /*MfmaCoexecDelay*/ 4,
      /*LdsLatency*/ 64, /*LdsRead*/ 64.0, /*LdsWrite*/ 64.0, /*LdsQueueDepth*/ 0,
      /*VmemLatency*/ 650, /*L2HitLatency*/ 294, /*HbmTBps*/ 5.3, /*Cus*/ 304,
      /*ClockGHz*/ 2.1, /*EngineClockGHz*/ 2.1, /*LoadedClockGHz*/ 1.207, /*LoadedMfmaBusy*/ 0.943,
      /*PowerClockExponent*/ 3.0, /*LoadedRoundTrip*/ 0, /*LoadedRoundTripMiB*/ 0, /*LargeRoundTrip*/ 0,
      /*LargeRoundTripMiB*/ 0,
      /*HbmSustained*/ 0.65, /*L2BytesPerClkCu*/ pingpong::target::l2BytesPerClkPerCU(pingpong::target::Gfx942),
      /*SmemLatencyPasses*/ 5, /*BarrierReleaseDelay*/ 0};
  static const TargetParams Gfx950 = {
      pingpong::target::Gfx950.CPU, pingpong::target::Gfx950.SIMDsPerCU, 4,
      pingpong::target::Gfx950.MaxWavesPerSIMD, pingpong::target::Gfx950.VGPRsPerSIMDLane,
      8, 4, 2, 4,
      64, 128.0, 64.0, /*LdsQueueDepth: off by default (TargetFacts: 8)*/ 0,
      650, 336, 8.0, 256,
      2.4, 2.4, /*LoadedClockGHz*/ 1.44, /*LoadedMfmaBusy*/ 0.995, 3.0, /*LoadedRoundTrip*/ (int)pingpong::target::Gfx950.LoadedRoundTrip,
      /*LoadedRoundTripMiB*/ 128, /*LargeRoundTrip*/ 1250, /*LargeRoundTripMiB*/ 256,
      0.65, pingpong::target::l2BytesPerClkPerCU(pingpong::target::Gfx950),
      5, 0};
  // PPSIM_PARAMS="Name=value,..." (or "gfx950.Name=value": one target) overrides parameters for a sensitivity study
  // (bench/calib.sh SWEEP; docs/cycle-model.md, "Calibration: published
  // pairs"). Never a default: every number above keeps its source.
  static const TargetParams O942 = overridden(Gfx942), O950 = overridden(Gfx950);
  return isGfx950(Cpu) ? O950 : O942;
}

// --- MFMA cycle table: include/pingpong/Target/MFMACycles.h (the plugin's
// mode choice reads the same table).
using pingpong::target::MfmaRule;
using pingpong::target::mfmaRules;

} // namespace ppsim

#endif
