//===- PingpongSchedule.cpp - the pre-RA pass that applies pingpong ------===//
//
// Runs on machine SSA, just before PHI elimination (after every SSA
// optimisation, so the loop body is final but for register allocation). For
// each innermost loop with MFMAs: analyse (Analysis/LoopModel), pick a mode
// whose plan holds and fits the registers (Schedule/ModeChoice), apply it
// (Emit/), and say what happened through optimisation remarks named
// "amdgpu-pingpong" (their words: ScheduleRemarks.cpp). The pass only
// orchestrates these steps.
// AMDGPU's scheduler then schedules inside each cluster: SCHED_BARRIER 0 and
// s_setprio are scheduling boundaries for it, before and after RA.
//
//===----------------------------------------------------------------------===//
#include "ScheduleRemarks.h"

#include "pingpong/Analysis/AuthorSkew.h"
#include "pingpong/Analysis/DepGraph.h"
#include "pingpong/Analysis/Directives.h"
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Analysis/Loops.h"
#include "pingpong/Emit/Emitter.h"
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/LDS/Folds.h"
#include "pingpong/Passes/Passes.h"
#include "pingpong/Passes/Remarks.h"
#include "pingpong/Passes/ScheduledLoops.h"
#include "pingpong/Schedule/ClusterPlan.h"
#include "pingpong/Schedule/ModeChoice.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/CodeGen/MachineDominators.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/InitializePasses.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/DebugCounter.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;
using namespace pingpong;

// `llc -stats` prints these in LLVM builds with statistics (assertions or
// LLVM_FORCE_ENABLE_STATS); Debian's LLVM 22 says "Statistics are disabled"
// and the remarks (-pass-remarks-output) are the way to count there.
STATISTIC(NumDotLoops, "Loops with MFMAs looked at");
STATISTIC(NumScheduled, "Loops scheduled");
STATISTIC(NumDisabled, "Loops turned off by the user");
STATISTIC(NumOneWaveLatency, "LLVM's orders at one wave per SIMD asked for "
                             "latency (max-ilp)");
STATISTIC(NumRefusedShape,
          "Loops refused by the analysis (shape, sync, memory)");
STATISTIC(NumRefusedChoice, "Loops refused by the mode choice (thresholds, "
                            "registers, plan conflicts)");
STATISTIC(NumSkippedByCounter,
          "Loops skipped by -debug-counter=amdgpu-pingpong-loop");
// Bisecting a miscompile: -debug-counter=amdgpu-pingpong-loop=N schedules
// only the N-th loop the plugin would schedule (0-based, over the compile).
DEBUG_COUNTER(LoopCounter, "amdgpu-pingpong-loop",
              "Controls which loops the plugin schedules");

