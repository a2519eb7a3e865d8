//===- PingpongDialect.cpp - the pingpong dialect -------------------------===//
//
// Attributes and the verifier of the discardable attributes users write
// (pingpong.mode, pingpong.layout): a bad value is an error at the op, before
// any pass runs.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Dialect/PingpongDialect.h"

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

void PingpongDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "pingpong/Dialect/PingpongAttrs.cpp.inc"
      >();
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
