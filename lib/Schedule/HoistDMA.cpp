//===- HoistDMA.cpp - LDS DMA as early as its barrier interval allows ----===//
//
// Seed 002 ("hack0"): in an LDS-DMA loop the copies of the next stage sat at
// the end of the body, far from the wait+barrier that freed their buffer, so
// the memory pipe idled after the barrier and the next wait came too soon.
// Here each barrier interval is reordered: the DMA instructions and the part
// of the interval they depend on (address arithmetic, the interval's waits)
// go first, everything else follows in its original order. Barriers stay, so
// no DMA crosses the barrier that frees its buffer.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/DepGraph.h"
#include "pingpong/Schedule/ClusterPlan.h"

#include <algorithm>

namespace pingpong {

std::optional<std::vector<unsigned>> hoistLDSDMAOrder(const LoopModel &M,
                                                      const DepGraph &G,
                                                      unsigned &Moved) {
  const unsigned N = M.Insts.size();
  // Interval of each instruction: barriers before it (a barrier ends its own).
  std::vector<unsigned> Interval(N);
  for (unsigned I = 0, K = 0; I < N; ++I) {
    Interval[I] = K;
    K += M.Insts[I].Kind == InstKind::Barrier;
  }
  // Early: the DMAs and, transitively, what they depend on in their interval.
  std::vector<bool> Early(N, false);
  std::vector<unsigned> Work;
  for (unsigned I = 0; I < N; ++I)
    if (M.Insts[I].Kind == InstKind::LDSDMA) {
      Early[I] = true;
      Work.push_back(I);
    }
  while (!Work.empty()) {
    unsigned I = Work.back();
    Work.pop_back();
    for (unsigned P : G.Preds[I])
      if (Interval[P] == Interval[I] && !Early[P] &&
          M.Insts[P].Kind != InstKind::Barrier) {
        Early[P] = true;
        Work.push_back(P);
      }
  }
  std::vector<unsigned> Order(N);
  for (unsigned I = 0; I < N; ++I)
    Order[I] = I;
  // The barrier closing interval K sorts with interval K, after its work.
  auto Key = [&](unsigned I) {
    bool Barrier = M.Insts[I].Kind == InstKind::Barrier;
    return std::make_pair(Interval[I] * 3 + (Barrier ? 2 : (Early[I] ? 0 : 1)), I);
  };
  std::stable_sort(Order.begin(), Order.end(),
                   [&](unsigned A, unsigned B) { return Key(A) < Key(B); });
  Moved = 0;
  for (unsigned Pos = 0; Pos < N; ++Pos)
    if (Order[Pos] != Pos && M.Insts[Order[Pos]].Kind == InstKind::LDSDMA)
      ++Moved;
  if (!Moved)
    return std::nullopt;
  return Order;
}

} // namespace pingpong
