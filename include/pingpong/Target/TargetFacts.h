//===- TargetFacts.h - what the plugin knows about each target -*- C++ -*-===//
//
// The one table of per-subtarget facts the plugin, the sync-rules library and
// pingpong-sim rely on: which CPUs are supported, wave size, the vector
// register file, LDS size, s_waitcnt counter widths, and the wave-group split
// the asymmetric sync branches on. No LLVM CodeGen types: the cycle model
// links it too. Sources: AMDGPU's GCNSubtarget/AMDGPUBaseInfo for the same
// CPUs (getAddressableNumVGPRs, getLocalMemorySize, getVmcntBitMask ...), the
// CDNA3 / CDNA4 ISA manuals.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_TARGET_TARGETFACTS_H
#define PINGPONG_TARGET_TARGETFACTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace pingpong {
namespace target {

enum class GPU : unsigned char { Gfx942, Gfx950 };

struct TargetFacts {
  const char *CPU;
  GPU Id;
  unsigned WaveSize;       // lanes per wave
  unsigned SIMDsPerCU;
  unsigned MaxWavesPerSIMD;
  /// Vector registers (arch VGPRs + AGPRs, one unified file) a SIMD holds per
  /// lane; one wave may address at most half of them (256 arch + 256 acc).
  unsigned VGPRsPerSIMDLane;
  unsigned MaxArchVGPRs, MaxAGPRs; // per wave
  unsigned LDSBytesPerCU;          // 64 KiB (gfx942), 160 KiB (gfx950)
  /// s_waitcnt counter widths (gfx9 layout: vmcnt split 4 + 2 bits).
  unsigned VmcntBits, LgkmcntBits, ExpcntBits;
  /// LDS read bytes per clock per SIMD pair: 64 on gfx942 (LLVM's AMDGPU
  /// pipeline descriptions), 128 on gfx950 (CDNA4: LDS read bandwidth
  /// doubled, 256 B/clk per CU); docs/cycle-model.md.
  unsigned LDSReadBytesPerClkPerSIMDPair;
  /// LDS write bytes per clock per SIMD pair: 64 (CDNA3; CDNA4 documents no
  /// change for writes), as pingpong-sim's parameter table.
  unsigned LDSWriteBytesPerClkPerSIMDPair;
  /// L2 bandwidth: 16 channels x 128 B/clk per XCD, shared by its CUs (38 on
  /// MI300X, 32 on MI355X): 53.9 and 64 B/clk per CU (cdna_model §1.1, §5).
  unsigned L2BytesPerClkPerXCD, CUsPerXCD;
  /// LDS requests (ds_read / ds_write) a SIMD pair holds not yet served; a
  /// full queue stops LDS issue on both SIMDs of the pair, and whatever a
  /// wave issues after a stalled LDS op waits with it. gfx950: 8, "each SIMD
  /// pair has its own 8-entry FIFO" (AMD ROCm/gfx950-gluon-tutorials,
  /// docs/lds_throughput.md §1.6). gfx942: 0, no source (unbounded).
  unsigned LDSQueueDepthPerSIMDPair;
  /// Clocks a copy's round trip takes inside a GEMM that fills the chip (the
  /// TCP and VMEM queues of every CU full). gfx950: ~1000 at K = 8192, the
  /// working set mostly in L2 (AMD ROCm/gfx950-gluon-tutorials,
  /// docs/tcp_bound_tile_model.md §1). A bound more than a timed latency:
  /// the v8 README §4.5 gives ~1000 as the time the loop takes to fill the
  /// TCP and its queue, the round trip at most that where the loop does not
  /// stall and longer at K = 16384 (docs/cycle-model.md, "Session 17
  /// (ruler7)"). gfx942: 0, no source.
  unsigned LoadedRoundTrip;
};

constexpr TargetFacts Gfx942{"gfx942", GPU::Gfx942, 64, 4, 8, 512, 256, 256,
                             65536, 6, 4, 3, 64, 64, 2048, 38, 0, 0};
constexpr TargetFacts Gfx950{"gfx950", GPU::Gfx950, 64, 4, 8, 512, 256, 256,
                             163840, 6, 4, 3, 128, 64, 2048, 32, 8,
                             1000};

/// A CU's share of the L2 bandwidth, bytes per clock.
constexpr double l2BytesPerClkPerCU(const TargetFacts &T) {
  return double(T.L2BytesPerClkPerXCD) / T.CUsPerXCD;
}

/// Two-buffer LDS DMA with 8 waves (async-two-cluster's four intervals): a
/// copy issued in the first memory interval is due three intervals later,
/// about three quarters of the iteration's MFMA clocks per SIMD. True when
/// the loaded round trip outlasts that window (the copies bind, not the
/// MFMAs): the layout choice and the DMA lookahead's 8-wave rule ask it.
constexpr bool roundTripOutlastsCopyWindow(unsigned RoundTrip,
                                           uint64_t MFMAClocksPerSIMD) {
  return 4 * uint64_t(RoundTrip) > 3 * MFMAClocksPerSIMD;
}

/// The counters are the gfx9 ones on every supported target.
constexpr unsigned MaxVmcnt = (1u << Gfx942.VmcntBits) - 1;
constexpr unsigned MaxLgkmcnt = (1u << Gfx942.LgkmcntBits) - 1;
constexpr unsigned MaxExpcnt = (1u << Gfx942.ExpcntBits) - 1;

/// The supported targets, in the order remarks name them.
inline llvm::ArrayRef<TargetFacts> supportedTargets() {
  static constexpr TargetFacts Supported[] = {Gfx942, Gfx950};
  return Supported;
}
/// The facts for a CPU name, or null if the plugin does not support it.
/// (Inline: the MLIR front uses it without linking lib/Target.)
inline const TargetFacts *factsFor(llvm::StringRef CPU) {
  for (const TargetFacts &T : supportedTargets())
    if (CPU == T.CPU)
      return &T;
  return nullptr;
}
/// "gfx942 and gfx950" (for messages).
std::string supportedCPUList();

/// Pingpong pairs two wave groups of an 8-wave workgroup on the SIMDs: waves
/// 0-3 and 4-7. With a 1-D workgroup of 8 x 64 lanes, the group is bit 8 of
/// the workitem id x (256 = 4 waves x 64 lanes).
constexpr unsigned WavesPerGroup = 4;
constexpr unsigned waveGroupBit(unsigned WaveSize = 64) {
  return WavesPerGroup * WaveSize;
}

/// Pingpong pairs two waves on each SIMD (two wave groups of an 8-wave
/// workgroup, or two 4-wave workgroups per CU): the modes' register budget
/// (RegPressure.cpp) and the occupancy the 4-wave attention hint tells
/// AMDGPU's scheduler (Passes/OccupancyHint.cpp).
constexpr unsigned PingpongWavesPerSIMD = 2;

/// Vector registers one wave may use when Waves waves share a SIMD.
inline unsigned vgprBudget(const TargetFacts &T, unsigned WavesPerSIMD) {
  return T.VGPRsPerSIMDLane / (WavesPerSIMD ? WavesPerSIMD : 1);
}

} // namespace target
} // namespace pingpong
#endif
