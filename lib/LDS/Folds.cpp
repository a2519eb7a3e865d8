//===- Folds.cpp - the LDS folds of a scheduled loop, in one place --------===//
#include "pingpong/LDS/Folds.h"
#include "pingpong/LDS/AddressSum.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

#define DEBUG_TYPE "amdgpu-pingpong"

STATISTIC(NumAddressFolds, "Loops whose LDS addresses were folded");
STATISTIC(NumNoRoom, "Loops too close to the register budget for the "
                     "LDS address fold");
STATISTIC(NumDMAFolds, "Loops whose LDS DMA M0 sums were folded");
STATISTIC(NumSelfCheckFailed, "LDS folds undone by their self-check");

namespace pingpong {

/// What both folds need of L: a FoldSite, or why L has none.
static std::optional<FoldSite> foldSite(MachineLoop &L,
                                        const MachineDominatorTree &MDT,
                                        std::string &Why) {
  if (L.getNumBlocks() != 1) {
    Why = "the loop has more than one block";
    return std::nullopt;
  }
  MachineBasicBlock *Pre = blockBeforeLoop(L, MDT);
  if (!Pre) {
    Why = "no block before the loop dominates it";
    return std::nullopt;
  }
  if (!L.getHeader()->getParent()->getRegInfo().isSSA()) {
    Why = "the function is no longer in SSA form";
    return std::nullopt;
  }
  return FoldSite{*L.getHeader(), *Pre};
}

LDSFoldResults foldLDS(MachineLoop &L, const MachineDominatorTree &MDT,
                       const LDSFoldOptions &Opts, unsigned SchedulePeak,
                       unsigned Budget) {
  LDSFoldResults R;
  if (!Opts.Addresses)
    return R;
  std::string NoSite;
  std::optional<FoldSite> S = foldSite(L, MDT, NoSite);

  // A loop the schedule left at its register budget gets no new live
  // range: the fold's bases and hoisted sums could tip it into spills
  // (measured: the gfx942 ns3 256x256 loop at ~252 of 256 spilled 16 B).
  const bool NoRoom =
      SchedulePeak + Opts.Margin > Budget && !Opts.InjectSliceBase;
  LDSAddressingResult &A = R.Addresses.emplace();
  if (NoRoom) {
    A.Why = "the schedule's order needs ~" + std::to_string(SchedulePeak) +
            " of " + std::to_string(Budget) +
            " vector registers: no room for new bases";
    ++NumNoRoom;
  } else if (!S) {
    A.Why = NoSite;
  } else {
    LDSAddressingOptions AO;
    AO.InjectSliceBase = Opts.InjectSliceBase;
    AO.SelfCheck = Opts.SelfCheck;
    AO.MinRegistersFreed = Opts.MinRegistersFreed;
    A = foldLDSAddresses(*S, AO);
  }
  NumAddressFolds += A.Changed;
  NumSelfCheckFailed += A.SelfCheckFailed;
  LLVM_DEBUG(dbgs() << "amdgpu-pingpong: LDS folds of loop %bb."
                    << L.getHeader()->getNumber() << ": addresses "
                    << (A.Changed ? "folded" : A.Why));

  // The M0 sums add SALU only, so the register room rule does not apply.
  if (Opts.DMADestinations && S) {
    DMAM0Result &D = R.DMADestinations.emplace(
        foldDMAM0(*S, Opts.SelfCheck, Opts.InjectDMABase));
    NumDMAFolds += D.Changed;
    NumSelfCheckFailed += D.SelfCheckFailed;
    LLVM_DEBUG(dbgs() << "; M0 sums " << (D.Changed ? "folded" : D.Why));
  }
  LLVM_DEBUG(dbgs() << "\n");
  return R;
}

} // namespace pingpong
