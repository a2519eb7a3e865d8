//===- Main.cpp - pingpong-sim command line, reports, JSON and timeline ---===//
//
//   pingpong-sim run k.s [--kernel NAME] [--mcpu gfx942|gfx950]
//       [--waves-per-simd N] [--workgroups-per-cu N] [--iterations N]
//       [--loop LABEL] [--json out.json] [--timeline out.svg]
//
// See docs/cycle-model.md.
//===----------------------------------------------------------------------===//
#include "Sim.h"
#include "Verify.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace llvm;
using namespace ppsim;

static const char *Usage =
    "usage: pingpong-sim run FILE.s [options]\n"
    "       pingpong-sim verify FILE.s [options]\n"
    "\n"
    "run:    cycle model of one CDNA CU (gfx942 / gfx950) running the hot loop of an\n"
    "        AMDGPU assembly file for every wave of the workgroup(s) on the CU.\n"
    "verify: wait/barrier soundness checker on the instruction stream every wave\n"
    "        executes in the model (docs/waits-and-barriers.md, \"pingpong-sim verify\"):\n"
    "        (1) per wave, no register read/overwrite while a load writing it is\n"
    "            outstanding without an s_waitcnt that guarantees it complete\n"
    "            (vmcnt in order; lgkmcnt in order for LDS, SMEM/FLAT only at 0);\n"
    "            an LDS DMA is complete (vmcnt) before the wave's own overlapping\n"
    "            LDS access;\n"
    "        (2) every (read, write) pair of LDS accesses of two waves of a\n"
    "            workgroup to overlapping bytes is in different barrier phases and\n"
    "            the earlier access is complete before the barrier that closes the\n"
    "            phase before the later one (LDS DMA = write completing on vmcnt);\n"
    "        (3) every wave executes the same number of s_barrier; a simulation\n"
    "            that does not finish is a hang;\n"
    "        (4) pacing: if two waves of one SIMD (w, w+4) enter the hot loop at\n"
    "            different barrier counts (asymmetric sync), their loop MFMAs never\n"
    "            share a barrier phase.\n"
    "        LDS bytes come from the address VGPR's lane values + offsets when the\n"
    "        model knows them; otherwise (and for LDS DMA) the access overlaps all\n"
    "        of LDS. Prints the first finding and exits 1; clean: one summary line,\n"
    "        exit 0. Default --iterations for verify: 4.\n"
    "\n"
    "options:\n"
    "  --kernel NAME            kernel to run (default: the first in the file)\n"
    "  --mcpu gfx942|gfx950     target (default: from .amdgcn_target, else gfx942)\n"
    "  --waves-per-simd N       waves per SIMD on the CU (all workgroups together)\n"
    "  --workgroups-per-cu N    workgroups sharing the CU (default 1)\n"
    "  --waves-per-workgroup N  waves per workgroup (overrides the others; 1..16)\n"
    "  --iterations N           loop trip count (back-edge taken N-1 times; default 16)\n"
    "  --loop LABEL             the loop whose back-edge branches to LABEL\n"
    "  --iterations-per-visit N nested loops: iterations per entry into the loop (default:\n"
    "                           all); the loop around it is followed until --iterations ran\n"
    "  --arg NAME=VALUE         a kernel argument's value (NAME: .name in the metadata, or\n"
    "                           the byte offset in the kernarg segment); used where the\n"
    "                           kernel loads it (s_load from the kernarg pointer)\n"
    "  --sgpr N=VALUE           the initial value of SGPR N (sN)\n"
    "  --l2-hit-rate F          fraction of VMEM loads served by L2 (default 0)\n"
    "  --gemm M,N[,K] --tile BM,BN\n"
    "                           derive the L2 hit rate from the GEMM the loop belongs to:\n"
    "                           A tiles re-read by N/BN workgroups, B tiles by M/BM;\n"
    "                           miss = BM*BN*(1/M+1/N)/(BM+BN) (docs/cycle-model.md)\n"
    "  --json FILE              write the results as JSON (run only)\n"
    "  --timeline FILE.svg      draw the waves over time (and FILE.png if rsvg-convert\n"
    "                           or ImageMagick convert is installed)\n"
    "  --timeline-full          draw the whole run (default: 4 steady-state iterations)\n"
    "                           (--timeline/--timeline-full: run only)\n"
    "  --help                   this text\n"
    "  --version                the tool's and LLVM's version\n"
    "\n"
    "Exit codes: 0 success / clean; 1 bad input, or (verify) a finding; 2 bad command line\n"
    "(also no arguments); 3 (verify) no finding, but pairs that cannot be proven ordered\n"
    "(an LDS address unknown); 4 the loop did not run as asked (a wave ran fewer\n"
    "iterations than --iterations: nothing is measured or verified).\n"
    "Branches on data the model does not know go the way that still reaches the loop\n"
    "(after its iterations: the kernel's end); each one is listed under warnings.\n"
    "Workgroup size precedence: --waves-per-workgroup > --waves-per-simd (x4 waves, split over\n"
    "--workgroups-per-cu) > .reqd_workgroup_size > .max_flat_workgroup_size\n"
    "(amdgpu metadata) > 8 waves.\n";

