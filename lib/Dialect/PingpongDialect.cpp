//===- PingpongDialect.cpp - the pingpong dialect -------------------------===//
//
// Attributes and the verifier of the discardable attributes users write
// (pingpong.mode, pingpong.layout): a bad value (a layout the plugin's parser,
// Modes/LayoutText.h, refuses) is an error at the op, before any pass runs.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Dialect/PingpongDialect.h"
#include "pingpong/Modes/LayoutText.h" // the plugin's layout parser

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::pingpong;

#include "pingpong/Dialect/PingpongDialect.cpp.inc"
#include "pingpong/Dialect/PingpongEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "pingpong/Dialect/PingpongAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "pingpong/Dialect/PingpongOps.cpp.inc"

void PingpongDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "pingpong/Dialect/PingpongAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "pingpong/Dialect/PingpongOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// local_gather / local_preload (seed 003)
//===----------------------------------------------------------------------===//

Type mlir::pingpong::maskTypeFor(Type indicesType) {
  auto I1 = IntegerType::get(indicesType.getContext(), 1);
  if (auto V = dyn_cast<VectorType>(indicesType))
    return V.clone(I1);
  return I1;
}

/// #gpu.address_space<workgroup> or the integer 3 (AMDGPU's and NVPTX's
/// number for it), as the K-loop analysis reads LDS buffers.
static bool inWorkgroupMemory(MemRefType T) {
  Attribute S = T.getMemorySpace();
  if (auto G = dyn_cast_or_null<gpu::AddressSpaceAttr>(S))
    return G.getValue() == gpu::AddressSpace::Workgroup;
  if (auto I = dyn_cast_or_null<IntegerAttr>(S))
    return I.getInt() == 3;
  return false;
}

/// The LDS buffer of a local_gather / local_preload: rank 1, a static
/// number of elements (the bound the gather checks against, the size the
/// preload fills) and workgroup memory.
static LogicalResult verifyLdsBuffer(Operation *op, MemRefType T,
                                     StringRef what) {
  if (!inWorkgroupMemory(T))
    return op->emitOpError()
           << what << " must be in workgroup memory "
           << "(#gpu.address_space<workgroup> or 3), got " << T;
  if (T.getRank() != 1 || !T.hasStaticShape())
    return op->emitOpError() << what << " must be a rank-1 memref of static "
                             << "size, got " << T;
  // Not empty: a masked lane reads element 0. Below 2^31 elements: the
  // bound check compares in 32-bit index arithmetic.
  if (T.getNumElements() == 0 || T.getNumElements() >= (int64_t(1) << 31))
    return op->emitOpError() << what << " must have 1 to 2^31-1 elements, got "
                             << T;
  return success();
}

LogicalResult LocalGatherOp::verify() {
  auto Src = cast<MemRefType>(getSource().getType());
  if (failed(verifyLdsBuffer(*this, Src, "source")))
    return failure();
  Type Elt = Src.getElementType();
  Type Want = Elt;
  if (auto V = dyn_cast<VectorType>(getIndices().getType())) {
    if (!VectorType::isValidElementType(Elt))
      return emitOpError() << "vector indices need a scalar element type, got "
                           << Elt;
    Want = V.clone(Elt);
  }
  if (getResult().getType() != Want)
    return emitOpError() << "result must be " << Want
                         << " (the source's element type in the indices' "
                         << "shape), got " << getResult().getType();
  return success();
}

LogicalResult LocalPreloadOp::verify() {
  auto Dst = cast<MemRefType>(getDest().getType());
  if (failed(verifyLdsBuffer(*this, Dst, "dest")))
    return failure();
  auto Src = cast<MemRefType>(getSource().getType());
  if (Src.getRank() != 1)
    return emitOpError() << "source must be a rank-1 memref, got " << Src;
  if (inWorkgroupMemory(Src))
    return emitOpError() << "source must be outside workgroup memory "
                         << "(it is the global range to preload), got " << Src;
  return success();
}

std::string mlir::pingpong::validModesText() {
  std::string S = "expected one of: ";
  for (uint32_t I = 0; I <= getMaxEnumValForMode(); ++I) {
    if (I)
      S += ", ";
    S += stringifyMode(static_cast<Mode>(I)).str();
  }
  return S;
}

LogicalResult LoopAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               Mode mode, bool user, unsigned waves,
                               unsigned stages, DenseI64ArrayAttr tile,
                               unsigned bits, unsigned mfmas,
                               StringAttr layout) {
  if (tile && tile.size() != 3)
    return emitError() << "pingpong.loop: tile must be [BM, BN, BK]";
  if (layout && !layout.getValue().starts_with(kLayoutPrefix))
    return emitError() << "pingpong.loop: layout must start with '"
                       << kLayoutPrefix << "'";
  return success();
}

LogicalResult PingpongDialect::verifyOperationAttribute(Operation *op,
                                                        NamedAttribute attr) {
  StringRef Name = attr.getName().getValue();
  auto onLoop = [&]() -> LogicalResult {
    if (isa<scf::ForOp>(op))
      return success();
    return op->emitError() << "'" << Name
                           << "' belongs on the K loop (scf.for), not on '"
                           << op->getName() << "'";
  };
  if (Name == kModeAttr) {
    auto S = dyn_cast<StringAttr>(attr.getValue());
    if (!S)
      return op->emitError() << "'" << kModeAttr << "' must be a string, "
                             << validModesText();
    if (!symbolizeMode(S.getValue()))
      return op->emitError() << "invalid '" << kModeAttr << "' value '"
                             << S.getValue() << "': " << validModesText();
    return onLoop();
  }
  if (Name == kLayoutAttr) {
    auto S = dyn_cast<StringAttr>(attr.getValue());
    if (!S || !S.getValue().starts_with(kLayoutPrefix))
      return op->emitError() << "'" << kLayoutAttr
                             << "' must be a string starting with '"
                             << kLayoutPrefix
                             << "' (docs/modes.md, \"Layouts as data\")";
    // The grammar is the plugin's: a text it would refuse is an error here,
    // at the loop, not a remark from llc. (The dot count only sizes slices
    // when matched; the grammar does not depend on it.)
    std::string Error;
    if (!::pingpong::parseLayout(S.getValue(), /*NumDots=*/0, Error))
      return op->emitError() << "invalid '" << kLayoutAttr << "': " << Error;
    return onLoop();
  }
  if (Name == kLoopAttr) {
    if (!isa<LoopAttr>(attr.getValue()))
      return op->emitError() << "'" << kLoopAttr
                             << "' must be a #pingpong.loop attribute";
    return success(); // also on lowered latch branches
  }
  if (Name == kMemAttr) {
    if (!isa<MemAttr>(attr.getValue()))
      return op->emitError() << "'" << kMemAttr
                             << "' must be a #pingpong.mem attribute";
    return success();
  }
  return op->emitError() << "unknown pingpong attribute '" << Name
                         << "' (expected " << kModeAttr << ", " << kLayoutAttr
                         << ", " << kLoopAttr << " or " << kMemAttr << ")";
}
