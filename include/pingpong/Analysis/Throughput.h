//===- Throughput.h - what a loop asks of the memory and the MFMA pipe -*- C++ -*-===//
#ifndef PINGPONG_ANALYSIS_THROUGHPUT_H
#define PINGPONG_ANALYSIS_THROUGHPUT_H

#include "pingpong/Analysis/LoopModel.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace pingpong {

/// A loop's global traffic against its dot: the bytes its loads and LDS DMA
/// move per workgroup iteration, the clocks they take at the CU's L2 share
/// (TargetFacts), and the MFMA pipe clocks per SIMD (the shared cycle table,
/// Target/MFMACycles.h). Known only when every MFMA is in the table and
/// every load's width is in its memory operands.
struct CopyBound {
  bool Known = false;
  uint64_t Bytes = 0;
  double CopyClocks = 0;
  uint64_t MFMAClocks = 0;
};
CopyBound copyBound(const LoopModel &M);

/// Pingpong's LDS side: the port clocks a memory cluster's LDS traffic
/// takes on a SIMD pair, where two waves (one per SIMD) run it at once,
/// against the dot it hides behind. 8 waves (two-cluster): one wave group's
/// reads against the other group's dot half. 4 waves, two workgroups per CU
/// (one-cluster): a wave's reads and writes against the other wave's whole
/// dot. Known only when every MFMA is in the table and every LDS access's
/// width is known; other wave counts are unknown.
struct LDSPortBound {
  bool Known = false;
  uint64_t ReadBytesPerWave = 0, WriteBytesPerWave = 0;
  double MemClocks = 0;
  uint64_t DotClocks = 0;
  /// All the workgroup's LDS traffic of an iteration on one SIMD pair's
  /// port (every wave of the pair, reads and writes): the clocks to set
  /// against copyBound's L2 clocks, also per workgroup iteration.
  double IterationPortClocks = 0;
  double ratio() const { return DotClocks ? MemClocks / DotClocks : 0; }
};
LDSPortBound ldsPortBound(const LoopModel &M);

/// A SIMD's units over one iteration of every wave it holds (WavesPerSIMD:
/// 2 at 8 waves or two 4-wave workgroups, 1 where one wave fits): the issue
/// turns its VALU and MFMA instructions take (one 4-clock turn each: a SIMD
/// issues one vector instruction per turn), the
/// MFMA pipe clocks (the shared cycle table) and the clocks of its SIMD
/// pair's LDS port. No order of the same instructions runs faster than the
/// busiest of the three (pingpong-sim's resource bound counts them the same
/// way). Where the issue turns are the busiest, the SIMD is issuing
/// something every turn it has: overlapping memory with MFMAs, what the
/// pingpong orders do, has no idle unit left to fill. Known when every
/// MFMA is in the table and every LDS access has a known width.
/// A SIMD gives its waves one vector issue turn every 4 clocks (a wave64
/// VALU op runs 16 lanes a clock: CDNA3 ISA, "Data-parallel processing";
/// pingpong-sim's IssuePeriod, docs/cycle-model.md), MFMA included.
inline constexpr unsigned IssueTurnClocks = 4;
/// A wave waits ~64 clocks for an LDS read's data (ds_read_b128 64, pyhip,
/// gfx942; a dependent ds_read chase 69 per load on gfx950, Meta): the
/// model's LdsLatency (docs/cycle-model.md, "Parameter table", LDS latency).
inline constexpr unsigned LDSLatencyClocks = 64;

