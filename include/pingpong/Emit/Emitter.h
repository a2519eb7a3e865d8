//===- Emitter.h - applying a cluster plan to the loop ----------*- C++ -*-===//
//
// The emission half: moves the instructions into the plan's order and adds
// the instructions that make the order hold at run time and survive later
// passes: SCHED_BARRIER 0 between clusters (a scheduling boundary for
// AMDGPU's pre- and post-RA schedulers), s_setprio 1/0 around dot clusters,
// s_waitcnt lgkmcnt(0) where LDS results must have landed, s_barrier between
// clusters of 8-wave modes and the asymmetric sync around the loop.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_EMIT_EMITTER_H
#define PINGPONG_EMIT_EMITTER_H

#include "pingpong/ISA/Opcodes.h"

#include <string>
#include <vector>

namespace llvm {
class MachineBasicBlock;
class MachineFunction;
class MachineInstr;
class MachineDominatorTree;
class MachineLoop;
class MachineLoopInfo;
} // namespace llvm

namespace pingpong {
struct AuthorSkew;
struct ClusterPlan;
struct LoopModel;

/// Deletes the instructions a plan leaves out of its model (ModeChoice::Drop,
/// LoopModel::OldSchedule): the first step of applying it, before the order.
void deleteDropped(const std::vector<llvm::MachineInstr *> &MIs);

/// Put the region in Order (indices into Model.Insts), adding nothing.
void applyOrder(LoopModel &Model, const std::vector<unsigned> &Order);

/// Reorder the body and insert the cluster markers and sync.
void applyPlan(LoopModel &Model, const ClusterPlan &Plan,
               const OpcodeTable::Builders &Ops);

/// Asks AMDGPU's pre-RA machine scheduler, which orders the inside of each
/// cluster, to order MF for latency (the "amdgpu-sched-strategy" function
/// attribute, max-ilp) instead of occupancy. Not where the function or the
/// command line already names a strategy: the user's choice stands. Returns
/// whether it asked.
bool askLatencyScheduling(llvm::MachineFunction &MF);

/// Checks that the loop has the shape the asymmetric sync needs; on failure
/// Why says what is missing. Changes nothing.
bool canEmitAsymmetricSync(llvm::MachineLoop &L, llvm::MachineFunction &MF,
                           std::string &Why);

/// A barrier layout without the skew: the loop's own barriers and waits are
/// gone, so the preheader gets the drain and s_barrier the asymmetric sync
/// puts before its skew (a wait for the prologue's LDS DMA that the first
/// iterations read, vmcnt(VmBeforeLoop) where >= 0; lgkmcnt(0) for the
/// prologue's LDS traffic), unless the prologue ends in a __syncthreads and no
/// DMA is due. False where the loop has no preheader.
bool emitLoopEntrySync(llvm::MachineLoop &L, const OpcodeTable::Builders &Ops,
                       int VmBeforeLoop);

/// Waves 4-7 run one extra s_barrier before the loop, waves 0-3 one after it
/// (wave group from readfirstlane(workitem id x) & 256; scalar branches).
/// Keeps the dominator tree and loop info up to date for the new blocks.
/// VmBeforeLoop >= 0: the barrier before the loop first waits vmcnt to it
/// (the prologue's LDS DMA read in the first iterations).
void emitAsymmetricSync(llvm::MachineLoop &L, llvm::MachineFunction &MF,
                        const OpcodeTable::Builders &Ops,
                        llvm::MachineDominatorTree &MDT,
                        llvm::MachineLoopInfo &MLI, int VmBeforeLoop = -1);

/// Deletes both halves of an author's skew (Analysis/AuthorSkew): each
/// barrier's block goes, the block before it branches straight to the join
/// (an SI_IF's SI_END_CF and its compare go too). Only for a loop whose
/// schedule the plugin has just replaced, which brings its own sync. Keeps
/// the dominator tree and loop info up to date.
void removeAuthorSkew(const AuthorSkew &Skew, const OpcodeTable::Builders &Ops,
                      llvm::MachineDominatorTree &MDT, llvm::MachineLoopInfo &MLI);

} // namespace pingpong
#endif
