#include "pingpong/Dialect/PingpongPasses.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
namespace mlir::pingpong {
#define GEN_PASS_DEF_PINGPONGAGGREGATELOAD
#include "pingpong/Dialect/PingpongPasses.h.inc"
} // namespace mlir::pingpong
using namespace mlir;
namespace {
struct PingpongAggregateLoad
    : public pingpong::impl::PingpongAggregateLoadBase<PingpongAggregateLoad> {
  using PingpongAggregateLoadBase::PingpongAggregateLoadBase;
  void runOnOperation() override {}
};
} // namespace
