//===- PingpongFinalCheck.cpp - did the clusters survive to the end? -----===//
//
// Runs after si-insert-waitcnts. In every block with s_setprio and
// SCHED_BARRIER markers (the plugin's, which the schedule pass records, or a
// frontend's own schedule, named as such) it checks that dot clusters
// (between s_setprio 1 and s_setprio 0) hold no memory instruction and that
// no MFMA escaped them, and reports the waits that landed inside a dot
// cluster (issue-4 territory: each such wait stalls the dot), and names the
// allocator's spill code left in the loop. Then, once per
// function with such a loop, whether the registers the allocator used still
// leave two waves per SIMD: pingpong pairs two waves on each SIMD, and the
// schedule's register estimate (machine SSA, before allocation) can miss by
// the allocator's alignment and fragmentation.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Analysis/RegPressure.h"
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/Target/TargetFacts.h"
#include "pingpong/Schedule/Layout.h"
#include "pingpong/Passes/Passes.h"
#include "pingpong/Passes/Remarks.h"
#include "pingpong/Passes/ScheduledLoops.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/CodeGen/MachineFrameInfo.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/PseudoSourceValue.h"

#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/InitializePasses.h"

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;
using namespace pingpong;

namespace llvm {
void initializePingpongFinalCheckPass(PassRegistry &);
}

namespace {
class PingpongFinalCheck : public MachineFunctionPass {
public:
  static char ID;
  PingpongFinalCheck() : MachineFunctionPass(ID) {}
  StringRef getPassName() const override {
    return "AMDGPU block pingpong final check";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesAll();
    AU.addRequired<MachineOptimizationRemarkEmitterPass>();
    AU.addRequired<PingpongScheduledLoops>();
    MachineFunctionPass::getAnalysisUsage(AU);
  }
  bool runOnMachineFunction(MachineFunction &MF) override;
};
} // namespace

/// Vector registers one wave of MF holds after allocation, counted as the
/// hardware allocates them on gfx90a and later (one file per lane): the arch
/// VGPRs up to the highest one used, rounded up to 4, then the AGPRs up to
/// the highest one used. Arch and acc counts are returned too.
static unsigned allocatedVectorRegisters(const MachineFunction &MF,
                                         unsigned &Arch, unsigned &Acc) {
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
  Arch = Acc = 0;
  SmallDenseMap<MCRegister, bool, 64> Seen;
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineInstr &MI : MBB)
      for (const MachineOperand &MO : MI.operands()) {
        if (!MO.isReg() || !MO.getReg().isPhysical() ||
            !Seen.try_emplace(MO.getReg().asMCReg(), true).second)
          continue;
        // Tuples (VGPR4_VGPR5...) through their 32-bit parts; the names are
        // the target's own (VGPRn, AGPRn), the plugin links no AMDGPU code.
        for (MCPhysReg Sub : TRI.subregs_inclusive(MO.getReg().asMCReg())) {
          StringRef Name = TRI.getName(Sub);
          unsigned N;
          if (Name.consume_front("VGPR") && !Name.getAsInteger(10, N))
            Arch = std::max(Arch, N + 1);
          else if (Name.consume_front("AGPR") && !Name.getAsInteger(10, N))
            Acc = std::max(Acc, N + 1);
        }
      }
  return Acc ? alignTo(Arch, 4) + Acc : Arch;
}

/// Spill and reload instructions in MBB: accesses to the allocator's spill
/// slots (through their memory operands, so before and after frame
/// lowering alike).
static unsigned spillAccesses(const MachineBasicBlock &MBB) {
  const MachineFunction &MF = *MBB.getParent();
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  const MachineFrameInfo &MFI = MF.getFrameInfo();
  unsigned N = 0;
  for (const MachineInstr &MI : MBB.instrs()) {
    SmallVector<const MachineMemOperand *, 2> Accesses;
    if (!TII.hasLoadFromStackSlot(MI, Accesses) &&
        !TII.hasStoreToStackSlot(MI, Accesses))
      continue;
    N += any_of(Accesses, [&](const MachineMemOperand *MMO) {
      const auto *FS =
          dyn_cast_or_null<FixedStackPseudoSourceValue>(MMO->getPseudoValue());
      return FS && MFI.isSpillSlotObjectIndex(FS->getFrameIndex());
    });
  }
  return N;
}

char PingpongFinalCheck::ID = 0;
char &pingpong::PingpongFinalCheckPassID = PingpongFinalCheck::ID;

