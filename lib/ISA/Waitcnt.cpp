//===- Waitcnt.cpp - gfx9 s_waitcnt encoding ------------------------------===//
#include "pingpong/ISA/Waitcnt.h"

namespace pingpong {

uint16_t Waitcnt::encodeGfx9() const {
  unsigned V = Vm > MaxVm ? MaxVm : Vm;
  unsigned E = Exp > MaxExp ? MaxExp : Exp;
  unsigned L = Lgkm > MaxLgkm ? MaxLgkm : Lgkm;
  return uint16_t((V & 0xF) | ((V >> 4) << 14) | (E << 4) | (L << 8));
}

Waitcnt Waitcnt::decodeGfx9(uint16_t Imm) {
  Waitcnt W;
  W.Vm = (Imm & 0xF) | (((Imm >> 14) & 0x3) << 4);
  W.Exp = (Imm >> 4) & 0x7;
  W.Lgkm = (Imm >> 8) & 0xF;
  return W;
}

} // namespace pingpong
