//===- TileShape.cpp - LDS objects and the workgroup tile of a loop -------===//
#include "pingpong/Analysis/LDSObjects.h"
#include "pingpong/Analysis/LoopModel.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineMemOperand.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

using namespace llvm;
namespace pingpong {

/// Underlying IR object of an instruction's first memory operand.
const Value *memObject(const MachineInstr &MI) {
  if (MI.memoperands_empty())
    return nullptr;
  const Value *V = (*MI.memoperands_begin())->getValue();
  if (!V)
    return nullptr;
  V = getUnderlyingObject(V);
  // Buffer resources: look through llvm.amdgcn.make.buffer.rsrc to the base.
  if (auto *II = dyn_cast<IntrinsicInst>(V))
    if (II->getIntrinsicID() == Intrinsic::amdgcn_make_buffer_rsrc)
      V = getUnderlyingObject(II->getArgOperand(0));
  return V;
}

/// Identity of the LDS buffer an access touches: its IR object and the
/// alias scope the frontend or AMDGPU's LDS lowering gave it (the lowering
/// packs all __shared__ arrays into one struct and tells them apart by scope).
std::pair<const Value *, const MDNode *> bufferKey(const MachineInstr &MI) {
  const MDNode *Scope = nullptr;
  if (!MI.memoperands_empty())
    Scope = (*MI.memoperands_begin())->getAAInfo().Scope;
  return {memObject(MI), Scope};
}

/// The workgroup tile M x N x K. K per iteration is the chain length times
/// the MFMA's K. The LDS writes of one iteration carry (M + N) * K elements
/// and the MFMAs of all waves cover M * N * K * r, where r waves compute the
/// same outputs (Triton's broadcast layouts for tiny tiles): take the
/// smallest r for which M and N come out whole.
void deriveTile(LoopModel &M, const MachineFunction &MF) {
  unsigned Waves = std::max(M.Waves, 1u);
  uint64_t K = uint64_t(M.ChainLen) * M.Shape.K;
  uint64_t DotVolume = uint64_t(M.NumDots) * M.Shape.M * M.Shape.N * M.Shape.K;
  uint64_t WriteBytes = 0;
  for (const InstInfo &II : M.Insts)
    if (II.R == Role::LocalWrite)
      for (const MachineMemOperand *MMO : II.MI->memoperands())
        WriteBytes += MMO->getSize().hasValue() ? MMO->getSize().getValue() : 0;
  uint64_t ElemBytes = std::max(1u, M.Shape.ElemBits / 8);
  uint64_t Elems = WriteBytes * 64 * Waves / ElemBytes; // wave64 lanes
  M.TileK = K;
  M.Replication = 1;
  M.TileM = M.TileN = 0;
  // Best source: the LDS buffers' sizes, M x K and N x K elements: two
  // __shared__ arrays, or the two fields of the struct that AMDGPU's module
  // LDS lowering packs them into. Which is A does not matter for M * N.
  SmallPtrSet<const Value *, 2> Objs;
  for (const InstInfo &II : M.Insts)
    if (II.R == Role::LocalRead || II.R == Role::LocalWrite)
      Objs.insert(memObject(*II.MI));
  SmallVector<uint64_t, 2> Sizes;
  const DataLayout &DL = MF.getDataLayout();
  for (const Value *O : Objs)
    if (auto *GV = dyn_cast_or_null<GlobalVariable>(O))
      Sizes.push_back(DL.getTypeAllocSize(GV->getValueType()));
  if (Objs.size() == 1 && Sizes.size() == 1) {
    auto *GV = cast<GlobalVariable>(*Objs.begin());
    auto *ST = dyn_cast<StructType>(GV->getValueType());
    Sizes.clear();
    if (ST && ST->getNumElements() == 2)
      for (Type *E : ST->elements())
        Sizes.push_back(DL.getTypeAllocSize(E));
  }
  uint64_t Row = K * ElemBytes;
  if (K && Sizes.size() == 2 && Sizes[0] % Row == 0 && Sizes[1] % Row == 0) {
    uint64_t TM = Sizes[0] / Row, TN = Sizes[1] / Row;
    uint64_t Vol = TM * TN * K;
    if (Vol && (DotVolume * Waves) % Vol == 0) {
      M.TileM = std::max(TM, TN);
      M.TileN = std::min(TM, TN);
      M.Replication = DotVolume * Waves / Vol;
    }
  }
  // Otherwise from the LDS traffic of one iteration.
  if (!M.TileM && K && Elems % K == 0) {
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
  M.TileBits = M.TileM
                   ? uint64_t(M.TileM) * M.TileN * K * M.Shape.ElemBits
                   : DotVolume * Waves * M.Shape.ElemBits;
}

} // namespace pingpong