bool PingpongFinalCheck::runOnMachineFunction(MachineFunction &MF) {
  const OpcodeTable &Ops = OpcodeTable::get(*MF.getSubtarget().getInstrInfo());
  auto &ORE = getAnalysis<MachineOptimizationRemarkEmitterPass>().getORE();
  const PingpongScheduledLoops &Scheduled =
      getAnalysis<PingpongScheduledLoops>();
  auto layoutPutInDot = [&](const MachineInstr *MI) {
    return Scheduled.layoutPutInDot(MI);
  };
  const MachineBasicBlock *PingpongLoop = nullptr;
  DebugLoc PingpongLoc;
  for (MachineBasicBlock &MBB : MF) {
    bool HasPrio = false, HasFence = false;
    for (const MachineInstr &MI : MBB.instrs()) {
      InstKind K = Ops.classify(MI);
      HasPrio |= K == InstKind::SetPrio;
      HasFence |= K == InstKind::SchedFence;
    }
    if (!HasPrio || !HasFence)
      continue;
    // A frontend's own schedule (Triton's pingpong, kept without
    // -amdgpu-pingpong-replace-schedule) is checked too (LLVM's scheduler can
    // break its clusters), but named as the author's, not the plugin's.
    const bool Plugins = Scheduled.isScheduled(MBB);
    const char *Whose = Plugins ? "" : " (its author's schedule, kept)";
    // A raised-priority region (s_setprio N>0 ... s_setprio 0) with MFMAs is
    // a dot cluster; one without MFMAs is a memory cluster issued at high
    // priority (Triton's OnePP raises it around A's global loads).
    unsigned DotClusters = 0, WaitsInDot = 0, MemInDot = 0, StrayMFMA = 0;
    unsigned RegionMFMA = 0, RegionMem = 0, RegionWaits = 0;
    // Memory ops a layout's interleave put in a dot cluster on purpose: its
    // SCHED_GROUP_BARRIERs (at the end of the cluster) or the SCHED_BARRIERs
    // between its steps name their kinds.
    SmallVector<const MachineInstr *, 8> RegionMemOps;
    unsigned RegionGroupMask = 0;
    bool Raised = false;
    DebugLoc Loc;
    auto CloseRegion = [&]() {
      if (Raised && RegionMFMA) {
        ++DotClusters;
        unsigned Intended = 0;
        for (const MachineInstr *M : RegionMemOps)
          Intended += layoutPutInDot(M) ||
                      interleaveMatches(RegionGroupMask, Ops.classify(*M),
                                        Ops.name(M->getOpcode()));
        MemInDot += RegionMem - Intended;
        WaitsInDot += RegionWaits;
      }
      RegionMFMA = RegionMem = RegionWaits = RegionGroupMask = 0;
      RegionMemOps.clear();
    };
    bool LastMFMA = false; // the previous instruction was an MFMA
    for (const MachineInstr &MI : MBB.instrs()) {
      if (MI.isBundle())
        continue;
      if (!Loc && MI.getDebugLoc())
        Loc = MI.getDebugLoc();
      const InstKind Kind = Ops.classify(MI);
      const bool WasMFMA = LastMFMA;
      LastMFMA = Kind == InstKind::MFMA;
      switch (Kind) {
      case InstKind::SetPrio: {
        // Raising an already raised priority (one-cluster's gated dot:
        // 1 for its first MFMA, then 2) stays in the same region.
        bool Raise = MI.getOperand(0).getImm() > 0;
        if (!(Raised && Raise))
          CloseRegion();
        // The gate one level down (four-cluster, Triton's FourPP): the dot's
        // first MFMA at priority 0, right before the raise, opens its dot.
        if (Raise && !Raised && WasMFMA) {
          --StrayMFMA;
          ++RegionMFMA;
        }
        Raised = Raise;
        break;
      }
      case InstKind::Waitcnt:
        RegionWaits += Raised;
        break;
      case InstKind::MFMA:
        RegionMFMA += Raised;
        StrayMFMA += !Raised;
        break;
      case InstKind::LDSRead:
      case InstKind::LDSWrite:
      case InstKind::LDSOther:
      case InstKind::VMEMLoad:
      case InstKind::LDSDMA:
      case InstKind::VMEMStore:
        RegionMem += Raised;
        if (Raised)
          RegionMemOps.push_back(&MI);
        break;
      case InstKind::SchedFence:
        if (MI.getOperand(0).isImm() &&
            Ops.name(MI.getOpcode()) == "SCHED_GROUP_BARRIER")
          RegionGroupMask |= MI.getOperand(0).getImm();
        // Between interleave steps: the kinds it holds are the ones it does
        // not let cross (the specific kinds; not the umbrella bits).
        if (MI.getOperand(0).isImm() && MI.getOperand(0).getImm() &&
            Ops.name(MI.getOpcode()) == "SCHED_BARRIER")
          RegionGroupMask |= ~MI.getOperand(0).getImm() & 0x76e;
        break;
      default:
        break;
      }
    }
    CloseRegion();
    // The register estimate can miss (docs/modes.md, chained dots): the
    // allocator's spill code in the scheduled loop costs a scratch round
    // trip each time, wherever it lands.
    if (const unsigned Spills = spillAccesses(MBB))
      ORE.emit([&]() {
        MachineOptimizationRemarkMissed R(DEBUG_TYPE, "SpilledInLoop", Loc,
                                          &MBB);
        R << "final check, ";
        nameBlock(R, MBB) << Whose << ": " << ore::NV("SpillAccesses", Spills)
          << (Plugins ? " spill stores and reloads in the scheduled loop, "
                        "each a scratch round trip: compare with LLVM's own "
                        "order (-amdgpu-pingpong=off)"
                      : " spill stores and reloads in the loop, each a "
                        "scratch round trip (not from the plugin: it left "
                        "this loop as it was)");
        return R;
      });
    if (!PingpongLoop && Plugins) {
      PingpongLoop = &MBB;
      PingpongLoc = Loc;
    }
    // Mem-priority schedules (chained dots) raise the memory clusters: no
    // raised region holds an MFMA. Their dot clusters are the stretches
    // from the first to the last MFMA of each low-priority region; loads,
    // LDS reads and writes, and waits there broke the order (the softmax's
    // crossbar ops belong to the dot).
    if (!DotClusters && StrayMFMA) {
      StrayMFMA = 0;
      bool Raised = false;
      SmallVector<const MachineInstr *, 64> Low;
      auto CloseLow = [&]() {
        auto IsMFMA = [&](const MachineInstr *M) {
          return Ops.classify(*M) == InstKind::MFMA;
        };
        auto First = llvm::find_if(Low, IsMFMA);
        auto Last = llvm::find_if(llvm::reverse(Low), IsMFMA);
        if (First != Low.end()) {
          ++DotClusters;
          for (auto It = First; &*It != &*Last; ++It) {
            InstKind K = Ops.classify(**It);
            WaitsInDot += K == InstKind::Waitcnt;
            MemInDot += (K == InstKind::LDSRead || K == InstKind::LDSWrite ||
                         K == InstKind::VMEMLoad || K == InstKind::VMEMStore ||
                         K == InstKind::LDSDMA) &&
                        !layoutPutInDot(*It);
          }
        }
        Low.clear();
      };
      for (const MachineInstr &MI : MBB.instrs()) {
        if (MI.isBundle())
          continue;
        InstKind K = Ops.classify(MI);
        if (K == InstKind::SetPrio) {
          bool Raise = MI.getOperand(0).getImm() > 0;
          if (Raise && !Raised)
            CloseLow();
          Raised = Raise;
          continue;
        }
        if (Raised)
          StrayMFMA += K == InstKind::MFMA;
        else
          Low.push_back(&MI);
      }
      CloseLow();
    }
    if (MemInDot || StrayMFMA) {
      ORE.emit([&]() {
        MachineOptimizationRemarkMissed R(DEBUG_TYPE, "ClustersBroken", Loc,
                                          &MBB);
        R << "final check, ";
        nameBlock(R, MBB) << Whose << ": cluster order did not survive: "
          << ore::NV("MemInDot", MemInDot) << " memory ops inside and "
          << ore::NV("StrayMFMA", StrayMFMA) << " MFMAs outside dot clusters";
        return R;
      });
      continue;
    }
    ORE.emit([&]() {
      MachineOptimizationRemarkAnalysis R(DEBUG_TYPE, "FinalCheck", Loc, &MBB);
      R << "final check, ";
      nameBlock(R, MBB) << Whose << ": " << ore::NV("DotClusters", DotClusters)
        << " dot clusters intact, waits inside them: "
        << ore::NV("WaitsInDot", WaitsInDot);
      return R;
    });
  }
  // A 4-wave workgroup past the two-wave budget still runs, alone on its
  // SIMDs (an 8-wave one cannot be: the allocator spills instead, which the
  // cluster check above sees as memory ops in the dot).
  if (PingpongLoop && wavesPerWorkgroup(MF) <= target::WavesPerGroup) {
    unsigned Arch, Acc;
    const unsigned Used = allocatedVectorRegisters(MF, Arch, Acc);
    const unsigned Budget = vectorRegisterBudget(MF);
    if (Used > Budget) {
      const target::TargetFacts *T = target::factsFor(MF.getSubtarget().getCPU());
      const unsigned Lane = T ? T->VGPRsPerSIMDLane : target::Gfx942.VGPRsPerSIMDLane;
      ORE.emit([&]() {
        MachineOptimizationRemarkMissed R(DEBUG_TYPE, "OccupancyLost",
                                          PingpongLoc, PingpongLoop);
        R << "final check, ";
        nameBlock(R, *PingpongLoop) << ": after register allocation a wave holds "
          << ore::NV("VectorRegisters", Used) << " vector registers ("
          << ore::NV("ArchVGPRs", Arch) << " arch + " << ore::NV("AGPRs", Acc)
          << " acc), more than the " << ore::NV("Budget", Budget)
          << " of two waves per SIMD: "
          << ore::NV("WavesPerSIMD", Lane / std::max(1u, alignTo(Used, 8)))
          << " wave per SIMD, so the pingpong order has no partner wave";
        return R;
      });
    }
  }
  return false;
}

INITIALIZE_PASS_BEGIN(PingpongFinalCheck, "amdgpu-pingpong-final-check",
                      "AMDGPU block pingpong final check (plugin)", false, false)
INITIALIZE_PASS_DEPENDENCY(PingpongScheduledLoops)
INITIALIZE_PASS_END(PingpongFinalCheck, "amdgpu-pingpong-final-check",
                    "AMDGPU block pingpong final check (plugin)", false, false)