static const char *colorFor(int Kind) {
  switch (Kind) {
  case (int)Cat::MFMA: return "#d62728";
  case (int)Cat::VALU: return "#ff9896";
  case (int)Cat::LDS: return "#2ca02c";
  case (int)Cat::VMEM: return "#1f77b4";
  case (int)Cat::SALU: case (int)Cat::SMEM: return "#9467bd";
  case (int)Cat::Branch: return "#8c564b";
  case (int)Cat::Unknown: return "#000000";
  case 50: return "#7f7f7f"; // internal (barrier / waitcnt passed)
  case 100 + StVmcnt: return "#aec7e8";
  case 100 + StLgkmcnt: return "#98df8a";
  case 100 + StBarrier: return "#e0e0e0";
  case 100 + StMfmaBusy: return "#f7b6b6";
  case 100 + StDependency: return "#ffdd99";
  case 100 + StArbHigher: return "#f0f080";
  case 100 + StArbOlder: return "#f8f8c0";
  case 100 + StNop: return "#c5b0d5";
  case 100 + StValuBlocked: return "#f7b6b6";
  }
  return "#ffffff";
}

static void writeSvg(const SimResult &R, const std::string &Path, bool Full) {
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
      double Hh = Sg.Kind >= 100 ? LaneH * 0.5 : LaneH;
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
      {(int)Cat::SALU, "SALU/SMEM"}, {(int)Cat::Branch, "branch"}, {50, "barrier/waitcnt"},
      {100 + StVmcnt, "wait vmcnt"}, {100 + StLgkmcnt, "wait lgkmcnt"}, {100 + StBarrier, "wait barrier"},
      {100 + StMfmaBusy, "MFMA pipe busy"}, {100 + StDependency, "dependency"},
      {100 + StArbHigher, "lost arb (prio)"}, {100 + StNop, "s_nop"}};
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

