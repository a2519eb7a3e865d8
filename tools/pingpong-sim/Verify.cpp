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
#include "Verify.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>

using namespace llvm;

namespace ppsim {

namespace {

enum Counter { CVm, CLds, COoo }; // vmcnt in order, LDS in order, lgkm out of order

struct MemOp {
  size_t Step = 0;       // issue step in the wave's trace
  bool Vm = false;       // counts on vmcnt
  bool Lds = false;      // LDS (ds_*): lgkmcnt in order among LDS ops
  bool LgkmOoo = false;  // SMEM, FLAT: lgkmcnt, out of order (only lgkmcnt(0))
  size_t Done = SIZE_MAX; // step of the s_waitcnt that guarantees completion
};

struct Access {
  size_t Step = 0;
  int Phase = 0;       // barriers passed before the access
  int Drain = INT_MAX; // barriers passed between issue and guaranteed completion
  bool Write = false, Dma = false;
  const LdsBytes *B = nullptr;
};

bool isLdsMemory(const Inst &In) {
  if (In.C != Cat::LDS) return false;
  const std::string &M = In.Mnem;
  for (const char *X : {"ds_swizzle", "ds_permute", "ds_bpermute", "ds_nop", "ds_gws", "ds_append", "ds_consume"})
    if (M.compare(0, strlen(X), X) == 0) return false;
  return true;
}

bool overlap(const LdsBytes &A, const LdsBytes &B, uint32_t &Lo, uint32_t &Hi) {
  if (!A.Known || !B.Known) { // unknown address: all of LDS
    const LdsBytes &K = A.Known ? A : B;
    if (K.Known && K.Iv.empty()) return false;
    if (K.Known) { Lo = K.Iv.front().first; Hi = K.Iv.back().second; }
    else { Lo = 0; Hi = UINT32_MAX; }
    return true;
  }
  if (A.Iv.empty() || B.Iv.empty()) return false;
  if (A.Iv.back().second <= B.Iv.front().first || B.Iv.back().second <= A.Iv.front().first) return false;
  size_t I = 0, J = 0;
  while (I < A.Iv.size() && J < B.Iv.size()) {
    uint32_t L = std::max(A.Iv[I].first, B.Iv[J].first), H = std::min(A.Iv[I].second, B.Iv[J].second);
    if (L < H) { Lo = L; Hi = H; return true; }
    if (A.Iv[I].second < B.Iv[J].second) ++I; else ++J;
  }
  return false;
}

std::string bufName(const LdsBytes &A, const LdsBytes &B, uint32_t Lo, uint32_t Hi) {
  if (!A.Known && !B.Known) return "LDS (addresses unknown: all of LDS)";
  std::string S = formatv("LDS bytes [{0:x}, {1:x})", Lo, Hi).str();
  if (!A.Known || !B.Known) S += " (one address unknown: all of LDS)";
  return S;
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
  V.Waves = (int)Ws.size();
  for (auto &W : Ws)
    for (auto &St : W.Trace)
      if (St.Lds >= 0 && (isLdsMemory(I[St.Pc]) || I[St.Pc].LdsDma)) {
        ++V.LdsAccesses;
        V.UnknownAddr += !W.LdsAddrs[St.Lds].Known;
        if (I[St.Pc].LdsDma) {
          ++V.DmaAccesses;
          V.DmaUnknown += !W.LdsAddrs[St.Lds].Known;
        }
      }
  auto Find = [&](const std::string &S) {
    if (V.Finding.empty()) V.Finding = S;
    return false;
  };

  // ---- (3) barrier counts, per workgroup
  std::vector<int> Bars(Ws.size(), 0);
  std::vector<std::vector<size_t>> BarStep(Ws.size());
  for (size_t W = 0; W < Ws.size(); ++W)
    for (size_t S = 0; S < Ws[W].Trace.size(); ++S)
      if (I[Ws[W].Trace[S].Pc].In == Internal::Barrier) { ++Bars[W]; BarStep[W].push_back(S); }
  V.Barriers = Ws.empty() ? 0 : Bars[0];
  for (size_t A = 0; A < Ws.size(); ++A)
    for (size_t B = 0; B < Ws.size(); ++B) {
      if (Ws[A].Wg != Ws[B].Wg || Bars[A] <= Bars[B]) continue;
      size_t Pc = Ws[A].Trace[BarStep[A][Bars[B]]].Pc;
      return Find(formatv("barrier count: {0} executes {1} s_barrier, {2} executes {3}: the workgroup hangs "
                          "at {0}'s barrier #{4}, {5}",
                          C.waveName(Ws[A].Wg, Ws[A].Id), Bars[A], C.waveName(Ws[B].Wg, Ws[B].Id), Bars[B],
                          Bars[B] + 1, C.at(Pc))
                      .str());
    }

  // ---- (1) per wave: register waits; completion step of every memory op;
  //      LDS accesses with phase and drain distance
  std::vector<std::vector<Access>> Acc(Ws.size());
  for (size_t W = 0; W < Ws.size(); ++W) {
    const auto &Tr = Ws[W].Trace;
    std::vector<MemOp> Ops;
    std::vector<size_t> Pending;                 // indices into Ops not yet complete
    std::map<unsigned, std::vector<size_t>> Writers; // reg unit -> loads writing it
    std::vector<std::pair<size_t, size_t>> AccOp; // (index in Acc[W], op)
    int Phase = 0;
    for (size_t S = 0; S < Tr.size(); ++S) {
      const Inst &In = I[Tr[S].Pc];
      if (In.In == Internal::Barrier) { ++Phase; continue; }
      if (In.In == Internal::Waitcnt) {
        // vmcnt(N): all but the N youngest VMEM ops; lgkmcnt(N): all but the
        // N youngest LDS ops; SMEM/FLAT only at lgkmcnt(0).
        int YoungerVm = 0, YoungerLds = 0;
        for (size_t K = Pending.size(); K-- > 0;) {
          MemOp &Op = Ops[Pending[K]];
          bool Done = false;
          if (Op.Vm && In.Vm >= 0 && YoungerVm >= In.Vm) Done = true;
          if (Op.Lds && In.Lgkm >= 0 && YoungerLds >= In.Lgkm) Done = true;
          if (Op.LgkmOoo && In.Lgkm == 0) Done = true;
          if (Op.Vm) ++YoungerVm;
          if (Op.Lds) ++YoungerLds;
          if (Done) Op.Done = S;
        }
        Pending.erase(std::remove_if(Pending.begin(), Pending.end(), [&](size_t K) { return Ops[K].Done != SIZE_MAX; }),
                      Pending.end());
        continue;
      }
      bool Mem = In.C == Cat::VMEM || In.C == Cat::LDS || In.C == Cat::SMEM;
      MemOp Op;
      if (Mem) {
        Op.Step = S;
        Op.Vm = In.C == Cat::VMEM;
        Op.Lds = In.C == Cat::LDS;
        Op.LgkmOoo = In.C == Cat::SMEM || In.Flat;
      }
      bool IsLoad = Mem && !In.DefUnits.empty() && In.IsLoad;
      // the op's in-order class: a later load of the same class overwriting a
      // register completes after the earlier one (WAW is safe)
      auto SameOrder = [&](const MemOp &A) { return IsLoad && ((A.Vm && Op.Vm && !A.LgkmOoo && !Op.LgkmOoo) || (A.Lds && Op.Lds)); };
      auto Check = [&](const std::vector<unsigned> &Units, bool Def) {
        for (unsigned U : Units) {
          auto It = Writers.find(U);
          if (It == Writers.end()) continue;
          for (size_t K : It->second) {
            const MemOp &L = Ops[K];
            if (L.Done != SIZE_MAX) continue;
            if (Def && SameOrder(L)) continue;
            return Find(formatv("register wait: {0}: {1} {2} a register the load at {3} writes, and no s_waitcnt "
                                "since guarantees that load complete",
                                C.waveName(Ws[W].Wg, Ws[W].Id), C.at(Tr[S].Pc), Def ? "overwrites" : "reads",
                                C.at(Tr[L.Step].Pc))
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
                                          [&](size_t K) { return Ops[K].Done != SIZE_MAX; }),
                           It->second.end());
      }
      if (!Mem) continue;
      size_t Idx = Ops.size();
      Ops.push_back(Op);
      Pending.push_back(Idx);
      if (IsLoad)
        for (unsigned U : In.DefUnits) Writers[U].push_back(Idx);
      if (Tr[S].Lds >= 0 && (isLdsMemory(In) || In.LdsDma)) {
        Access A;
        A.Step = S;
        A.Phase = Phase;
        A.Dma = In.LdsDma;
        A.Write = In.LdsDma || (In.IsStore && !In.IsLoad) || (In.IsStore && In.IsLoad); // atomics write
        A.B = &Ws[W].LdsAddrs[Tr[S].Lds];
        // same wave: an LDS access overlapping an outstanding LDS DMA (a DMA
        // after a DMA is ordered: both complete in order on vmcnt)
        for (auto &AO : AccOp) {
          if (A.Dma) break;
          const Access &D = Acc[W][AO.first];
          if (!D.Dma || Ops[AO.second].Done != SIZE_MAX) continue;
          uint32_t Lo, Hi;
          if (!overlap(*D.B, *A.B, Lo, Hi)) continue;
          return Find(formatv("LDS DMA wait: {0}: {1} accesses {2} that the LDS DMA at {3} writes, and no "
                              "s_waitcnt vmcnt since guarantees the DMA complete",
                              C.waveName(Ws[W].Wg, Ws[W].Id), C.at(Tr[S].Pc), bufName(*D.B, *A.B, Lo, Hi),
                              C.at(Tr[D.Step].Pc))
                          .str());
        }
        AccOp.push_back({Acc[W].size(), Idx});
        Acc[W].push_back(A);
      }
    }
    // drain distance: barriers between issue and the wait that completes it
    std::vector<int> PhaseAt(Tr.size() + 1, 0);
    for (size_t S = 0, P = 0; S < Tr.size(); ++S) {
      PhaseAt[S] = (int)P;
      if (I[Tr[S].Pc].In == Internal::Barrier) ++P;
    }
    for (auto &AO : AccOp) {
      Access &A = Acc[W][AO.first];
      size_t D = Ops[AO.second].Done;
      A.Drain = D == SIZE_MAX ? INT_MAX : PhaseAt[D] - A.Phase;
    }
  }

  // ---- (2) across waves of a workgroup: (read, write) pairs on overlapping bytes
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
          if (!A.Write && !Bb.Write) continue;
          if (A.Write && Bb.Write) continue; // two writes are not a pair
          uint32_t Lo, Hi;
          if (!overlap(*A.B, *Bb.B, Lo, Hi)) continue;
          ++V.Pairs;
          const Access *E = &A, *L = &Bb;
          size_t EW = X, LW = Y;
          if (Bb.Phase < A.Phase) { std::swap(E, L); std::swap(EW, LW); }
          std::string Why;
          if (E->Phase == L->Phase)
            Why = formatv("both in barrier phase {0} (no s_barrier between them)", E->Phase).str();
          else if (E->Drain > L->Phase - E->Phase - 1)
            Why = formatv("the {0} (phase {1}) is not complete before its wave's s_barrier #{2} that closes phase "
                          "{3}: {4}",
                          E->Write ? "write" : "read", E->Phase, L->Phase, L->Phase - 1,
                          E->Drain == INT_MAX ? std::string("no s_waitcnt completes it")
                                              : formatv("the s_waitcnt that completes it comes {0} barrier(s) later",
                                                        E->Drain)
                                                    .str())
                      .str();
          else
            continue;
          long Key[3] = {L->Phase, (long)std::min(E->Step, L->Step), (long)X * 100 + (long)Y};
          if (B.Have && std::lexicographical_compare(B.Key, B.Key + 3, Key, Key + 3)) continue;
          B.Have = true;
          std::copy(Key, Key + 3, B.Key);
          B.Msg = formatv("LDS race: {0} vs {1} on {2}: {3} at {4} and {5} at {6}: {7}",
                          C.waveName(Ws[EW].Wg, Ws[EW].Id), C.waveName(Ws[LW].Wg, Ws[LW].Id),
                          bufName(*A.B, *Bb.B, Lo, Hi), E->Write ? (E->Dma ? "LDS DMA write" : "write") : "read",
                          C.at(Ws[EW].Trace[E->Step].Pc), L->Write ? (L->Dma ? "LDS DMA write" : "write") : "read",
                          C.at(Ws[LW].Trace[L->Step].Pc), Why)
                      .str();
        }
    }
  if (B.Have) return Find(B.Msg);

