//===- AggregateLoad.cpp - --pingpong-aggregate-load (seed 000) -----------===//
//
// The K loop of a pipelined GEMM writes the next K tile of each operand to an
// LDS buffer L[R][BK] and reads the current one. When one operand's whole K
// range fits in LDS, this pass
//   - adds F[R][T*BK] (T = K tiles) next to the other buffers,
//   - sends the prologue's writes of L to F's tile 0,
//   - copies tiles 1..T-1 into F before the loop (the loop's own
//     global-load -> LDS-write ops, cloned with the induction variable of a
//     copy loop), then a barrier,
//   - reads tile i in iteration i through a view of F (memref.subview of the
//     whole buffer at [0, i*BK]: the base is F's, never a previous slice's,
//     which was seed 000's bug), and tile T-1 after the loop,
//   - drops the loop's writes of L and the loads that fed them.
// When the whole K range does not fit, F holds C tiles (tile t in slot
// t mod C) and K runs in chunks: an outer loop whose body copies a chunk's
// tiles, then runs the K loop over them, with barriers around the copy; a
// last chunk for the remainder. In a scaled-MFMA loop the scales' whole K
// range (small) is aggregated when neither operand fits whole (seed 002).
// Analysis (which LDS buffers qualify), strategy (which operand, the LDS
// budget) and emission are separate functions below. Refusals are remarks.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Dialect/KLoop.h"
#include "pingpong/Dialect/PingpongPasses.h"
#include "pingpong/Target/TargetFacts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::pingpong {
#define GEN_PASS_DEF_PINGPONGAGGREGATELOAD
#include "pingpong/Dialect/PingpongPasses.h.inc"
} // namespace mlir::pingpong

using namespace mlir;
using namespace mlir::pingpong;

