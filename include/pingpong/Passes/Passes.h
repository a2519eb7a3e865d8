//===- Passes.h - the plugin's machine passes -------------------*- C++ -*-===//
#ifndef PINGPONG_PASSES_PASSES_H
#define PINGPONG_PASSES_PASSES_H

namespace llvm {
class BasicBlock;
class Function;
class MachineInstr;
class PassRegistry;
} // namespace llvm

namespace pingpong {
/// Pass IDs, for TargetPassConfig::insertPass.
extern char &PingpongSchedulePassID;
extern char &PingpongFinalCheckPassID;
extern char &PingpongLoopDirectivesPassID;
extern char &PingpongRotateLoopsPassID;
extern char &PingpongLoadLookaheadPassID;
extern char &PingpongDMALookaheadPassID;
extern char &PingpongRelocateExchangePassID;
extern char &PingpongOccupancyHintPassID;
extern char &PingpongRematAfterLoopPassID;
extern char &PingpongVerifyPassID;
/// -amdgpu-pingpong-verify was given.
bool verifyRequested();
extern char &PingpongWaitsPassID;
/// The LDS-DMA wait repair (RepairDMAWaits.cpp) and the pass before
/// si-insert-waitcnts that records where the memory model asked for the
/// DMA drain.
extern char &PingpongRepairDMAWaitsPassID;
extern char &PingpongReleasePointsPassID;
/// -amdgpu-pingpong-repair-dma-waits (on by default).
bool dmaWaitRepairRequested();
/// LDS reads MachineSink moves past a bare s_barrier go back before it
/// (PinLDSReadsAtBarriers.cpp: one pass records before machine-sink, one
/// restores after it); its option -amdgpu-pingpong-pin-lds-reads (on by
/// default).
extern char &PingpongPinLDSReadsPassID;
extern char &PingpongRestoreLDSReadsPassID;
bool ldsReadPinRequested();
/// -amdgpu-pingpong-replace-schedule was given: loops the frontend already
/// scheduled are the plugin's too.
bool replaceScheduleRequested();
/// -amdgpu-pingpong-waits is not off.
bool waitPlacementRequested();
/// __attribute__((annotate("amdgpu-pingpong=<mode>"))) on F (an entry of
/// @llvm.global.annotations) becomes the function attribute
/// "amdgpu-pingpong"="<mode>" unless F already has one; an invalid mode is
/// an error naming it. Returns true when the attribute was added.
bool applyPingpongAnnotation(llvm::Function &F);
/// Register the passes (called once at plugin load).
void initializePingpongPasses(llvm::PassRegistry &Registry);
} // namespace pingpong
#endif
