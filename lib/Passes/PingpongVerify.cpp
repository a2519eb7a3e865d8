//===- PingpongVerify.cpp - -amdgpu-pingpong-verify ------------------------===//
//
// Runs the soundness checker (Analysis/SyncCheck) on every innermost
// single-block loop that touches LDS, at the very end of the machine
// pipeline (after the last pass that can add or drop waits). A finding is an
// error naming the instruction; a clean loop gets an analysis remark.
// Inserted only when -amdgpu-pingpong-verify is given; -run-pass works on MIR.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/Loops.h"
#include "pingpong/Analysis/SyncCheck.h"
#include "pingpong/Analysis/WaveValues.h"
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/Passes/Passes.h"
#include "pingpong/Passes/Remarks.h"
#include "pingpong/Sync/SyncRules.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
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

static cl::opt<bool> VerifyOpt(
    "amdgpu-pingpong-verify", cl::init(false),
    cl::desc("Check the waits and barriers of every LDS-using loop in the "
             "final code: per-wave register waits, cross-wave LDS ordering, "
             "equal barrier counts (AMDGPUPingpong plugin); a finding is an "
             "error"));

bool pingpong::verifyRequested() { return VerifyOpt; }

namespace llvm {
void initializePingpongVerifyPass(PassRegistry &);
}

namespace {
class PingpongVerify : public MachineFunctionPass {
public:
  static char ID;
  PingpongVerify() : MachineFunctionPass(ID) {}
  StringRef getPassName() const override {
    return "AMDGPU block pingpong wait/barrier checker";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesAll();
    AU.addRequired<MachineLoopInfoWrapperPass>();
    AU.addRequired<MachineOptimizationRemarkEmitterPass>();
    MachineFunctionPass::getAnalysisUsage(AU);
  }
  bool runOnMachineFunction(MachineFunction &MF) override;
};
} // namespace

char PingpongVerify::ID = 0;

static std::string branchText(const MachineInstr &MI) {
  std::string S;
  raw_string_ostream OS(S);
  MI.print(OS, /*IsStandalone=*/true, /*SkipOpers=*/false, /*SkipDebugLoc=*/true,
           /*AddNewLine=*/false);
  return S;
}
char &pingpong::PingpongVerifyPassID = PingpongVerify::ID;

