//===- Main.cpp - pingpong-sim: the command line --------------------------===//
//
//   pingpong-sim run k.s [--kernel NAME] [--mcpu gfx942|gfx950]
//       [--waves-per-simd N] [--workgroups-per-cu N] [--iterations N]
//       [--loop LABEL] [--json out.json] [--timeline out.svg]
//
// The options, their checks and the SimOptions they make; the model is the
// library PingpongSim (lib/Sim), the output the views (Report.h). See
// docs/cycle-model.md.
//===----------------------------------------------------------------------===//
#include "Report.h"
#include "pingpong/Sim/Sim.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ppsim;

// ---- command line: llvm::cl, one subcommand per mode, typed options. Every
// option is accepted by all three subcommands so that the ones that do not
// apply get a sentence saying so (below) rather than "unknown argument".
static cl::OptionCategory SimCategory("pingpong-sim options");

static cl::SubCommand RunCmd(
    "run", "cycle model of one CDNA CU (gfx942 / gfx950) running the hot loop of an AMDGPU\n"
           "              assembly file for every wave of the workgroup(s) on the CU");
static cl::SubCommand VerifyCmd(
    "verify",
    "wait/barrier soundness checker on the instruction stream every wave executes\n"
    "              in the model (docs/waits-and-barriers.md, \"pingpong-sim verify\"):\n"
    "              (1) per wave, no register read/overwrite while a load writing it is outstanding\n"
    "                  without an s_waitcnt that guarantees it complete; an LDS DMA is complete\n"
    "                  (vmcnt) before the wave's own overlapping LDS access;\n"
    "              (2) every (read, write) pair of LDS accesses of two waves of a workgroup to\n"
    "                  overlapping bytes is in different barrier phases, the earlier one complete\n"
    "                  before the barrier that closes the phase before the later one;\n"
    "              (3) every wave executes the same number of s_barrier; a run that does not end\n"
    "                  is a hang;\n"
    "              (4) pacing: same-SIMD waves (w, w+4) entering the loop at different barrier\n"
    "                  counts never run loop MFMAs in the same barrier phase.\n"
    "              An unknown LDS address is \"cannot prove\", never a race. Default --iterations 4");
static cl::SubCommand AddrCmd(
    "addresses",
    "the LDS accesses every wave executes in the model, with the lane addresses it\n"
    "              computes; one file: counts per wave (--dump: one line per access); two files\n"
    "              (llc and llc + plugin from the same IR): equal multisets per wave, else the\n"
    "              first difference. Default --iterations 4");
static cl::extrahelp ExitCodes(
    "\nExit codes: 0 success / clean / equal; 1 bad input, (verify) a finding, (addresses) a\n"
    "difference; 2 bad command line (also no command), or (addresses) an LDS address unknown;\n"
    "3 (verify) no finding, but LDS pairs that cannot be proven ordered; 4 the loop did not run\n"
    "as asked (a wave ran fewer iterations than --iterations: nothing measured or verified).\n"
    "Workgroup size precedence: --waves-per-workgroup > --waves-per-simd (x4 waves, split over\n"
    "--workgroups-per-cu) > .reqd_workgroup_size > .max_flat_workgroup_size > 8 waves.\n"
    "Branches on data the model does not know go the way that still reaches the loop; each\n"
    "is listed under warnings. See docs/cycle-model.md.\n");

