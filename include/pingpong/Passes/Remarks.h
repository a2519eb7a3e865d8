//===- Remarks.h - how the plugin's remarks name a loop or block -*- C++ -*-===//
//
// Every remark of the plugin's machine passes names its place the same way,
// "loop %bb.N of F" (or "%bb.N of F" for a block), N being the MIR block
// number users see with -print-after. The words and the remark arguments
// (Loop / Block, Function: kept in YAML remark files) live here only.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_PASSES_REMARKS_H
#define PINGPONG_PASSES_REMARKS_H

#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"

#include <string>

namespace pingpong {

/// Streams "loop %bb.N of F" into a remark; Header is the loop's header.
template <typename RemarkT>
RemarkT &nameLoop(RemarkT &R, const llvm::MachineBasicBlock &Header) {
  R << "loop %bb." << llvm::ore::NV("Loop", Header.getNumber()) << " of "
    << llvm::ore::NV("Function", Header.getParent()->getName());
  return R;
}

/// Streams "%bb.N of F" into a remark.
template <typename RemarkT>
RemarkT &nameBlock(RemarkT &R, const llvm::MachineBasicBlock &MBB) {
  R << "%bb." << llvm::ore::NV("Block", MBB.getNumber()) << " of "
    << llvm::ore::NV("Function", MBB.getParent()->getName());
  return R;
}

/// "loop %bb.N of F" as text, for errors and warnings (DiagnosticInfo).
inline std::string loopName(const llvm::MachineBasicBlock &Header) {
  return "loop %bb." + std::to_string(Header.getNumber()) + " of " +
         Header.getParent()->getName().str();
}

/// "PASS: in function 'F', loop %bb.N": how an error or a warning of the
/// plugin (DiagnosticInfoGeneric) begins.
inline std::string diagnosticPlace(llvm::StringRef Pass,
                                   const llvm::MachineBasicBlock &Header) {
  return Pass.str() + ": in function '" + Header.getParent()->getName().str() +
         "', loop %bb." + std::to_string(Header.getNumber());
}

} // namespace pingpong
#endif
