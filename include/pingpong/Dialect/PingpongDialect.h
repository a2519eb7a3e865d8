//===- PingpongDialect.h - the pingpong dialect ---------------*- C++ -*-===//
//
// Attributes that carry block-pingpong directives to the plugin (docs/mlir.md).
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_DIALECT_PINGPONGDIALECT_H
#define PINGPONG_DIALECT_PINGPONGDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "pingpong/Dialect/PingpongDialect.h.inc"
#include "pingpong/Dialect/PingpongEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "pingpong/Dialect/PingpongAttrs.h.inc"

namespace mlir::pingpong {
/// The mask type of a local_gather with these indices: i1, or a vector of
/// i1 of the indices' shape.
Type maskTypeFor(Type indicesType);
} // namespace mlir::pingpong

#define GET_OP_CLASSES
#include "pingpong/Dialect/PingpongOps.h.inc"

namespace mlir {
class DialectRegistry;
namespace pingpong {

/// Discardable attribute names.
inline constexpr llvm::StringLiteral kModeAttr = "pingpong.mode";     // user, StringAttr
inline constexpr llvm::StringLiteral kLayoutAttr = "pingpong.layout"; // user, StringAttr
inline constexpr llvm::StringLiteral kLoopAttr = "pingpong.loop";     // LoopAttr
inline constexpr llvm::StringLiteral kMemAttr = "pingpong.mem";       // MemAttr

/// The plugin's loop metadata keys.
inline constexpr llvm::StringLiteral kMDMode = "amdgpu.pingpong";
inline constexpr llvm::StringLiteral kMDLayout = "amdgpu.pingpong.layout";
/// Layout texts start with this (include/pingpong/Modes/LayoutText.h).
inline constexpr llvm::StringLiteral kLayoutPrefix = "pingpong-layout v1;";

/// "expected one of: auto, off, one-cluster, ..." (every Mode case).
std::string validModesText();

/// Registers pingpong-translate's handling of `pingpong.loop` on LLVM-dialect
/// branches: the directive is added to the branch's !llvm.loop.
void registerPingpongLLVMIRTranslation(DialectRegistry &registry);

} // namespace pingpong
} // namespace mlir

#endif
