//===- Verify.cpp - pingpong-sim verify: waits and barriers on assembly ----===//
//
// The rules of -amdgpu-pingpong-verify (docs/waits-and-barriers.md) applied to
// the instruction stream every wave of the workgroup actually executed in the
// model (SimOptions::Trace): wave-group branches, conditional barriers and the
// trip count come from the simulation, not from matching the CFG.
//
//  (3) every wave of a workgroup executes the same number of s_barrier;
//  (1) per wave: no register read or overwrite while a load that writes it is
//      outstanding and no s_waitcnt guaranteed it complete (gfx9: vmcnt in
//      order, lgkmcnt in order for LDS, SMEM/FLAT only with lgkmcnt(0));
//      LDS DMA must be complete before the same wave's LDS access that
//      overlaps it (the DMA completes on vmcnt, ds_* on lgkmcnt);
//  (2) across waves: a (read, write) pair of LDS accesses of two waves to
//      overlapping bytes is ordered only if the accesses are in different
//      barrier phases and the earlier one is complete before the barrier
//      that closes the phase before the later one (drain distance rule).
//
// Buffer rule: the bytes an access touches are computed from the address
// VGPR's lane values (known to the model when they derive from v0 / wave ids
// and immediates) plus the offsets; an LDS DMA writes M0 + offset + lane x
// size (M0 from the model's scalar values). An access whose address is
// unknown (an LDS DMA issued while M0 is unknown) overlaps all of LDS.
//===----------------------------------------------------------------------===//
#include "pingpong/Sim/Verify.h"

#include "pingpong/Sync/SyncRules.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>

using namespace llvm;

