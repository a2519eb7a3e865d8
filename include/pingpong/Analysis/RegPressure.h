//===- RegPressure.h - vector register pressure of a loop order -*- C++ -*-===//
//
// Peak VGPR+AGPR demand (32-bit units) of a loop body. The plugin runs on
// machine SSA (before PHI elimination), so liveness comes from SSA def/use
// and the CFG, not LiveIntervals. One estimator (BodyPressure), one
// counting rule, two questions:
// - the body in an order the plan proposes (peakInOrder; the MIR is not
//   changed), used to refuse a mode whose order would spill (Triton skips
//   FourPP with 16x16 MFMA and kWidth 8 for that reason; here it is
//   decided from the registers);
// - the body in its current order, asked again after each trial edit (new
//   registers, instructions counted as deleted), used by the LDS address
//   fold to compare its forms.
// On the same order both give the same number (unittests/LoopModelTest).
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_ANALYSIS_REGPRESSURE_H
#define PINGPONG_ANALYSIS_REGPRESSURE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/CodeGen/Register.h"

#include <vector>

namespace llvm {
class Function;
class MachineBasicBlock;
class MachineFunction;
class MachineInstr;
class MachineRegisterInfo;
class TargetRegisterInfo;
} // namespace llvm

namespace pingpong {
struct LoopModel;

/// Whether R is a virtual register of a vector class (VGPR, AGPR or AV).
bool isVectorReg(llvm::Register R, const llvm::MachineRegisterInfo &MRI,
                 const llvm::TargetRegisterInfo &TRI);

/// 32-bit vector registers virtual register R occupies; 0 for scalars.
unsigned vectorUnits(llvm::Register R, const llvm::MachineRegisterInfo &MRI,
                     const llvm::TargetRegisterInfo &TRI);

/// Peak vector registers live at once when the region runs in Order
/// (indices into Model.Insts): BodyPressure::peakInOrder.
unsigned peakVectorPressure(const LoopModel &Model,
                            llvm::ArrayRef<unsigned> Order);

/// Vector register pressure over a single-block loop in machine SSA, in
/// the body's current order after trial edits or in a proposed order: a
/// value defined before the loop is live through every point of the body
/// when some use of it can be reached from the loop's header without
/// passing its definition (the back edge brings any such value round
/// again), whether that use is in the loop or after it; a value defined in
/// the body lives from its definition to its last use there, or to the end
/// when it leaves the body (a use after the loop, or the header's PHIs).
/// Registers the coalescer joins count once, at the widest, from the first
/// definition to the last use of any of them: a copy and its source (a
/// copy of a part too), anywhere (Triton's lane terms reach the epilogue
/// through copies made before the loop); a tuple (REG_SEQUENCE,
/// INSERT_SUBREG, SUBREG_TO_REG) and the pieces the body makes for it.
class BodyPressure {
public:
  /// Changing: the registers whose uses an edit can change; their liveness
  /// before the loop is found again on every peak(), the others' once here,
  /// as are the registers created after this. An edit may add instructions
  /// and change uses, not the definitions of the registers known here
  /// (which values they copy is found once).
  BodyPressure(const llvm::MachineBasicBlock &Body,
               llvm::DenseSet<llvm::Register> Changing);

  /// The most 32-bit vector registers live at once between two
  /// instructions of the body, Skip counted as deleted (their uses keep
  /// nothing live).
  unsigned peak(const llvm::DenseSet<llvm::MachineInstr *> &Skip);

  /// The same count with the body's instructions before its first
  /// terminator, PHIs apart, laid out in Order (instructions left out of
  /// Order read nothing).
  unsigned peakInOrder(llvm::ArrayRef<const llvm::MachineInstr *> Order);

private:
  using BlockSet = llvm::DenseSet<const llvm::MachineBasicBlock *>;
  bool isVector(llvm::Register R) const;
  void start();
  void append(const llvm::MachineInstr &MI);
  unsigned count(const llvm::DenseSet<llvm::MachineInstr *> &Skip);
  unsigned valueIndex(llvm::Register R) const;
  unsigned width(unsigned ValueIdx) const;
  void extend(unsigned ValueIdx, unsigned From, unsigned To);
  BlockSet reachableFrom(const llvm::MachineBasicBlock *Avoid) const;
  bool liveInAtBody(llvm::Register R, const llvm::MachineBasicBlock &DefBlock,
                    const llvm::DenseSet<llvm::MachineInstr *> &Skip);

  const llvm::MachineBasicBlock &Body;
  const llvm::MachineRegisterInfo &MRI;
  const llvm::TargetRegisterInfo &TRI;
  llvm::SmallVector<llvm::Register, 64> Changing;
  unsigned KnownRegs;
  // The others' values live through the body (by virtual register index):
  // live at every point whatever Skip is, so peak() adds their width once.
  llvm::BitVector ThroughValue;
  unsigned ThroughUnits = 0;
  // By virtual register index, for the registers known at construction:
  // the index of the value (class) it is in, and by that index the class's
  // width (their definitions stay).
  std::vector<unsigned> KnownValue, KnownWidth;
  // peak()'s scratch, by virtual register index; an entry counts when its
  // stamp is this query's.
  unsigned Query = 0;
  std::vector<unsigned> RangeStamp, RangeFrom, RangeTo, UseStamp, LastUse;
  llvm::SmallVector<unsigned, 256> Ranged;
  llvm::SmallVector<const llvm::MachineInstr *, 256> Insts;
  llvm::SmallVector<int, 256> Delta;
  BlockSet Reach;
  llvm::DenseMap<const llvm::MachineBasicBlock *, BlockSet> ReachAvoiding;
};

/// Vector registers one wave may use with two waves per SIMD (512 / 2), or
/// less when "amdgpu-waves-per-eu" asks for more waves.
unsigned vectorRegisterBudget(const llvm::MachineFunction &MF);
/// The same for an IR function compiled for CPU (the IR passes).
unsigned vectorRegisterBudget(const llvm::Function &F, llvm::StringRef CPU);

} // namespace pingpong
#endif
