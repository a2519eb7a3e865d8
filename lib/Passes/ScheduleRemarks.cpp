//===- ScheduleRemarks.cpp - what the schedule pass says about a loop ----===//
//
// The words of the schedule pass's remarks (ScheduleRemarks.h).
//
//===----------------------------------------------------------------------===//
#include "ScheduleRemarks.h"

#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/LDS/Folds.h"
#include "pingpong/Passes/Remarks.h"
#include "pingpong/Schedule/ClusterPlan.h"
#include "pingpong/Schedule/ModeChoice.h"

#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;
using namespace pingpong;

static /// Each chained dot's shape per wave: accumulators x K steps of which MFMA.
std::string dotShapes(const LoopModel &M) {
  std::string S;
  for (unsigned G = 0; G < M.Groups.size(); ++G) {
    const DotGroup &DG = M.Groups[G];
    S += (G ? ", " : "") + std::to_string(G) + ": " +
         std::to_string(DG.NumAccumulators) + " accumulators x " +
         std::to_string(DG.ChainLen) + " K steps of " +
         std::to_string(DG.Shape.M) + "x" + std::to_string(DG.Shape.N) + "x" +
         std::to_string(DG.Shape.K);
  }
  return S;
}

void ScheduleRemarks::missed(MachineLoop &L, const Twine &Why,
                             const MachineInstr *At,
                             const std::optional<Directive> &ForcedBy) {
  ORE.emit([&]() {
    DebugLoc DL = At && At->getDebugLoc() ? At->getDebugLoc() : L.getStartLoc();
    MachineOptimizationRemarkMissed R(DEBUG_TYPE, "NotApplied", DL,
                                      L.getHeader());
    nameLoop(R, *L.getHeader())
        << ": no pingpong: " << ore::NV("Reason", Why.str());
    return R;
  });
  if (ForcedBy) {
    std::string Msg = (loopName(*L.getHeader()) + ": amdgpu-pingpong " +
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

void ScheduleRemarks::applied(MachineLoop &L, const Directive &D,
                              const LoopModel &M, const ModeChoice &C,
                              const std::string &SkewNote) {
  ORE.emit([&]() {
    MachineOptimizationRemark R(DEBUG_TYPE, "Applied", L.getStartLoc(),
                                L.getHeader());
    nameLoop(R, *L.getHeader()) << ": " << ore::NV("Mode", C.Name)
      << " (" << ore::NV("Source", D.Source) << "), "
      << ore::NV("Waves", M.Waves) << " waves, mfma "
      << ore::NV("MFMA", std::to_string(M.Shape.M) + "x" +
                             std::to_string(M.Shape.N) + "x" +
                             std::to_string(M.Shape.K));
    // Chained dots have no single GEMM tile: each dot's shape instead.
    if (M.chainedDots() && !M.TileBits)
      R << ", dots " << ore::NV("Dots", dotShapes(M));
    else
      R << ", tile " << ore::NV("Tile", M.tileText())
        << " (" << ore::NV("TileBits", M.TileBits) << " bits)";
    if (!C.Plan.Layout.Note.empty())
      R << "; " << ore::NV("Variant", C.Plan.Layout.Note);
    R << "; clusters: "
      << ore::NV("Clusters", C.Plan.describe(C.Work))
      << (M.OldSchedule.empty()
              ? std::string()
              : "; replaced the loop's own schedule (" +
                    std::to_string(M.OldSchedule.size()) +
                    " s_setprio/sched_barrier)")
      << SkewNote
      << "; vector registers ~" << ore::NV("VGPRs", C.Peak) << " (was ~"
      << ore::NV("VGPRsBefore", C.Before) << ", budget "
      << ore::NV("Budget", C.Budget) << ")"
      << (C.Peak > C.Budget && !C.Forced
              ? "; over the budget but below LLVM's own order: fewer spills"
              : "");
    return R;
  });
}

/// The LDS folds' results as remarks (issue 12): the address fold's either
/// way, the M0 fold's where the loop has LDS DMAs; a self-check that failed
/// is an error.
void ScheduleRemarks::ldsFolds(MachineLoop &L, MachineFunction &MF,
                               const LDSFoldResults &R) {
  MachineBasicBlock &Body = *L.getHeader();
  auto SelfCheck = [&](const FoldStatus &S, StringRef LeftAsItWas) {
    if (S.SelfCheckFailed)
      MF.getFunction().getContext().diagnose(DiagnosticInfoGeneric(
          (Twine(diagnosticPlace("amdgpu-pingpong", Body)) + ": " +
           LeftAsItWas + ": " + S.Why)
              .str(),
          DS_Error));
  };
  // A fold's remark: "folded" (Name) or "kept" (KeptName, an analysis);
  // Text writes what follows the loop's name into either.
  auto Emit = [&](const FoldStatus &S, StringRef Name, StringRef KeptName,
                  auto Text) {
    if (S.Changed)
      ORE.emit([&]() {
        MachineOptimizationRemark Rem(DEBUG_TYPE, Name, L.getStartLoc(),
                                      &Body);
        Text(nameLoop(Rem, Body));
        return Rem;
      });
    else
      ORE.emit([&]() {
        MachineOptimizationRemarkAnalysis Rem(DEBUG_TYPE, KeptName,
                                              L.getStartLoc(), &Body);
        Text(nameLoop(Rem, Body));
        return Rem;
      });
  };

  if (const std::optional<LDSAddressingResult> &A = R.Addresses) {
    SelfCheck(*A, "LDS addressing left as it was");
    auto Numbers = [&](auto &Rem) {
      Rem << ore::NV("Accesses", A->Accesses) << " LDS accesses in "
          << ore::NV("Groups", A->Groups) << " base groups; VALU per iteration "
          << ore::NV("ValuBefore", A->ValuBefore) << " -> "
          << ore::NV("ValuAfter", A->ValuAfter) << ", SALU "
          << ore::NV("SaluBefore", A->SaluBefore) << " -> "
          << ore::NV("SaluAfter", A->SaluAfter)
          << ", peak vector registers live in the loop "
          << ore::NV("VgprsBefore", A->VgprsBefore) << " -> "
          << ore::NV("VgprsAfter", A->VgprsAfter);
    };
    Emit(*A, "LDSAddressing", "LDSAddressingKept", [&](auto &Rem) {
      if (A->Changed) {
        Rem << ": LDS addresses folded: ";
        Numbers(Rem);
        Rem << " (groups: " << ore::NV("GroupsHoisted", A->GroupsHoisted)
            << " hoisted, " << ore::NV("GroupsInLoop", A->GroupsInLoop)
            << " summed in the loop, " << ore::NV("GroupsKept", A->GroupsKept)
            << " kept; " << ore::NV("Hoisted", A->Hoisted)
            << " invariant sums before the loop)";
        return;
      }
      Rem << ": LDS addresses kept: " << ore::NV("Reason", A->Why);
      if (A->ValuBefore) {
        Rem << " (";
        Numbers(Rem);
        Rem << ")";
      }
    });
  }

  if (const std::optional<DMAM0Result> &D = R.DMADestinations) {
    SelfCheck(*D, "LDS DMA M0 sums left as they were");
    if (D->Writes)
      Emit(*D, "LDSDMADestinations", "LDSDMADestinationsKept",
           [&](auto &Rem) {
             if (D->Changed)
               Rem << ": LDS DMA destinations folded: "
                   << ore::NV("Rewritten", D->Rewritten) << " of "
                   << ore::NV("Writes", D->Writes)
                   << " M0 writes; SALU per iteration "
                   << ore::NV("SaluBefore", D->SaluBefore) << " -> "
                   << ore::NV("SaluAfter", D->SaluAfter) << " ("
                   << ore::NV("Hoisted", D->Hoisted)
                   << " additions before the loop)";
             else
               Rem << ": LDS DMA destinations kept ("
                   << ore::NV("Writes", D->Writes)
                   << " M0 writes): " << ore::NV("Reason", D->Why);
           });
  }
}
void ScheduleRemarks::overBudget(MachineLoop &L, const ModeChoice &C) {
  ORE.emit([&]() {
    MachineOptimizationRemarkMissed R(DEBUG_TYPE, "OverBudget", L.getStartLoc(),
                                      L.getHeader());
    nameLoop(R, *L.getHeader()) << ": forced " << C.Name
      << " needs about " << ore::NV("VGPRs", C.Peak)
      << " vector registers, more than " << ore::NV("Budget", C.Budget)
      << ": "
      << (C.Work.Waves >= 8 ? "expect spills"
                            : "expect one wave per SIMD (no partner wave)");
    return R;
  });
}

void ScheduleRemarks::hoistedDMA(MachineLoop &L, unsigned Moved) {
  ORE.emit([&]() {
    MachineOptimizationRemark R(DEBUG_TYPE, "HoistedDMA", L.getStartLoc(),
                                L.getHeader());
    nameLoop(R, *L.getHeader()) << ": " << ore::NV("Moved", Moved)
      << " LDS DMA loads issued at the start of their barrier interval, right "
         "after the barrier that frees their buffer";
    return R;
  });
}
