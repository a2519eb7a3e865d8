//===- Loops.cpp - the loops the passes look at ---------------------------===//
#include "pingpong/Analysis/Loops.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/CodeGen/MachineLoopInfo.h"

using namespace llvm;
namespace pingpong {

SmallVector<MachineLoop *, 4> innermostLoops(const MachineLoopInfo &MLI,
                                             bool SingleBlockOnly) {
  SmallVector<MachineLoop *, 4> Innermost;
  SmallVector<MachineLoop *, 8> Work(MLI.begin(), MLI.end());
  while (!Work.empty()) {
    MachineLoop *L = Work.pop_back_val();
    Work.append(L->begin(), L->end());
    if (L->isInnermost() && (!SingleBlockOnly || L->getNumBlocks() == 1))
      Innermost.push_back(L);
  }
  llvm::sort(Innermost, [](MachineLoop *A, MachineLoop *B) {
    return A->getHeader()->getNumber() < B->getHeader()->getNumber();
  });
  return Innermost;
}

} // namespace pingpong