namespace {

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

/// One LDS buffer of a K loop that could hold its operand's whole K range.
struct Candidate {
  Value lds;                 // L: root LDS buffer [R][BK]
  int64_t rows = 0, bk = 0;
  int64_t tiles = 0;         // T: K tiles (loop trip count + 1)
  int64_t tileBytes = 0, fullBytes = 0;
  SmallVector<Operation *> inWrites, inReads, preWrites, postReads;
  SmallVector<Operation *> producers; // top-level body ops holding inWrites
  SetVector<Operation *> deps;        // pure top-level body ops they need
  Value source;              // the global buffer the tiles come from
  std::string name;          // "a"/"b" (or the buffer's name)
};

/// Accesses L only through this operand, with no view created.
bool isPlainAccess(Operation *op) {
  return isa<vector::LoadOp, vector::StoreOp, memref::LoadOp, memref::StoreOp,
             vector::TransferReadOp, vector::TransferWriteOp,
             vector::MaskedLoadOp, vector::MaskedStoreOp>(op);
}

std::optional<int64_t> tripCount(scf::ForOp loop) {
  auto Lb = getConstantIntValue(loop.getLowerBound());
  auto Ub = getConstantIntValue(loop.getUpperBound());
  auto St = getConstantIntValue(loop.getStep());
  if (!Lb || !Ub || !St || *St <= 0 || *Ub <= *Lb)
    return std::nullopt;
  return (*Ub - *Lb + *St - 1) / *St;
}

/// Only reads global (non-LDS) memory: the operand loads themselves.
bool onlyReadsGlobal(Operation *op) {
  auto I = dyn_cast<MemoryEffectOpInterface>(op);
  if (!I || op->getNumRegions())
    return false;
  SmallVector<MemoryEffects::EffectInstance> Effects;
  I.getEffects(Effects);
  for (const MemoryEffects::EffectInstance &E : Effects) {
    Value V = E.getValue();
    if (!isa<MemoryEffects::Read>(E.getEffect()) || !V ||
        isWorkgroupMemRef(rootMemRef(V).getType()))
      return false;
  }
  return true;
}

/// Top-level ops of `body` that `v` needs (into `deps`): pure ops and global
/// loads. False if `v` depends on an iteration argument or on another op
/// with effects.
bool collectDeps(Value v, Block *body, SetVector<Operation *> &deps) {
  if (auto Arg = dyn_cast<BlockArgument>(v))
    return Arg.getOwner() != body || Arg.getArgNumber() == 0; // the IV only
  Operation *Def = v.getDefiningOp();
  if (!Def || Def->getBlock() != body)
    return true; // defined outside the body (or inside a producer)
  if (deps.contains(Def))
    return true;
  if ((!isMemoryEffectFree(Def) && !onlyReadsGlobal(Def)) ||
      Def->getNumRegions())
    return false;
  for (Value O : Def->getOperands())
    if (!collectDeps(O, body, deps))
      return false;
  deps.insert(Def);
  return true;
}

std::optional<Candidate> analyze(scf::ForOp loop, Value lds, int64_t trips,
                                 std::string &why, Operation *&at) {
  Candidate C;
  C.lds = lds;
  auto T = dyn_cast<MemRefType>(lds.getType());
  if (!T || T.getRank() != 2 || !T.hasStaticShape() ||
      memrefBytes(T) <= 0) {
    why = "LDS buffer " + bufferName(lds) + " is not a static 2-D memref";
    return std::nullopt;
  }
  C.rows = T.getDimSize(0);
  C.bk = T.getDimSize(1);
  C.tiles = trips + 1;
  C.tileBytes = memrefBytes(T);
  C.fullBytes = C.tileBytes * C.tiles;

  Block *Body = loop.getBody();
  Block *Outer = loop->getBlock();
  for (OpOperand &U : lds.getUses()) {
    Operation *User = U.getOwner();
    SmallVector<Value> R, W;
    memrefEffects(User, R, W);
    bool Reads = llvm::is_contained(R, lds), Writes = llvm::is_contained(W, lds);
    if (!isPlainAccess(User) || (Reads == Writes)) {
      why = "LDS buffer " + bufferName(lds) + " is used by '" +
            User->getName().getStringRef().str() +
            "' (only plain loads and stores are rewritten)";
      at = User;
      return std::nullopt;
    }
    if (loop->isAncestor(User)) {
      (Reads ? C.inReads : C.inWrites).push_back(User);
      continue;
    }
    Operation *A = Outer->findAncestorOpInBlock(*User);
    if (!A) {
      why = "LDS buffer " + bufferName(lds) + " is used outside the loop's block";
      at = User;
      return std::nullopt;
    }
    if (A->isBeforeInBlock(loop)) {
      if (Reads) {
        why = "LDS buffer " + bufferName(lds) + " is read before the loop";
        at = User;
        return std::nullopt;
      }
      C.preWrites.push_back(User);
    } else {
      if (Writes) {
        why = "LDS buffer " + bufferName(lds) + " is written after the loop";
        at = User;
        return std::nullopt;
      }
      C.postReads.push_back(User);
    }
  }
  if (C.inWrites.empty() || C.inReads.empty()) {
    why = "LDS buffer " + bufferName(lds) +
          " is not both written and read in the loop";
    return std::nullopt;
  }
  // Prefetch distance 1: every read of the iteration comes before every
  // write, so iteration i reads what iteration i-1 (or the prologue) wrote.
  Operation *LastRead = nullptr, *FirstWrite = nullptr;
  for (Operation *Op : C.inReads) {
    Operation *A = Body->findAncestorOpInBlock(*Op);
    if (!LastRead || LastRead->isBeforeInBlock(A))
      LastRead = A;
  }
  for (Operation *Op : C.inWrites) {
    Operation *A = Body->findAncestorOpInBlock(*Op);
    if (!FirstWrite || A->isBeforeInBlock(FirstWrite))
      FirstWrite = A;
    if (!llvm::is_contained(C.producers, A))
      C.producers.push_back(A);
  }
  if (!LastRead->isBeforeInBlock(FirstWrite)) {
    why = "the loop writes LDS buffer " + bufferName(lds) +
          " before it reads it (not one tile ahead)";
    at = FirstWrite;
    return std::nullopt;
  }
  llvm::sort(C.producers,
             [](Operation *A, Operation *B) { return A->isBeforeInBlock(B); });
  // Producers: global reads and writes of L only, no results used, operands
  // computable before the loop body runs (from the IV and invariants).
  for (Operation *P : C.producers) {
    bool Bad = false;
    P->walk([&](Operation *Op) {
      SmallVector<Value> R, W;
      memrefEffects(Op, R, W);
      for (Value V : W)
        Bad |= rootMemRef(V) != lds;
      for (Value V : R) {
        Value Root = rootMemRef(V);
        Bad |= isWorkgroupMemRef(Root.getType());
        if (!Bad && !C.source)
          C.source = Root;
      }
      if (!isa<MemoryEffectOpInterface>(Op) && !isMemoryEffectFree(Op) &&
          !Op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        Bad = true;
    });
    for (Value Res : P->getResults())
      Bad |= !Res.use_empty();
    if (!Bad)
      P->walk([&](Operation *Op) {
        for (Value O : Op->getOperands())
          Bad |= !collectDeps(O, Body, C.deps);
      });
    if (Bad) {
      why = "the op writing LDS buffer " + bufferName(lds) +
            " does more than copy global data (other memory, results used, "
            "or data carried from the previous iteration)";
      at = P;
      return std::nullopt;
    }
  }
  for (Operation *D : C.deps) {
    SmallVector<Value> R, W;
    memrefEffects(D, R, W);
    if (!C.source && !R.empty())
      C.source = rootMemRef(R.front());
  }
  if (!C.source) {
    why = "LDS buffer " + bufferName(lds) + " is not filled from global memory";
    return std::nullopt;
  }
  return C;
}

/// A write of the loop to memory that global loads might read (not LDS,
/// not a local allocation): hoisting the loads above it could change what
/// they read.
Operation *globalWriteIn(scf::ForOp loop) {
  Operation *Found = nullptr;
  loop.getBody()->walk([&](Operation *Op) {
    SmallVector<Value> R, W;
    memrefEffects(Op, R, W);
    for (Value V : W) {
      Value Root = rootMemRef(V);
      Operation *Def = Root.getDefiningOp();
      bool Local = Def && isa<memref::AllocOp, memref::AllocaOp>(Def);
      if (!isWorkgroupMemRef(Root.getType()) && !Local)
        Found = Op;
    }
  });
  return Found;
}

/// LDS bytes the function allocates: workgroup attributions and allocations
/// in workgroup memory.
int64_t ldsBytes(FunctionOpInterface F) {
  int64_t Total = 0;
  if (auto G = dyn_cast<gpu::GPUFuncOp>(F.getOperation()))
    for (BlockArgument A : G.getWorkgroupAttributions())
      Total += std::max<int64_t>(0, memrefBytes(A.getType()));
  F->walk([&](Operation *Op) {
    if (isa<memref::AllocOp, memref::AllocaOp>(Op) &&
        isWorkgroupMemRef(Op->getResult(0).getType()))
      Total += std::max<int64_t>(0, memrefBytes(Op->getResult(0).getType()));
  });
  return Total;
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

/// view = Src[0, Off][R, BK].
Value viewAt(OpBuilder &B, Location Loc, Value Src, Value Off, int64_t R,
             int64_t BK) {
  SmallVector<OpFoldResult> Offsets = {B.getIndexAttr(0), Off};
  SmallVector<OpFoldResult> Sizes = {B.getIndexAttr(R), B.getIndexAttr(BK)};
  SmallVector<OpFoldResult> Strides = {B.getIndexAttr(1), B.getIndexAttr(1)};
  return memref::SubViewOp::create(B, Loc, Src, Offsets, Sizes, Strides);
}

/// view = F[0, tile*BK][R, BK]: always a view of the whole buffer.
Value tileView(OpBuilder &B, Location Loc, Value Full, Value Tile, int64_t R,
               int64_t BK) {
  Value Off = arith::MulIOp::create(
      B, Loc, Tile, arith::ConstantIndexOp::create(B, Loc, BK));
  return viewAt(B, Loc, Full, Off, R, BK);
}

/// (iv - lb) / step + plus: the K tile an iteration reads (plus = 0) or
/// writes (plus = 1).
Value tileIndex(OpBuilder &B, Location Loc, scf::ForOp L, Value IV,
                int64_t Plus) {
  Value I = arith::DivUIOp::create(
      B, Loc, arith::SubIOp::create(B, Loc, IV, L.getLowerBound()),
      L.getStep());
  if (Plus)
    I = arith::AddIOp::create(B, Loc, I,
                              arith::ConstantIndexOp::create(B, Loc, Plus));
  return I;
}

void replaceBuffer(Operation *Op, Value Old, Value New) {
  for (OpOperand &O : Op->getOpOperands())
    if (O.get() == Old)
      O.set(New);
}

/// Erases `Op` and then the producers of its operands that became unused
/// and are pure or only read memory.
void eraseWithDeadProducers(Operation *Op) {
  SmallVector<Value> Operands(Op->getOperands());
  Op->erase();
  while (!Operands.empty()) {
    Value V = Operands.pop_back_val();
    Operation *Def = V.getDefiningOp();
    if (!Def || !Def->use_empty())
      continue;
    SmallVector<Value> R, W;
    memrefEffects(Def, R, W);
    if (!W.empty() || (!isMemoryEffectFree(Def) && R.empty()))
      continue;
    Operands.append(Def->operand_begin(), Def->operand_end());
    Def->erase();
  }
}

struct PingpongAggregateLoad
    : public mlir::pingpong::impl::PingpongAggregateLoadBase<
          PingpongAggregateLoad> {
  using PingpongAggregateLoadBase::PingpongAggregateLoadBase;

  void runOnOperation() override {
    if (operand != "auto" && operand != "a" && operand != "b" &&
        operand != "scales") {
      emitError(getOperation()->getLoc())
          << "pingpong-aggregate-load: operand must be a, b, scales or auto, "
             "not '"
          << operand << "'";
      return signalPassFailure();
    }
    const ::pingpong::target::TargetFacts *T =
        ::pingpong::target::factsFor(chip);
    int64_t Budget = ldsBudget ? int64_t(ldsBudget)
                     : T       ? int64_t(T->LDSBytesPerCU)
                               : 0;
    if (!Budget) {
      emitError(getOperation()->getLoc())
          << "pingpong-aggregate-load: unknown chip '" << chip
          << "' (gfx942, gfx950, or give lds-budget)";
      return signalPassFailure();
    }
    getOperation()->walk([&](FunctionOpInterface F) {
      if (!F.isExternal())
        run(F, Budget);
    });
  }

  void run(FunctionOpInterface F, int64_t Budget) {
    SmallVector<scf::ForOp> Loops;
    F->walk([&](scf::ForOp L) { Loops.push_back(L); });
    for (scf::ForOp L : Loops)
      runOnLoop(F, L, Budget);
  }

  void runOnLoop(FunctionOpInterface F, scf::ForOp L, int64_t Budget) {
    // LDS buffers the loop touches.
    // LDS buffers both written and read in the loop: a tiled K loop.
    SetVector<Value> Read, Written, Buffers;
    L.getBody()->walk([&](Operation *Op) {
      SmallVector<Value> R, W;
      memrefEffects(Op, R, W);
      for (Value V : R)
        if (isWorkgroupMemRef(rootMemRef(V).getType()))
          Read.insert(rootMemRef(V));
      for (Value V : W)
        if (isWorkgroupMemRef(rootMemRef(V).getType()))
          Written.insert(rootMemRef(V));
    });
    for (Value V : Read)
      if (Written.contains(V))
        Buffers.insert(V);
    if (Buffers.empty())
      return; // not a tiled K loop (e.g. a loop over threads, a copy loop)
    auto Trips = tripCount(L);
    if (!Trips) {
      emitRemark(L.getLoc()) << "pingpong: aggregate load: the loop's trip "
                                "count is not a constant (K must be static)";
      return;
    }
    if (!L.getInductionVar().getType().isIndex()) {
      emitRemark(L.getLoc()) << "pingpong: aggregate load: the loop's "
                                "induction variable is not an index";
      return;
    }
    if (Operation *W = globalWriteIn(L)) {
      InFlightDiagnostic D = emitRemark(L.getLoc())
                             << "pingpong: aggregate load: the loop writes "
                                "global memory; its loads stay in place";
      D.attachNote(W->getLoc()) << "here";
      return;
    }

    // Analysis of each buffer; names from the MFMA operands when there are.
    std::string Why;
    Operation *At = nullptr;
    DenseMap<Value, std::string> OperandName;
    if (auto K = analyzeKLoop(L, Why, At))
      for (auto &[O, Root] : K->ldsRoot)
        OperandName[Root] = stringifyOperand(static_cast<Operand>(O)).str();
    std::vector<Candidate> Cands;
    std::string Refusals;
    for (Value Buf : Buffers) {
      Why.clear();
      At = nullptr;
      if (auto C = analyze(L, Buf, *Trips, Why, At))
        Cands.push_back(std::move(*C));
      else if (Why.find("not both written and read") == std::string::npos)
        Refusals += (Refusals.empty() ? "" : "; ") + Why;
    }
    if (Cands.empty()) {
      emitRemark(L.getLoc()) << "pingpong: aggregate load: no operand to hoist"
                             << (Refusals.empty() ? "" : ": ") << Refusals;
      return;
    }
    // Without MFMA names: a, b by the order of their global sources.
    llvm::sort(Cands, [](const Candidate &A, const Candidate &B) {
      auto Arg = [](Value V) {
        auto BA = dyn_cast<BlockArgument>(V);
        return BA ? BA.getArgNumber() : ~0u;
      };
      return std::make_pair(Arg(A.source), bufferName(A.lds)) <
             std::make_pair(Arg(B.source), bufferName(B.lds));
    });
    for (unsigned I = 0; I < Cands.size(); ++I) {
      auto It = OperandName.find(Cands[I].lds);
      Cands[I].name = It != OperandName.end() ? It->second
                      : I < 2                 ? std::string(I ? "b" : "a")
                                              : bufferName(Cands[I].lds);
    }

    // Strategy. Operands (a, b): the asked one, or the smallest whole-K
    // block that fits. Scales (scaled MFMA loops): their whole K range is
    // small, so when no operand fits whole they are what gets aggregated,
    // all of them (seed 002). Else an operand in chunks of the most tiles
    // that fit; else a remark with the numbers.
    int64_t Used = ldsBytes(F);
    SmallVector<Candidate *> Scales;
    for (Candidate &C : Cands)
      if (StringRef(C.name).starts_with("scale_"))
        Scales.push_back(&C);
    auto IsScale = [&](Candidate &C) { return llvm::is_contained(Scales, &C); };
    Candidate *Pick = nullptr;
    int64_t PickChunk = 0;
    std::string NoFit;
    for (Candidate &C : Cands) {
      if (IsScale(C) || (operand != "auto" && C.name != operand))
        continue;
      int64_t Chunk = chunkTiles(C, Used, Budget);
      if (Chunk < C.tiles)
        NoFit += (NoFit.empty() ? "" : "; ") + describe(C) + " needs " +
                 std::to_string(Used - C.tileBytes + C.fullBytes) +
                 " bytes of LDS in all, over the " + std::to_string(Budget) +
                 " of " + budgetName();
      if (Chunk < 2) {
        NoFit += ", and a chunk of 2 tiles needs " +
                 std::to_string(Used - C.tileBytes + 2 * C.tileBytes);
        continue;
      }
      // A whole-K block beats a chunked one; then the smaller block.
      auto Rank = [&](const Candidate &X, int64_t Ch) {
        return std::make_pair(Ch < X.tiles, X.fullBytes);
      };
      if (!Pick || Rank(C, Chunk) < Rank(*Pick, PickChunk)) {
        Pick = &C;
        PickChunk = Chunk;
      }
    }
    bool OperandWhole = Pick && PickChunk == Pick->tiles;
    if (!Scales.empty() && !OperandWhole &&
        (operand == "auto" || operand == "scales")) {
      int64_t After = Used;
      std::string Names;
      for (Candidate *C : Scales) {
        After += C->fullBytes - C->tileBytes;
        Names += (Names.empty() ? "" : ", ") + describe(*C);
      }
      std::string Seed = seed002Count(Cands, Scales);
      std::string Loss = occupancyLoss(F, Used, After);
      if (After <= Budget && !Loss.empty()) {
        emitRemark(L.getLoc()) << "pingpong: aggregate load: the scales ("
                               << Names << ") not hoisted: " << Loss;
        return;
      }
      if (After <= Budget) {
        emitRemark(L.getLoc())
            << "pingpong: aggregate load: "
            << (NoFit.empty() ? std::string() : NoFit + "; ")
            << "the scales' whole K range fits: " << Names
            << " loaded before the loop; LDS " << Used << " -> " << After
            << " of " << Budget << " bytes" << Seed
            << occupancyNote(F, Used, After);
        for (Candidate *C : Scales)
          rewrite(F, L, *C, C->tiles);
        return;
      }
      NoFit += (NoFit.empty() ? "" : "; ") + std::string("the scales (") +
               Names + ") need " + std::to_string(After) +
               " bytes of LDS in all, over the " + std::to_string(Budget) +
               " of " + budgetName() + Seed;
      if (operand == "scales")
        Pick = nullptr;
    }
    if (!Pick) {
      emitRemark(L.getLoc())
          << "pingpong: aggregate load: "
          << (NoFit.empty() ? "operand " + operand + " is not hoistable"
                            : NoFit);
      return;
    }
    {
      int64_t After = Used - Pick->tileBytes + PickChunk * Pick->tileBytes;
      if (std::string Loss = occupancyLoss(F, Used, After); !Loss.empty()) {
        emitRemark(L.getLoc())
            << "pingpong: aggregate load: " << describe(*Pick) << " not "
            << (PickChunk < Pick->tiles ? "chunked" : "hoisted") << ": "
            << Loss;
        return;
      }
    }
    if (PickChunk < Pick->tiles) {
      int64_t After = Used - Pick->tileBytes + PickChunk * Pick->tileBytes;
      int64_t Full = *Trips / PickChunk, Rest = *Trips % PickChunk;
      emitRemark(L.getLoc())
          << "pingpong: aggregate load: " << describe(*Pick)
          << " does not fit; K in chunks of " << PickChunk << " tiles ("
          << Pick->rows << "x" << PickChunk * Pick->bk << ", "
          << PickChunk * Pick->tileBytes << " bytes): " << Full
          << " chunk" << (Full == 1 ? "" : "s") << " of " << PickChunk
          << " iterations, then "
          << (Rest ? std::to_string(Rest) +
                         (Rest == 1 ? " iteration" : " iterations") +
                         " and the last tile"
                   : std::string("the last tile alone"))
          << "; LDS " << Used << " -> " << After << " of " << Budget
          << " bytes" << occupancyNote(F, Used, After);
    } else {
      int64_t After = Used - Pick->tileBytes + Pick->fullBytes;
      emitRemark(L.getLoc()) << "pingpong: aggregate load: " << describe(*Pick)
                             << " loaded before the loop; LDS " << Used
                             << " -> " << After << " of " << Budget << " bytes"
                             << occupancyNote(F, Used, After);
    }
    rewrite(F, L, *Pick, PickChunk);
  }

  /// Seed 002's count for an MXFP4 loop, when its buffers are those of
  /// seed 002 (A, B tiles of BK elements, two scale buffers of BK/32 per
  /// row): tiles (BM+BN) x bytes-per-element x BK once each (one LDS tile
  /// per operand in this loop form, stages = 1) plus the scales' whole K
  /// range, (BM+BN) x K/32.
  static std::string seed002Count(std::vector<Candidate> &Cands,
                                  ArrayRef<Candidate *> Scales) {
    const Candidate *A = nullptr, *B = nullptr;
    for (const Candidate &C : Cands) {
      if (C.name == "a")
        A = &C;
      if (C.name == "b")
        B = &C;
    }
    if (!A || !B || Scales.size() != 2 || A->bk != B->bk)
      return "";
    int64_t BM = A->rows, BN = B->rows, BK = A->bk, K = A->bk * A->tiles;
    int64_t ElemBits = 8 * A->tileBytes / (A->rows * A->bk);
    for (Candidate *S : Scales)
      if (S->bk * 32 != BK)
        return "";
    std::string PerElem = ElemBits == 4 ? "0.5" : std::to_string(ElemBits / 8);
    int64_t Bytes = (BM + BN) * (ElemBits * BK / 8 + K / 32);
    return " (seed 002's count: (BM+BN) x (" + PerElem +
           " x BK x stages + K/32) = (" + std::to_string(BM) + "+" +
           std::to_string(BN) + ") x (" + PerElem + " x " +
           std::to_string(BK) + " x 1 + " + std::to_string(K) + "/32) = " +
           std::to_string(Bytes) + ")";
  }

  /// Workgroups of F a CU holds when each takes Bytes of LDS, capped by the
  /// CU's wave slots (when the workgroup size is known).
  int64_t workgroupsPerCU(FunctionOpInterface F, int64_t Bytes) const {
    const ::pingpong::target::TargetFacts *T =
        ::pingpong::target::factsFor(chip);
    if (!T || Bytes <= 0)
      return 0;
    int64_t ByLDS = int64_t(T->LDSBytesPerCU) / Bytes;
    if (unsigned Waves = workgroupWaves(F))
      return std::min<int64_t>(ByLDS,
                               int64_t(T->SIMDsPerCU) * T->MaxWavesPerSIMD /
                                   Waves);
    return ByLDS;
  }

  /// Why the rewrite would cost the occupancy pingpong needs ("" if it
  /// does not, or if the user allowed it): two waves per SIMD, so a 4-wave
  /// workgroup needs a second one on the CU (at one, the K loop runs with no
  /// partner wave: measured about 2x slower per CU, docs/mlir.md). Without a
  /// known workgroup size (a CPU-form kernel) there is nothing to count.
  std::string occupancyLoss(FunctionOpInterface F, int64_t Before,
                            int64_t After) const {
    const ::pingpong::target::TargetFacts *T =
        ::pingpong::target::factsFor(chip);
    unsigned Waves = workgroupWaves(F);
    if (allowOccupancyLoss || !T || !Waves)
      return "";
    int64_t WB = workgroupsPerCU(F, Before), WA = workgroupsPerCU(F, After);
    int64_t Need = (2 * int64_t(T->SIMDsPerCU) + Waves - 1) / Waves;
    if (WA >= std::min(WB, Need))
      return "";
    return "LDS " + std::to_string(Before) + " -> " + std::to_string(After) +
           " bytes would lower the workgroups of " + std::to_string(Waves) +
           " waves per CU from " + std::to_string(WB) + " to " +
           std::to_string(WA) + " on " + chip + ", below the " +
           std::to_string(Need) +
           " that give each SIMD two waves to pair (give lds-budget=" +
           std::to_string(int64_t(T->LDSBytesPerCU) / Need) +
           " to chunk within it, or allow-occupancy-loss=true)";
  }

  /// What the rewrite does to occupancy, said plainly when it changes.
  std::string occupancyNote(FunctionOpInterface F, int64_t Before,
                            int64_t After) const {
    int64_t WB = workgroupsPerCU(F, Before), WA = workgroupsPerCU(F, After);
    if (!WB || WA == WB)
      return "";
    return "; workgroups per CU (LDS" +
           std::string(workgroupWaves(F) ? ", wave slots" : "") + ") " +
           std::to_string(WB) + " -> " + std::to_string(WA);
  }

  std::string budgetName() const {
    return ldsBudget ? std::string("lds-budget") : std::string(chip);
  }

  /// Tiles of C's operand that fit in LDS next to every other buffer (the
  /// tile buffer L itself replaced), at most the whole K range.
  static int64_t chunkTiles(const Candidate &C, int64_t Used, int64_t Budget) {
    int64_t Free = Budget - (Used - C.tileBytes);
    if (Free <= 0)
      return 0;
    return std::min(Free / C.tileBytes, C.tiles);
  }

  static std::string describe(const Candidate &C) {
    return "operand " + C.name + " (" + bufferName(C.lds) + " <- " +
           bufferName(C.source) + ", " + std::to_string(C.rows) + "x" +
           std::to_string(C.bk * C.tiles) + " = " +
           std::to_string(C.tiles) + " tiles of " + std::to_string(C.rows) +
           "x" + std::to_string(C.bk) + ", " + std::to_string(C.fullBytes) +
           " bytes)";
  }

  /// `Chunk` tiles per chunk: the whole K range (T) or fewer (chunked K).
  void rewrite(FunctionOpInterface F, scf::ForOp L, Candidate &C,
               int64_t Chunk) {
    MLIRContext *Ctx = &getContext();
    bool Chunked = Chunk < C.tiles;
    auto TileT = cast<MemRefType>(C.lds.getType());
    auto FullT = MemRefType::get({C.rows, C.bk * Chunk},
                                 TileT.getElementType(), nullptr,
                                 TileT.getMemorySpace());
    Location Loc = L.getLoc();
    OpBuilder B(Ctx);
    auto Idx = [&](int64_t V) -> Value {
      return arith::ConstantIndexOp::create(B, Loc, V);
    };

    // F: a workgroup attribution in a gpu.func, else an allocation at L's.
    Value Full;
    auto GF = dyn_cast<gpu::GPUFuncOp>(F.getOperation());
    if (GF && isa<BlockArgument>(C.lds)) {
      Full = GF.addWorkgroupAttribution(FullT, Loc);
    } else if (Operation *Def = C.lds.getDefiningOp()) {
      B.setInsertionPointAfter(Def);
      Full = memref::AllocOp::create(B, Loc, FullT);
    } else {
      emitRemark(Loc) << "pingpong: aggregate load: cannot place the buffer";
      return;
    }
    // Tile t lives in slot t mod Chunk of F (slot t when not chunked).
    auto SlotView = [&](Value Tile) {
      Value Slot = Chunked ? arith::RemUIOp::create(B, Loc, Tile, Idx(Chunk))
                           : Tile;
      return tileView(B, Loc, Full, Slot, C.rows, C.bk);
    };
    auto Barrier = [&] {
      if (GF)
        gpu::BarrierOp::create(B, Loc);
    };

    // Prologue writes -> tile 0.
    for (Operation *W : C.preWrites) {
      B.setInsertionPoint(W);
      replaceBuffer(W, C.lds, SlotView(Idx(0)));
    }

    // A copy loop over K-loop IVs [From, To): the producers with the copy
    // loop's IV, each writing the tile iteration IV would have written
    // (tile i+1), then a barrier.
    Value Step = L.getStep();
    auto EmitCopy = [&](Value From, Value To) {
      auto Copy = scf::ForOp::create(B, Loc, From, To, Step);
      OpBuilder::InsertionGuard G(B);
      B.setInsertionPointToStart(Copy.getBody());
      IRMapping Map;
      Map.map(L.getInductionVar(), Copy.getInductionVar());
      Value WTile =
          SlotView(tileIndex(B, Loc, L, Copy.getInductionVar(), 1));
      for (Operation &Op : *L.getBody())
        if (C.deps.contains(&Op) || llvm::is_contained(C.producers, &Op))
          B.clone(Op, Map);
      Copy.getBody()->walk(
          [&](Operation *Op) { replaceBuffer(Op, C.lds, WTile); });
      B.setInsertionPointAfter(Copy);
      Barrier();
    };

    // Chunked K: an outer loop over the full chunks of Chunk iterations,
    // each copying its tiles (tile 0 is the prologue's), a barrier, the K
    // loop over its iterations, a barrier (the next copy overwrites what
    // they read); then the last chunk: the tiles of the remaining
    // iterations and the epilogue's, a barrier, those iterations in a copy
    // of the K loop. The IV arithmetic needs the bounds as constants (the
    // trip count is).
    int64_t Lb = *getConstantIntValue(L.getLowerBound());
    int64_t St = *getConstantIntValue(Step);
    int64_t Trips = C.tiles - 1;
    int64_t FullChunks = Trips / Chunk, Rest = Trips % Chunk;
    scf::ForOp Outer;
    B.setInsertionPoint(L);
    if (!Chunked) {
      EmitCopy(L.getLowerBound(), L.getUpperBound());
    } else {
      Outer = scf::ForOp::create(B, Loc, L.getLowerBound(),
                                 Idx(Lb + FullChunks * Chunk * St),
                                 Idx(Chunk * St), L.getInitArgs());
      // Its yield comes last, after the K loop moves in.
      if (Outer.getBody()->mightHaveTerminator())
        Outer.getBody()->getTerminator()->erase();
      B.setInsertionPointToStart(Outer.getBody());
      Value Kc = Outer.getInductionVar();
      // Tiles (Kc-Lb)/St .. +Chunk-1 are written by the IVs one step
      // earlier; the first chunk's tile 0 by the prologue.
      Value From = arith::MaxSIOp::create(
          B, Loc, arith::SubIOp::create(B, Loc, Kc, Step), L.getLowerBound());
      Value To = arith::AddIOp::create(B, Loc, Kc, Idx((Chunk - 1) * St));
      EmitCopy(From, To);
      B.setInsertionPointAfter(Outer);
      EmitCopy(Idx(Lb + (FullChunks * Chunk - 1) * St), L.getUpperBound());
    }

    // The loop reads tile i through a view of the whole buffer.
    {
      OpBuilder::InsertionGuard G(B);
      B.setInsertionPointToStart(L.getBody());
      Value I = tileIndex(B, Loc, L, L.getInductionVar(), 0);
      Value RTile = SlotView(I);
      if (testSliceBase) {
        // Seed 000's bug, on purpose: the tile's offset applied again on a
        // base that is already the slice, not the whole buffer.
        auto Sub = RTile.getDefiningOp<memref::SubViewOp>();
        RTile = viewAt(B, Loc, RTile, cast<Value>(Sub.getMixedOffsets()[1]),
                       C.rows, C.bk);
      }
      for (Operation *R : C.inReads)
        replaceBuffer(R, C.lds, RTile);
      for (Operation *P : C.producers)
        eraseWithDeadProducers(P);
    }

    if (Chunked) {
      // The remaining iterations: a copy of the K loop after the last
      // chunk's copy, from the full chunks' results.
      ValueRange Results = Outer.getResults();
      if (Rest) {
        Value RestLb = Idx(Lb + FullChunks * Chunk * St);
        auto RestLoop = cast<scf::ForOp>(B.clone(*L));
        RestLoop.getLowerBoundMutable().assign(RestLb);
        RestLoop.getInitArgsMutable().assign(Outer.getResults());
        Results = RestLoop.getResults();
      }
      L->replaceAllUsesWith(Results);
      // The K loop runs one chunk's iterations inside the outer loop.
      L->moveBefore(Outer.getBody(), Outer.getBody()->end());
      B.setInsertionPoint(L);
      Value Kc = Outer.getInductionVar();
      L.getLowerBoundMutable().assign(Kc);
      L.getUpperBoundMutable().assign(
          arith::AddIOp::create(B, Loc, Kc, Idx(Chunk * St)));
      L.getInitArgsMutable().assign(Outer.getRegionIterArgs());
      B.setInsertionPointAfter(L);
      Barrier();
      scf::YieldOp::create(B, Loc, L.getResults());
    }

    // After the loop: the last tile.
    for (Operation *R : C.postReads) {
      B.setInsertionPoint(R);
      replaceBuffer(R, C.lds, SlotView(Idx(C.tiles - 1)));
    }

    // L is unused now: drop it.
    if (C.lds.use_empty()) {
      if (auto Arg = dyn_cast<BlockArgument>(C.lds); Arg && GF &&
          !GF->hasAttr(GF.getWorkgroupAttribAttrsAttrName())) {
        unsigned Count = GF.getNumWorkgroupAttributions();
        GF.getBody().front().eraseArgument(Arg.getArgNumber());
        GF->setAttr(GF.getNumWorkgroupAttributionsAttrName(),
                    B.getI64IntegerAttr(Count - 1));
      } else if (Operation *Def = C.lds.getDefiningOp()) {
        Def->erase();
      }
    }
  }
};

} // namespace
