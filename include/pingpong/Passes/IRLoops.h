//===- IRLoops.h - what the plugin's IR passes ask of a loop ----*- C++ -*-===//
//
// The IR passes (loop rotation, exchange relocation) run before the machine
// passes and take the same loops: innermost, with an MFMA, not turned off by
// a directive, not scheduled by their author unless
// -amdgpu-pingpong-replace-schedule.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_PASSES_IRLOOPS_H
#define PINGPONG_PASSES_IRLOOPS_H

namespace llvm {
class Function;
class Instruction;
class Loop;
} // namespace llvm

namespace pingpong {
/// llvm.amdgcn.mfma.* / smfmac.* (the scaled MFMA included).
bool isMFMACall(const llvm::Instruction &I);
/// A global-to-LDS copy (LDS DMA) of any form: buffer, global, load.to.lds.
bool isLDSDMACall(const llvm::Instruction &I);
/// s_setprio, sched_barrier, sched_group_barrier, iglp_opt: the frontend
/// scheduled the loop itself (Triton's BlockPingpong).
bool isAuthorScheduleCall(const llvm::Instruction &I);
/// !{!"amdgpu.pingpong", !"off"} in the loop's ID.
bool loopSaysOff(const llvm::Loop &L);
/// Any instruction of the loop satisfies Pred.
bool loopHas(const llvm::Loop &L, bool (*Pred)(const llvm::Instruction &));
/// Waves per workgroup from "amdgpu-flat-work-group-size" (0 if unknown).
unsigned wavesPerWorkgroup(const llvm::Function &F);
/// -amdgpu-pingpong=off or the function attribute "off".
bool functionSaysOff(const llvm::Function &F);
} // namespace pingpong
#endif
