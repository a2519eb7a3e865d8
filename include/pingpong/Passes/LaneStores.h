//===- LaneStores.h - lane-predicated LDS stores in dot loops ---*- C++ -*-===//
//
// What FlattenLaneStores.cpp asks of the other IR passes.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_PASSES_LANESTORES_H
#define PINGPONG_PASSES_LANESTORES_H

#include <cstdint>
#include <optional>
#include <utility>

namespace llvm {
class Function;
} // namespace llvm

namespace pingpong {
/// FlattenLaneStores.cpp: the IR pass.
extern char &PingpongFlattenLaneStoresPassID;
/// The LDS bytes kernel F uses, at least and at most: every LDS variable it
/// touches, each as far as its accesses reach (RelocateExchange.cpp's
/// address model; an unsized arena such as Triton's `[0 x i8]`, whose size
/// the launch gives, at least past the lowest byte of each access, at most
/// to the highest byte an access may touch); nullopt where an LDS access is
/// not of known extent.
std::optional<std::pair<uint64_t, uint64_t>> kernelLDSBytes(llvm::Function &F);
} // namespace pingpong
#endif
