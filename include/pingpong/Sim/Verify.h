//===- Verify.h - pingpong-sim verify: waits and barriers on assembly -----===//
#ifndef PINGPONG_SIM_VERIFY_H
#define PINGPONG_SIM_VERIFY_H

#include "pingpong/Sim/Sim.h"

namespace ppsim {

struct VerifyContext {
  const Program &P;
  const SimResult &R; // simulated with SimOptions::Trace
  int WavesPerWg = 0, Wgs = 1;
  std::string waveName(int Wg, int Id) const;
  std::string at(size_t Pc) const; // "line N 'text'"
};

struct VerifyResult {
  int Waves = 0, Barriers = 0;
  long Pairs = 0;             // cross-wave (read, write) pairs on overlapping LDS bytes
  long LdsAccesses = 0, UnknownAddr = 0;
  long DmaAccesses = 0, DmaUnknown = 0; // LDS DMA among them (address from M0)
  int PacingPairs = 0;         // same-SIMD wave pairs of two groups with an asymmetric loop entry
  std::string Finding;        // the first finding (empty: clean)
  // Pairs the rules cannot prove ordered because an address is unknown
  // (lib/Sync: never a race): how many, and the first.
  long Unproven = 0;
  std::string CannotProve;
};

// Applies the rules of docs/waits-and-barriers.md ("pingpong-sim verify") to
// the traced instruction streams of every wave. Returns true when clean.
bool verifyTraces(const VerifyContext &C, VerifyResult &V);

// The hot loop body's LDS accesses over every wave's trace (ds accesses
// without the crossbar ops, and LDS DMA), and how many of each have an
// address the model does not know.
struct LoopLdsCounts {
  long Lds = 0, LdsUnknown = 0, Dma = 0, DmaUnknown = 0;
};
LoopLdsCounts countLoopLds(const Program &P, const SimResult &R);

} // namespace ppsim

#endif
