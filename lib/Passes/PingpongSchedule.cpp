//===- PingpongSchedule.cpp - the pre-RA pass that applies pingpong ------===//
//
// Runs on machine SSA, just before PHI elimination (after every SSA
// optimisation, so the loop body is final but for register allocation). For
// each innermost loop with MFMAs: analyse (Analysis/), pick a mode
// (Schedule/), check the plan's register pressure, apply it (Emit/), and say
// what happened through optimisation remarks named "amdgpu-pingpong".
// AMDGPU's scheduler then schedules inside each cluster: SCHED_BARRIER 0 and
// s_setprio are scheduling boundaries for it, before and after RA.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/DepGraph.h"
#include "pingpong/Analysis/Directives.h"
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Analysis/RegPressure.h"
#include "pingpong/Emit/Emitter.h"
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/Passes/Passes.h"
#include "pingpong/Schedule/ClusterPlan.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/CodeGen/MachineDominators.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/InitializePasses.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;
using namespace pingpong;

namespace llvm {
void initializePingpongSchedulePass(PassRegistry &);
void initializePingpongFinalCheckPass(PassRegistry &);
void initializePingpongLoopDirectivesPass(PassRegistry &);
void initializePingpongVerifyPass(PassRegistry &);
void initializePingpongWaitsPass(PassRegistry &);
} // namespace llvm

namespace {
enum class DMAMode { Off, Hoist };
}
static cl::opt<DMAMode> DMAOpt(
    "amdgpu-pingpong-dma", cl::init(DMAMode::Off),
    cl::desc("Loops with LDS DMA, which pingpong does not schedule yet "
             "(AMDGPUPingpong plugin)"),
    cl::values(clEnumValN(DMAMode::Off, "off", "leave them as they are (default)"),
               clEnumValN(DMAMode::Hoist, "hoist",
                          "issue each LDS DMA at the start of its barrier "
                          "interval, right after the wait and barrier that "
                          "free its buffer (seed 002)")));

static cl::opt<bool> ReplaceSchedule(
    "amdgpu-pingpong-replace-schedule", cl::init(false),
    cl::desc("Schedule loops that already carry s_setprio/sched_barrier/"
             "iglp_opt (e.g. Triton's BlockPingpong) with the plugin's "
             "schedule instead of keeping theirs (AMDGPUPingpong plugin)"));

static cl::opt<bool> PrintRoles(
    "amdgpu-pingpong-print-roles", cl::init(false),
    cl::desc("Print the role of each instruction of every analysed loop "
             "(AMDGPUPingpong plugin) to stderr"));

namespace {

class PingpongSchedule : public MachineFunctionPass {
public:
  static char ID;
  PingpongSchedule() : MachineFunctionPass(ID) {}
  StringRef getPassName() const override { return "AMDGPU block pingpong"; }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<MachineLoopInfoWrapperPass>();
    AU.addRequired<MachineDominatorTreeWrapperPass>();
    AU.addRequired<AAResultsWrapperPass>();
    AU.addRequired<MachineOptimizationRemarkEmitterPass>();
    // Reordering keeps the CFG; the asymmetric sync updates both for the
    // blocks it adds, so the passes after this one need not recompute them.
    AU.addPreserved<MachineLoopInfoWrapperPass>();
    AU.addPreserved<MachineDominatorTreeWrapperPass>();
    MachineFunctionPass::getAnalysisUsage(AU);
  }
  bool runOnMachineFunction(MachineFunction &MF) override;

private:
  bool runOnLoop(MachineLoop &L, MachineFunction &MF);
  bool hoistLDSDMA(MachineLoop &L, LoopModel &Region);
  void missed(MachineLoop &L, const Twine &Why, const MachineInstr *At = nullptr);
  void explainGlobalISel(MachineFunction &MF);

  /// The loop being planned was forced (option, attribute or metadata): a
  /// missed remark for it is also a warning, like -Wpass-failed.
  std::optional<Directive> ForcedBy;
  bool SawDotLoop = false;

  MachineOptimizationRemarkEmitter *ORE = nullptr;
  MachineLoopInfo *MLI = nullptr;
  MachineDominatorTree *MDT = nullptr;
  AAResults *AA = nullptr;
};

} // namespace

char PingpongSchedule::ID = 0;
char &pingpong::PingpongSchedulePassID = PingpongSchedule::ID;

