//===- Addresses.cpp - pingpong-sim addresses: LDS address traces ----------===//
//
// See Addresses.h. The lane addresses come from the model's run
// (Pipeline: ldsLanes at issue); this file only normalises and compares.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Sim/Addresses.h"

#include "pingpong/Sync/SyncRules.h"

#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace ppsim {

const char *accessKindName(AccessKind K) {
  switch (K) {
  case AccessKind::Read: return "read";
  case AccessKind::Write: return "write";
  case AccessKind::DmaWrite: return "dma-write";
  case AccessKind::Atomic: return "atomic";
  }
  return "?";
}

bool AccessKey::operator<(const AccessKey &O) const {
  return std::tie(Kind, Width, Exec, Addr) < std::tie(O.Kind, O.Width, O.Exec, O.Addr);
}
bool AccessKey::operator==(const AccessKey &O) const {
  return Kind == O.Kind && Width == O.Width && Exec == O.Exec && Addr == O.Addr;
}

AddressTrace collectAddresses(const Program &P, const SimResult &R) {
  using pingpong::sync::LDSUse;
  AddressTrace T;
  for (size_t Wi = 0; Wi < R.Waves.size(); ++Wi) {
    const WaveResult &W = R.Waves[Wi];
    WaveAccesses WA;
    WA.Wg = W.Wg;
    WA.Id = W.Id;
    std::set<unsigned> Pcs;
    for (const TraceStep &St : W.Trace) {
      if (St.Lds < 0 || (size_t)St.Lds >= W.LdsLaneAddrs.size()) continue;
      const Inst &In = P.Insts[St.Pc];
      // crossbar ops (ds_permute, ds_swizzle), ds_nop, GWS: no LDS memory
      LDSUse U = pingpong::sync::classifyByName(In.Mnem, In.LdsDma).Use;
      if (U == LDSUse::None) continue;
      const LdsLanes &L = W.LdsLaneAddrs[St.Lds];
      ++WA.Instrs;
      Pcs.insert(St.Pc);
      if (!L.Known) {
        if (!T.Unknown++) { T.FirstUnknownPc = St.Pc; T.FirstUnknownWave = (int)Wi; }
        continue;
      }
      WA.ExecUnknown += !L.ExecKnown;
      AccessKind K = U == LDSUse::DMAWrite ? AccessKind::DmaWrite
                     : U == LDSUse::Read   ? AccessKind::Read
                     : U == LDSUse::Write  ? AccessKind::Write
                                           : AccessKind::Atomic;
      for (size_t Pt = 0; Pt < L.Parts.size(); ++Pt) {
        AddrAccess A;
        A.Key.Kind = K;
        A.Key.Width = L.Width;
        A.Key.Exec = L.Exec;
        for (int Ln = 0; Ln < 64; ++Ln)
          A.Key.Addr[Ln] = (L.Exec >> Ln & 1) ? L.Parts[Pt][Ln] : 0;
        A.Pc = St.Pc;
        A.Iter = L.Iter;
        A.Part = (int)Pt;
        A.ExecKnown = L.ExecKnown;
        A.Dma = In.LdsDma;
        A.M0 = L.M0;
        WA.A.push_back(A);
      }
    }
    WA.Distinct = (long)Pcs.size();
    T.Waves.push_back(std::move(WA));
  }
  return T;
}

namespace {

// How far apart two accesses are: active lanes whose addresses differ (a
// lane active in one only differs), then the sum of the address distances.
std::pair<int, uint64_t> distance(const AccessKey &X, const AccessKey &Y) {
  int N = 0;
  uint64_t Sum = 0;
  for (int L = 0; L < 64; ++L) {
    bool Ax = X.Exec >> L & 1, Ay = Y.Exec >> L & 1;
    if (!Ax && !Ay) continue;
    N += Ax != Ay || X.Addr[L] != Y.Addr[L];
    Sum += X.Addr[L] > Y.Addr[L] ? X.Addr[L] - Y.Addr[L] : Y.Addr[L] - X.Addr[L];
  }
  return {N, Sum};
}

} // namespace

AddressDiff compareAddresses(const AddressTrace &A, const AddressTrace &B) {
  AddressDiff D;
  if (A.Waves.size() != B.Waves.size()) {
    D.Equal = false;
    D.WaveCountMismatch = std::to_string(A.Waves.size()) + " waves vs " + std::to_string(B.Waves.size());
    return D;
  }
  const AddressTrace *Tr[2] = {&A, &B};
  for (size_t W = 0; W < A.Waves.size(); ++W) {
    // per key: how often each file has it
    std::map<AccessKey, std::array<long, 2>> Count;
    for (int F = 0; F < 2; ++F)
      for (const AddrAccess &X : Tr[F]->Waves[W].A) Count[X.Key][F]++;
    // the first access (in execution order, the first file's first) that
    // one file has more often than the other
    for (int F = 0; F < 2 && D.Equal; ++F)
      for (const AddrAccess &X : Tr[F]->Waves[W].A) {
        auto &C = Count[X.Key];
        if (C[F] <= C[1 - F]) continue;
        D.Equal = false;
        D.Wave = (int)W;
        D.MissingFrom = 1 - F;
        D.Access = &X;
        D.Want = C[F];
        D.Have = C[1 - F];
        break;
      }
    if (D.Equal) continue;
    // the nearest access of the same kind and width that the file it is
    // missing from has in surplus: the likely changed address
    int G = D.MissingFrom;
    std::pair<int, uint64_t> Best{65, 0};
    for (const AddrAccess &Y : Tr[G]->Waves[W].A) {
      if (Y.Key.Kind != D.Access->Key.Kind || Y.Key.Width != D.Access->Key.Width) continue;
      auto &C = Count[Y.Key];
      if (C[G] <= C[1 - G]) continue;
      std::pair<int, uint64_t> Dist = distance(D.Access->Key, Y.Key);
      if (Dist < Best) { Best = Dist; D.Near = &Y; D.LanesDiffer = Dist.first; }
    }
    return D;
  }
  return D;
}

} // namespace ppsim
