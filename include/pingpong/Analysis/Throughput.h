//===- Throughput.h - what a loop asks of the memory and the MFMA pipe -*- C++ -*-===//
#ifndef PINGPONG_ANALYSIS_THROUGHPUT_H
#define PINGPONG_ANALYSIS_THROUGHPUT_H

#include "pingpong/Analysis/LoopModel.h"

#include <cstdint>

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

/// Pingpong's LDS side at 8 waves: the port clocks one wave group's LDS
/// reads of an iteration take on a SIMD pair (its two waves there read in
/// the same memory clusters), against half a wave's MFMA clocks (the dot
/// half of the other group they hide behind in two-cluster). Known only
/// when every MFMA is in the table and every read's width is known.
struct LDSReadBound {
  bool Known = false;
  uint64_t BytesPerWave = 0;
  double GroupClocks = 0;
  uint64_t DotHalfClocks = 0;
};
LDSReadBound ldsReadBound(const LoopModel &M);

} // namespace pingpong
#endif
