//===- VerifyReport.cpp - pingpong-sim verify: the verdict as text --------===//
//
// One traced run (SimOptions::Trace), the checker (lib/Sim/Verify.cpp) and
// its verdict on stdout; the exit codes of docs/cycle-model.md, "Output".
//
//===----------------------------------------------------------------------===//
#include "Report.h"
#include "pingpong/Sim/Verify.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace ppsim {

int runVerify(const Program &P, const SimOptions &SO) {
  SimResult R;
  SimError E;
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
    LoopLdsCounts N = countLoopLds(P, R);
    outs() << "verify: in the loop: LDS addresses computed for " << (N.Lds - N.LdsUnknown) << " of " << N.Lds
           << " ds accesses, " << (N.Dma - N.DmaUnknown) << " of " << N.Dma << " LDS DMA\n";
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

} // namespace ppsim
