//===- KLoop.cpp - roles of the ops of an MFMA K loop (MLIR) --------------===//
//
// Analysis only; see include/pingpong/Dialect/KLoop.h. The walks follow the
// plugin's (docs/design.md, "Analysis"): from each MFMA operand back through
// value-only ops to the reads that produce it, from each LDS write's data back
// to the global loads.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Dialect/KLoop.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::pingpong;

bool mlir::pingpong::isMFMA(Operation *op) {
  if (isa<amdgpu::MFMAOp, amdgpu::ScaledMFMAOp>(op))
    return true;
  StringRef N = op->getName().getStringRef();
  return N.starts_with("rocdl.mfma.") || N.starts_with("rocdl.smfmac.");
}

bool mlir::pingpong::isBarrier(Operation *op) {
  if (isa<gpu::BarrierOp, amdgpu::LDSBarrierOp>(op))
    return true;
  StringRef N = op->getName().getStringRef();
  return N == "rocdl.barrier" || N == "rocdl.s.barrier";
}

bool mlir::pingpong::isWorkgroupMemRef(Type t) {
  auto M = dyn_cast<MemRefType>(t);
  if (!M)
    return false;
  Attribute S = M.getMemorySpace();
  if (auto G = dyn_cast_or_null<gpu::AddressSpaceAttr>(S))
    return G.getValue() == gpu::AddressSpace::Workgroup;
  if (auto I = dyn_cast_or_null<IntegerAttr>(S))
    return I.getInt() == 3; // AMDGPU LDS
  return false;
}

Value mlir::pingpong::rootMemRef(Value v) {
  while (Operation *Def = v.getDefiningOp()) {
    if (auto View = dyn_cast<ViewLikeOpInterface>(Def)) {
      v = View.getViewSource();
      continue;
    }
    if (auto Cast = dyn_cast<amdgpu::FatRawBufferCastOp>(Def)) {
      v = Cast.getSource();
      continue;
    }
    if (auto Cast = dyn_cast<memref::MemorySpaceCastOp>(Def)) {
      v = Cast.getSource();
      continue;
    }
    break;
  }
  return v;
}

std::string mlir::pingpong::bufferName(Value root) {
  if (auto Arg = dyn_cast<BlockArgument>(root)) {
    Operation *Parent = Arg.getOwner()->getParentOp();
    if (auto F = dyn_cast<gpu::GPUFuncOp>(Parent)) {
      unsigned N = Arg.getArgNumber();
      unsigned Args = F.getNumArguments();
      if (N >= Args && N < Args + F.getNumWorkgroupAttributions())
        return "wg" + std::to_string(N - Args);
      if (N >= Args)
        return "priv" + std::to_string(N - Args - F.getNumWorkgroupAttributions());
    }
    return "arg" + std::to_string(Arg.getArgNumber());
  }
  Operation *Def = root.getDefiningOp();
  if (auto G = dyn_cast<memref::GetGlobalOp>(Def))
    return ("@" + G.getName()).str();
  if (isa<memref::AllocOp, memref::AllocaOp>(Def)) {
    // Numbered in the order of the function, so the name is stable.
    unsigned I = 0, Found = 0;
    Operation *Func = Def->getParentOfType<FunctionOpInterface>();
    if (Func)
      Func->walk([&](Operation *Op) {
        if (Op == Def)
          Found = I;
        if (isa<memref::AllocOp, memref::AllocaOp>(Op))
          ++I;
      });
    return "alloc" + std::to_string(Found);
  }
  return Def->getName().getStringRef().str();
}

unsigned mlir::pingpong::workgroupWaves(Operation *func, bool *assumed) {
  int64_t Lanes = 0;
  if (assumed)
    *assumed = false;
  if (auto F = dyn_cast<gpu::GPUFuncOp>(func)) {
    if (auto Known = F.getKnownBlockSize()) {
      Lanes = 1;
      for (int32_t D : *Known)
        Lanes *= D;
    }
  }
  if (!Lanes)
    for (StringRef Name : {"rocdl.reqd_work_group_size", "gpu.known_block_size"})
      if (auto A = func->getAttrOfType<DenseI32ArrayAttr>(Name)) {
        Lanes = 1;
        for (int32_t D : A.asArrayRef())
          Lanes *= D;
        break;
      }
  // A range "min,max": the plugin counts the waves of the max, and so do we.
  if (!Lanes)
    if (auto S = func->getAttrOfType<StringAttr>("rocdl.flat_work_group_size")) {
      int64_t Max = 0;
      if (!S.getValue().split(',').second.trim().getAsInteger(10, Max))
        Lanes = Max;
    }
  if (!Lanes)
    if (auto I = func->getAttrOfType<IntegerAttr>("rocdl.max_flat_work_group_size"))
      Lanes = I.getInt(); // the translation writes "1,<it>"
  if (!Lanes) {
    auto F = dyn_cast<gpu::GPUFuncOp>(func);
    if (!F || !F.isKernel())
      return 0;
    Lanes = kROCDLDefaultFlatWorkGroupMax;
    if (assumed)
      *assumed = true;
  }
  return (Lanes + 63) / 64; // CDNA: wave64; a partial wave is a wave
}

