//===- LDSObjects.cpp - which LDS buffer a memory access touches ----------===//
#include "pingpong/Analysis/LDSObjects.h"
#include "pingpong/Analysis/IRAddress.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/CodeGen/MachineMemOperand.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;
namespace pingpong {

namespace {

/// The memory operand of the LDS side (address space 3), or the only one.
const MachineMemOperand *ldsOperand(const MachineInstr &MI) {
  const MachineMemOperand *LDS = nullptr;
  for (const MachineMemOperand *MMO : MI.memoperands())
    if (MMO->getAddrSpace() == 3)
      LDS = MMO;
  if (!LDS && MI.memoperands().size() == 1)
    LDS = MI.memoperands().front();
  return LDS;
}

void addScopes(const MDNode *List, SmallVectorImpl<sync::ScopeRef> &Out) {
  if (!List)
    return;
  for (const MDOperand &Op : List->operands())
    if (auto *Scope = dyn_cast_or_null<MDNode>(Op.get())) {
      const MDNode *Domain = Scope->getNumOperands() > 1
                                 ? dyn_cast_or_null<MDNode>(Scope->getOperand(1).get())
                                 : nullptr;
      Out.push_back({Scope, Domain});
    }
}

std::string scopeName(const MDNode *List) {
  if (!List)
    return "";
  for (const MDOperand &Op : List->operands())
    if (auto *Scope = dyn_cast_or_null<MDNode>(Op.get())) {
      // LDS lowering names the scope by its variable in operand 2; Triton's
      // scopes carry their name in operand 0.
      for (unsigned I : {2u, 0u})
        if (Scope->getNumOperands() > I)
          if (auto *N = dyn_cast_or_null<MDString>(Scope->getOperand(I).get()))
            return N->getString().str();
      return "scope";
    }
  return "";
}

/// [lo, hi] of the byte offset of pointer P from Obj over every value its
/// array indices may take (IntRanges::indexBounds), or nullopt when P is not
/// Obj plus GEPs (constant or instruction) with bounded non-negative indices.
std::optional<std::pair<int64_t, int64_t>>
offsetBounds(const Value *P, const Value *Obj, const DataLayout &DL,
             IntRanges &Ranges) {
  constexpr int64_t Limit = int64_t(1) << 32; // far beyond any LDS
  int64_t Const = 0, Lo = 0, Hi = 0;
  const Value *Base = walkGEPs(P, DL, Const, [&](const Value *Idx, uint64_t Stride) {
    auto B = Ranges.indexBounds(Idx);
    if (!B)
      return false;
    Lo += int64_t(B->first) * int64_t(Stride);
    Hi += int64_t(B->second) * int64_t(Stride);
    return Hi < Limit;
  });
  if (Base != Obj || Const + Lo < 0 || Const + Hi >= Limit)
    return std::nullopt;
  return std::make_pair(Const + Lo, Const + Hi);
}

/// Bytes of Obj every LDS memory operand of MI may touch, over all lanes
/// (the hull of the operands' bounds); nullopt when one cannot be bounded.
std::optional<std::pair<int64_t, int64_t>>
ldsExtent(ArrayRef<const MachineMemOperand *> MMOs, const Value *Obj,
          const DataLayout &DL, IntRanges &Ranges, int64_t Footprint = 0) {
  std::optional<std::pair<int64_t, int64_t>> Hull;
  for (const MachineMemOperand *MMO : MMOs) {
    if (MMO->getAddrSpace() != 3)
      continue;
    const Value *V = MMO->getValue();
    if (!V || getUnderlyingObject(V) != Obj || !MMO->getSize().hasValue() ||
        MMO->getSize().isScalable() || MMO->getOffset() < 0)
      return std::nullopt;
    auto B = offsetBounds(V, Obj, DL, Ranges);
    if (!B)
      return std::nullopt;
    int64_t Lo = B->first + MMO->getOffset();
    int64_t Hi = B->second + MMO->getOffset() +
                 (Footprint ? Footprint
                            : int64_t(MMO->getSize().getValue().getKnownMinValue()));
    Hull = Hull ? std::make_pair(std::min(Hull->first, Lo),
                                 std::max(Hull->second, Hi))
                : std::make_pair(Lo, Hi);
  }
  return Hull;
}

/// `cur ^= 1`: a PHI whose back-edge value is `Phi ^ 1`, so it alternates
/// between two values (its own and the other slot, whatever it starts at).
static bool isXorToggle(const PHINode *Phi) {
  if (Phi->getNumIncomingValues() != 2)
    return false;
  for (const Value *In : Phi->incoming_values())
    if (const auto *BO = dyn_cast<BinaryOperator>(In))
      if (BO->getOpcode() == Instruction::Xor && BO->getOperand(0) == Phi)
        if (const auto *One = dyn_cast<ConstantInt>(BO->getOperand(1));
            One && One->isOne())
          return true;
  return false;
}

/// Whether the PHI's low bit flips every iteration: one incoming value (the
/// back edge's) is `Phi + C` or `Phi ^ C` with C odd (a counter `kt + 1`,
/// or `cur ^= 1`).
static bool flipsEveryIteration(const PHINode *Phi) {
  if (Phi->getNumIncomingValues() != 2)
    return false;
  for (const Value *In : Phi->incoming_values())
    if (const auto *BO = dyn_cast<BinaryOperator>(In))
      if ((BO->getOpcode() == Instruction::Xor ||
           BO->getOpcode() == Instruction::Add) &&
          BO->getOperand(0) == Phi)
        if (const auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
            C && C->getValue()[0])
          return true;
  return false;
}

/// A double-buffer index that flips every iteration, as users write it:
/// `cur` or `cur ^ 1` (cur toggled by `cur ^= 1`), and `kt % 2`, `kt & 1`,
/// `(kt + d) % 2` of a counter kt stepped by an odd constant. Returns the
/// PHI (cur or kt) and the index's parity relative to it, else null.
const PHINode *toggle(const Value *Idx, unsigned &Parity) {
  Parity = 0;
  // Through the casts between the index and the GEP.
  while (const auto *Cast = dyn_cast<CastInst>(Idx))
    if (Cast->getOpcode() == Instruction::ZExt ||
        Cast->getOpcode() == Instruction::SExt ||
        Cast->getOpcode() == Instruction::Trunc)
      Idx = Cast->getOperand(0);
    else
      break;
  const auto *BO = dyn_cast<BinaryOperator>(Idx);
  auto IsConst = [](const Value *V, uint64_t C) {
    const auto *CI = dyn_cast<ConstantInt>(V);
    return CI && CI->getValue() == C;
  };
  if (BO && BO->getOpcode() == Instruction::Xor && IsConst(BO->getOperand(1), 1)) {
    // cur ^ 1: the other slot of a toggled PHI.
    const auto *Phi = dyn_cast<PHINode>(BO->getOperand(0));
    if (!Phi || !isXorToggle(Phi))
      return nullptr;
    Parity = 1;
    return Phi;
  }
  if (BO && ((BO->getOpcode() == Instruction::And && IsConst(BO->getOperand(1), 1)) ||
             (BO->getOpcode() == Instruction::URem && IsConst(BO->getOperand(1), 2)))) {
    // kt & 1, kt % 2 (unsigned), (kt + d) & 1: the low bit of a counter.
    const Value *X = BO->getOperand(0);
    if (const auto *Add = dyn_cast<BinaryOperator>(X);
        Add && Add->getOpcode() == Instruction::Add)
      if (const auto *D = dyn_cast<ConstantInt>(Add->getOperand(1))) {
        Parity = D->getValue()[0];
        X = Add->getOperand(0);
      }
    const auto *Phi = dyn_cast<PHINode>(X);
    if (!Phi || !flipsEveryIteration(Phi))
      return nullptr;
    return Phi;
  }
  // cur itself (a counter used directly is no two-slot index: not taken).
  const auto *Phi = dyn_cast<PHINode>(Idx);
  return Phi && isXorToggle(Phi) ? Phi : nullptr;
}

/// P = Obj + C + T' * Stride + V with T' = T or T ^ 1 (toggle above), C
/// constant and V bounded by its indices' ranges: the slot, with V's range
/// (plus Off and Size) inside [0, Stride). nullopt otherwise.
std::optional<sync::LDSRegion::ToggledSlot>
toggledSlot(const Value *P, const Value *Obj, const DataLayout &DL,
            IntRanges &Ranges, int64_t Off, int64_t Size) {
  sync::LDSRegion::ToggledSlot S;
  int64_t C = 0, VLo = 0, VHi = 0;
  const Value *Base = walkGEPs(P, DL, C, [&](const Value *Idx, uint64_t Stride) {
    unsigned Parity = 0;
    if (const PHINode *T = toggle(Idx, Parity)) {
      if (S.Var)
        return false; // two toggled indices
      S.Var = T;
      S.Header = T->getParent();
      S.Stride = int64_t(Stride);
      S.Parity = Parity;
      return true;
    }
    auto B = Ranges.indexBounds(Idx);
    if (!B)
      return false;
    VLo += int64_t(B->first) * int64_t(Stride);
    VHi += int64_t(B->second) * int64_t(Stride);
    return true;
  });
  if (Base != Obj || !S.Var)
    return std::nullopt;
  // The bytes C + [VLo + Off, VHi + Off + Size) within one Stride-aligned
  // window: the slot is that window (a ds_read2's second offset, the V half
  // of a [K, V][stage] array), so a constant inside a slot does not make two
  // accesses of one slot look apart by less than a slot.
  int64_t Lo = C + VLo + Off, Hi = C + VHi + Off + Size;
  if (Lo >= 0 && Hi > Lo && Lo / S.Stride == (Hi - 1) / S.Stride)
    C = Lo / S.Stride * S.Stride;
  else if (VLo + Off < 0 || VHi + Off + Size > S.Stride)
    return std::nullopt;
  S.Bases.push_back(C);
  return S;
}

/// The toggled slot of every memory operand, all with the same toggle and
/// parity: the slots, one base per operand; else nullopt.
std::optional<sync::LDSRegion::ToggledSlot>
toggledSlots(ArrayRef<const MachineMemOperand *> MMOs, const Value *Obj,
             const DataLayout &DL, IntRanges &Ranges, int64_t Footprint = 0) {
  std::optional<sync::LDSRegion::ToggledSlot> All;
  for (const MachineMemOperand *MMO : MMOs) {
    std::optional<sync::LDSRegion::ToggledSlot> S;
    if (MMO->getValue() && getUnderlyingObject(MMO->getValue()) == Obj &&
        MMO->getSize().hasValue() && !MMO->getSize().isScalable())
      S = toggledSlot(MMO->getValue(), Obj, DL, Ranges, MMO->getOffset(),
                      Footprint ? Footprint
                                : int64_t(MMO->getSize().getValue().getKnownMinValue()));
    if (!S || (All && (All->Var != S->Var || All->Stride != S->Stride ||
                       All->Parity != S->Parity)))
      return std::nullopt;
    if (All)
      All->Bases.append(S->Bases.begin(), S->Bases.end());
    else
      All = S;
  }
  return All;
}

/// The region of the memory operands MMOs of MI (LDS is the one whose
/// scopes and value describe them all).
sync::LDSRegion regionOf(ArrayRef<const MachineMemOperand *> MMOs,
                         const MachineMemOperand *LDS, bool LaneUniform,
                         int64_t DMAFootprint) {
  sync::LDSRegion R;
  addScopes(LDS->getAAInfo().Scope, R.Scopes);
  addScopes(LDS->getAAInfo().NoAlias, R.NoAlias);
  const Value *V = LDS->getValue();
  if (!V)
    return R;
  const Value *Obj = getUnderlyingObject(V);
  R.Object = Obj;
  auto *GV = dyn_cast<GlobalVariable>(Obj);
  if (!GV)
    return R;
  const DataLayout &DL = GV->getDataLayout();
  R.Arena = GV->isDeclaration() ||
            DL.getTypeAllocSize(GV->getValueType()).getKnownMinValue() == 0;
  int64_t Off = 0;
  const Value *Base = GetPointerBaseWithConstantOffset(V, Off, DL);
  // A constant address (every lane the same bytes): its range.
  if (Base == Obj && LaneUniform && MMOs.size() == 1 &&
      LDS->getSize().hasValue() && !LDS->getSize().isScalable())
    R.Range = std::make_pair(Off + LDS->getOffset(),
                             Off + LDS->getOffset() +
                                 int64_t(LDS->getSize().getValue().getKnownMinValue()));
  // Lane-dependent addresses (not LDS DMA: its lanes write past the address
  // the operand names). A double buffer's slot picked by a per-iteration
  // toggle first: the ranges bound the toggle too, and a bound over both
  // slots would hide which one. Else a bound from the GEP indices' ranges.
  else if (LaneUniform) {
    // The slot's offset within its stage through readfirstlane (a wave's
    // row block, readfirstlane(tid / 64) * rows, as HIP users write it):
    // its value is one lane's, within that lane's range.
    IntRanges SlotRanges(DL, /*ThroughReadFirstLane=*/true);
    R.Slot = toggledSlots(MMOs, Obj, DL, SlotRanges);
    IntRanges Ranges(DL);
    if (!R.Slot)
      R.Extent = ldsExtent(MMOs, Obj, DL, Ranges);
  }
  // LDS DMA: the operand names the wave's base (M0); the lanes write the
  // wave's whole footprint from there.
  else if (DMAFootprint) {
    IntRanges Ranges(DL, /*ThroughReadFirstLane=*/true);
    R.Slot = toggledSlots(MMOs, Obj, DL, Ranges, DMAFootprint);
    if (!R.Slot)
      R.Extent = ldsExtent(MMOs, Obj, DL, Ranges, DMAFootprint);
  }
  return R;
}

/// Bytes one wave's LDS DMA writes from its base: 64 lanes (wave64, gfx9)
/// times the bytes per lane its opcode names; 0 when the name says nothing.
int64_t dmaFootprint(const MachineInstr &MI) {
  const MachineFunction *MF = MI.getMF();
  if (!MF)
    return 0;
  StringRef N = MF->getSubtarget().getInstrInfo()->getName(MI.getOpcode());
  for (auto [Key, Bytes] : {std::pair<StringRef, int64_t>{"DWORDX4", 16},
                            {"DWORDX3", 12}, {"DWORDX2", 8}, {"DWORD", 4},
                            {"SHORT", 2}, {"BYTE", 1}})
    if (N.contains(Key))
      return 64 * Bytes;
  return 0;
}

} // namespace

sync::LDSRegion ldsRegionOf(const MachineInstr &MI, bool LaneUniform) {
  const MachineMemOperand *LDS = ldsOperand(MI);
  if (!LDS)
    return sync::LDSRegion();
  SmallVector<const MachineMemOperand *, 2> MMOs;
  for (const MachineMemOperand *MMO : MI.memoperands())
    if (MMO->getAddrSpace() == 3)
      MMOs.push_back(MMO);
  if (MMOs.empty()) // the only operand, in no address space
    MMOs.push_back(LDS);
  // A merged access (ds_write2 of two arrays' stores) has one memory operand
  // per array, each with its own scopes: one part per operand.
  bool OneScope = all_of(MMOs, [&](const MachineMemOperand *MMO) {
    return MMO->getAAInfo().Scope == LDS->getAAInfo().Scope &&
           MMO->getAAInfo().NoAlias == LDS->getAAInfo().NoAlias;
  });
  int64_t Footprint = LaneUniform ? 0 : dmaFootprint(MI);
  if (OneScope)
    return regionOf(MMOs, LDS, LaneUniform, Footprint);
  sync::LDSRegion R;
  for (const MachineMemOperand *MMO : MMOs)
    R.Parts.push_back(regionOf(MMO, MMO, LaneUniform, Footprint));
  return R;
}

std::string ldsBufferName(const MachineInstr &MI) {
  const MachineMemOperand *LDS = ldsOperand(MI);
  if (!LDS)
    return "LDS (unknown buffer)";
  std::string Scope = scopeName(LDS->getAAInfo().Scope);
  const Value *V = LDS->getValue();
  if (!V)
    return Scope.empty() ? "LDS (unknown buffer)" : "LDS [" + Scope + "]";
  const Value *Obj = getUnderlyingObject(V);
  std::string Name = Obj->hasName() ? Obj->getName().str() : "LDS";
  if (!Scope.empty())
    Name += " [" + Scope + "]";
  return Name;
}

bool sameLDSBuffer(const sync::LDSRegion &A, const sync::LDSRegion &B) {
  sync::Overlap O = sync::overlap(A, B).O;
  return O == sync::Overlap::SameBuffer || O == sync::Overlap::Bytes;
}

} // namespace pingpong
