//===- ModelBuilder.h - shared state of the loop-model concerns -*- C++ -*-===//
//
// Private to lib/Analysis. analyzeLoop() (LoopModel.cpp) builds a LoopModel
// in steps, one file per concern:
//   Region.cpp          the region and instruction kinds, early refusals, sync
//   DotGroups.cpp       MFMA chains (K step, accumulator), dot groups, chained
//                       dots, the VALU between them and the LDS round trips
//                       (exchanges) on the way
//   OperandSources.cpp  where each dot operand comes from: LDS reads and the
//                       writes / global loads that fill them, LDS DMA, direct
//                       global loads, loop-invariant registers, scales
//   Stages.cpp          rotating LDS buffers: which write (ds_write or LDS DMA)
//                       feeds which read, and how many iterations ahead
//   TileShape.cpp       the workgroup tile M x N x K and its bits
//   LDSReductions.cpp   a GEMM's cross-warp sums through LDS in the iteration
// Each step either completes or records why the loop is refused.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_LIB_ANALYSIS_MODELBUILDER_H
#define PINGPONG_LIB_ANALYSIS_MODELBUILDER_H

#include "pingpong/Analysis/LoopModel.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/CodeGen/Register.h"

namespace llvm {
class TargetInstrInfo;
class MachineRegisterInfo;
} // namespace llvm

namespace pingpong {

struct ModelBuilder {
  ModelBuilder(llvm::MachineLoop &L, llvm::MachineFunction &MF,
               AnalysisOptions Opts);

  llvm::MachineLoop &L;
  llvm::MachineFunction &MF;
  const llvm::TargetInstrInfo &TII;
  const llvm::MachineRegisterInfo &MRI;
  const OpcodeTable &T;
  AnalysisOptions Opts;
  LoopModel M;
  LoopAnalysis R;

  /// Region position(s) defining each virtual register.
  llvm::DenseMap<llvm::Register, llvm::SmallVector<unsigned, 2>> DefsOf;
  /// Header PHI result -> the value it takes from the latch (the body).
  llvm::DenseMap<llvm::Register, llvm::Register> PhiFromBody;
  /// Region position of each instruction.
  llvm::DenseMap<const llvm::MachineInstr *, unsigned> PosOf;
  /// LDS exchange (DotGroups): a read of values a dot group's results were
  /// written as earlier in the same iteration -> those writes.
  llvm::DenseMap<unsigned, llvm::SmallVector<unsigned, 4>> ExchangeWritesOf;
  /// Global load -> the LDS write it feeds (OperandSources).
  llvm::DenseMap<unsigned, unsigned> WriteOfLoad;
  /// Global loads whose LDS write reads them through a header PHI.
  llvm::DenseSet<unsigned> LoadsAhead;
  /// LDS write or DMA -> the dot group whose reads it was paired with
  /// (Stages); a loop of one group needs none.
  llvm::DenseMap<unsigned, unsigned> FillGroup;

  /// A shape no mode schedules yet (scales, chained dots, LDS DMA, direct
  /// loads): the analysis may name operands there in ways that would change
  /// the GEMM modes' choices, so those ways are kept to such loops.
  bool newShape() const;

  bool reject(const llvm::Twine &Reason, const llvm::MachineInstr *At = nullptr) {
    R.Why.Reason = Reason.str();
    R.Why.At = At;
    return false;
  }
  /// Explicit register uses, in operand order.
  llvm::SmallVector<llvm::Register, 4> regUses(const llvm::MachineInstr &MI) const;
  /// Positions in the region that define Reg before Pos; if none, the ones
  /// after it (loop-carried from the previous iteration, through a PHI).
  llvm::SmallVector<unsigned, 2> reachingDefs(llvm::Register Reg, unsigned Pos,
                                              bool &LoopCarried) const;
  /// Defined before the loop (a register live through it), not in the body.
  bool definedOutside(llvm::Register Reg) const;
  bool isSelect(unsigned Opcode) const;
  /// A copy-like instruction: COPY, REG_SEQUENCE, INSERT_SUBREG ...
  static bool isCopyLike(const llvm::MachineInstr &MI);
  std::string name(const llvm::MachineInstr &MI) const;
};

// One function per concern, in the order analyzeLoop calls them.
bool buildRegion(ModelBuilder &B);       // Region.cpp
bool buildDotGroups(ModelBuilder &B);    // DotGroups.cpp
bool traceOperandSources(ModelBuilder &B); // OperandSources.cpp
void markInterDotWork(ModelBuilder &B);  // DotGroups.cpp
void markAccumulatorPrep(ModelBuilder &B); // DotGroups.cpp
bool traceLDSWrites(ModelBuilder &B);    // OperandSources.cpp
void assignWriteOperands(ModelBuilder &B); // OperandSources.cpp
void assignLoadOperands(ModelBuilder &B);  // OperandSources.cpp
void deriveStages(ModelBuilder &B);      // Stages.cpp
void classifyResultSideLoads(ModelBuilder &B); // OperandSources.cpp
void classifyInterDotLoads(ModelBuilder &B); // InterDotLoads.cpp
void markLDSReductions(ModelBuilder &B);   // LDSReductions.cpp
bool checkLeftovers(ModelBuilder &B);    // OperandSources.cpp
void summarizeSources(ModelBuilder &B);  // OperandSources.cpp

} // namespace pingpong
#endif