namespace ppsim {

namespace {

using namespace pingpong;
using sync::LDSRegion;
using sync::LDSUse;
using sync::OpClass;

struct Access {
  size_t Step = 0;
  sync::LDSAccess X;
  const LdsBytes *B = nullptr;
  LDSRegion R;
  bool dma() const { return X.Use == LDSUse::DMAWrite; }
};

LDSRegion regionOf(const LdsBytes &B) {
  LDSRegion R;
  R.BytesKnown = B.Known;
  if (B.Known)
    R.Bytes = B.Iv;
  return R;
}

std::string bufName(const LdsBytes &A, const LdsBytes &B, const sync::OverlapResult &O) {
  if (!A.Known && !B.Known) return "LDS (both addresses unknown)";
  if (!A.Known || !B.Known) {
    const LdsBytes &K = A.Known ? A : B;
    if (K.Iv.empty()) return "LDS (one address unknown)";
    return formatv("LDS bytes [{0:x}, {1:x}) and an unknown address", K.Iv.front().first, K.Iv.back().second).str();
  }
  return formatv("LDS bytes [{0:x}, {1:x})", O.Lo, O.Hi).str();
}

const char *useName(const Access &A) {
  return A.dma() ? "LDS DMA write" : sync::ldsWrites(A.X.Use) ? "write" : "read";
}

} // namespace

std::string VerifyContext::waveName(int Wg, int Id) const {
  // Waves are named with their group of four (one per SIMD): in 8-wave
  // pingpong, waves 0-3 and 4-7 are the two wave groups.
  int G = Id / 4 * 4;
  int E = std::min(WavesPerWg - 1, G + 3);
  std::string S = Wgs > 1 ? formatv("workgroup {0} ", Wg).str() : "";
  S += formatv("wave {0} (waves {1}-{2})", Id, G, E).str();
  return S;
}

std::string VerifyContext::at(size_t Pc) const {
  const Inst &In = P.Insts[Pc];
  return formatv("line {0} '{1}'", In.Line, In.Text).str();
}

bool verifyTraces(const VerifyContext &C, VerifyResult &V) {
  const auto &I = C.P.Insts;
  const auto &Ws = C.R.Waves;
  const sync::Target Tgt = sync::targetForCPU(C.R.Mcpu).value_or(sync::Target::Gfx942);
  // the library's view of every instruction of the program
  std::vector<sync::InstRules> Rules(I.size());
  for (size_t Pc = 0; Pc < I.size(); ++Pc) {
    Rules[Pc] = sync::classifyByName(I[Pc].Mnem, I[Pc].LdsDma);
    if (I[Pc].In == Internal::Barrier) Rules[Pc].Sync = sync::SyncKind::Barrier;
    if (I[Pc].In == Internal::Endpgm) Rules[Pc].Sync = sync::SyncKind::EndPgm;
  }
  auto IsAccess = [&](const TraceStep &St) { return St.Lds >= 0 && Rules[St.Pc].Use != LDSUse::None; };
  V.Waves = (int)Ws.size();
  for (auto &W : Ws)
    for (auto &St : W.Trace)
      if (IsAccess(St)) {
        ++V.LdsAccesses;
        V.UnknownAddr += !W.LdsAddrs[St.Lds].Known;
        if (Rules[St.Pc].Use == LDSUse::DMAWrite) {
          ++V.DmaAccesses;
          V.DmaUnknown += !W.LdsAddrs[St.Lds].Known;
        }
      }
  auto Find = [&](const std::string &S) {
    if (V.Finding.empty()) V.Finding = S;
    return false;
  };
  static const bool DebugAll = getenv("PPSIM_VERIFY_DEBUG_ALL") != nullptr;
  auto CannotProve = [&](const std::string &S) {
    if (DebugAll && V.Unproven < 40) errs() << "UNPROVEN " << S << "\n";
    if (V.CannotProve.empty()) V.CannotProve = S;
    ++V.Unproven;
  };

  // ---- (3) barrier counts, per workgroup (lib/Sync: barrierMismatch)
  std::vector<unsigned> Bars(Ws.size(), 0);
  std::vector<std::vector<size_t>> BarStep(Ws.size());
  for (size_t W = 0; W < Ws.size(); ++W)
    for (size_t S = 0; S < Ws[W].Trace.size(); ++S)
      if (Rules[Ws[W].Trace[S].Pc].Sync == sync::SyncKind::Barrier) { ++Bars[W]; BarStep[W].push_back(S); }
  V.Barriers = Ws.empty() ? 0 : Bars[0];
  {
    std::map<int, std::vector<size_t>> ByWg;
    for (size_t W = 0; W < Ws.size(); ++W) ByWg[Ws[W].Wg].push_back(W);
    for (auto &KV : ByWg) {
      std::vector<unsigned> N;
      for (size_t W : KV.second) N.push_back(Bars[W]);
      auto M = sync::barrierMismatch(N);
      if (!M) continue;
      size_t A = KV.second[M->first], B = KV.second[M->second];
      size_t Pc = Ws[A].Trace[BarStep[A][Bars[B]]].Pc;
      return Find(formatv("barrier count: {0} executes {1} s_barrier, {2} executes {3}: the workgroup hangs "
                          "at {0}'s barrier #{4}, {5}",
                          C.waveName(Ws[A].Wg, Ws[A].Id), Bars[A], C.waveName(Ws[B].Wg, Ws[B].Id), Bars[B],
                          Bars[B] + 1, C.at(Pc))
                      .str());
    }
  }

  // ---- (1) per wave: register waits; LDS accesses with phase and drain
  //      distance (lib/Sync: analyzeWave); the wave's own LDS DMA
  std::vector<std::vector<Access>> Acc(Ws.size());
  for (size_t W = 0; W < Ws.size(); ++W) {
    const auto &Tr = Ws[W].Trace;
    std::vector<sync::WaveEvent> Ev(Tr.size());
    for (size_t S = 0; S < Tr.size(); ++S) {
      const Inst &In = I[Tr[S].Pc];
      const sync::InstRules &Ru = Rules[Tr[S].Pc];
      Ev[S].Sync = Ru.Sync;
      Ev[S].Class = Ru.Class;
      if (Ru.Sync == sync::SyncKind::Waitcnt) {
        Waitcnt Wc;
        if (In.Vm >= 0) Wc.Vm = (unsigned)In.Vm;
        if (In.Lgkm >= 0) Wc.Lgkm = (unsigned)In.Lgkm;
        Ev[S].W = Wc;
      }
    }
    sync::WaveTimeline TL = sync::analyzeWave(Ev, Tgt);
    std::vector<size_t> Pending;                      // outstanding ops (steps)
    std::map<unsigned, std::vector<size_t>> Writers;  // reg unit -> loads (steps) writing it
    for (size_t S = 0; S < Tr.size(); ++S) {
      const Inst &In = I[Tr[S].Pc];
      const sync::InstRules &Ru = Rules[Tr[S].Pc];
      auto Done = [&](size_t Op) { return TL.completeBefore(Op, S + 1); };
      if (Ru.Sync != sync::SyncKind::None) {
        Pending.erase(std::remove_if(Pending.begin(), Pending.end(), Done), Pending.end());
        continue;
      }
      bool Mem = sync::countersOf(Ru.Class, Tgt).any();
      // Any counter operation with a destination writes it when it completes,
      // as in the pass (Access::LoadsRegs): not only what MCInstrDesc calls
      // mayLoad -- ds_bpermute / ds_permute / ds_swizzle are not, and their
      // results were never checked (a deleted lgkmcnt before a read of a
      // bpermute result verified clean).
      bool IsLoad = Mem && In.NumDefs > 0 && !In.DefUnits.empty();
      auto Check = [&](const std::vector<unsigned> &Units, bool Def) {
        for (unsigned U : Units) {
          auto It = Writers.find(U);
          if (It == Writers.end()) continue;
          for (size_t L : It->second) {
            if (TL.completeBefore(L, S)) continue;
            // a later load of the same in-order stream may overwrite
            if (Def && IsLoad && sync::sameInOrderStream(Ru.Class, Rules[Tr[L].Pc].Class, Tgt)) continue;
            return Find(formatv("register wait: {0}: {1} {2} a register the load at {3} writes, and no s_waitcnt "
                                "since guarantees that load complete",
                                C.waveName(Ws[W].Wg, Ws[W].Id), C.at(Tr[S].Pc), Def ? "overwrites" : "reads",
                                C.at(Tr[L].Pc))
                            .str());
          }
        }
        return true;
      };
      if (!Check(In.UseUnits, false) || !Check(In.DefUnits, true)) return false;
      // drop completed writers of the units this instruction redefines
      for (unsigned U : In.DefUnits) {
        auto It = Writers.find(U);
        if (It != Writers.end())
          It->second.erase(std::remove_if(It->second.begin(), It->second.end(),
                                          [&](size_t K) { return TL.completeBefore(K, S); }),
                           It->second.end());
      }
      if (!Mem) continue;
      Pending.push_back(S);
      if (IsLoad)
        for (unsigned U : In.DefUnits) Writers[U].push_back(S);
      if (!IsAccess(Tr[S])) continue;
      Access A;
      A.Step = S;
      A.X.Use = Ru.Use;
      A.X.Phase = TL.Phase[S];
      A.X.Drain = TL.drain(S);
      A.X.Site = &I[Tr[S].Pc];
      A.B = &Ws[W].LdsAddrs[Tr[S].Lds];
      A.R = regionOf(*A.B);
      // same wave: an LDS access overlapping an outstanding LDS DMA (a DMA
      // after a DMA is ordered: both complete in order on vmcnt)
      if (!A.dma())
        for (const Access &D : Acc[W]) {
          if (!D.dma() || TL.completeBefore(D.Step, S)) continue;
          sync::OverlapResult O;
          sync::PairVerdict Vd = sync::sameWaveDMA(D.R, A.R, &O);
          if (Vd == sync::PairVerdict::NotAPair) continue;
          std::string Msg = formatv("LDS DMA wait: {0}: {1} accesses {2} that the LDS DMA at {3} writes, and no "
                                    "s_waitcnt vmcnt since guarantees the DMA complete",
                                    C.waveName(Ws[W].Wg, Ws[W].Id), C.at(Tr[S].Pc), bufName(*D.B, *A.B, O),
                                    C.at(Tr[D.Step].Pc))
                                .str();
          if (Vd == sync::PairVerdict::Race) return Find(Msg);
          CannotProve(Msg + " (an address is unknown: the bytes may differ)");
        }
      Acc[W].push_back(std::move(A));
    }
  }

  // ---- (2) across waves of a workgroup: LDS pairs (lib/Sync: checkPair)
  struct Best {
    bool Have = false;
    long Key[3];
    std::string Msg;
  } B;
  for (size_t X = 0; X < Ws.size(); ++X)
    for (size_t Y = X + 1; Y < Ws.size(); ++Y) {
      if (Ws[X].Wg != Ws[Y].Wg) continue;
      for (const Access &A : Acc[X])
        for (const Access &Bb : Acc[Y]) {
          sync::PairResult P = sync::checkPair(A.X, A.R, Bb.X, Bb.R);
          if (P.V == sync::PairVerdict::NotAPair) continue;
          ++V.Pairs;
          if (P.V == sync::PairVerdict::Ordered) continue;
          const Access *E = &A, *L = &Bb;
          size_t EW = X, LW = Y;
          if (!P.AFirst) { std::swap(E, L); std::swap(EW, LW); }
          std::string Why;
          if (P.Why == sync::Disorder::SamePhase)
            Why = formatv("both in barrier phase {0} (no s_barrier between them)", E->X.Phase).str();
          else
            Why = formatv("the {0} (phase {1}) is not complete before its wave's s_barrier #{2} that closes phase "
                          "{3}: {4}",
                          sync::ldsWrites(E->X.Use) ? "write" : "read", E->X.Phase, L->X.Phase, L->X.Phase - 1,
                          E->X.Drain == sync::WaveTimeline::NoDrain
                              ? std::string("no s_waitcnt completes it")
                              : formatv("the s_waitcnt that completes it comes {0} barrier(s) later", E->X.Drain)
                                    .str())
                      .str();
          std::string Msg = formatv("{0} vs {1} on {2}: {3} at {4} and {5} at {6}: {7}",
                                    C.waveName(Ws[EW].Wg, Ws[EW].Id), C.waveName(Ws[LW].Wg, Ws[LW].Id),
                                    bufName(*A.B, *Bb.B, P.Where), useName(*E), C.at(Ws[EW].Trace[E->Step].Pc),
                                    useName(*L), C.at(Ws[LW].Trace[L->Step].Pc), Why)
                                .str();
          if (P.V == sync::PairVerdict::Unproven) {
            CannotProve("LDS pair: " + Msg +
                        (P.Unproven == sync::UnprovenWhy::SameStore
                             ? " (the same store in both waves: the replicated-value idiom, the order may not matter)"
                             : " (an address is unknown: the bytes may differ)"));
            continue;
          }
          long Key[3] = {L->X.Phase, (long)std::min(E->Step, L->Step), (long)X * 100 + (long)Y};
          if (B.Have && std::lexicographical_compare(B.Key, B.Key + 3, Key, Key + 3)) continue;
          B.Have = true;
          std::copy(Key, Key + 3, B.Key);
          B.Msg = "LDS race: " + Msg;
        }
    }
  if (B.Have) return Find(B.Msg);

  // ---- (4) pacing of an asymmetric loop: when the model shows waves of two
  // groups (w, w+4: same SIMD) entering the hot loop at different barrier
  // counts, their loop MFMAs must never share a barrier phase -- one group's
  // dot cluster runs while the other is in its memory cluster. Memory safety
  // alone does not need this (a barrier after a dot cluster only keeps the
  // groups one cluster apart). lib/Sync: sharedMfmaPhase.
  if (C.R.HasLoop) {
    const unsigned LB = C.R.LoopBegin, BE = C.R.LoopEnd;
    std::vector<int> Entry(Ws.size(), -1);
    std::vector<std::map<int, size_t>> MfmaPhase(Ws.size()); // phase -> first loop MFMA step
    for (size_t W = 0; W < Ws.size(); ++W) {
      int Ph = 0;
      for (size_t S = 0; S < Ws[W].Trace.size(); ++S) {
        unsigned Pc = Ws[W].Trace[S].Pc;
        if (Rules[Pc].Sync == sync::SyncKind::Barrier) ++Ph;
        if (Pc == LB && Entry[W] < 0) Entry[W] = Ph;
        if (Pc >= LB && Pc <= BE && I[Pc].C == Cat::MFMA) MfmaPhase[W].emplace(Ph, S);
      }
    }
    auto Phases = [&](size_t W) {
      std::vector<int> P;
      for (auto &KV : MfmaPhase[W]) P.push_back(KV.first);
      return P;
    };
    for (size_t X = 0; X < Ws.size(); ++X)
      for (size_t Y = X + 1; Y < Ws.size(); ++Y) {
        if (Ws[X].Wg != Ws[Y].Wg || Ws[X].Id / 4 == Ws[Y].Id / 4 || Ws[X].Id % 4 != Ws[Y].Id % 4) continue;
        if (Entry[X] < 0 || Entry[Y] < 0 || Entry[X] == Entry[Y]) continue;
        ++V.PacingPairs;
        std::optional<int> Ph = sync::sharedMfmaPhase(Phases(X), Phases(Y));
        if (!Ph) continue;
        return Find(formatv("pacing: {0} and {1} enter the loop {2} barrier(s) apart (asymmetric sync) but both "
                            "run MFMAs in barrier phase {3}: {4} and {5} (their dot clusters overlap; a "
                            "barrier between clusters is missing)",
                            C.waveName(Ws[X].Wg, Ws[X].Id), C.waveName(Ws[Y].Wg, Ws[Y].Id),
                            std::abs(Entry[X] - Entry[Y]), *Ph, C.at(Ws[X].Trace[MfmaPhase[X][*Ph]].Pc),
                            C.at(Ws[Y].Trace[MfmaPhase[Y][*Ph]].Pc))
                        .str());
      }
  }
  return true;
}

LoopLdsCounts countLoopLds(const Program &P, const SimResult &R) {
  LoopLdsCounts N;
  for (auto &W : R.Waves)
    for (auto &St : W.Trace) {
      if (St.Lds < 0 || St.Pc >= R.LoopBody.size() || !R.LoopBody[St.Pc]) continue;
      const Inst &In = P.Insts[St.Pc];
      bool Dma = In.LdsDma;
      bool Known = W.LdsAddrs[St.Lds].Known;
      if (!Dma && (In.C != Cat::LDS || In.Mnem.find("permute") != std::string::npos ||
                   In.Mnem.find("swizzle") != std::string::npos || In.Mnem == "ds_nop"))
        continue;
      (Dma ? N.Dma : N.Lds) += 1;
      (Dma ? N.DmaUnknown : N.LdsUnknown) += !Known;
    }
  return N;
}

} // namespace ppsim
