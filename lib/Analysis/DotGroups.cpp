//===- DotGroups.cpp - MFMA chains, dot groups and chained dots -----------===//
//
// Concern (b) of the loop model. Every MFMA is a Dot; its K step is its
// position in its accumulator's chain (src2 defined by the previous MFMA of
// the chain; an immediate src2 starts a chain). A dot group is one level of
// dots: an MFMA whose A/B/scale operand or initial accumulator derives, through
// VALU in the same iteration, from another MFMA's result belongs to the level
// after that MFMA's (attention: Q K^T, then P V with P = softmax(Q K^T)). All
// chains of a group have the same length (slicing along K groups K steps).
// The VALU between two levels is the InterDot work of the producing group.
// Where two levels use different MFMA layouts, the results cross LDS on the
// way (Triton's convert_layout of P, or of the row statistics): written,
// then read back in the same iteration by other lanes and waves. Such a
// read of the bytes a write of dot results stored earlier in the iteration
// is an exchange, and the levels see through it.
//
//===----------------------------------------------------------------------===//
#include "ModelBuilder.h"
#include "pingpong/Analysis/LDSObjects.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"

#include <optional>

using namespace llvm;
namespace pingpong {

namespace {

/// The accumulator input (src2) of an MFMA, if it is a register.
Register accInput(const MachineInstr &MI) {
  const MachineOperand &MO = MI.getOperand(3);
  return MO.isReg() ? MO.getReg() : Register();
}

/// The data registers an LDS write stores (operand 0 is the address).
SmallVector<Register, 4> writeData(const ModelBuilder &B, unsigned Pos) {
  SmallVector<Register, 4> Uses = B.regUses(*B.M.Insts[Pos].MI);
  if (!Uses.empty())
    Uses.erase(Uses.begin());
  return Uses;
}

/// The MFMAs whose results reach Reg (used at Pos) through instructions of
/// the same iteration that are not memory operations, or through an LDS
/// exchange: the producers of a chained dot's operand.
void producerDots(const ModelBuilder &B, Register Reg, unsigned Pos,
                  DenseSet<unsigned> &Seen, SmallVectorImpl<unsigned> &Out) {
  SmallVector<std::pair<Register, unsigned>, 16> Work{{Reg, Pos}};
  while (!Work.empty()) {
    auto [R, P] = Work.pop_back_val();
    if (!R.isVirtual())
      continue;
    bool Carried;
    for (unsigned D : B.reachingDefs(R, P, Carried)) {
      if (Carried || !Seen.insert(D).second)
        continue;
      const InstInfo &DI = B.M.Insts[D];
      if (DI.Kind == InstKind::MFMA) {
        Out.push_back(D);
        continue;
      }
      if (DI.Kind == InstKind::LDSRead) {
        auto X = B.ExchangeWritesOf.find(D);
        if (X != B.ExchangeWritesOf.end())
          for (unsigned W : X->second)
            if (Seen.insert(W).second)
              for (Register U : writeData(B, W))
                Work.push_back({U, W});
        continue;
      }
      if (DI.Kind != InstKind::Other && DI.Kind != InstKind::LDSOther &&
          DI.Kind != InstKind::ValuFMA)
        continue; // memory: the operand comes from elsewhere
      for (Register U : B.regUses(*DI.MI))
        Work.push_back({U, D});
    }
  }
}

/// The MFMAs whose results of the previous iteration reach Reg (used at Pos)
/// through one header PHI and non-memory instructions: a dot fed by another
/// dot's results one iteration late (Triton's four-stage attention computes
/// P V of iteration i-1 next to Q K^T of iteration i).
void carriedProducerDots(const ModelBuilder &B, Register Reg, unsigned Pos,
                         SmallVectorImpl<unsigned> &Out) {
  struct Item {
    Register R;
    unsigned P;
    bool Crossed;
  };
  SmallVector<Item, 16> Work{{Reg, Pos, false}};
  DenseSet<unsigned> Seen; // position * 2 + crossed
  while (!Work.empty()) {
    Item It = Work.pop_back_val();
    if (!It.R.isVirtual())
      continue;
    bool Carried;
    for (unsigned D : B.reachingDefs(It.R, It.P, Carried)) {
      if (Carried && It.Crossed)
        continue; // two iterations back: not this shape
      bool Crossed = It.Crossed || Carried;
      if (!Seen.insert(D * 2 + Crossed).second)
        continue;
      const InstInfo &DI = B.M.Insts[D];
      if (DI.Kind == InstKind::MFMA) {
        if (Crossed)
          Out.push_back(D);
        continue;
      }
      if (DI.Kind != InstKind::Other && DI.Kind != InstKind::LDSOther &&
          DI.Kind != InstKind::ValuFMA)
        continue;
      for (Register U : B.regUses(*DI.MI))
        Work.push_back({U, D, Crossed});
    }
  }
}

/// Whether a read may take bytes a write stored: the same buffer, or lane
/// bounds of one arena that meet (Triton's shared memory is one arena; its
/// allocator places P's buffer and the row statistics' scratch by offset).
/// Bounds that cannot be computed are no evidence of an exchange.
bool mayReadWhatWasWritten(const sync::LDSRegion &W, const sync::LDSRegion &R) {
  sync::Overlap O = sync::overlap(W, R).O;
  if (O == sync::Overlap::Disjoint)
    return false;
  return O != sync::Overlap::Unknown || (W.Extent && R.Extent);
}

/// LDS exchanges: each LDS read of the bytes an earlier write of this
/// iteration stored, where that write's data derives from MFMA results of
/// this iteration (directly or through another exchange); a write of global
/// data (a tile for a later iteration) is never an exchange.
void findLDSExchanges(ModelBuilder &B) {
  const LoopModel &M = B.M;
  SmallVector<std::pair<unsigned, sync::LDSRegion>, 32> Writes;
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    const InstInfo &II = M.Insts[I];
    if (II.Kind == InstKind::LDSWrite) {
      DenseSet<unsigned> Seen;
      SmallVector<unsigned, 4> Dots;
      for (Register U : writeData(B, I))
        producerDots(B, U, I, Seen, Dots);
      if (!Dots.empty())
        Writes.push_back({I, ldsRegionOf(*II.MI)});
      continue;
    }
    if (II.Kind != InstKind::LDSRead || Writes.empty())
      continue;
    sync::LDSRegion R = ldsRegionOf(*II.MI);
    SmallVector<unsigned, 4> From;
    for (const auto &[W, WR] : Writes)
      if (mayReadWhatWasWritten(WR, R))
        From.push_back(W);
    if (!From.empty())
      B.ExchangeWritesOf[I] = std::move(From);
  }
}

/// Roles of the exchanges once the levels are known: both halves take the
/// level of the dots whose results they carry.
void markExchanges(ModelBuilder &B, const DenseMap<unsigned, unsigned> &LevelOf) {
  LoopModel &M = B.M;
  DenseMap<unsigned, unsigned> GroupOfWrite; // a write feeds several reads
  for (const auto &[Rd, Ws] : B.ExchangeWritesOf) {
    unsigned ReadGroup = 0;
    for (unsigned W : Ws) {
      auto [It, New] = GroupOfWrite.try_emplace(W, 0);
      if (New) {
        DenseSet<unsigned> Seen;
        SmallVector<unsigned, 4> Dots;
        for (Register U : writeData(B, W))
          producerDots(B, U, W, Seen, Dots);
        for (unsigned D : Dots)
          It->second = std::max(It->second, LevelOf.lookup(D));
        M.Insts[W].R = Role::ExchangeWrite;
        M.Insts[W].Group = It->second;
      }
      ReadGroup = std::max(ReadGroup, It->second);
    }
    M.Insts[Rd].R = Role::ExchangeRead;
    M.Insts[Rd].Group = ReadGroup;
  }
  // Steps, in program order: a read and a write of bytes that may meet are
  // one step apart. Triton's allocator may put the row statistics'
  // scratch inside P's buffer: write alpha, read alpha, write P over it,
  // read P are four steps.
  struct Access {
    sync::LDSRegion R;
    bool Write;
    unsigned Step;
  };
  SmallVector<Access, 64> Xs;
  SmallVector<InstInfo *, 64> Of;
  for (InstInfo &II : M.Insts) {
    if (II.R != Role::ExchangeWrite && II.R != Role::ExchangeRead)
      continue;
    Access A{ldsRegionOf(*II.MI), II.R == Role::ExchangeWrite, 1};
    for (const Access &E : Xs)
      if (E.Write != A.Write &&
          sync::overlap(E.R, A.R).O != sync::Overlap::Disjoint)
        A.Step = std::max(A.Step, E.Step + 1);
    Xs.push_back(std::move(A));
    Of.push_back(&II);
  }
  // One conversion is one step: a run of accesses of one direction in
  // program order (P's stores, of which only some meet alpha's bytes) takes
  // the step of its latest member, so a layout selects whole conversions.
  for (unsigned I = 0; I < Xs.size();) {
    unsigned E = I, Step = 0;
    for (; E < Xs.size() && Xs[E].Write == Xs[I].Write; ++E)
      Step = std::max(Step, Xs[E].Step);
    for (; I < E; ++I)
      Of[I]->ExchangeStep = Step;
  }
}

} // namespace

