//===- IRAddress.h - integer ranges and GEP offsets of IR values -*- C++ -*-===//
//
// Which bytes of an LDS object an IR pointer may touch, in two parts shared
// by the IR passes (RelocateExchange) and the machine-level buffer identity
// (LDSObjects, through the memory operands' IR values): the values an integer
// may take, and a pointer as a base plus constant and indexed offsets.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_ANALYSIS_IRADDRESS_H
#define PINGPONG_ANALYSIS_IRADDRESS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/ConstantRange.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace llvm {
class DataLayout;
class Instruction;
class Value;
} // namespace llvm

namespace pingpong {

/// The values an integer may take: ConstantRange arithmetic over the
/// instructions that compute it (a disjoint `or` as an add), a select whose
/// condition compares one arm with a constant narrowed by it, the work-item
/// ids by the kernel's "amdgpu-flat-work-group-size", and the known bits
/// where that stops. Loop-carried PHIs (Triton's rotating stage index:
/// idx + 1 < N ? idx + 1 : 0) by iterating to a fixed point from their
/// incoming constants. The PHIs' fixed points are kept between queries:
/// one per function.
class IntRanges {
public:
  /// ThroughReadFirstLane: a readfirstlane takes its operand's values (LDS
  /// DMA bases; off for the loop model, whose orders were measured without).
  explicit IntRanges(const llvm::DataLayout &DL, bool ThroughReadFirstLane = false)
      : DL(DL), ThroughReadFirstLane(ThroughReadFirstLane) {}

  /// Every value V may take (the full set where nothing is known).
  llvm::ConstantRange of(const llvm::Value *V);

  /// [min, max] of an array index: of() narrowed by the known bits (never
  /// less precise than either); nullopt when it may be negative or reach
  /// 2^32, which is beyond any LDS.
  std::optional<std::pair<uint64_t, uint64_t>> indexBounds(const llvm::Value *Idx);

private:
  const llvm::DataLayout &DL;
  bool ThroughReadFirstLane;
  llvm::DenseMap<const llvm::Value *, llvm::ConstantRange> Phis; // fixed point so far
  llvm::DenseMap<const llvm::Value *, llvm::ConstantRange> Memo; // this round
  bool Changed = false;

  llvm::ConstantRange eval(const llvm::Value *V, unsigned Depth);
  llvm::ConstantRange evalInst(const llvm::Instruction *I, unsigned Depth);
  llvm::ConstantRange leaf(const llvm::Instruction *I);
};

/// Walks pointer P down through GEPs (instructions or constant expressions)
/// and pointer casts to the value it is an offset from: the first one that
/// is not a GEP, or a GEP for which StopAt says so (asked before it is
/// walked). Constant indices and struct fields add their bytes to Const;
/// every other array index goes to OnIndex with its stride in bytes (never
/// 0: such an index adds nothing). Returns that base, or null when OnIndex
/// refuses an index, a struct field is not constant, a stride is scalable
/// or reaches 2^32, Const overflows, or the chain is too long.
const llvm::Value *
walkGEPs(const llvm::Value *P, const llvm::DataLayout &DL, int64_t &Const,
         llvm::function_ref<bool(const llvm::Value *Idx, uint64_t Stride)> OnIndex,
         llvm::function_ref<bool(const llvm::Value *)> StopAt = nullptr);
inline llvm::Value *
walkGEPs(llvm::Value *P, const llvm::DataLayout &DL, int64_t &Const,
         llvm::function_ref<bool(const llvm::Value *Idx, uint64_t Stride)> OnIndex,
         llvm::function_ref<bool(const llvm::Value *)> StopAt = nullptr) {
  return const_cast<llvm::Value *>(walkGEPs(
      static_cast<const llvm::Value *>(P), DL, Const, OnIndex, StopAt));
}

} // namespace pingpong
#endif