namespace {
// A count (iterations, waves, workgroups, LDS bytes, tile sizes).
struct PositiveParser : cl::parser<unsigned> {
  PositiveParser(cl::Option &O) : cl::parser<unsigned>(O) {}
  bool parse(cl::Option &O, StringRef, StringRef Arg, unsigned &V) {
    if (Arg.getAsInteger(10, V) || V == 0 || V > 1000000000)
      return O.error("expects a positive integer, got '" + Arg + "'");
    return false;
  }
};
// NAME=VALUE (--arg) and N=VALUE with N an SGPR number (--sgpr).
struct AssignmentParser : cl::parser<std::string> {
  AssignmentParser(cl::Option &O) : cl::parser<std::string>(O) {}
  bool parse(cl::Option &O, StringRef, StringRef Arg, std::string &V) {
    auto [Name, Value] = Arg.split('=');
    bool Ok = !Name.empty() && !Value.empty() && Arg.contains('=');
    if (Ok && O.ArgStr == "sgpr") {
      unsigned N;
      long long X;
      Name.consume_front("s");
      Ok = !Name.getAsInteger(10, N) && N <= 105 && !Value.getAsInteger(0, X);
    }
    if (!Ok)
      return O.error(O.ArgStr == "sgpr"
                         ? "expects N=VALUE with N an SGPR number (0-105) and VALUE an "
                           "integer, got '" + Arg + "'"
                         : "expects NAME=VALUE, got '" + Arg + "'");
    V = Arg.str();
    return false;
  }
};
} // namespace

#define ALL cl::sub(RunCmd), cl::sub(VerifyCmd), cl::sub(AddrCmd), cl::cat(SimCategory)
static cl::opt<std::string> InputFile(cl::Positional, cl::desc("<FILE.s>"), cl::sub(RunCmd),
                                      cl::sub(VerifyCmd), cl::cat(SimCategory));
static cl::list<std::string> AddrFiles(cl::Positional, cl::desc("<FILE.s> [OTHER.s]"), cl::sub(AddrCmd),
                                       cl::cat(SimCategory));
static cl::opt<bool> DumpOpt("dump", cl::desc("one line per LDS access (one file)"), cl::sub(AddrCmd),
                             cl::cat(SimCategory));
static cl::opt<std::string> KernelOpt("kernel", cl::desc("kernel to run (default: the first in the file)"),
                                      cl::value_desc("NAME"), ALL);
static cl::opt<std::string> McpuOpt("mcpu", cl::desc("gfx942 or gfx950 (default: .amdgcn_target, else gfx942)"),
                                    cl::value_desc("CPU"), ALL);
static cl::opt<unsigned, false, PositiveParser>
    WavesPerSimdOpt("waves-per-simd", cl::desc("waves per SIMD on the CU, all workgroups together (1-8)"),
                    cl::value_desc("N"), ALL);
static cl::opt<unsigned, false, PositiveParser>
    WgPerCuOpt("workgroups-per-cu", cl::desc("workgroups sharing the CU (default 1)"), cl::value_desc("N"), ALL);
static cl::opt<unsigned, false, PositiveParser>
    WavesPerWgOpt("waves-per-workgroup", cl::desc("waves per workgroup (overrides the others; 1-16)"),
                  cl::value_desc("N"), ALL);
static cl::opt<unsigned, false, PositiveParser>
    ItersOpt("iterations", cl::desc("loop trip count (run: default 16; verify, addresses: 4)"),
             cl::value_desc("N"), ALL);
static cl::opt<unsigned, false, PositiveParser>
    ItersPerVisitOpt("iterations-per-visit",
                     cl::desc("nested loops: iterations per entry into the loop (default: all); the loop "
                              "around it is followed until --iterations ran"),
                     cl::value_desc("N"), ALL);
static cl::opt<std::string> LoopOpt("loop", cl::desc("the loop whose back-edge branches to LABEL"),
                                    cl::value_desc("LABEL"), ALL);
static cl::list<std::string, bool, AssignmentParser>
    ArgOpt("arg",
           cl::desc("a kernel argument's value (NAME: .name in the metadata, or the byte offset in the "
                    "kernarg segment), used where the kernel loads it"),
           cl::value_desc("NAME=VALUE"), ALL);
static cl::list<std::string, bool, AssignmentParser>
    SgprOpt("sgpr", cl::desc("the initial value of SGPR N (sN)"), cl::value_desc("N=VALUE"), ALL);
static cl::list<unsigned> WgIdOpt(
    "workgroup-id", cl::CommaSeparated,
    cl::desc("the workgroup id SGPRs: workgroup g on the CU gets x = X+g, y = Y, z = Z (loops whose trip "
             "count depends on the workgroup id are not entered at x = 0)"),
    cl::value_desc("X[,Y,Z]"), ALL);
