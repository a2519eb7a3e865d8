//===- Stages.cpp - which LDS write feeds which read, how far ahead -------===//
//
// Concern (d) of the loop model. Triton's async loops rotate their LDS
// buffers: a stage index (idx + 1 < N ? idx + 1 : 0) gives the byte offset of
// the buffer the LDS DMA of this iteration fills, and the reads of the same
// operand use that offset one or more iterations later, through header PHIs.
// (Their alias scopes say the reads and the in-flight copies do not alias, so
// the buffer identity cannot pair them.) The address of each LDS access is
// walked back to the in-loop values it is built from, counting the PHIs
// crossed; a write (DMA or ds_write) and a read that meet at a value pair up,
// the closest meeting first, and the PHIs between them are the iterations
// between writing and reading (StagesAhead; a write placed after the read in
// the body adds one). This names the operand each DMA fills, which no
// register dataflow shows, and the loop's pipeline depth.
//
//===----------------------------------------------------------------------===//
#include "ModelBuilder.h"

#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Support/Debug.h"

#include <climits>
#include <optional>

using namespace llvm;

#define DEBUG_TYPE "amdgpu-pingpong"

STATISTIC(NumRotatedFills, "LDS writes paired with their reads through a rotated stage index");

namespace pingpong {

namespace {

/// How an access's LDS address uses an in-loop value: instructions between,
/// header PHIs crossed (iterations back), and the constant added on the way
/// when the path is additions and copies only (std::nullopt otherwise).
struct BaseUse {
  unsigned Depth;
  unsigned Phis;
  std::optional<int64_t> Offset;
};
using AddressSlice = DenseMap<unsigned, BaseUse>; // region position -> use

/// The register holding an access's LDS address: a DS instruction's first
/// register operand; an LDS DMA's M0, as set by the last COPY to it before.
Register ldsAddress(const ModelBuilder &B, unsigned Pos, MCRegister M0) {
  const InstInfo &II = B.M.Insts[Pos];
  if (II.Kind != InstKind::LDSDMA) {
    SmallVector<Register, 4> Uses = B.regUses(*II.MI);
    return Uses.empty() ? Register() : Uses[0];
  }
  if (!M0)
    return Register();
  const TargetRegisterInfo *TRI = B.MF.getSubtarget().getRegisterInfo();
  for (unsigned P = Pos; P-- > 0;) {
    const MachineInstr &MI = *B.M.Insts[P].MI;
    if (!MI.modifiesRegister(M0, TRI))
      continue;
    if (MI.isCopy() && MI.getOperand(1).isReg())
      return MI.getOperand(1).getReg();
    return Register();
  }
  return Register();
}

/// The byte offset a DS instruction adds to its address. The read2/write2
/// forms: the lower of their two offsets (in elements of 4 or 8 bytes, x64
/// for ST64), so that two buffers read by one pair of read2s (the A- and
/// B-scales of a HIP kernel, 1 KiB apart) stay apart.
int64_t dsOffset(const ModelBuilder &B, const MachineInstr &MI) {
  if (B.T.classify(MI) == InstKind::LDSDMA)
    return 0;
  StringRef Name = B.T.name(MI.getOpcode());
  if (Name.starts_with("DS_READ2") || Name.starts_with("DS_WRITE2")) {
    SmallVector<int64_t, 3> Imms; // offset0, offset1, gds
    for (const MachineOperand &MO : MI.explicit_uses())
      if (MO.isImm())
        Imms.push_back(MO.getImm());
    if (Imms.size() < 2)
      return 0;
    int64_t Elem = (Name.contains("B64") ? 8 : 4) * (Name.contains("ST64") ? 64 : 1);
    return std::min(Imms[0], Imms[1]) * Elem;
  }
  for (const MachineOperand &MO : MI.explicit_uses())
    if (MO.isImm())
      return MO.getImm();
  return 0;
}

/// Integer additions: the immediates they add are part of a buffer offset.
bool isIntAdd(StringRef Name) {
  return (Name.starts_with("S_ADD_") || Name.starts_with("S_ADDK_") ||
          Name.starts_with("V_ADD_U32") || Name.starts_with("V_ADD_CO_U32") ||
          Name.starts_with("V_ADD3_U32") || Name.starts_with("V_ADD_I32"));
}

/// A register holding a constant (S_MOV/V_MOV of an immediate).
std::optional<int64_t> constantIn(const ModelBuilder &B, Register Reg) {
  if (!Reg.isVirtual())
    return std::nullopt;
  const MachineInstr *Def = B.MRI.getUniqueVRegDef(Reg);
  if (!Def || !Def->isMoveImmediate() || Def->getNumOperands() < 2 ||
      !Def->getOperand(1).isImm())
    return std::nullopt;
  return Def->getOperand(1).getImm();
}

void walk(const ModelBuilder &B, Register Reg, unsigned Depth, unsigned Phis,
          std::optional<int64_t> Offset, AddressSlice &Out) {
  constexpr unsigned MaxDepth = 10;
  // Through header PHIs (several for a buffer read N iterations later).
  for (unsigned Guard = 0; Reg.isVirtual() && Guard < 8; ++Guard) {
    auto Phi = B.PhiFromBody.find(Reg);
    if (Phi == B.PhiFromBody.end())
      break;
    Reg = Phi->second;
    ++Phis;
  }
  if (!Reg.isVirtual())
    return;
  auto Defs = B.DefsOf.find(Reg);
  if (Defs == B.DefsOf.end())
    return; // defined before the loop: the same in every iteration
  for (unsigned D : Defs->second) {
    auto [It, New] = Out.try_emplace(D, BaseUse{Depth, Phis, Offset});
    if (!New) {
      if (It->second.Depth <= Depth)
        continue;
      It->second = BaseUse{Depth, Phis, Offset};
    }
    if (Depth >= MaxDepth)
      continue;
    const MachineInstr &MI = *B.M.Insts[D].MI;
    SmallVector<Register, 4> Uses = B.regUses(MI);
    std::optional<int64_t> Next;
    if (Offset && (MI.isCopy() || isIntAdd(B.T.name(MI.getOpcode())))) {
      Next = *Offset;
      for (const MachineOperand &MO : MI.explicit_uses())
        if (MO.isImm())
          *Next += MO.getImm();
      for (Register U : Uses)
        if (std::optional<int64_t> C = constantIn(B, U))
          *Next += *C;
    }
    for (Register U : Uses)
      walk(B, U, Depth + 1, Phis, Next, Out);
  }
}

/// How well write W's address fits read R's buffer: the write lands at or
/// above the read's base (both built from the same value plus constants),
/// the closest first; then the shortest path.
struct Fit {
  int64_t Above = INT64_MAX;
  unsigned Depth = ~0u;
  int Dist = 0; // PHIs between: iterations from the write to the read
  bool operator<(const Fit &O) const {
    return Above != O.Above ? Above < O.Above : Depth < O.Depth;
  }
  bool operator==(const Fit &O) const {
    return Above == O.Above && Depth == O.Depth;
  }
};

std::optional<Fit> fit(const AddressSlice &W, const AddressSlice &R) {
  std::optional<Fit> Best;
  for (auto &[Pos, WU] : W) {
    auto Hit = R.find(Pos);
    if (Hit == R.end())
      continue;
    const BaseUse &RU = Hit->second;
    if (!WU.Offset || !RU.Offset || *WU.Offset < *RU.Offset)
      continue;
    Fit F{*WU.Offset - *RU.Offset, WU.Depth + RU.Depth,
          int(RU.Phis) - int(WU.Phis)};
    if (!Best || F < *Best)
      Best = F;
  }
  return Best;
}

/// A buffer rotation at region position Sel: x + 1 < N ? x + 1 : 0
/// (S_ADD, S_CMP_LT, S_CSELECT) -> x and N.
struct Rotation {
  Register From;
  unsigned N;
};
std::optional<Rotation> rotationAt(const ModelBuilder &B, unsigned Sel) {
  auto ConstOf = [&](const MachineOperand &MO) -> std::optional<int64_t> {
    if (MO.isImm())
      return MO.getImm();
    if (MO.isReg())
      return constantIn(B, MO.getReg());
    return std::nullopt;
  };
  const MachineInstr &SI = *B.M.Insts[Sel].MI;
  if (B.T.name(SI.getOpcode()) != "S_CSELECT_B32" || SI.getNumOperands() < 3 ||
      !SI.getOperand(1).isReg() || ConstOf(SI.getOperand(2)) != 0)
    return std::nullopt;
  Register Next = SI.getOperand(1).getReg();
  const MachineInstr *Add = Next.isVirtual() ? B.MRI.getUniqueVRegDef(Next) : nullptr;
  if (!Add || !isIntAdd(B.T.name(Add->getOpcode())) ||
      Add->getNumOperands() < 3 || !Add->getOperand(1).isReg() ||
      !Add->getOperand(1).getReg().isVirtual() || ConstOf(Add->getOperand(2)) != 1)
    return std::nullopt;
  // The compare that sets SCC for the select: the last SCC def before it.
  for (unsigned P = Sel; P-- > 0;) {
    const MachineInstr &CI = *B.M.Insts[P].MI;
    bool DefsSCC = llvm::any_of(CI.operands(), [&](const MachineOperand &MO) {
      return MO.isReg() && MO.isDef() && !MO.isDead() &&
             StringRef(B.MF.getSubtarget().getRegisterInfo()->getName(
                 MO.getReg())) == "SCC";
    });
    if (!DefsSCC)
      continue;
    StringRef Name = B.T.name(CI.getOpcode());
    std::optional<int64_t> N;
    if ((Name == "S_CMP_LT_I32" || Name == "S_CMP_LT_U32") &&
        CI.getOperand(0).isReg() && CI.getOperand(0).getReg() == Next)
      N = ConstOf(CI.getOperand(1));
    if (N && *N >= 1 && *N <= 16)
      return Rotation{Add->getOperand(1).getReg(), unsigned(*N)};
    return std::nullopt;
  }
  return std::nullopt;
}

/// Triton's stage index: a header PHI whose next value is
/// idx + 1 < N ? idx + 1 : 0. Region position of the S_CSELECT -> N, the
/// buffers an address built from it cycles through.
DenseMap<unsigned, unsigned> stageIndices(const ModelBuilder &B) {
  DenseMap<unsigned, unsigned> Out;
  for (auto &[Phi, Latch] : B.PhiFromBody) {
    auto Defs = B.DefsOf.find(Latch);
    if (Defs == B.DefsOf.end() || Defs->second.size() != 1)
      continue;
    std::optional<Rotation> R = rotationAt(B, Defs->second.front());
    if (R && R->From == Phi)
      Out[Defs->second.front()] = R->N;
  }
  return Out;
}

/// An address computed from the stage index advanced by further rotations:
/// the DMA lookahead's copies (lib/Passes/DMALookahead.cpp) take the buffer
/// of the next iteration, rot(idx') where the reads use idx' (through a
/// header PHI). X matches Y when X is Y's computation, instruction for
/// instruction, with every use of the stage index idx' replaced by
/// rot^k(idx') (the same k everywhere, the same N as the index); values
/// from outside the loop and constants match themselves. rot^k(idx') of
/// iteration t is idx' of iteration t + k, so X is Y's value k iterations
/// later.
struct RotatedMatch {
  const ModelBuilder &B;
  const DenseMap<unsigned, unsigned> &Indices;
  std::optional<unsigned> Rots; // k, the same at every leaf

