//===- LocalGather.cpp - --pingpong-lower-local-gather (seed 003) ---------===//
//
// Lowers the two LDS gather ops of the pingpong dialect to upstream ops, so
// both pipelines (ROCDL: ds_read; NVVM: ld.shared) take them as they take
// any other kernel (docs/local-gather.md):
//
//   pingpong.local_gather %lds[%idx] mask(%m) other(%o)
//     ok   = m & (0 <= idx < N)            vector arith on the whole index vector
//     safe = select(ok, idx, 0)            an offset that is always inside
//     v[l] = memref.load %lds[safe[l]]     one LDS load per lane, no branch
//     res  = select(ok, v, broadcast(o))
//
//   pingpong.local_preload %g[%start] -> %lds
//     for j = tid; j < N; j += threads:    (tid 0, threads 1 outside a gpu.func)
//       lds[j] = (start + j inside %g) ? g[start + j] : 0
//     gpu.barrier                          (in a gpu.func)
//
// Masked-off and out-of-range lanes read element 0 (in the buffer: its size
// is static and > 0, the verifier says so) and take `other`; nothing outside
// the buffer is read.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Dialect/PingpongPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::pingpong {
#define GEN_PASS_DEF_PINGPONGLOWERLOCALGATHER
#include "pingpong/Dialect/PingpongPasses.h.inc"
} // namespace mlir::pingpong

using namespace mlir;
using namespace mlir::pingpong;

