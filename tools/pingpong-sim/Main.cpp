//===- Main.cpp - pingpong-sim command line, reports, JSON and timeline ---===//
//
//   pingpong-sim run k.s [--kernel NAME] [--mcpu gfx942|gfx950]
//       [--waves-per-simd N] [--workgroups-per-cu N] [--iterations N]
//       [--loop LABEL] [--json out.json] [--timeline out.svg]
//
// See docs/cycle-model.md.
//===----------------------------------------------------------------------===//
#include "Addresses.h"
#include "Report.h"
#include "Sim.h"
#include "Verify.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;
using namespace ppsim;

static const char *Usage =
    "usage: pingpong-sim run FILE.s [options]\n"
    "       pingpong-sim verify FILE.s [options]\n"
    "       pingpong-sim addresses FILE.s [OTHER.s] [options] [--dump]\n"
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
    "        of LDS; an unknown address is \"cannot prove\", never a race.\n"
    "        Verdicts: clean: summary '... 0 findings', exit 0; a finding (race,\n"
    "        missing wait, hang): 'verify: finding: ...', exit 1; no finding but\n"
    "        LDS pairs not proven ordered: summary '... 0 findings, N cannot\n"
    "        prove' and 'verify: cannot prove: ...', exit 3 (4: the loop did not\n"
    "        run as asked, nothing verified). Default --iterations for verify: 4.\n"
    "addresses: the LDS accesses every wave executes in the model, with the lane\n"
    "        addresses the model computes (address VGPR lanes + offsets; LDS DMA:\n"
    "        M0 + offset + lane x size); ds_read2/write2 count as two accesses.\n"
    "        One file: per wave, LDS instructions executed, distinct ones, accesses\n"
    "        by kind (read / write / dma-write / atomic); --dump adds one line per\n"
    "        access (iteration, line, kind, bytes per lane, lanes 0-3, a hash of\n"
    "        all active lanes). Two files (e.g. llc and llc + plugin from the same\n"
    "        IR): per wave, the multisets over the whole run of (kind, bytes per\n"
    "        lane, exec mask, 64 lane addresses) must be equal (order is free):\n"
    "        exit 0 with one line; else exit 1 with the first difference (the\n"
    "        access one file lacks, and the nearest surplus access of the same\n"
    "        kind and width in that file, lanes 0-3 of both). An LDS access whose\n"
    "        address the model does not know (address VGPR, or M0 of an LDS DMA)\n"
    "        in either file: exit 2, naming it; never \"equal\". A file without\n"
    "        any LDS access: exit 1. Default --iterations: 4.\n"
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
    "  --workgroup-id X[,Y,Z]   the workgroup id SGPRs (.amdhsa_system_sgpr_workgroup_id_*):\n"
    "                           workgroup g on the CU gets x = X+g (default X = 0), y = Y,\n"
    "                           z = Z; loops whose trip count depends on the workgroup id\n"
    "                           (causal attention) are not entered at x = 0\n"
    "  --lds-bytes N            LDS a launch adds per workgroup to .group_segment_fixed_size\n"
    "                           (dynamic shared memory: Triton's `shared`, HIP's extern)\n"
    "  --occupancy check|fit|ignore\n"
    "                           when fewer workgroups fit on the CU than asked (VGPRs,\n"
    "                           LDS, wave slots): check = error (run's default), fit = run\n"
    "                           those that fit and report the CU's time for the asked\n"
    "                           number (cycles x asked / fit), ignore = simulate them anyway\n"
    "                           with a warning (verify's and addresses' default)\n"
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
    "  --dump                   (addresses) one line per LDS access\n"
    "  --help                   this text\n"
    "  --version                the tool's and LLVM's version\n"
    "\n"
    "Exit codes: 0 success / clean / equal; 1 bad input, (verify) a finding, (addresses) a\n"
    "difference; 2 bad command line, or (addresses) an LDS address unknown\n"
    "(also no arguments); 3 (verify) no finding, but pairs that cannot be proven ordered\n"
    "(an LDS address unknown); 4 the loop did not run as asked (a wave ran fewer\n"
    "iterations than --iterations: nothing is measured or verified).\n"
    "Branches on data the model does not know go the way that still reaches the loop\n"
    "(after its iterations: the kernel's end); each one is listed under warnings.\n"
    "Workgroup size precedence: --waves-per-workgroup > --waves-per-simd (x4 waves, split over\n"
    "--workgroups-per-cu) > .reqd_workgroup_size > .max_flat_workgroup_size\n"
    "(amdgpu metadata) > 8 waves.\n";