namespace {

struct MFMAShape {
  unsigned M = 0, N = 0, K = 0;
};

MFMAShape mfmaShape(Operation *op) {
  if (auto Op = dyn_cast<amdgpu::MFMAOp>(op))
    return {Op.getM(), Op.getN(), Op.getK()};
  if (auto Op = dyn_cast<amdgpu::ScaledMFMAOp>(op))
    return {Op.getM(), Op.getN(), Op.getK()};
  // rocdl.mfma.f32.16x16x16f16, rocdl.mfma.scale.f32.32x32x64.f8f6f4, ...
  MFMAShape S;
  for (StringRef Part : llvm::split(op->getName().getStringRef(), '.')) {
    SmallVector<StringRef> Dims;
    Part.split(Dims, 'x');
    if (Dims.size() != 3)
      continue;
    unsigned V[3];
    bool Ok = true;
    for (int I = 0; I < 3; ++I) {
      StringRef D = Dims[I];
      size_t Len = 0;
      while (Len < D.size() && llvm::isDigit(D[Len]))
        ++Len;
      Ok &= Len && !D.take_front(Len).getAsInteger(10, V[I]);
    }
    if (Ok)
      return {V[0], V[1], V[2]};
  }
  return S;
}

unsigned elementBits(Type t) {
  if (auto V = dyn_cast<VectorType>(t))
    t = V.getElementType();
  return t.isIntOrFloat() ? t.getIntOrFloatBitWidth() : 0;
}

} // namespace

void mlir::pingpong::memrefEffects(Operation *op, SmallVectorImpl<Value> &reads,
                                   SmallVectorImpl<Value> &writes) {
  auto I = dyn_cast<MemoryEffectOpInterface>(op);
  if (!I)
    return;
  SmallVector<MemoryEffects::EffectInstance> Effects;
  I.getEffects(Effects);
  for (const MemoryEffects::EffectInstance &E : Effects) {
    Value V = E.getValue();
    if (!V || !isa<MemRefType>(V.getType()))
      continue;
    if (isa<MemoryEffects::Read>(E.getEffect()))
      reads.push_back(V);
    else if (isa<MemoryEffects::Write>(E.getEffect()))
      writes.push_back(V);
  }
}

int64_t mlir::pingpong::memrefBytes(Type t) {
  auto M = dyn_cast<MemRefType>(t);
  if (!M || !M.hasStaticShape() || !M.getElementType().isIntOrFloat())
    return -1;
  return M.getNumElements() * M.getElementTypeBitWidth() / 8;
}

namespace {

/// What a backward walk from a value found.
struct Sources {
  SmallVector<std::pair<Operation *, Value>> ldsReads;    // op, memref
  SmallVector<std::pair<Operation *, Value>> globalReads; // op, memref
  Operation *fromDot = nullptr;   // an MFMA feeds the value (chained dots)
  bool fromIterArg = false;       // a value of the previous iteration
};

/// Walks back from `v` through memory-free ops of `body` to the reads that
/// produce it. Index operands (addresses) are not followed.
void walkBack(Value v, Block *body, Sources &S, DenseSet<Value> &Seen) {
  if (!Seen.insert(v).second || v.getType().isIndex())
    return;
  if (auto Arg = dyn_cast<BlockArgument>(v)) {
    if (Arg.getOwner() == body && Arg.getArgNumber() > 0)
      S.fromIterArg = true;
    return;
  }
  Operation *Def = v.getDefiningOp();
  if (!Def || Def->getBlock() != body)
    return; // loop invariant
  if (isMFMA(Def)) {
    S.fromDot = Def;
    return;
  }
  SmallVector<Value> Reads, Writes;
  memrefEffects(Def, Reads, Writes);
  if (!Reads.empty()) {
    for (Value M : Reads)
      (isWorkgroupMemRef(M.getType()) ? S.ldsReads : S.globalReads)
          .push_back({Def, M});
    return;
  }
  if (!isMemoryEffectFree(Def))
    return;
  for (Value O : Def->getOperands())
    walkBack(O, body, S, Seen);
}

} // namespace

