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
  double ratio() const { return DotClocks ? MemClocks / DotClocks : 0; }
};
LDSPortBound ldsPortBound(const LoopModel &M);

} // namespace pingpong
#endif
