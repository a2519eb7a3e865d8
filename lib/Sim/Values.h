//===- Values.h - pingpong-sim: the values a wave's registers hold --------===//
//
// The model tracks enough values to decide wave-uniform branches (trip
// counts, wave-group tests, kernel arguments) and to compute the LDS bytes
// every access touches (verify's buffer rule). docs/cycle-model.md ("What it
// does", 5) lists the instructions whose semantics are modelled; any other
// instruction makes its destinations unknown. Operands come from the MCInst
// (Inst::Vals, InstrBuilder), never from the printed text.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SIM_VALUES_H
#define PINGPONG_SIM_VALUES_H

#include "pingpong/Sim/Sim.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace ppsim {

// The kernarg segment pointer the model gives a kernel: high dword KernargHi,
// low dword 0 (s_load from it reads the known argument bytes).
constexpr uint32_t KernargHi = 0x7f4b4100;

// A VGPR's 64 lanes.
struct VVal {
  std::array<uint32_t, 64> L;
};

// What the model knows of one wave's registers. VGPR values are copy-on-write
// lane vectors (a VALU result is a new VVal), so the state copies cheaply
// (the path search snapshots it at every two-way branch).
struct WaveValues {
  std::map<unsigned, std::shared_ptr<const VVal>> V; // VGPRs and AGPRs (AgprBase + n)
  std::map<unsigned, uint32_t> S;                    // SGPRs
  bool ExecKnown = true, VccKnown = false;
  uint64_t Exec = ~0ull, Vcc = 0;
  bool M0Known = false; // unknown at entry (the kernel sets it before an LDS DMA)
  uint32_t M0 = 0;
  int Scc = -1;
  // the last exec value known before an s_*_saveexec made it unknown: a
  // data-dependent exec branch that enters the guarded code assumes every
  // lane that was active before the guard still is (a uniform condition)
  bool ExecSavedKnown = false;
  uint64_t ExecSaved = 0;
  const std::vector<int16_t> *Kernarg = nullptr;          // known kernarg bytes (-1: unknown)
  std::map<int64_t, std::shared_ptr<const VVal>> Scratch; // spill slots (scratch address -> lanes)

  bool getS(unsigned I, uint32_t &X) const;
  void setS(unsigned I, bool K, uint32_t X);
  bool get32(const Operand &O, int Lane, uint32_t &X) const;
  bool get64(const Operand &O, uint64_t &X) const;
  void set32(const Operand &O, bool K, uint32_t X); // an SGPR or M0
  void set64(const Operand &O, bool K, uint64_t X);
  void clobber(const Operand &O);
};

// The values after instruction I (its destinations unknown where the model
// does not know its semantics); remembers the last known exec.
void applyValues(WaveValues &W, const Inst &I);

// The condition of a conditional branch from the values: 1 taken, 0 not
// taken, -1 unknown (data-dependent).
int branchCond(const WaveValues &W, const Inst &In);

// After the model chose the direction of a data-dependent branch, make the
// condition agree with it, so that a later branch on the same SCC / VCC /
// EXEC goes the same way: SCC = the direction; VCC = 0 or exec; EXEC = 0, or
// every lane active before the guard (a uniform condition) -- an assumption
// the report states.
void assumeCond(WaveValues &W, const Inst &In, bool Taken);

// The LDS bytes an LDS instruction (or LDS DMA) touches, from the address
// operand's known lane values and the offsets (LDS DMA: from M0).
LdsBytes ldsBytes(const WaveValues &W, const Inst &In);

// The lane addresses of the same access (pingpong-sim addresses): the
// address operand's lane values plus each part's offset (LDS DMA: M0 +
// offset + lane x size). Iter is left to the caller.
LdsLanes ldsLanes(const WaveValues &W, const Inst &In);

} // namespace ppsim

#endif
