//===- WaveValues.cpp - what a kernel's wave-id tests compute -------------===//
#include "pingpong/Analysis/WaveValues.h"
#include "pingpong/ISA/Opcodes.h"

#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"

using namespace llvm;
namespace pingpong {

std::string waveSetName(uint64_t Waves) {
  std::string S;
  for (unsigned W = 0; W < 64; ++W) {
    if (!(Waves >> W & 1))
      continue;
    unsigned E = W;
    while (E + 1 < 64 && (Waves >> (E + 1) & 1))
      ++E;
    S += (S.empty() ? "" : ", ") + std::to_string(W) +
         (E > W ? "-" + std::to_string(E) : std::string());
    W = E;
  }
  bool One = llvm::popcount(Waves) == 1;
  return (One ? "wave " : "waves ") + S;
}

namespace wavevalues {

/// The name without its encoding suffix (_e32, _e64, _sdwa, _dpp).
static StringRef baseName(StringRef Name) {
  for (StringRef Suffix : {"_e32", "_e64", "_sdwa", "_dpp", "_dpp8"})
    if (Name.consume_back(Suffix))
      break;
  return Name;
}

std::optional<uint32_t> evalInt(StringRef Name, ArrayRef<uint32_t> Srcs) {
  StringRef N = baseName(Name);
  auto Need = [&](size_t K) { return Srcs.size() >= K; };
  auto Bits = [](uint32_t W) { return W >= 32 ? ~0u : (1u << W) - 1; };
  if (N == "COPY" || N == "S_MOV_B32" || N == "S_MOVK_I32" ||
      N == "V_MOV_B32")
    return Need(1) ? std::optional<uint32_t>(Srcs[0]) : std::nullopt;
  if (!Need(2))
    return std::nullopt;
  uint32_t A = Srcs[0], B = Srcs[1];
  if (N == "S_AND_B32" || N == "V_AND_B32")
    return A & B;
  if (N == "S_OR_B32" || N == "V_OR_B32")
    return A | B;
  if (N == "S_XOR_B32" || N == "V_XOR_B32")
    return A ^ B;
  if (N == "S_ANDN2_B32")
    return A & ~B;
  if (N == "S_LSHR_B32")
    return A >> (B & 31);
  if (N == "V_LSHRREV_B32")
    return B >> (A & 31);
  if (N == "S_LSHL_B32")
    return A << (B & 31);
  if (N == "V_LSHLREV_B32")
    return B << (A & 31);
  if (N == "S_ASHR_I32")
    return uint32_t(int32_t(A) >> (B & 31));
  if (N == "V_ASHRREV_I32")
    return uint32_t(int32_t(B) >> (A & 31));
  // (V_ADD_U32_e64 / V_SUB_U32_e64 carry a clamp operand after the two.)
  if (N == "S_ADD_U32" || N == "S_ADD_I32" || N == "V_ADD_U32")
    return A + B;
  if (N == "S_SUB_U32" || N == "S_SUB_I32" || N == "V_SUB_U32")
    return A - B;
  if (N == "V_SUBREV_U32")
    return B - A;
  if (N == "S_MUL_I32")
    return A * B;
  if (N == "S_BFE_U32")
    return (A >> (B & 31)) & Bits((B >> 16) & 0x7f);
  if (!Need(3))
    return std::nullopt;
  uint32_t C = Srcs[2];
  if (N == "V_BFE_U32")
    return (A >> (B & 31)) & Bits(C & 31);
  if (N == "V_AND_OR_B32")
    return (A & B) | C;
  if (N == "V_OR3_B32")
    return A | B | C;
  if (N == "V_LSHL_OR_B32")
    return (A << (B & 31)) | C;
  if (N == "V_LSHL_ADD_U32")
    return (A << (B & 31)) + C;
  if (N == "V_ADD_LSHL_U32")
    return (A + B) << (C & 31);
  return std::nullopt;
}

std::optional<bool> evalCompare(StringRef Name, uint32_t A, uint32_t B) {
  StringRef N = baseName(Name);
  if (!N.consume_front("V_CMP_") && !N.consume_front("S_CMPK_") &&
      !N.consume_front("S_CMP_"))
    return std::nullopt;
  bool Signed;
  if (N.consume_back("_U32"))
    Signed = false;
  else if (N.consume_back("_I32"))
    Signed = true;
  else
    return std::nullopt; // float or 64-bit compares
  auto Less = [&](uint32_t X, uint32_t Y) {
    return Signed ? int32_t(X) < int32_t(Y) : X < Y;
  };
  if (N == "EQ")
    return A == B;
  if (N == "NE" || N == "LG")
    return A != B;
  if (N == "LT")
    return Less(A, B);
  if (N == "LE")
    return !Less(B, A);
  if (N == "GT")
    return Less(B, A);
  if (N == "GE")
    return !Less(A, B);
  return std::nullopt;
}

std::optional<uint64_t> evalMask(StringRef Name, ArrayRef<uint64_t> Srcs) {
  if (Srcs.empty())
    return std::nullopt;
  uint64_t A = Srcs[0];
  if (Name == "S_MOV_B64" || Name == "COPY")
    return A;
  if (Name == "S_NOT_B64")
    return ~A;
  if (Srcs.size() < 2)
    return std::nullopt;
  uint64_t B = Srcs[1];
  if (Name == "S_AND_B64")
    return A & B;
  if (Name == "S_OR_B64")
    return A | B;
  if (Name == "S_XOR_B64")
    return A ^ B;
  if (Name == "S_ANDN2_B64")
    return A & ~B;
  if (Name == "S_ORN2_B64")
    return A | ~B;
  return std::nullopt;
}

/// SALU ops whose SCC is "the result is not zero".
static bool sccIsNonZero(StringRef N) {
  return N == "S_AND_B32" || N == "S_OR_B32" || N == "S_XOR_B32" ||
         N == "S_ANDN2_B32" || N == "S_LSHR_B32" || N == "S_LSHL_B32" ||
         N == "S_ASHR_I32" || N == "S_BFE_U32" || N == "S_AND_B64" ||
         N == "S_OR_B64" || N == "S_XOR_B64" || N == "S_ANDN2_B64" ||
         N == "S_ORN2_B64" || N == "S_NOT_B64";
}

//===----------------------------------------------------------------------===//
// Machine SSA
//===----------------------------------------------------------------------===//

static bool isWorkitemIdCopy(const MachineInstr &MI,
                             const TargetRegisterInfo *TRI) {
  if (!MI.isCopy() || !MI.getOperand(1).isReg())
    return false;
  Register Src = MI.getOperand(1).getReg();
  return Src.isPhysical() && !MI.getOperand(1).getSubReg() && TRI &&
         StringRef(TRI->getName(Src)) == "VGPR0";
}

std::optional<uint32_t> SSAWaveEval::value(Register R, unsigned Wave,
                                           unsigned Lane, unsigned First,
                                           unsigned Depth) const {
  if (!R.isVirtual() || Depth > 24)
    return std::nullopt;
  const MachineInstr *Def = MRI.getUniqueVRegDef(R);
  if (!Def)
    return std::nullopt;
  if (isWorkitemIdCopy(*Def, MRI.getTargetRegisterInfo()))
    return Wave * Lanes + Lane;
  StringRef Name = TII.getName(Def->getOpcode());
  // mask ? src1 : src0 (operands: modifiers, src0, modifiers, src1, mask),
  // for a mask the same in every lane (a uniform branch's 0/1 in a VGPR).
  if (Name == "V_CNDMASK_B32_e64") {
    SmallVector<const MachineOperand *, 5> U;
    for (const MachineOperand &MO : Def->explicit_uses())
      U.push_back(&MO);
    if (U.size() != 5 || !U[0]->isImm() || U[0]->getImm() || !U[2]->isImm() ||
        U[2]->getImm() || !U[4]->isReg())
      return std::nullopt;
    std::optional<bool> M = uniformMask(U[4]->getReg(), Wave, First, Depth + 1);
    if (!M)
      return std::nullopt;
    const MachineOperand &Pick = *U[*M ? 3 : 1];
    if (Pick.isImm())
      return uint32_t(Pick.getImm());
    if (!Pick.isReg() || Pick.getSubReg())
      return std::nullopt;
    return value(Pick.getReg(), Wave, Lane, First, Depth + 1);
  }
  // One value per wave: the first active lane's. Callers that cannot know
  // EXEC ask for every First and require the same answer.
  bool FirstLane = Name == "V_READFIRSTLANE_B32";
  SmallVector<uint32_t, 4> Srcs;
  for (const MachineOperand &MO : Def->explicit_uses()) {
    if (MO.isImm()) {
      Srcs.push_back(uint32_t(MO.getImm()));
      continue;
    }
    if (!MO.isReg() || MO.getSubReg())
      return std::nullopt;
    std::optional<uint32_t> V = value(MO.getReg(), Wave, FirstLane ? First : Lane,
                                      First, Depth + 1);
    if (!V)
      return std::nullopt;
    Srcs.push_back(*V);
  }
  if (FirstLane)
    return Srcs.size() == 1 ? std::optional<uint32_t>(Srcs[0]) : std::nullopt;
  return evalInt(Name, Srcs);
}

std::optional<bool> SSAWaveEval::condition(const MachineInstr &MI,
                                           unsigned Wave, unsigned Lane,
                                           unsigned First) const {
  StringRef Name = TII.getName(MI.getOpcode());
  SmallVector<uint32_t, 2> Srcs;
  for (const MachineOperand &MO : MI.explicit_uses()) {
    if (Srcs.size() == 2)
      break;
    std::optional<uint32_t> V;
    if (MO.isImm())
      V = uint32_t(MO.getImm());
    else if (MO.isReg() && !MO.getSubReg())
      V = value(MO.getReg(), Wave, Lane, First);
    if (!V)
      return std::nullopt;
    Srcs.push_back(*V);
  }
  if (Srcs.size() != 2)
    return std::nullopt;
  if (std::optional<bool> C = evalCompare(Name, Srcs[0], Srcs[1]))
    return C;
  if (sccIsNonZero(Name))
    if (std::optional<uint32_t> V = evalInt(Name, Srcs))
      return *V != 0;
  return std::nullopt;
}

const MachineInstr *SSAWaveEval::lastDefBefore(const MachineInstr &MI,
                                               MCRegister Reg) const {
  const TargetRegisterInfo *TRI = MRI.getTargetRegisterInfo();
  const MachineInstr *Def = nullptr;
  for (const MachineInstr &X : *MI.getParent()) {
    if (&X == &MI)
      break;
    if (X.definesRegister(Reg, TRI))
      Def = &X;
  }
  return Def;
}

std::optional<bool> SSAWaveEval::sccBefore(const MachineInstr &MI,
                                           unsigned Wave,
                                           unsigned First) const {
  const TargetRegisterInfo *TRI = MRI.getTargetRegisterInfo();
  const MachineInstr *Def = lastDefBefore(MI, physRegNamed(*TRI, "SCC"));
  if (!Def)
    return std::nullopt;
  return condition(*Def, Wave, First, First);
}

std::optional<bool> SSAWaveEval::uniformMask(Register R, unsigned Wave,
                                             unsigned First,
                                             unsigned Depth) const {
  if (!R.isVirtual() || Depth > 24)
    return std::nullopt;
  const MachineInstr *Def = MRI.getUniqueVRegDef(R);
  if (!Def)
    return std::nullopt;
  return uniformMaskOf(*Def, Wave, First, Depth);
}

std::optional<bool> SSAWaveEval::uniformMaskOf(const MachineInstr &DefMI,
                                               unsigned Wave, unsigned First,
                                               unsigned Depth) const {
  const MachineInstr *Def = &DefMI;
  StringRef N = TII.getName(Def->getOpcode());
  const TargetRegisterInfo *TRI = MRI.getTargetRegisterInfo();
  // An operand: a uniform mask, or EXEC (the wave's active lanes).
  struct M {
    bool Exec = false;
    bool All = false;
  };
  auto Operand = [&](const MachineOperand &MO) -> std::optional<M> {
    if (MO.isImm()) {
      if (MO.getImm() == -1 || MO.getImm() == 0)
        return M{false, MO.getImm() == -1};
      return std::nullopt;
    }
    if (!MO.isReg() || MO.getSubReg())
      return std::nullopt;
    if (MO.getReg().isPhysical())
      return StringRef(TRI->getName(MO.getReg())) == "EXEC"
                 ? std::optional<M>(M{true, false})
                 : std::nullopt;
    std::optional<bool> V = uniformMask(MO.getReg(), Wave, First, Depth + 1);
    if (!V)
      return std::nullopt;
    return M{false, *V};
  };
  if (N == "COPY" || N == "S_MOV_B64") {
    std::optional<M> A = Operand(Def->getOperand(1));
    if (!A || A->Exec)
      return std::nullopt;
    return A->All;
  }
  if (N.starts_with("V_CMP_")) {
    std::optional<bool> All;
    for (unsigned L = 0; L < Lanes; ++L) {
      std::optional<bool> C = condition(*Def, Wave, L, First);
      if (!C || (All && *C != *All))
        return std::nullopt;
      All = C;
    }
    return All;
  }
  if (N == "S_CSELECT_B64") {
    std::optional<bool> C = sccBefore(*Def, Wave, First);
    if (!C)
      return std::nullopt;
    std::optional<M> Pick = Operand(Def->getOperand(*C ? 1 : 2));
    if (!Pick || Pick->Exec)
      return std::nullopt;
    return Pick->All;
  }
  if (N == "S_AND_B64" || N == "S_OR_B64" || N == "S_XOR_B64" ||
      N == "S_ANDN2_B64") {
    std::optional<M> A = Operand(Def->getOperand(1)),
                     B = Operand(Def->getOperand(2));
    if (!A || !B || (A->Exec && B->Exec))
      return std::nullopt;
    // With EXEC as one side the answer is "any active lane", which for a
    // uniform other side is that side (or its negation).
    if (N == "S_AND_B64")
      return A->Exec ? B->All : B->Exec ? A->All : A->All && B->All;
    if (N == "S_ANDN2_B64")
      return A->Exec ? !B->All : B->Exec ? std::nullopt
                                         : std::optional<bool>(A->All && !B->All);
    if (N == "S_XOR_B64")
      return A->Exec ? !B->All : B->Exec ? !A->All : A->All != B->All;
    // S_OR_B64: EXEC | X is uniform only when X is all lanes.
    if (A->Exec || B->Exec) {
      bool X = A->Exec ? B->All : A->All;
      return X ? std::optional<bool>(true) : std::nullopt;
    }
    return A->All || B->All;
  }
  return std::nullopt;
}

bool SSAWaveEval::fromWorkitemId(Register R, unsigned Depth) const {
  if (!R.isVirtual() || Depth > 24)
    return false;
  const MachineInstr *Def = MRI.getUniqueVRegDef(R);
  if (!Def)
    return false;
  const TargetRegisterInfo *TRI = MRI.getTargetRegisterInfo();
  if (isWorkitemIdCopy(*Def, TRI))
    return true;
  MCRegister SCC = physRegNamed(*TRI, "SCC");
  return llvm::any_of(Def->uses(), [&](const MachineOperand &MO) {
    if (!MO.isReg())
      return false;
    if (MO.getReg() == SCC) {
      const MachineInstr *S = lastDefBefore(*Def, SCC);
      return S && llvm::any_of(S->uses(), [&](const MachineOperand &U) {
               return U.isReg() && fromWorkitemId(U.getReg(), Depth + 1);
             });
    }
    return fromWorkitemId(MO.getReg(), Depth + 1);
  });
}

//===----------------------------------------------------------------------===//
// Final MIR, one wave
//===----------------------------------------------------------------------===//

WaveState::WaveState(unsigned Wave, const TargetRegisterInfo &TRI,
                     const TargetInstrInfo &TII)
    : TRI(TRI), TII(TII) {
  Exec = physRegNamed(TRI, "EXEC");
  VCC = physRegNamed(TRI, "VCC");
  SCCReg = physRegNamed(TRI, "SCC");
  // Registers by width: the classes are found by name once (no AMDGPU
  // header), membership is then a bit test.
  for (const TargetRegisterClass *RC : TRI.regclasses()) {
    StringRef N = TRI.getRegClassName(RC);
    if (N == "SReg_32")
      S32 = RC;
    else if (N == "VGPR_32")
      V32 = RC;
    else if (N == "SReg_64")
      S64 = RC;
  }
  if (Exec)
    R64[Exec] = ~uint64_t(0);
  if (unsigned V0 = physRegNamed(TRI, "VGPR0")) {
    LaneVals Tid;
    for (unsigned L = 0; L < Lanes; ++L)
      Tid.V[L] = Wave * Lanes + L;
    Tid.Known = ~uint64_t(0);
    R32[V0] = Tid;
  }
}

bool WaveState::is64(MCRegister Reg) const {
  return S64 && S64->contains(Reg);
}

bool WaveState::is32(MCRegister Reg) const {
  return (S32 && S32->contains(Reg)) || (V32 && V32->contains(Reg));
}

void WaveState::forget(MCRegister Reg) {
  if (Reg == SCCReg) {
    SCC.reset();
    return;
  }
  // What Reg contains (every wide tuple of an MFMA result included), then
  // the few 64-bit masks and, for a 16-bit half, the 32-bit register.
  for (MCPhysReg Sub : TRI.subregs_inclusive(Reg)) {
    R32.erase(Sub);
    R64.erase(Sub);
  }
  auto Drop = [&](auto &Map) {
    SmallVector<unsigned, 4> Gone;
    for (auto &KV : Map)
      if (TRI.regsOverlap(MCRegister(KV.first), Reg))
        Gone.push_back(KV.first);
    for (unsigned G : Gone)
      Map.erase(G);
  };
  Drop(R64);
  if (!is32(Reg) && TRI.subregs(Reg).empty())
    Drop(R32);
}

std::optional<WaveState::LaneVals>
WaveState::read32(const MachineOperand &MO) const {
  LaneVals L;
  if (MO.isImm()) {
    L.V.fill(uint32_t(MO.getImm()));
    L.Known = ~uint64_t(0);
    return L;
  }
  if (!MO.isReg() || !MO.getReg().isPhysical() || MO.getSubReg())
    return std::nullopt;
  auto It = R32.find(MO.getReg());
  if (It == R32.end())
    return std::nullopt;
  return It->second;
}

std::optional<uint64_t> WaveState::read64(const MachineOperand &MO) const {
  if (MO.isImm())
    return uint64_t(MO.getImm());
  if (!MO.isReg() || !MO.getReg().isPhysical() || MO.getSubReg())
    return std::nullopt;
  auto It = R64.find(MO.getReg());
  if (It == R64.end())
    return std::nullopt;
  return It->second;
}

/// A 32-bit integer op: SALU on the (uniform) sources' one value, VALU per
/// active lane; the lanes EXEC leaves off keep Dst's old value.
std::optional<WaveState::LaneVals>
WaveState::eval32(StringRef Name, ArrayRef<const MachineOperand *> Uses,
                  bool Valu, std::optional<uint64_t> ExecNow,
                  MCRegister Dst) const {
  SmallVector<LaneVals, 3> Srcs;
  for (const MachineOperand *MO : Uses) {
    std::optional<LaneVals> V = read32(*MO);
    if (!V)
      return std::nullopt;
    Srcs.push_back(*V);
  }
  if (Srcs.empty())
    return std::nullopt;
  LaneVals R;
  if (!Valu) {
    SmallVector<uint32_t, 3> S;
    for (const LaneVals &V : Srcs) {
      if (!(V.Known & 1))
        return std::nullopt;
      S.push_back(V.V[0]);
    }
    std::optional<uint32_t> X = evalInt(Name, S);
    if (!X)
      return std::nullopt;
    R.V.fill(*X);
    R.Known = ~uint64_t(0);
    return R;
  }
  if (!ExecNow)
    return std::nullopt;
  if (auto It = R32.find(Dst); It != R32.end())
    R = It->second;
  for (unsigned L = 0; L < Lanes; ++L) {
    if (!(*ExecNow >> L & 1))
      continue;
    SmallVector<uint32_t, 3> S;
    for (const LaneVals &V : Srcs)
      if (V.Known >> L & 1)
        S.push_back(V.V[L]);
    if (S.size() != Srcs.size()) {
      R.Known &= ~(uint64_t(1) << L);
      continue;
    }
    std::optional<uint32_t> X = evalInt(Name, S);
    if (!X)
      return std::nullopt; // not an op the model evaluates
    R.V[L] = *X;
    R.Known |= uint64_t(1) << L;
  }
  return R;
}

void WaveState::step(const MachineInstr &MI) {
  if (MI.isDebugInstr() || MI.isBundle() || MI.isBranch())
    return;
  StringRef Name = TII.getName(MI.getOpcode());
  SmallVector<const MachineOperand *, 4> Uses;
  for (const MachineOperand &MO : MI.explicit_uses())
    if (MO.isReg() || MO.isImm())
      Uses.push_back(&MO);
  std::optional<uint64_t> ExecNow;
  if (auto It = R64.find(Exec); It != R64.end())
    ExecNow = It->second;
  const MachineOperand *Dst =
      MI.getNumExplicitDefs() == 1 && MI.getOperand(0).isReg()
          ? &MI.getOperand(0)
          : nullptr;

  // Compute first, then forget everything MI writes, then store.
  std::optional<LaneVals> Out32;
  std::optional<uint64_t> Out64, NewExec;
  std::optional<bool> NewSCC;
  bool Valu = Name.starts_with("V_");
  if (Name.starts_with("V_CMP_") || Name.starts_with("S_CMP")) {
    // V_CMP: a lane mask (0 in inactive lanes); S_CMP: SCC.
    if (Uses.size() >= 2) {
      std::optional<LaneVals> A = read32(*Uses[0]), B = read32(*Uses[1]);
      if (Valu && A && B && ExecNow && (A->Known & B->Known & *ExecNow) == *ExecNow) {
        uint64_t M = 0;
        bool Ok = true;
        for (unsigned L = 0; L < Lanes && Ok; ++L)
          if (*ExecNow >> L & 1) {
            std::optional<bool> C = evalCompare(Name, A->V[L], B->V[L]);
            Ok = C.has_value();
            M |= uint64_t(Ok && *C) << L;
          }
        if (Ok)
          Out64 = M;
      } else if (!Valu && A && B && (A->Known & 1) && (B->Known & 1)) {
        NewSCC = evalCompare(Name, A->V[0], B->V[0]);
      }
    }
  } else if (Name == "V_READFIRSTLANE_B32") {
    std::optional<LaneVals> A = Uses.empty() ? std::nullopt : read32(*Uses[0]);
    if (A && ExecNow && *ExecNow) {
      unsigned F = llvm::countr_zero(*ExecNow);
      if (A->Known >> F & 1) {
        LaneVals U;
        U.V.fill(A->V[F]);
        U.Known = ~uint64_t(0);
        Out32 = U;
      }
    }
  } else if (Name.ends_with("_SAVEEXEC_B64")) {
    // dst = exec; exec = op(src, exec); SCC = exec != 0.
    std::optional<uint64_t> S = Uses.empty() ? std::nullopt : read64(*Uses[0]);
    StringRef Op = Name.drop_back(strlen("_SAVEEXEC_B64"));
    Out64 = ExecNow;
    if (S && ExecNow) {
      std::optional<uint64_t> E;
      if (Op == "S_AND")
        E = *S & *ExecNow;
      else if (Op == "S_OR")
        E = *S | *ExecNow;
      else if (Op == "S_XOR")
        E = *S ^ *ExecNow;
      else if (Op == "S_ANDN2")
        E = *S & ~*ExecNow;
      if (E) {
        NewExec = E;
        NewSCC = *E != 0;
      }
    }
  } else if (Name == "V_CNDMASK_B32_e64" && Dst && Uses.size() == 5 &&
             is32(Dst->getReg())) {
    std::optional<LaneVals> S0 = read32(*Uses[1]), S1 = read32(*Uses[3]);
    std::optional<uint64_t> Mask = read64(*Uses[4]);
    bool NoMods = Uses[0]->isImm() && !Uses[0]->getImm() && Uses[2]->isImm() &&
                  !Uses[2]->getImm();
    if (S0 && S1 && Mask && ExecNow && NoMods) {
      LaneVals R;
      if (auto It = R32.find(Dst->getReg()); It != R32.end())
        R = It->second;
      for (unsigned L = 0; L < Lanes; ++L) {
        if (!(*ExecNow >> L & 1))
          continue;
        const LaneVals &From = (*Mask >> L & 1) ? *S1 : *S0;
        R.V[L] = From.V[L];
        R.Known = (R.Known & ~(uint64_t(1) << L)) | (From.Known & (uint64_t(1) << L));
      }
      Out32 = R;
    }
  } else if ((Name == "S_CSELECT_B64" || Name == "S_CSELECT_B32") && Dst &&
             Uses.size() == 2) {
    // LLVM's uniform branch on a compare: SCC to a mask, then VCC.
    if (SCC) {
      const MachineOperand &Pick = *Uses[*SCC ? 0 : 1];
      if (is64(Dst->getReg()))
        Out64 = read64(Pick);
      else if (is32(Dst->getReg()))
        Out32 = read32(Pick);
    }
  } else if (Name == "COPY" && Dst && Uses.size() == 1) {
    if (is64(Dst->getReg()))
      Out64 = read64(*Uses[0]);
    else if (is32(Dst->getReg()))
      Out32 = read32(*Uses[0]);
  } else if (Dst && Dst->getReg().isPhysical() && is64(Dst->getReg())) {
    SmallVector<uint64_t, 2> Srcs;
    for (const MachineOperand *MO : Uses)
      if (std::optional<uint64_t> V = read64(*MO))
        Srcs.push_back(*V);
    if (Srcs.size() == Uses.size())
      Out64 = evalMask(Name, Srcs);
    if (Out64 && sccIsNonZero(Name))
      NewSCC = *Out64 != 0;
  } else if (Dst && Dst->getReg().isPhysical() && is32(Dst->getReg())) {
    Out32 = eval32(Name, Uses, Valu, ExecNow, Dst->getReg());
    if (Out32 && !Valu && sccIsNonZero(Name))
      NewSCC = Out32->V[0] != 0;
  }

  for (const MachineOperand &MO : MI.operands())
    if (MO.isReg() && MO.isDef() && MO.getReg() && MO.getReg().isPhysical())
      forget(MO.getReg());
  if (Dst && Dst->getReg().isPhysical()) {
    if (Out32 && is32(Dst->getReg()))
      R32[Dst->getReg()] = *Out32;
    if (Out64 && is64(Dst->getReg()))
      R64[Dst->getReg()] = *Out64;
  } else if (Out64 && Name.starts_with("V_CMP_") && VCC) {
    R64[VCC] = *Out64; // the _e32 form writes VCC
  }
  if (NewExec && Exec)
    R64[Exec] = *NewExec;
  if (NewSCC)
    SCC = NewSCC;
}

bool WaveState::execFull() const {
  auto It = R64.find(Exec);
  return It != R64.end() && It->second == ~uint64_t(0);
}

std::optional<bool> WaveState::jumps(const MachineInstr &Br) const {
  StringRef N = TII.getName(Br.getOpcode());
  auto Mask = [&](unsigned Reg) -> std::optional<uint64_t> {
    auto It = R64.find(Reg);
    if (It == R64.end())
      return std::nullopt;
    return It->second;
  };
  if (N == "S_CBRANCH_SCC1" || N == "S_CBRANCH_SCC0") {
    if (!SCC)
      return std::nullopt;
    return *SCC == (N == "S_CBRANCH_SCC1");
  }
  if (N == "S_CBRANCH_EXECZ" || N == "S_CBRANCH_EXECNZ") {
    std::optional<uint64_t> E = Mask(Exec);
    if (!E)
      return std::nullopt;
    return (*E == 0) == (N == "S_CBRANCH_EXECZ");
  }
  if (N == "S_CBRANCH_VCCZ" || N == "S_CBRANCH_VCCNZ") {
    std::optional<uint64_t> V = Mask(VCC);
    if (!V)
      return std::nullopt;
    return (*V == 0) == (N == "S_CBRANCH_VCCZ");
  }
  return std::nullopt;
}

} // namespace wavevalues
} // namespace pingpong
