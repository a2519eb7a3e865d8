//===- SyncRules.cpp - the one set of wait/barrier rules ------------------===//
#include "pingpong/Sync/SyncRules.h"

#include <cstdlib>
#include "pingpong/Target/TargetFacts.h"
#include "pingpong/Target/InstrNames.h"

#include <algorithm>
#include <cctype>
#include <string>

using namespace llvm;

namespace pingpong {
namespace sync {

std::optional<Target> targetForCPU(StringRef CPU) {
  if (const target::TargetFacts *F = target::factsFor(CPU))
    return F->Id == target::GPU::Gfx950 ? Target::Gfx950 : Target::Gfx942;
  return std::nullopt;
}

const char *opClassName(OpClass C) {
  switch (C) {
  case OpClass::None: return "none";
  case OpClass::VMEMLoad: return "vmem-load";
  case OpClass::VMEMStore: return "vmem-store";
  case OpClass::LDSDMA: return "lds-dma";
  case OpClass::FLAT: return "flat";
  case OpClass::LDS: return "lds";
  case OpClass::LDSCrossbar: return "lds-crossbar";
  case OpClass::GDS: return "gds";
  case OpClass::SMEM: return "smem";
  case OpClass::Export: return "export";
  }
  return "?";
}

CounterUse countersOf(OpClass C, Target) {
  // gfx942 and gfx950 have the same gfx9 counters: vmcnt (6 bits) for every
  // vector memory op, loads, stores and LDS DMA alike, returned in order;
  // lgkmcnt (4 bits) for LDS (in order), GDS, SMEM and messages (out of
  // order); expcnt for exports. FLAT counts on vmcnt and lgkmcnt.
  CounterUse U;
  switch (C) {
  case OpClass::VMEMLoad:
  case OpClass::VMEMStore:
  case OpClass::LDSDMA:
    U.Vm = true;
    break;
  case OpClass::FLAT:
    U.Vm = U.Lgkm = true;
    break;
  case OpClass::LDS:
  case OpClass::LDSCrossbar:
    U.Lgkm = U.LgkmInOrder = true;
    break;
  case OpClass::GDS:
  case OpClass::SMEM:
    U.Lgkm = true;
    break;
  case OpClass::Export:
    U.Exp = true;
    break;
  case OpClass::None:
    break;
  }
  return U;
}

bool sameInOrderStream(OpClass A, OpClass B, Target T) {
  CounterUse UA = countersOf(A, T), UB = countersOf(B, T);
  if (!UA.any() || !UB.any())
    return false;
  bool VmOnlyA = UA.Vm && !UA.Lgkm && !UA.Exp, VmOnlyB = UB.Vm && !UB.Lgkm && !UB.Exp;
  if (VmOnlyA && VmOnlyB)
    return true;
  return UA.LgkmInOrder && UB.LgkmInOrder && !UA.Vm && !UB.Vm;
}

bool registerOperandCounts(OpClass C, bool Implicit, StringRef RegName) {
  if (!Implicit || !countersOf(C, Target::Gfx942).any())
    return true;
  // Memory instructions name every vector register they access explicitly.
  bool Vector = RegName.starts_with("VGPR") || RegName.starts_with("AGPR");
  return !Vector;
}

CounterUse retiredParts(const Waitcnt &W, const CounterUse &U, unsigned YoungerVm,
                        unsigned YoungerLgkmInOrder) {
  CounterUse Done;
  Done.Vm = U.Vm && YoungerVm >= W.Vm;
  Done.Lgkm = U.Lgkm && (U.LgkmInOrder ? YoungerLgkmInOrder >= W.Lgkm : W.Lgkm == 0);
  Done.Exp = U.Exp && W.Exp == 0;
  return Done;
}

bool retires(const Waitcnt &W, const CounterUse &U, unsigned YoungerVm,
             unsigned YoungerLgkmInOrder) {
  CounterUse D = retiredParts(W, U, YoungerVm, YoungerLgkmInOrder);
  return D.Vm == U.Vm && D.Lgkm == U.Lgkm && D.Exp == U.Exp;
}

Waitcnt drainLDS() { return Waitcnt::lgkm(0); }
Waitcnt drainVM() { return Waitcnt::vm(0); }

const char *ldsUseName(LDSUse U) {
  switch (U) {
  case LDSUse::None: return "none";
  case LDSUse::Read: return "read";
  case LDSUse::Write: return "write";
  case LDSUse::ReadWrite: return "atomic";
  case LDSUse::DMAWrite: return "LDS DMA write";
  }
  return "?";
}

bool dmaAfterLastRead(const DMAIntervals &D) {
  // Iterations between the read of a buffer and its refill.
  int Spare = D.Buffers ? int(D.Buffers) - int(D.Stages) : 1;
  return int(D.Issue) > int(D.LastRead) + int(D.Behind) - Spare * int(D.Intervals);
}

int dmaDeadline(const DMAIntervals &D) {
  return int(D.Stages * D.Intervals + D.FirstRead) - 1 - int(D.Behind);
}

InstRules classifyByName(StringRef Name, bool LdsModifier) {
  using target::NameOp;
  InstRules R;
  switch (target::classifyInstrName(Name, LdsModifier)) {
  case NameOp::Waitcnt:
  case NameOp::WaitcntOne:
    R.Sync = SyncKind::Waitcnt;
    break;
  case NameOp::Barrier:
    R.Sync = SyncKind::Barrier;
    break;
  case NameOp::EndPgm:
    R.Sync = SyncKind::EndPgm;
    break;
  // The crossbar ops move data between lanes through the LDS hardware
  // without touching LDS memory; they count on lgkmcnt like any DS op.
  case NameOp::LDSCrossbar:
    R.Class = OpClass::LDSCrossbar;
    break;
  case NameOp::GDS:
    R.Class = OpClass::GDS;
    break;
  case NameOp::LDSRead:
    R.Class = OpClass::LDS;
    R.Use = LDSUse::Read;
    break;
  case NameOp::LDSWrite:
    R.Class = OpClass::LDS;
    R.Use = LDSUse::Write;
    break;
  case NameOp::LDSAtomic: // atomics, ds_append/consume (M0-based)
    R.Class = OpClass::LDS;
    R.Use = LDSUse::ReadWrite;
    break;
  case NameOp::LDSDMA:
    R.Class = OpClass::LDSDMA;
    R.Use = LDSUse::DMAWrite;
    break;
  case NameOp::VMEMLoad:
    R.Class = OpClass::VMEMLoad;
    break;
  case NameOp::VMEMStore:
  case NameOp::VMEMAtomic:
  case NameOp::CacheMaint: // cache maintenance counts on vmcnt
    R.Class = OpClass::VMEMStore;
    break;
  case NameOp::FlatLoad:
  case NameOp::FlatStore:
    R.Class = OpClass::FLAT;
    break;
  case NameOp::SMEMLoad:
  case NameOp::SMEMOther:
  case NameOp::SendMsg:
    R.Class = OpClass::SMEM;
    break;
  case NameOp::Export:
    R.Class = OpClass::Export;
    break;
  default:
    break;
  }
  return R;
}

//===-- Buffer identity -----------------------------------------------------===//

static bool mayAliasInDomain(ArrayRef<ScopeRef> Scopes, ArrayRef<ScopeRef> NoAlias) {
  // LLVM's ScopedNoAliasAA: for every domain of the noalias list, if all of
  // the other access's scopes in that domain are in the noalias list, the
  // two do not alias.
  for (const ScopeRef &N : NoAlias) {
    const void *D = N.Domain;
    bool Any = false, All = true;
    for (const ScopeRef &S : Scopes) {
      if (S.Domain != D)
        continue;
      Any = true;
      if (llvm::find(NoAlias, S) == NoAlias.end())
        All = false;
    }
    if (Any && All)
      return false;
  }
  return true;
}

bool scopedNoAlias(const LDSRegion &A, const LDSRegion &B) {
  return !mayAliasInDomain(A.Scopes, B.NoAlias) ||
         !mayAliasInDomain(B.Scopes, A.NoAlias);
}

static OverlapResult overlapBytes(const LDSRegion &A, const LDSRegion &B) {
  OverlapResult R;
  R.O = Overlap::Disjoint;
  if (A.Bytes.empty() || B.Bytes.empty())
    return R;
  if (A.Bytes.back().second <= B.Bytes.front().first ||
      B.Bytes.back().second <= A.Bytes.front().first)
    return R;
  size_t I = 0, J = 0;
  while (I < A.Bytes.size() && J < B.Bytes.size()) {
    uint32_t Lo = std::max(A.Bytes[I].first, B.Bytes[J].first);
    uint32_t Hi = std::min(A.Bytes[I].second, B.Bytes[J].second);
    if (Lo < Hi) {
      R.O = Overlap::Bytes;
      R.Lo = Lo;
      R.Hi = Hi;
      return R;
    }
    if (A.Bytes[I].second < B.Bytes[J].second)
      ++I;
    else
      ++J;
  }
  return R;
}

OverlapResult overlap(const LDSRegion &A, const LDSRegion &B) {
  OverlapResult R;
  // Merged accesses: the strongest answer over their parts (a proven meeting
  // first, then a shared buffer; disjoint only when every part is).
  if (!A.Parts.empty() || !B.Parts.empty()) {
    bool AllDisjoint = true, Same = false;
    auto Each = [&](const LDSRegion &X, const LDSRegion &Y) {
      OverlapResult O = overlap(X, Y);
      if (O.O == Overlap::Bytes && R.O != Overlap::Bytes)
        R = O;
      Same |= O.O == Overlap::SameBuffer;
      AllDisjoint &= O.O == Overlap::Disjoint;
    };
    if (!A.Parts.empty())
      for (const LDSRegion &P : A.Parts)
        Each(P, B);
    else
      for (const LDSRegion &P : B.Parts)
        Each(A, P);
    if (R.O == Overlap::Bytes)
      return R;
    R.O = AllDisjoint ? Overlap::Disjoint
                      : Same ? Overlap::SameBuffer : Overlap::Unknown;
    return R;
  }
  if (A.BytesKnown && B.BytesKnown)
    return overlapBytes(A, B);
  if (scopedNoAlias(A, B)) {
    R.O = Overlap::Disjoint;
    return R;
  }
  if (!A.Object || !B.Object)
    return R; // Unknown
  if (A.Object != B.Object) {
    R.O = Overlap::Disjoint;
    return R;
  }
  if (A.Range && B.Range) {
    int64_t Lo = std::max(A.Range->first, B.Range->first);
    int64_t Hi = std::min(A.Range->second, B.Range->second);
    if (Lo >= Hi) {
      R.O = Overlap::Disjoint;
      return R;
    }
    R.O = Overlap::Bytes;
    R.Lo = uint32_t(Lo);
    R.Hi = uint32_t(Hi);
    return R;
  }
  // Bounds of lane-dependent addresses prove only that accesses miss.
  auto Bound = [](const LDSRegion &X) { return X.Range ? X.Range : X.Extent; };
  if (auto BA = Bound(A), BB = Bound(B);
      BA && BB && (BA->second <= BB->first || BB->second <= BA->first)) {
    R.O = Overlap::Disjoint;
    return R;
  }
  // The slots of a multi-buffer, in the same iteration's terms: different
  // indices of one array, or arrays whose slots do not meet, are apart; the
  // same index of one array is the same slot.
  bool SameSlot = false;
  if (A.Slot && B.Slot && A.Slot->comparable(*B.Slot)) {
    bool Apart = true;
    SameSlot = true;
    int64_t Span = int64_t(A.Slot->Slots) * A.Slot->Stride;
    for (int64_t BA : A.Slot->Bases)
      for (int64_t BB : B.Slot->Bases) {
        bool Same = BA == BB && A.Slot->Index == B.Slot->Index;
        Apart &= BA == BB ? !Same : std::abs(BA - BB) >= Span;
        SameSlot &= Same;
      }
    if (Apart) {
      R.O = Overlap::Disjoint;
      return R;
    }
  }
  // One declared variable (a sized object; LLVM's LDS lowering gives each
  // __shared__ variable of a kernel its own alias scope): the same key is the
  // same buffer. An arena holds many buffers: its key says nothing. An
  // address that moves between iterations in a way not followed (a slot not
  // proven, a rotating pointer) is not the same bytes: unknown.
  if (!A.Arena && !B.Arena && A.Scopes.size() == B.Scopes.size() &&
      std::is_permutation(A.Scopes.begin(), A.Scopes.end(), B.Scopes.begin()) &&
      (SameSlot || (!A.Varies && !B.Varies)))
    R.O = Overlap::SameBuffer;
  return R;
}

LDSRegion advanceSlots(
    LDSRegion R,
    llvm::function_ref<std::optional<int>(const LDSRegion::ToggledSlot &)> Steps) {
  std::optional<int> N = R.Slot ? Steps(*R.Slot) : std::nullopt;
  if (N)
    R.Slot->advance(*N);
  else
    R.Slot.reset();
  for (LDSRegion &P : R.Parts)
    P = advanceSlots(std::move(P), Steps);
  return R;
}

//===-- One wave ------------------------------------------------------------===//

unsigned WaveTimeline::drain(size_t E) const {
  if (CompletedBy[E] == Never)
    return NoDrain;
  return unsigned(Phase[CompletedBy[E]] - Phase[E]);
}

WaveTimeline analyzeWave(ArrayRef<WaveEvent> Events, Target T) {
  WaveTimeline TL;
  TL.Phase.resize(Events.size());
  TL.CompletedBy.assign(Events.size(), WaveTimeline::Never);
  struct Pending {
    size_t Event;
    CounterUse U, Left; // the counters it uses, those not yet waited for
    unsigned VmSeq, LgkmSeq; // issue index in the vm / in-order lgkm streams
  };
  std::vector<Pending> Out;
  unsigned VmIssued = 0, LgkmIssued = 0;
  int Phase = 0;
  for (size_t I = 0; I < Events.size(); ++I) {
    const WaveEvent &E = Events[I];
    TL.Phase[I] = Phase;
    switch (E.Sync) {
    case SyncKind::Barrier:
      ++Phase;
      continue;
    case SyncKind::EndPgm:
      for (const Pending &P : Out)
        TL.CompletedBy[P.Event] = I;
      Out.clear();
      continue;
    case SyncKind::Waitcnt:
      // An operation on two counters (FLAT) may be completed by two waits,
      // one per counter (llc splits vmcnt(0) and lgkmcnt(0)).
      llvm::erase_if(Out, [&](Pending &P) {
        CounterUse D = retiredParts(
            E.W, P.Left, P.U.Vm ? VmIssued - P.VmSeq - 1 : 0,
            P.U.LgkmInOrder ? LgkmIssued - P.LgkmSeq - 1 : 0);
        P.Left.Vm &= !D.Vm;
        P.Left.Lgkm &= !D.Lgkm;
        P.Left.Exp &= !D.Exp;
        if (P.Left.any())
          return false;
        TL.CompletedBy[P.Event] = I;
        return true;
      });
      continue;
    case SyncKind::None:
      break;
    }
    CounterUse U = countersOf(E.Class, T);
    if (!U.any())
      continue;
    Out.push_back({I, U, U, VmIssued, LgkmIssued});
    VmIssued += U.Vm;
    LgkmIssued += U.Lgkm && U.LgkmInOrder;
  }
  return TL;
}

//===-- Pairs ---------------------------------------------------------------===//

PairResult checkPair(const LDSAccess &A, const LDSAccess &B, OverlapResult O) {
  PairResult R;
  R.Where = O;
  if (!ldsWrites(A.Use) && !ldsWrites(B.Use))
    return R;
  if (A.Use == LDSUse::None || B.Use == LDSUse::None)
    return R;
  if (O.O == Overlap::Disjoint)
    return R;
  bool BothWrite = !ldsReads(A.Use) && !ldsReads(B.Use);
  // Two writes of two waves are the parts of a cooperative store unless
  // bytes show that they overlap: to one buffer key, or where nothing is
  // known, they are not a pair (else every tile store of every kernel would
  // be "cannot prove").
  if (BothWrite && O.O != Overlap::Bytes)
    return R;
  R.AFirst = A.Phase <= B.Phase;
  const LDSAccess &E = R.AFirst ? A : B, &L = R.AFirst ? B : A;
  if (E.Phase == L.Phase)
    R.Why = Disorder::SamePhase;
  else if (E.Drain == WaveTimeline::NoDrain ||
           long(E.Drain) > long(L.Phase) - long(E.Phase) - 1)
    R.Why = Disorder::NotDrained;
  if (R.Why == Disorder::None) {
    R.V = PairVerdict::Ordered;
    return R;
  }
  R.V = PairVerdict::Race;
  if (O.O == Overlap::Unknown) {
    R.V = PairVerdict::Unproven;
    R.Unproven = UnprovenWhy::UnknownBytes;
  } else if (BothWrite && A.Site && A.Site == B.Site) {
    R.V = PairVerdict::Unproven;
    R.Unproven = UnprovenWhy::SameStore;
  }
  return R;
}

PairResult checkPair(const LDSAccess &A, const LDSRegion &RA,
                     const LDSAccess &B, const LDSRegion &RB) {
  if ((!ldsWrites(A.Use) && !ldsWrites(B.Use)) || A.Use == LDSUse::None ||
      B.Use == LDSUse::None)
    return PairResult();
  return checkPair(A, B, overlap(RA, RB));
}

PairVerdict sameWaveDMA(const LDSRegion &Dma, const LDSRegion &Access,
                        OverlapResult *Where) {
  OverlapResult O = overlap(Dma, Access);
  if (Where)
    *Where = O;
  switch (O.O) {
  case Overlap::Disjoint:
    return PairVerdict::NotAPair;
  case Overlap::Unknown:
    return PairVerdict::Unproven;
  default:
    return PairVerdict::Race;
  }
}

//===-- Barriers and pacing -------------------------------------------------===//

std::optional<std::pair<size_t, size_t>>
barrierMismatch(ArrayRef<unsigned> N) {
  for (size_t A = 0; A < N.size(); ++A)
    for (size_t B = 0; B < N.size(); ++B)
      if (N[A] > N[B])
        return std::make_pair(A, B);
  return std::nullopt;
}

std::optional<PacingGap> pacingGap(ArrayRef<PaceEvent> Body) {
  enum { None, AfterDot, AfterMem } Need = None;
  for (unsigned Trip = 0; Trip < 2; ++Trip)
    for (size_t I = 0; I < Body.size(); ++I) {
      PaceEvent E = Body[I];
      if (E == PaceEvent::Barrier) {
        Need = None;
        continue;
      }
      bool Mem = E == PaceEvent::Mem, DotStart = E == PaceEvent::DotStart;
      if (Trip == 1 && ((Need == AfterDot && (Mem || DotStart)) ||
                        (Need == AfterMem && DotStart)))
        return PacingGap{I, Need == AfterDot};
      if (E == PaceEvent::DotEnd)
        Need = AfterDot;
      else if (Mem && Need != AfterDot)
        Need = AfterMem;
    }
  return std::nullopt;
}

std::optional<int> sharedMfmaPhase(ArrayRef<int> A, ArrayRef<int> B) {
  size_t I = 0, J = 0;
  while (I < A.size() && J < B.size()) {
    if (A[I] == B[J])
      return A[I];
    if (A[I] < B[J])
      ++I;
    else
      ++J;
  }
  return std::nullopt;
}

} // namespace sync
} // namespace pingpong