static cl::opt<double> L2Opt("l2-hit-rate", cl::desc("fraction of VMEM loads served by L2 (default 0)"),
                             cl::value_desc("F"), ALL);
static cl::list<unsigned, bool, PositiveParser>
    GemmOpt("gemm", cl::CommaSeparated,
            cl::desc("with --tile: the L2 hit rate from the GEMM the loop belongs to (A tiles re-read by "
                     "N/BN workgroups, B tiles by M/BM)"),
            cl::value_desc("M,N[,K]"), ALL);
static cl::opt<double> ElemBytesOpt("elem-bytes",
                                    cl::desc("with --gemm M,N,K: bytes per A/B element (0.5 for FP4): the data the "
                                             "GEMM re-reads sets the loaded round trip"),
                                    cl::value_desc("B"), ALL);
static cl::list<unsigned, bool, PositiveParser>
    TileOpt("tile", cl::CommaSeparated, cl::desc("the workgroup tile, with --gemm"), cl::value_desc("BM,BN"), ALL);
static cl::opt<unsigned, false, PositiveParser>
    LdsBytesOpt("lds-bytes",
                cl::desc("LDS a launch adds per workgroup to .group_segment_fixed_size (dynamic shared memory)"),
                cl::value_desc("N"), ALL);
static cl::opt<SimOptions::Occupancy> OccupancyOpt(
    "occupancy", cl::desc("when fewer workgroups fit on the CU than asked (VGPRs, LDS, wave slots)"),
    cl::values(clEnumValN(SimOptions::Occupancy::Check, "check", "an error (run's default)"),
               clEnumValN(SimOptions::Occupancy::Fit, "fit",
                          "run those that fit, report the CU's time for the asked number"),
               clEnumValN(SimOptions::Occupancy::Ignore, "ignore",
                          "simulate them anyway, with a warning (verify's and addresses' default)")),
    ALL);
static cl::opt<ClockRule> ClockOpt(
    "clock", cl::desc("the engine clock of the run (run)"),
    cl::values(clEnumValN(ClockRule::Peak, "peak", "the target's peak clock (default)"),
               clEnumValN(ClockRule::Power, "power",
                          "the clock under the chip's power limit at the loop's own MFMA busy (gfx942: "
                          "anchored at AMD's MAF clock; gfx950: at AMD's MI355X GEMM measurements)")),
    cl::init(ClockRule::Peak), cl::sub(RunCmd));
static cl::opt<double> ClockGHzOpt("clock-ghz", cl::desc("run at this engine clock (run; HBM latency and "
                                                         "bandwidth are fixed in ns, so they scale)"),
                                   cl::value_desc("GHz"), cl::sub(RunCmd));
static cl::opt<std::string> JsonOpt("json", cl::desc("write the results as JSON (run)"), cl::value_desc("FILE"),
                                    ALL);
static cl::opt<std::string> SvgOpt("timeline", cl::desc("draw the waves over time (run; and FILE.png if "
                                                        "rsvg-convert or ImageMagick convert is installed)"),
                                   cl::value_desc("FILE.svg"), ALL);
static cl::opt<bool> FullOpt("timeline-full",
                             cl::desc("draw the whole run (default: 4 steady-state iterations; run)"), ALL);
#undef ALL

static void printVersion(raw_ostream &OS) {
  OS << "pingpong-sim (AMDGPUPingpong cycle model of one CDNA CU, gfx942/gfx950), built with LLVM "
     << LLVM_VERSION_STRING << "\n";
}

// The subcommands, from LLVM's registry (for the messages on a missing or
// unknown one).
static std::string subcommandNames() {
  std::string S;
  for (cl::SubCommand *C : cl::getRegisteredSubcommands())
    if (!C->getName().empty())
      S += (S.empty() ? "'" : ", '") + C->getName().str() + "'";
  return S;
}

