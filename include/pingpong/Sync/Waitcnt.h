//===- Waitcnt.h - s_waitcnt immediate encoding per target ----*- C++ -*-===//
//
// Part of the sync-rules library (docs/waits-and-barriers.md, "The sync-rules
// library"). AMDGPU::encodeWaitcnt is not exported from libLLVM, so the gfx9
// encoding (gfx942, gfx950) lives here: vmcnt bits [3:0]+[15:14], expcnt
// [6:4], lgkmcnt [11:8]. A field at its maximum means "do not wait on it".
// The same decoder serves MachineInstr immediates (the plugin) and assembly
// (pingpong-sim: `s_waitcnt 0xc07f`, `s_waitcnt vmcnt(0) lgkmcnt(2)`,
// `s_waitcnt_vmcnt`, `s_waitcnt_lgkmcnt`).
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SYNC_WAITCNT_H
#define PINGPONG_SYNC_WAITCNT_H

#include "pingpong/Target/TargetFacts.h"

#include <cstdint>
#include <optional>

namespace pingpong {

struct Waitcnt {
  static constexpr unsigned MaxVm = target::MaxVmcnt, MaxExp = target::MaxExpcnt,
                            MaxLgkm = target::MaxLgkmcnt;
  unsigned Vm = MaxVm, Exp = MaxExp, Lgkm = MaxLgkm;

  static Waitcnt lgkm(unsigned N) { Waitcnt W; W.Lgkm = N; return W; }
  static Waitcnt vm(unsigned N) { Waitcnt W; W.Vm = N; return W; }

  uint16_t encodeGfx9() const;
  static Waitcnt decodeGfx9(uint16_t Imm);
  bool waitsOnNothing() const {
    return Vm >= MaxVm && Exp >= MaxExp && Lgkm >= MaxLgkm;
  }
  bool waitsOnVm() const { return Vm < MaxVm; }
  bool waitsOnLgkm() const { return Lgkm < MaxLgkm; }
  /// The wait that does both (the smaller count on each counter).
  Waitcnt merge(const Waitcnt &O) const {
    Waitcnt W;
    W.Vm = Vm < O.Vm ? Vm : O.Vm;
    W.Exp = Exp < O.Exp ? Exp : O.Exp;
    W.Lgkm = Lgkm < O.Lgkm ? Lgkm : O.Lgkm;
    return W;
  }
  /// An assembly s_waitcnt family instruction: the mnemonic (lower case:
  /// s_waitcnt, s_waitcnt_vmcnt, s_waitcnt_lgkmcnt, s_waitcnt_expcnt) and
  /// its immediate (the SIMM16 for s_waitcnt, the count for the others).
  /// std::nullopt for other mnemonics.
  static std::optional<Waitcnt> fromAsm(const char *Mnemonic, int64_t Imm);
};

} // namespace pingpong
#endif
