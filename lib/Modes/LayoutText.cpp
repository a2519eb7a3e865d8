//===- LayoutText.cpp - cluster layouts: text form ------------------------===//
#include "pingpong/Modes/LayoutText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;
namespace pingpong {

static const char *Version = "pingpong-layout v1";

namespace {
// AMDGPU's sched_group_barrier mask bits (llvm.amdgcn.sched.group.barrier).
struct InterleaveKind {
  const char *Name;
  unsigned Mask;
} const InterleaveKinds[] = {
    {"alu", 0x1},        {"valu", 0x2},      {"salu", 0x4},
    {"mfma", 0x8},       {"vmem", 0x10},     {"vmem-read", 0x20},
    {"vmem-write", 0x40}, {"ds", 0x80},      {"ds-read", 0x100},
    {"ds-write", 0x200}, {"trans", 0x400}};
} // namespace

unsigned interleaveMask(StringRef Kind) {
  for (const InterleaveKind &K : InterleaveKinds)
    if (Kind == K.Name)
      return K.Mask;
  return 0;
}

const char *interleaveKindName(unsigned Mask) {
  for (const InterleaveKind &K : InterleaveKinds)
    if (Mask == K.Mask)
      return K.Name;
  return "?";
}

unsigned ClusterLayout::priority(unsigned C) const {
  while (C > 0 && Clusters[C].Joined) // mem+ runs at its head's priority
    --C;
  const Cluster &Cl = Clusters[C];
  if (Cl.Sync.Priority)
    return *Cl.Sync.Priority;
  bool Dot = Cl.Kind == ClusterKind::Dot;
  return (MemPriority ? !Dot : Dot) ? 1 : 0;
}

bool ClusterLayout::barrierAfter(unsigned C) const {
  return BarrierBetweenClusters && C + 1 < Clusters.size() &&
         !Clusters[C + 1].Joined;
}

std::string ClusterLayout::print() const {
  std::string S = Version;
  SmallVector<StringRef, 9> Flags;
  if (BarrierBetweenClusters)
    Flags.push_back("barrier");
  if (AsymmetricSync)
    Flags.push_back("asymmetric");
  if (DelayGlobalDataUse)
    Flags.push_back("delay-global-data");
  if (GateDotEntry)
    Flags.push_back("gate");
  if (WaitsInDot)
    Flags.push_back("dot-waits");
  if (MemPriority)
    Flags.push_back("mem-priority");
  if (OperandWaits)
    Flags.push_back("operand-waits");
  if (LatencyInsideClusters)
    Flags.push_back("latency");
  if (ResultsNextDot)
    Flags.push_back("results-next-dot");
  if (DelayCopyAddress)
    Flags.push_back("delay-copy-address");
  if (DelayWriteAddress)
    Flags.push_back("delay-write-address");
  if (AddressInDot)
    Flags.push_back("address-in-dot");
  if (AdvancesInDot)
    Flags.push_back("advances-in-dot");
  if (SideLoadsEarly)
    Flags.push_back("side-loads-early");
  if (!Flags.empty())
    S += "; sync " + join(Flags, " ");
  for (const Cluster &C : Clusters) {
    S += C.Kind == ClusterKind::Dot ? "; dot " : (C.Joined ? "; mem+ " : "; mem ");
    S += C.Name;
    if (C.Sync.Priority)
      S += " prio=" + std::to_string(*C.Sync.Priority);
    if (C.Sync.Drain)
      S += *C.Sync.Drain ? " drain=lds" : " drain=none";
    S += ":";
    for (unsigned I = 0; I < C.Takes.size(); ++I) {
      const Selector &Sel = C.Takes[I];
      S += I ? ", " : " ";
      S += roleName(Sel.R);
      if (Sel.Op)
        S += *Sel.Op == Operand::A ? ".a" : (*Sel.Op == Operand::B ? ".b" : ".-");
      if (Sel.Stage)
        S += "~" + std::to_string(*Sel.Stage);
      if (Sel.Step)
        S += "#" + std::to_string(*Sel.Step);
      if (Sel.Group)
        S += "@" + std::to_string(*Sel.Group);
      if (Sel.Slices) {
        S += "[" + std::to_string(Sel.First);
        if (Sel.Last != Sel.First)
          S += "-" + std::to_string(Sel.Last);
        S += "/" + std::to_string(Sel.Slices) + "]";
      }
    }
  }
  for (const Cluster &C : Clusters) {
    if (C.CoverReductions)
      S += "; interleave " + C.Name + ": cover-reductions";
    if (C.Interleave.empty())
      continue;
    S += "; interleave " + C.Name + ":";
    for (unsigned I = 0; I < C.Interleave.size(); ++I)
      S += std::string(I ? ", " : " ") +
           interleaveKindName(C.Interleave[I].Mask) + " " +
           std::to_string(C.Interleave[I].Size);
  }
  return S;
}

namespace {
// The roles a selector may name, in the order the error message lists them.
constexpr Role SelectableRoles[] = {Role::LocalRead,   Role::LocalWrite,
                                    Role::GlobalLoad,  Role::SideLoad,
                                    Role::Dot,         Role::OperandPrep,
                                    Role::InterDot,    Role::AsyncCopy,
                                    Role::DirectLoad,  Role::AccPrep,
                                    Role::ExchangeWrite, Role::ExchangeRead};

std::optional<Role> roleByName(StringRef N) {
  for (Role R : SelectableRoles)
    if (N == roleName(R))
      return R;
  return std::nullopt;
}

std::string selectableRoleNames() {
  std::string S;
  for (Role R : SelectableRoles)
    S += (S.empty() ? "" : ", ") + std::string(roleName(R));
  return S;
}

bool parseSelector(StringRef T, Selector &S, std::string &Error) {
  StringRef Slice;
  size_t Br = T.find('[');
  if (Br != StringRef::npos) {
    if (!T.ends_with("]")) {
      Error = ("selector '" + T + "': expected [i/S] or [i-j/S] at the end").str();
      return false;
    }
    Slice = T.slice(Br + 1, T.size() - 1);
    T = T.take_front(Br);
  }
  size_t At = T.find('@');
  if (At != StringRef::npos) {
    unsigned G;
    if (T.drop_front(At + 1).trim().getAsInteger(10, G)) {
      Error = ("selector '" + T + "': expected @G (a dot group number) after the role")
                  .str();
      return false;
    }
    S.Group = G;
    T = T.take_front(At);
  }
  size_t Hash = T.find('#');
  if (Hash != StringRef::npos) {
    unsigned Step;
    if (T.drop_front(Hash + 1).trim().getAsInteger(10, Step) || !Step) {
      Error = ("selector '" + T + "': expected #N (an exchange step, from 1) "
               "after the role")
                  .str();
      return false;
    }
    S.Step = Step;
    T = T.take_front(Hash);
  }
  size_t Tilde = T.find('~');
  if (Tilde != StringRef::npos) {
    unsigned Stage;
    if (T.drop_front(Tilde + 1).trim().getAsInteger(10, Stage)) {
      Error = ("selector '" + T + "': expected ~N (a pipeline stage distance) "
               "after the role")
                  .str();
      return false;
    }
    S.Stage = Stage;
    T = T.take_front(Tilde);
  }
  auto [RoleText, OpText] = T.split('.');
  std::optional<Role> R = roleByName(RoleText.trim());
  if (!R) {
    Error = ("unknown role '" + RoleText.trim() +
             "' (expected " + selectableRoleNames() + ")")
                .str();
    return false;
  }
  S.R = *R;
  OpText = OpText.trim();
  if (OpText == "a")
    S.Op = Operand::A;
  else if (OpText == "b")
    S.Op = Operand::B;
  else if (OpText == "-")
    S.Op = Operand::None; // the analysis could not tell the operand
  else if (!OpText.empty()) {
    Error = ("unknown operand '." + OpText + "' (expected .a, .b or .-)").str();
    return false;
  }
  if (Slice.empty())
    return true;
  auto [Range, Of] = Slice.split('/');
  auto [Lo, Hi] = Range.split('-');
  if (Of.trim().getAsInteger(10, S.Slices) || Lo.trim().getAsInteger(10, S.First) ||
      (Hi.empty() ? (S.Last = S.First, false) : Hi.trim().getAsInteger(10, S.Last)) ||
      S.Slices == 0 || S.Last < S.First || S.Last >= S.Slices) {
    Error = ("slice '[" + Slice + "]': expected i/S or i-j/S with i <= j < S").str();
    return false;
  }
  return true;
}
} // namespace

std::optional<ClusterLayout> parseLayout(StringRef Text, unsigned NumDots,
                                         std::string &Error) {
  SmallVector<StringRef, 16> Clauses;
  Text.split(Clauses, ';', -1, /*KeepEmpty=*/false);
  if (Clauses.empty() || Clauses[0].trim() != Version) {
    Error = ("layout must start with '" + Twine(Version) + "'").str();
    return std::nullopt;
  }
  ClusterLayout L;
  L.M = Mode::Auto;
  L.NumDots = NumDots;
  for (StringRef C : ArrayRef<StringRef>(Clauses).drop_front()) {
    C = C.trim();
    if (C.empty())
      continue;
    auto [Head, Rest] = C.split(' ');
    if (Head == "sync") {
      SmallVector<StringRef, 4> Flags;
      Rest.split(Flags, ' ', -1, false);
      for (StringRef F : Flags) {
        if (F == "barrier")
          L.BarrierBetweenClusters = true;
        else if (F == "asymmetric")
          L.AsymmetricSync = true;
        else if (F == "delay-global-data")
          L.DelayGlobalDataUse = true;
        else if (F == "gate")
          L.GateDotEntry = true;
        else if (F == "dot-waits")
          L.WaitsInDot = true;
        else if (F == "mem-priority")
          L.MemPriority = true;
        else if (F == "operand-waits")
          L.OperandWaits = true;
        else if (F == "latency")
          L.LatencyInsideClusters = true;
        else if (F == "results-next-dot")
          L.ResultsNextDot = true;
        else if (F == "delay-copy-address")
          L.DelayCopyAddress = true;
        else if (F == "delay-write-address")
          L.DelayWriteAddress = true;
        else if (F == "address-in-dot")
          L.AddressInDot = true;
        else if (F == "advances-in-dot")
          L.AdvancesInDot = true;
        else if (F == "side-loads-early")
          L.SideLoadsEarly = true;
        else {
          Error = ("unknown sync flag '" + F +
                   "' (expected barrier, asymmetric, delay-global-data, gate, "
                   "dot-waits, mem-priority, operand-waits, latency, "
                   "results-next-dot, delay-copy-address, delay-write-address, "
                   "address-in-dot, advances-in-dot, side-loads-early)")
                      .str();
          return std::nullopt;
        }
      }
      continue;
    }
    if (Head == "interleave") {
      auto [NameText, Groups] = Rest.split(':');
      StringRef Name = NameText.trim();
      auto It = llvm::find_if(L.Clusters,
                              [&](const Cluster &X) { return X.Name == Name; });
      if (It == L.Clusters.end()) {
        Error = ("clause '" + C + "': no cluster '" + Name +
                 "' before it (interleave names a cluster declared earlier)")
                    .str();
        return std::nullopt;
      }
      if (!It->Interleave.empty() || It->CoverReductions) {
        Error = ("clause '" + C + "': cluster '" + Name +
                 "' already has an interleave")
                    .str();
        return std::nullopt;
      }
      if (Groups.trim() == "cover-reductions") {
        It->CoverReductions = true;
        continue;
      }
      SmallVector<StringRef, 8> Parts;
      Groups.split(Parts, ',', -1, false);
      for (StringRef P : Parts) {
        auto [KindText, SizeText] = P.trim().split(' ');
        InterleaveGroup G;
        G.Mask = interleaveMask(KindText.trim());
        if (!G.Mask || SizeText.trim().getAsInteger(10, G.Size) || !G.Size) {
          Error = ("interleave group '" + P.trim() +
                   "': expected KIND N with N >= 1 and KIND one of alu, valu, "
                   "salu, mfma, vmem, vmem-read, vmem-write, ds, ds-read, "
                   "ds-write, trans; or the whole clause cover-reductions")
                      .str();
          return std::nullopt;
        }
        It->Interleave.push_back(G);
      }
      if (It->Interleave.empty()) {
        Error = ("clause '" + C + "': an interleave needs at least one group").str();
        return std::nullopt;
      }
      continue;
    }
    Cluster Cl;
    if (Head == "dot")
      Cl.Kind = ClusterKind::Dot;
    else if (Head == "mem" || Head == "mem+") {
      Cl.Kind = ClusterKind::Mem;
      Cl.Joined = Head == "mem+";
    } else {
      Error = ("clause '" + C + "': expected sync, mem, mem+, dot or interleave").str();
      return std::nullopt;
    }
    auto [NameAndSync, Sels] = Rest.split(':');
    SmallVector<StringRef, 4> Words;
    NameAndSync.split(Words, ' ', -1, /*KeepEmpty=*/false);
    if (Words.empty()) {
      Error = ("clause '" + C + "': the cluster needs a name").str();
      return std::nullopt;
    }
    Cl.Name = Words[0].str();
    // Interleave clauses and remarks name clusters: a second cluster of one
    // name would make both ambiguous.
    if (llvm::any_of(L.Clusters,
                     [&](const Cluster &X) { return X.Name == Cl.Name; })) {
      Error = ("clause '" + C + "': a cluster named '" + Cl.Name +
               "' already exists (cluster names must be unique)")
                  .str();
      return std::nullopt;
    }
    for (StringRef W : ArrayRef<StringRef>(Words).drop_front()) {
      auto [Key, Value] = W.split('=');
      unsigned Prio;
      if (Key == "prio" && !Value.getAsInteger(10, Prio) && Prio <= 3) {
        Cl.Sync.Priority = Prio;
      } else if (Key == "drain" && (Value == "lds" || Value == "none")) {
        Cl.Sync.Drain = Value == "lds";
      } else {
        Error = ("cluster '" + Cl.Name + "': unknown sync attribute '" + W +
                 "' (expected prio=0..3, drain=lds or drain=none)")
                    .str();
        return std::nullopt;
      }
    }
    if (Cl.Joined && (L.Clusters.empty() || L.Clusters.back().Kind != ClusterKind::Mem)) {
      Error = ("clause '" + C + "': mem+ must follow a memory cluster").str();
      return std::nullopt;
    }
    SmallVector<StringRef, 4> Parts;
    Sels.split(Parts, ',', -1, false);
    for (StringRef P : Parts) {
      if (P.trim().empty())
        continue;
      Selector S;
      if (!parseSelector(P.trim(), S, Error))
        return std::nullopt;
      Cl.Takes.push_back(S);
    }
    L.Clusters.push_back(std::move(Cl));
  }
  bool HasDot = false;
  for (const Cluster &Cl : L.Clusters)
    HasDot |= Cl.Kind == ClusterKind::Dot;
  if (!HasDot) {
    Error = "a layout needs at least one dot cluster";
    return std::nullopt;
  }
  if (L.MemPriority && L.GateDotEntry) {
    Error = "sync mem-priority and gate exclude each other (one sets the "
            "priorities of memory clusters, the other those of dot clusters)";
    return std::nullopt;
  }
  for (unsigned C = 0; C < L.Clusters.size(); ++C) {
    const Cluster &Cl = L.Clusters[C];
    if (Cl.Sync.Drain == std::optional<bool>(false) && L.barrierAfter(C)) {
      Error = "cluster '" + Cl.Name + "': drain=none before a barrier (the "
              "other wave group would race on its LDS accesses)";
      return std::nullopt;
    }
    if (Cl.Sync.Priority && Cl.Joined) {
      Error = "cluster '" + Cl.Name + "': prio= on a mem+ cluster (it runs at "
              "the priority of the cluster it continues)";
      return std::nullopt;
    }
    if (Cl.Sync.Priority && Cl.Kind == ClusterKind::Dot && L.GateDotEntry &&
        *Cl.Sync.Priority > 2) {
      Error = "cluster '" + Cl.Name + "': prio=3 on a gated dot (the gate "
              "raises the dot one level above its entry: at most prio=2)";
      return std::nullopt;
    }
  }
  if (L.AsymmetricSync && !L.BarrierBetweenClusters) {
    Error = "sync asymmetric needs sync barrier (the skew is kept by barriers)";
    return std::nullopt;
  }
  return L;
}

} // namespace pingpong
