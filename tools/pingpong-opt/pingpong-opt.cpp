//===- pingpong-opt.cpp - mlir-opt with the pingpong dialect and passes ---===//
//
// Every upstream dialect, pass and extension (the MLIR dylib has them all),
// plus the pingpong dialect, its passes and the pingpong-rocdl/-nvvm
// pipelines (docs/mlir.md).
//
//===----------------------------------------------------------------------===//
#include "pingpong/Dialect/PingpongDialect.h"
#include "pingpong/Dialect/PingpongPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::pingpong::registerPingpongPipelines();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::pingpong::PingpongDialect>();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "pingpong optimizer driver\n", registry));
}
