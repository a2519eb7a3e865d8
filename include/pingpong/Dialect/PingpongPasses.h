//===- PingpongPasses.h - pingpong MLIR passes ----------------*- C++ -*-===//
#ifndef PINGPONG_DIALECT_PINGPONGPASSES_H
#define PINGPONG_DIALECT_PINGPONGPASSES_H

#include "mlir/Pass/Pass.h"
#include "pingpong/Dialect/PingpongDialect.h"

namespace mlir {
namespace LLVM {
class LLVMDialect;
}
namespace arith {
class ArithDialect;
}
namespace memref {
class MemRefDialect;
}
namespace scf {
class SCFDialect;
}
namespace vector {
class VectorDialect;
}
namespace gpu {
class GPUDialect;
}
namespace pingpong {

#define GEN_PASS_DECL
#include "pingpong/Dialect/PingpongPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "pingpong/Dialect/PingpongPasses.h.inc"

/// Registers the passes above and the pipelines `pingpong-rocdl` and
/// `pingpong-nvvm` (annotate, lower the gpu.module, attach metadata, extract
/// it, debug-info scopes).
void registerPingpongPipelines();

} // namespace pingpong
} // namespace mlir

#endif