uint64_t KLoop::tileVolume() const {
  return uint64_t(dots.size()) * mfmaM * mfmaN * mfmaK * waves;
}

std::optional<std::array<int64_t, 3>> KLoop::tile() const {
  int64_t BK = int64_t(chainLen) * mfmaK;
  auto Rows = [&](Operand O) -> int64_t {
    auto It = ldsRoot.find(unsigned(O));
    if (It == ldsRoot.end())
      return 0;
    auto T = cast<MemRefType>(It->second.getType());
    if (!T.hasStaticShape() || !BK)
      return 0;
    if (T.getRank() == 2) // [rows][K]: also a whole-K buffer (aggregate load)
      return T.getDimSize(0);
    // [slots][rows][BK]: a slot per stage (a double-buffered K loop).
    if (T.getRank() == 3 && T.getDimSize(2) == BK)
      return T.getDimSize(1);
    return T.getNumElements() % BK ? 0 : T.getNumElements() / BK;
  };
  int64_t BM = Rows(Operand::A), BN = Rows(Operand::B);
  if (!BM || !BN || uint64_t(BM * BN * BK) != tileVolume())
    return std::nullopt;
  return std::array<int64_t, 3>{BM, BN, BK};
}

unsigned KLoop::count(MemRole R) const {
  return llvm::count_if(mem, [&](const KLoopMemOp &M) { return M.role == R; });
}

unsigned KLoop::stages() const {
  return count(MemRole::GlobalLoad) + count(MemRole::LdsDma) ? 2 : 1;
}