namespace llvm {
void initializePingpongSchedulePass(PassRegistry &);
void initializePingpongFinalCheckPass(PassRegistry &);
void initializePingpongLoopDirectivesPass(PassRegistry &);
void initializePingpongRotateLoopsPass(PassRegistry &);
void initializePingpongLoadLookaheadPass(PassRegistry &);
void initializePingpongDMALookaheadPass(PassRegistry &);
void initializePingpongRelocateExchangePass(PassRegistry &);
void initializePingpongFlattenLaneStoresPass(PassRegistry &);
void initializePingpongOccupancyHintPass(PassRegistry &);
void initializePingpongRematAfterLoopPass(PassRegistry &);
void initializePingpongVerifyPass(PassRegistry &);
void initializePingpongWaitsPass(PassRegistry &);
void initializePingpongReleasePointsPass(PassRegistry &);
void initializePingpongRepairDMAWaitsPass(PassRegistry &);
void initializePingpongPinLDSReadsPass(PassRegistry &);
void initializePingpongRestoreLDSReadsPass(PassRegistry &);
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
bool pingpong::replaceScheduleRequested() { return ReplaceSchedule; }

static cl::opt<bool> KeepAuthorSkew(
    "amdgpu-pingpong-keep-author-skew", cl::init(false), cl::Hidden,
    cl::desc("Test only: with -amdgpu-pingpong-replace-schedule, leave the "
             "author's wave skew around a replaced loop in place (the "
             "plugin's own comes on top), to show that the checks catch it"));

static cl::opt<bool> LatencyInsideClusters(
    "amdgpu-pingpong-latency-inside-clusters", cl::init(true),
    cl::desc("Where a scheduled loop's layout says `latency`, ask AMDGPU's "
             "machine scheduler to order the inside of each cluster for "
             "latency (amdgpu-sched-strategy=max-ilp on the function) "
             "instead of occupancy (AMDGPUPingpong plugin)"));

// Off by default since session 23 (issue 28, docs/modes.md "Session 23:
// nolossall"): what the latency strategy makes of LLVM's order is AMDGPU's
// scheduler's, after this pass, and on the tuning set's one-wave attention
// loops it goes both ways (cycles per iteration against llc-22's own order:
// bp_bf16_128x64x128 causal 8636 -> 8094, the sliding-window f16 twin 8270
// -> 9372, bp_f16 nomask 7708 -> 8332, the causal f16 twin 7682 -> 7718),
// with none of the plugin's bounds separating the two groups: auto leaves
// LLVM's order as it was.
static cl::opt<bool> OneWaveLatency(
    "amdgpu-pingpong-one-wave-latency", cl::init(false),
    cl::desc("auto, gfx942, 4-wave register-staged attention kept in LLVM's "
             "order past two waves' registers (one wave per SIMD) and not "
             "told its occupancy: ask AMDGPU's scheduler to order it for "
             "latency (amdgpu-sched-strategy=max-ilp) (default off: it "
             "gains on some such loops and loses on others; AMDGPUPingpong "
             "plugin)"));

static cl::opt<bool> PrintRoles(
    "amdgpu-pingpong-print-roles", cl::init(false),
    cl::desc("Print the role of each instruction of every analysed loop "
             "(AMDGPUPingpong plugin) to stderr"));

static cl::opt<bool> LDSAddressing(
    "amdgpu-pingpong-lds-addressing", cl::init(true),
    cl::desc("In every loop pingpong schedules, fold the LDS addresses: one "
             "base per group of accesses, loop-invariant parts summed before "
             "the loop, constants in the ds_read/ds_write offset fields; kept "
             "only where the loop gets cheaper (AMDGPUPingpong plugin; default "
             "on)"));

static cl::opt<unsigned> LDSAddressingMargin(
    "amdgpu-pingpong-lds-addressing-margin", cl::init(8), cl::Hidden,
    cl::desc("Fold LDS addresses only in loops whose schedule leaves at "
             "least this many vector registers of the budget free"));

static cl::opt<unsigned> LDSAddressingMinFreed(
    "amdgpu-pingpong-lds-addressing-min-freed", cl::init(2), cl::Hidden,
    cl::desc("Keep an LDS address fold that saves no VALU only if it frees "
             "at least this many vector registers at the loop's peak"));

static cl::opt<bool> LDSDMADestinations(
    "amdgpu-pingpong-lds-dma-destinations", cl::init(true),
    cl::desc("With -amdgpu-pingpong-lds-addressing, in every loop pingpong "
             "schedules, sum the loop-invariant part of each LDS DMA's M0 "
             "value once before the loop; kept only where the loop issues "
             "fewer SALU (AMDGPUPingpong plugin; default on)"));
static cl::opt<bool> InjectDMABase(
    "amdgpu-pingpong-lds-addressing-inject-dma-base", cl::init(false),
    cl::Hidden,
    cl::desc("Test only: give every LDS DMA of a loop the invariant M0 part "
             "of the first one with the same registers (one slice's base for "
             "all), to show that the checks catch it"));
static cl::opt<bool> InjectSliceBase(
    "amdgpu-pingpong-lds-addressing-inject-slice-base", cl::init(false),
    cl::Hidden,
    cl::desc("Test only: build each group's base from a slice's constant "
             "(seed 000's mistake), to show that the checks catch it"));

static cl::opt<bool> LDSAddressingSelfCheck(
    "amdgpu-pingpong-lds-addressing-self-check", cl::init(true), cl::Hidden,
    cl::desc("Re-read every folded LDS address and compare it with the "
             "original (an error, and no fold, if they differ)"));

/// The fold options above, for the LDS fold driver (LDS/Folds.h).
static LDSFoldOptions ldsFoldOptions() {
  LDSFoldOptions O;
  O.Addresses = LDSAddressing;
  O.DMADestinations = LDSDMADestinations;
  O.Margin = LDSAddressingMargin;
  O.SelfCheck = LDSAddressingSelfCheck;
  O.MinRegistersFreed = LDSAddressingMinFreed;
  O.InjectSliceBase = InjectSliceBase;
  O.InjectDMABase = InjectDMABase;
  return O;
}

static cl::opt<bool> VerifyCFG(
    "amdgpu-pingpong-verify-cfg", cl::init(false), cl::Hidden,
    cl::desc("After the plugin adds blocks around a loop (asymmetric sync), "
             "check the dominator tree it keeps against the "
             "new CFG (AMDGPUPingpong plugin)"));

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
    AU.addRequired<PingpongScheduledLoops>();
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
  void missed(MachineLoop &L, const Twine &Why, const MachineInstr *At = nullptr) {
    Remarks->missed(L, Why, At, ForcedBy);
  }
  void explainGlobalISel(MachineFunction &MF);
  void explainOuterDotLoops(MachineFunction &MF);