// ---- command line (llvm::cl, one subcommand per mode). Every option is
// accepted by both subcommands so that the ones that do not apply get a
// sentence saying so; values are checked below with the project's messages.
static cl::SubCommand RunCmd("run", "cycle model of one CU running the hot loop");
static cl::SubCommand VerifyCmd("verify", "wait/barrier soundness checker on the model's execution");
static cl::SubCommand AddrCmd("addresses", "LDS address traces of the model's execution, and their comparison");
static cl::opt<std::string> InputFile(cl::Positional, cl::desc("<FILE.s>"), cl::sub(RunCmd), cl::sub(VerifyCmd));
static cl::list<std::string> AddrFiles(cl::Positional, cl::desc("<FILE.s> [OTHER.s]"), cl::sub(AddrCmd));
static cl::opt<bool> DumpOpt("dump", cl::desc("one line per LDS access"), cl::sub(AddrCmd));
#define BOTH cl::sub(RunCmd), cl::sub(VerifyCmd), cl::sub(AddrCmd)
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
static cl::opt<std::string> WgIdOpt("workgroup-id", BOTH);
static cl::opt<std::string> L2Opt("l2-hit-rate", BOTH);
static cl::opt<std::string> GemmOpt("gemm", BOTH);
static cl::opt<std::string> TileOpt("tile", BOTH);
static cl::opt<std::string> LdsBytesOpt("lds-bytes", BOTH);
static cl::opt<std::string> OccupancyOpt("occupancy", BOTH);
static cl::opt<std::string> JsonOpt("json", BOTH);
static cl::opt<std::string> SvgOpt("timeline", BOTH);
static cl::opt<bool> FullOpt("timeline-full", BOTH);
#undef BOTH

static void printVersion(raw_ostream &OS) {
  OS << "pingpong-sim (AMDGPUPingpong cycle model of one CDNA CU, gfx942/gfx950), built with LLVM "
     << LLVM_VERSION_STRING << "\n";
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
  if (argc < 2) {
    errs() << "pingpong-sim: error: no command (expected 'run', 'verify' or 'addresses')\n" << Usage;
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
  if (strcmp(argv[1], "run") && strcmp(argv[1], "verify") && strcmp(argv[1], "addresses")) {
    errs() << "pingpong-sim: error: unknown command '" << argv[1] << "' (expected 'run', 'verify' or 'addresses')\n"
           << Usage;
    return 2;
  }
  const bool Verify = !strcmp(argv[1], "verify");
  const bool Addresses = !strcmp(argv[1], "addresses");
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
  if (OccupancyOpt.getNumOccurrences()) {
    if (OccupancyOpt == "check") SO.OccupancyMode = SimOptions::Occupancy::Check;
    else if (OccupancyOpt == "fit") SO.OccupancyMode = SimOptions::Occupancy::Fit;
    else if (OccupancyOpt == "ignore") SO.OccupancyMode = SimOptions::Occupancy::Ignore;
    else {
      errs() << "pingpong-sim: error: --occupancy expects check, fit or ignore, got '" << OccupancyOpt << "'\n";
      return 2;
    }
  } else if (Verify || Addresses) {
    // their verdicts are about order, not time: two workgroups' waves that
    // could not share the CU still show what a race would look like
    SO.OccupancyMode = SimOptions::Occupancy::Ignore;
  }
  if (!Int(LdsBytesOpt, SO.DynamicLdsBytes) ||
      !Int(WavesPerSimdOpt, SO.WavesPerSimd) || !Int(WgPerCuOpt, SO.WorkgroupsPerCu) ||
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
  if (WgIdOpt.getNumOccurrences()) { // --workgroup-id X[,Y,Z]
    const char *C = WgIdOpt.c_str();
    while (*C) {
      char *E;
      long long X = strtoll(C, &E, 0);
      if (E == C || X < 0 || X > 0xffffffffLL || (*E && *E != ',') || SO.WorkgroupId.size() == 3) {
        SO.WorkgroupId.clear();
        break;
      }
      SO.WorkgroupId.push_back((uint32_t)X);
      C = *E ? E + 1 : E;
    }
    if (SO.WorkgroupId.empty()) {
      errs() << "pingpong-sim: error: --workgroup-id expects X[,Y,Z] (non-negative integers), got '" << WgIdOpt << "'\n";
      return 2;
    }
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
  if ((Verify || Addresses) && (!Json.empty() || !Svg.empty() || Full)) {
    errs() << "pingpong-sim: error: --json and --timeline are options of 'run', not '" << argv[1] << "'\n";
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
    Program P;
    SimError E;
    if (!parseProgram(PO, P, E)) {
      errs() << E.Message;
      return E.exitCode();
    }
    SimResult R;
    bool Ok = simulate(P, SO, R, E);
    if (Ok && R.ItersShort) {
      // the loop was not run as asked: the checker saw a different program
      outs() << "verify: " << R.ItersLine << "\n";
      outs().flush();
      errs() << P.File << ": error: the loop did not run as asked, nothing is verified:\n" << R.ItersMsg;
      return 4;
    }
    if (!Ok) {
      // a run that does not end is a finding (hang); anything else is bad input
      if (E.isHang()) {
        outs() << "verify: finding: hang: " << E.Message << "\n";
        return 1;
      }
      errs() << P.File << ": error: " << E.Message << "\n";
      return E.exitCode();
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
    // "cannot prove" is its own verdict: the summary does not read as clean.
    outs() << "verify: " << V.Waves << " waves, " << V.Barriers << " barriers each, " << V.Pairs
           << " LDS pairs checked, 0 findings"
           << (V.Unproven ? ", " + std::to_string(V.Unproven) + " cannot prove" : std::string()) << "\n";
    if (V.Unproven) { // lib/Sync: an unknown address is "cannot prove", never a race
      outs() << "verify: cannot prove: " << V.Unproven << " LDS pair(s) not proven ordered; first: " << V.CannotProve
             << "\n";
      return 3;
    }
    return 0;
  }
  Program P;
  SimError E;
  if (!parseProgram(PO, P, E)) {
    errs() << E.Message;
    return E.exitCode();
  }
  SimResult R;
  if (!simulate(P, SO, R, E)) {
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