// verify and addresses: the model records every wave's instruction stream.
static void tracedRunOptions(SimOptions &SO) {
  SO.Trace = true;
  // a wave that runs far longer than the kernel's trip count allows is
  // stuck in a loop the model cannot leave: report it quickly as a hang
  SO.MaxInstrsPerWave = 200000 + 20000LL * SO.Iterations;
  // The verdict must not depend on timing: the clock limit only backs up
  // the instruction budget, and is never below `run`'s, so a memory-bound
  // kernel (spills: millions of clocks per iteration) is not a "hang".
  SO.MaxCycles = std::max(SO.MaxCycles, 8 * SO.MaxInstrsPerWave);
}

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(SimCategory); // libLLVM's own options are not this tool's
  cl::SetVersionPrinter(printVersion);
  const char *Overview = "pingpong-sim: the AMDGPUPingpong cycle model and race checker";
  if (argc >= 2 && argv[1][0] != '-') {
    bool Known = false;
    for (cl::SubCommand *C : cl::getRegisteredSubcommands())
      Known |= !C->getName().empty() && C->getName() == argv[1];
    if (!Known) {
      errs() << "pingpong-sim: error: unknown command '" << argv[1] << "' (expected one of "
             << subcommandNames() << ")\n(pingpong-sim --help lists the commands)\n";
      return 2;
    }
  }
  {
    std::string Msg;
    raw_string_ostream ES(Msg);
    if (!cl::ParseCommandLineOptions(argc, argv, Overview, &ES)) {
      ES.flush();
      StringRef M = StringRef(Msg).trim();
      M.consume_front("pingpong-sim: ");
      if (!M.empty()) errs() << "pingpong-sim: error: " << M << "\n";
      errs() << "(pingpong-sim --help lists the options)\n";
      return 2;
    }
  }
  if (!RunCmd && !VerifyCmd && !AddrCmd) {
    errs() << "pingpong-sim: error: no command (expected one of " << subcommandNames()
           << ")\n(pingpong-sim --help lists the commands)\n";
    return 2;
  }
  const bool Verify = bool(VerifyCmd), Addresses = bool(AddrCmd);
  const char *Command = Verify ? "verify" : Addresses ? "addresses" : "run";
  ParseOptions PO;
  SimOptions SO;
  std::string Json = JsonOpt, Svg = SvgOpt;
  bool Full = FullOpt, HitGiven = L2Opt.getNumOccurrences() > 0;
  bool ItersGiven = ItersOpt.getNumOccurrences() > 0;
  PO.File = InputFile;
  if (Addresses) {
    if (AddrFiles.size() > 2) {
      errs() << "pingpong-sim: error: addresses takes one or two files, got " << AddrFiles.size() << "\n";
      return 2;
    }
    if (AddrFiles.size() == 2 && DumpOpt) {
      errs() << "pingpong-sim: error: --dump lists the accesses of one file; compare two without it\n";
      return 2;
    }
    if (!AddrFiles.empty()) PO.File = AddrFiles[0];
  }
  PO.Mcpu = McpuOpt;
  SO.Kernel = KernelOpt;
  SO.Loop = LoopOpt;
  if (OccupancyOpt.getNumOccurrences())
    SO.OccupancyMode = OccupancyOpt;
  else if (Verify || Addresses)
    // their verdicts are about order, not time: two workgroups' waves that
    // could not share the CU still show what a race would look like
    SO.OccupancyMode = SimOptions::Occupancy::Ignore;
  auto Take = [](const auto &O, int &Out) {
    if (O.getNumOccurrences()) Out = (int)O;
  };
  Take(LdsBytesOpt, SO.DynamicLdsBytes);
  Take(WavesPerSimdOpt, SO.WavesPerSimd);
  Take(WgPerCuOpt, SO.WorkgroupsPerCu);
  Take(WavesPerWgOpt, SO.WavesPerWorkgroup);
  Take(ItersOpt, SO.Iterations);
  Take(ItersPerVisitOpt, SO.IterationsPerVisit);
  for (StringRef V : ArgOpt) {
    auto [Name, Value] = V.split('=');
    SO.Args.push_back({Name.str(), Value.str()});
  }
  for (StringRef V : SgprOpt) { // checked by AssignmentParser
    auto [Name, Value] = V.split('=');
    Name.consume_front("s");
    unsigned N = 0;
    long long X = 0;
    Name.getAsInteger(10, N);
    Value.getAsInteger(0, X);
    SO.Sgprs.push_back({N, (uint32_t)X});
  }
  if (WgIdOpt.size() > 3) {
    errs() << "pingpong-sim: error: --workgroup-id expects X[,Y,Z] (non-negative integers), got "
           << WgIdOpt.size() << " values\n";
    return 2;
  }
  SO.WorkgroupId.assign(WgIdOpt.begin(), WgIdOpt.end());
  std::vector<long> Gemm(GemmOpt.begin(), GemmOpt.end()), Tile(TileOpt.begin(), TileOpt.end());
  if (GemmOpt.getNumOccurrences() && (Gemm.size() < 2 || Gemm.size() > 3)) {
    errs() << "pingpong-sim: error: --gemm expects M,N[,K], got " << Gemm.size() << " value(s)\n";
    return 2;
  }
  if (TileOpt.getNumOccurrences() && Tile.size() != 2) {
    errs() << "pingpong-sim: error: --tile expects BM,BN, got " << Tile.size() << " value(s)\n";
    return 2;
  }
  if (HitGiven) {
    SO.L2HitRate = L2Opt;
    if (!(SO.L2HitRate >= 0 && SO.L2HitRate <= 1)) {
      errs() << "pingpong-sim: error: --l2-hit-rate must be in [0,1]\n";
      return 2;
    }
  }
  if (PO.File.empty()) {
    errs() << "pingpong-sim: error: no input file\n(pingpong-sim " << Command << " --help lists the options)\n";
    return 2;
  }
  if (ElemBytesOpt.getNumOccurrences() && Gemm.empty()) {
    errs() << "pingpong-sim: error: --elem-bytes needs --gemm M,N,K and a size > 0\n";
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
    SO.GemmLoad = true;
    if (Gemm.size() == 3) SO.L2Rule += " (K = " + std::to_string(Gemm[2]) + " does not enter the rule)";
    if (ElemBytesOpt.getNumOccurrences()) {
      if (Gemm.size() != 3 || !(ElemBytesOpt > 0)) {
        errs() << "pingpong-sim: error: --elem-bytes needs --gemm M,N,K and a size > 0\n";
        return 2;
      }
      // Data read by one workgroup only misses whatever its size (the rule
      // above); the round trip grows with the data re-read through L2.
      double Bytes = ((Gemm[1] > Tile[1] ? (double)Gemm[0] : 0) + (Gemm[0] > Tile[0] ? (double)Gemm[1] : 0)) *
                     Gemm[2] * ElemBytesOpt;
      SO.GemmReReadMiB = Bytes / (1024.0 * 1024.0);
    }
  }
  if (SO.WavesPerSimd > 8) { errs() << "pingpong-sim: error: --waves-per-simd is at most 8\n"; return 2; }
  if ((Verify || Addresses) && (!Json.empty() || !Svg.empty() || Full)) {
    errs() << "pingpong-sim: error: --json and --timeline are options of 'run', not '" << Command << "'\n";
    return 2;
  }
  if (Addresses) {
    if (!ItersGiven) SO.Iterations = 4;
    tracedRunOptions(SO);
    SO.TraceLanes = true;
    std::vector<std::string> Files(AddrFiles.begin(), AddrFiles.end());
    return runAddresses(PO, SO, Files, DumpOpt);
  }
  if (Verify) {
    if (!ItersGiven) SO.Iterations = 4;
    tracedRunOptions(SO);
  }
  Program P;
  SimError E;
  if (!parseProgram(PO, P, E)) {
    errs() << E.Message;
    return E.exitCode();
  }
  if (Verify)
    return runVerify(P, SO);
  const bool ClockGiven = ClockGHzOpt.getNumOccurrences() > 0;
  if (ClockGiven && !(ClockGHzOpt > 0)) {
    errs() << "pingpong-sim: for the --clock-ghz option: expects a positive clock, got " << ClockGHzOpt << "\n";
    return 2;
  }
  return runModel(P, SO, ClockGiven ? ClockRule::Given : ClockOpt.getValue(), ClockGHzOpt, Json, Svg, Full);
}