  // ---- (4) pacing of an asymmetric loop: when the model shows waves of two
  // groups (w, w+4: same SIMD) entering the hot loop at different barrier
  // counts, their loop MFMAs must never share a barrier phase -- one group's
  // dot cluster runs while the other is in its memory cluster. Memory safety
  // alone does not need this (a barrier after a dot cluster only keeps the
  // groups one cluster apart).
  if (C.R.HasLoop) {
    const unsigned LB = C.R.LoopBegin, BE = C.R.LoopEnd;
    std::vector<int> Entry(Ws.size(), -1);
    std::vector<std::map<int, size_t>> MfmaPhase(Ws.size()); // phase -> first loop MFMA step
    for (size_t W = 0; W < Ws.size(); ++W) {
      int Ph = 0;
      for (size_t S = 0; S < Ws[W].Trace.size(); ++S) {
        unsigned Pc = Ws[W].Trace[S].Pc;
        if (I[Pc].In == Internal::Barrier) ++Ph;
        if (Pc == LB && Entry[W] < 0) Entry[W] = Ph;
        if (Pc >= LB && Pc <= BE && I[Pc].C == Cat::MFMA) MfmaPhase[W].emplace(Ph, S);
      }
    }
    for (size_t X = 0; X < Ws.size(); ++X)
      for (size_t Y = X + 1; Y < Ws.size(); ++Y) {
        if (Ws[X].Wg != Ws[Y].Wg || Ws[X].Id / 4 == Ws[Y].Id / 4 || Ws[X].Id % 4 != Ws[Y].Id % 4) continue;
        if (Entry[X] < 0 || Entry[Y] < 0 || Entry[X] == Entry[Y]) continue;
        ++V.PacingPairs;
        for (auto &KV : MfmaPhase[X]) {
          auto It = MfmaPhase[Y].find(KV.first);
          if (It == MfmaPhase[Y].end()) continue;
          return Find(formatv("pacing: {0} and {1} enter the loop {2} barrier(s) apart (asymmetric sync) but both "
                              "run MFMAs in barrier phase {3}: {4} and {5} (their dot clusters overlap; a "
                              "barrier between clusters is missing)",
                              C.waveName(Ws[X].Wg, Ws[X].Id), C.waveName(Ws[Y].Wg, Ws[Y].Id),
                              std::abs(Entry[X] - Entry[Y]), KV.first, C.at(Ws[X].Trace[KV.second].Pc),
                              C.at(Ws[Y].Trace[It->second].Pc))
                          .str());
        }
      }
  }
  return true;
}

} // namespace ppsim
