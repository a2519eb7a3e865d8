//===- KLoop.h - roles of the ops of an MFMA K loop (MLIR) ------*- C++ -*-===//
//
// Analysis only (no decisions, no rewriting): the MLIR-level counterpart of
// the plugin's LoopModel (docs/design.md). For one scf.for whose body holds
// MFMAs it finds
//   dots        amdgpu.mfma / amdgpu.scaled_mfma / rocdl.mfma.*, with the
//               K step of each (its position in its accumulator chain)
//   LDS reads   workgroup-memory reads feeding an MFMA operand (A, B, scales)
//   LDS writes  workgroup-memory writes, by the operand of their buffer
//   global loads feeding those writes, and LDS DMA (amdgpu.gather_to_lds)
//   barriers    gpu.barrier, amdgpu.lds_barrier, rocdl barriers
// and the tile: M*N*K from the MFMA volume and the waves of the workgroup.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_DIALECT_KLOOP_H
#define PINGPONG_DIALECT_KLOOP_H

#include "pingpong/Dialect/PingpongDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir {
namespace pingpong {

struct KLoopMemOp {
  Operation *op;
  MemRole role;
  Operand operand;
  int64_t kstep = -1;  // LDS reads: the first K step that uses the data
  std::string buffer;  // root memref: "wg<i>", "arg<i>", "alloc<i>", "@sym"
};

struct KLoop {
  scf::ForOp loop;
  llvm::SmallVector<Operation *> dots;
  llvm::DenseMap<Operation *, unsigned> kstep; // per dot
  unsigned chainLen = 0;      // K steps per iteration (longest chain)
  unsigned accumulators = 0;  // chains
  unsigned mfmaM = 0, mfmaN = 0, mfmaK = 0;
  unsigned bits = 0;          // operand element width
  unsigned waves = 0;         // 0: workgroup size unknown
  bool wavesAssumed = false;  // waves from kROCDLDefaultFlatWorkGroupMax
  llvm::SmallVector<KLoopMemOp> mem;
  llvm::SmallVector<Operation *> barriers;
  /// Root LDS buffer of each operand (for the tile and aggregate load).
  llvm::DenseMap<unsigned, Value> ldsRoot;   // Operand -> root memref
  llvm::DenseMap<unsigned, Value> globalRoot;

  /// Per-wave MFMA volume times waves: M*N*K of the workgroup tile.
  uint64_t tileVolume() const;
  uint64_t tileBits() const { return tileVolume() * bits; }
  /// BM, BN, BK when the LDS buffers' sizes agree with the MFMA volume.
  std::optional<std::array<int64_t, 3>> tile() const;
  unsigned stages() const;
  unsigned count(MemRole R) const;
};

/// True for the MFMA ops the pass knows (amdgpu.mfma, amdgpu.scaled_mfma,
/// rocdl.mfma.*, rocdl.smfmac.*).
bool isMFMA(Operation *op);
bool isBarrier(Operation *op);
/// True if the memref lives in workgroup (LDS) memory.
bool isWorkgroupMemRef(Type t);
/// The memref a view chain starts from (subview, cast, reinterpret_cast, ...).
Value rootMemRef(Value memref);
/// A printable name of a root memref ("wg0", "arg1", "alloc0", "@g").
std::string bufferName(Value root);

/// The memrefs `op` reads and writes (MemoryEffectOpInterface).
void memrefEffects(Operation *op, llvm::SmallVectorImpl<Value> &reads,
                   llvm::SmallVectorImpl<Value> &writes);
/// Bytes of a static memref, -1 if dynamic.
int64_t memrefBytes(Type t);

/// The largest workgroup of the flat work-group size "1,256" that upstream
/// MLIR's ROCDL translation gives a kernel without one
/// (mlir/lib/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.cpp, for
/// `rocdl.kernel`; test/MLIR/default-block-size.test checks it). The plugin
/// counts waves from that maximum, so the front assumes the same.
constexpr unsigned kROCDLDefaultFlatWorkGroupMax = 256;

/// Waves per workgroup from gpu.func known_block_size or rocdl work-group
/// size attributes. A gpu.func kernel with none gets the waves of
/// kROCDLDefaultFlatWorkGroupMax (`assumed` set), as the plugin will; 0 if
/// unknown (a func.func).
unsigned workgroupWaves(Operation *func, bool *assumed = nullptr);

/// Analyses `loop`. Returns nullopt with `why` set (and `at` the op that
/// decided it, if any) when the loop is not a K loop the plugin can take.
std::optional<KLoop> analyzeKLoop(scf::ForOp loop, std::string &why,
                                  Operation *&at);

} // namespace pingpong
} // namespace mlir

#endif
