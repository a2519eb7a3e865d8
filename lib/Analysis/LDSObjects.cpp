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
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

static cl::opt<bool> JoinBounds(
    "amdgpu-pingpong-lds-join-bounds", cl::Hidden, cl::init(true),
    cl::desc("The checker's identity of LDS bytes bounds a pointer PHI or "
             "select of pointers by the hull of its incoming pointers' "
             "bounds (Triton's rotating stage pointers: w4a16's scale "
             "buffer, docs/modes.md \"Session 24: w4a16\"); false: such an "
             "address is unbounded as before"));

namespace pingpong {

namespace {

const Value *ldsObjectOf(const Value *V);

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
/// ThroughJoins (the checker's identity only): P may also be GEPs of a PHI or
/// select of pointers, each incoming pointer bounded the same way: a pointer
/// PHI holds one of its incoming values, so the hull of theirs bounds it in
/// every iteration (Triton's stage pointer, `phi [Obj + C, pre], [Obj + C +
/// (s << k), latch]` with s a rotating stage index IntRanges bounds). A PHI
/// reached again through its own incoming values (a pointer stepped each
/// iteration) is not bounded.
std::optional<std::pair<int64_t, int64_t>>
offsetBounds(const Value *P, const Value *Obj, const DataLayout &DL,
             IntRanges &Ranges, bool ThroughJoins = false,
             SmallPtrSetImpl<const Value *> *Visiting = nullptr,
             unsigned Depth = 0) {
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
  if (Base && Base != Obj && ThroughJoins && Depth < 8 &&
      (isa<PHINode>(Base) || isa<SelectInst>(Base))) {
    SmallPtrSet<const Value *, 8> Own;
    SmallPtrSetImpl<const Value *> &Seen = Visiting ? *Visiting : Own;
    if (!Seen.insert(Base).second)
      return std::nullopt;
    SmallVector<const Value *, 4> Ins;
    if (const auto *Phi = dyn_cast<PHINode>(Base))
      Ins.append(Phi->incoming_values().begin(), Phi->incoming_values().end());
    else
      Ins = {cast<SelectInst>(Base)->getTrueValue(),
             cast<SelectInst>(Base)->getFalseValue()};
    std::optional<std::pair<int64_t, int64_t>> Hull;
    for (const Value *In : Ins) {
      auto B = offsetBounds(In, Obj, DL, Ranges, ThroughJoins, &Seen, Depth + 1);
      if (!B)
        return std::nullopt;
      Hull = Hull ? std::make_pair(std::min(Hull->first, B->first),
                                   std::max(Hull->second, B->second))
                  : *B;
    }
    Seen.erase(Base);
    if (!Hull)
      return std::nullopt;
    Lo += Hull->first;
    Hi += Hull->second;
    Base = Obj;
  }
  if (Base != Obj || Const + Lo < 0 || Const + Hi >= Limit)
    return std::nullopt;
  return std::make_pair(Const + Lo, Const + Hi);
}

/// Bytes of Obj every LDS memory operand of MI may touch, over all lanes
/// (the hull of the operands' bounds); nullopt when one cannot be bounded.
std::optional<std::pair<int64_t, int64_t>>
ldsExtent(ArrayRef<const MachineMemOperand *> MMOs, const Value *Obj,
          const DataLayout &DL, IntRanges &Ranges, int64_t Footprint = 0,
          bool ThroughJoins = false) {
  std::optional<std::pair<int64_t, int64_t>> Hull;
  for (const MachineMemOperand *MMO : MMOs) {
    if (MMO->getAddrSpace() != 3)
      continue;
    const Value *V = MMO->getValue();
    if (!V ||
        (ThroughJoins ? ldsObjectOf(V) : getUnderlyingObject(V)) != Obj ||
        !MMO->getSize().hasValue() || MMO->getSize().isScalable() ||
        MMO->getOffset() < 0)
      return std::nullopt;
    auto B = offsetBounds(V, Obj, DL, Ranges, ThroughJoins);
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

/// A slot index as a function of the iteration: Var's value at the first
/// iteration (or the number itself when Absolute) plus Index, plus Step each
/// iteration, mod Slots.
struct SlotIndex {
  const PHINode *Var = nullptr;
  unsigned Index = 0, Slots = 2, Step = 1;
  bool Absolute = false;
  bool InRange = true; // its values are 0 .. Slots - 1 (not so for a
                       // `cur ^= 1` from an unknown start)
  bool Ring = false;    // a ring counter (the checker's identity only)
};

static const Value *stripIntCasts(const Value *V) {
  while (const auto *Cast = dyn_cast<CastInst>(V))
    if (Cast->getOpcode() == Instruction::ZExt ||
        Cast->getOpcode() == Instruction::SExt ||
        Cast->getOpcode() == Instruction::Trunc)
      V = Cast->getOperand(0);
    else
      break;
  return V;
}

static std::optional<uint64_t> constOf(const Value *V) {
  const auto *CI = dyn_cast<ConstantInt>(stripIntCasts(V));
  if (!CI || CI->getBitWidth() > 64)
    return std::nullopt;
  return CI->getZExtValue();
}

/// A loop-header PHI with two incoming values: the one from outside the
/// loop (Init) and the back edge's (Back), told apart by which one uses the
/// PHI (directly, or through a ring's add and select).
static bool initAndBack(const PHINode *Phi, const Value *&Init,
                        const Value *&Back) {
  if (Phi->getNumIncomingValues() != 2)
    return false;
  auto UsesPhi = [&](const Value *V) {
    const auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return false;
    for (const Value *Op : I->operands()) {
      if (Op == Phi)
        return true;
      if (const auto *J = dyn_cast<Instruction>(Op))
        if (is_contained(J->operands(), Phi))
          return true;
    }
    return false;
  };
  for (unsigned B = 0; B < 2; ++B)
    if (UsesPhi(Phi->getIncomingValue(B)) && !UsesPhi(Phi->getIncomingValue(1 - B))) {
      Back = Phi->getIncomingValue(B);
      Init = Phi->getIncomingValue(1 - B);
      return true;
    }
  return false;
}

/// `Phi op C` with a constant C (operands in either order for add/xor).
static std::optional<uint64_t> opWithConst(const Value *V, unsigned Opcode,
                                           const Value *Phi) {
  const auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO || BO->getOpcode() != Opcode)
    return std::nullopt;
  for (unsigned I = 0; I < 2; ++I)
    if (BO->getOperand(I) == Phi)
      if (std::optional<uint64_t> C = constOf(BO->getOperand(1 - I)))
        return C;
  return std::nullopt;
}

/// The ring counter `s = s + 1 == N ? 0 : s + 1` (also `s == N - 1 ? 0 :
/// s + 1`, and the compare negated): N, else 0.
static unsigned ringSize(const PHINode *Phi, const Value *Back) {
  const auto *Sel = dyn_cast<SelectInst>(Back);
  const auto *Cmp = Sel ? dyn_cast<ICmpInst>(Sel->getCondition()) : nullptr;
  if (!Cmp || !Cmp->isEquality())
    return 0;
  const Value *Wrap = Sel->getTrueValue(), *Next = Sel->getFalseValue();
  if (Cmp->getPredicate() == ICmpInst::ICMP_NE)
    std::swap(Wrap, Next);
  std::optional<uint64_t> Zero = constOf(Wrap), One = opWithConst(Next, Instruction::Add, Phi);
  std::optional<uint64_t> Bound = constOf(Cmp->getOperand(1));
  if (!Zero || *Zero != 0 || !One || *One != 1 || !Bound)
    return 0;
  if (Cmp->getOperand(0) == Next && *Bound >= 2 && *Bound <= 64)
    return unsigned(*Bound); // s + 1 == N
  if (Cmp->getOperand(0) == Phi && *Bound >= 1 && *Bound <= 63)
    return unsigned(*Bound + 1); // s == N - 1
  return 0;
}

/// A slot index that changes every iteration, as users write it: `cur` or
/// `cur ^ 1` of a `cur ^= 1` PHI; `kt % N`, `kt & (N - 1)`, `(kt + d) % N`
/// of a counter kt stepped by a constant; a ring counter. std::nullopt else.
static std::optional<SlotIndex> slotIndex(const Value *Idx) {
  Idx = stripIntCasts(Idx);
  SlotIndex S;
  const auto *BO = dyn_cast<BinaryOperator>(Idx);
  // cur ^ 1: the other slot of a toggled PHI.
  if (BO && BO->getOpcode() == Instruction::Xor)
    if (std::optional<uint64_t> One = constOf(BO->getOperand(1)); One && *One == 1)
      if (const auto *Phi = dyn_cast<PHINode>(stripIntCasts(BO->getOperand(0)))) {
        std::optional<SlotIndex> T = slotIndex(Phi);
        if (!T || T->Slots != 2)
          return std::nullopt;
        T->Index ^= 1;
        return T;
      }
  // kt % N, kt & (N - 1), (kt + d) of either: a counter's residue.
  std::optional<uint64_t> Mod;
  if (BO && BO->getOpcode() == Instruction::URem)
    Mod = constOf(BO->getOperand(1));
  else if (BO && BO->getOpcode() == Instruction::And)
    if (std::optional<uint64_t> M = constOf(BO->getOperand(1)); M && isPowerOf2_64(*M + 1))
      Mod = *M + 1;
  if (Mod) {
    if (*Mod < 2 || *Mod > 64)
      return std::nullopt;
    S.Slots = unsigned(*Mod);
    const Value *X = stripIntCasts(BO->getOperand(0));
    uint64_t D = 0;
    if (const auto *Add = dyn_cast<BinaryOperator>(X);
        Add && Add->getOpcode() == Instruction::Add)
      if (std::optional<uint64_t> C = constOf(Add->getOperand(1))) {
        D = *C;
        X = stripIntCasts(Add->getOperand(0));
      }
    const auto *Phi = dyn_cast<PHINode>(X);
    const Value *Init, *Back;
    if (!Phi || !initAndBack(Phi, Init, Back))
      return std::nullopt;
    std::optional<uint64_t> Step = opWithConst(Back, Instruction::Add, Phi);
    // cur ^= 1 under `& 1` is the toggle itself.
    if (!Step && S.Slots == 2)
      Step = opWithConst(Back, Instruction::Xor, Phi);
    if (!Step || *Step % S.Slots == 0)
      return std::nullopt;
    // Residues wrap with the 2^k-bit counter only for a power of two.
    if (!isPowerOf2_64(S.Slots) && Phi->getType()->getIntegerBitWidth() < 32)
      return std::nullopt;
    S.Var = Phi;
    S.Step = unsigned(*Step % S.Slots);
    S.Index = unsigned(D % S.Slots);
    if (std::optional<uint64_t> C = constOf(Init)) {
      S.Absolute = true;
      S.Index = unsigned((*C + D) % S.Slots);
    }
    return S;
  }
  // A PHI used directly: `cur ^= 1` or a ring counter (a counter used
  // directly is no slot index).
  const auto *Phi = dyn_cast<PHINode>(Idx);
  const Value *Init, *Back;
  if (!Phi || !initAndBack(Phi, Init, Back))
    return std::nullopt;
  std::optional<uint64_t> C = constOf(Init);
  if (std::optional<uint64_t> One = opWithConst(Back, Instruction::Xor, Phi); One && *One == 1) {
    S.Var = Phi;
    // The slot is the value itself only for a start of 0 or 1.
    S.InRange = C && *C < 2;
    if (S.InRange) {
      S.Absolute = true;
      S.Index = unsigned(*C);
    }
    return S;
  }
  if (unsigned N = ringSize(Phi, Back)) {
    // Its values are slots only from a start inside the ring.
    if (!C || *C >= N)
      return std::nullopt;
    S.Var = Phi;
    S.Slots = N;
    S.Absolute = true;
    S.Index = unsigned(*C);
    S.Ring = true;
    return S;
  }
  return std::nullopt;
}

/// A stage pointer that changes every iteration: two header PHIs swapped
/// each iteration (`swap(cur, next)`), each starting at Obj plus a constant,
/// or a select of two such pointers on a two-slot index (`kt & 1 ? s[1] :
/// s[0]`). Sets the slot's Stride, Bases and index; false else.
static bool pointerSlot(const Value *P, const Value *Obj, const DataLayout &DL,
                        sync::LDSRegion::ToggledSlot &S) {
  auto OffsetOf = [&](const Value *V) -> std::optional<int64_t> {
    int64_t Off = 0;
    if (GetPointerBaseWithConstantOffset(V, Off, DL) != Obj || Off < 0)
      return std::nullopt;
    return Off;
  };
  // Two constant stage addresses, X0 for slot index 0: slot 0 is the lower.
  auto Set = [&](int64_t X0, int64_t X1, unsigned Index) {
    if (X0 == X1)
      return false;
    S.Stride = std::abs(X1 - X0);
    S.Bases.assign(1, std::min(X0, X1));
    S.Slots = 2;
    S.Step = 1;
    S.Index = X0 < X1 ? Index : Index ^ 1;
    return true;
  };
  if (const auto *Phi = dyn_cast<PHINode>(P)) {
    const Value *Init, *Back;
    const auto *Other = Phi->getNumIncomingValues() == 2
                            ? dyn_cast<PHINode>(Phi->getIncomingValue(0))
                            : nullptr;
    unsigned B = 0;
    if (!Other || Other->getParent() != Phi->getParent()) {
      Other = Phi->getNumIncomingValues() == 2
                  ? dyn_cast<PHINode>(Phi->getIncomingValue(1))
                  : nullptr;
      B = 1;
    }
    if (!Other || Other == Phi || Other->getParent() != Phi->getParent() ||
        Other->getNumIncomingValues() != 2)
      return false;
    // Phi = [Init, pre], [Other, latch]; Other = [Init', pre], [Phi, latch].
    BasicBlock *Latch = Phi->getIncomingBlock(B);
    if (Other->getIncomingValueForBlock(Latch) != Phi)
      return false;
    Init = Phi->getIncomingValue(1 - B);
    Back = Other->getIncomingValueForBlock(Phi->getIncomingBlock(1 - B));
    std::optional<int64_t> X0 = OffsetOf(Init), X1 = OffsetOf(Back);
    if (!X0 || !X1 || !Set(*X0, *X1, 0))
      return false;
    S.Var = Phi->getParent(); // absolute: any PHI of the pair is the same
    S.Header = Phi->getParent();
    S.Absolute = true;
    return true;
  }
  if (const auto *Sel = dyn_cast<SelectInst>(P)) {
    // select (icmp eq/ne T, 0), A, B with T a two-slot index.
    const auto *Cmp = dyn_cast<ICmpInst>(Sel->getCondition());
    std::optional<uint64_t> Zero = Cmp ? constOf(Cmp->getOperand(1)) : std::nullopt;
    if (!Cmp || !Cmp->isEquality() || !Zero || *Zero != 0)
      return false;
    std::optional<SlotIndex> T = slotIndex(Cmp->getOperand(0));
    if (!T || T->Slots != 2)
      return false;
    const Value *WhenZero = Sel->getTrueValue(), *WhenOne = Sel->getFalseValue();
    if (Cmp->getPredicate() == ICmpInst::ICMP_NE)
      std::swap(WhenZero, WhenOne);
    std::optional<int64_t> X0 = OffsetOf(WhenZero), X1 = OffsetOf(WhenOne);
    if (!X0 || !X1 || !Set(*X0, *X1, T->Index))
      return false;
    S.Var = T->Var;
    S.Header = T->Var->getParent();
    S.Absolute = T->Absolute;
    return true;
  }
  return false;
}

/// P = Obj + C + T * Stride + V with T a slot index (slotIndex above), or P
/// = S + C + V with S a stage pointer (pointerSlot), C constant and V
/// bounded by its indices' ranges: the slot, with V's range (plus Off and
/// Size) inside [0, Stride). std::nullopt otherwise.
std::optional<sync::LDSRegion::ToggledSlot>
toggledSlot(const Value *P, const Value *Obj, const DataLayout &DL,
            IntRanges &Ranges, int64_t Off, int64_t Size, bool &InRange,
            bool Precise) {
  sync::LDSRegion::ToggledSlot S;
  InRange = true;
  int64_t C = 0, VLo = 0, VHi = 0;
  bool Indexed = false;
  const Value *Base = walkGEPs(
      P, DL, C,
      [&](const Value *Idx, uint64_t Stride) {
        std::optional<SlotIndex> T = slotIndex(Idx);
        // The loop model and the DMA-wait repair keep the two-slot forms
        // they were measured with (relative to the toggle only).
        if (T && !Precise) {
          if (T->Slots != 2 || T->Ring)
            T.reset();
          else if (T->Absolute) {
            T->Absolute = false;
            T->Index = 0;
            if (const auto *X = dyn_cast<BinaryOperator>(stripIntCasts(Idx)))
              if (X->getOpcode() == Instruction::Xor)
                T->Index = 1; // cur ^ 1
              else if (const auto *Add = dyn_cast<BinaryOperator>(
                           stripIntCasts(X->getOperand(0)));
                       Add && Add->getOpcode() == Instruction::Add)
                if (std::optional<uint64_t> D = constOf(Add->getOperand(1)))
                  T->Index = unsigned(*D % 2);
          }
        }
        if (T) {
          if (Indexed)
            return false; // two slot indices
          Indexed = true;
          S.Var = T->Var;
          S.Header = T->Var->getParent();
          S.Stride = int64_t(Stride);
          S.Index = T->Index;
          S.Slots = T->Slots;
          S.Step = T->Step;
          S.Absolute = T->Absolute;
          InRange = T->InRange;
          return true;
        }
        auto B = Ranges.indexBounds(Idx);
        if (!B)
          return false;
        VLo += int64_t(B->first) * int64_t(Stride);
        VHi += int64_t(B->second) * int64_t(Stride);
        return true;
      },
      [](const Value *V) { return isa<PHINode>(V) || isa<SelectInst>(V); });
  if (!Indexed) {
    // A stage pointer under the GEPs (walkGEPs does not walk PHIs or
    // selects: Base is one, or Obj).
    if (!Precise || Base == Obj || !Base || !pointerSlot(Base, Obj, DL, S))
      return std::nullopt;
    C += S.Bases.front();
    S.Bases.clear();
  } else if (Base != Obj) {
    return std::nullopt;
  }
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

/// The slot of every memory operand, all with the same index: the slots,
/// one base per operand; else nullopt. Span: the bytes every slot of those
/// arrays holds, where the index cannot leave them.
std::optional<sync::LDSRegion::ToggledSlot>
toggledSlots(ArrayRef<const MachineMemOperand *> MMOs, const Value *Obj,
             const DataLayout &DL, IntRanges &Ranges,
             std::optional<std::pair<int64_t, int64_t>> &Span, bool Precise,
             int64_t Footprint = 0) {
  std::optional<sync::LDSRegion::ToggledSlot> All;
  bool InRange = true;
  for (const MachineMemOperand *MMO : MMOs) {
    std::optional<sync::LDSRegion::ToggledSlot> S;
    bool In = false;
    if (MMO->getValue() && ldsObjectOf(MMO->getValue()) == Obj &&
        MMO->getSize().hasValue() && !MMO->getSize().isScalable())
      S = toggledSlot(MMO->getValue(), Obj, DL, Ranges, MMO->getOffset(),
                      Footprint ? Footprint
                                : int64_t(MMO->getSize().getValue().getKnownMinValue()),
                      In, Precise);
    if (!S || (All && (All->Var != S->Var || All->Stride != S->Stride ||
                       All->Index != S->Index || All->Slots != S->Slots ||
                       All->Step != S->Step || All->Absolute != S->Absolute)))
      return std::nullopt;
    InRange &= In;
    if (All)
      All->Bases.append(S->Bases.begin(), S->Bases.end());
    else
      All = S;
  }
  Span.reset();
  if (All && InRange && Precise)
    for (int64_t B : All->Bases) {
      int64_t Hi = B + int64_t(All->Slots) * All->Stride;
      Span = Span ? std::make_pair(std::min(Span->first, B), std::max(Span->second, Hi))
                  : std::make_pair(B, Hi);
    }
  return All;
}

/// The LDS global under V through GEPs, casts, PHIs and selects, when
/// there is exactly one; else null.
const Value *ldsObjectOf(const Value *V) {
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(V, Objs, /*LI=*/nullptr, /*MaxLookup=*/12);
  const Value *Obj = nullptr;
  for (const Value *O : Objs) {
    if (!isa<GlobalVariable>(O) || (Obj && O != Obj))
      return nullptr;
    Obj = O;
  }
  return Obj;
}

/// Whether a value may differ between iterations of a loop around it: it
/// depends on a PHI (loop-carried, or a join the check does not follow), a
/// select on one, or memory (a load, a call). Constants, arguments, the
/// work-item and workgroup ids and arithmetic on them do not.
bool mayVary(const Value *V, SmallPtrSetImpl<const Value *> &Seen,
             unsigned Depth = 0) {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || !Seen.insert(V).second)
    return false;
  if (Depth > 32 || isa<PHINode>(I) || isa<LoadInst>(I) || I->mayReadFromMemory())
    return true;
  if (const auto *Call = dyn_cast<CallBase>(I))
    if (!isa<IntrinsicInst>(Call))
      return true;
  return any_of(I->operands(),
                [&](const Value *Op) { return mayVary(Op, Seen, Depth + 1); });
}

/// Some LDS memory operand's address may change between iterations.
bool addressVaries(ArrayRef<const MachineMemOperand *> MMOs,
                   const DataLayout &DL) {
  SmallPtrSet<const Value *, 32> Seen;
  for (const MachineMemOperand *MMO : MMOs)
    if (MMO->getAddrSpace() == 3 &&
        (!MMO->getValue() || mayVary(MMO->getValue(), Seen)))
      return true;
  return false;
}

/// The region of the memory operands MMOs of MI (LDS is the one whose
/// scopes and value describe them all).
sync::LDSRegion regionOf(ArrayRef<const MachineMemOperand *> MMOs,
                         const MachineMemOperand *LDS, bool LaneUniform,
                         int64_t DMAFootprint, bool Precise) {
  sync::LDSRegion R;
  addScopes(LDS->getAAInfo().Scope, R.Scopes);
  addScopes(LDS->getAAInfo().NoAlias, R.NoAlias);
  const Value *V = LDS->getValue();
  if (!V)
    return R;
  // The one LDS variable under the pointer, through PHIs and selects (LSR's
  // pointer induction variables, stage pointers): any other value is not an
  // object (two PHIs are not two buffers).
  // (The loop model and the repair keep the first underlying value, which
  // may be a PHI, as they were measured with.)
  const Value *Obj = Precise ? ldsObjectOf(V) : getUnderlyingObject(V);
  auto *GV = dyn_cast_or_null<GlobalVariable>(Obj);
  if (!Precise)
    R.Object = Obj;
  if (!GV)
    return R;
  R.Object = Obj;
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
    R.Slot = toggledSlots(MMOs, Obj, DL, SlotRanges, R.Extent, Precise);
    IntRanges Ranges(DL);
    if (!R.Slot)
      R.Extent = ldsExtent(MMOs, Obj, DL, Ranges, /*Footprint=*/0,
                           /*ThroughJoins=*/Precise && JoinBounds);
    R.Varies = Precise && (R.Slot || addressVaries(MMOs, DL));
  }
  // LDS DMA: the operand names the wave's base (M0); the lanes write the
  // wave's whole footprint from there.
  else if (DMAFootprint) {
    IntRanges Ranges(DL, /*ThroughReadFirstLane=*/true);
    R.Slot = toggledSlots(MMOs, Obj, DL, Ranges, R.Extent, Precise, DMAFootprint);
    if (!R.Slot)
      R.Extent = ldsExtent(MMOs, Obj, DL, Ranges, DMAFootprint,
                           /*ThroughJoins=*/Precise && JoinBounds);
    R.Varies = Precise && (R.Slot || addressVaries(MMOs, DL));
  } else {
    R.Varies = Precise && addressVaries(MMOs, DL);
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

static sync::LDSRegion regionOfInstr(const MachineInstr &MI, bool LaneUniform,
                                     bool Precise) {
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
    return regionOf(MMOs, LDS, LaneUniform, Footprint, Precise);
  sync::LDSRegion R;
  for (const MachineMemOperand *MMO : MMOs)
    R.Parts.push_back(regionOf(MMO, MMO, LaneUniform, Footprint, Precise));
  return R;
}

sync::LDSRegion ldsRegionOf(const MachineInstr &MI, bool LaneUniform) {
  return regionOfInstr(MI, LaneUniform, /*Precise=*/false);
}

sync::LDSRegion ldsRegionForCheck(const MachineInstr &MI, bool LaneUniform) {
  return regionOfInstr(MI, LaneUniform, /*Precise=*/true);
}

std::string ldsBufferName(const MachineInstr &MI) {
  const MachineMemOperand *LDS = ldsOperand(MI);
  if (!LDS)
    return "LDS (unknown buffer)";
  std::string Scope = scopeName(LDS->getAAInfo().Scope);
  const Value *V = LDS->getValue();
  if (!V)
    return Scope.empty() ? "LDS (unknown buffer)" : "LDS [" + Scope + "]";
  const Value *Obj = ldsObjectOf(V);
  if (!Obj)
    Obj = getUnderlyingObject(V);
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
