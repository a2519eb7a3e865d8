//===- Addresses.h - pingpong-sim addresses: LDS address traces -----------===//
//
// The LDS accesses every wave executes in the model (SimOptions::TraceLanes),
// normalised to what the hardware touches: (kind, bytes per lane, the 64 lane
// addresses with inactive lanes cleared, the exec mask). ds_read2/write2 are
// two accesses (one per address), so a pass that splits or merges them is
// judged by the bytes, not the encoding. Two files compare equal when every
// wave's multiset of accesses over the whole run is the same: a schedule may
// reorder accesses, never change which bytes are touched or how often.
//
// This is independent of any pass's reasoning: the addresses are the lane
// values the model computes by executing the instructions (Values.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SIM_ADDRESSES_H
#define PINGPONG_SIM_ADDRESSES_H

#include "pingpong/Sim/Sim.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ppsim {

enum class AccessKind : uint8_t { Read, Write, DmaWrite, Atomic };
const char *accessKindName(AccessKind K);

// What is compared: equal keys touch the same bytes the same way.
struct AccessKey {
  AccessKind Kind = AccessKind::Read;
  unsigned Width = 0;           // bytes per lane
  uint64_t Exec = 0;            // active lanes
  std::array<uint32_t, 64> Addr{}; // each active lane's first byte; 0 for inactive lanes
  bool operator<(const AccessKey &O) const;
  bool operator==(const AccessKey &O) const;
};

// One access of one wave, where it came from.
struct AddrAccess {
  AccessKey Key;
  unsigned Pc = 0;    // instruction index in its Program
  int Iter = 0;       // LdsLanes::Iter
  int Part = 0;       // ds_read2/write2: which of the two addresses
  bool ExecKnown = true;
  bool Dma = false;
  uint32_t M0 = 0;    // LDS DMA
};

struct WaveAccesses {
  int Wg = 0, Id = 0;
  std::vector<AddrAccess> A;
  long Instrs = 0;              // LDS instructions executed (a read2 once)
  long Distinct = 0;            // distinct LDS instructions
  long ExecUnknown = 0;         // accesses issued while exec was unknown (all lanes counted)
};

struct AddressTrace {
  std::vector<WaveAccesses> Waves;
  // accesses whose address the model does not know: how many, and the first
  long Unknown = 0;
  unsigned FirstUnknownPc = 0;
  int FirstUnknownWave = -1;
};

// The normalised LDS accesses of every wave of a run made with
// SimOptions::TraceLanes.
AddressTrace collectAddresses(const Program &P, const SimResult &R);

// The first difference between two runs' multisets, per wave in order.
struct AddressDiff {
  bool Equal = true;
  std::string WaveCountMismatch; // non-empty: the runs have different waves
  int Wave = -1;                 // index into the traces' Waves
  int MissingFrom = -1;          // 0: an access of the second file is missing from the first; 1: vice versa
  const AddrAccess *Access = nullptr; // the access (in the other file's trace)
  long Have = 0, Want = 0;       // how often the file it is missing from has it / the other one
  // the closest surplus access of the same kind and width in the file it is
  // missing from (fewest lanes differ, then the smallest address distance)
  const AddrAccess *Near = nullptr;
  int LanesDiffer = 0;           // active lanes whose addresses differ between Access and Near
};
AddressDiff compareAddresses(const AddressTrace &A, const AddressTrace &B);

} // namespace ppsim

#endif