struct IssueBound {
  bool Known = false;
  unsigned WavesPerSIMD = 0, VALU = 0, MFMAs = 0; // VALU, MFMA: per wave
  unsigned NonMFMA = 0; // per wave: every instruction but the MFMAs
  /// Per wave: the VALU no MFMA result of the iteration feeds, directly or
  /// through other instructions (address work, a Philox draw from offsets
  /// and a seed), against the softmax's, which waits for Q K^T's results.
  unsigned OffDotVALU = 0;
  /// Per wave: LDS results the non-MFMA work waits for one after another
  /// (ds_bpermute into a DMA's address, a scale byte into its VALU merge).
  unsigned LDSTrips = 0;
  uint64_t LDSBytesPerWave = 0;                   // LDS reads and writes
  double IssueClocks = 0, MFMAClocks = 0, PortClocks = 0;
  bool issueBound() const {
    return Known && IssueClocks > std::max(MFMAClocks, PortClocks);
  }
  /// One wave's turns alone past the pipe and the port back to back: with
  /// two waves per SIMD, either wave's VALU covers all the SIMD's MFMA and
  /// LDS work, whichever order the two waves' work takes.
  bool waveIssueBoundPastBoth() const {
    return Known && IssueClocks > WavesPerSIMD * (MFMAClocks + PortClocks);
  }
  /// The SIMD pair's LDS port is the busiest of the three.
  bool portBound() const {
    return Known && PortClocks > std::max(MFMAClocks, IssueClocks);
  }
  /// The least a wave's memory interval (its work besides the MFMAs) takes:
  /// one issue turn per instruction, plus an LDS latency per LDS result that
  /// work waits for in sequence. Against MFMAClocks (one wave per SIMD): does
  /// that interval fit in the partner wave's dot?
  unsigned memoryIntervalClocks() const {
    return nonMFMAIssueClocks() + LDSLatencyClocks * LDSTrips;
  }
  /// One wave's issue turns besides its MFMAs, one per instruction (VALU,
  /// LDS, SALU, loads): the memory interval without the LDS round trips it
  /// may wait through while other work issues.
  unsigned nonMFMAIssueClocks() const { return IssueTurnClocks * NonMFMA; }
  /// One wave's issue turns for all its instructions, the MFMAs included
  /// (a wave issues one instruction per turn, whatever the unit).
  double waveTurnClocks() const {
    return double(IssueTurnClocks) * (NonMFMA + MFMAs);
  }
  /// A wave alone on its SIMD (one wave per SIMD): its own turns, one per
  /// instruction, past the MFMA pipe and the LDS port. No other wave issues
  /// on that SIMD, so every order of its instructions takes at least those
  /// turns (pingpong-sim's "issue turns, wave N" unit).
  bool waveTurnsPastUnits() const {
    return Known && waveTurnClocks() > std::max(MFMAClocks, PortClocks);
  }
  /// Most of the wave's VALU is off the dots' chain: the wave has work of
  /// its own, ready whatever its dots wait for, to put beside its waits.
  bool valuMostlyOffDots() const { return Known && 2 * OffDotVALU > VALU; }
};
IssueBound issueBound(const LoopModel &M, unsigned WavesPerSIMD);

/// One wave's MFMA pipe clocks per iteration of each dot group (indexed by
/// DotGroup), from the shared cycle table (Target/MFMACycles.h); empty where
/// an MFMA of the loop is not in the table. Chained dots do the same
/// multiply-adds in both groups (Q K^T: BM x BN x d, P V: BM x d x BN), so
/// their clocks differ only where the groups run on MFMAs of different rates
/// (gfx950's fp8 Q K^T at K 128 beside a 16-bit P V: half of its clocks).
std::vector<uint64_t> groupMFMAClocks(const LoopModel &M);

/// The LDS a workgroup's operand buffers take at least: per buffer, the
/// bytes every wave of the workgroup writes into it in one iteration (LDS
/// writes of register-staged loads, LDS DMA), times the buffers its address
/// rotates through where the stage index shows them (Triton's idx + 1 < N ?
/// idx + 1 : 0; else one). Triton's IR declares its LDS without a size (the
/// launch gives it), so this is what the plugin knows of the workgroups per
/// CU: at most LDSBytesPerCU / Bytes. Known when every such access has a
/// known width.
struct LDSFootprint {
  bool Known = false;
  uint64_t BytesPerBuffer = 0; // per workgroup iteration, every wave
  unsigned Buffers = 0;
  uint64_t Bytes = 0; // BytesPerBuffer x Buffers
  uint64_t CUBytes = 0;         // the CU's LDS (TargetFacts::LDSBytesPerCU)
  unsigned WorkgroupsPerCU = 0; // the most the footprint lets share a CU
  /// Room for one workgroup per CU only: at 4 waves, one wave per SIMD.
  bool onePerCU() const { return Known && WorkgroupsPerCU < 2; }
};
LDSFootprint ldsFootprint(const LoopModel &M);

} // namespace pingpong
#endif
