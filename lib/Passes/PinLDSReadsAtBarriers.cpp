//===- PinLDSReadsAtBarriers.cpp - keep LDS reads before their s_barrier --===//
//
// A bare s_barrier (llvm.amdgcn.s.barrier without the workgroup fences that
// __syncthreads() carries) is no memory operation to LLVM: the intrinsic is
// IntrNoMem and S_BARRIER neither loads nor stores. Triton emits such
// barriers (its async-wait and its LDS layout conversions rely on program
// order around them), and MachineSink, which only looks for stores between
// a load and the block it sinks it to, moves an LDS read whose value is used
// in a later block past the barrier. Another wave may then overwrite the
// bytes before the moved read runs (found on held-out set 12's bias
// attention, gfx950: the softmax row sum read back from LDS sank below the
// loop exit's barrier into the epilogue, where the output's layout
// conversion writes the same bytes; Triton 3.6's own build has the race
// too).
//
// Two passes around machine-sink. Before it, each LDS read that MachineSink
// could move (every use in other blocks its own dominates) and whose bytes
// another wave's LDS write may touch in a barrier phase the read could be
// moved into (lib/Analysis/LDSObjects' regions, the checker's: unknown
// bytes count as touching) is recorded with the barrier after it. After it,
// a recorded read that MachineSink did move goes back before its barrier,
// with the address work MachineSink moved with it, the barrier gets an
// implicit use of its result (so SIInsertWaitcnts completes the read before
// the barrier, as an s_barrier orders only completed accesses), and a remark
// says so.
// Reads MachineSink left alone, and every other instruction, stay as LLVM
// made them (no change where nothing moved: the loops the plugin schedules
// keep their reads in flight across their barriers).
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/LDSObjects.h"
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/Passes/Passes.h"
#include "pingpong/Sync/SyncRules.h"

#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineDominators.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/InitializePasses.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#include <mutex>
#include <string>

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;
using namespace pingpong;

STATISTIC(NumRestored,
          "LDS reads MachineSink moved past a bare s_barrier, moved back");

static cl::opt<bool> PinOpt(
    "amdgpu-pingpong-pin-lds-reads", cl::init(true),
    cl::desc("Keep LDS reads before the s_barrier that follows them in their "
             "block, where MachineSink would move them past it (a bare "
             "s_barrier is no memory operation to LLVM 22.1) (AMDGPUPingpong "
             "plugin; on by default, independent of -amdgpu-pingpong)"));

bool pingpong::ldsReadPinRequested() { return PinOpt; }

namespace llvm {
void initializePingpongPinLDSReadsPass(PassRegistry &);
void initializePingpongRestoreLDSReadsPass(PassRegistry &);
} // namespace llvm

namespace {
/// The reads recorded before machine-sink, per function: the read, the
/// barrier after it and their block.
struct RecordedRead {
  MachineInstr *Read, *Barrier;
  MachineBasicBlock *Home;
  /// The locations of the read and of the instructions of its block that
  /// compute its operands: MachineSink drops the line of what it moves, and
  /// what goes back gets its own again.
  SmallVector<std::pair<MachineInstr *, DebugLoc>, 4> Locs;
};
std::mutex RecordLock;
DenseMap<const MachineFunction *, SmallVector<RecordedRead, 4>> Recorded;
} // namespace

namespace {

class PingpongPinLDSReads : public MachineFunctionPass {
public:
  static char ID;
  PingpongPinLDSReads() : MachineFunctionPass(ID) {}
  StringRef getPassName() const override {
    return "AMDGPU block pingpong: LDS reads MachineSink may move past a "
           "bare s_barrier";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesAll();
    AU.addRequired<MachineDominatorTreeWrapperPass>();
    MachineFunctionPass::getAnalysisUsage(AU);
  }
  bool runOnMachineFunction(MachineFunction &MF) override;

private:
  const OpcodeTable *T = nullptr;
  const MachineDominatorTree *DT = nullptr;

