//===- Layout.cpp - cluster layouts matched against the loop model --------===//
#include "pingpong/Schedule/Layout.h"


using namespace llvm;
namespace pingpong {

namespace {
bool isTrans(StringRef N) {
  for (StringRef P : {"V_EXP_", "V_LOG_", "V_RCP_", "V_RSQ_", "V_SQRT_",
                      "V_SIN_", "V_COS_"})
    if (N.starts_with(P))
      return true;
  return false;
}
} // namespace

bool interleaveMatches(unsigned Mask, InstKind K, StringRef N) {
  bool MFMA = K == InstKind::MFMA;
  bool Trans = !MFMA && isTrans(N);
  bool VALU = !MFMA && !Trans && K == InstKind::Other && N.starts_with("V_");
  bool SALU = K == InstKind::Other && N.starts_with("S_");
  bool VRead = K == InstKind::VMEMLoad || K == InstKind::LDSDMA;
  bool VWrite = K == InstKind::VMEMStore;
  bool DSRead = K == InstKind::LDSRead, DSWrite = K == InstKind::LDSWrite;
  bool DS = DSRead || DSWrite || K == InstKind::LDSOther;
  return ((Mask & 0x1) && (MFMA || Trans || VALU || SALU)) ||
         ((Mask & 0x2) && VALU) || ((Mask & 0x4) && SALU) ||
         ((Mask & 0x8) && MFMA) || ((Mask & 0x10) && (VRead || VWrite)) ||
         ((Mask & 0x20) && VRead) || ((Mask & 0x40) && VWrite) ||
         ((Mask & 0x80) && DS) || ((Mask & 0x100) && DSRead) ||
         ((Mask & 0x200) && DSWrite) || ((Mask & 0x400) && Trans);
}

bool Selector::matches(const InstInfo &I, unsigned NumDots) const {
  // A scale goes with its operand: ".a" takes A and the A-scale.
  Operand Own = I.Op == Operand::ScaleA   ? Operand::A
                : I.Op == Operand::ScaleB ? Operand::B
                                          : I.Op;
  // A dot result's side input loaded an iteration ahead (LoadLookahead.cpp)
  // refills the registers its readers, the scaling VALU, free: only a
  // selector with its stage (`side-load~1`) places it; otherwise it follows
  // its last reader (DepGraph's staging edge), so the latch needs no copy
  // that would wait for it.
  if (I.R == Role::SideLoad && I.Op == Operand::None && I.StagesAhead &&
      !Stage)
    return false;
  if (I.R != R || (Op && Own != *Op) || (Group && I.Group != *Group) ||
      (Stage && I.StagesAhead != *Stage) ||
      (Step && I.ExchangeStep != *Step))
    return false;
  if (!Slices)
    return true;
  unsigned S = LoopModel::dotSlice(I, Slices, NumDots);
  return S >= First && S <= Last;
}

int ClusterLayout::desired(const InstInfo &I) const {
  for (unsigned C = 0; C < Clusters.size(); ++C)
    for (const Selector &S : Clusters[C].Takes)
      if (S.matches(I, NumDots))
        return C;
  return -1;
}

} // namespace pingpong
