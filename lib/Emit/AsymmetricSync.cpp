//===- AsymmetricSync.cpp - shift waves 4-7 one cluster behind -----------===//
//
//   preheader: s_waitcnt lgkmcnt(0); s_barrier      ; everyone: prologue LDS
//              (left out when the prologue ends with a __syncthreads)
//              s = readfirstlane(tid.x) & 256        ; wave group (waves 4-7)
//              s_cbranch_scc0 header                 ; low group skips
//   pre.bar:   s_barrier                             ; high group: one extra
//   ...loop, clusters separated by s_barrier...
//   exit.cond: s_cmp_lg_u32 s, 0; s_cbranch_scc1 exit ; high group skips
//   exit.bar:  s_barrier                             ; low group catches up
//
// The condition is wave-uniform, so plain scalar branches do (no exec mask);
// every wave runs the same number of barriers.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Emit/Emitter.h"
#include "pingpong/Analysis/AuthorSkew.h"
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/ISA/Waitcnt.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/CodeGen/MachineDomTreeUpdater.h"
#include "llvm/CodeGen/MachineDominators.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"

using namespace llvm;
namespace pingpong {

/// True if Reg is read in MBB before any instruction defines it.
static bool readBeforeDef(const MachineBasicBlock &MBB, MCRegister Reg,
                          const TargetRegisterInfo &TRI) {
  for (const MachineInstr &MI : MBB) {
    if (MI.readsRegister(Reg, &TRI))
      return true;
    if (MI.definesRegister(Reg, &TRI))
      return false;
  }
  return false;
}

/// Machine SSA: a new predecessor NewPred brings the same values as Pred.
static void addPhiIncoming(MachineBasicBlock &MBB, MachineBasicBlock *Pred,
                           MachineBasicBlock *NewPred) {
  for (MachineInstr &Phi : MBB.phis()) {
    Register In;
    for (unsigned Op = 1; Op + 1 < Phi.getNumOperands(); Op += 2)
      if (Phi.getOperand(Op + 1).getMBB() == Pred)
        In = Phi.getOperand(Op).getReg();
    if (In)
      MachineInstrBuilder(*MBB.getParent(), Phi).addReg(In).addMBB(NewPred);
  }
}

/// True when the code before the loop already ends its LDS traffic with a
/// drained workgroup barrier (a __syncthreads: release fence or wait, then
/// s_barrier), or has none, so the loop needs no extra full barrier before
/// the skew.
static bool ldsSyncedBeforeLoop(MachineBasicBlock *Pre, const OpcodeTable &T) {
  for (MachineBasicBlock *B = Pre; B;
       B = B->pred_size() == 1 ? *B->pred_begin() : nullptr) {
    for (auto It = B->rbegin(); It != B->rend(); ++It) {
      InstKind K = T.classify(*It);
      if (K == InstKind::LDSRead || K == InstKind::LDSWrite ||
          K == InstKind::LDSOther || K == InstKind::LDSDMA)
        return false;
      if (K == InstKind::Barrier) {
        auto Before = std::next(It);
        return Before != B->rend() &&
               (T.classify(*Before) == InstKind::Fence ||
                T.classify(*Before) == InstKind::Waitcnt);
      }
    }
    if (B->pred_empty())
      return true; // reached the entry: no LDS access before the loop
  }
  return false;
}

/// Before the loop (at Pos in its preheader): s_waitcnt lgkmcnt(0) (and
/// vmcnt(VmBeforeLoop) where >= 0) and an s_barrier, unless the prologue
/// ends its LDS traffic with a __syncthreads and no LDS DMA is due.
static bool emitEntryBarrier(MachineBasicBlock &Pre,
                             MachineBasicBlock::iterator Pos,
                             const OpcodeTable::Builders &Ops,
                             int VmBeforeLoop) {
  const TargetInstrInfo &TII = *Pre.getParent()->getSubtarget().getInstrInfo();
  bool Synced = ldsSyncedBeforeLoop(&Pre, OpcodeTable::get(TII));
  if (Synced && VmBeforeLoop < 0)
    return false;
  Waitcnt W = Waitcnt::lgkm(0);
  if (VmBeforeLoop >= 0)
    W.Vm = VmBeforeLoop;
  DebugLoc DL;
  BuildMI(Pre, Pos, DL, TII.get(Ops.SWaitcnt)).addImm(W.encodeGfx9());
  BuildMI(Pre, Pos, DL, TII.get(Ops.SBarrier));
  return true;
}

bool emitLoopEntrySync(MachineLoop &L, const OpcodeTable::Builders &Ops,
                       int VmBeforeLoop) {
  MachineBasicBlock *Pre = L.getLoopPreheader();
  if (!Pre)
    return false;
  emitEntryBarrier(*Pre, Pre->getFirstTerminator(), Ops, VmBeforeLoop);
  return true;
}

bool canEmitAsymmetricSync(MachineLoop &L, MachineFunction &MF,
                           std::string &Why) {
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
  MachineBasicBlock *Pre = L.getLoopPreheader();
  MachineBasicBlock *Exit = L.getExitBlock();
  if (!Pre || !Exit || L.getExitingBlock() != L.getHeader()) {
    Why = "asymmetric sync needs a loop with a preheader and a single exit";
    return false;
  }
  for (MachineInstr &T : Pre->terminators())
    if (!T.isUnconditionalBranch()) {
      Why = "asymmetric sync: the preheader ends in a conditional branch";
      return false;
    }
  MCRegister V0 = physRegNamed(TRI, "VGPR0");
  if (!V0 || !MF.front().isLiveIn(V0)) {
    Why = "asymmetric sync needs the workitem id (v0) and the kernel does "
          "not read it";
    return false;
  }
  MCRegister SCC = physRegNamed(TRI, "SCC");
  if (!SCC || readBeforeDef(*L.getHeader(), SCC, TRI) ||
      readBeforeDef(*Exit, SCC, TRI)) {
    Why = "asymmetric sync: SCC is live into the loop or its exit";
    return false;
  }
  return true;
}

void emitAsymmetricSync(MachineLoop &L, MachineFunction &MF,
                        const OpcodeTable::Builders &Ops,
                        MachineDominatorTree &MDT, MachineLoopInfo &MLI,
                        int VmBeforeLoop) {
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
  MachineRegisterInfo &MRI = MF.getRegInfo();
  MachineBasicBlock *Pre = L.getLoopPreheader();
  MachineBasicBlock *Header = L.getHeader();
  MachineBasicBlock *Exit = L.getExitBlock();
  DebugLoc DL;

  const MCInstrDesc &RFL = TII.get(Ops.VReadFirstLane);
  const MCInstrDesc &And = TII.get(Ops.SAndB32);
  Register Wave = MRI.createVirtualRegister(TII.getRegClass(RFL, 0));
  Register High = MRI.createVirtualRegister(TII.getRegClass(And, 0));

  // The workitem id: isel's copy of the v0 live-in, or a new one.
  MCRegister V0 = physRegNamed(TRI, "VGPR0");
  MachineBasicBlock &Entry = MF.front();
  Register Tid;
  for (MachineInstr &MI : Entry)
    if (MI.isCopy() && MI.getOperand(1).getReg() == V0 &&
        !MI.getOperand(1).getSubReg() && MI.getOperand(0).getReg().isVirtual())
      Tid = MI.getOperand(0).getReg();
  if (!Tid) {
    const MCInstrDesc &Mov = TII.get(Ops.VMovB32);
    Tid = MRI.createVirtualRegister(TII.getRegClass(Mov, 0));
    BuildMI(Entry, Entry.begin(), DL, TII.get(TargetOpcode::COPY), Tid)
        .addReg(V0);
  }

  // Preheader: a full barrier unless the prologue ends with one (every wave
  // at the same count, prologue LDS writes visible), then the wave group and
  // the branch around the extra barrier.
  // With LDS DMA the prologue's copies read in the first iterations must
  // have landed (VmBeforeLoop) before that barrier: the loop's own wait for
  // them moved to where its layout wants it.
  Pre->erase(Pre->getFirstTerminator(), Pre->end());
  emitEntryBarrier(*Pre, Pre->end(), Ops, VmBeforeLoop);
  BuildMI(*Pre, Pre->end(), DL, RFL, Wave).addReg(Tid);
  // Waves 4-7 of a 512-lane workgroup have bit 8 of tid.x set.
  BuildMI(*Pre, Pre->end(), DL, And, High).addReg(Wave).addImm(target::waveGroupBit());
  MachineBasicBlock *PreBar = MF.CreateMachineBasicBlock(Pre->getBasicBlock());
  MF.insert(std::next(Pre->getIterator()), PreBar);
  BuildMI(*Pre, Pre->end(), DL, TII.get(Ops.SCBranchSCC0)).addMBB(Header);
  BuildMI(*Pre, Pre->end(), DL, TII.get(Ops.SBranch)).addMBB(PreBar);
  Pre->addSuccessor(PreBar);
  BuildMI(*PreBar, PreBar->end(), DL, TII.get(Ops.SBarrier));
  BuildMI(*PreBar, PreBar->end(), DL, TII.get(Ops.SBranch)).addMBB(Header);
  PreBar->addSuccessor(Header);
  addPhiIncoming(*Header, Pre, PreBar);

  // Exit edge: waves 0-3 run one extra barrier.
  MachineBasicBlock *ExitCond =
      MF.CreateMachineBasicBlock(Exit->getBasicBlock());
  MachineBasicBlock *ExitBar = MF.CreateMachineBasicBlock(Exit->getBasicBlock());
  MF.insert(std::next(Header->getIterator()), ExitCond);
  MF.insert(std::next(ExitCond->getIterator()), ExitBar);
  Header->ReplaceUsesOfBlockWith(Exit, ExitCond);
  Exit->replacePhiUsesWith(Header, ExitCond);
  BuildMI(*ExitCond, ExitCond->end(), DL, TII.get(Ops.SCmpLgU32))
      .addReg(High)
      .addImm(0);
  BuildMI(*ExitCond, ExitCond->end(), DL, TII.get(Ops.SCBranchSCC1)).addMBB(Exit);
  BuildMI(*ExitCond, ExitCond->end(), DL, TII.get(Ops.SBranch)).addMBB(ExitBar);
  ExitCond->addSuccessor(Exit);
  ExitCond->addSuccessor(ExitBar);
  BuildMI(*ExitBar, ExitBar->end(), DL, TII.get(Ops.SBarrier));
  BuildMI(*ExitBar, ExitBar->end(), DL, TII.get(Ops.SBranch)).addMBB(Exit);
  ExitBar->addSuccessor(Exit);
  addPhiIncoming(*Exit, ExitCond, ExitBar);

  // Keep the dominator tree valid (later passes reuse it): the edges the
  // CFG now has instead of Pre->Header and Header->Exit.
  MachineDomTreeUpdater MDTU(&MDT, MachineDomTreeUpdater::UpdateStrategy::Eager);
  MDTU.applyUpdates({{MachineDominatorTree::Insert, Pre, PreBar},
                     {MachineDominatorTree::Insert, PreBar, Header},
                     {MachineDominatorTree::Insert, Header, ExitCond},
                     {MachineDominatorTree::Insert, ExitCond, Exit},
                     {MachineDominatorTree::Insert, ExitCond, ExitBar},
                     {MachineDominatorTree::Insert, ExitBar, Exit},
                     {MachineDominatorTree::Delete, Header, Exit}});
  if (MachineLoop *Parent = L.getParentLoop())
    for (MachineBasicBlock *New : {PreBar, ExitCond, ExitBar})
      Parent->addBasicBlockToLoop(New, MLI);
}

/// One half of an author's skew: A branches to S (only the barrier) or to
/// the join J. Afterwards A jumps to J and S is gone. S dominates nothing
/// (J has A as a predecessor too), so the dominator tree only loses S.
static void removeHalf(MachineInstr &Barrier, MachineInstr &Branch,
                       const OpcodeTable::Builders &Ops,
                       MachineDominatorTree &MDT, MachineLoopInfo &MLI) {
  MachineBasicBlock *S = Barrier.getParent(), *A = Branch.getParent();
  MachineBasicBlock *J = *S->succ_begin();
  MachineFunction &MF = *A->getParent();
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  MachineRegisterInfo &MRI = MF.getRegInfo();
  const OpcodeTable &T = OpcodeTable::get(TII);
  DebugLoc DL = Branch.getDebugLoc();
  Register Saved, Cond;
  if (T.name(Branch.getOpcode()) == "SI_IF") {
    Saved = Branch.getOperand(0).getReg();
    Cond = Branch.getOperand(1).getReg();
  }
  A->erase(A->getFirstTerminator(), A->end());
  BuildMI(*A, A->end(), DL, TII.get(Ops.SBranch)).addMBB(J);
  if (Saved)
    for (MachineInstr &MI : llvm::make_early_inc_range(*J))
      if (T.name(MI.getOpcode()) == "SI_END_CF" && MI.getOperand(0).isReg() &&
          MI.getOperand(0).getReg() == Saved)
        MI.eraseFromParent();
  // The lane mask only fed the branch: its compare goes too.
  if (Cond && Cond.isVirtual() && MRI.use_nodbg_empty(Cond))
    if (MachineInstr *Def = MRI.getUniqueVRegDef(Cond))
      Def->eraseFromParent();
  for (MachineInstr &Phi : J->phis())
    for (unsigned Op = Phi.getNumOperands() - 1; Op >= 2; Op -= 2)
      if (Phi.getOperand(Op).getMBB() == S) {
        Phi.removeOperand(Op);
        Phi.removeOperand(Op - 1);
      }
  A->removeSuccessor(S);
  S->removeSuccessor(J);
  MDT.eraseNode(S);
  if (MLI.getLoopFor(S))
    MLI.removeBlock(S);
  S->eraseFromParent();
}

void removeAuthorSkew(const AuthorSkew &Skew, const OpcodeTable::Builders &Ops,
                      MachineDominatorTree &MDT, MachineLoopInfo &MLI) {
  // Both halves or neither: each wave still runs as many barriers as every
  // other, now without the author's offset under the plugin's.
  removeHalf(*Skew.Before, *Skew.BeforeBranch, Ops, MDT, MLI);
  removeHalf(*Skew.After, *Skew.AfterBranch, Ops, MDT, MLI);
}

} // namespace pingpong