  /// Reads a physical register other than EXEC and MODE (SCC, VCC: a
  /// select's condition), which the operand comparison does not see.
  bool readsCondition(const MachineInstr &MI) const {
    const TargetRegisterInfo *TRI = B.MF.getSubtarget().getRegisterInfo();
    return llvm::any_of(MI.operands(), [&](const MachineOperand &MO) {
      if (!MO.isReg() || !MO.isUse() || !MO.getReg().isPhysical())
        return false;
      StringRef N = TRI->getName(MO.getReg());
      return N != "EXEC" && N != "MODE";
    });
  }

  bool match(Register X, Register Y, unsigned Rot, unsigned Depth) {
    if (Depth > 12 || !X.isVirtual() || !Y.isVirtual())
      return false;
    auto DY = B.DefsOf.find(Y);
    if (DY != B.DefsOf.end() && DY->second.size() == 1) {
      auto Idx = Indices.find(DY->second.front());
      if (Idx != Indices.end()) {
        // Y is the stage index: X must be it, rotated Rot times so far.
        if (X == Y) {
          if (Rots && *Rots != Rot)
            return false;
          Rots = Rot;
          return true;
        }
        auto DX = B.DefsOf.find(X);
        if (DX == B.DefsOf.end() || DX->second.size() != 1)
          return false;
        std::optional<Rotation> R = rotationAt(B, DX->second.front());
        return R && R->N == Idx->second && match(R->From, Y, Rot + 1, Depth + 1);
      }
    }
    if (X == Y) // the same value: only one that does not depend on the index
      return DY == B.DefsOf.end() || constantIn(B, X);
    std::optional<int64_t> CX = constantIn(B, X), CY = constantIn(B, Y);
    if (CX || CY)
      return CX == CY;
    auto DX = B.DefsOf.find(X);
    if (DX == B.DefsOf.end() || DY == B.DefsOf.end() || DX->second.size() != 1 ||
        DY->second.size() != 1)
      return false;
    const MachineInstr &MX = *B.M.Insts[DX->second.front()].MI;
    const MachineInstr &MY = *B.M.Insts[DY->second.front()].MI;
    if (MX.getOpcode() != MY.getOpcode() || MX.isPHI() ||
        MX.getNumExplicitOperands() != MY.getNumExplicitOperands() ||
        MX.mayLoad() || MY.mayLoad() || readsCondition(MX) || readsCondition(MY))
      return false;
    for (unsigned I = MX.getNumExplicitDefs(), E = MX.getNumExplicitOperands();
         I < E; ++I) {
      const MachineOperand &OX = MX.getOperand(I), &OY = MY.getOperand(I);
      if (OX.isReg() && OY.isReg() && OX.getReg().isVirtual() &&
          OY.getReg().isVirtual()) {
        if (OX.getSubReg() != OY.getSubReg() ||
            !match(OX.getReg(), OY.getReg(), Rot, Depth + 1))
          return false;
      } else if (!OX.isIdenticalTo(OY)) {
        return false;
      }
    }
    return true;
  }
};

/// Write W's address fits read R's buffer k iterations later (RotatedMatch):
/// a value in W's slice is the rotated form of one in R's, the offsets
/// above them known.
std::optional<Fit> rotatedFit(const ModelBuilder &B,
                              const DenseMap<unsigned, unsigned> &Indices,
                              const AddressSlice &W, const AddressSlice &R) {
  std::optional<Fit> Best;
  for (auto &[WP, WU] : W) {
    if (!WU.Offset)
      continue;
    const MachineInstr &MW = *B.M.Insts[WP].MI;
    if (MW.getNumExplicitDefs() != 1 || !MW.getOperand(0).getReg().isVirtual())
      continue;
    for (auto &[RP, RU] : R) {
      if (!RU.Offset || *WU.Offset < *RU.Offset || RP == WP)
        continue;
      const MachineInstr &MR = *B.M.Insts[RP].MI;
      if (MR.getNumExplicitDefs() != 1 || !MR.getOperand(0).getReg().isVirtual())
        continue;
      RotatedMatch Match{B, Indices, std::nullopt};
      if (!Match.match(MW.getOperand(0).getReg(), MR.getOperand(0).getReg(), 0, 0) ||
          !Match.Rots || !*Match.Rots)
        continue;
      Fit F{*WU.Offset - *RU.Offset, WU.Depth + RU.Depth,
            int(RU.Phis) - int(WU.Phis) + int(*Match.Rots)};
      if (!Best || F < *Best)
        Best = F;
    }
  }
  return Best;
}

} // namespace

void deriveStages(ModelBuilder &B) {
  LoopModel &M = B.M;
  MCRegister M0;
  const TargetRegisterInfo *TRI = B.MF.getSubtarget().getRegisterInfo();
  for (unsigned Reg = 1, E = TRI->getNumRegs(); Reg < E; ++Reg)
    if (StringRef(TRI->getName(Reg)) == "M0")
      M0 = MCRegister(Reg);

  SmallVector<unsigned, 32> Reads, Writes;
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    Role R = M.Insts[I].R;
    if (R == Role::LocalRead)
      Reads.push_back(I);
    else if (R == Role::LocalWrite || R == Role::AsyncCopy)
      Writes.push_back(I);
  }
  if (Reads.empty() || Writes.empty())
    return;
  DenseMap<unsigned, unsigned> Indices = stageIndices(B);
  DenseMap<unsigned, AddressSlice> Slices;
  for (unsigned I : Reads)
    if (Register A = ldsAddress(B, I, M0))
      walk(B, A, 0, 0, dsOffset(B, *M.Insts[I].MI), Slices[I]);
  for (unsigned I : Writes)
    if (Register A = ldsAddress(B, I, M0))
      walk(B, A, 0, 0, dsOffset(B, *M.Insts[I].MI), Slices[I]);