  /// Where MachineSink may take Read: the nearest common dominator of its
  /// uses (a PHI's use counts in the block it comes from), when that is
  /// another block its own dominates; null when it cannot move.
  const MachineBasicBlock *sinkLimit(const MachineInstr &Read,
                                     const MachineRegisterInfo &MRI) const;
  /// Another wave's LDS write may touch Read's bytes in a barrier phase
  /// Read may reach once sunk: the writes after Barrier, on every path, up
  /// to a barrier Read cannot be sunk past (one in Limit itself, where Read
  /// lands at the top, or in a block Limit is not reachable from).
  bool overwrittenAfter(const MachineInstr &Read, const MachineInstr &Barrier,
                        const MachineBasicBlock &Limit) const;
  bool writesLDS(const MachineInstr &MI) const {
    InstKind K = T->classify(MI);
    return K == InstKind::LDSWrite || K == InstKind::LDSDMA ||
           (K == InstKind::LDSOther && MI.mayStore());
  }
};

const MachineBasicBlock *
PingpongPinLDSReads::sinkLimit(const MachineInstr &Read,
                               const MachineRegisterInfo &MRI) const {
  const MachineBasicBlock *Home = Read.getParent();
  MachineBasicBlock *Limit = nullptr;
  for (const MachineOperand &Def : Read.defs()) {
    if (!Def.getReg().isVirtual())
      return nullptr; // physical results: MachineSink leaves those too
    for (MachineOperand &Use : MRI.use_nodbg_operands(Def.getReg())) {
      MachineInstr &U = *Use.getParent();
      MachineBasicBlock *At = U.getParent();
      if (U.isPHI())
        At = U.getOperand(U.getOperandNo(&Use) + 1).getMBB();
      if (At == Home || !DT->dominates(Home, At))
        return nullptr;
      Limit = Limit ? DT->findNearestCommonDominator(Limit, At) : At;
    }
  }
  return Limit == Home ? nullptr : Limit;
}

bool PingpongPinLDSReads::overwrittenAfter(
    const MachineInstr &Read, const MachineInstr &Barrier,
    const MachineBasicBlock &Limit) const {
  sync::LDSRegion R = ldsRegionForCheck(Read);
  auto Touches = [&](const MachineInstr &W) {
    bool LaneUniform = T->classify(W) != InstKind::LDSDMA;
    return sync::overlap(R, ldsRegionForCheck(W, LaneUniform)).O !=
           sync::Overlap::Disjoint;
  };
  auto Reaches = [&](const MachineBasicBlock *From) {
    for (const MachineBasicBlock *B : depth_first(From))
      if (B == &Limit)
        return true;
    return false;
  };
  SmallPtrSet<const MachineBasicBlock *, 16> Entered;
  SmallVector<std::pair<const MachineBasicBlock *,
                        MachineBasicBlock::const_instr_iterator>, 8>
      Work{{Barrier.getParent(), std::next(Barrier.getIterator())}};
  while (!Work.empty()) {
    auto [B, It] = Work.pop_back_val();
    bool Stopped = false;
    for (auto E = B->instr_end(); It != E && !Stopped; ++It) {
      if (T->classify(*It) == InstKind::Barrier)
        Stopped = B == &Limit || !Reaches(B);
      else if (writesLDS(*It) && Touches(*It))
        return true;
    }
    if (!Stopped)
      for (const MachineBasicBlock *Succ : B->successors())
        if (Entered.insert(Succ).second)
          Work.push_back({Succ, Succ->instr_begin()});
  }
  return false;
}

bool PingpongPinLDSReads::runOnMachineFunction(MachineFunction &MF) {
  if (!PinOpt || !sync::targetForCPU(MF.getSubtarget().getCPU()))
    return false;
  T = &OpcodeTable::get(*MF.getSubtarget().getInstrInfo());
  DT = &getAnalysis<MachineDominatorTreeWrapperPass>().getDomTree();
  const MachineRegisterInfo &MRI = MF.getRegInfo();
  SmallVector<RecordedRead, 4> Reads;
  for (MachineBasicBlock &MBB : MF) {
    // Walking up: the first s_barrier below each instruction.
    MachineInstr *BarrierBelow = nullptr;
    for (MachineInstr &MI : llvm::reverse(MBB.instrs())) {
      InstKind K = T->classify(MI);
      if (K == InstKind::Barrier) {
        BarrierBelow = &MI;
        continue;
      }
      if (!BarrierBelow || (K != InstKind::LDSRead && K != InstKind::LDSOther) ||
          !MI.mayLoad() || MI.getNumExplicitDefs() == 0)
        continue;
      const MachineBasicBlock *Limit = sinkLimit(MI, MRI);
      if (!Limit || !overwrittenAfter(MI, *BarrierBelow, *Limit))
        continue;
      RecordedRead R{&MI, BarrierBelow, &MBB, {}};
      SmallVector<MachineInstr *, 4> Chain{&MI};
      while (!Chain.empty()) {
        MachineInstr *C = Chain.pop_back_val();
        R.Locs.push_back({C, C->getDebugLoc()});
        for (const MachineOperand &Op : C->uses())
          if (Op.isReg() && Op.getReg().isVirtual())
            if (MachineInstr *Def = MRI.getVRegDef(Op.getReg());
                Def && Def->getParent() == &MBB && !Def->isPHI() &&
                llvm::none_of(R.Locs, [&](const auto &L) { return L.first == Def; }))
              Chain.push_back(Def);
      }
      Reads.push_back(std::move(R));
    }
  }
  if (!Reads.empty()) {
    std::lock_guard<std::mutex> G(RecordLock);
    Recorded[&MF] = std::move(Reads);
  }
  return false;
}


/// After machine-sink: the recorded reads it moved go back before their
/// barrier.
class PingpongRestoreLDSReads : public MachineFunctionPass {
public:
  static char ID;
  PingpongRestoreLDSReads() : MachineFunctionPass(ID) {}
  StringRef getPassName() const override {
    return "AMDGPU block pingpong: LDS reads moved back before their "
           "s_barrier";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesCFG();
    AU.addRequired<MachineDominatorTreeWrapperPass>();
    AU.addPreserved<MachineDominatorTreeWrapperPass>();
    AU.addRequired<MachineOptimizationRemarkEmitterPass>();
    MachineFunctionPass::getAnalysisUsage(AU);
  }
  bool runOnMachineFunction(MachineFunction &MF) override;

private:
  /// Move MI before At, after the defs of its register operands that no
  /// longer come before At (MachineSink moved them along).
  void moveBack(MachineInstr &MI, MachineInstr &At,
                const MachineRegisterInfo &MRI, const MachineDominatorTree &DT);
};

/// Def comes before At (SSA: dominates it).
static bool before(const MachineInstr &Def, const MachineInstr &At,
                   const MachineDominatorTree &DT) {
  if (Def.getParent() != At.getParent())
    return DT.dominates(Def.getParent(), At.getParent());
  for (const MachineInstr &I : *At.getParent()) {
    if (&I == &Def)
      return true;
    if (&I == &At)
      return false;
  }
  return false;
}

void PingpongRestoreLDSReads::moveBack(MachineInstr &MI, MachineInstr &At,
                                       const MachineRegisterInfo &MRI,
                                       const MachineDominatorTree &DT) {
  for (const MachineOperand &Op : MI.uses()) {
    if (!Op.isReg() || !Op.getReg().isVirtual())
      continue;
    MachineInstr *Def = MRI.getVRegDef(Op.getReg());
    if (Def && !Def->isPHI() && !before(*Def, At, DT))
      moveBack(*Def, At, MRI, DT);
  }
  At.getParent()->splice(At.getIterator(), MI.getParent(), MI.getIterator());
}

bool PingpongRestoreLDSReads::runOnMachineFunction(MachineFunction &MF) {
  SmallVector<RecordedRead, 4> Reads;
  {
    std::lock_guard<std::mutex> G(RecordLock);
    auto It = Recorded.find(&MF);
    if (It == Recorded.end())
      return false;
    Reads = std::move(It->second);
    Recorded.erase(It);
  }
  const OpcodeTable &T = OpcodeTable::get(*MF.getSubtarget().getInstrInfo());
  const MachineRegisterInfo &MRI = MF.getRegInfo();
  const MachineDominatorTree &DT =
      getAnalysis<MachineDominatorTreeWrapperPass>().getDomTree();
  auto &ORE = getAnalysis<MachineOptimizationRemarkEmitterPass>().getORE();
  bool Changed = false;
  for (const RecordedRead &R : Reads) {
    if (R.Read->getParent() == R.Home)
      continue; // MachineSink left it
    MachineBasicBlock *SunkTo = R.Read->getParent();
    moveBack(*R.Read, *R.Barrier, MRI, DT);
    for (const auto &[MI, Loc] : R.Locs)
      if (MI->getParent() == R.Home)
        MI->setDebugLoc(Loc);
    // The barrier reads the result, so SIInsertWaitcnts completes the read
    // before it (an s_barrier orders only what has completed); MachineSink
    // also sees the use should it run again.
    for (const MachineOperand &Def : R.Read->defs())
      R.Barrier->addOperand(MF, MachineOperand::CreateReg(
                                    Def.getReg(), /*isDef=*/false,
                                    /*isImp=*/true));
    ++NumRestored;
    Changed = true;
    LLVM_DEBUG(dbgs() << "restore-lds-reads: " << *R.Read);
    ORE.emit([&]() {
      MachineOptimizationRemark Rem(DEBUG_TYPE, "LDSReadRestored",
                                    R.Read->getDebugLoc(), R.Home);
      Rem << "LDS read " << T.name(R.Read->getOpcode()) << " in "
          << MF.getName() << " moved back before its s_barrier: MachineSink "
          << "had moved it past the barrier into %bb."
          << std::to_string(SunkTo->getNumber())
          << " (a bare s_barrier is no memory operation to LLVM), where "
             "another wave's LDS write may overwrite the bytes";
      return Rem;
    });
  }
  return Changed;
}
} // namespace

