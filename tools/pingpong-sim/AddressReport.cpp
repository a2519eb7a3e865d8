//===- AddressReport.cpp - pingpong-sim addresses: the command ------------===//
//
// One traced run per file (SimOptions::TraceLanes), then the summary and
// --dump of one file or the comparison of two (Addresses.cpp), as text; the
// exit codes of docs/cycle-model.md, "LDS address traces".
//
//===----------------------------------------------------------------------===//
#include "Report.h"
#include "pingpong/Sim/Addresses.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace ppsim {

namespace {
struct AddrRun {
  Program P;
  SimResult R;
  AddressTrace T;
};

std::string waveLabel(const AddrRun &X, int W) {
  const WaveResult &WR = X.R.Waves[W];
  return (X.R.Wgs > 1 ? "workgroup " + std::to_string(WR.Wg) + " " : std::string()) + "wave " +
         std::to_string(WR.Id);
}

std::string iterLabel(const AddrRun &X, int It) {
  if (!X.R.HasLoop) return "straight run";
  return It > 0 ? "iteration " + std::to_string(It) : It == 0 ? "before the loop" : "after the loop";
}

void printLanes(raw_ostream &OS, const AddrAccess &A) {
  OS << "lanes 0-3:";
  for (int L = 0; L < 4; ++L) {
    if (A.Key.Exec >> L & 1) OS << format(" 0x%x", A.Key.Addr[L]);
    else OS << " -";
  }
}

uint32_t laneHash(const AccessKey &K) { // FNV-1a over the active lanes' addresses
  uint32_t H = 2166136261u;
  for (int L = 0; L < 64; ++L) {
    if (!(K.Exec >> L & 1)) continue;
    for (int B = 0; B < 4; ++B) H = (H ^ ((K.Addr[L] >> (8 * B)) & 0xff)) * 16777619u;
  }
  return H;
}

// Runs one file. Returns -1 when it ran (X filled), else the exit code.
int runOne(const ParseOptions &PO, const SimOptions &SO, AddrRun &X) {
  SimError E;
  if (!parseProgram(PO, X.P, E)) {
    errs() << E.Message;
    return E.exitCode();
  }
  bool Ok = simulate(X.P, SO, X.R, E);
  if (Ok && X.R.ItersShort) {
    outs() << "addresses: " << PO.File << ": " << X.R.ItersLine << "\n";
    outs().flush();
    errs() << PO.File << ": error: the loop did not run as asked, nothing is compared:\n" << X.R.ItersMsg;
    return 4;
  }
  if (!Ok) {
    errs() << PO.File << ": error: " << E.Message << "\n";
    return E.exitCode();
  }
  X.T = collectAddresses(X.P, X.R);
  return -1;
}

std::string runLine(const AddrRun &X) {
  const SimResult &R = X.R;
  return "kernel " + R.Kernel + ", " + R.Mcpu + ", " +
         (R.HasLoop ? "loop " + R.LoopLabel + " run " + std::to_string(R.Iterations) + " times"
                    : std::string("no MFMA loop: straight run")) +
         ", " + std::to_string(R.Wgs) + " workgroup(s) x " + std::to_string(R.WavesPerWg) + " waves";
}

long accessCount(const AddressTrace &T) {
  long N = 0;
  for (auto &W : T.Waves) N += (long)W.A.size();
  return N;
}

void printSummary(const AddrRun &X, bool Dump) {
  outs() << "addresses: " << runLine(X) << "\n";
  for (size_t W = 0; W < X.T.Waves.size(); ++W) {
    const WaveAccesses &WA = X.T.Waves[W];
    long ByKind[4] = {};
    for (auto &A : WA.A) ByKind[(int)A.Key.Kind]++;
    outs() << "addresses: " << waveLabel(X, (int)W) << ": " << WA.Instrs << " LDS instructions (" << WA.Distinct
           << " distinct), " << WA.A.size() << " accesses:";
    for (int K = 0; K < 4; ++K)
      if (ByKind[K]) outs() << " " << ByKind[K] << " " << accessKindName((AccessKind)K);
    if (WA.ExecUnknown) outs() << "; " << WA.ExecUnknown << " with exec unknown (all lanes counted)";
    outs() << "\n";
    if (!Dump) continue;
    for (auto &A : WA.A) {
      const Inst &In = X.P.Insts[A.Pc];
      outs() << "  " << waveLabel(X, (int)W) << " "
             << (!X.R.HasLoop ? std::string("straight")
                 : A.Iter > 0 ? "it " + std::to_string(A.Iter)
                 : A.Iter == 0 ? std::string("pre") : std::string("post"))
             << " line " << In.Line << " " << accessKindName(A.Key.Kind) << " " << A.Key.Width << "B";
      if (A.Part) outs() << " (2nd address)";
      if (A.Dma) outs() << format(" m0 0x%x", A.M0);
      outs() << format(" exec 0x%llx ", (unsigned long long)A.Key.Exec);
      printLanes(outs(), A);
      outs() << format(" hash %08x", laneHash(A.Key)) << " '" << In.Text << "'\n";
    }
  }
  outs() << "addresses: " << X.T.Waves.size() << " waves, " << accessCount(X.T)
         << " LDS accesses, all addresses known\n";
}

// The first difference, with the access's instruction in the file that has
// it and the nearest candidate in the file that lacks it.
void printDifference(const std::vector<AddrRun> &Runs, const std::vector<std::string> &Files, const AddressDiff &D) {
  if (!D.WaveCountMismatch.empty()) {
    outs() << "addresses: differ: the runs have different waves (" << D.WaveCountMismatch << "): " << Files[0]
           << ": " << runLine(Runs[0]) << "; " << Files[1] << ": " << runLine(Runs[1]) << "\n";
    return;
  }
  int Has = 1 - D.MissingFrom, Lacks = D.MissingFrom;
  const AddrRun &XH = Runs[Has], &XL = Runs[Lacks];
  const Inst &In = XH.P.Insts[D.Access->Pc];
  outs() << "addresses: differ: " << waveLabel(XH, D.Wave) << ": an LDS access of " << Files[Has]
         << " is missing from " << Files[Lacks] << " (" << Files[Has] << " has it " << D.Want << " time(s), "
         << Files[Lacks] << " " << D.Have << "; the wave's accesses: " << XH.T.Waves[D.Wave].A.size() << " and "
         << XL.T.Waves[D.Wave].A.size() << ")\n";
  outs() << "  " << Files[Has] << ": line " << In.Line << " '" << In.Text << "' (" << iterLabel(XH, D.Access->Iter)
         << (D.Access->Part ? ", its 2nd address" : "") << "): " << accessKindName(D.Access->Key.Kind) << ", "
         << D.Access->Key.Width << " bytes per lane, ";
  printLanes(outs(), *D.Access);
  outs() << "\n";
  if (!D.Near) {
    outs() << "  " << Files[Lacks] << " has no surplus " << accessKindName(D.Access->Key.Kind) << " of "
           << D.Access->Key.Width << " bytes per lane in that wave\n";
    return;
  }
  const Inst &NI = XL.P.Insts[D.Near->Pc];
  outs() << "  nearest in " << Files[Lacks] << ": line " << NI.Line << " '" << NI.Text << "' ("
         << iterLabel(XL, D.Near->Iter) << (D.Near->Part ? ", its 2nd address" : "") << "): ";
  printLanes(outs(), *D.Near);
  outs() << " (" << D.LanesDiffer << " of the active lanes differ)\n";
}
} // namespace

