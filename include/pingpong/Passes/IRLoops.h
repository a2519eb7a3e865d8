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

#include <cstdint>
#include <string>

namespace llvm {
class Function;
class Instruction;
class Loop;
class Value;
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
/// An MFMA's A or B operand computed in the loop from another MFMA's result
/// (attention's P = softmax(Q K^T) feeding P V): chained dots.
bool hasChainedDots(const llvm::Loop &L);
/// The voffset that makes a raw buffer access (a load or an LDS DMA copy)
/// read nothing on a resource of at most 2^31 - 1 bytes (Triton masks its
/// prologue loads with it: `select %c, %off, -2147483648`).
constexpr int32_t OutOfRangeOffset = INT32_MIN;
/// Why OutOfRangeOffset on Rsrc is not proven to read nothing, or "": Rsrc
/// is a make.buffer.rsrc with no stride, a constant num_records of at most
/// 0x7FFFFFFF, and the kernel already masks an access on it with that
/// offset.
std::string whyNotMaskable(const llvm::Value *Rsrc);
/// Waves per workgroup from "amdgpu-flat-work-group-size" (0 if unknown).
unsigned wavesPerWorkgroup(const llvm::Function &F);
/// -amdgpu-pingpong=off or the function attribute "off".
bool functionSaysOff(const llvm::Function &F);
} // namespace pingpong
#endif
