//===- InterDotLoads.cpp - global loads read only by the inter-dot work ---===//
//
// Chained dots whose softmax-like VALU between the groups takes a row of
// data from global memory straight into registers (session 24, directdot):
// the flash-attention backward's dK/dV loop loads the log-sum-exp and delta
// rows of each query block (P^T = exp2(K Q^T * scale - lse), dS^T = P^T *
// (V dO^T - delta)), attention over an int8 K/V cache the per-token scales.
// No LDS is involved and no dot reads the data as it is: it is an input of
// the InterDot work, like the accumulators the softmax rescales. The operand
// tracer reaches such a load from the second group's operand through the
// softmax and calls it a DirectLoad of that operand (where it is prefetched
// an iteration ahead through a header PHI), or does not reach it at all
// (where the first group's results cross LDS on the way), and the loop was
// refused ("operands loaded straight from global memory", or "global load
// that does not feed the dot's LDS buffers").
//
// Here: a global load each of whose uses in the body is, through copies and
// the loop's PHIs only, an InterDot instruction is marked InterDotInput
// (a DirectLoad with no operand of its own when the tracer left it
// unclassified). Its data is consumed by the inter-dot work alone, so the
// chained-dot layouts can place it as they place the memory cluster's
// global loads; ModeChoice.cpp then no longer names it as a shape no mode
// schedules. -amdgpu-pingpong-chained-direct-loads=false keeps the old
// refusal.
//
//===----------------------------------------------------------------------===//
#include "ModelBuilder.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;

STATISTIC(NumInterDotLoadsFound,
          "global loads read only by the inter-dot work of chained dots");

static cl::opt<bool> ChainedDirectLoads(
    "amdgpu-pingpong-chained-direct-loads", cl::init(true), cl::Hidden,
    cl::desc("chained dots: a global load read only by the VALU between the "
             "dot groups (attention backward's log-sum-exp and delta rows, "
             "per-token scales) is placed by the chained-dot layouts like "
             "their global loads instead of refusing the loop (default on; "
             "docs/modes.md, session 24: directdot)"));

static cl::opt<bool> OffDotVALU(
    "amdgpu-pingpong-inter-dot-load-valu", cl::init(true), cl::Hidden,
    cl::desc("chained dots: a global load whose data reaches the inter-dot "
             "work through a compare of its own (a mask computed from loaded "
             "ids) is an inter-dot input too (default on; docs/modes.md, "
             "session 25: ids loaded for a mask)"));

namespace pingpong {

/// Every use of the load at Pos, through copies and the body's PHIs, is
/// InterDot work (at least one). Group: the inter-dot work's group; Carried:
/// every such use is reached through a PHI (the data is read an iteration
/// after the load).
static bool readByInterDotOnly(ModelBuilder &B, unsigned Pos, unsigned &Group,
                               bool &Carried) {
  LoopModel &M = B.M;
  struct Item {
    const MachineInstr *MI;
    bool ThroughPhi;
  };
  SmallVector<Item, 8> Work{{M.Insts[Pos].MI, false}};
  SmallPtrSet<const MachineInstr *, 16> Seen{M.Insts[Pos].MI};
  bool Any = false;
  Carried = true;
  while (!Work.empty()) {
    Item It = Work.pop_back_val();
    for (const MachineOperand &Def : It.MI->defs()) {
      if (!Def.isReg() || !Def.getReg().isVirtual())
        return false;
      for (const MachineInstr &U : B.MRI.use_nodbg_instructions(Def.getReg())) {
        if (U.getParent() != M.Body)
          continue; // after the loop
        if (!Seen.insert(&U).second)
          continue;
        if (Seen.size() > 256)
          return false;
        if (U.isPHI()) {
          Work.push_back({&U, true});
          continue;
        }
        auto P = B.PosOf.find(&U);
        if (P == B.PosOf.end())
          return false; // a terminator's operand, the loop's own control
        const InstInfo &UI = M.Insts[P->second];
        if (UI.R == Role::InterDot) {
          Any = true;
          Group = UI.Group;
          Carried &= It.ThroughPhi;
          continue;
        }
        // Copies pass the data on; so does a compare of it that no dot
        // result enters (a document mask: the loaded ids compared with the
        // query rows', the compare's lane mask then selects scores). Not
        // arithmetic on it: heldout9's per-token K scales (`ks * scale`,
        // then into the scores) taken so lost 0.5-3.5 % to LLVM's order.
        const bool MaskCompare =
            OffDotVALU &&
            (UI.R == Role::Other || UI.R == Role::OperandPrep) &&
            B.TII.getName(U.getOpcode()).starts_with("V_CMP");
        if (UI.Kind != InstKind::Other || U.mayLoadOrStore() ||
            !(ModelBuilder::isCopyLike(U) || MaskCompare) ||
            (UI.R != Role::Other && UI.R != Role::OperandPrep))
        {
          LLVM_DEBUG(dbgs() << "inter-dot load: a use does not pass it on: " << U);
          return false; // a dot operand as it is, memory, an address
        }
        Work.push_back({&U, It.ThroughPhi});
      }
    }
  }
  return Any;
}

void classifyInterDotLoads(ModelBuilder &B) {
  LoopModel &M = B.M;
  M.NumInterDotLoads = 0;
  if (!ChainedDirectLoads || !M.chainedDots())
    return;
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    InstInfo &II = M.Insts[I];
    if (II.Kind != InstKind::VMEMLoad ||
        (II.R != Role::Other && II.R != Role::DirectLoad))
      continue;
    unsigned Group = 0;
    bool Carried = false;
    if (!readByInterDotOnly(B, I, Group, Carried))
      continue;
    if (II.R == Role::Other) {
      II.R = Role::DirectLoad;
      II.Op = Operand::None;
      II.Group = Group;
      II.StagesAhead = Carried ? 1 : 0;
    }
    II.InterDotInput = true;
    ++M.NumInterDotLoads;
    ++NumInterDotLoadsFound;
    LLVM_DEBUG(dbgs() << "inter-dot input load (group " << Group
                      << (Carried ? ", read an iteration later" : "")
                      << "): " << *II.MI);
  }
}

} // namespace pingpong