std::optional<KLoop> mlir::pingpong::analyzeKLoop(scf::ForOp loop,
                                                  std::string &why,
                                                  Operation *&at) {
  at = nullptr;
  Block *Body = loop.getBody();
  KLoop K;
  K.loop = loop;
  for (Operation &Op : *Body)
    if (isMFMA(&Op))
      K.dots.push_back(&Op);
  if (K.dots.empty()) {
    why = "no MFMA in the loop body";
    return std::nullopt;
  }
  // The plugin needs a single-block body: any region in the body becomes
  // control flow (or, for inner loops, hides the MFMAs in another loop).
  for (Operation &Op : *Body)
    if (Op.getNumRegions()) {
      why = "the loop body has control flow ('" +
            Op.getName().getStringRef().str() +
            "'): the plugin needs a single-block body";
      at = &Op;
      return std::nullopt;
    }

  // Dots: shape, element width, K step along each accumulator chain.
  MFMAShape Shape = mfmaShape(K.dots.front());
  K.mfmaM = Shape.M;
  K.mfmaN = Shape.N;
  K.mfmaK = Shape.K;
  K.bits = elementBits(K.dots.front()->getOperand(0).getType());
  for (Operation *D : K.dots) {
    MFMAShape S = mfmaShape(D);
    if (S.M != Shape.M || S.N != Shape.N || S.K != Shape.K) {
      why = "MFMAs of different shapes in one loop";
      at = D;
      return std::nullopt;
    }
    Operation *Prev = D->getOperand(2).getDefiningOp();
    unsigned Step = 0;
    if (Prev && K.kstep.count(Prev))
      Step = K.kstep[Prev] + 1;
    else
      ++K.accumulators;
    K.kstep[D] = Step;
    K.chainLen = std::max(K.chainLen, Step + 1);
  }

  // LDS reads feeding the dots; their buffers name the operands.
  DenseMap<Operation *, KLoopMemOp> Reads;
  DenseMap<Value, Operand> BufferOperand;
  auto addRead = [&](Operation *Op, Value M, Operand O, int64_t Step) {
    auto [It, New] = Reads.try_emplace(Op);
    if (New) {
      Value Root = rootMemRef(M);
      It->second = {Op, MemRole::LdsRead, O, Step, bufferName(Root)};
      BufferOperand.try_emplace(Root, O);
      K.ldsRoot.try_emplace(unsigned(O), Root);
    } else if (Step < It->second.kstep) {
      It->second.kstep = Step;
    }
  };
  for (Operation *D : K.dots) {
    SmallVector<std::pair<unsigned, Operand>> Inputs = {{0, Operand::A},
                                                        {1, Operand::B}};
    if (isa<amdgpu::ScaledMFMAOp>(D))
      Inputs.append({{3, Operand::ScaleA}, {4, Operand::ScaleB}});
    for (auto [Idx, O] : Inputs) {
      Sources S;
      DenseSet<Value> Seen;
      walkBack(D->getOperand(Idx), Body, S, Seen);
      for (auto [Op, M] : S.ldsReads)
        addRead(Op, M, O, K.kstep[D]);
      if (!S.globalReads.empty() && !at) {
        why = "an MFMA operand comes straight from a global load (LDS bypass)";
        at = S.globalReads.front().first;
      }
      if (S.fromDot && !at) {
        why = "an MFMA operand is another MFMA's result (chained dots)";
        at = S.fromDot;
      }
      if (S.fromIterArg && !at) {
        why = "an MFMA operand is read in the previous iteration (register "
              "prefetch)";
        at = D;
      }
    }
  }
  for (Operation &Op : *Body)
    if (Reads.count(&Op))
      K.mem.push_back(Reads[&Op]);

  // LDS writes (and LDS DMA), by the operand of their buffer; the global
  // loads whose data they write.
  DenseSet<Operation *> Feeding;
  for (Operation &Op : *Body) {
    if (isBarrier(&Op)) {
      K.barriers.push_back(&Op);
      continue;
    }
    SmallVector<Value> R, W;
    memrefEffects(&Op, R, W);
    auto LdsW = llvm::find_if(W, [](Value V) { return isWorkgroupMemRef(V.getType()); });
    if (LdsW == W.end())
      continue;
    Value Root = rootMemRef(*LdsW);
    auto It = BufferOperand.find(Root);
    if (It == BufferOperand.end()) {
      if (!at) {
        why = "an LDS write to a buffer no MFMA operand is read from";
        at = &Op;
      }
      continue;
    }
    bool GlobalSrc = llvm::any_of(R, [](Value V) { return !isWorkgroupMemRef(V.getType()); });
    if (GlobalSrc) { // amdgpu.gather_to_lds
      K.mem.push_back({&Op, MemRole::LdsDma, It->second, -1, bufferName(Root)});
      K.globalRoot.try_emplace(unsigned(It->second),
                               rootMemRef(*llvm::find_if(R, [](Value V) {
                                 return !isWorkgroupMemRef(V.getType());
                               })));
      continue;
    }
    K.mem.push_back({&Op, MemRole::LdsWrite, It->second, -1, bufferName(Root)});
    Sources S;
    DenseSet<Value> Seen;
    for (Value V : Op.getOperands())
      if (!isa<MemRefType>(V.getType()))
        walkBack(V, Body, S, Seen);
    for (auto [G, M] : S.globalReads)
      if (Feeding.insert(G).second) {
        Value GRoot = rootMemRef(M);
        K.mem.push_back({G, MemRole::GlobalLoad, It->second, -1, bufferName(GRoot)});
        K.globalRoot.try_emplace(unsigned(It->second), GRoot);
      }
  }
  // A global load that feeds neither LDS nor an MFMA: the plugin refuses the
  // loop (Triton's three-load rejection).
  for (Operation &Op : *Body) {
    SmallVector<Value> R, W;
    memrefEffects(&Op, R, W);
    if (W.empty() && !R.empty() && !Reads.count(&Op) && !Feeding.count(&Op) &&
        !at) {
      why = "a global load that does not feed the dot's LDS buffers";
      at = &Op;
    }
  }
  // The memory ops in body order (one entry per op, so the order is total).
  DenseMap<Operation *, unsigned> Order;
  unsigned I = 0;
  for (Operation &Op : *Body)
    Order[&Op] = I++;
  llvm::sort(K.mem, [&](const KLoopMemOp &A, const KLoopMemOp &B) {
    return Order[A.op] < Order[B.op];
  });
  if (Operation *F = loop->getParentOfType<FunctionOpInterface>())
    K.waves = workgroupWaves(F, &K.wavesAssumed);
  else if (Operation *F = loop->getParentOfType<gpu::GPUFuncOp>())
    K.waves = workgroupWaves(F, &K.wavesAssumed);
  if (!at)
    why.clear();
  return K;
}
