//===- PingpongWaits.cpp - -amdgpu-pingpong-waits: place vmcnt waits -----===//
//
// For single-block loops with LDS DMA (global/buffer load straight to LDS):
// gfx9 counts LDS DMA on vmcnt and LLVM puts its wait for a DMA'd buffer
// after the barrier, per wave (reference/anchors_pingpong.md §3.5) -- other
// waves may read the buffer before the data landed -- and it waits vmcnt(0)
// where younger loads are not needed yet (seeds 002/004). With
// -amdgpu-pingpong-waits=place this pass puts an s_waitcnt vmcnt(0) before
// every s_barrier of the loop, then relaxes every vmcnt wait of the loop to
// the largest count the checker (Analysis/SyncCheck) still proves safe,
// dropping waits that end up waiting for nothing. The checker is the oracle,
// so the result is exactly as safe as the checker's model.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/Loops.h"
#include "pingpong/Analysis/SyncCheck.h"
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/Sync/SyncRules.h"
#include "pingpong/Sync/Waitcnt.h"
#include "pingpong/Passes/Passes.h"
#include "pingpong/Passes/Remarks.h"
#include "pingpong/Passes/ScheduledLoops.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/InitializePasses.h"
#include "llvm/Support/CommandLine.h"

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;
using namespace pingpong;

namespace {
enum class WaitsMode { Off, Place };
}

static cl::opt<WaitsMode> WaitsOpt(
    "amdgpu-pingpong-waits", cl::init(WaitsMode::Off),
    cl::desc("vmcnt placement in loops with LDS DMA (AMDGPUPingpong plugin)"),
    cl::values(clEnumValN(WaitsMode::Off, "off", "keep LLVM's waits (default)"),
               clEnumValN(WaitsMode::Place, "place",
                          "drain LDS DMA before each barrier, then relax every "
                          "vmcnt to the largest count the checker proves safe")));

bool pingpong::waitPlacementRequested() { return WaitsOpt != WaitsMode::Off; }


namespace llvm {
void initializePingpongWaitsPass(PassRegistry &);
}

namespace {
class PingpongWaits : public MachineFunctionPass {
public:
  static char ID;
  PingpongWaits() : MachineFunctionPass(ID) {}
  StringRef getPassName() const override {
    return "AMDGPU block pingpong vmcnt placement";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesCFG();
    AU.addRequired<MachineLoopInfoWrapperPass>();
    AU.addPreserved<MachineLoopInfoWrapperPass>();
    AU.addRequired<MachineOptimizationRemarkEmitterPass>();
    AU.addRequired<PingpongScheduledLoops>();
    MachineFunctionPass::getAnalysisUsage(AU);
  }
  bool runOnMachineFunction(MachineFunction &MF) override;

private:
  bool placeInLoop(MachineLoop &L, MachineFunction &MF);
};
} // namespace

char PingpongWaits::ID = 0;
char &pingpong::PingpongWaitsPassID = PingpongWaits::ID;

/// Safe for the checker: no finding, and no more pairs it cannot prove
/// ordered than `Unproven` (those the loop has whatever its vmcnt waits).
static bool clean(LoopSyncCheck &Check, unsigned Unproven) {
  SyncReport R = Check.run();
  return R.Findings.empty() && R.UnprovenPairs <= Unproven;
}

static void setVm(MachineInstr &W, unsigned Vm) {
  Waitcnt C = Waitcnt::decodeGfx9(W.getOperand(0).getImm());
  C.Vm = Vm;
  W.getOperand(0).setImm(C.encodeGfx9());
}