  /// The loop being planned was forced (option, attribute or metadata): a
  /// missed remark for it is also a warning, like -Wpass-failed.
  std::optional<Directive> ForcedBy;
  bool SawDotLoop = false;

  MachineOptimizationRemarkEmitter *ORE = nullptr;
  std::optional<ScheduleRemarks> Remarks;
  MachineLoopInfo *MLI = nullptr;
  MachineDominatorTree *MDT = nullptr;
  AAResults *AA = nullptr;
  PingpongScheduledLoops *Scheduled = nullptr;
};

} // namespace

/// A function whose "target-cpu" is a chip the plugin schedules, compiled by
/// a TargetMachine for another CPU (a bare `llc` without -mcpu: the code
/// object then says gfx700 while the code is gfx942's): say so once, since
/// pingpong-sim and the loader read the code object's target.
static void warnTargetMismatch(const MachineFunction &MF) {
  const Function &F = MF.getFunction();
  StringRef FnCPU = MF.getSubtarget().getCPU();
  StringRef ModuleCPU = MF.getTarget().getTargetCPU();
  if (!F.hasFnAttribute("target-cpu") || FnCPU == ModuleCPU ||
      !target::factsFor(FnCPU))
    return;
  F.getContext().diagnose(DiagnosticInfoGeneric(
      ("amdgpu-pingpong: function '" + F.getName() + "' is for " + FnCPU +
       " (its \"target-cpu\") but the module is compiled for '" +
       (ModuleCPU.empty() ? StringRef("generic") : ModuleCPU) +
       "': the code object will not name " + FnCPU + "; give -mcpu=" + FnCPU)
          .str(),
      DS_Warning));
}

char PingpongSchedule::ID = 0;
char &pingpong::PingpongSchedulePassID = PingpongSchedule::ID;


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
  warnTargetMismatch(MF);
  MLI = &getAnalysis<MachineLoopInfoWrapperPass>().getLI();
  MDT = &getAnalysis<MachineDominatorTreeWrapperPass>().getDomTree();
  AA = &getAnalysis<AAResultsWrapperPass>().getAAResults();
  ORE = &getAnalysis<MachineOptimizationRemarkEmitterPass>().getORE();
  Remarks.emplace(*ORE);
  Scheduled = &getAnalysis<PingpongScheduledLoops>();
  Scheduled->beginFunction(MF.getFunction());

  bool Changed = false;
  SawDotLoop = false;
  for (MachineLoop *L : innermostLoops(*MLI))
    Changed |= runOnLoop(*L, MF);
  ForcedBy.reset();
  if (!SawDotLoop && MF.getProperties().hasSelected())
    explainGlobalISel(MF);
  else
    explainOuterDotLoops(MF);
  return Changed;
}