void PingpongSchedule::missed(MachineLoop &L, const Twine &Why,
                              const MachineInstr *At) {
  ORE->emit([&]() {
    DebugLoc DL = At && At->getDebugLoc() ? At->getDebugLoc() : L.getStartLoc();
    MachineOptimizationRemarkMissed R(DEBUG_TYPE, "NotApplied", DL,
                                      L.getHeader());
    R << "loop %bb." << ore::NV("Loop", L.getHeader()->getNumber()) << " of "
      << ore::NV("Function", L.getHeader()->getParent()->getName())
      << ": no pingpong: " << ore::NV("Reason", Why.str());
    return R;
  });
  if (ForcedBy) {
    std::string Msg = ("loop %bb." + Twine(L.getHeader()->getNumber()) +
                       " of " + L.getHeader()->getParent()->getName() +
                       ": amdgpu-pingpong " +
                       (ForcedBy->LayoutText.empty() ? modeName(ForcedBy->M)
                                                     : "custom layout") +
                       " (" +
                       ForcedBy->Source + ") not applied: " + Why)
                          .str();
    DebugLoc DL = At && At->getDebugLoc() ? At->getDebugLoc() : L.getStartLoc();
    const Function &F = L.getHeader()->getParent()->getFunction();
    F.getContext().diagnose(
        DiagnosticInfoOptimizationFailure(F, DiagnosticLocation(DL), Msg));
  }
}

/// GlobalISel builds these loops differently (the K loop keeps inner loops,
/// so no innermost loop holds the MFMAs): say so instead of staying silent.
void PingpongSchedule::explainGlobalISel(MachineFunction &MF) {
  const OpcodeTable &T = OpcodeTable::get(*MF.getSubtarget().getInstrInfo());
  for (MachineBasicBlock &MBB : MF) {
    MachineLoop *L = MLI->getLoopFor(&MBB);
    if (!L || !llvm::any_of(MBB, [&](const MachineInstr &MI) {
          return T.classify(MI) == InstKind::MFMA;
        }))
      continue;
    std::string Error;
    std::optional<Directive> D = resolveDirective(MF.getFunction(), *L, Error);
    if (D && D->M == Mode::Off)
      return;
    if (D && D->M != Mode::Auto)
      ForcedBy = D;
    missed(*L, "the function was selected by GlobalISel, whose loops the "
               "plugin does not recognise (no innermost loop holds the MFMAs); "
               "it schedules SelectionDAG's code");
    ForcedBy.reset();
    return;
  }
}

bool PingpongSchedule::runOnMachineFunction(MachineFunction &MF) {
  if (skipFunction(MF.getFunction()))
    return false;
  // Off on the command line: no analysis at all (and no remarks to give,
  // unless someone asked for them).
  if (commandLineMode() == Mode::Off && !MF.getFunction()
                                             .getContext()
                                             .getDiagHandlerPtr()
                                             ->isMissedOptRemarkEnabled(DEBUG_TYPE))
    return false;
  MLI = &getAnalysis<MachineLoopInfoWrapperPass>().getLI();
  MDT = &getAnalysis<MachineDominatorTreeWrapperPass>().getDomTree();
  AA = &getAnalysis<AAResultsWrapperPass>().getAAResults();
  ORE = &getAnalysis<MachineOptimizationRemarkEmitterPass>().getORE();

  SmallVector<MachineLoop *, 4> Innermost;
  SmallVector<MachineLoop *, 8> Work(MLI->begin(), MLI->end());
  while (!Work.empty()) {
    MachineLoop *L = Work.pop_back_val();
    if (L->isInnermost())
      Innermost.push_back(L);
    Work.append(L->begin(), L->end());
  }
  // Source order, so remarks come out in a stable order.
  llvm::sort(Innermost, [](MachineLoop *A, MachineLoop *B) {
    return A->getHeader()->getNumber() < B->getHeader()->getNumber();
  });
  bool Changed = false;
  SawDotLoop = false;
  for (MachineLoop *L : Innermost)
    Changed |= runOnLoop(*L, MF);
  ForcedBy.reset();
  if (!SawDotLoop && MF.getProperties().hasSelected())
    explainGlobalISel(MF);
  return Changed;
}

