//===- DepGraph.cpp - dependences inside the loop body --------------------===//
#include "pingpong/Analysis/DepGraph.h"
#include "pingpong/Analysis/LDSObjects.h"
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Sync/SyncRules.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/ScheduleDAGInstrs.h"
#include "llvm/Support/ErrorHandling.h"

#include <optional>

using namespace llvm;
namespace pingpong {

namespace {
/// A DAG builder only: it never schedules.
class RegionDAG : public ScheduleDAGInstrs {
public:
  RegionDAG(MachineFunction &MF, const MachineLoopInfo &MLI)
      : ScheduleDAGInstrs(MF, &MLI, /*RemoveKillFlags=*/false) {}
  void schedule() override {}
};

/// LLVM orders every memory access against s_barrier (it has side effects).
/// A load of global memory into registers needs no such order: a bare
/// s_barrier orders no global memory (that takes a fence, which keeps its
/// edges), and the barrier's own release wait (lgkmcnt) is about LDS. So a
/// global load may cross the loop's barrier, as Triton's OnePP moves it.
bool barrierAndGlobalLoad(const InstInfo &A, const InstInfo &B) {
  auto IsBarrier = [](const InstInfo &I) {
    return I.R == Role::Sync &&
           (I.Kind == InstKind::Barrier || I.Kind == InstKind::Waitcnt);
  };
  return (IsBarrier(A) && B.Kind == InstKind::VMEMLoad) ||
         (IsBarrier(B) && A.Kind == InstKind::VMEMLoad);
}
/// ds_read / ds_write: their memory operand names the LDS bytes. Not LDS
/// DMA, whose lanes write past the address its operand names (the checker
/// computes those from M0 instead).
bool isLDSAccess(const InstInfo &I) {
  return I.Kind == InstKind::LDSRead || I.Kind == InstKind::LDSWrite;
}

/// A loop with LDS DMA next to register-staged LDS writes (session 23,
/// mixstage): LLVM's alias analysis cannot tell a copy's bytes (alias scope
/// amdg.AsyncCopies) from a ds_write or ds_read without a scope, so it orders
/// every such write after the copies issued before it in the body, and
/// LLVM's wait insertion then holds the write for those copies (vmcnt(0))
/// with the iteration's register loads issued before them. The checker's
/// identity of LDS bytes (ldsRegionForCheck: the one LDS global under the
/// pointer through PHIs and selects, the copy's whole wave footprint from its
/// base, the slot of each staged buffer) proves most of those pairs apart;
/// the edge is dropped where it does, and only in such loops (in the others
/// the orders stay as measured). The final check and pingpong-sim verify
/// judge the result with the same identity.
bool mixedStageDisjoint(const LoopModel &M, unsigned A, unsigned B) {
  if (!M.mixedStaging())
    return false;
  const InstInfo &IA = M.Insts[A], &IB = M.Insts[B];
  const bool DMAA = IA.R == Role::AsyncCopy, DMAB = IB.R == Role::AsyncCopy;
  if (DMAA == DMAB || !(DMAA ? isLDSAccess(IB) : isLDSAccess(IA)))
    return false;
  auto Region = [](const InstInfo &I) {
    return ldsRegionForCheck(*I.MI, /*LaneUniform=*/I.R != Role::AsyncCopy);
  };
  return sync::overlap(Region(IA), Region(IB)).O == sync::Overlap::Disjoint;
}

/// A dot result's side input loaded an iteration ahead (LoadLookahead.cpp's
/// scale loads, OperandSources.cpp's side load with StagesAhead).
bool isAheadResultSideLoad(const InstInfo &I) {
  return I.Kind == InstKind::VMEMLoad && I.R == Role::SideLoad &&
         I.Op == Operand::None && I.StagesAhead;
}

/// The body's instructions whose registers hold what the global load at
/// position LoadPos carries into the next iteration: the readers of the
/// header PHI its value (through copies) reaches. Copies, and for a side
/// input also the REG_SEQUENCE / INSERT_SUBREG that widen it for packed
/// VALU, pass the value on (they are readers too). Returns the model
/// positions; empty if the load's value reaches no PHI.
SmallVector<unsigned, 8>
carriedReaders(const LoopModel &Model,
               const DenseMap<const MachineInstr *, unsigned> &Pos,
               unsigned LoadPos, bool ThroughWidening) {
  const MachineBasicBlock &Body = *Model.Body;
  const MachineRegisterInfo &MRI = Body.getParent()->getRegInfo();
  const MachineInstr *Load = Model.Insts[LoadPos].MI;
  SmallVector<unsigned, 8> Readers;
  for (const MachineInstr &Phi : Body.phis())
    for (unsigned Op = 1; Op + 1 < Phi.getNumOperands(); Op += 2) {
      if (Phi.getOperand(Op + 1).getMBB() != &Body)
        continue;
      const MachineInstr *Def = MRI.getVRegDef(Phi.getOperand(Op).getReg());
      while (Def && Def->isCopy() && Def->getParent() == &Body &&
             Def->getOperand(1).getReg().isVirtual())
        Def = MRI.getVRegDef(Def->getOperand(1).getReg());
      if (Def != Load)
        continue;
      SmallVector<Register, 4> Work{Phi.getOperand(0).getReg()};
      while (!Work.empty())
        for (const MachineInstr &U : MRI.use_instructions(Work.pop_back_val())) {
          if (U.getParent() != &Body || U.isPHI())
            continue;
          const bool PassesOn =
              U.isCopy() || (ThroughWidening && (U.isRegSequence() ||
                                                 U.isInsertSubreg()));
          if (PassesOn && U.getOperand(0).getReg().isVirtual())
            Work.push_back(U.getOperand(0).getReg());
          auto W = Pos.find(&U);
          if (W != Pos.end() && !U.isCopy())
            Readers.push_back(W->second);
        }
    }
  return Readers;
}

DenseMap<const MachineInstr *, unsigned> positions(const LoopModel &Model) {
  DenseMap<const MachineInstr *, unsigned> Pos;
  for (unsigned I = 0; I < Model.Insts.size(); ++I)
    Pos[Model.Insts[I].MI] = I;
  return Pos;
}

/// Register double-staging (Passes/LoadLookahead.cpp): a global load whose
/// value crosses the backedge into a header PHI that LDS writes read refills
/// the registers those writes free. After them, the allocator gives PHI and
/// load one register; before them, the PHI needs a copy at the latch that
/// waits for the load, which undoes the lookahead. Appends (write, load).
/// The same for a dot result's side input loaded ahead (the scale loads):
/// (each reader of the carried value, load), where LLVM's order has the
/// load after that reader (the edges must run forward in it; LoadLookahead
/// puts the load after its last reader in IR, and LLVM's order kept it
/// there on every kernel measured). A load before a reader gets no edge: its
/// PHI then takes a latch copy, slower but correct. The side loads' edges go
/// to Side (DepGraph::SideStaging: a layout may drop them).
void stagingEdges(const LoopModel &Model,
                  SmallVectorImpl<std::pair<unsigned, unsigned>> &Out,
                  SmallVectorImpl<std::pair<unsigned, unsigned>> &Side) {
  DenseMap<const MachineInstr *, unsigned> Pos = positions(Model);
  for (unsigned D = 0; D < Model.Insts.size(); ++D) {
    if (Model.Insts[D].Kind != InstKind::VMEMLoad)
      continue;
    const bool IsSide = isAheadResultSideLoad(Model.Insts[D]);
    for (unsigned W : carriedReaders(Model, Pos, D, IsSide)) {
      if (Model.Insts[W].Kind == InstKind::LDSWrite)
        Out.push_back({W, D});
      else if (IsSide && W < D)
        Side.push_back({W, D});
    }
  }
}
} // namespace

unsigned DepGraph::numEdges() const {
  unsigned N = 0;
  for (const auto &P : Preds)
    N += P.size();
  return N;
}

DepGraph buildDepGraph(const LoopModel &Model, const MachineLoopInfo &MLI,
                       AAResults *AA) {
  MachineBasicBlock &Body = *Model.Body;
  MachineFunction &MF = *Body.getParent();
  DepGraph G;
  G.Preds.resize(Model.Insts.size());
  G.Succs.resize(Model.Insts.size());

  // The model must be the body's instructions in the body's order: the graph
  // is LLVM's order over them. An instruction elsewhere is a plugin bug,
  // reported, never a wild pointer.
  unsigned Next = 0;
  for (const MachineInstr &MI :
       make_range(Body.getFirstNonPHI(), Body.getFirstTerminator()))
    Next += Next < Model.Insts.size() && Model.Insts[Next].MI == &MI;
  if (Next != Model.Insts.size())
    report_fatal_error("amdgpu-pingpong: instruction " + Twine(Next) +
                       " of the loop model is not in the loop body in model "
                       "order (a plugin bug)");

  // ScheduleDAGInstrs walks a block, and the model leaves instructions of
  // the body out (the loop's own sync a layout replaces, the author's
  // schedule). The body is not edited while modes are tried: LLVM builds the
  // graph over copies of exactly the model's instructions, in a block outside
  // the function's block list, deleted before anything else runs. The copies
  // share the originals' registers and memory operands, so they get the same
  // edges. What differs reaches no edge between two of them: no terminator
  // (its uses and the successors' live-ins only feed the exit node), no debug
  // instructions (never in the graph), and MachineRegisterInfo::hasOneDef is
  // false for the registers the copies define, which only lets LLVM look for
  // output and anti edges to other definitions of the register in the region;
  // in machine SSA there are none.
  struct Edge {
    unsigned From, To;
    bool Order;
  };
  std::vector<Edge> Edges;
  {
    // With the body's ID the copy takes no new one (basic block address maps).
    MachineBasicBlock *Copy =
        MF.CreateMachineBasicBlock(nullptr, Body.getBBID());
    DenseMap<const MachineInstr *, unsigned> Index;
    for (unsigned I = 0; I < Model.Insts.size(); ++I) {
      MachineInstr *C = MF.CloneMachineInstr(Model.Insts[I].MI);
      Copy->push_back(C);
      Index[C] = I;
    }
    {
      RegionDAG DAG(MF, MLI);
      DAG.startBlock(Copy);
      DAG.enterRegion(Copy, Copy->begin(), Copy->end(), Model.Insts.size());
      DAG.buildSchedGraph(AA);
      for (SUnit &SU : DAG.SUnits) {
        auto To = Index.find(SU.getInstr());
        if (To == Index.end())
          continue;
        for (const SDep &D : SU.Preds) {
          SUnit *P = D.getSUnit();
          if (!P || P->isBoundaryNode())
            continue;
          auto From = Index.find(P->getInstr());
          if (From == Index.end() || From->second == To->second)
            continue;
          Edges.push_back(
              {From->second, To->second, D.getKind() == SDep::Order});
        }
      }
      DAG.exitRegion();
      DAG.finishBlock();
    }
    // Deleting the copies takes their operands off the registers' use lists.
    while (!Copy->empty())
      Copy->erase(Copy->begin());
    MF.deleteMachineBasicBlock(Copy);
  }

  // LLVM's alias analysis cannot tell the buffers of one LDS arena apart
  // (Triton's shared memory, HIP kernels without alias scopes); the sync
  // library's identity can (Analysis/LDSObjects: objects, ranges, lane
  // bounds), and the checker orders waves by the same rule. Memory-order
  // edges between LDS accesses it proves disjoint are dropped.
  std::vector<std::optional<sync::LDSRegion>> Region(Model.Insts.size());
  auto RegionOf = [&](unsigned I) -> const sync::LDSRegion & {
    if (!Region[I])
      Region[I] = ldsRegionOf(*Model.Insts[I].MI);
    return *Region[I];
  };
  auto Disjoint = [&](unsigned A, unsigned B) {
    return isLDSAccess(Model.Insts[A]) && isLDSAccess(Model.Insts[B]) &&
           sync::overlap(RegionOf(A), RegionOf(B)).O ==
               sync::Overlap::Disjoint;
  };
  for (const Edge &E : Edges) {
    if (E.Order &&
        (barrierAndGlobalLoad(Model.Insts[E.From], Model.Insts[E.To]) ||
         Disjoint(E.From, E.To) ||
         mixedStageDisjoint(Model, E.From, E.To)))
      continue;
    G.Preds[E.To].push_back(E.From);
    G.Succs[E.From].push_back(E.To);
  }
  SmallVector<std::pair<unsigned, unsigned>, 8> Staging;
  stagingEdges(Model, Staging, G.SideStaging);
  for (auto [From, To] : Staging) {
    G.Preds[To].push_back(From);
    G.Succs[From].push_back(To);
  }
  for (auto [From, To] : G.SideStaging) {
    G.Preds[To].push_back(From);
    G.Succs[From].push_back(To);
  }
  return G;
}

DepGraph DepGraph::withoutSideStaging() const {
  DepGraph G = *this;
  for (auto [From, To] : SideStaging) {
    // The staging edge was appended after LLVM's edges: the last one of
    // the pair (any edge LLVM's graph has between the two stays).
    auto EraseLast = [](SmallVector<unsigned, 4> &V, unsigned X) {
      for (unsigned I = V.size(); I-- > 0;)
        if (V[I] == X) {
          V.erase(V.begin() + I);
          return;
        }
    };
    EraseLast(G.Preds[To], From);
    EraseLast(G.Succs[From], To);
  }
  G.SideStaging.clear();
  return G;
}

} // namespace pingpong