/// Every loop with MFMAs gets a remark: one whose MFMAs sit outside its
/// inner loops (a K loop around copy loops that stayed loops) is never
/// innermost, so runOnLoop never sees it.
void PingpongSchedule::explainOuterDotLoops(MachineFunction &MF) {
  const OpcodeTable &T = OpcodeTable::get(*MF.getSubtarget().getInstrInfo());
  SmallVector<MachineLoop *, 8> Work(MLI->begin(), MLI->end());
  while (!Work.empty()) {
    MachineLoop *L = Work.pop_back_val();
    Work.append(L->begin(), L->end());
    if (L->isInnermost())
      continue;
    bool OwnMFMA = llvm::any_of(L->blocks(), [&](MachineBasicBlock *MBB) {
      return MLI->getLoopFor(MBB) == L &&
             llvm::any_of(*MBB, [&](const MachineInstr &MI) {
               return T.classify(MI) == InstKind::MFMA;
             });
    });
    if (!OwnMFMA)
      continue;
    std::string Error;
    std::optional<Directive> D = resolveDirective(MF.getFunction(), *L, Error);
    if (D && D->M == Mode::Off) {
      missed(*L, Twine("disabled by ") + D->Source);
      continue;
    }
    if (D && (D->M != Mode::Auto || !D->LayoutText.empty()))
      ForcedBy = D;
    std::string Inner;
    for (MachineLoop *Sub : *L)
      Inner += (Inner.empty() ? "%bb." : ", %bb.") +
               std::to_string(Sub->getHeader()->getNumber());
    missed(*L, "the loop's MFMAs are outside its inner loop(s) (" + Inner +
                   "): only innermost loops are scheduled; unroll the inner "
                   "loops (e.g. copy loops with a constant trip count and "
                   "#pragma unroll) so that the MFMA loop is innermost");
    ForcedBy.reset();
  }
}

/// The request of a loop's directive: its mode, or its layout parsed (an
/// error diagnostic and std::nullopt if the layout text does not parse).
static std::optional<ModeRequest> requestFor(const Directive &D,
                                             const LoopModel &M,
                                             MachineFunction &MF) {
  ModeRequest Req{D, std::nullopt};
  if (D.LayoutText.empty())
    return Req;
  std::string LayoutError;
  Req.Custom = parseLayout(D.LayoutText, M.NumDots, LayoutError);
  if (!Req.Custom) {
    MF.getFunction().getContext().diagnose(DiagnosticInfoGeneric(
        ("amdgpu-pingpong: in function '" + MF.getName() +
         "': invalid !llvm.loop \"amdgpu.pingpong.layout\": " + LayoutError)
            .str(),
        DS_Error));
    return std::nullopt;
  }
  return Req;
}

