//===- Throughput.cpp - what a loop asks of the memory and the MFMA pipe --===//
#include "pingpong/Analysis/Throughput.h"
#include "pingpong/Target/MFMACycles.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"

#include <algorithm>

using namespace llvm;

namespace pingpong {

CopyBound copyBound(const LoopModel &M) {
  CopyBound CB;
  const MachineFunction &MF = *M.Body->getParent();
  const target::TargetFacts *TF = target::factsFor(MF.getSubtarget().getCPU());
  if (!TF || !M.Waves)
    return CB;
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  bool Gfx950 = TF->Id == target::GPU::Gfx950;
  unsigned WavesPerSIMD = std::max(1u, M.Waves / TF->SIMDsPerCU);
  uint64_t LaneBytes = 0;
  for (const InstInfo &I : M.Insts) {
    if (I.R == Role::Dot) {
      unsigned C = target::mfmaTableCycles(TII.getName(I.MI->getOpcode()), Gfx950);
      if (!C)
        return CopyBound{}; // an MFMA the table does not know: no verdict
      CB.MFMAClocks += uint64_t(C) * WavesPerSIMD;
      continue;
    }
    if (I.R != Role::AsyncCopy && I.R != Role::GlobalLoad &&
        I.R != Role::DirectLoad && I.R != Role::SideLoad)
      continue;
    uint64_t Size = 0; // per lane: the widest memory operand (DMA: both sides)
    for (const MachineMemOperand *MMO : I.MI->memoperands())
      if (MMO->getSize().hasValue())
        Size = std::max<uint64_t>(Size, MMO->getSize().getValue());
    if (!Size)
      return CopyBound{}; // a load of unknown width: no verdict
    LaneBytes += Size;
  }
  CB.Bytes = LaneBytes * TF->WaveSize * M.Waves;
  CB.CopyClocks = CB.Bytes / target::l2BytesPerClkPerCU(*TF);
  CB.Known = CB.MFMAClocks > 0;
  return CB;
}

LDSPortBound ldsPortBound(const LoopModel &M) {
  LDSPortBound B;
  const MachineFunction &MF = *M.Body->getParent();
  const target::TargetFacts *TF = target::factsFor(MF.getSubtarget().getCPU());
  if (!TF || (M.Waves != TF->SIMDsPerCU && M.Waves != 2 * TF->SIMDsPerCU))
    return B;
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  bool Gfx950 = TF->Id == target::GPU::Gfx950;
  uint64_t MFMAClocks = 0, ReadLane = 0, WriteLane = 0;
  for (const InstInfo &I : M.Insts) {
    if (I.R == Role::Dot) {
      unsigned C = target::mfmaTableCycles(TII.getName(I.MI->getOpcode()), Gfx950);
      if (!C)
        return LDSPortBound{};
      MFMAClocks += C;
      continue;
    }
    if (I.Kind != InstKind::LDSRead && I.Kind != InstKind::LDSWrite)
      continue;
    uint64_t Size = 0; // per lane, every LDS part (ds_read2/ds_write2: two)
    for (const MachineMemOperand *MMO : I.MI->memoperands())
      if (MMO->getAddrSpace() == 3 && MMO->getSize().hasValue())
        Size += MMO->getSize().getValue();
    if (!Size)
      return LDSPortBound{};
    (I.Kind == InstKind::LDSRead ? ReadLane : WriteLane) += Size;
  }
  B.ReadBytesPerWave = ReadLane * TF->WaveSize;
  B.WriteBytesPerWave = WriteLane * TF->WaveSize;
  const double Reads = double(B.ReadBytesPerWave) / TF->LDSReadBytesPerClkPerSIMDPair;
  const double Writes = double(B.WriteBytesPerWave) / TF->LDSWriteBytesPerClkPerSIMDPair;
  // Two waves of a pair in their memory cluster at once.
  if (M.Waves == 2 * TF->SIMDsPerCU) {
    B.MemClocks = 2 * Reads;
    B.DotClocks = MFMAClocks / 2;
  } else {
    B.MemClocks = 2 * (Reads + Writes);
    B.DotClocks = MFMAClocks;
  }
  B.Known = MFMAClocks > 0 && ReadLane > 0;
  return B;
}

} // namespace pingpong
