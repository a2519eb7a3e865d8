//===- Modes.h - the mode registry -------------------------------*- C++ -*-===//
//
// One row per mode (Modes.def): enum, name, description, the workgroup sizes
// and LDS DMA its layouts take, and its auto rule by tile size. The plugin's
// -amdgpu-pingpong values, the directives' parser, layoutFor, candidateModes
// and the MLIR front (pingpong-opt's auto tags and forced-mode warnings) read
// it. LLVM ADT only: the MLIR front includes it without the plugin's model.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_MODES_MODES_H
#define PINGPONG_MODES_MODES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pingpong {

/// Triton's tile-size thresholds (M*N*K*elemBits of the workgroup tile),
/// and the plugin's own lower bound for two-cluster at 8 waves: Triton stops
/// at Medium, but in the model two-cluster is 1.06-1.6x faster than LLVM's
/// order from 8388608 bits (128x64x64, 128x128x32 f16) up, at one and at two
/// workgroups per CU, and slower at 64x64x64 (docs/modes.md).
namespace tile {
constexpr uint64_t Min = 262144, Small = 16777216, Medium = 33554432,
                   Large = 67108864, TwoClusterMin = 8388608;
constexpr uint64_t NoLimit = UINT64_MAX;
} // namespace tile

/// Workgroup sizes a mode takes, in waves: a set of bits; none: any size.
enum : unsigned { WavesAny = 0, Waves4 = 1u << 0, Waves8 = 1u << 1 };

/// Whether a mode's layouts place LDS DMA (async copies into LDS).
enum class DMAUse : unsigned char {
  Never, // refuses a loop with LDS DMA (its clusters place LDS writes)
  Needs, // refuses a loop without
  Any
};

enum class Mode {
#define PINGPONG_MODE(Id, ...) Id,
#include "pingpong/Modes/Modes.def"
};

/// One row of Modes.def.
struct ModeInfo {
  Mode M;
  const char *Name;        // as in -amdgpu-pingpong= and loop metadata
  unsigned Waves;          // Waves4 | Waves8, or WavesAny
  DMAUse DMA;
  unsigned AutoWaves;      // auto rule for a GEMM loop; 0: never by tile
  uint64_t AutoMinBits, AutoMaxBits;
  bool ByRegisters;        // auto takes it only where registers say so
  const char *Description; // the option's help text
};

/// Every row, in Modes.def's order (the order error messages list them).
llvm::ArrayRef<ModeInfo> allModes();
const ModeInfo &modeInfo(Mode M);

const char *modeName(Mode M); // "auto", "off", "one-cluster", ...
std::optional<Mode> parseMode(llvm::StringRef S);
/// "expected one of: auto, off, ..." (every mode parseMode accepts).
std::string validModes();
/// "8", "4 or 8": the workgroup sizes of a Waves set.
std::string wavesText(unsigned Waves);

/// Why the plugin will refuse mode M forced on a loop of Waves waves (0:
/// unknown) with or without LDS DMA, as far as the registry tells; empty
/// when it does not.
std::string forcedModeConflict(Mode M, unsigned Waves, bool HasDMA);

/// The auto rule for a GEMM loop (no LDS DMA, no chained dots) by its
/// workgroup size and tile alone: the candidate modes, the one for the
/// larger tiles first; empty when none takes the tile. The plugin then
/// refines by its model (LDS-bound loops, LDS DMA) and registers.
std::vector<Mode> autoGemmModes(unsigned Waves, uint64_t TileBits);
/// The smallest tile any mode's auto rule takes at Waves waves, and that
/// mode; nullopt when no mode is auto at that size.
std::optional<std::pair<uint64_t, Mode>> autoMinTile(unsigned Waves);

} // namespace pingpong
#endif
