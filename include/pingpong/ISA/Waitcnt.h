//===- Waitcnt.h - s_waitcnt immediate encoding per target ----*- C++ -*-===//
//
// AMDGPU::encodeWaitcnt is not exported from libLLVM, so the gfx9 encoding
// (gfx942, gfx950) lives here: vmcnt bits [3:0]+[15:14], expcnt [6:4],
// lgkmcnt [11:8]. A field at its maximum means "do not wait on it".
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_ISA_WAITCNT_H
#define PINGPONG_ISA_WAITCNT_H

#include <cstdint>

namespace pingpong {

struct Waitcnt {
  static constexpr unsigned MaxVm = 63, MaxExp = 7, MaxLgkm = 15;
  unsigned Vm = MaxVm, Exp = MaxExp, Lgkm = MaxLgkm;

  static Waitcnt lgkm(unsigned N) { Waitcnt W; W.Lgkm = N; return W; }
  static Waitcnt vm(unsigned N) { Waitcnt W; W.Vm = N; return W; }

  uint16_t encodeGfx9() const;
  static Waitcnt decodeGfx9(uint16_t Imm);
  bool waitsOnNothing() const {
    return Vm >= MaxVm && Exp >= MaxExp && Lgkm >= MaxLgkm;
  }
};

} // namespace pingpong
#endif
