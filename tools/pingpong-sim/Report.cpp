//===- Report.cpp - pingpong-sim: the text report, JSON and timeline -----===//
//
// What `run` writes from a SimResult: the text report (stdout), --json
// (schema_version 2, test: json-schema.test) and --timeline (SVG, and a PNG
// when a converter is installed). docs/cycle-model.md, "Output".
//
//===----------------------------------------------------------------------===//
#include "Report.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace llvm;

namespace ppsim {

namespace {
const char *colorFor(int Kind) {
  switch (Kind) {
  case (int)Cat::MFMA: return "#d62728";
  case (int)Cat::VALU: return "#ff9896";
  case (int)Cat::LDS: return "#2ca02c";
  case (int)Cat::VMEM: return "#1f77b4";
  case (int)Cat::SALU: case (int)Cat::SMEM: return "#9467bd";
  case (int)Cat::Branch: return "#8c564b";
  case (int)Cat::Unknown: return "#000000";
  case SegPassedWait: return "#7f7f7f"; // internal (barrier / waitcnt passed)
  case SegStall + StVmcnt: return "#aec7e8";
  case SegStall + StLgkmcnt: return "#98df8a";
  case SegStall + StBarrier: return "#e0e0e0";
  case SegStall + StMfmaBusy: return "#f7b6b6";
  case SegStall + StDependency: return "#ffdd99";
  case SegStall + StArbHigher: return "#f0f080";
  case SegStall + StArbOlder: return "#f8f8c0";
  case SegStall + StNop: return "#c5b0d5";
  case SegStall + StValuBlocked: return "#f7b6b6";
  case SegStall + StLdsQueue: return "#c7e9c0";
  }
  return "#ffffff";
}

} // namespace

void writeSvg(const SimResult &R, const std::string &Path, bool Full) {
  int64_t T0 = 0, T1 = R.TotalCycles;
  if (!Full) {
    T0 = R.WindowBegin;
    T1 = std::min<int64_t>(R.WindowEnd, T0 + (int64_t)(4 * R.CyclesPerIter) + 1);
  }
  double Span = std::max<double>(1, T1 - T0);
  double Width = std::min(2400.0, std::max(800.0, Span / 2)), X0 = 110, LaneH = 18;
  double Scale = Width / Span;
  int Lanes = (int)R.Waves.size() + 4;
  double H = 76 + Lanes * (LaneH + 4) + 60;
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (EC) {
    errs() << "pingpong-sim: error: cannot write " << Path << ": " << EC.message() << "\n";
    return;
  }
  OS << formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
                "font-family=\"monospace\" font-size=\"11\">\n",
                (int)(X0 + Width + 20), (int)H);
  OS << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  OS << formatv("<text x=\"10\" y=\"16\">{0} {1} loop {2}: {3:F1} cycles/iter, MFMA busy {4:F1}%, clocks {5}-{6}</text>\n",
                R.Kernel, R.Mcpu, R.LoopLabel, R.CyclesPerIter, R.MfmaBusyPct, T0, T1);
  // Time axis: clocks, ticks at a round step (1, 2 or 5 x 10^k), about 10.
  double Mag = std::pow(10.0, std::floor(std::log10(Span / 10))), Step = Mag;
  for (double M : {1.0, 2.0, 5.0, 10.0})
    if (M * Mag >= Span / 10) {
      Step = M * Mag;
      break;
    }
  OS << formatv("<line x1=\"{0:F1}\" x2=\"{1:F1}\" y1=\"30\" y2=\"30\" stroke=\"black\" stroke-width=\"0.8\"/>"
                "<text x=\"4\" y=\"42\">clock</text>\n",
                X0, X0 + Span * Scale);
  for (double T = std::ceil(T0 / Step) * Step; T <= T1; T += Step)
    OS << formatv("<line x1=\"{0:F1}\" x2=\"{0:F1}\" y1=\"27\" y2=\"33\" stroke=\"black\" stroke-width=\"0.8\"/>"
                  "<text class=\"tick\" x=\"{0:F1}\" y=\"44\" text-anchor=\"middle\">{1}</text>\n",
                  X0 + (T - T0) * Scale, (int64_t)T);
  double Y = 50;
  auto Rect = [&](int64_t B, int64_t E, double Yy, double Hh, const char *Col) {
    B = std::max(B, T0);
    E = std::min(E, T1);
    if (E <= B) return;
    OS << formatv("<rect x=\"{0:F2}\" y=\"{1:F1}\" width=\"{2:F2}\" height=\"{3:F1}\" fill=\"{4}\"/>\n",
                  X0 + (B - T0) * Scale, Yy, std::max(0.3, (E - B) * Scale), Hh, Col);
  };
  for (size_t S = 0; S < R.XdlBusy.size(); ++S) {
    OS << formatv("<text x=\"4\" y=\"{0:F1}\">SIMD{1} XDL</text>\n", Y + 13, S);
    for (auto &Iv : R.XdlBusy[S]) Rect(Iv.first, Iv.second - 1, Y, LaneH, colorFor((int)Cat::MFMA));
    Y += LaneH + 4;
  }
  for (auto &W : R.Waves) {
    OS << formatv("<text x=\"4\" y=\"{0:F1}\">wg{1} w{2} s{3}</text>\n", Y + 13, W.Wg, W.Id, W.Simd);
    for (auto &Sg : W.Segs) {
      double Hh = Sg.Kind >= SegStall ? LaneH * 0.5 : LaneH;
      Rect(Sg.Begin, Sg.End, Y + (LaneH - Hh) / 2, Hh, colorFor(Sg.Kind));
    }
    // Cluster labels (C<n> as in the report) where the wave enters one.
    double LastLabel = -1e9;
    for (auto [T, C] : W.ClusterStarts) {
      if (T < T0 || T > T1)
        continue;
      double X = X0 + (T - T0) * Scale;
      OS << formatv("<line x1=\"{0:F1}\" x2=\"{0:F1}\" y1=\"{1:F1}\" y2=\"{2:F1}\" stroke=\"#555\" stroke-width=\"0.4\"/>\n",
                    X, Y - 2, Y + 3);
      if (X - LastLabel >= 22) {
        OS << formatv("<text class=\"cluster\" x=\"{0:F1}\" y=\"{1:F1}\" font-size=\"8\">C{2}</text>\n",
                      X + 1, Y - 2, C);
        LastLabel = X;
      }
    }
    for (auto T : W.IterStart)
      if (T >= T0 && T <= T1)
        OS << formatv("<line x1=\"{0:F1}\" x2=\"{0:F1}\" y1=\"{1:F1}\" y2=\"{2:F1}\" stroke=\"black\" stroke-width=\"0.6\"/>\n",
                      X0 + (T - T0) * Scale, Y - 1, Y + LaneH + 1);
    Y += LaneH + 4;
  }
  // legend
  Y += 10;
  struct { int K; const char *N; } Leg[] = {
      {(int)Cat::MFMA, "MFMA"}, {(int)Cat::VALU, "VALU"}, {(int)Cat::LDS, "LDS"}, {(int)Cat::VMEM, "VMEM"},
      {(int)Cat::SALU, "SALU/SMEM"}, {(int)Cat::Branch, "branch"}, {SegPassedWait, "barrier/waitcnt"},
      {SegStall + StVmcnt, "wait vmcnt"}, {SegStall + StLgkmcnt, "wait lgkmcnt"}, {SegStall + StBarrier, "wait barrier"},
      {SegStall + StMfmaBusy, "MFMA pipe busy"}, {SegStall + StDependency, "dependency"},
      {SegStall + StArbHigher, "lost arb (prio)"}, {SegStall + StNop, "s_nop"}};
  double Lx = 10;
  for (auto &L : Leg) {
    OS << formatv("<rect x=\"{0:F0}\" y=\"{1:F0}\" width=\"12\" height=\"12\" fill=\"{2}\" stroke=\"#444\" stroke-width=\"0.3\"/>"
                  "<text x=\"{3:F0}\" y=\"{4:F0}\">{5}</text>\n",
                  Lx, Y, colorFor(L.K), Lx + 15, Y + 10, L.N);
    Lx += 15 + 7.0 * strlen(L.N) + 12;
    if (Lx > X0 + Width - 100) { Lx = 10; Y += 18; }
  }
  OS << "</svg>\n";
  OS.close();
  // PNG if a converter exists (not required)
  std::string Png = Path;
  if (Png.size() > 4 && Png.substr(Png.size() - 4) == ".svg") Png.resize(Png.size() - 4);
  Png += ".png";
  outs().flush();
  std::optional<StringRef> Quiet[] = {StringRef(""), StringRef(""), StringRef("")};
  int Rc = -1;
  if (auto P = sys::findProgramByName("rsvg-convert"))
    Rc = sys::ExecuteAndWait(*P, {*P, "-o", Png, Path}, std::nullopt, Quiet);
  else if (auto P2 = sys::findProgramByName("convert"))
    Rc = sys::ExecuteAndWait(*P2, {*P2, Path, Png}, std::nullopt, Quiet);
  uint64_t Size = 0;
  if (Rc == 0 && !sys::fs::file_size(Png, Size) && Size > 0)
    outs() << "timeline: " << Path << " and " << Png << "\n";
  else {
    sys::fs::remove(Png);
    outs() << "timeline: " << Path << " (no working rsvg-convert/convert: no PNG)\n";
  }
}