bool buildDotGroups(ModelBuilder &B) {
  LoopModel &M = B.M;
  findLDSExchanges(B);
  // Chains: K step per MFMA, in program order (SSA: a chain's predecessor
  // comes first).
  DenseMap<Register, unsigned> StepOfReg;
  std::vector<unsigned> Dots;
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    InstInfo &II = M.Insts[I];
    if (II.Kind != InstKind::MFMA)
      continue;
    const MachineInstr &MI = *II.MI;
    if (MI.getNumOperands() < 4 || !MI.getOperand(0).isReg() ||
        !MI.getOperand(1).isReg() || !MI.getOperand(2).isReg())
      return B.reject("unexpected MFMA operands", II.MI);
    unsigned Step = 0;
    if (Register Acc = accInput(MI)) {
      auto It = StepOfReg.find(Acc);
      if (It != StepOfReg.end())
        Step = It->second + 1;
    }
    StepOfReg[MI.getOperand(0).getReg()] = Step;
    II.R = Role::Dot;
    II.KStep = Step;
    Dots.push_back(I);
  }

  // Levels: one past the highest MFMA feeding an operand or the initial
  // accumulator; a chain keeps its predecessor's level. A dot that no MFMA
  // of this iteration feeds, but whose A/B operands derive from MFMA results
  // of the previous iteration (through a header PHI), is one level past
  // those too, fed one iteration late (Triton's four-stage attention: P V of
  // iteration i-1 next to Q K^T of iteration i). Levels settle in a few
  // passes (a late producer may come after its consumer in the body).
  DenseMap<unsigned, unsigned> LevelOf; // region position -> level
  DenseMap<unsigned, int> FedByOf;      // region position -> producer level
  DenseSet<unsigned> FedLate;           // fed one iteration late
  DenseMap<unsigned, SmallVector<unsigned, 4>> LateProducers;
  for (unsigned I : Dots) {
    const MachineInstr &MI = *M.Insts[I].MI;
    SmallVector<unsigned, 4> Producers;
    for (unsigned Op : {1u, 2u})
      carriedProducerDots(B, MI.getOperand(Op).getReg(), I, Producers);
    if (!Producers.empty())
      LateProducers[I] = std::move(Producers);
  }
  unsigned NumLevels = 1;
  for (unsigned Pass = 0;; ++Pass) {
    bool Changed = false;
    NumLevels = 1;
    for (unsigned I : Dots) {
      const MachineInstr &MI = *M.Insts[I].MI;
      SmallVector<Register, 6> Inputs;
      for (unsigned Op = 1; Op < MI.getNumOperands(); ++Op) {
        const MachineOperand &MO = MI.getOperand(Op);
        if (!MO.isReg() || !MO.isUse() || MO.isImplicit() || !MO.getReg())
          continue;
        Inputs.push_back(MO.getReg());
      }
      unsigned Level = 0;
      int FedBy = -1;
      DenseSet<unsigned> Seen;
      for (Register In : Inputs) {
        bool Carried;
        SmallVector<unsigned, 2> Defs = B.reachingDefs(In, I, Carried);
        // The chain's own predecessor: same dot, same level.
        if (In == accInput(MI) && !Carried && Defs.size() == 1 &&
            M.Insts[Defs[0]].Kind == InstKind::MFMA) {
          Level = std::max(Level, LevelOf.lookup(Defs[0]));
          continue;
        }
        SmallVector<unsigned, 4> Producers;
        producerDots(B, In, I, Seen, Producers);
        for (unsigned P : Producers) {
          unsigned PL = LevelOf.lookup(P);
          Level = std::max(Level, PL + 1);
          FedBy = std::max(FedBy, int(PL));
        }
      }
      // Fed by no dot of this iteration: the previous iteration's results.
      bool Late = false;
      if (FedBy < 0)
        if (auto LP = LateProducers.find(I); LP != LateProducers.end())
          for (unsigned P : LP->second) {
            unsigned PL = LevelOf.lookup(P);
            if (PL + 1 <= Level)
              continue; // its own chain, one iteration back
            Level = PL + 1;
            FedBy = int(PL);
            Late = true;
          }
      Changed |= LevelOf.lookup(I) != Level || FedByOf.lookup(I) != FedBy;
      LevelOf[I] = Level;
      FedByOf[I] = FedBy;
      if (Late)
        FedLate.insert(I);
      else
        FedLate.erase(I);
      NumLevels = std::max(NumLevels, Level + 1);
    }
    if (!Changed)
      break;
    if (Pass == 4)
      return B.reject("dot levels do not settle (dots fed by dots of the "
                      "previous iteration, in a cycle)");
  }
  // Groups: shape, accumulators and K steps per level.
  M.Groups.assign(NumLevels, DotGroup());
  std::vector<std::optional<unsigned>> FirstOpc(NumLevels);
  for (unsigned I : Dots) {
    InstInfo &II = M.Insts[I];
    unsigned G = LevelOf[I];
    DotGroup &DG = M.Groups[G];
    II.Group = G;
    unsigned Opc = II.MI->getOpcode();
    if (FirstOpc[G] && *FirstOpc[G] != Opc) {
      auto S1 = B.T.mfmaShape(*FirstOpc[G]), S2 = B.T.mfmaShape(Opc);
      if (!S1 || !S2 || S1->M != S2->M || S1->N != S2->N || S1->K != S2->K)
        return B.reject("mixed MFMA shapes in one loop (" +
                            B.T.name(*FirstOpc[G]) + ", " + B.T.name(Opc) + ")",
                        II.MI);
    }
    if (!FirstOpc[G]) {
      FirstOpc[G] = Opc;
      auto S = B.T.mfmaShape(Opc);
      if (!S)
        return B.reject("cannot read the shape of " + B.T.name(Opc), II.MI);
      DG.Shape = *S;
    }
    ++DG.NumDots;
    ++M.NumDots;
    DG.ChainLen = std::max(DG.ChainLen, II.KStep + 1);
    DG.FedBy = std::max(DG.FedBy, FedByOf[I]);
    DG.FedLate |= FedLate.contains(I);
  }
  // One group, one kind of feed: a group fed by one dot in this iteration
  // and another one iteration late has no place in the chained layouts.
  for (unsigned I : Dots)
    if (FedByOf[I] >= 0 && !FedLate.contains(I) &&
        M.Groups[LevelOf[I]].FedLate)
      return B.reject("dot group " + Twine(LevelOf[I]) + " is fed by dots "
                      "of this iteration and of the previous one",
                      M.Insts[I].MI);
  // Accumulator index: the chain's K step 0 MFMA in program order; each
  // later step inherits it through the accumulator register.
  DenseMap<Register, unsigned> AccOfReg;
  std::vector<SmallVector<unsigned, 8>> PerStep(NumLevels);
  for (unsigned G = 0; G < NumLevels; ++G)
    PerStep[G].assign(M.Groups[G].ChainLen, 0);
  for (unsigned I : Dots) {
    InstInfo &II = M.Insts[I];
    unsigned Acc = PerStep[II.Group][II.KStep]++;
    if (II.KStep) {
      auto It = AccOfReg.find(accInput(*II.MI));
      if (It != AccOfReg.end())
        Acc = It->second;
    }
    AccOfReg[II.MI->getOperand(0).getReg()] = Acc;
    II.DotOrder = Acc; // K step and group offset added below
  }
  unsigned Offset = 0;
  for (unsigned G = 0; G < NumLevels; ++G) {
    DotGroup &DG = M.Groups[G];
    DG.NumAccumulators = PerStep[G][0];
    DG.FirstDotOrder = Offset;
    Offset += DG.NumDots;
  }
  for (unsigned I : Dots) {
    InstInfo &II = M.Insts[I];
    const DotGroup &DG = M.Groups[II.Group];
    II.DotOrder += DG.FirstDotOrder + II.KStep * DG.NumAccumulators;
  }
  markExchanges(B, LevelOf);
  M.Shape = M.Groups[0].Shape;
  M.ChainLen = M.Groups[0].ChainLen;
  M.NumAccumulators = M.Groups[0].NumAccumulators;
  for (unsigned G = 0; G < NumLevels; ++G)
    for (unsigned S = 0; S < M.Groups[G].ChainLen; ++S)
      if (PerStep[G][S] != M.Groups[G].NumAccumulators)
        return B.reject("irregular MFMA chains: " + Twine(PerStep[G][S]) +
                        " MFMAs at K step " + Twine(S) + " but " +
                        Twine(M.Groups[G].NumAccumulators) + " accumulators" +
                        (NumLevels > 1 ? " (dot group " + Twine(G) + ")"
                                       : Twine()));
  return true;
}

