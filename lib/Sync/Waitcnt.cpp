//===- Waitcnt.cpp - gfx9 s_waitcnt encoding ------------------------------===//
#include "pingpong/Sync/Waitcnt.h"

#include <cstring>

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

std::optional<Waitcnt> Waitcnt::fromAsm(const char *M, int64_t Imm) {
  auto Clamp = [&](unsigned Max) {
    return Imm < 0 ? 0u : Imm > int64_t(Max) ? Max : unsigned(Imm);
  };
  Waitcnt W;
  if (!std::strcmp(M, "s_waitcnt"))
    return decodeGfx9(uint16_t(Imm));
  if (!std::strcmp(M, "s_waitcnt_vmcnt"))
    W.Vm = Clamp(MaxVm);
  else if (!std::strcmp(M, "s_waitcnt_lgkmcnt"))
    W.Lgkm = Clamp(MaxLgkm);
  else if (!std::strcmp(M, "s_waitcnt_expcnt"))
    W.Exp = Clamp(MaxExp);
  else if (!std::strcmp(M, "s_waitcnt_vscnt"))
    return W; // gfx10+ store counter: nothing on gfx9
  else
    return std::nullopt;
  return W;
}

} // namespace pingpong
