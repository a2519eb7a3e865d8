//===- Folds.cpp - the LDS folds of a scheduled loop, in one place --------===//
#include "pingpong/LDS/Folds.h"
#include "pingpong/LDS/AddressSum.h"

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"

using namespace llvm;

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

  R.Addresses.emplace();
  // A loop the schedule left at its register budget gets no new live
  // range: the fold's bases and hoisted sums could tip it into spills
  // (measured: the gfx942 ns3 256x256 loop at ~252 of 256 spilled 16 B).
  if (SchedulePeak + Opts.Margin > Budget && !Opts.InjectSliceBase) {
    R.Addresses->Why = "the schedule's order needs ~" +
                       std::to_string(SchedulePeak) + " of " +
                       std::to_string(Budget) +
                       " vector registers: no room for new bases";
  } else if (!S) {
    R.Addresses->Why = NoSite;
  } else {
    LDSAddressingOptions AO;
    AO.InjectSliceBase = Opts.InjectSliceBase;
    AO.SelfCheck = Opts.SelfCheck;
    AO.MinRegistersFreed = Opts.MinRegistersFreed;
    R.Addresses = foldLDSAddresses(*S, AO);
  }

  // The M0 sums add SALU only, so the register room rule does not apply.
  if (Opts.DMADestinations && S)
    R.DMADestinations = foldDMAM0(*S, Opts.SelfCheck, Opts.InjectDMABase);
  return R;
}

} // namespace pingpong