void markInterDotWork(ModelBuilder &B) {
  LoopModel &M = B.M;
  if (!M.chainedDots())
    return;
  // Forward from each producing group's results, in the same iteration,
  // up to the MFMAs of the next group: softmax, the rescale of the next
  // group's accumulators, the row statistics carried to the next iteration.
  DenseSet<unsigned> Producers;
  for (const DotGroup &G : M.Groups)
    if (G.FedBy >= 0)
      Producers.insert(unsigned(G.FedBy));
  for (unsigned P : Producers) {
    SmallVector<unsigned, 64> Work;
    for (unsigned I = 0; I < M.Insts.size(); ++I)
      if (M.Insts[I].R == Role::Dot && M.Insts[I].Group == P)
        Work.push_back(I);
    DenseSet<unsigned> Seen(Work.begin(), Work.end());
    unsigned Count = 0;
    while (!Work.empty()) {
      unsigned I = Work.pop_back_val();
      for (const MachineOperand &MO : M.Insts[I].MI->defs()) {
        if (!MO.isReg() || !MO.getReg().isVirtual())
          continue;
        for (const MachineInstr &U : B.MRI.use_nodbg_instructions(MO.getReg())) {
          auto Pos = B.PosOf.find(&U);
          if (Pos == B.PosOf.end() || !Seen.insert(Pos->second).second)
            continue; // a PHI (next iteration) or outside the loop
          InstInfo &UI = M.Insts[Pos->second];
          if (UI.Kind != InstKind::Other && UI.Kind != InstKind::LDSOther &&
              UI.Kind != InstKind::ValuFMA)
            continue; // an MFMA of the next group, or memory
          if (UI.R != Role::Other && UI.R != Role::OperandPrep)
            continue;
          UI.R = Role::InterDot;
          UI.Group = P;
          ++Count;
          Work.push_back(Pos->second);
        }
      }
    }
    for (DotGroup &G : M.Groups)
      if (G.FedBy == int(P))
        G.InterDot = Count;
  }
}