static void writeJson(const SimResult &R, const std::string &Path) {
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
    J.attribute("iterations", R.Iterations);
    J.attribute("iterations_line", R.ItersLine);
    J.attributeArray("inputs", [&] { for (auto &S : R.Inputs) J.value(S); });
    J.attribute("warmup_iterations", R.Warmup);
    J.attribute("cycles_per_iteration", R.CyclesPerIter);
    J.attribute("mfma_per_iteration_per_wave", R.MfmasPerIter);
    J.attribute("mfma_busy_pct", R.MfmaBusyPct);
    J.attributeArray("mfma_busy_pct_per_simd", [&] {
      for (size_t S = 0; S < R.XdlBusy.size(); ++S) J.value(R.MfmaBusySimd[S]);
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

static void printReport(const SimResult &R, const Program &P) {
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
  OS << formatv("MFMA pipe busy: {0:F1} %  (per SIMD:", R.MfmaBusyPct);
  for (size_t S = 0; S < R.XdlBusy.size(); ++S) OS << formatv(" {0:F1}", R.MfmaBusySimd[S]);
  OS << ")\n";
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

// ---- command line (llvm::cl, one subcommand per mode). Every option is
// accepted by both subcommands so that the ones that do not apply get a
// sentence saying so; values are checked below with the project's messages.
static cl::SubCommand RunCmd("run", "cycle model of one CU running the hot loop");
static cl::SubCommand VerifyCmd("verify", "wait/barrier soundness checker on the model's execution");
#define BOTH cl::sub(RunCmd), cl::sub(VerifyCmd)
static cl::opt<std::string> InputFile(cl::Positional, cl::desc("<FILE.s>"), BOTH);
static cl::opt<std::string> KernelOpt("kernel", cl::desc("kernel to run"), BOTH);
static cl::opt<std::string> McpuOpt("mcpu", cl::desc("gfx942|gfx950"), BOTH);
static cl::opt<std::string> WavesPerSimdOpt("waves-per-simd", BOTH);
static cl::opt<std::string> WgPerCuOpt("workgroups-per-cu", BOTH);
static cl::opt<std::string> WavesPerWgOpt("waves-per-workgroup", BOTH);
static cl::opt<std::string> ItersOpt("iterations", BOTH);
static cl::opt<std::string> ItersPerVisitOpt("iterations-per-visit", BOTH);
static cl::opt<std::string> LoopOpt("loop", BOTH);
static cl::list<std::string> ArgOpt("arg", BOTH);
static cl::list<std::string> SgprOpt("sgpr", BOTH);
static cl::opt<std::string> L2Opt("l2-hit-rate", BOTH);
static cl::opt<std::string> GemmOpt("gemm", BOTH);
static cl::opt<std::string> TileOpt("tile", BOTH);
static cl::opt<std::string> JsonOpt("json", BOTH);
static cl::opt<std::string> SvgOpt("timeline", BOTH);
static cl::opt<bool> FullOpt("timeline-full", BOTH);
#undef BOTH

static void printVersion(raw_ostream &OS) {
  OS << "pingpong-sim (AMDGPUPingpong cycle model of one CDNA CU, gfx942/gfx950), built with LLVM "
     << LLVM_VERSION_STRING << "\n";
}

int main(int argc, char **argv) {
  if (argc < 2) {
    errs() << "pingpong-sim: error: no command (expected 'run' or 'verify')\n" << Usage;
    return 2;
  }
  for (int A = 1; A < argc; ++A)
    if (!strcmp(argv[A], "--help") || !strcmp(argv[A], "-help") || !strcmp(argv[A], "-h") ||
        (A == 1 && !strcmp(argv[A], "help"))) {
      outs() << Usage;
      return 0;
    }
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-version")) {
    printVersion(outs());
    return 0;
  }
  if (strcmp(argv[1], "run") && strcmp(argv[1], "verify")) {
    errs() << "pingpong-sim: error: unknown command '" << argv[1] << "' (expected 'run' or 'verify')\n" << Usage;
    return 2;
  }
  const bool Verify = !strcmp(argv[1], "verify");
  {
    std::string Msg;
    raw_string_ostream ES(Msg);
    // only this tool's options: libLLVM's own cl options are not offered
    if (!cl::ParseCommandLineOptions(argc, argv, "pingpong-sim", &ES)) {
      ES.flush();
      StringRef M = StringRef(Msg).trim();
      M.consume_front("pingpong-sim: ");
      if (!M.empty()) errs() << "pingpong-sim: error: " << M << "\n";
      errs() << "(pingpong-sim --help lists the options)\n";
      return 2;
    }
  }
  ParseOptions PO;
  SimOptions SO;
  std::string Json = JsonOpt, Svg = SvgOpt;
  bool Full = FullOpt, HitGiven = L2Opt.getNumOccurrences() > 0;
  bool ItersGiven = ItersOpt.getNumOccurrences() > 0;
  std::vector<long> Gemm, Tile;
  PO.File = InputFile;
  PO.Mcpu = McpuOpt;
  SO.Kernel = KernelOpt;
  SO.Loop = LoopOpt;
  auto Int = [&](cl::opt<std::string> &O, int &Out) {
    if (!O.getNumOccurrences()) return true;
    char *E;
    long X = strtol(O.c_str(), &E, 10);
    if (O.empty() || *E || X <= 0 || X > 1000000000) {
      errs() << "pingpong-sim: error: --" << O.ArgStr << " expects a positive integer, got '" << O << "'\n";
      return false;
    }
    Out = (int)X;
    return true;
  };
  if (!Int(WavesPerSimdOpt, SO.WavesPerSimd) || !Int(WgPerCuOpt, SO.WorkgroupsPerCu) ||
      !Int(WavesPerWgOpt, SO.WavesPerWorkgroup) || !Int(ItersOpt, SO.Iterations) ||
      !Int(ItersPerVisitOpt, SO.IterationsPerVisit))
    return 2;
  for (auto &V : ArgOpt) {
    size_t Eq = V.find('=');
    if (Eq == std::string::npos || Eq == 0 || Eq + 1 == V.size()) {
      errs() << "pingpong-sim: error: --arg expects NAME=VALUE, got '" << V << "'\n";
      return 2;
    }
    SO.Args.push_back({V.substr(0, Eq), V.substr(Eq + 1)});
  }
  for (auto &V : SgprOpt) {
    size_t Eq = V.find('=');
    std::string Rn = Eq == std::string::npos ? V : V.substr(0, Eq), Rv = Eq == std::string::npos ? "" : V.substr(Eq + 1);
    if (!Rn.empty() && Rn[0] == 's') Rn = Rn.substr(1);
    char *E1, *E2;
    unsigned long Ri = strtoul(Rn.c_str(), &E1, 10);
    long long X = strtoll(Rv.c_str(), &E2, 0);
    if (Rn.empty() || *E1 || Ri > 105 || Rv.empty() || *E2) {
      errs() << "pingpong-sim: error: --sgpr expects N=VALUE with N an SGPR number (0-105) and VALUE an integer, got '" << V << "'\n";
      return 2;
    }
    SO.Sgprs.push_back({(unsigned)Ri, (uint32_t)X});
  }
  for (auto *O : {&GemmOpt, &TileOpt}) {
    if (!O->getNumOccurrences()) continue;
    bool IsGemm = O == &GemmOpt;
    std::vector<long> Xs;
    const char *C = O->c_str();
    while (*C) {
      char *E;
      long X = strtol(C, &E, 10);
      if (E == C || X <= 0 || (*E && *E != ',')) { Xs.clear(); break; }
      Xs.push_back(X);
      C = *E ? E + 1 : E;
    }
    size_t Lo = 2, Hi = IsGemm ? 3 : 2;
    if (Xs.size() < Lo || Xs.size() > Hi) {
      errs() << "pingpong-sim: error: --" << O->ArgStr << " expects " << (IsGemm ? "M,N[,K]" : "BM,BN")
             << " (positive integers), got '" << *O << "'\n";
      return 2;
    }
    (IsGemm ? Gemm : Tile) = Xs;
  }
  if (HitGiven) {
    char *E;
    SO.L2HitRate = strtod(L2Opt.c_str(), &E);
    if (L2Opt.empty() || *E || SO.L2HitRate < 0 || SO.L2HitRate > 1) {
      errs() << "pingpong-sim: error: --l2-hit-rate must be in [0,1]\n";
      return 2;
    }
  }
  if (PO.File.empty()) {
    errs() << "pingpong-sim: error: no input file\n" << Usage;
    return 2;
  }
  if (!Gemm.empty() || !Tile.empty()) {
    if (Gemm.empty() || Tile.empty()) {
      errs() << "pingpong-sim: error: --gemm and --tile go together (the rule needs the problem and the workgroup tile)\n";
      return 2;
    }
    if (HitGiven) {
      errs() << "pingpong-sim: error: --l2-hit-rate and --gemm both set the L2 hit rate; give one\n";
      return 2;
    }
    if (Tile[0] > Gemm[0] || Tile[1] > Gemm[1]) {
      errs() << "pingpong-sim: error: --tile " << Tile[0] << "," << Tile[1] << " is larger than --gemm "
             << Gemm[0] << "," << Gemm[1] << "\n";
      return 2;
    }
    SO.L2HitRate = l2ReuseRule(Gemm[0], Gemm[1], Tile[0], Tile[1], SO.L2Rule);
    if (Gemm.size() == 3) SO.L2Rule += " (K = " + std::to_string(Gemm[2]) + " does not enter the rule)";
  }
  if (SO.WavesPerSimd > 8) { errs() << "pingpong-sim: error: --waves-per-simd is at most 8\n"; return 2; }
  if (Verify && (!Json.empty() || !Svg.empty() || Full)) {
    errs() << "pingpong-sim: error: --json and --timeline are options of 'run', not 'verify'\n";
    return 2;
  }
  if (Verify) {
    if (!ItersGiven) SO.Iterations = 4;
    SO.Trace = true;
    // a wave that runs far longer than the kernel's trip count allows is
    // stuck in a loop the model cannot leave: report it quickly as a hang
    SO.MaxInstrsPerWave = 200000 + 20000LL * SO.Iterations;
    // The verdict must not depend on timing: the clock limit only backs up
    // the instruction budget, and is never below `run`'s, so a memory-bound
    // kernel (spills: millions of clocks per iteration) is not a "hang".
    SO.MaxCycles = std::max(SO.MaxCycles, 8 * SO.MaxInstrsPerWave);
    Program P;
    if (!parseProgram(PO, P)) return 1;
    SimResult R;
    std::string Err;
    bool Ok = simulate(P, SO, R, Err);
    if (Ok && R.ItersShort) {
      // the loop was not run as asked: the checker saw a different program
      outs() << "verify: " << R.ItersLine << "\n";
      outs().flush();
      errs() << P.File << ": error: the loop did not run as asked, nothing is verified:\n" << R.ItersMsg;
      return 4;
    }
    if (!Ok) {
      // a run that does not end is a finding (hang); anything else is bad input
      if (Err.find("did not finish") != std::string::npos || Err.find("endless loop") != std::string::npos) {
        outs() << "verify: finding: hang: " << Err << "\n";
        return 1;
      }
      errs() << P.File << ": error: " << Err << "\n";
      return R.BadOption ? 2 : 1;
    }
    VerifyContext C{P, R, R.WavesPerWg, R.Wgs};
    VerifyResult V;
    bool Clean = verifyTraces(C, V);
    outs() << "verify: kernel " << R.Kernel << ", " << R.Mcpu << ", "
           << (R.HasLoop ? "loop " + R.LoopLabel + " run " + std::to_string(R.Iterations) + " times"
                         : std::string("no MFMA loop: straight run"))
           << ", " << R.Wgs << " workgroup(s) x " << R.WavesPerWg << " waves (" << R.WgSource << ")\n";
    if (R.HasLoop) outs() << "verify: " << R.ItersLine << "\n";
    outs() << "verify: buffer rule: LDS addresses computed for " << (V.LdsAccesses - V.UnknownAddr) << " of "
           << V.LdsAccesses << " LDS accesses; " << V.UnknownAddr << " unknown (pairs with them: cannot prove)\n";
    if (R.HasLoop) {
      // the same counts for the accesses of the hot loop's body only
      long L = 0, LU = 0, D = 0, DU = 0;
      for (auto &W : R.Waves)
        for (auto &St : W.Trace) {
          if (St.Lds < 0 || St.Pc >= R.LoopBody.size() || !R.LoopBody[St.Pc]) continue;
          const Inst &In = P.Insts[St.Pc];
          bool Dma = In.LdsDma;
          bool Known = W.LdsAddrs[St.Lds].Known;
          if (!Dma && (In.C != Cat::LDS || In.Mnem.find("permute") != std::string::npos ||
                       In.Mnem.find("swizzle") != std::string::npos || In.Mnem == "ds_nop"))
            continue;
          (Dma ? D : L) += 1;
          (Dma ? DU : LU) += !Known;
        }
      outs() << "verify: in the loop: LDS addresses computed for " << (L - LU) << " of " << L << " ds accesses, "
             << (D - DU) << " of " << D << " LDS DMA\n";
    }
    if (V.DmaAccesses)
      outs() << "verify: LDS DMA: address (M0 + offset + lane x size) computed for "
             << (V.DmaAccesses - V.DmaUnknown) << " of " << V.DmaAccesses << " LDS DMA; " << V.DmaUnknown
             << " with M0 unknown\n";
    if (!Clean) {
      outs() << "verify: finding: " << V.Finding << "\n";
      return 1;
    }
    if (V.PacingPairs)
      outs() << "verify: asymmetric loop entry: pacing checked on " << V.PacingPairs << " same-SIMD wave pairs\n";
    outs() << "verify: " << V.Waves << " waves, " << V.Barriers << " barriers each, " << V.Pairs
           << " LDS pairs checked, 0 findings\n";
    if (V.Unproven) { // lib/Sync: an unknown address is "cannot prove", never a race
      outs() << "verify: cannot prove: " << V.Unproven << " LDS pair(s) not proven ordered; first: " << V.CannotProve
             << "\n";
      return 3;
    }
    return 0;
  }
  Program P;
  if (!parseProgram(PO, P)) return 1;
  SimResult R;
  std::string Err;
  if (!simulate(P, SO, R, Err)) {
    if (R.ItersShort) {
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
    errs() << P.File << ": error: " << Err << "\n";
    return R.BadOption ? 2 : 1;
  }
  printReport(R, P);
  if (!Json.empty()) {
    for (auto &S : P.Warnings) R.Warnings.insert(R.Warnings.begin(), S);
    writeJson(R, Json);
  }
  if (!Svg.empty()) writeSvg(R, Svg, Full);
  return 0;
}
