//===- ClusterPlan.cpp - placing instructions in clusters -----------------===//
#include "pingpong/Schedule/ClusterPlan.h"
#include "pingpong/Analysis/DepGraph.h"
#include "pingpong/Analysis/LDSObjects.h"
#include "pingpong/Sync/SyncRules.h"
#include "pingpong/Sync/Waitcnt.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include <algorithm>
#include <climits>
#include <map>
#include <type_traits>

using namespace llvm;

// Testing only: plan layouts whose MFMA intervals neighbour under the skew
// (refused otherwise), so that the checkers' pacing rule can be tested on
// the code they would give (test/Triton/layout-checker-gaps.test).
static cl::opt<bool> UnpacedLayouts(
    "amdgpu-pingpong-unpaced-layouts", cl::init(false), cl::Hidden,
    cl::desc("Plan layouts that run MFMAs in neighbouring barrier intervals "
             "under the asymmetric skew (testing the checkers)"));

namespace pingpong {

unsigned ClusterPlan::count(unsigned C, Role R, const LoopModel &M) const {
  unsigned N = 0;
  for (unsigned I = 0; I < ClusterOf.size(); ++I)
    N += ClusterOf[I] == C && M.Insts[I].R == R;
  return N;
}

std::string ClusterPlan::describe(const LoopModel &M) const {
  std::string S;
  const auto &Cls = Layout.Clusters;
  // A cluster and the sub-clusters joined to it are one entry.
  for (unsigned C = 0; C < Cls.size();) {
    unsigned End = C + 1;
    while (End < Cls.size() && Cls[End].Joined)
      ++End;
    auto Count = [&](Role R) {
      unsigned N = 0;
      for (unsigned J = C; J < End; ++J)
        N += count(J, R, M);
      return N;
    };
    auto Sum = [&](Role R) { return std::to_string(Count(R)); };
    if (C)
      S += ", ";
    S += Cls[C].Name + " ";
    if (Cls[C].Kind == ClusterKind::Dot) {
      S += Sum(Role::Dot) + " mfma";
      if (Count(Role::LocalWrite)) // writes among the MFMAs (single-wave)
        S += "/" + Sum(Role::LocalWrite) + " lds-write";
    } else
      S += Sum(Role::LocalRead) + " lds-read/" + Sum(Role::GlobalLoad) +
           " global-load/" + Sum(Role::LocalWrite) + " lds-write";
    if (M.NumAsyncCopies)
      S += "/" + Sum(Role::AsyncCopy) + " lds-dma";
    C = End;
  }
  return S;
}

bool canSliceAcrossWaveGroups(const LoopModel &M, unsigned Slices, Mode Md,
                              Rejection &Why) {
  std::string Name = modeName(Md);
  // Along K when the K steps divide; otherwise each K step's accumulators
  // are split too (a cut Triton's K-slicing of local loads cannot make).
  if (M.ChainLen % Slices && M.NumDots % Slices) {
    Why.Reason = Name + " needs the MFMAs of an iteration (" +
                 std::to_string(M.ChainLen) + " K steps x " +
                 std::to_string(M.NumAccumulators) +
                 " accumulators) to split into " + std::to_string(Slices) +
                 " equal parts";
    return false;
  }
  if (M.Waves != 8) {
    Why.Reason = Name + " needs 8 waves per workgroup (two per SIMD of one "
                        "workgroup); this kernel has " +
                 std::to_string(M.Waves);
    return false;
  }
  return true;
}

std::optional<ClusterLayout> builtinLayout(const char *Text, Mode Md,
                                           const LoopModel &M, Rejection &Why) {
  std::string Error;
  std::optional<ClusterLayout> L = parseLayout(Text, M.NumDots, Error);
  if (!L) {
    Why.Reason = "internal error in the " + std::string(modeName(Md)) +
                 " layout: " + Error;
    return std::nullopt;
  }
  L->M = Md;
  return L;
}

unsigned layoutVariants(Mode Md, const LoopModel &M) {
  if (Md == Mode::AsyncTwoPP)
    return asyncTwoPPDMAInDot(M) ? 2 : 1;
  if (Md == Mode::SingleWave)
    return singleWaveVariants(M);
  if (Md == Mode::FourPP)
    return fourPPVariants(M);
  if (Md == Mode::OnePP)
    return onePPVariants(M);
  return Md == Mode::ChainedPP ? chainedPPVariants(M) : 1;
}

/// A mode's layout builder, with the variant where it has several.
template <class Builder>
static std::optional<ClusterLayout> callLayout(Builder B, const LoopModel &M,
                                               Rejection &Why, unsigned Variant) {
  if constexpr (std::is_invocable_v<Builder, const LoopModel &, Rejection &,
                                    unsigned>)
    return B(M, Why, Variant);
  else
    return B(M, Why);
}

std::optional<ClusterLayout> layoutFor(Mode Md, const LoopModel &M,
                                       Rejection &Why, unsigned Variant) {
  // The classic modes place LDS writes of register-staged loads; their
  // clusters say nothing about where a DMA goes.
  if (modeInfo(Md).DMA == DMAUse::Never && M.NumAsyncCopies) {
    Why.Reason = std::string(modeName(Md)) +
                 " does not place LDS DMA (" +
                 std::to_string(M.NumAsyncCopies) +
                 " async copies in the loop): the async modes do "
                 "(async-two-cluster, async-four-cluster, async-one-cluster)";
    return std::nullopt;
  }
  switch (Md) {
#define PINGPONG_KEYWORD(Id, ...)                                              \
  case Mode::Id:                                                               \
    break;
#define PINGPONG_MODE(Id, ...)                                                 \
  case Mode::Id:                                                               \
    return callLayout(layout##Id, M, Why, Variant);
#include "pingpong/Modes/Modes.def"
  }
  Why.Reason = "no layout for mode " + std::string(modeName(Md));
  return std::nullopt;
}

/// LDS DMA under the layout's barriers: each DMA must issue after the last
/// reads of the buffer it refills (both wave groups) and be complete, in
/// the issuing wave, by the barrier Sync/SyncRules' dmaDeadline names; with
/// the layout's operand-waits both are taken from the reads of its own
/// operand (A with the A-scale; all reads where the operand is unknown).
/// The wait before a barrier: all but the vmcnt operations issued after the
/// youngest DMA due there (in issue order, this iteration and those before;
/// -1 where no DMA is newly due); where operands are due at different
/// barriers, that count leaves the later operand's copies in flight (the
/// operand-split wait). Fails when a DMA's stage distance is not known or no
/// interval satisfies both rules.
static bool dmaWaits(const LoopModel &M, const ClusterLayout &Layout,
                     const std::vector<unsigned> &C, std::vector<int> &VmWait,
                     int &VmBeforeLoop, Rejection &Why) {
  const unsigned N = M.Insts.size(), NC = Layout.Clusters.size();
  std::vector<unsigned> Interval(NC, 0);
  for (unsigned CI = 1; CI < NC; ++CI)
    Interval[CI] = Interval[CI - 1] + !Layout.Clusters[CI].Joined;
  const unsigned K = Interval[NC - 1] + 1;
  VmWait.assign(K, -1);
  VmBeforeLoop = -1;
  // Read intervals of every LDS read, and per operand buffer (dot group and
  // operand, a scale with its operand): a DMA that fills one operand's buffer
  // is due before that operand's first read and may refill it after that
  // operand's last read, so a layout that reads A before B waits for A's
  // DMA alone first (operand-split wait: vmcnt counts in issue order).
  struct ReadSpan {
    int First = -1, Last = -1;
    void add(int T) {
      First = First < 0 ? T : std::min(First, T);
      Last = std::max(Last, T);
    }
  };
  auto BufferKey = [](const InstInfo &II) -> int {
    if (II.Op == Operand::None)
      return -1;
    Operand Own = II.Op == Operand::ScaleA   ? Operand::A
                  : II.Op == Operand::ScaleB ? Operand::B
                                             : II.Op;
    return int(II.Group) * NumOperandKinds + int(Own);
  };
  ReadSpan AllReads;
  std::map<int, ReadSpan> OperandReads;
  bool AnyDMA = false;
  for (unsigned I = 0; I < N; ++I) {
    if (M.Insts[I].Kind == InstKind::LDSRead) {
      int T = Interval[C[I]];
      AllReads.add(T);
      if (int Key = BufferKey(M.Insts[I]); Key >= 0 && Layout.OperandWaits)
        OperandReads[Key].add(T);
    }
    AnyDMA |= M.Insts[I].Kind == InstKind::LDSDMA;
  }
  if (!AnyDMA)
    return true;
  if (AllReads.First < 0) {
    Why.Reason = "LDS DMA in a loop without LDS reads";
    return false;
  }
  // The reads a DMA's data goes to: its operand's, or every read when the
  // analysis did not name the operand (or saw no read of it).
  auto ReadsOf = [&](const InstInfo &II) -> const ReadSpan & {
    auto It = OperandReads.find(BufferKey(II));
    return It == OperandReads.end() ? AllReads : It->second;
  };
  // vmcnt operations of one iteration in issue order (plan order): their
  // interval and, for DMA, the absolute interval that must see it complete.
  struct Event {
    unsigned Interval;
    int Deadline; // DMA only; INT_MIN otherwise
  };
  std::vector<unsigned> Order(N);
  for (unsigned I = 0; I < N; ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(),
                   [&](unsigned A, unsigned B) { return C[A] < C[B]; });
  std::vector<Event> Events;
  for (unsigned I : Order) {
    const InstInfo &II = M.Insts[I];
    bool VM = II.Kind == InstKind::VMEMLoad || II.Kind == InstKind::VMEMStore ||
              II.Kind == InstKind::LDSDMA;
    if (!VM)
      continue;
    Event E{Interval[C[I]], INT_MIN};
    if (II.Kind == InstKind::LDSDMA) {
      if (!II.StagesAhead) {
        Why.Reason = "LDS DMA whose reads the analysis could not pair with it "
                     "(pipeline stage unknown): no wait can be placed for it";
        Why.At = II.MI;
        return false;
      }
      const ReadSpan &R = ReadsOf(II);
      sync::DMAIntervals D{K, E.Interval, II.StagesAhead, unsigned(R.First),
                           unsigned(R.Last)};
      // Fewer buffers than stages ahead: the derivation went wrong; the
      // default (one more than the stages) stands.
      if (II.Buffers >= II.StagesAhead)
        D.Buffers = II.Buffers;
      D.Behind = Layout.AsymmetricSync ? 1 : 0;
      E.Deadline = sync::dmaDeadline(D);
      if (!sync::dmaAfterLastRead(D) || E.Deadline < int(E.Interval)) {
        Why.Reason = "the layout issues an LDS DMA (" +
                     Layout.Clusters[C[I]].Name + ", " +
                     std::to_string(II.StagesAhead) + " stage(s) ahead) " +
                     (E.Deadline < int(E.Interval)
                          ? "too late: its data must have landed before a "
                            "barrier that comes before it"
                          : "while the other wave group may still read the "
                            "buffer it refills");
        Why.At = II.MI;
        return false;
      }
    }
    Events.push_back(E);
  }
  // Walk back from each barrier over this iteration and enough earlier ones
  // (a DMA is due at most Stages iterations after it issues).
  unsigned MaxStages = 1;
  for (const InstInfo &II : M.Insts)
    MaxStages = std::max(MaxStages, unsigned(II.StagesAhead));
  // Due[B]: stamp (iteration * events + index) of the youngest DMA due at
  // barrier B; Younger[B]: vmcnt operations issued after it.
  std::vector<int> Due(K, INT_MIN), Younger(K, 0);
  const int NE = Events.size();
  for (unsigned B = 0; B < K; ++B)
    for (int Iter = 0; Iter >= -int(MaxStages) - 1 && Due[B] == INT_MIN; --Iter)
      for (int E = NE; E-- > 0;) {
        const Event &Ev = Events[E];
        if (Iter == 0 && Ev.Interval > B)
          continue; // issued after this barrier
        if (Ev.Deadline != INT_MIN && Iter * int(K) + Ev.Deadline <= int(B)) {
          Due[B] = Iter * NE + E;
          break;
        }
        // An earlier iteration may be the prologue, which issues the
        // copies of the stages ahead and nothing else the loop loads:
        // only its copies are sure to come after the one due.
        if (Iter == 0 || Ev.Deadline != INT_MIN)
          ++Younger[B];
      }
  // Before the loop: what is due at the last barrier of "iteration -1".
  VmBeforeLoop = -1;
  {
    int Count = 0;
    bool Found = false;
    for (int Iter = -1; Iter >= -int(MaxStages) - 1 && !Found; --Iter)
      for (int E = NE; E-- > 0;) {
        const Event &Ev = Events[E];
        if (Ev.Deadline != INT_MIN && Iter * int(K) + Ev.Deadline <= -1) {
          Found = true;
          break;
        }
        Count += Ev.Deadline != INT_MIN; // the prologue's copies only
      }
    if (Found)
      VmBeforeLoop = std::min<int>(Count, Waitcnt::MaxVm);
  }
  // A wait only where a DMA is newly due: the barrier before (the last one
  // of the previous iteration for the first) already waited for the rest.
  for (unsigned B = 0; B < K; ++B) {
    int Before = B ? Due[B - 1] : (Due[K - 1] == INT_MIN ? INT_MIN
                                                         : Due[K - 1] - NE);
    if (Due[B] != INT_MIN && Due[B] != Before)
      VmWait[B] = std::min<int>(Younger[B], Waitcnt::MaxVm);
  }
  return true;
}

// Forward: every instruction as early as its predecessors allow, but never
// before the cluster its role asks for. A role instruction pushed past its
// cluster is a conflict. Backward: instructions without a role that landed
// in a dot cluster move to the next memory cluster when their users allow
// (keep VALU/SALU out of the dot); sync instructions go as late as allowed.
std::vector<const MachineInstr *>
ClusterPlan::memoryInDot(const LoopModel &M) const {
  std::vector<const MachineInstr *> In;
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    unsigned Cl = I < ClusterOf.size() ? ClusterOf[I] : ~0u;
    const InstInfo &II = M.Insts[I];
    if (Cl >= Layout.Clusters.size() || !II.MI ||
        Layout.Clusters[Cl].Kind != ClusterKind::Dot || II.R == Role::Other)
      continue;
    switch (II.Kind) {
    case InstKind::LDSRead:
    case InstKind::LDSWrite:
    case InstKind::VMEMLoad:
    case InstKind::VMEMStore:
    case InstKind::LDSDMA:
    // The softmax's crossbar ops (ds_bpermute, ds_swizzle) where a layout
    // names the inter-dot VALU in a dot (single-wave's gated parts).
    case InstKind::LDSOther:
      In.push_back(II.MI);
      break;
    default:
      break;
    }
  }
  return In;
}

/// Whether User reads a value Def defines: a virtual register, or a live
/// physical one (a compare's SCC into a select). A dead def (the SCC every
/// SALU add clobbers) only orders the two.
/// The latest cluster of kind K from Latest down to Earliest (Latest itself
/// checked first, even where it is before Earliest); none where there is none.
static std::optional<unsigned> latestOfKind(const ClusterLayout &Layout,
                                            unsigned Latest, unsigned Earliest,
                                            ClusterKind K) {
  for (unsigned X = Latest;; --X) {
    if (Layout.Clusters[X].Kind == K)
      return X;
    if (X <= Earliest)
      return std::nullopt;
  }
}

static bool readsValueOf(const MachineInstr &User, const MachineInstr &Def) {
  for (const MachineOperand &D : Def.operands())
    if (D.isReg() && D.isDef() && D.getReg() &&
        (D.getReg().isVirtual() || !D.isDead()))
      for (const MachineOperand &U : User.operands())
        if (U.isReg() && U.isUse() && U.getReg() == D.getReg())
          return true;
  return false;
}

std::optional<ClusterPlan> planClusters(const LoopModel &M,
                                        const DepGraph &Graph,
                                        ClusterLayout Layout, Rejection &Why) {
  std::optional<DepGraph> Early;
  if (Layout.SideLoadsEarly && !Graph.SideStaging.empty())
    Early = Graph.withoutSideStaging();
  const DepGraph &G = Early ? *Early : Graph;
  const unsigned N = M.Insts.size(), NC = Layout.Clusters.size();
  std::vector<int> Want(N);
  std::vector<unsigned> C(N, 0);
  for (unsigned I = 0; I < N; ++I)
    Want[I] = Layout.desired(M.Insts[I]);
  for (unsigned I = 0; I < N; ++I) {
    unsigned Earliest = 0;
    for (unsigned P : G.Preds[I])
      Earliest = std::max(Earliest, C[P]);
    if (Want[I] >= 0 && Earliest > unsigned(Want[I])) {
      const InstInfo &II = M.Insts[I];
      Why.Reason = ("dependence: this " + Twine(roleName(II.R)) +
                    " belongs in " + Layout.Clusters[Want[I]].Name +
                    " but depends on an instruction placed in " +
                    Layout.Clusters[Earliest].Name)
                       .str();
      Why.At = II.MI;
      return std::nullopt;
    }
    C[I] = Want[I] >= 0 ? unsigned(Want[I]) : Earliest;
  }
  int LastMem = -1;
  for (unsigned CI = 0; CI < NC; ++CI)
    if (Layout.Clusters[CI].Kind == ClusterKind::Mem)
      LastMem = CI;
  // Instructions without a role that consume a global load's data of this
  // iteration (v_perm/cvt/pack before an LDS write): issued early they wait
  // on vmcnt for the whole global latency; go with their users instead.
  std::vector<bool> UsesGlobalData(N, false);
  for (unsigned I = 0; I < N; ++I)
    if (Want[I] < 0 && M.Insts[I].R != Role::Sync)
      for (unsigned P : G.Preds[I])
        if (M.Insts[P].R == Role::GlobalLoad || UsesGlobalData[P])
          UsesGlobalData[I] = true;
  // results-next-dot: VALU without a role computed from an MFMA result of
  // this iteration (through other such VALU), e.g. a block scale applied to
  // the dot's result and its accumulation; and a scale load issued ahead
  // that no selector places (it follows the last reader of the register it
  // refills, DepGraph's staging edge, so it goes where that VALU goes).
  std::vector<bool> OnDotResult(N, false);
  if (Layout.ResultsNextDot)
    for (unsigned I = 0; I < N; ++I) {
      const InstInfo &II = M.Insts[I];
      bool Valu = II.R == Role::Other && II.Kind == InstKind::Other;
      if (Want[I] >= 0 || !(Valu || II.R == Role::SideLoad))
        continue;
      for (unsigned P : G.Preds[I])
        if (M.Insts[P].Kind == InstKind::MFMA || OnDotResult[P])
          OnDotResult[I] = true;
    }
  // delay-copy-address: VALU/SALU without a role whose every use is an LDS
  // DMA copy, directly or through other such instructions;
  // delay-write-address: the same for LDS writes.
  std::vector<bool> FeedsCopiesOnly(N, false);
  if (Layout.DelayCopyAddress || Layout.DelayWriteAddress)
    for (unsigned I = N; I-- > 0;) {
      const InstInfo &II = M.Insts[I];
      if (Want[I] >= 0 || II.R != Role::Other || G.Succs[I].empty())
        continue;
      FeedsCopiesOnly[I] = llvm::all_of(G.Succs[I], [&](unsigned S) {
        const Role R = M.Insts[S].R;
        return S > I &&
               ((Layout.DelayCopyAddress && R == Role::AsyncCopy) ||
                (Layout.DelayWriteAddress && R == Role::LocalWrite) ||
                FeedsCopiesOnly[S]);
      });
    }
  // address-in-dot: VALU/SALU without a role whose values reach one global
  // load only, directly or through other such instructions (that load's own
  // address arithmetic, bounds compares and mask select), for the later
  // half of the iteration's global loads in program order. The chains of
  // the first half stay where their inputs put them (the first memory
  // cluster), as does work several loads share: with the asymmetric skew
  // one group's dot0 runs beside the other group's mem0, so each half faces
  // the other and a SIMD's two waves issue address work at once there.
  // An edge that only orders two role-less SALU through SCC carries no
  // value: it does not disqualify, but still bounds where the instruction
  // may go (Latest).
  std::vector<bool> FeedsLoadsOnly(N, false);
  if (Layout.AddressInDot) {
    constexpr int None = -1, Several = -2;
    std::vector<int> LoadOf(N, None); // the one load reached, or Several
    unsigned NumLoads = 0, Seen = 0;
    for (const InstInfo &II : M.Insts)
      NumLoads += II.R == Role::GlobalLoad;
    std::vector<bool> LaterHalf(N, false);
    for (unsigned I = 0; I < N; ++I)
      if (M.Insts[I].R == Role::GlobalLoad)
        LaterHalf[I] = 2 * Seen++ >= NumLoads;
    for (unsigned I = N; I-- > 0;) {
      const InstInfo &II = M.Insts[I];
      if (II.R == Role::GlobalLoad) {
        LoadOf[I] = int(I);
        continue;
      }
      if (Want[I] >= 0 || II.R != Role::Other || !II.MI)
        continue;
      int Load = None;
      bool Ok = true;
      for (unsigned S : G.Succs[I]) {
        const bool Value = S > I && M.Insts[S].MI &&
                           readsValueOf(*M.Insts[S].MI, *II.MI);
        if (S > I && !Value && M.Insts[S].R == Role::Other)
          continue;
        if (!Value || LoadOf[S] == None || LoadOf[S] == Several ||
            (Load != None && Load != LoadOf[S])) {
          Ok = false;
          break;
        }
        Load = LoadOf[S];
      }
      if (Ok && Load != None) {
        LoadOf[I] = Load;
        FeedsLoadsOnly[I] = LaterHalf[Load];
      } else {
        LoadOf[I] = Several;
      }
    }
  }
  // advances-in-dot: role-less VALU whose value only reaches the back edge
  // (through other role-less instructions without a use in the loop: the
  // latch copies), each load offset's advance; spread in program order over
  // the dot clusters (Advance[I]: its index among them, else ~0u).
  std::vector<unsigned> Advance(N, ~0u);
  unsigned NumAdvances = 0;
  if (Layout.AdvancesInDot) {
    const TargetInstrInfo *TII =
        M.Body ? M.Body->getParent()->getSubtarget().getInstrInfo() : nullptr;
    std::vector<bool> NextOnly(N, false);
    for (unsigned I = N; I-- > 0;) {
      const InstInfo &II = M.Insts[I];
      if (Want[I] >= 0 || II.R != Role::Other || II.Kind != InstKind::Other ||
          !II.MI)
        continue;
      NextOnly[I] = llvm::all_of(G.Succs[I], [&](unsigned S) {
        return S > I && NextOnly[S] && M.Insts[S].MI &&
               readsValueOf(*M.Insts[S].MI, *II.MI);
      });
    }
    for (unsigned I = 0; I < N; ++I)
      if (NextOnly[I] && TII && !G.Succs[I].empty() &&
          TII->getName(M.Insts[I].MI->getOpcode()).starts_with("V_"))
        Advance[I] = NumAdvances++;
  }
  std::vector<unsigned> DotClusters;
  for (unsigned CI = 0; CI < NC; ++CI)
    if (Layout.Clusters[CI].Kind == ClusterKind::Dot)
      DotClusters.push_back(CI);
  for (unsigned I = N; I-- > 0;) {
    if (Want[I] >= 0)
      continue;
    unsigned Latest = NC - 1;
    for (unsigned S : G.Succs[I])
      Latest = std::min(Latest, C[S]);
    const InstInfo &II = M.Insts[I];
    if (II.R == Role::Sync) {
      C[I] = std::max(C[I], Latest);
      continue;
    }
    if (II.R == Role::OperandPrep)
      continue;
    // The dot cluster of its share of the spread, or the nearest one its
    // inputs and users allow; where that is no dot cluster, as without the
    // flag.
    if (Advance[I] != ~0u && !DotClusters.empty() && C[I] <= Latest) {
      unsigned To = DotClusters[Advance[I] * DotClusters.size() /
                                  NumAdvances];
      To = std::clamp(To, C[I], Latest);
      if (Layout.Clusters[To].Kind == ClusterKind::Dot) {
        C[I] = To;
        continue;
      }
    }
    // The last dot cluster its users allow (the one before the loads'
    // cluster), among its MFMAs; with none, the default below.
    if (FeedsLoadsOnly[I]) {
      if (std::optional<unsigned> Dot =
              latestOfKind(Layout, Latest, C[I], ClusterKind::Dot)) {
        C[I] = *Dot;
        continue;
      }
    }
    // The latest memory cluster the copies allow (theirs).
    if (FeedsCopiesOnly[I]) {
      if (std::optional<unsigned> Mem =
              latestOfKind(Layout, Latest, C[I], ClusterKind::Mem))
        C[I] = *Mem;
      continue;
    }
    if (Layout.DelayGlobalDataUse && UsesGlobalData[I] &&
        !G.Succs[I].empty()) {
      if (std::optional<unsigned> Mem =
              latestOfKind(Layout, Latest, C[I], ClusterKind::Mem)) {
        C[I] = *Mem;
        continue;
      }
      // Users in a dot cluster with no memory cluster before them (LDS
      // writes among the MFMAs, single-wave): with the users there.
      C[I] = Latest;
      continue;
    }
    // results-next-dot: among the next dot cluster's MFMAs, where the VALU
    // co-issues with the pipe busy, rather than in the memory cluster that
    // faces the other wave group's dot (the default below).
    if (OnDotResult[I] && Layout.Clusters[C[I]].Kind == ClusterKind::Dot) {
      unsigned Next = C[I] + 1;
      while (Next <= Latest && Layout.Clusters[Next].Kind != ClusterKind::Dot)
        ++Next;
      if (Next <= Latest) {
        C[I] = Next;
        continue;
      }
    }
    // Feeds nothing in the loop (loop control, pointer increments, values
    // for the next iteration): last memory cluster, after every use of the
    // old value, where SALU work co-issues with the other wave's dot.
    if (G.Succs[I].empty()) {
      if (LastMem >= int(C[I]))
        C[I] = LastMem;
      continue;
    }
    if (Layout.Clusters[C[I]].Kind != ClusterKind::Dot)
      continue;
    for (unsigned Next = C[I] + 1; Next <= Latest; ++Next)
      if (Layout.Clusters[Next].Kind == ClusterKind::Mem) {
        C[I] = Next;
        break;
      }
  }
  // With the loop's own barriers replaced by the layout's, the layout must
  // keep LDS reads and writes of one buffer apart: not in one barrier
  // interval, and with the asymmetric skew (the other wave group one cluster
  // behind) not in neighbouring ones, the last and the first included.
  // Accesses the buffer identity proves disjoint (e.g. K's tile and V's in
  // one arena) may share or neighbour an interval.
  if (Layout.BarrierBetweenClusters) {
    std::vector<unsigned> Interval(NC, 0);
    for (unsigned CI = 1; CI < NC; ++CI)
      Interval[CI] = Interval[CI - 1] + !Layout.Clusters[CI].Joined;
    unsigned NI = Interval[NC - 1] + 1;
    std::vector<unsigned> Reads, Writes;
    std::vector<sync::LDSRegion> Region(N);
    for (unsigned I = 0; I < N; ++I) {
      InstKind K = M.Insts[I].Kind;
      if (K != InstKind::LDSRead && K != InstKind::LDSWrite)
        continue;
      (K == InstKind::LDSRead ? Reads : Writes).push_back(I);
      Region[I] = ldsRegionOf(*M.Insts[I].MI);
    }
    for (unsigned Rd : Reads)
      for (unsigned Wr : Writes) {
        unsigned R = Interval[C[Rd]], W = Interval[C[Wr]];
        unsigned Dist = std::min((R + NI - W) % NI, (W + NI - R) % NI);
        if (Dist > (Layout.AsymmetricSync ? 1u : 0u) ||
            sync::overlap(Region[Rd], Region[Wr]).O == sync::Overlap::Disjoint)
          continue;
        Why.Reason = "the layout puts LDS reads (" +
                     Layout.Clusters[C[Rd]].Name + ") and LDS writes (" +
                     Layout.Clusters[C[Wr]].Name + ") " +
                     (Dist ? "in neighbouring barrier intervals, which the "
                             "asymmetric skew runs at the same time"
                           : "in one barrier interval") +
                     ": another wave could overwrite what is read";
        return std::nullopt;
      }
  }
  // Pacing under the skew: one wave group's dot runs while the other wave
  // of its SIMD is in a memory cluster, so no two barrier intervals with
  // MFMAs may neighbour (the wrap included): the skew would run one group's
  // second dot with the other's first (pingpong-sim verify's pacing rule,
  // sharedMfmaPhase, which -amdgpu-pingpong-verify applies too). A dot
  // cluster without MFMAs (the exchange layout's xchg) paces like a memory
  // cluster.
  if (Layout.AsymmetricSync && !UnpacedLayouts) {
    std::vector<unsigned> Interval(NC, 0);
    for (unsigned CI = 1; CI < NC; ++CI)
      Interval[CI] = Interval[CI - 1] + !Layout.Clusters[CI].Joined;
    const unsigned NI = Interval[NC - 1] + 1;
    std::vector<int> MfmaCluster(NI, -1);
    for (unsigned I = 0; I < N; ++I)
      if (M.Insts[I].Kind == InstKind::MFMA && MfmaCluster[Interval[C[I]]] < 0)
        MfmaCluster[Interval[C[I]]] = C[I];
    for (unsigned T = 0; NI > 1 && T < NI; ++T) {
      unsigned Next = (T + 1) % NI;
      if (MfmaCluster[T] < 0 || MfmaCluster[Next] < 0)
        continue;
      Why.Reason = "the layout runs MFMAs in neighbouring barrier intervals (" +
                   Layout.Clusters[MfmaCluster[T]].Name + ", " +
                   Layout.Clusters[MfmaCluster[Next]].Name +
                   "), which the asymmetric skew runs at the same time: both "
                   "waves of a SIMD would be in a dot; put a cluster without "
                   "MFMAs between them";
      return std::nullopt;
    }
  }
  std::vector<int> VmWait;
  int VmBeforeLoop = -1;
  if (Layout.BarrierBetweenClusters &&
      !dmaWaits(M, Layout, C, VmWait, VmBeforeLoop, Why))
    return std::nullopt;
  ClusterPlan Plan;
  Plan.VmWaitBefore = std::move(VmWait);
  Plan.VmWaitBeforeLoop = VmBeforeLoop;
  Plan.Layout = std::move(Layout);
  Plan.ClusterOf = C;
  Plan.Order.resize(N);
  for (unsigned I = 0; I < N; ++I)
    Plan.Order[I] = I;
  // Stable by cluster: inside a cluster the original order (a valid
  // topological order) is kept, so every edge stays satisfied.
  std::stable_sort(Plan.Order.begin(), Plan.Order.end(),
                   [&](unsigned A, unsigned B) { return C[A] < C[B]; });
  orderInterleaves(M, G, Plan);
  return Plan;
}

} // namespace pingpong