void writeJson(const SimResult &R, const std::string &Path) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (EC) {
    errs() << "pingpong-sim: error: cannot write " << Path << ": " << EC.message() << "\n";
    return;
  }
  json::OStream J(OS, 2);
  J.object([&] {
    // Version 2: snake_case stall keys, clusters as objects.
    J.attribute("schema_version", 2);
    J.attribute("kernel", R.Kernel);
    J.attribute("mcpu", R.Mcpu);
    J.attribute("loop", R.LoopLabel);
    J.attribute("loop_lines", json::Array{R.LoopLineBegin, R.LoopLineEnd});
    J.attribute("waves_per_workgroup", R.WavesPerWg);
    J.attribute("workgroups", R.Wgs);
    J.attribute("workgroup_size_source", R.WgSource);
    J.attribute("workgroups_asked", R.WgsAsked);
    J.attribute("workgroups_fit", R.WgsFit);
    J.attribute("occupancy_limit", R.OccupancyLimit);
    J.attribute("iterations", R.Iterations);
    J.attribute("iterations_line", R.ItersLine);
    J.attributeArray("inputs", [&] { for (auto &S : R.Inputs) J.value(S); });
    J.attribute("warmup_iterations", R.Warmup);
    J.attribute("cycles_per_iteration", R.CyclesPerIter);
    J.attribute("cycles_per_iteration_at_asked_occupancy", R.CyclesPerIterAtAsked);
    J.attribute("workgroups_ran_serially", R.WorkgroupsSerial);
    J.attribute("mfma_per_iteration_per_wave", R.MfmasPerIter);
    J.attribute("mfma_busy_pct", R.MfmaBusyPct);
    J.attribute("clock_ghz", R.ClockGHz);
    J.attribute("clock_rule", R.ClockRule);
    J.attribute("ns_per_iteration", R.NsPerIter);
    J.attribute("ns_per_iteration_at_asked_occupancy", R.NsPerIter * R.CyclesPerIterAtAsked / std::max(1e-9, R.CyclesPerIter));
    J.attributeArray("mfma_busy_pct_per_simd", [&] {
      for (size_t S = 0; S < R.XdlBusy.size(); ++S) J.value(R.MfmaBusySimd[S]);
    });
    J.attributeObject("resource_bound", [&] {
      J.attribute("cycles_per_iteration", R.ResourceBound);
      J.attribute("cycles_per_iteration_at_asked_occupancy",
                  R.ResourceBound * R.CyclesPerIterAtAsked / std::max(1e-9, R.CyclesPerIter));
      J.attribute("ns_per_iteration_at_asked_occupancy",
                  R.BoundNsPerIter * R.CyclesPerIterAtAsked / std::max(1e-9, R.CyclesPerIter));
      J.attribute("unit", R.ResourceBoundUnit);
      J.attributeArray("units", [&] {
        for (const SimResult::UnitLoad &U : R.Units)
          J.object([&] {
            J.attribute("name", U.Name);
            J.attribute("cycles_per_iteration", U.PerIter);
          });
      });
    });
    // the latency floors and the loop's floor (Floors.h)
    const double Asked = R.CyclesPerIterAtAsked / std::max(1e-9, R.CyclesPerIter);
    auto InFlight = [&](const char *Key, const SimResult::InFlight &IF) {
      J.attributeObject(Key, [&] {
        J.attribute("cycles_per_iteration", IF.PerIter);
        J.attribute("requests_per_iteration", IF.Requests);
        J.attribute("max_in_flight", IF.MaxInFlight);
        J.attribute("mean_latency", IF.MeanLatency);
      });
    };
    J.attributeObject("latency_floor", [&] {
      J.attribute("cycles_per_iteration", R.Floor.Latency);
      J.attribute("cycles_per_iteration_at_asked_occupancy", R.Floor.Latency * Asked);
      J.attribute("kind", R.Floor.LatencyWhat);
      J.attributeObject("dependence_chain", [&] {
        J.attribute("cycles_per_iteration", R.Floor.Chain);
        J.attribute("instructions", R.Floor.ChainInsts);
        J.attribute("chain", R.Floor.ChainWhat);
      });
      InFlight("vmem_in_flight", R.Floor.Vmem);
      InFlight("lgkm_in_flight", R.Floor.Lgkm);
    });
    J.attributeObject("barrier_drain_bound", [&] {
      J.attribute("cycles_per_iteration", R.Floor.BarrierDrain);
      J.attribute("cycles_per_iteration_at_asked_occupancy", R.Floor.BarrierDrain * Asked);
      J.attribute("unit", R.Floor.DrainUnit);
      J.attribute("port_cycles_per_iteration", R.Floor.DrainPortClocks);
      J.attribute("barriers_per_iteration", R.Floor.DrainBarriers);
      J.attribute("gap", R.Floor.DrainGap);
      J.attribute("none", R.Floor.DrainNone);
    });
    J.attribute("wave_path_cycles_per_iteration", R.Floor.WavePath);
    J.attributeObject("floor", [&] {
      J.attribute("cycles_per_iteration", R.Floor.Floor);
      J.attribute("cycles_per_iteration_at_asked_occupancy", R.Floor.Floor * Asked);
      J.attribute("ns_per_iteration_at_asked_occupancy", R.FloorNsPerIter * Asked);
      J.attribute("binds", R.Floor.Binds);
    });
    J.attribute("total_cycles", R.TotalCycles);
    J.attribute("l2_hit_rate", R.L2HitRate);
    J.attribute("l2_rule", R.L2Rule);
    J.attribute("loop_load_bytes_per_workgroup_iteration",
                (double)R.LoopLoadBytes / std::max(1, R.Iterations) / std::max(1, R.Wgs));
    J.attribute("loop_loads", R.LoopLoads);
    J.attribute("loop_l2_hits", R.LoopL2Hits);
    J.attribute("window", json::Array{R.WindowBegin, R.WindowEnd});
    J.attributeObject("stalls_steady_state", [&] {
      for (int S = 0; S < NumStalls; ++S) {
        int64_t Sum = 0;
        for (auto &W : R.Waves) Sum += W.LoopStalls[S];
        J.attribute(stallKey(S), Sum);
      }
    });
    J.attributeArray("clusters", [&] {
      for (auto &C : R.Clusters)
        J.object([&] {
          J.attribute("label", C.Label);
          J.attribute("first_instruction", C.Begin);
          J.attribute("end_instruction", C.End);
          J.attribute("mfma", C.Mfmas);
          J.attribute("lds", C.Lds);
          J.attribute("vmem", C.Vmem);
          J.attribute("valu", C.Valu);
          J.attribute("salu", C.Salu);
        });
    });
    J.attributeArray("waves", [&] {
      for (auto &W : R.Waves)
        J.object([&] {
          J.attribute("workgroup", W.Wg);
          J.attribute("wave", W.Id);
          J.attribute("simd", W.Simd);
          J.attribute("end", W.EndTime);
          J.attribute("instructions", W.Instrs);
          J.attribute("iterations_run", W.Iters);
          J.attribute("loop_entries", W.Visits);
          J.attributeArray("iteration_start", [&] { for (auto T : W.IterStart) J.value(T); });
          J.attributeArray("cluster_cycles_per_iteration", [&] { for (auto X : W.ClusterTime) J.value(X); });
          J.attributeObject("stalls_steady_state", [&] {
            for (int S = 0; S < NumStalls; ++S) J.attribute(stallKey(S), W.LoopStalls[S]);
          });
          J.attributeObject("stalls_total", [&] {
            for (int S = 0; S < NumStalls; ++S) J.attribute(stallKey(S), W.Stalls[S]);
          });
        });
    });
    J.attributeArray("warnings", [&] { for (auto &S : R.Warnings) J.value(S); });
    J.attributeArray("unknown_instructions", [&] { for (auto &S : R.Unknown) J.value(S); });
  });
  OS << "\n";
}