bool PingpongSchedule::runOnLoop(MachineLoop &L, MachineFunction &MF) {
  ForcedBy.reset();
  AnalysisOptions AOpts;
  AOpts.ReplaceSchedule = ReplaceSchedule;
  LoopAnalysis A = analyzeLoop(L, MF, AOpts);
  if (!A.IsDotLoop)
    return false; // not a dot loop: nothing to say
  SawDotLoop = true;
  ++NumDotLoops;
  LLVM_DEBUG(dbgs() << "amdgpu-pingpong: " << MF.getName() << ": loop %bb."
                    << L.getHeader()->getNumber()
                    << (A.Model ? " analysed\n" : " rejected: " + A.Why.Reason + "\n"));
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
    ++NumDisabled;
    return false;
  }
  if (D->M != Mode::Auto || !D->LayoutText.empty())
    ForcedBy = D;
  StringRef CPU = MF.getSubtarget().getCPU();
  if (!target::factsFor(CPU)) {
    missed(L, "target " + CPU + " is not supported (" +
                  target::supportedCPUList() + " only)");
    return false;
  }
  if (!MF.getRegInfo().isSSA()) {
    missed(L, "the function is no longer in SSA form at this point");
    return false;
  }
  // LDS DMA loops: no mode schedules them yet; the hoist can be asked for.
  if (A.HasLDSDMA && A.Region && DMAOpt == DMAMode::Hoist &&
      (!A.Model || A.Model->NumAsyncCopies))
    return hoistLDSDMA(L, *A.Region);
  if (!A.Model) {
    missed(L, A.Why.Reason, A.Why.At);
    ++NumRefusedShape;
    return false;
  }
  LoopModel &M = *A.Model;
  std::string Unscheduled = unscheduledShapes(M);
  if (!Unscheduled.empty()) {
    missed(L, Unscheduled + ": no mode for this yet (issue 10)");
    ++NumRefusedShape;
    return false;
  }
  const OpcodeTable::Builders &Ops =
      OpcodeTable::get(*MF.getSubtarget().getInstrInfo()).builders();
  if (!Ops.complete()) {
    missed(L, "this LLVM lacks an opcode the plugin builds");
    return false;
  }
  std::optional<ModeRequest> Req = requestFor(*D, M, MF);
  if (!Req)
    return false;

  // The author's wave skew around the loop (Triton's cond_barrier) is part
  // of the author's schedule: replaced with it, never doubled by the
  // plugin's own, and never guessed at.
  AuthorSkewSearch Skew = findAuthorSkew(L, MF, *MDT, *MLI);
  if (!Skew.Unmatched.empty()) {
    missed(L, Skew.Unmatched + " (the author's schedule is kept)", Skew.At);
    ++NumRefusedShape;
    return false;
  }
  if (Skew.Skew && !ReplaceSchedule) {
    missed(L, "the author skews the wave groups around the loop (" +
                  Skew.Skew->describe() +
                  "): the author's schedule is kept "
                  "(-amdgpu-pingpong-replace-schedule replaces it)",
           Skew.Skew->Before);
    ++NumRefusedShape;
    return false;
  }

  // Trying modes changes no MIR. A schedule already in the loop (replaced
  // on request) is out of the model; emission deletes it if a mode applies.
  PlanContext Ctx{L, MF, *MLI, *MDT, AA};
  canEmitAsymmetricSync(L, MF, Ctx.NoAsymmetricSync);
  Rejection Why;
  std::optional<ModeChoice> C = chooseMode(M, *Req, Ctx, Why);
  if (!C) {
    // LLVM's order is kept; at one wave per SIMD it is asked for latency.
    std::string Reason = Why.Reason;
    if (!Req->forced() && OneWaveLatency)
      if (std::string Latency = oneWaveLatency(M, MF);
          !Latency.empty() && askLatencyScheduling(MF)) {
        Reason += "; " + Latency;
        ++NumOneWaveLatency;
      }
    missed(L, Reason, Why.At);
    ++NumRefusedChoice;
    return false;
  }
  if (!DebugCounter::shouldExecute(LoopCounter)) {
    // The plan is dropped before anything is emitted: the loop is LLVM's.
    missed(L, "skipped by -debug-counter=amdgpu-pingpong-loop");
    ++NumSkippedByCounter;
    return false;
  }
  if (PrintRoles)
    errs() << "amdgpu-pingpong: " << MF.getName() << ": loop %bb."
           << L.getHeader()->getNumber() << " " << C->Name
           << " layout: " << C->Plan.Layout.print() << "\n";
  deleteDropped(C->Drop);
  std::string SkewNote;
  if (Skew.Skew && !KeepAuthorSkew) {
    removeAuthorSkew(*Skew.Skew, Ops, *MDT, *MLI);
    SkewNote = "; removed the author's wave skew (" + Skew.Skew->describe() + ")";
  }
  applyPlan(C->Work, C->Plan, Ops);
  for (const MachineInstr *MI : C->Plan.memoryInDot(C->Work))
    Scheduled->noteLayoutMemoryInDot(MI);
  // Without barriers the loop's own waits stay: per-operand waits come from
  // relaxing them after LLVM's wait insertion (PingpongWaits).
  if (C->Plan.Layout.OperandWaits && !C->Plan.Layout.BarrierBetweenClusters)
    Scheduled->requestWaitPlacement(*L.getHeader());
  if (C->Plan.Layout.AsymmetricSync)
    emitAsymmetricSync(L, MF, Ops, *MDT, *MLI, C->Plan.VmWaitBeforeLoop);
  else if (C->Plan.Layout.BarrierBetweenClusters)
    emitLoopEntrySync(L, Ops, C->Plan.VmWaitBeforeLoop);
  if (VerifyCFG && (C->Plan.Layout.AsymmetricSync || !SkewNote.empty()) &&
      !MDT->verify(MachineDominatorTree::VerificationLevel::Full))
    MF.getFunction().getContext().emitError(
        "amdgpu-pingpong: dominator tree out of date after the asymmetric "
        "sync (or the author's skew removed) of loop %bb." +
        Twine(L.getHeader()->getNumber()));
  std::string LatencyNote;
  if (C->Plan.Layout.LatencyInsideClusters && LatencyInsideClusters &&
      askLatencyScheduling(MF))
    LatencyNote = "; LLVM's scheduler orders inside the clusters for latency "
                  "(amdgpu-sched-strategy=max-ilp)";
  Remarks->applied(L, *D, M, *C, SkewNote + LatencyNote);
  ++NumScheduled;
  Scheduled->noteScheduled(*L.getHeader());
  Remarks->ldsFolds(L, MF, foldLDS(L, *MDT, ldsFoldOptions(), C->Peak, C->Budget));
  ForcedBy.reset(); // applied: the spill note stays a remark
  if (C->Forced && C->Peak > C->Budget)
    Remarks->overBudget(L, *C);
  return true;
}