bool PingpongVerify::runOnMachineFunction(MachineFunction &MF) {
  StringRef CPU = MF.getSubtarget().getCPU();
  auto &ORE = getAnalysis<MachineOptimizationRemarkEmitterPass>().getORE();
  const OpcodeTable &T = OpcodeTable::get(*MF.getSubtarget().getInstrInfo());
  MachineLoopInfo &MLI = getAnalysis<MachineLoopInfoWrapperPass>().getLI();
  // A loop the check cannot read (more than one block) that shares LDS
  // across a barrier: asked for a proof, say there is none (Triton's
  // four-stage attention keeps a 4-block loop whose prologue refill races;
  // only pingpong-sim verify, which runs every wave, can tell).
  if (sync::targetForCPU(CPU))
    for (MachineLoop *L : innermostLoops(MLI)) {
      if (L->getNumBlocks() == 1)
        continue;
      bool TouchesLDS = false, Barrier = false;
      for (const MachineBasicBlock *MBB : L->blocks())
        for (const MachineInstr &MI : MBB->instrs()) {
          InstKind K = T.classify(MI);
          TouchesLDS |= K == InstKind::LDSRead || K == InstKind::LDSWrite ||
                        K == InstKind::LDSDMA || K == InstKind::LDSOther;
          Barrier |= K == InstKind::Barrier;
        }
      if (TouchesLDS && Barrier)
        MF.getFunction().getContext().diagnose(DiagnosticInfoGeneric(
            (Twine(diagnosticPlace("amdgpu-pingpong-verify", *L->getHeader())) +
             ": cannot prove the waits and barriers: the loop has " +
             Twine(L->getNumBlocks()) +
             " blocks and the check reads single-block loops; "
             "`pingpong-sim verify` runs every wave")
                .str(),
            DS_Warning));
    }
  for (MachineLoop *L : innermostLoops(MLI, /*SingleBlockOnly=*/true)) {
    bool TouchesLDS = false;
    for (const MachineInstr &MI : L->getHeader()->instrs()) {
      InstKind K = T.classify(MI);
      TouchesLDS |= K == InstKind::LDSRead || K == InstKind::LDSWrite ||
                    K == InstKind::LDSDMA || K == InstKind::LDSOther;
    }
    if (!TouchesLDS)
      continue;
    if (!sync::targetForCPU(CPU)) {
      // gfx10+ split or widen the counters (vscnt, gfx12 loadcnt/dscnt...).
      ORE.emit([&]() {
        return MachineOptimizationRemarkMissed(DEBUG_TYPE, "VerifyUnsupported",
                                               L->getStartLoc(), L->getHeader())
               << "wait/barrier check: target " << CPU
               << " has other counters than gfx9's vmcnt/lgkmcnt: not checked";
      });
      continue;
    }
    SyncReport R = checkLoopSync(*L, MF);
    // Not proven is not clean: a warning, so that a compile never stays
    // silent where pingpong-sim verify, which runs every wave, might not.
    if (R.UnmodelledWaveBranch || R.WavesOffPath)
      MF.getFunction().getContext().diagnose(DiagnosticInfoGeneric(
          (Twine(diagnosticPlace("amdgpu-pingpong-verify", *L->getHeader())) +
           ": cannot prove the waits and barriers: " +
           (R.UnmodelledWaveBranch
                ? "the kernel branches on the wave id around an s_barrier (`" +
                      branchText(*R.UnmodelledWaveBranch) +
                      "`) and the check cannot compute which waves go which "
                      "way (checked as if every wave took the same way there)"
                : waveSetName(R.WavesOffPath) +
                      " do not run the loop (the loop was checked alone)") +
           "; `pingpong-sim verify` runs every wave")
              .str(),
          DS_Warning));
    if (!R.PacingGap.empty())
      MF.getFunction().getContext().diagnose(DiagnosticInfoGeneric(
          (Twine(diagnosticPlace("amdgpu-pingpong-verify", *L->getHeader())) +
           ": cannot prove the pacing: " + R.PacingGap +
           "; `pingpong-sim verify` runs every wave")
              .str(),
          DS_Warning));
    if (!R.Findings.empty()) {
      const SyncFinding &F = R.Findings.front();
      MF.getFunction().getContext().diagnose(DiagnosticInfoGeneric(
          (Twine(diagnosticPlace("amdgpu-pingpong-verify", *L->getHeader())) +
           ": " + F.Message)
              .str(),
          DS_Error));
      continue;
    }
    // Pairs not proven ordered: "cannot prove", never an error (the build
    // goes on), but a warning: the user asked for a proof and did not get
    // one, and the code may race (Triton's TwoPP race of #11696 on bytes
    // the check cannot tell apart is one; pingpong-sim verify decides).
    if (!R.Unproven.empty())
      MF.getFunction().getContext().diagnose(DiagnosticInfoGeneric(
          (Twine(diagnosticPlace("amdgpu-pingpong-verify", *L->getHeader())) +
           ": cannot prove " + Twine(R.UnprovenPairs) +
           " LDS pair(s) ordered (no finding: a race is reported only on "
           "bytes or a buffer that are known; `pingpong-sim verify` computes "
           "the addresses); first: " +
           R.Unproven.front().Message)
              .str(),
          DS_Warning));
    ORE.emit([&]() {
      MachineOptimizationRemarkAnalysis Rm(DEBUG_TYPE, "Verified",
                                           L->getStartLoc(), L->getHeader());
      Rm << "wait/barrier check, ";
      nameLoop(Rm, *L->getHeader()) << ": "
         << ore::NV("LDSAccesses", R.LDSAccesses) << " LDS accesses, "
         << ore::NV("Barriers", R.Barriers) << " barriers per iteration, "
         << (R.Asymmetric ? "wave groups " + std::to_string(R.GroupOffset) +
                                " barrier(s) apart"
                          : std::string("one wave group"))
         << (R.WholeKernel ? ", whole kernel path" : ", loop only") << ", " << ore::NV("Pairs", R.PairsChecked)
         << " cross-wave pairs checked: no finding";
      if (R.UnprovenPairs)
        Rm << ", " << ore::NV("CannotProve", R.UnprovenPairs)
           << " cannot be proven ordered";
      return Rm;
    });
  }
  return false;
}

INITIALIZE_PASS(PingpongVerify, "amdgpu-pingpong-sync-check",
                "AMDGPU block pingpong wait/barrier checker (plugin)", false,
                true)