bool PingpongSchedule::runOnLoop(MachineLoop &L, MachineFunction &MF) {
  ForcedBy.reset();
  AnalysisOptions AOpts;
  AOpts.ReplaceSchedule = ReplaceSchedule;
  LoopAnalysis A = analyzeLoop(L, MF, AOpts);
  if (!A.IsDotLoop)
    return false; // not a dot loop: nothing to say
  SawDotLoop = true;
  if (PrintRoles) {
    errs() << "amdgpu-pingpong: " << MF.getName() << ": ";
    if (A.Model)
      A.Model->print(errs());
    else
      errs() << "loop %bb." << L.getHeader()->getNumber()
             << " rejected: " << A.Why.Reason << "\n";
  }

  std::string Error;
  std::optional<Directive> D = resolveDirective(MF.getFunction(), L, Error);
  if (!D) {
    MF.getFunction().getContext().diagnose(DiagnosticInfoGeneric(
        ("amdgpu-pingpong: in function '" + MF.getName() + "': " + Error).str(),
        DS_Error));
    return false;
  }
  if (D->M == Mode::Off) {
    missed(L, Twine("disabled by ") + D->Source);
    return false;
  }
  if (D->M != Mode::Auto || !D->LayoutText.empty())
    ForcedBy = D;
  StringRef CPU = MF.getSubtarget().getCPU();
  if (CPU != "gfx942" && CPU != "gfx950") {
    missed(L, "target " + CPU + " is not supported (gfx942 and gfx950 only)");
    return false;
  }
  if (!MF.getRegInfo().isSSA()) {
    missed(L, "the function is no longer in SSA form at this point");
    return false;
  }
  if (!A.Model) {
    if (A.HasLDSDMA && A.Region && DMAOpt == DMAMode::Hoist)
      return hoistLDSDMA(L, *A.Region);
    missed(L, A.Why.Reason, A.Why.At);
    return false;
  }
  const OpcodeTable::Builders &Ops =
      OpcodeTable::get(*MF.getSubtarget().getInstrInfo()).builders();
  if (!Ops.complete()) {
    missed(L, "this LLVM lacks an opcode the plugin builds");
    return false;
  }
  LoopModel &M = *A.Model;
  // A layout from loop metadata is forced like a mode (Mode::Auto stands
  // for it in the list below).
  std::optional<ClusterLayout> Custom;
  if (!D->LayoutText.empty()) {
    std::string LayoutError;
    Custom = parseLayout(D->LayoutText, M.NumDots, LayoutError);
    if (!Custom) {
      MF.getFunction().getContext().diagnose(DiagnosticInfoGeneric(
          ("amdgpu-pingpong: in function '" + MF.getName() +
           "': invalid !llvm.loop \"amdgpu.pingpong.layout\": " + LayoutError)
              .str(),
          DS_Error));
      return false;
    }
  }
  bool Forced = D->M != Mode::Auto || Custom;
  Rejection Why;
  std::vector<Mode> Modes = Custom ? std::vector<Mode>{Mode::Auto}
                            : Forced ? std::vector<Mode>{D->M}
                                     : candidateModes(M, Why);
  if (Modes.empty()) {
    missed(L, Why.Reason, Why.At);
    return false;
  }

  // A schedule already in the loop (replaced on request) is out of the
  // block while modes are tried; it comes back if none applies.
  SyncDetacher OldSchedule;
  if (!M.OldSchedule.empty())
    OldSchedule.detach(*M.Body, M.OldSchedule);
  std::string Tried;
  unsigned Budget = vectorRegisterBudget(MF);
  std::vector<unsigned> Identity(M.Insts.size());
  for (unsigned I = 0; I < Identity.size(); ++I)
    Identity[I] = I;
  const unsigned Before = peakVectorPressure(M, Identity, *MDT);
  for (Mode Md : Modes) {
    const std::string Name = Custom ? "custom layout" : modeName(Md);
    Rejection W;
    std::optional<ClusterLayout> Layout = Custom ? Custom : layoutFor(Md, M, W);
    if (Custom && Custom->AsymmetricSync && M.Waves != 8) {
      Layout.reset();
      W.Reason = "the layout's asymmetric sync needs 8 waves per workgroup; "
                 "this kernel has " + std::to_string(M.Waves);
    }
    std::string Fail;
    LoopModel Work = M;
    SyncDetacher Sync;
    std::optional<ClusterPlan> Plan;
    unsigned Peak = 0;
    if (!Layout) {
      Fail = W.Reason;
    } else if (Layout->AsymmetricSync &&
               !canEmitAsymmetricSync(L, MF, Fail)) {
    } else {
      if (Layout->BarrierBetweenClusters)
        Sync.detach(Work);
      DepGraph G = buildDepGraph(Work, *MLI, AA);
      Plan = planClusters(Work, G, *Layout, W);
      if (!Plan) {
        Fail = W.Reason;
      } else {
        Peak = peakVectorPressure(Work, Plan->Order, *MDT);
        // Over the budget is still better than LLVM's own order when that
        // one is further over: fewer spills (Triton's IR at 256x256 with
        // 32x32 MFMAs, fp8, three stages).
        bool Relieves = Before > Budget && Peak < Before;
        if (Peak > Budget && !Forced && !Relieves)
          Fail = "register budget: the " + Name +
                 " order needs about " + std::to_string(Peak) +
                 " vector registers, more than the " + std::to_string(Budget) +
                 " two waves per SIMD allow (it would spill)";
      }
    }
    if (!Fail.empty()) {
      Tried += std::string(Tried.empty() ? "" : "; ") + Name + ": " + Fail;
      continue; // Sync's destructor puts the loop's barriers back
    }
    if (PrintRoles)
      errs() << "amdgpu-pingpong: " << MF.getName() << ": loop %bb."
             << L.getHeader()->getNumber() << " " << Name
             << " layout: " << Plan->Layout.print() << "\n";
    Sync.erase();
    OldSchedule.erase();
    applyPlan(Work, *Plan, Ops);
    if (Plan->Layout.AsymmetricSync)
      emitAsymmetricSync(L, MF, Ops, *MDT, *MLI);
    ORE->emit([&]() {
      MachineOptimizationRemark R(DEBUG_TYPE, "Applied", L.getStartLoc(),
                                  L.getHeader());
      R << "loop %bb." << ore::NV("Loop", L.getHeader()->getNumber())
        << " of " << ore::NV("Function", MF.getName()) << ": "
        << ore::NV("Mode", Name) << " (" << ore::NV("Source", D->Source)
        << "), " << ore::NV("Waves", M.Waves) << " waves, mfma "
        << ore::NV("MFMA", std::to_string(M.Shape.M) + "x" +
                               std::to_string(M.Shape.N) + "x" +
                               std::to_string(M.Shape.K))
        << ", tile " << ore::NV("Tile", std::to_string(M.TileM) + "x" +
                                           std::to_string(M.TileN) + "x" +
                                           std::to_string(M.TileK))
        << " (" << ore::NV("TileBits", M.TileBits) << " bits); clusters: "
        << ore::NV("Clusters", Plan->describe(Work))
        << (M.OldSchedule.empty()
                ? std::string()
                : "; replaced the loop's own schedule (" +
                      std::to_string(M.OldSchedule.size()) +
                      " s_setprio/sched_barrier)")
        << "; vector registers ~" << ore::NV("VGPRs", Peak) << " (was ~"
        << ore::NV("VGPRsBefore", Before) << ", budget "
        << ore::NV("Budget", Budget) << ")"
        << (Peak > Budget && !Forced
                ? "; over the budget but below LLVM's own order: fewer spills"
                : "");
      return R;
    });
    ForcedBy.reset(); // applied: the spill note stays a remark
    if (Forced && Peak > Budget)
      missed(L, "forced " + Name + " needs about " +
                    std::to_string(Peak) + " vector registers, more than " +
                    std::to_string(Budget) + ": expect spills");
    return true;
  }
  missed(L, Tried);
  return false;
}