void markAccumulatorPrep(ModelBuilder &B) {
  LoopModel &M = B.M;
  if (!M.chainedDots())
    return;
  // Backward from each chain's first MFMA through its accumulator input:
  // VALU of this iteration that no dot feeds (inter-dot work was marked
  // first), e.g. O * alpha where alpha crossed the back edge.
  SmallVector<std::pair<unsigned, unsigned>, 32> Work; // (inst, group)
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    const InstInfo &II = M.Insts[I];
    if (II.R != Role::Dot || II.KStep != 0)
      continue;
    if (Register Acc = accInput(*II.MI))
      if (const MachineInstr *Def = B.MRI.getUniqueVRegDef(Acc)) {
        auto Pos = B.PosOf.find(Def);
        if (Pos != B.PosOf.end())
          Work.push_back({Pos->second, II.Group});
      }
  }
  while (!Work.empty()) {
    auto [I, G] = Work.pop_back_val();
    InstInfo &II = M.Insts[I];
    if (II.R != Role::Other ||
        (II.Kind != InstKind::Other && II.Kind != InstKind::ValuFMA))
      continue;
    II.R = Role::AccPrep;
    II.Group = G;
    for (const MachineOperand &MO : II.MI->uses())
      if (MO.isReg() && MO.getReg().isVirtual())
        if (const MachineInstr *Def = B.MRI.getUniqueVRegDef(MO.getReg())) {
          auto Pos = B.PosOf.find(Def);
          if (Pos != B.PosOf.end())
            Work.push_back({Pos->second, G});
        }
  }
}

} // namespace pingpong