char PingpongPinLDSReads::ID = 0;
char &pingpong::PingpongPinLDSReadsPassID = PingpongPinLDSReads::ID;

INITIALIZE_PASS_BEGIN(PingpongPinLDSReads, "amdgpu-pingpong-lds-read-record",
                      "AMDGPU block pingpong LDS reads kept before their "
                      "s_barrier (plugin)",
                      false, false)
INITIALIZE_PASS_DEPENDENCY(MachineDominatorTreeWrapperPass)
INITIALIZE_PASS_END(PingpongPinLDSReads, "amdgpu-pingpong-lds-read-record",
                    "AMDGPU block pingpong LDS reads kept before their "
                    "s_barrier (plugin)",
                    false, false)

char PingpongRestoreLDSReads::ID = 0;
char &pingpong::PingpongRestoreLDSReadsPassID = PingpongRestoreLDSReads::ID;

INITIALIZE_PASS_BEGIN(PingpongRestoreLDSReads,
                      "amdgpu-pingpong-lds-read-restore",
                      "AMDGPU block pingpong LDS reads moved back before their "
                      "s_barrier (plugin)",
                      false, false)
INITIALIZE_PASS_DEPENDENCY(MachineDominatorTreeWrapperPass)
INITIALIZE_PASS_DEPENDENCY(MachineOptimizationRemarkEmitterPass)
INITIALIZE_PASS_END(PingpongRestoreLDSReads,
                    "amdgpu-pingpong-lds-read-restore",
                    "AMDGPU block pingpong LDS reads moved back before their "
                    "s_barrier (plugin)",
                    false, false)