bool PingpongSchedule::hoistLDSDMA(MachineLoop &L, LoopModel &Region) {
  // The hoist is an explicit request: it moves DMA across the author's
  // sched_barriers (seed 002's kernel pins its phases with them). With
  // -amdgpu-pingpong-replace-schedule they are out of the model, so out of
  // the block while the graph is built, and deleted if the order applies.
  SyncDetacher OldSchedule;
  if (!Region.OldSchedule.empty())
    OldSchedule.detach(*Region.Body, Region.OldSchedule);
  DepGraph G = buildDepGraph(Region, *MLI, AA);
  unsigned Moved = 0;
  std::optional<std::vector<unsigned>> Order = hoistLDSDMAOrder(Region, G, Moved);
  if (!Order) {
    missed(L, "LDS DMA loop: every LDS DMA already starts its barrier interval");
    return false;
  }
  OldSchedule.erase();
  applyOrder(Region, *Order);
  ORE->emit([&]() {
    MachineOptimizationRemark R(DEBUG_TYPE, "HoistedDMA", L.getStartLoc(),
                                L.getHeader());
    R << "loop %bb." << ore::NV("Loop", L.getHeader()->getNumber()) << " of "
      << ore::NV("Function", L.getHeader()->getParent()->getName()) << ": "
      << ore::NV("Moved", Moved)
      << " LDS DMA loads issued at the start of their barrier interval, right "
         "after the barrier that frees their buffer";
    return R;
  });
  return true;
}

INITIALIZE_PASS(PingpongSchedule, "amdgpu-pingpong-schedule",
                "AMDGPU block pingpong (plugin)", false, false)

void pingpong::initializePingpongPasses(PassRegistry &Registry) {
  initializePingpongSchedulePass(Registry);
  initializePingpongFinalCheckPass(Registry);
  initializePingpongLoopDirectivesPass(Registry);
  initializePingpongVerifyPass(Registry);
  initializePingpongWaitsPass(Registry);
}
