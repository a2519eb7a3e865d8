//===- Opcodes.cpp - AMDGPU opcodes resolved by name ----------------------===//
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/Target/InstrNames.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetOpcodes.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

using namespace llvm;
namespace pingpong {

const char *kindName(InstKind K) {
  switch (K) {
  case InstKind::Other: return "other";
  case InstKind::MFMA: return "mfma";
  case InstKind::ValuFMA: return "valu-fma";
  case InstKind::LDSRead: return "lds-read";
  case InstKind::LDSWrite: return "lds-write";
  case InstKind::LDSOther: return "lds-other";
  case InstKind::VMEMLoad: return "vmem-load";
  case InstKind::LDSDMA: return "lds-dma";
  case InstKind::VMEMStore: return "vmem-store";
  case InstKind::SMEMLoad: return "smem-load";
  case InstKind::Barrier: return "barrier";
  case InstKind::Fence: return "fence";
  case InstKind::SetPrio: return "setprio";
  case InstKind::SchedFence: return "sched-fence";
  case InstKind::Waitcnt: return "waitcnt";
  }
  return "?";
}

const OpcodeTable &OpcodeTable::get(const TargetInstrInfo &TII) {
  // One table per TargetInstrInfo; clang may compile several subtargets.
  static std::mutex Lock;
  static std::map<const TargetInstrInfo *, std::unique_ptr<OpcodeTable>> Tables;
  std::lock_guard<std::mutex> G(Lock);
  auto &Slot = Tables[&TII];
  if (!Slot)
    Slot.reset(new OpcodeTable(TII));
  return *Slot;
}

OpcodeTable::OpcodeTable(const TargetInstrInfo &TII) : TII(TII) {}

const OpcodeTable::Builders &OpcodeTable::builders() const {
  if (Built)
    return *Built;
  Builders B;
  struct Want {
    const char *Name;
    unsigned *Slot;
  } Wants[] = {{"S_SETPRIO", &B.SSetPrio},
               {"S_BARRIER", &B.SBarrier},
               {"SCHED_BARRIER", &B.SchedBarrier},
               {"SCHED_GROUP_BARRIER", &B.SchedGroupBarrier},
               {"S_WAITCNT", &B.SWaitcnt},
               {"V_READFIRSTLANE_B32", &B.VReadFirstLane},
               {"S_AND_B32", &B.SAndB32},
               {"S_CMP_LG_U32", &B.SCmpLgU32},
               {"S_CBRANCH_SCC0", &B.SCBranchSCC0},
               {"S_CBRANCH_SCC1", &B.SCBranchSCC1},
               {"S_BRANCH", &B.SBranch},
               {"V_MOV_B32_e32", &B.VMovB32},
               {"V_ADD_U32_e32", &B.VAddU32e32},
               {"V_ADD3_U32_e64", &B.VAdd3U32e64},
               {"S_ADD_I32", &B.SAddI32}};
  // TableGen numbers target instructions in name order after the generic
  // ones: binary search, check the hit, and scan only if that fails.
  unsigned First = TargetOpcode::GENERIC_OP_END + 1, End = TII.getNumOpcodes();
  for (Want &W : Wants) {
    unsigned Lo = First, Hi = End;
    while (Lo < Hi) {
      unsigned Mid = Lo + (Hi - Lo) / 2;
      if (TII.getName(Mid) < StringRef(W.Name))
        Lo = Mid + 1;
      else
        Hi = Mid;
    }
    if (Lo < End && TII.getName(Lo) == W.Name) {
      *W.Slot = Lo;
      continue;
    }
    for (unsigned Op = 0; Op != End && !*W.Slot; ++Op)
      if (TII.getName(Op) == W.Name)
        *W.Slot = Op;
  }
  Built = B;
  return *Built;
}

bool OpcodeTable::Builders::complete() const {
  return SSetPrio && SBarrier && SchedBarrier && SWaitcnt && VReadFirstLane &&
         SAndB32 && SCmpLgU32 && SCBranchSCC0 && SCBranchSCC1 && SBranch &&
         VMovB32 && SchedGroupBarrier && VAddU32e32 && VAdd3U32e64 && SAddI32;
}

StringRef OpcodeTable::name(unsigned Opcode) const { return TII.getName(Opcode); }

bool OpcodeTable::isConversion(unsigned Opcode) const {
  return name(Opcode).starts_with("V_CVT_");
}

// The plugin's kinds from the one name table (Target/InstrNames).
static InstKind kindOf(target::NameOp Op) {
  using target::NameOp;
  switch (Op) {
  case NameOp::MFMA:
    return InstKind::MFMA;
  case NameOp::ValuFMA:
    return InstKind::ValuFMA;
  case NameOp::LDSRead:
    return InstKind::LDSRead;
  case NameOp::LDSWrite:
    return InstKind::LDSWrite;
  case NameOp::LDSAtomic:
  case NameOp::LDSCrossbar:
  case NameOp::GDS:
    return InstKind::LDSOther;
  case NameOp::LDSDMA:
    return InstKind::LDSDMA;
  case NameOp::VMEMLoad:
  case NameOp::FlatLoad:
    return InstKind::VMEMLoad;
  case NameOp::VMEMStore:
  case NameOp::VMEMAtomic:
  case NameOp::FlatStore:
    return InstKind::VMEMStore;
  case NameOp::SMEMLoad:
    return InstKind::SMEMLoad;
  case NameOp::Barrier:
    return InstKind::Barrier;
  case NameOp::Fence:
    return InstKind::Fence;
  case NameOp::SetPrio:
    return InstKind::SetPrio;
  case NameOp::SchedFence:
    return InstKind::SchedFence;
  case NameOp::Waitcnt:
    return InstKind::Waitcnt;
  default:
    return InstKind::Other;
  }
}

InstKind OpcodeTable::classify(unsigned Opcode) const {
  auto It = KindCache.find(Opcode);
  if (It != KindCache.end())
    return It->second;
  InstKind K = kindOf(target::classifyInstrName(TII.getName(Opcode)));
  KindCache[Opcode] = K;
  return K;
}

InstKind OpcodeTable::classify(const MachineInstr &MI) const {
  return classify(MI.getOpcode());
}

std::optional<MFMAShape> OpcodeTable::mfmaShape(unsigned Opcode) const {
  StringRef N = TII.getName(Opcode);
  if (classify(Opcode) != InstKind::MFMA)
    return std::nullopt;
  MFMAShape S;
  S.Scaled = N.starts_with("V_MFMA_SCALE_");
  // Find "<M>X<N>X<K>" in the name.
  for (size_t I = 0; I < N.size(); ++I) {
    if (!isDigit(N[I]) || (I && isDigit(N[I - 1])))
      continue;
    unsigned V[3];
    size_t P = I;
    bool OK = true;
    for (int J = 0; J < 3 && OK; ++J) {
      size_t Q = P;
      while (Q < N.size() && isDigit(N[Q]))
        ++Q;
      if (Q == P || N.substr(P, Q - P).getAsInteger(10, V[J])) {
        OK = false;
        break;
      }
      P = Q;
      if (J < 2) {
        if (P >= N.size() || N[P] != 'X')
          OK = false;
        ++P;
      }
    }
    if (!OK)
      continue;
    S.M = V[0];
    S.N = V[1];
    S.K = V[2];
    StringRef Tail = N.substr(P);
    if (Tail.contains("F8F6F4")) {
      // The operand formats follow as _<a>_<b> (f8, f6, f4; bf8/bf6 count
      // the same): FP4 is 4 bits, not 8 (an MXFP4 tile is half the bits of
      // an FP8 one). The wider of the two counts.
      SmallVector<StringRef, 8> Parts;
      Tail.substr(Tail.find("F8F6F4") + 6).split(Parts, '_', -1, false);
      unsigned Bits = 0;
      for (StringRef Fmt : ArrayRef<StringRef>(Parts).take_front(2)) {
        if (Fmt == "f8" || Fmt == "bf8" || Fmt == "fp8")
          Bits = std::max(Bits, 8u);
        else if (Fmt == "f6" || Fmt == "bf6" || Fmt == "fp6")
          Bits = std::max(Bits, 6u);
        else if (Fmt == "f4" || Fmt == "fp4")
          Bits = std::max(Bits, 4u);
      }
      S.ElemBits = Bits ? Bits : 8; // no format suffix: FP8 (the default)
    } else if (Tail.contains("FP8") || Tail.contains("BF8") ||
               Tail.contains("I8"))
      S.ElemBits = 8;
    else if (Tail.contains("F32") || Tail.contains("XF32"))
      S.ElemBits = 32;
    else if (Tail.contains("F64"))
      S.ElemBits = 64;
    else
      S.ElemBits = 16;
    return S;
  }
  return std::nullopt;
}

unsigned physRegNamed(const llvm::TargetRegisterInfo &TRI, llvm::StringRef Name) {
  for (unsigned R = 1, E = TRI.getNumRegs(); R < E; ++R)
    if (Name == TRI.getName(R))
      return R;
  return 0;
}

} // namespace pingpong