  // Each write pairs with the reads its address fits best; its operand is
  // theirs if they agree (a DMA has no other way to say), its distance
  // theirs. ds_writes keep the operand the buffer identity gave them,
  // except in the loops no mode schedules yet (scales, chained dots, DMA,
  // direct loads), where this names buffers the identity cannot (one
  // arena): the operands the GEMM modes select by stay as they were.
  bool NewShape = B.newShape();
  for (unsigned W : Writes) {
    auto WS = Slices.find(W);
    if (WS == Slices.end() || WS->second.empty())
      continue;
    std::optional<Fit> Best;
    SmallVector<std::pair<unsigned, int>, 8> Matches; // read, PHI distance
    // The reads FitOf fits best, each with its distance.
    auto MatchReads = [&](auto &&FitOf) {
      for (unsigned Rd : Reads) {
        auto RS = Slices.find(Rd);
        if (RS == Slices.end())
          continue;
        std::optional<Fit> F = FitOf(RS->second);
        if (!F || (Best && *Best < *F))
          continue;
        if (!Best || *F < *Best) {
          Best = F;
          Matches.clear();
        }
        Matches.push_back({Rd, F->Dist});
      }
    };
    MatchReads([&](const auto &Read) { return fit(WS->second, Read); });
    // No read meets this write at a shared value: the write's buffer may
    // be the reads' one rotated further (the DMA lookahead's copies).
    if (Matches.empty()) {
      MatchReads([&](const auto &Read) {
        return rotatedFit(B, Indices, WS->second, Read);
      });
      if (!Matches.empty()) {
        ++NumRotatedFills;
        LLVM_DEBUG(dbgs() << "amdgpu-pingpong: stages: write " << W
                          << " fills the reads' buffer through "
                          << "a rotated stage index, " << Best->Dist
                          << " iteration(s) ahead\n");
      }
    }
    if (Matches.empty())
      continue;
    Operand Op = M.Insts[Matches.front().first].Op;
    unsigned Group = M.Insts[Matches.front().first].Group;
    int Dist = Matches.front().second;
    bool OneGroup = true;
    for (auto [Rd, D] : Matches) {
      if (M.Insts[Rd].Op != Op)
        Op = Operand::None;
      OneGroup &= M.Insts[Rd].Group == Group;
      Dist = std::max(Dist, D);
    }
    if (OneGroup)
      B.FillGroup[W] = Group;
    InstInfo &WI = M.Insts[W];
    // The buffers its address cycles through: the stage index it is built
    // from (one index only; two would leave the count open).
    std::optional<unsigned> Buffers;
    for (auto &[Sel, N] : Indices)
      if (WS->second.count(Sel))
        Buffers = Buffers && *Buffers != N ? 0u : N;
    WI.Buffers = Buffers.value_or(0);
    // Written after the read in the body: read in a later iteration.
    unsigned Ahead = unsigned(std::max(Dist, 0)) +
                     (Dist <= 0 && W > Matches.front().first ? 1 : 0);
    WI.StagesAhead = Ahead;
    if (WI.R == Role::AsyncCopy || (NewShape && WI.Op == Operand::None))
      WI.Op = Op;
    M.NumStages = std::max(M.NumStages, Ahead + 1);
  }
}

} // namespace pingpong