bool PingpongWaits::placeInLoop(MachineLoop &L, MachineFunction &MF) {
  MachineBasicBlock &Body = *L.getHeader();
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  const OpcodeTable &T = OpcodeTable::get(TII);
  auto &ORE = getAnalysis<MachineOptimizationRemarkEmitterPass>().getORE();
  bool HasDMA = false;
  for (const MachineInstr &MI : Body.instrs()) {
    InstKind K = T.classify(MI);
    HasDMA |= K == InstKind::LDSDMA;
    if (K == InstKind::VMEMStore ||
        sync::classifyByName(T.name(MI.getOpcode())).Class == sync::OpClass::FLAT)
      return false; // global memory ordering is not the checker's model
  }
  if (!HasDMA)
    return false;
  unsigned Before = 0;
  SmallVector<std::pair<MachineInstr *, unsigned>, 8> Original;
  for (MachineInstr &MI : Body.instrs())
    if (T.classify(MI) == InstKind::Waitcnt && MI.getOperand(0).isImm()) {
      unsigned Vm = Waitcnt::decodeGfx9(MI.getOperand(0).getImm()).Vm;
      Original.push_back({&MI, Vm});
      Before += Vm < Waitcnt::MaxVm;
    }

  // 1. A full vmcnt drain before every barrier: the safe starting point.
  const unsigned SWaitcnt = T.builders().SWaitcnt;
  SmallVector<MachineInstr *, 4> Added;
  for (MachineInstr &MI : Body.instrs())
    if (T.classify(MI) == InstKind::Barrier && !MI.isBundled())
      Added.push_back(BuildMI(Body, MI.getIterator(), MI.getDebugLoc(),
                              TII.get(SWaitcnt))
                          .addImm(sync::drainVM().encodeGfx9()));
  // (The loop model's buffer identity, which these relaxations were
  // measured with; -amdgpu-pingpong-verify checks the result with its own.)
  // One check for the whole search: only the waits' counts change, so the
  // waves' paths and LDS regions are computed once.
  LoopSyncCheck Check(L, MF, LDSIdentity::Model);
  SyncReport Start = Check.run();
  const unsigned Unproven = Start.UnprovenPairs;
  if (!Start.Findings.empty()) {
    for (MachineInstr *W : Added)
      W->eraseFromParent();
    ORE.emit([&]() {
      return MachineOptimizationRemarkMissed(DEBUG_TYPE, "WaitsNotPlaced",
                                             L.getStartLoc(), &Body)
             << "vmcnt placement: the loop is not provably safe even with "
                "vmcnt(0) before every barrier; waits left as they were";
    });
    return false;
  }
  // 2. Relax each vmcnt wait, in program order, to the largest safe count.
  SmallVector<MachineInstr *, 16> Waits;
  for (MachineInstr &MI : Body.instrs())
    if (T.classify(MI) == InstKind::Waitcnt && MI.getOperand(0).isImm() &&
        Waitcnt::decodeGfx9(MI.getOperand(0).getImm()).Vm < Waitcnt::MaxVm)
      Waits.push_back(&MI);
  for (MachineInstr *W : Waits) {
    unsigned Lo = Waitcnt::decodeGfx9(W->getOperand(0).getImm()).Vm;
    unsigned Hi = Waitcnt::MaxVm; // Lo is known safe; find the largest safe
    while (Lo < Hi) {
      unsigned Mid = (Lo + Hi + 1) / 2;
      setVm(*W, Mid);
      if (clean(Check, Unproven))
        Lo = Mid;
      else
        Hi = Mid - 1;
    }
    setVm(*W, Lo);
  }
  // 3. Waits that wait for nothing go.
  unsigned After = 0;
  for (MachineInstr *W : Waits)
    if (Waitcnt::decodeGfx9(W->getOperand(0).getImm()).waitsOnNothing())
      W->eraseFromParent();
    else
      After += Waitcnt::decodeGfx9(W->getOperand(0).getImm()).Vm < Waitcnt::MaxVm;
  ORE.emit([&]() {
    MachineOptimizationRemark R(DEBUG_TYPE, "WaitsPlaced", L.getStartLoc(), &Body);
    R << "vmcnt placement, ";
    nameLoop(R, Body) << ": "
      << ore::NV("VmWaitsBefore", Before) << " vmcnt waits before, "
      << ore::NV("VmWaitsAfter", After)
      << " after, each the largest count the checker proves safe";
    return R;
  });
  return true;
}

bool PingpongWaits::runOnMachineFunction(MachineFunction &MF) {
  StringRef CPU = MF.getSubtarget().getCPU();
  if (!target::factsFor(CPU))
    return false;
  MachineLoopInfo &MLI = getAnalysis<MachineLoopInfoWrapperPass>().getLI();
  bool Changed = false;
  // Every loop on -amdgpu-pingpong-waits=place; otherwise the loops a mode
  // asked for (PingpongScheduledLoops::requestWaitPlacement; the schedule
  // pass forgets the requests when it starts the next function).
  const auto &Scheduled = getAnalysis<PingpongScheduledLoops>();
  for (MachineLoop *L : innermostLoops(MLI, /*SingleBlockOnly=*/true))
    if (WaitsOpt != WaitsMode::Off ||
        Scheduled.waitPlacementRequested(*L->getHeader()))
      Changed |= placeInLoop(*L, MF);
  return Changed;
}

INITIALIZE_PASS_BEGIN(PingpongWaits, "amdgpu-pingpong-wait-placement",
                      "AMDGPU block pingpong vmcnt placement (plugin)", false,
                      false)
INITIALIZE_PASS_DEPENDENCY(PingpongScheduledLoops)
INITIALIZE_PASS_END(PingpongWaits, "amdgpu-pingpong-wait-placement",
                    "AMDGPU block pingpong vmcnt placement (plugin)", false,
                    false)