namespace {

/// A constant of scalar type `Elt`, splat to `Shape` when it is a vector.
Value splatConstant(OpBuilder &B, Location L, Type Shape, TypedAttr Scalar) {
  if (auto V = dyn_cast<VectorType>(Shape))
    return arith::ConstantOp::create(
        B, L, DenseElementsAttr::get(V.clone(Scalar.getType()), Scalar));
  return arith::ConstantOp::create(B, L, Scalar);
}

/// `0 <= Idx < N` lane by lane, for signless integer or index lanes (signed:
/// a negative index is out of range). One unsigned compare does both ends
/// when N fits the index type's positive range (a negative index is then a
/// large unsigned one); when N does not, every non-negative value is below
/// N. Index is at least 32 bits wide, and N < 2^31 (the verifier's bound).
Value inRange(OpBuilder &B, Location L, Value Idx, int64_t N) {
  Type T = Idx.getType();
  Type Elt = getElementTypeOrSelf(T);
  unsigned Width = Elt.isIndex() ? 32 : Elt.getIntOrFloatBitWidth();
  if (Width > 63 || N < (int64_t(1) << (Width - 1))) {
    Value Bound = splatConstant(B, L, T, B.getIntegerAttr(Elt, N));
    return arith::CmpIOp::create(B, L, arith::CmpIPredicate::ult, Idx, Bound);
  }
  Value Zero = splatConstant(B, L, T, B.getIntegerAttr(Elt, 0));
  return arith::CmpIOp::create(B, L, arith::CmpIPredicate::sge, Idx, Zero);
}

/// The offset as an index (a signed cast: `Safe` is in [0, N)).
Value toIndex(OpBuilder &B, Location L, Value Safe) {
  if (Safe.getType().isIndex())
    return Safe;
  return arith::IndexCastOp::create(B, L, B.getIndexType(), Safe);
}

void lowerGather(LocalGatherOp Op, bool NoBoundCheck) {
  OpBuilder B(Op);
  Location L = Op.getLoc();
  auto Src = cast<MemRefType>(Op.getSource().getType());
  Type Elt = Src.getElementType();
  int64_t N = Src.getNumElements();

  // n-D index vectors are handled as 1-D ones and reshaped at the end.
  Value Idx = Op.getIndices();
  Value Mask = Op.getMask();
  auto VecT = dyn_cast<VectorType>(Idx.getType());
  int64_t Lanes = VecT ? VecT.getNumElements() : 1;
  if (VecT && VecT.getRank() != 1) {
    auto Flat = VectorType::get({Lanes}, VecT.getElementType());
    Idx = vector::ShapeCastOp::create(B, L, Flat, Idx);
    if (Mask)
      Mask = vector::ShapeCastOp::create(B, L, maskTypeFor(Flat), Mask);
  }
  Type IdxT = Idx.getType();
  Type IdxElt = getElementTypeOrSelf(IdxT);

  // Which lanes read: enabled and in range.
  Value Ok = NoBoundCheck ? Value() : inRange(B, L, Idx, N);
  if (Mask)
    Ok = Ok ? arith::AndIOp::create(B, L, Ok, Mask).getResult() : Mask;
  Value Safe = Idx;
  if (Ok)
    Safe = arith::SelectOp::create(
        B, L, Ok, Idx, splatConstant(B, L, IdxT, B.getIntegerAttr(IdxElt, 0)));

  // One LDS load per lane.
  Value Loaded;
  if (!VecT) {
    Loaded = memref::LoadOp::create(B, L, Op.getSource(),
                                    ValueRange{toIndex(B, L, Safe)});
  } else {
    SmallVector<Value> Vals;
    for (int64_t Lane = 0; Lane < Lanes; ++Lane) {
      Value S = vector::ExtractOp::create(B, L, Safe, ArrayRef<int64_t>{Lane});
      Vals.push_back(memref::LoadOp::create(B, L, Op.getSource(),
                                            ValueRange{toIndex(B, L, S)}));
    }
    Loaded = vector::FromElementsOp::create(
        B, L, VectorType::get({Lanes}, Elt), Vals);
  }

  // Disabled and out-of-range lanes take `other` (zero without one).
  Value Res = Loaded;
  if (Ok) {
    Value Other = Op.getOther();
    if (!Other)
      Other = arith::ConstantOp::create(B, L, cast<TypedAttr>(B.getZeroAttr(Elt)));
    if (VecT)
      Other = vector::BroadcastOp::create(B, L, Loaded.getType(), Other);
    Res = arith::SelectOp::create(B, L, Ok, Loaded, Other);
  }
  if (VecT && VecT.getRank() != 1)
    Res = vector::ShapeCastOp::create(B, L, Op.getResult().getType(), Res);
  Op.getResult().replaceAllUsesWith(Res);
  Op.erase();
}

/// Linear thread id and thread count of the workgroup (x fastest). The
/// kernel's known_block_size gives the counts as constants (a constant step
/// for the copy loop); it also avoids gpu.block_dim, whose ROCDL lowering at
/// index-bitwidth=32 translates to mixed i32/i64 LLVM IR in LLVM 22.
std::pair<Value, Value> workgroupThreads(OpBuilder &B, Location L,
                                         gpu::GPUFuncOp F) {
  std::optional<ArrayRef<int32_t>> Known = F.getKnownBlockSize();
  Value Id, Count;
  for (gpu::Dimension D :
       {gpu::Dimension::z, gpu::Dimension::y, gpu::Dimension::x}) {
    unsigned Axis = static_cast<unsigned>(D);
    if (Known && (*Known)[Axis] == 1)
      continue; // thread id 0, count 1
    Value T = gpu::ThreadIdOp::create(B, L, D);
    Value Dim = Known ? arith::ConstantIndexOp::create(B, L, (*Known)[Axis])
                            .getResult()
                      : gpu::BlockDimOp::create(B, L, D).getResult();
    Id = Id ? arith::AddIOp::create(
                  B, L, arith::MulIOp::create(B, L, Id, Dim), T).getResult()
            : T;
    Count = Count ? arith::MulIOp::create(B, L, Count, Dim).getResult() : Dim;
  }
  if (!Id) { // a one-thread workgroup
    Id = arith::ConstantIndexOp::create(B, L, 0);
    Count = arith::ConstantIndexOp::create(B, L, 1);
  }
  return {Id, Count};
}

void lowerPreload(LocalPreloadOp Op) {
  OpBuilder B(Op);
  Location L = Op.getLoc();
  auto Dst = cast<MemRefType>(Op.getDest().getType());
  Type Elt = Dst.getElementType();
  auto Kernel = Op->getParentOfType<gpu::GPUFuncOp>();
  bool InKernel = Kernel != nullptr;

  Value First, Step;
  if (InKernel) {
    std::tie(First, Step) = workgroupThreads(B, L, Kernel);
  } else {
    First = arith::ConstantIndexOp::create(B, L, 0);
    Step = arith::ConstantIndexOp::create(B, L, 1);
  }
  Value N = arith::ConstantIndexOp::create(B, L, Dst.getNumElements());
  Value Size = memref::DimOp::create(B, L, Op.getSource(), 0);
  auto Copy = scf::ForOp::create(B, L, First, N, Step);
  B.setInsertionPointToStart(Copy.getBody());
  Value J = Copy.getInductionVar();
  Value G = arith::AddIOp::create(B, L, Op.getStart(), J);
  // Unsigned: a negative start + j is a large value, outside too.
  Value Inside =
      arith::CmpIOp::create(B, L, arith::CmpIPredicate::ult, G, Size);
  auto If = scf::IfOp::create(B, L, TypeRange{Elt}, Inside,
                              /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard Guard(B);
    B.setInsertionPointToStart(If.thenBlock());
    Value V = memref::LoadOp::create(B, L, Op.getSource(), ValueRange{G});
    scf::YieldOp::create(B, L, V);
    B.setInsertionPointToStart(If.elseBlock());
    Value Zero =
        arith::ConstantOp::create(B, L, cast<TypedAttr>(B.getZeroAttr(Elt)));
    scf::YieldOp::create(B, L, Zero);
  }
  memref::StoreOp::create(B, L, If.getResult(0), Op.getDest(), ValueRange{J});
  B.setInsertionPointAfter(Copy);
  if (InKernel)
    gpu::BarrierOp::create(B, L);
  Op.erase();
}

struct PingpongLowerLocalGather
    : public mlir::pingpong::impl::PingpongLowerLocalGatherBase<
          PingpongLowerLocalGather> {
  using PingpongLowerLocalGatherBase::PingpongLowerLocalGatherBase;

  void runOnOperation() override {
    SmallVector<LocalGatherOp> Gathers;
    SmallVector<LocalPreloadOp> Preloads;
    getOperation()->walk([&](Operation *Op) {
      if (auto G = dyn_cast<LocalGatherOp>(Op))
        Gathers.push_back(G);
      else if (auto P = dyn_cast<LocalPreloadOp>(Op))
        Preloads.push_back(P);
    });
    for (LocalPreloadOp P : Preloads)
      lowerPreload(P);
    for (LocalGatherOp G : Gathers)
      lowerGather(G, testNoBoundCheck);
  }
};

} // namespace
