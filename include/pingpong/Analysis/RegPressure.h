//===- RegPressure.h - vector register pressure of a loop order -*- C++ -*-===//
//
// Peak VGPR+AGPR demand (32-bit units) of the loop body laid out in a given
// order. The plugin runs on machine SSA (before PHI elimination), so
// liveness comes from SSA def/use and dominance, not LiveIntervals. Used to
// refuse a mode whose order would spill (Triton skips FourPP with 16x16 MFMA
// and kWidth 8 for that reason; here it is decided from the registers).
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_ANALYSIS_REGPRESSURE_H
#define PINGPONG_ANALYSIS_REGPRESSURE_H

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class MachineDominatorTree;
class MachineFunction;
} // namespace llvm

namespace pingpong {
struct LoopModel;

/// Peak vector registers live at once when the region runs in Order
/// (indices into Model.Insts).
unsigned peakVectorPressure(const LoopModel &Model,
                            llvm::ArrayRef<unsigned> Order,
                            const llvm::MachineDominatorTree &MDT);

/// Vector registers one wave may use with two waves per SIMD (512 / 2), or
/// less when "amdgpu-waves-per-eu" asks for more waves.
unsigned vectorRegisterBudget(const llvm::MachineFunction &MF);

} // namespace pingpong
#endif