bool PingpongSchedule::hoistLDSDMA(MachineLoop &L, LoopModel &Region) {
  // The hoist is an explicit request: it moves DMA across the author's
  // sched_barriers (seed 002's kernel pins its phases with them). With
  // -amdgpu-pingpong-replace-schedule they are out of the model, so out of
  // the graph, and deleted if the order applies.
  DepGraph G = buildDepGraph(Region, *MLI, AA);
  unsigned Moved = 0;
  std::optional<std::vector<unsigned>> Order = hoistLDSDMAOrder(Region, G, Moved);
  if (!Order) {
    missed(L, "LDS DMA loop: every LDS DMA already starts its barrier interval");
    return false;
  }
  deleteDropped(Region.OldSchedule);
  applyOrder(Region, *Order);
  Remarks->hoistedDMA(L, Moved);
  return true;
}

INITIALIZE_PASS_BEGIN(PingpongSchedule, "amdgpu-pingpong-schedule",
                      "AMDGPU block pingpong (plugin)", false, false)
INITIALIZE_PASS_DEPENDENCY(PingpongScheduledLoops)
INITIALIZE_PASS_END(PingpongSchedule, "amdgpu-pingpong-schedule",
                    "AMDGPU block pingpong (plugin)", false, false)

void pingpong::initializePingpongPasses(PassRegistry &Registry) {
  initializePingpongScheduledLoopsPass(Registry);
  initializePingpongSchedulePass(Registry);
  initializePingpongFinalCheckPass(Registry);
  initializePingpongLoopDirectivesPass(Registry);
  initializePingpongRotateLoopsPass(Registry);
  initializePingpongLoadLookaheadPass(Registry);
  initializePingpongDMALookaheadPass(Registry);
  initializePingpongRelocateExchangePass(Registry);
  initializePingpongFlattenLaneStoresPass(Registry);
  initializePingpongOccupancyHintPass(Registry);
  initializePingpongRematAfterLoopPass(Registry);
  initializePingpongVerifyPass(Registry);
  initializePingpongWaitsPass(Registry);
  initializePingpongReleasePointsPass(Registry);
  initializePingpongRepairDMAWaitsPass(Registry);
  initializePingpongPinLDSReadsPass(Registry);
  initializePingpongRestoreLDSReadsPass(Registry);
}
