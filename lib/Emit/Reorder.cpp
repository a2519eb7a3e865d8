//===- Reorder.cpp - cluster order, markers and in-loop sync --------------===//
#include "pingpong/Emit/Emitter.h"
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/Sync/SyncRules.h"
#include "pingpong/Sync/Waitcnt.h"
#include "pingpong/Schedule/ClusterPlan.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;
namespace pingpong {

void deleteDropped(const std::vector<MachineInstr *> &MIs) {
  for (MachineInstr *MI : MIs)
    MI->eraseFromParent();
}

namespace {
bool touchesLDS(InstKind K) {
  return K == InstKind::LDSRead || K == InstKind::LDSWrite ||
         K == InstKind::LDSOther;
}
} // namespace

namespace {
/// Keeps each debug instruction of the region next to the instruction it
/// followed, the way ScheduleDAGInstrs does: a DBG_VALUE describes the value
/// after its predecessor, so it moves with it. Debug instructions are never
/// in Model.Insts, so the schedule is the same with and without -g.
class DebugAnchors {
public:
  explicit DebugAnchors(MachineBasicBlock &MBB) : MBB(MBB) {
    MachineInstr *Prev = nullptr;
    for (MachineInstr &MI :
         make_range(MBB.getFirstNonPHI(), MBB.getFirstTerminator())) {
      if (MI.isDebugInstr())
        Anchored.push_back({&MI, Prev}); // Prev == null: region start
      else
        Prev = &MI;
    }
  }
  /// After the region was reordered: each debug instruction right after its
  /// anchor, in its original relative order; unanchored ones first.
  void restore() {
    MachineBasicBlock::iterator Start = MBB.getFirstNonPHI();
    MachineInstr *Last = nullptr, *LastAnchor = nullptr;
    for (auto [Dbg, Anchor] : Anchored) {
      MachineBasicBlock::iterator Pos;
      if (Anchor && Anchor == LastAnchor)
        Pos = std::next(Last->getIterator()); // after its earlier sibling
      else if (Anchor)
        Pos = std::next(Anchor->getIterator());
      else if (Last && !LastAnchor)
        Pos = std::next(Last->getIterator());
      else
        Pos = Start;
      if (Pos != Dbg->getIterator())
        MBB.splice(Pos, &MBB, Dbg);
      Last = Dbg;
      LastAnchor = Anchor;
      Start = MBB.getFirstNonPHI();
    }
  }

private:
  MachineBasicBlock &MBB;
  std::vector<std::pair<MachineInstr *, MachineInstr *>> Anchored;
};
} // namespace

static unsigned interleaveRepeats(const Cluster &Cl,
                           const std::vector<const InstInfo *> &Insts,
                           const TargetInstrInfo &TII) {
  // Enough repeats of the pattern for every instruction of its kinds: groups
  // left empty at the end cost nothing, instructions left out of every group
  // would be free to move anywhere in the cluster.
  unsigned Repeats = 0;
  for (const InterleaveGroup &G : Cl.Interleave) {
    unsigned PerPattern = 0, Have = 0;
    for (const InterleaveGroup &H : Cl.Interleave)
      if (H.Mask == G.Mask)
        PerPattern += H.Size;
    for (const InstInfo *II : Insts)
      Have += interleaveMatches(G.Mask, II->Kind,
                                TII.getName(II->MI->getOpcode()));
    Repeats = std::max(Repeats, (Have + PerPattern - 1) / PerPattern);
  }
  return Repeats;
}

static void emitInterleave(const Cluster &Cl,
                    const std::vector<const InstInfo *> &Insts,
                    const TargetInstrInfo &TII,
                    function_ref<void(const InterleaveGroup &)> Emit) {
  if (Cl.Interleave.empty())
    return;
  // SCHED_BARRIER 0 and s_setprio end scheduling regions, so these groups,
  // placed after the cluster's last instruction, see only this cluster.
  unsigned Repeats = interleaveRepeats(Cl, Insts, TII);
  for (unsigned R = 0; R < Repeats; ++R)
    for (const InterleaveGroup &G : Cl.Interleave)
      Emit(G);
}

/// The SCHED_BARRIER mask (the kinds that may cross it) that holds the
/// kinds of a cluster's interleave clause: every other specific kind, and an
/// umbrella bit (ALU, VMEM, DS) only where none of its kinds is held, since
/// IGroupLP lets a crossing umbrella take all of its kinds along.
static int64_t crossingKinds(const Cluster &Cl) {
  enum : unsigned { ALU = 0x1, VALU = 0x2, SALU = 0x4, MFMA = 0x8, VMEM = 0x10,
                    VMEMRead = 0x20, VMEMWrite = 0x40, DS = 0x80,
                    DSRead = 0x100, DSWrite = 0x200, Trans = 0x400 };
  const unsigned ALUKinds = VALU | SALU | MFMA | Trans,
                 VMEMKinds = VMEMRead | VMEMWrite, DSKinds = DSRead | DSWrite;
  unsigned Held = 0;
  // cover-reductions: the plan's order of the VALU, transcendental and LDS
  // ops (every one its own group); SALU may cross.
  if (Cl.CoverReductions)
    Held = VALU | Trans | MFMA | DSRead | DSWrite | VMEMRead | VMEMWrite;
  for (const InterleaveGroup &G : Cl.Interleave)
    Held |= G.Mask | (G.Mask & ALU ? ALUKinds : 0) |
            (G.Mask & VMEM ? VMEMKinds : 0) | (G.Mask & DS ? DSKinds : 0);
  unsigned Cross = (ALUKinds | VMEMKinds | DSKinds) & ~Held;
  if (!(Held & ALUKinds))
    Cross |= ALU;
  if (!(Held & VMEMKinds))
    Cross |= VMEM;
  if (!(Held & DSKinds))
    Cross |= DS;
  return Cross;
}

bool askLatencyScheduling(MachineFunction &MF) {
  // GCNTargetMachine::createMachineScheduler reads the attribute before the
  // -amdgpu-sched-strategy option, per function, when the scheduler runs
  // (after this pass).
  static constexpr const char *Strategy = "amdgpu-sched-strategy";
  Function &F = MF.getFunction();
  if (F.hasFnAttribute(Strategy))
    return false;
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find(Strategy);
  if (It != Options.end() && It->second->getNumOccurrences())
    return false;
  F.addFnAttr(Strategy, "max-ilp");
  return true;
}

void applyOrder(LoopModel &Model, const std::vector<unsigned> &Order) {
  MachineBasicBlock &MBB = *Model.Body;
  DebugAnchors Debug(MBB);
  MachineBasicBlock::iterator End = MBB.getFirstTerminator();
  for (unsigned I : Order)
    MBB.splice(End, &MBB, Model.Insts[I].MI);
  Debug.restore();
}

void applyPlan(LoopModel &Model, const ClusterPlan &Plan,
               const OpcodeTable::Builders &Ops) {
  MachineBasicBlock &MBB = *Model.Body;
  DebugAnchors Debug(MBB);
  const TargetInstrInfo &TII = *MBB.getParent()->getSubtarget().getInstrInfo();
  MachineBasicBlock::iterator End = MBB.getFirstTerminator();
  DebugLoc DL = End != MBB.end() ? End->getDebugLoc() : DebugLoc();
  auto Emit = [&](unsigned Opc, int64_t Imm) {
    BuildMI(MBB, End, DL, TII.get(Opc)).addImm(Imm);
  };
  auto EmitBarrier = [&]() { BuildMI(MBB, End, DL, TII.get(Ops.SBarrier)); };

  // Splicing each instruction to the end of the region, in plan order,
  // leaves the region in that order; markers go between clusters.
  const auto &Clusters = Plan.Layout.Clusters;
  unsigned Pos = 0, Interval = 0;
  bool LDSOutstanding = false;
  for (unsigned C = 0; C < Clusters.size(); ++C) {
    bool Dot = Clusters[C].Kind == ClusterKind::Dot;
    // The cluster's priority (its own or the layout flags'). Gated: the
    // first MFMA issues at P, below the other wave's dot (P+1), so it waits
    // until the other wave's last MFMA has issued; the rest runs at P+1.
    const unsigned Prio = Plan.Layout.priority(C);
    bool Gated = Dot && Plan.Layout.GateDotEntry;
    bool RaisePending = Gated;
    bool Joined = Clusters[C].Joined;
    // A joined cluster continues its predecessor's priority.
    if (Prio && !Joined)
      Emit(Ops.SSetPrio, Prio);
    std::vector<const InstInfo *> InCluster;
    // The plan's interleave groups (Plan.GroupOf): a SCHED_BARRIER between
    // two groups holds the clause's kinds in their group and lets every
    // other kind cross, as IGroupLP's groups leave them free. It ends no
    // region, and its edges cost a reachability test per held instruction:
    // linear, where solving SCHED_GROUP_BARRIERs for the same groups is not
    // (docs/compile-time.md).
    unsigned Group = ~0u;
    bool Grouped = false;
    for (; Pos < Plan.Order.size() && Plan.ClusterOf[Plan.Order[Pos]] == C;
         ++Pos) {
      const InstInfo &II = Model.Insts[Plan.Order[Pos]];
      if (!Plan.GroupOf.empty() && Plan.GroupOf[Plan.Order[Pos]] != ~0u) {
        unsigned Next = Plan.GroupOf[Plan.Order[Pos]];
        if (Grouped && Next != Group)
          Emit(Ops.SchedBarrier, crossingKinds(Clusters[C]));
        Grouped = true;
        Group = Next;
      }
      MBB.splice(End, &MBB, II.MI);
      LDSOutstanding |= touchesLDS(II.Kind);
      InCluster.push_back(&II);
      if (RaisePending && II.Kind == InstKind::MFMA) {
        Emit(Ops.SSetPrio, Prio + 1);
        RaisePending = false;
      }
    }
    if (!Grouped)
      emitInterleave(Clusters[C], InCluster, TII, [&](const InterleaveGroup &G) {
        BuildMI(MBB, End, DL, TII.get(Ops.SchedGroupBarrier))
            .addImm(G.Mask)
            .addImm(G.Size)
            .addImm(0);
      });
    bool Last = C + 1 == Clusters.size();
    bool JoinedNext = !Last && Clusters[C + 1].Joined;
    if ((Prio || Gated) && !JoinedNext)
      Emit(Ops.SSetPrio, 0);
    if (JoinedNext) {
      Emit(Ops.SchedBarrier, 0); // an order inside one cluster, nothing more
      continue;
    }
    bool NextIsDot = !Last && Clusters[C + 1].Kind == ClusterKind::Dot;
    bool Barrier = Plan.Layout.BarrierBetweenClusters;
    if (Last && !Barrier)
      break;
    // Drain LDS before a barrier (the other wave group may overwrite what
    // was read, or read what was written: Triton #11696) and before a dot
    // cluster (no wait may land inside it) unless the layout lets the dot
    // wait for its own operands.
    // A dot cluster with no s_setprio 0 at its end (priority 0) needs a
    // fence of its own, or the scheduler lifts the s_barrier among its MFMAs.
    if (Dot && !Prio && !Gated && Barrier)
      Emit(Ops.SchedBarrier, 0);
    bool DrainForDot = NextIsDot && !Plan.Layout.WaitsInDot;
    if (Clusters[C].Sync.Drain) // the cluster's own policy
      DrainForDot = *Clusters[C].Sync.Drain;
    // LDS DMA due at this barrier (the plan's count) waits in the same
    // s_waitcnt as the LDS drain.
    int VmWait = Barrier && Interval < Plan.VmWaitBefore.size()
                     ? Plan.VmWaitBefore[Interval]
                     : -1;
    bool Drain = LDSOutstanding && (Barrier || DrainForDot);
    if (Drain || VmWait >= 0) {
      Waitcnt W = Drain ? sync::drainLDS() : Waitcnt();
      if (VmWait >= 0)
        W.Vm = VmWait;
      Emit(Ops.SWaitcnt, W.encodeGfx9());
      LDSOutstanding &= !Drain;
    }
    ++Interval;
    if (Barrier)
      EmitBarrier();
    Emit(Ops.SchedBarrier, 0);
  }
  Debug.restore();
}

} // namespace pingpong