void printReport(const SimResult &R, const Program &P) {
  raw_ostream &OS = outs();
  OS << formatv("kernel: {0}  target: {1}\n", R.Kernel, R.Mcpu);
  OS << formatv("loop: {0} (lines {1}-{2}), {3} MFMA per wave per iteration\n", R.LoopLabel, R.LoopLineBegin,
                R.LoopLineEnd, R.MfmasPerIter);
  OS << formatv("waves: {0} workgroup(s) x {1} waves ({2} per SIMD), from {3}\n", R.Wgs, R.WavesPerWg,
                R.WavesPerSimd, R.WgSource);
  OS << formatv("iterations: {0} (steady state: start of iteration {1} to start of iteration {2})\n",
                R.Iterations, R.Warmup, R.LastIter);
  OS << R.ItersLine << "\n";
  for (auto &S : R.Inputs) OS << "input: " << S << "\n";
  OS << formatv("cycles per iteration: {0:F1}\n", R.CyclesPerIter);
  if (R.Wgs < R.WgsAsked)
    OS << formatv("occupancy: {0} of the {1} workgroups asked fit on the CU ({2}); the CU's time for {1} "
                  "workgroups' iterations: {3:F1} cycles\n",
                  R.Wgs, R.WgsAsked, R.OccupancyLimit, R.CyclesPerIterAtAsked);
  OS << formatv("MFMA pipe busy: {0:F1} %  (per SIMD:", R.MfmaBusyPct);
  for (size_t S = 0; S < R.XdlBusy.size(); ++S) OS << formatv(" {0:F1}", R.MfmaBusySimd[S]);
  OS << ")\n";
  if (R.ClockRule != "peak")
    OS << formatv("engine clock: {0:F3} GHz ({1}); {2:F1} ns per iteration\n", R.ClockGHz, R.ClockRule,
                  R.NsPerIter);
  if (!R.Units.empty()) {
    // per kind of unit its busiest one ("LDS port, SIMD pair 1"), largest first
    std::vector<const SimResult::UnitLoad *> Kinds;
    for (const SimResult::UnitLoad &U : R.Units) {
      StringRef Kind = StringRef(U.Name).rsplit(',').first;
      auto It = llvm::find_if(Kinds, [&](auto *K) { return StringRef(K->Name).rsplit(',').first == Kind; });
      if (It == Kinds.end()) Kinds.push_back(&U);
      else if (U.PerIter > (*It)->PerIter) *It = &U;
    }
    llvm::sort(Kinds, [](auto *A, auto *B) { return A->PerIter > B->PerIter; });
    OS << formatv("resource bound: {0:F1} cycles/iteration ({1}): the run reaches {2:F1} % of it\n",
                  R.ResourceBound, R.ResourceBoundUnit,
                  100.0 * R.ResourceBound / std::max(1e-9, R.CyclesPerIter));
    OS << "  per unit, the busiest of each kind (cycles/iteration):";
    for (const SimResult::UnitLoad *K : Kinds)
      if (K->PerIter > 0) OS << formatv(" {0} {1:F1};", K->Name, K->PerIter);
    OS << "\n";
  }
  if (R.Floor.Floor > 0) {
    const SimResult::Floors &F = R.Floor;
    OS << formatv("latency floor: {0:F1} cycles/iteration ({1}): dependence chain {2:F1}", F.Latency, F.LatencyWhat,
                  F.Chain);
    if (F.ChainInsts) OS << formatv(" ({0} instructions per iteration: {1})", F.ChainInsts, F.ChainWhat);
    auto IF = [&](const char *Name, const SimResult::InFlight &X) {
      if (X.MaxInFlight)
        OS << formatv("; {0} in flight {1:F1} ({2:F1} requests per iteration, at most {3} outstanding per wave, "
                      "{4:F0} clocks each)",
                      Name, X.PerIter, X.Requests, X.MaxInFlight, X.MeanLatency);
    };
    IF("VMEM", F.Vmem);
    IF("LDS/SMEM", F.Lgkm);
    OS << "\n";
    if (F.BarrierDrain > 0)
      OS << formatv("barrier-drain bound: {0:F1} cycles/iteration ({1}): {2:F1} port clocks + {3:F2} drained "
                    "barriers x {4:F0} idle clocks\n",
                    F.BarrierDrain, F.DrainUnit, F.DrainPortClocks, F.DrainBarriers, F.DrainGap);
    else
      OS << "barrier-drain bound: none (" << F.DrainNone << ")\n";
    OS << formatv("floor: {0:F1} cycles/iteration, the {1} binds: the run reaches {2:F1} % of it\n", F.Floor, F.Binds,
                  100.0 * F.Floor / std::max(1e-9, R.CyclesPerIter));
    OS << formatv("wave path (one wave alone in this order: its waits at the level's latency, its dependences, "
                  "its MFMAs; no other wave, no bandwidth): {0:F1} cycles/iteration\n",
                  F.WavePath);
  }
  OS << formatv("total cycles: {0}\n", R.TotalCycles);
  if (!R.L2Rule.empty()) OS << "L2 rule: " << R.L2Rule << "\n";
  if (R.LoopLoads) {
    double PerWgIter = (double)R.LoopLoadBytes / std::max(1, R.Iterations) / std::max(1, R.Wgs);
    OS << formatv("VMEM loads in the loop: {0} B per workgroup per iteration; L2 hit rate {1:F4}: "
                  "{2} of {3} loop loads hit\n",
                  PerWgIter, R.L2HitRate, R.LoopL2Hits, R.LoopLoads);
  }
  OS << "issue stalls in the steady-state window (clocks, summed over waves):\n";
  int64_t WaveTime = 0;
  for (auto &W : R.Waves) WaveTime += W.IterStart[R.LastIter] - W.IterStart[R.Warmup];
  for (int S = 0; S < NumStalls; ++S) {
    int64_t Sum = 0;
    for (auto &W : R.Waves) Sum += W.LoopStalls[S];
    OS << formatv("  {0,-36} {1,10} ({2:F1} %)\n", stallName(S), Sum, WaveTime ? 100.0 * Sum / WaveTime : 0.0);
  }
  OS << "clusters (split at s_setprio, s_barrier, '; sched_barrier' lines):\n";
  for (auto &C : R.Clusters) OS << "  " << C.Label << "\n";
  OS << "cycles per iteration spent in each cluster, per wave:\n";
  OS << "  wave       ";
  for (size_t C = 0; C < R.Clusters.size(); ++C) OS << formatv(" {0,7}", "C" + std::to_string(C));
  OS << "\n";
  for (auto &W : R.Waves) {
    OS << formatv("  wg{0} w{1,-2} s{2} ", W.Wg, W.Id, W.Simd);
    for (auto X : W.ClusterTime) OS << formatv(" {0,7:F1}", X);
    OS << "\n";
  }
  OS << "per wave: loop start/end clock, cycles/iteration, steady-state stalls (clocks):\n";
  OS << "  wave          start   window  cyc/iter   vmcnt  lgkmcnt barrier mfmabusy  dep  arb-prio arb-age   nop\n";
  for (auto &W : R.Waves) {
    int64_t A = W.IterStart[R.Warmup], E = W.IterStart[R.LastIter];
    OS << formatv("  wg{0} w{1,-2} s{2} {3,8} {4,8} {5,9:F1} {6,7} {7,8} {8,7} {9,8} {10,4} {11,9} {12,7} {13,5}\n", W.Wg,
                  W.Id, W.Simd, W.IterStart[0], E, double(E - A) / (R.LastIter - R.Warmup), W.LoopStalls[StVmcnt],
                  W.LoopStalls[StLgkmcnt], W.LoopStalls[StBarrier], W.LoopStalls[StMfmaBusy] + W.LoopStalls[StValuBlocked],
                  W.LoopStalls[StDependency], W.LoopStalls[StArbHigher], W.LoopStalls[StArbOlder], W.LoopStalls[StNop]);
  }
  if (!P.Warnings.empty() || !R.Warnings.empty()) {
    OS << "warnings:\n";
    for (auto &S : P.Warnings) OS << "  " << S << "\n";
    for (auto &S : R.Warnings) OS << "  " << S << "\n";
  }
  if (!R.Unknown.empty()) {
    OS << "unknown instructions (reported, not modelled):\n";
    for (auto &S : R.Unknown) OS << "  " << S << "\n";
  }
}

int runModel(const Program &P, const SimOptions &SO, ClockRule Rule, double GivenGHz,
             const std::string &Json, const std::string &Svg, bool Full) {
  SimResult R;
  SimError E;
  if (!simulateAtClock(P, SO, Rule, GivenGHz, R, E)) {
    if (E.Code == Errc::LoopNotRun) {
      outs() << R.ItersLine << "\n";
      for (auto &S : P.Warnings) R.Warnings.insert(R.Warnings.begin(), S);
      if (!R.Warnings.empty()) {
        outs() << "warnings:\n";
        for (auto &S : R.Warnings) outs() << "  " << S << "\n";
      }
      outs().flush();
      errs() << P.File << ": error: the loop did not run as asked:\n" << R.ItersMsg;
      return 4;
    }
    errs() << P.File << ": error: " << E.Message << "\n";
    return E.exitCode();
  }
  printReport(R, P);
  if (!Json.empty()) {
    for (auto &S : P.Warnings) R.Warnings.insert(R.Warnings.begin(), S);
    writeJson(R, Json);
  }
  if (!Svg.empty()) writeSvg(R, Svg, Full);
  return 0;
}

} // namespace ppsim
