//===- TileShape.cpp - the workgroup tile of a loop ------------------------===//
//
// Concern (e) of the loop model: the workgroup tile M x N x K and its size in
// bits (Triton's thresholds: M * N * K * element bits), in bits throughout so
// FP4 (4 bits, two elements a byte) and FP6 come out right. Only the A and B
// operands count: scales are not tile data.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/LDSObjects.h"
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineMemOperand.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"

#include <optional>

using namespace llvm;
namespace pingpong {

namespace {
uint64_t bytesOf(const MachineMemOperand *MMO) {
  return MMO->getSize().hasValue() ? MMO->getSize().getValue() : 0;
}

using ByteBound = std::pair<int64_t, int64_t>; // [lo, hi) in the LDS object

std::optional<ByteBound> boundOf(const sync::LDSRegion &R) {
  return R.Range ? R.Range : R.Extent;
}

/// The operand an LDS write of no known operand fills, for counting the
/// traffic only. The model names a write's operand where the buffer identity
/// proves it; in an arena (Triton's global_smem) it cannot, and then every
/// write of a scaled loop was counted as "maybe a scale". The bound of the
/// write's bytes meeting the bounds of one operand's reads only (same object)
/// tells a scale's write from A's and B's; None where it meets several or
/// none, or a bound is unknown.
Operand operandByBounds(const MachineInstr &Write,
                        ArrayRef<sync::LDSRegion> Reads,
                        ArrayRef<Operand> ReadOps) {
  sync::LDSRegion W = ldsRegionOf(Write);
  std::optional<ByteBound> WB = boundOf(W);
  if (!W.Object || !WB)
    return Operand::None;
  Operand Found = Operand::None;
  for (unsigned I = 0; I < Reads.size(); ++I) {
    std::optional<ByteBound> RB = boundOf(Reads[I]);
    if (Reads[I].Object != W.Object || !RB)
      continue;
    if (RB->second <= WB->first || WB->second <= RB->first)
      continue; // disjoint
    if (Found != Operand::None && Found != ReadOps[I])
      return Operand::None;
    Found = ReadOps[I];
  }
  return Found;
}
/// The object behind a pointer induction variable: loop strength reduction
/// turns a read indexed by the loop (an aggregate-loaded buffer read one K
/// tile further each iteration) into a pointer PHI, which the underlying
/// object walk stops at. When every incoming value comes from one object,
/// that object (else the value itself).
const Value *throughPointerPHIs(const Value *V) {
  if (!V || !isa<PHINode>(V))
    return V;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(V, Objects);
  if (Objects.empty() || !llvm::all_equal(Objects))
    return V;
  return Objects.front();
}
} // namespace

/// The workgroup tile M x N x K. K per iteration is the chain length times
/// the MFMA's K. The LDS writes (or LDS DMA) of one iteration carry
/// (M + N) * K elements and the MFMAs of all waves cover M * N * K * r, where
/// r waves compute the same outputs (Triton's broadcast layouts for tiny
/// tiles): take the smallest r for which M and N come out whole.
void deriveTile(LoopModel &M, const MachineFunction &MF) {
  M.TileK = 0;
  M.Replication = 1;
  M.TileM = M.TileN = 0;
  M.TileBits = 0;
  if (M.chainedDots())
    return; // two dots, two shapes: no one GEMM tile
  const target::TargetFacts *TF = target::factsFor(MF.getSubtarget().getCPU());
  const uint64_t Lanes = TF ? TF->WaveSize : 64;
  unsigned Waves = std::max(M.Waves, 1u);
  const uint64_t ElemBits = std::max(1u, M.Shape.ElemBits);
  uint64_t K = uint64_t(M.ChainLen) * M.Shape.K;
  uint64_t DotVolume = uint64_t(M.NumDots) * M.Shape.M * M.Shape.N * M.Shape.K;
  // In a scaled loop, the writes of no known operand by their bytes.
  SmallVector<Operand, 32> WriteOp;
  SmallVector<sync::LDSRegion, 32> Reads;
  SmallVector<Operand, 32> ReadOps;
  if (M.scaled())
    for (const InstInfo &II : M.Insts)
      if (II.R == Role::LocalRead && II.Op != Operand::None) {
        Reads.push_back(ldsRegionOf(*II.MI));
        ReadOps.push_back(II.Op);
      }
  for (const InstInfo &II : M.Insts)
    WriteOp.push_back(II.R == Role::LocalWrite && II.Op == Operand::None &&
                              !Reads.empty()
                          ? operandByBounds(*II.MI, Reads, ReadOps)
                          : II.Op);
  // Bits one wave's fills of an iteration carry: of A and B (and of fills of
  // no known operand), and of everything.
  uint64_t WriteBits = 0, AllFillBits = 0;
  bool UnknownFill = false;
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    const InstInfo &II = M.Insts[I];
    uint64_t Bits = 0;
    if (II.R == Role::LocalWrite)
      for (const MachineMemOperand *MMO : II.MI->memoperands())
        Bits += 8 * bytesOf(MMO);
    // LDS DMA: what each lane loads is what lands in LDS (its LDS-side
    // operand says 4 bytes whatever the width). A direct load fills its
    // operand's registers with the same share of the tile (seed 002's M=32
    // loop: A in registers, B by DMA).
    if (II.R == Role::AsyncCopy || II.R == Role::DirectLoad)
      for (const MachineMemOperand *MMO : II.MI->memoperands())
        if (MMO->getAddrSpace() != 3)
          Bits += 8 * bytesOf(MMO);
    AllFillBits += Bits;
    if (!isScale(WriteOp[I]))
      WriteBits += Bits;
    if ((II.R == Role::LocalWrite || II.R == Role::AsyncCopy) &&
        WriteOp[I] == Operand::None)
      UnknownFill = true;
  }
  uint64_t Elems = WriteBits * Lanes * Waves / ElemBits;
  // With scales, a write of no known operand may be a scale's: the traffic
  // would not be (M + N) * K elements ...
  bool TrafficKnown = !M.scaled() || !UnknownFill;
  // ... unless every scale comes through LDS: then the fills carry, per row
  // of the tile and K element, the element and 8/32 bit of its e8m0 scale
  // (one per 32 elements, v_mfma_scale's block), whichever write is which.
  auto FromLDS = [&](Operand O) {
    return llvm::any_of(M.Insts,
                        [&](const InstInfo &I) {
                          return I.R == Role::LocalRead && I.Op == O;
                        }) &&
           llvm::none_of(M.Insts, [&](const InstInfo &I) {
             return I.Op == O &&
                    (I.R == Role::DirectLoad || I.R == Role::SideLoad);
           });
  };
  if (!TrafficKnown && FromLDS(Operand::ScaleA) && FromLDS(Operand::ScaleB)) {
    uint64_t QuarterBits = AllFillBits * Lanes * Waves * 4;
    if (QuarterBits % (4 * ElemBits + 1) == 0) {
      Elems = QuarterBits / (4 * ElemBits + 1);
      TrafficKnown = true;
    }
  }
  M.TileK = K;
  // Best source: the LDS buffers' sizes, M x K and N x K elements: two
  // __shared__ arrays, or the two fields of the struct that AMDGPU's module
  // LDS lowering packs them into. Which is A does not matter for M * N.
  SmallVector<const Value *, 2> Objs;
  for (const InstInfo &II : M.Insts)
    if ((II.R == Role::LocalRead || II.R == Role::LocalWrite) && !isScale(II.Op)) {
      const Value *O = throughPointerPHIs(ldsObject(ldsRegionOf(*II.MI)));
      if (!llvm::is_contained(Objs, O))
        Objs.push_back(O);
    }
  // Each buffer: its object and byte span in it (a field of the struct the
  // module LDS lowering packs two arrays into), and its size in bits.
  struct Buffer {
    const Value *Obj;
    int64_t Lo, Hi;
  };
  SmallVector<Buffer, 2> Buffers;
  SmallVector<uint64_t, 2> SizeBits;
  const DataLayout &DL = MF.getDataLayout();
  for (const Value *O : Objs)
    if (auto *GV = dyn_cast_or_null<GlobalVariable>(O)) {
      int64_t Bytes = DL.getTypeAllocSize(GV->getValueType());
      Buffers.push_back({O, 0, Bytes});
      SizeBits.push_back(8 * Bytes);
    }
  if (Objs.size() == 1 && SizeBits.size() == 1) {
    auto *GV = cast<GlobalVariable>(Objs.front());
    auto *ST = dyn_cast<StructType>(GV->getValueType());
    SizeBits.clear();
    Buffers.clear();
    if (ST && ST->getNumElements() == 2) {
      const StructLayout *SL = DL.getStructLayout(ST);
      for (unsigned F = 0; F < 2; ++F) {
        int64_t Lo = SL->getElementOffset(F),
                Bytes = DL.getTypeAllocSize(ST->getElementType(F));
        Buffers.push_back({GV, Lo, Lo + Bytes});
        SizeBits.push_back(8 * Bytes);
      }
    }
  }
  // The one buffer the loop's LDS writes fill, when all of them fill the
  // same one (an aggregate load leaves the other operand's buffer alone in
  // the loop; a multi-stage loop writes both); -1 otherwise.
  int WrittenBuffer = -1;
  bool WritesKnown = SizeBits.size() == 2;
  for (const InstInfo &II : M.Insts) {
    if (!WritesKnown || II.R != Role::LocalWrite || isScale(II.Op))
      continue;
    sync::LDSRegion R = ldsRegionOf(*II.MI);
    const Value *O = throughPointerPHIs(ldsObject(R));
    std::optional<ByteBound> B = boundOf(R);
    int Found = -1;
    for (unsigned I = 0; I < Buffers.size(); ++I)
      if (Buffers[I].Obj == O && (Buffers.front().Obj != Buffers.back().Obj ||
                                  (B && B->first >= Buffers[I].Lo &&
                                   B->second <= Buffers[I].Hi)))
        Found = I;
    if (Found < 0 || (WrittenBuffer >= 0 && Found != WrittenBuffer))
      WritesKnown = false;
    else
      WrittenBuffer = Found;
  }
  if (!WritesKnown)
    WrittenBuffer = -1;
  uint64_t RowBits = K * ElemBits;
  if (K && SizeBits.size() == 2 && SizeBits[0] % RowBits == 0 &&
      SizeBits[1] % RowBits == 0) {
    uint64_t TM = SizeBits[0] / RowBits, TN = SizeBits[1] / RowBits;
    uint64_t Vol = TM * TN * K;
    if (Vol && (DotVolume * Waves) % Vol == 0) {
      M.TileM = std::max(TM, TN);
      M.TileN = std::min(TM, TN);
      M.Replication = DotVolume * Waves / Vol;
    }
  }
  // Aggregate load (the MLIR front's --pingpong-aggregate-load): one
  // operand's buffer holds several K tiles, written before the loop, so the
  // loop's LDS writes fill the other operand's buffer alone (WrittenBuffer):
  // its rows are Elems / K and that buffer is exactly that tile; the MFMA
  // volume gives the hoisted operand's rows, and the other buffer must hold
  // whole tiles of them.
  if (!M.TileM && TrafficKnown && K && Elems % K == 0 && WrittenBuffer >= 0) {
    const unsigned W = WrittenBuffer;
    uint64_t TW = Elems / K, Vol = DotVolume * Waves;
    uint64_t TH = TW && Vol % (TW * K) == 0 ? Vol / (TW * K) : 0;
    uint64_t HBits = SizeBits[1 - W];
    if (TH && SizeBits[W] == TW * RowBits && HBits % (TH * RowBits) == 0 &&
        HBits / (TH * RowBits) >= 2) {
      M.TileM = std::max(TW, TH);
      M.TileN = std::min(TW, TH);
    }
  }
  // Otherwise from the LDS traffic of one iteration.
  if (!M.TileM && TrafficKnown && K && Elems % K == 0) {
    uint64_t S = Elems / K; // M + N
    for (unsigned Rep = 1; Rep <= Waves; Rep *= 2) {
      if ((DotVolume * Waves) % (uint64_t(Rep) * K))
        continue;
      uint64_t P = DotVolume * Waves / (uint64_t(Rep) * K); // M * N
      if (S * S < 4 * P)
        continue;
      uint64_t D = S * S - 4 * P, Root = 0;
      while ((Root + 1) * (Root + 1) <= D)
        ++Root;
      if (Root * Root != D || (S + Root) % 2)
        continue;
      M.TileM = (S + Root) / 2;
      M.TileN = (S - Root) / 2;
      M.Replication = Rep;
      break;
    }
  }
  M.TileBits = M.TileM ? uint64_t(M.TileM) * M.TileN * K * ElemBits
                       : DotVolume * Waves * ElemBits;
}

} // namespace pingpong