int runAddresses(const ParseOptions &PO0, const SimOptions &SO, const std::vector<std::string> &Files, bool Dump) {
  std::vector<AddrRun> Runs(Files.size());
  for (size_t F = 0; F < Files.size(); ++F) {
    ParseOptions PO = PO0;
    PO.File = Files[F];
    int Rc = runOne(PO, SO, Runs[F]);
    if (Rc >= 0) return Rc;
  }
  // never "equal" (or a summary) over an address the model does not know
  int Rc = 0;
  for (size_t F = 0; F < Files.size(); ++F) {
    const AddrRun &X = Runs[F];
    if (X.T.Unknown) {
      const Inst &In = X.P.Insts[X.T.FirstUnknownPc];
      outs() << "addresses: " << Files[F] << ": " << X.T.Unknown
             << " LDS access(es) with an address the model does not know (" << (In.LdsDma ? "M0" : "address VGPR")
             << " unknown); first: " << waveLabel(X, X.T.FirstUnknownWave) << ", line " << In.Line << " '" << In.Text
             << "'\n";
      Rc = 2;
    } else if (!accessCount(X.T)) {
      errs() << Files[F] << ": error: kernel " << X.R.Kernel << " executed no LDS access: nothing to compare\n";
      return 1;
    }
  }
  if (Rc) return Rc;
  if (Files.size() == 1) {
    printSummary(Runs[0], Dump);
    return 0;
  }
  // the same program path: both run the hot loop (as many times), or neither
  if (Runs[0].R.HasLoop != Runs[1].R.HasLoop) {
    outs() << "addresses: differ: " << Files[Runs[0].R.HasLoop ? 0 : 1] << " has an MFMA loop, "
           << Files[Runs[0].R.HasLoop ? 1 : 0] << " has none: " << runLine(Runs[0]) << "; " << runLine(Runs[1]) << "\n";
    return 1;
  }
  AddressDiff D = compareAddresses(Runs[0].T, Runs[1].T);
  if (!D.Equal) {
    printDifference(Runs, Files, D);
    // the model chose these directions itself: the two layouts may have
    // led it down different paths (e.g. a K-tail guard after the loop)
    for (size_t F = 0; F < 2; ++F) {
      long Free = 0;
      for (auto &S : Runs[F].R.Warnings) Free += S.find("data-dependent") != std::string::npos;
      if (Free)
        outs() << "  note: " << Files[F] << ": the model chose the direction of " << Free
               << " data-dependent branch(es); if the paths differ, give the kernel's arguments (--arg)\n";
    }
    return 1;
  }
  outs() << "addresses: equal: " << Files[0] << " and " << Files[1] << ": " << runLine(Runs[0]) << ": "
         << accessCount(Runs[0].T) << " LDS accesses each, the same (kind, width, lane addresses) per wave\n";
  return 0;
}

} // namespace ppsim
