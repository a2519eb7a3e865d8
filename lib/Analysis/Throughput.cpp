//===- Throughput.cpp - what a loop asks of the memory and the MFMA pipe --===//
#include "pingpong/Analysis/Throughput.h"
#include "pingpong/Target/MFMACycles.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"

#include <algorithm>

using namespace llvm;

namespace pingpong {

namespace {

/// One wave's iteration: MFMA pipe clocks and the bytes per lane of its
/// global copies (loads, LDS DMA) and of its LDS reads and writes. A stream
/// with an access of unknown width is not known; no MFMA clocks where one
/// MFMA is not in the table.
struct WaveDemand {
  uint64_t MFMAClocks = 0;
  unsigned MFMAs = 0, VALU = 0; // issue turns of the SIMD's vector ALU
  unsigned NonMFMA = 0;         // the wave's other instructions, any unit
  unsigned LDSTrips = 0; // dependent LDS results on the non-MFMA work's chain
  unsigned OffDotVALU = 0; // VALU that no MFMA result of the iteration feeds
  uint64_t CopyLane = 0, ReadLane = 0, WriteLane = 0;
  bool CopyKnown = true, LDSKnown = true;
};

/// Machine SSA: COPY/PHI/REG_SEQUENCE are not instructions yet.
bool realInstruction(const MachineInstr &MI) {
  return !MI.isMetaInstruction() && !MI.isCopy() && !MI.isPHI() &&
         !MI.isRegSequence() && !MI.isInsertSubreg();
}

/// Bytes per lane an access moves: a copy (global load, LDS DMA) its widest
/// memory operand (DMA: both sides); an LDS access every LDS part
/// (ds_read2/ds_write2: two). 0: a width not known.
uint64_t laneBytes(const MachineInstr &MI, bool Copy) {
  uint64_t Size = 0;
  for (const MachineMemOperand *MMO : MI.memoperands()) {
    if (!MMO->getSize().hasValue())
      continue;
    uint64_t B = MMO->getSize().getValue();
    if (Copy)
      Size = std::max(Size, B);
    else if (MMO->getAddrSpace() == 3)
      Size += B;
  }
  return Size;
}

WaveDemand waveDemand(const LoopModel &M, const target::TargetFacts &TF) {
  WaveDemand D;
  const MachineFunction &MF = *M.Body->getParent();
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  const bool Gfx950 = TF.Id == target::GPU::Gfx950;
  bool MFMAKnown = true;
  // Per virtual register defined in the body: the LDS round trips the
  // non-MFMA work waits through before it (an LDS result it uses, machine
  // SSA: one definition), not counting what only the MFMAs use.
  DenseMap<Register, unsigned> Trips;
  // Virtual registers an MFMA result of this iteration reaches (machine SSA,
  // forward in body order; header PHIs carry last iteration's values).
  DenseSet<Register> FromDots;
  for (const InstInfo &I : M.Insts) {
    bool FedByDot = I.R == Role::Dot;
    for (const MachineOperand &MO : I.MI->uses())
      FedByDot |= MO.isReg() && MO.getReg().isVirtual() &&
                  FromDots.contains(MO.getReg());
    if (FedByDot)
      for (const MachineOperand &MO : I.MI->defs())
        if (MO.isReg() && MO.getReg().isVirtual())
          FromDots.insert(MO.getReg());
    if (I.R != Role::Dot) {
      unsigned T = 0;
      for (const MachineOperand &MO : I.MI->uses())
        if (MO.isReg() && MO.getReg().isVirtual())
          T = std::max(T, Trips.lookup(MO.getReg()));
      const bool LDSResult =
          I.Kind == InstKind::LDSRead || I.Kind == InstKind::LDSOther;
      for (const MachineOperand &MO : I.MI->defs())
        if (MO.isReg() && MO.getReg().isVirtual())
          Trips[MO.getReg()] = T + LDSResult;
      // Used by an instruction (not a copy on its way to the MFMA): the
      // wave waited for it.
      if (realInstruction(*I.MI))
        D.LDSTrips = std::max(D.LDSTrips, T);
    }
    if (I.R == Role::Dot) {
      unsigned C = target::mfmaTableCycles(TII.getName(I.MI->getOpcode()), Gfx950);
      MFMAKnown &= C != 0;
      D.MFMAClocks += C;
      ++D.MFMAs;
      continue;
    }
    D.NonMFMA += realInstruction(*I.MI);
    // VALU by opcode name (machine SSA: COPY/PHI/REG_SEQUENCE are not
    // instructions yet; the few copies that become v_mov are left out).
    if ((I.Kind == InstKind::Other || I.Kind == InstKind::ValuFMA) &&
        TII.getName(I.MI->getOpcode()).starts_with("V_")) {
      ++D.VALU;
      D.OffDotVALU += !FedByDot;
    }
    const bool Copy = I.R == Role::AsyncCopy || I.R == Role::GlobalLoad ||
                      I.R == Role::DirectLoad || I.R == Role::SideLoad;
    const bool LDS = I.Kind == InstKind::LDSRead || I.Kind == InstKind::LDSWrite;
    if (!Copy && !LDS)
      continue;
    const uint64_t Size = laneBytes(*I.MI, Copy);
    if (Copy) {
      D.CopyKnown &= Size != 0;
      D.CopyLane += Size;
    } else {
      D.LDSKnown &= Size != 0;
      (I.Kind == InstKind::LDSRead ? D.ReadLane : D.WriteLane) += Size;
    }
  }
  if (!MFMAKnown)
    D.MFMAClocks = 0;
  return D;
}

} // namespace

CopyBound copyBound(const LoopModel &M) {
  CopyBound CB;
  const MachineFunction &MF = *M.Body->getParent();
  const target::TargetFacts *TF = target::factsFor(MF.getSubtarget().getCPU());
  if (!TF || !M.Waves)
    return CB;
  WaveDemand D = waveDemand(M, *TF);
  if (!D.MFMAClocks || !D.CopyKnown)
    return CB; // an MFMA the table does not know, a load of unknown width
  CB.MFMAClocks = D.MFMAClocks * std::max(1u, M.Waves / TF->SIMDsPerCU);
  CB.Bytes = D.CopyLane * TF->WaveSize * M.Waves;
  CB.CopyClocks = CB.Bytes / target::l2BytesPerClkPerCU(*TF);
  CB.Known = true;
  return CB;
}

LDSFootprint ldsFootprint(const LoopModel &M) {
  LDSFootprint F;
  const MachineFunction &MF = *M.Body->getParent();
  const target::TargetFacts *TF = target::factsFor(MF.getSubtarget().getCPU());
  if (!TF || !M.Waves)
    return F;
  uint64_t LanePerBuffer = 0;
  unsigned Buffers = 1;
  for (const InstInfo &I : M.Insts) {
    if (I.R != Role::AsyncCopy && I.R != Role::LocalWrite)
      continue;
    // A DMA writes what it loads.
    const uint64_t Size = laneBytes(*I.MI, I.R == Role::AsyncCopy);
    if (!Size)
      return F;
    LanePerBuffer += Size;
    Buffers = std::max(Buffers, I.Buffers);
  }
  if (!LanePerBuffer)
    return F;
  F.BytesPerBuffer = LanePerBuffer * TF->WaveSize * M.Waves;
  F.Buffers = Buffers;
  F.Bytes = F.BytesPerBuffer * Buffers;
  F.CUBytes = TF->LDSBytesPerCU;
  F.WorkgroupsPerCU = unsigned(F.CUBytes / F.Bytes);
  F.Known = true;
  return F;
}

LDSPortBound ldsPortBound(const LoopModel &M) {
  LDSPortBound B;
  const MachineFunction &MF = *M.Body->getParent();
  const target::TargetFacts *TF = target::factsFor(MF.getSubtarget().getCPU());
  if (!TF || (M.Waves != TF->SIMDsPerCU && M.Waves != 2 * TF->SIMDsPerCU))
    return B;
  WaveDemand D = waveDemand(M, *TF);
  if (!D.MFMAClocks || !D.LDSKnown || !D.ReadLane)
    return B;
  B.ReadBytesPerWave = D.ReadLane * TF->WaveSize;
  B.WriteBytesPerWave = D.WriteLane * TF->WaveSize;
  const double Reads = double(B.ReadBytesPerWave) / TF->LDSReadBytesPerClkPerSIMDPair;
  const double Writes = double(B.WriteBytesPerWave) / TF->LDSWriteBytesPerClkPerSIMDPair;
  // Two waves of a pair in their memory cluster at once.
  if (M.Waves == 2 * TF->SIMDsPerCU) {
    B.MemClocks = 2 * Reads;
    B.DotClocks = D.MFMAClocks / 2;
  } else {
    B.MemClocks = 2 * (Reads + Writes);
    B.DotClocks = D.MFMAClocks;
  }
  // A pair is half of the CU's SIMDs: it holds that share of the waves.
  B.IterationPortClocks = double(M.Waves) * 2 / TF->SIMDsPerCU * (Reads + Writes);
  B.Known = true;
  return B;
}

std::vector<uint64_t> groupMFMAClocks(const LoopModel &M) {
  const MachineFunction &MF = *M.Body->getParent();
  const target::TargetFacts *TF = target::factsFor(MF.getSubtarget().getCPU());
  if (!TF || M.Groups.empty())
    return {};
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  std::vector<uint64_t> Clocks(M.Groups.size(), 0);
  for (const InstInfo &I : M.Insts) {
    if (I.R != Role::Dot)
      continue;
    unsigned C = target::mfmaTableCycles(TII.getName(I.MI->getOpcode()),
                                         TF->Id == target::GPU::Gfx950);
    if (!C || I.Group >= Clocks.size())
      return {};
    Clocks[I.Group] += C;
  }
  return Clocks;
}

IssueBound issueBound(const LoopModel &M, unsigned WavesPerSIMD) {
  IssueBound B;
  const MachineFunction &MF = *M.Body->getParent();
  const target::TargetFacts *TF = target::factsFor(MF.getSubtarget().getCPU());
  if (!TF || !WavesPerSIMD)
    return B;
  WaveDemand D = waveDemand(M, *TF);
  if (!D.MFMAClocks || !D.LDSKnown)
    return B;
  B.WavesPerSIMD = WavesPerSIMD;
  B.VALU = D.VALU;
  B.OffDotVALU = D.OffDotVALU;
  B.MFMAs = D.MFMAs;
  B.NonMFMA = D.NonMFMA;
  B.LDSTrips = D.LDSTrips;
  B.LDSBytesPerWave = (D.ReadLane + D.WriteLane) * TF->WaveSize;
  B.IssueClocks = double(WavesPerSIMD) * IssueTurnClocks * (D.VALU + D.MFMAs);
  B.MFMAClocks = double(WavesPerSIMD) * D.MFMAClocks;
  // The pair's port serves the same waves on its other SIMD too.
  B.PortClocks = 2.0 * WavesPerSIMD * TF->WaveSize *
                 (double(D.ReadLane) / TF->LDSReadBytesPerClkPerSIMDPair +
                  double(D.WriteLane) / TF->LDSWriteBytesPerClkPerSIMDPair);
  B.Known = true;
  return B;
}

} // namespace pingpong
