//===- Passes.h - the plugin's machine passes -------------------*- C++ -*-===//
#ifndef PINGPONG_PASSES_PASSES_H
#define PINGPONG_PASSES_PASSES_H

namespace llvm {
class PassRegistry;
}

namespace pingpong {
/// Pass IDs, for TargetPassConfig::insertPass.
extern char &PingpongSchedulePassID;
extern char &PingpongFinalCheckPassID;
extern char &PingpongLoopDirectivesPassID;
extern char &PingpongVerifyPassID;
/// -amdgpu-pingpong-verify was given.
bool verifyRequested();
extern char &PingpongWaitsPassID;
/// -amdgpu-pingpong-waits is not off.
bool waitPlacementRequested();
/// Register the passes (called once at plugin load).
void initializePingpongPasses(llvm::PassRegistry &Registry);
} // namespace pingpong
#endif
