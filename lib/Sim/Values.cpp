//===- Values.cpp - pingpong-sim: the values a wave's registers hold ------===//
//
// See Values.h.
//
//===----------------------------------------------------------------------===//
#include "Values.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ppsim {

using Opnd = Operand;

bool WaveValues::getS(unsigned I, uint32_t &X) const {
  auto It = S.find(I);
  if (It == S.end()) return false;
  X = It->second;
  return true;
}
void WaveValues::setS(unsigned I, bool K, uint32_t X) {
  if (K) S[I] = X; else S.erase(I);
}
bool WaveValues::get32(const Opnd &O, int Lane, uint32_t &X) const {
  switch (O.K) {
  case Opnd::Imm: X = (uint32_t)O.Val; return true;
  case Opnd::S: return getS(O.Idx, X);
  case Opnd::V: {
    auto It = V.find(O.Idx);
    if (It == V.end()) return false;
    X = It->second->L[Lane];
    return true;
  }
  case Opnd::M0: if (!M0Known) return false; X = M0; return true;
  case Opnd::Vcc: if (!VccKnown) return false; X = (uint32_t)Vcc; return true;
  case Opnd::Exec: if (!ExecKnown) return false; X = (uint32_t)Exec; return true;
  case Opnd::Scc: if (Scc < 0) return false; X = Scc; return true;
  default: return false;
  }
}
bool WaveValues::get64(const Opnd &O, uint64_t &X) const {
  switch (O.K) {
  case Opnd::Imm: X = (uint64_t)O.Val; return true;
  case Opnd::S: {
    uint32_t A, B;
    if (!getS(O.Idx, A) || !getS(O.Idx + 1, B)) return false;
    X = (uint64_t)B << 32 | A;
    return true;
  }
  case Opnd::Vcc: X = Vcc; return VccKnown;
  case Opnd::Exec: X = Exec; return ExecKnown;
  default: return false;
  }
}
// a 32-bit scalar destination: an SGPR or M0
void WaveValues::set32(const Opnd &O, bool K, uint32_t X) {
  if (O.K == Opnd::S) setS(O.Idx, K, X);
  else if (O.K == Opnd::M0) { M0Known = K; M0 = X; }
}
void WaveValues::set64(const Opnd &O, bool K, uint64_t X) {
  switch (O.K) {
  case Opnd::S: setS(O.Idx, K, (uint32_t)X); setS(O.Idx + 1, K, (uint32_t)(X >> 32)); break;
  case Opnd::Vcc: VccKnown = K; Vcc = X; break;
  case Opnd::Exec: ExecKnown = K; Exec = X; break;
  default: break;
  }
}
void WaveValues::clobber(const Opnd &O) {
  switch (O.K) {
  case Opnd::V: for (unsigned I = 0; I < O.N; ++I) V.erase(O.Idx + I); break;
  case Opnd::S: for (unsigned I = 0; I < O.N; ++I) S.erase(O.Idx + I); break;
  case Opnd::M0: M0Known = false; break;
  case Opnd::Vcc: VccKnown = false; break;
  case Opnd::Exec: ExecKnown = false; break;
  case Opnd::Scc: Scc = -1; break;
  default: break;
  }
}

namespace {

int64_t sext24(uint32_t X) { return (int64_t)((int32_t)(X << 8) >> 8); }
float u2f(uint32_t X) { float F; memcpy(&F, &X, 4); return F; }
uint32_t f2u(float F) { uint32_t X; memcpy(&X, &F, 4); return X; }

bool valuOp(const std::string &M, uint32_t A, uint32_t B, uint32_t C, uint32_t &R) {
  if (M == "v_mov_b32") R = A;
  else if (M == "v_lshrrev_b32") R = B >> (A & 31);
  else if (M == "v_lshlrev_b32") R = B << (A & 31);
  else if (M == "v_ashrrev_i32") R = (uint32_t)((int32_t)B >> (A & 31));
  else if (M == "v_and_b32") R = A & B;
  else if (M == "v_or_b32") R = A | B;
  else if (M == "v_xor_b32") R = A ^ B;
  else if (M == "v_not_b32") R = ~A;
  else if (M == "v_add_u32") R = A + B;
  else if (M == "v_sub_u32") R = A - B;
  else if (M == "v_subrev_u32") R = B - A;
  else if (M == "v_mul_lo_u32") R = A * B;
  else if (M == "v_mul_u32_u24") R = (A & 0xffffff) * (B & 0xffffff);
  else if (M == "v_bfe_u32") R = (A >> (B & 31)) & ((C & 31) ? ((1u << (C & 31)) - 1) : 0);
  else if (M == "v_lshl_add_u32") R = (A << (B & 31)) + C;
  else if (M == "v_add_lshl_u32") R = (A + B) << (C & 31);
  else if (M == "v_lshl_or_b32") R = (A << (B & 31)) | C;
  else if (M == "v_and_or_b32") R = (A & B) | C;
  else if (M == "v_or3_b32") R = A | B | C;
  else if (M == "v_add3_u32") R = A + B + C;
  // more of the integer arithmetic Triton and LLVM use for addresses
  else if (M == "v_accvgpr_write_b32" || M == "v_accvgpr_read_b32" || M == "v_accvgpr_mov_b32") R = A;
  else if (M == "v_mul_hi_u32") R = (uint32_t)(((uint64_t)A * B) >> 32);
  else if (M == "v_mul_hi_i32") R = (uint32_t)(((int64_t)(int32_t)A * (int32_t)B) >> 32);
  else if (M == "v_mul_i32_i24") R = (uint32_t)(sext24(A) * sext24(B));
  else if (M == "v_mad_u32_u24") R = (A & 0xffffff) * (B & 0xffffff) + C;
  else if (M == "v_mad_i32_i24") R = (uint32_t)(sext24(A) * sext24(B) + (int32_t)C);
  else if (M == "v_min_u32") R = std::min(A, B);
  else if (M == "v_max_u32") R = std::max(A, B);
  else if (M == "v_min_i32") R = (uint32_t)std::min((int32_t)A, (int32_t)B);
  else if (M == "v_max_i32") R = (uint32_t)std::max((int32_t)A, (int32_t)B);
  else if (M == "v_min3_u32") R = std::min(A, std::min(B, C));
  else if (M == "v_max3_u32") R = std::max(A, std::max(B, C));
  else if (M == "v_min3_i32") R = (uint32_t)std::min((int32_t)A, std::min((int32_t)B, (int32_t)C));
  else if (M == "v_max3_i32") R = (uint32_t)std::max((int32_t)A, std::max((int32_t)B, (int32_t)C));
  else if (M == "v_xad_u32") R = (A ^ B) + C;
  else if (M == "v_bfrev_b32") { R = 0; for (int K = 0; K < 32; ++K) R |= ((A >> K) & 1u) << (31 - K); }
  else if (M == "v_bfe_i32") { unsigned O = B & 31, Wd = C & 31; R = Wd ? (uint32_t)((int32_t)((A >> O) << (32 - Wd)) >> (32 - Wd)) : 0; }
  else if (M == "v_bfi_b32") R = (A & B) | (~A & C);
  else if (M == "v_alignbit_b32") R = (uint32_t)((((uint64_t)A << 32) | B) >> (C & 31));
  else if (M == "v_alignbyte_b32") R = (uint32_t)((((uint64_t)A << 32) | B) >> (8 * (C & 3)));
  else if (M == "v_perm_b32") {
    uint64_t X = ((uint64_t)A << 32) | B;
    R = 0;
    for (int K = 0; K < 4; ++K) {
      unsigned Sel = (C >> (8 * K)) & 0xff, Byte;
      if (Sel < 8) Byte = (X >> (8 * Sel)) & 0xff;
      else if (Sel < 12) Byte = ((X >> (16 * (Sel - 8) + 15)) & 1) ? 0xff : 0; // sign of byte 1, 3, 5, 7
      else if (Sel == 12) Byte = 0;
      else Byte = 0xff;
      R |= Byte << (8 * K);
    }
  }
  else if (M == "v_lshlrev_b16") R = (uint16_t)(B << (A & 15));
  else if (M == "v_lshrrev_b16") R = (uint16_t)((B & 0xffff) >> (A & 15));
  else if (M == "v_add_u16") R = (uint16_t)(A + B);
  else if (M == "v_sub_u16") R = (uint16_t)(A - B);
  // the float steps of LLVM's unsigned division expansion (exact here: the
  // expansion corrects the reciprocal's error)
  else if (M == "v_cvt_f32_u32") R = f2u((float)A);
  else if (M == "v_cvt_f32_i32") R = f2u((float)(int32_t)A);
  else if (M == "v_cvt_u32_f32") { float X = u2f(A); R = !(X > 0) ? 0 : X >= 4294967296.0f ? 0xffffffffu : (uint32_t)X; }
  else if (M == "v_cvt_i32_f32") { float X = u2f(A); R = X != X ? 0 : X >= 2147483648.0f ? 0x7fffffffu : X <= -2147483648.0f ? 0x80000000u : (uint32_t)(int32_t)X; }
  else if (M == "v_rcp_iflag_f32" || M == "v_rcp_f32") R = f2u(1.0f / u2f(A));
  else if (M == "v_mul_f32") R = f2u(u2f(A) * u2f(B));
  else if (M == "v_add_f32") R = f2u(u2f(A) + u2f(B));
  else if (M == "v_sub_f32") R = f2u(u2f(A) - u2f(B));
  else if (M == "v_trunc_f32") R = f2u(std::trunc(u2f(A)));
  else return false;
  return true;
}
int valuArity(const std::string &M) {
  static const char *One[] = {"v_mov_b32", "v_not_b32", "v_accvgpr_write_b32", "v_accvgpr_read_b32",
                              "v_accvgpr_mov_b32", "v_bfrev_b32", "v_cvt_f32_u32", "v_cvt_f32_i32",
                              "v_cvt_u32_f32", "v_cvt_i32_f32", "v_rcp_iflag_f32", "v_rcp_f32", "v_trunc_f32"};
  static const char *Three[] = {"v_bfe_u32", "v_lshl_add_u32", "v_add_lshl_u32", "v_lshl_or_b32",
                                "v_and_or_b32", "v_or3_b32", "v_add3_u32", "v_mad_u32_u24", "v_mad_i32_i24",
                                "v_min3_u32", "v_max3_u32", "v_min3_i32", "v_max3_i32", "v_xad_u32",
                                "v_bfe_i32", "v_bfi_b32", "v_alignbit_b32", "v_alignbyte_b32", "v_perm_b32"};
  for (auto *X : One) if (M == X) return 1;
  for (auto *X : Three) if (M == X) return 3;
  return 2;
}

bool cmpOp(const std::string &Op, bool Signed, uint32_t A, uint32_t B, bool &R) {
  int64_t X = Signed ? (int64_t)(int32_t)A : (int64_t)A, Y = Signed ? (int64_t)(int32_t)B : (int64_t)B;
  if (Op == "eq") R = X == Y;
  else if (Op == "ne" || Op == "lg") R = X != Y;
  else if (Op == "lt") R = X < Y;
  else if (Op == "le") R = X <= Y;
  else if (Op == "gt") R = X > Y;
  else if (Op == "ge") R = X >= Y;
  else return false;
  return true;
}

// Splits "v_cmp_eq_u32" / "s_cmp_lg_u32" / "s_cmpk_eq_u32" into op and signedness.
bool cmpParts(const std::string &M, const char *Prefix, std::string &Op, bool &Signed) {
  if (M.compare(0, strlen(Prefix), Prefix) != 0) return false;
  std::string Rest = M.substr(strlen(Prefix));
  size_t U = Rest.find('_');
  if (U == std::string::npos) return false;
  Op = Rest.substr(0, U);
  std::string Ty = Rest.substr(U + 1);
  if (Ty != "u32" && Ty != "i32") return false;
  Signed = Ty == "i32";
  return true;
}

// Executes the value semantics the model knows (scalar ALU, the integer VALU
// used to derive wave ids, compares, exec manipulation). Everything else makes
// its destinations unknown. Returns true if the semantics were modelled.
// A VALU result per lane: active lanes from Lane(L, R) (false: unknown),
// inactive lanes keep the old value; the register becomes unknown if any
// lane is.
template <typename LaneFn> void writeLanes(WaveValues &W, const Opnd &Dst, LaneFn Lane) {
  std::shared_ptr<VVal> NV(new VVal);
  auto Old = W.V.find(Dst.Idx);
  bool K = W.ExecKnown;
  for (int L = 0; L < 64 && K; ++L) {
    if (!(W.Exec >> L & 1)) {
      if (Old == W.V.end()) { K = false; break; }
      NV->L[L] = Old->second->L[L];
      continue;
    }
    K = Lane(L, NV->L[L]);
  }
  if (K) W.V[Dst.Idx] = std::move(NV); else W.V.erase(Dst.Idx);
}

// Register spills: scratch_store/load whose address is wave-uniform and
// known -- no address register (scratch_*_ST: "off, off offset:N") or an
// SGPR the model knows (scratch_*_SADDR: "off, s11 offset:N", what LLVM
// emits when the frame offset does not fit the immediate): the wave's
// private slot at that address keeps the lanes' values (every lane active),
// so an LDS address that was spilled and reloaded stays known.
bool spillValues(WaveValues &W, const Inst &I) {
  const std::string &M = I.Mnem;
  const std::vector<Operand> &O = I.Vals;
  bool Store = M.compare(0, 14, "scratch_store_") == 0, Load = M.compare(0, 13, "scratch_load_") == 0;
  bool VAddr = I.Scratch == ScratchAddr::VAddr || I.Scratch == ScratchAddr::VAddrSAddr;
  const Opnd &Data = Store && VAddr && O.size() > 1 ? O[1] : O[0];
  // the slot address: the SGPR's value (SADDR) plus the immediate offset
  int64_t Off = I.Offset;
  bool Uniform = I.Scratch == ScratchAddr::None;
  uint32_t SAddr;
  if (I.Scratch == ScratchAddr::SAddr && O.size() > 1 && W.get32(O[1], 0, SAddr)) {
    Off += SAddr;
    Uniform = true;
  }
  bool Plain = Uniform && Data.K == Opnd::V && (M.find("dword") != std::string::npos);
  if (Store) {
    bool Full = W.ExecKnown && W.Exec == ~0ull;
    for (unsigned D = 0; D < Data.N; ++D) {
      auto It = W.V.find(Data.Idx + D);
      if (Plain && Full && It != W.V.end()) W.Scratch[Off + 4 * D] = It->second;
      else if (Plain) W.Scratch.erase(Off + 4 * D);
      else W.Scratch.clear(); // a store the model cannot place: forget every slot
    }
    return true;
  }
  if (!Load) return false;
  for (unsigned D = 0; D < Data.N; ++D) {
    auto It = Plain ? W.Scratch.find(Off + 4 * D) : W.Scratch.end();
    if (It != W.Scratch.end() && W.ExecKnown && W.Exec == ~0ull) W.V[Data.Idx + D] = It->second;
    else W.V.erase(Data.Idx + D);
  }
  return true;
}

// s_load_dword* from the kernarg segment: the bytes the user gave (--arg)
// and the hidden arguments the model knows; anything else is unknown.
bool kernargValues(WaveValues &W, const Inst &I) {
  const std::string &M = I.Mnem;
  const std::vector<Operand> &O = I.Vals;
  // s_load_dword* sdst, sbase, [soffset] [offset]
  if (M.compare(0, 12, "s_load_dword") != 0 || O.size() < 2 || O[0].K != Opnd::S) return false;
  uint64_t Base = 0;
  uint32_t Off = 0;
  bool K = W.Kernarg && W.get64(O[1], Base) && (uint32_t)(Base >> 32) == KernargHi &&
           (O.size() < 3 || W.get32(O[2], 0, Off));
  Off += (uint32_t)I.Offset;
  for (unsigned D = 0; D < O[0].N; ++D) {
    uint32_t X = 0;
    bool KD = K;
    uint64_t A = (uint64_t)(uint32_t)Base + Off + 4 * D;
    for (unsigned B = 0; B < 4 && KD; ++B) {
      if (A + B >= W.Kernarg->size() || (*W.Kernarg)[A + B] < 0) KD = false;
      else X |= (uint32_t)(*W.Kernarg)[A + B] << (8 * B);
    }
    W.setS(O[0].Idx + D, KD, X);
  }
  return true;
}

// The VALU instructions the model computes per lane (docs/cycle-model.md
// lists them).
bool valuValues(WaveValues &W, const Inst &I) {
  const std::string &M = I.Mnem;
  const std::vector<Operand> &O = I.Vals;
  std::string CmpOp;
  bool Signed = false;
  if (M == "v_readfirstlane_b32" && O.size() >= 2 && (O[0].K == Opnd::S || O[0].K == Opnd::M0)) {
    int Lane = -1;
    if (W.ExecKnown) for (int L = 0; L < 64; ++L) if (W.Exec >> L & 1) { Lane = L; break; }
    uint32_t X = 0;
    bool K = Lane >= 0 && W.get32(O[1], Lane, X);
    W.set32(O[0], K, X);
    return true;
  }
  if (M == "v_readlane_b32" && O.size() >= 3 && (O[0].K == Opnd::S || O[0].K == Opnd::M0)) {
    uint32_t L = 0, X = 0;
    bool K = W.get32(O[2], 0, L) && W.get32(O[1], L & 63, X);
    W.set32(O[0], K, X);
    return true;
  }
  bool IsCmpx = cmpParts(M, "v_cmpx_", CmpOp, Signed);
  if (IsCmpx || cmpParts(M, "v_cmp_", CmpOp, Signed)) {
    if (O.size() < 3) return false;
    uint64_t Mask = 0;
    bool K = W.ExecKnown;
    for (int L = 0; L < 64 && K; ++L) {
      if (!(W.Exec >> L & 1)) continue;
      uint32_t A, B;
      bool R;
      if (!W.get32(O[1], L, A) || !W.get32(O[2], L, B) || !cmpOp(CmpOp, Signed, A, B, R)) { K = false; break; }
      if (R) Mask |= 1ull << L;
    }
    W.set64(O[0], K, Mask);
    if (IsCmpx) { W.ExecKnown = K; W.Exec = Mask; }
    return true;
  }
  if (M == "v_bitop3_b32" && O.size() == 4 && O[0].K == Opnd::V && !I.Modifiers) {
    // gfx950 three-input truth table: bit i of the result is bit
    // (a_i << 2 | b_i << 1 | c_i) of the immediate (LLVM: src0 = 0xf0,
    // src1 = 0xcc, src2 = 0xaa)
    unsigned Tt = I.BitOp3;
    writeLanes(W, O[0], [&](int L, uint32_t &R) {
      uint32_t A, B, C;
      if (!W.get32(O[1], L, A) || !W.get32(O[2], L, B) || !W.get32(O[3], L, C)) return false;
      R = 0;
      for (unsigned X = 0; X < 8; ++X)
        if (Tt >> X & 1) R |= (X & 4 ? A : ~A) & (X & 2 ? B : ~B) & (X & 1 ? C : ~C);
      return true;
    });
    return true;
  }
  // per-lane 64-bit masks (VCC or an SGPR pair) for cndmask and carries
  auto Mask = [&](const Opnd &X, uint64_t &Mk) { return W.get64(X, Mk); };
  if (M == "v_cndmask_b32" && O.size() == 4 && O[0].K == Opnd::V && !I.Modifiers) {
    uint64_t Mk;
    bool KM = Mask(O[3], Mk);
    writeLanes(W, O[0], [&](int L, uint32_t &R) {
      uint32_t A, B;
      if (!KM || !W.get32(O[1], L, A) || !W.get32(O[2], L, B)) return false;
      R = (Mk >> L & 1) ? B : A;
      return true;
    });
    return true;
  }
  if ((M == "v_mbcnt_lo_u32_b32" || M == "v_mbcnt_hi_u32_b32") && O.size() == 3 && O[0].K == Opnd::V && !I.Modifiers) {
    // lane id idiom: count of mask bits below the lane (low / high half)
    bool Hi = M == "v_mbcnt_hi_u32_b32";
    writeLanes(W, O[0], [&](int L, uint32_t &R) {
      uint32_t A, B;
      if (!W.get32(O[1], L, A) || !W.get32(O[2], L, B)) return false;
      int Below = Hi ? std::max(0, L - 32) : std::min(L, 32);
      uint32_t Bits = Below >= 32 ? A : (A & ((1u << Below) - 1));
      R = (uint32_t)__builtin_popcount(Bits) + B;
      return true;
    });
    return true;
  }
  // carry-out adds: v_add_co_u32 vD, sdst, A, B [, carry-in]
  if ((M == "v_add_co_u32" || M == "v_sub_co_u32" || M == "v_subrev_co_u32" || M == "v_addc_co_u32" ||
       M == "v_subb_co_u32" || M == "v_subbrev_co_u32") && (O.size() == 4 || O.size() == 5) && O[0].K == Opnd::V) {
    bool CarryIn = M == "v_addc_co_u32" || M == "v_subb_co_u32" || M == "v_subbrev_co_u32";
    if (I.Modifiers || (int)O.size() != (CarryIn ? 5 : 4)) { W.clobber(O[0]); W.clobber(O[1]); return true; }
    uint64_t Ci = 0, Co = 0;
    bool KC = !CarryIn || Mask(O[4], Ci);
    bool AllK = KC && W.ExecKnown;
    writeLanes(W, O[0], [&](int L, uint32_t &R) {
      uint32_t A, B;
      if (!KC || !W.get32(O[2], L, A) || !W.get32(O[3], L, B)) { AllK = false; return false; }
      uint64_t C = CarryIn ? (Ci >> L & 1) : 0, X;
      bool Out;
      if (M == "v_add_co_u32" || M == "v_addc_co_u32") { X = (uint64_t)A + B + C; Out = X >> 32; }
      else if (M == "v_sub_co_u32" || M == "v_subb_co_u32") { X = (uint64_t)A - B - C; Out = (uint64_t)B + C > A; }
      else { X = (uint64_t)B - A - C; Out = (uint64_t)A + C > B; }
      R = (uint32_t)X;
      if (Out) Co |= 1ull << L;
      return true;
    });
    W.set64(O[1], AllK, Co);
    return true;
  }
  if ((M == "v_lshlrev_b64" || M == "v_lshrrev_b64" || M == "v_ashrrev_i64") && O.size() == 3 && O[0].K == Opnd::V && O[0].N == 2 && !I.Modifiers) {
    bool K = W.ExecKnown;
    std::shared_ptr<VVal> Lo(new VVal), Hi(new VVal);
    for (int L = 0; L < 64 && K; ++L) {
      uint32_t Sh, A0, A1;
      Opnd X = O[2];
      Opnd X1 = X; X1.Idx += 1;
      if (!W.get32(O[1], L, Sh) || !W.get32(X, L, A0) || (X.K == Opnd::Imm ? (A1 = (uint32_t)((uint64_t)X.Val >> 32), false) : !W.get32(X1, L, A1))) { K = false; break; }
      uint64_t V = (uint64_t)A1 << 32 | A0;
      uint64_t R = M == "v_lshlrev_b64" ? V << (Sh & 63) : M == "v_lshrrev_b64" ? V >> (Sh & 63) : (uint64_t)((int64_t)V >> (Sh & 63));
      Lo->L[L] = (uint32_t)R; Hi->L[L] = (uint32_t)(R >> 32);
    }
    if (K && W.Exec == ~0ull) { W.V[O[0].Idx] = Lo; W.V[O[0].Idx + 1] = Hi; }
    else W.clobber(O[0]);
    return true;
  }
  // 64-bit moves and gfx940's v_lshl_add_u64 (D = (S0 << S1[2:0]) + S2):
  // LLVM copies and offsets 64-bit pairs with them
  if ((M == "v_mov_b64" && O.size() == 2) || (M == "v_lshl_add_u64" && O.size() == 4)) {
    if (O[0].K != Opnd::V || O[0].N != 2 || I.Modifiers) return false;
    bool K = W.ExecKnown && W.Exec == ~0ull;
    std::shared_ptr<VVal> Lo(new VVal), Hi(new VVal);
    // a 64-bit source: a register pair, or an immediate (its 64-bit value)
    auto Get64 = [&](const Opnd &X, int L, uint64_t &V) {
      uint32_t A0, A1;
      if (X.K == Opnd::Imm) { V = (uint64_t)X.Val; return true; }
      Opnd X1 = X; X1.Idx += 1;
      if (X.N != 2 || !W.get32(X, L, A0) || !W.get32(X1, L, A1)) return false;
      V = (uint64_t)A1 << 32 | A0;
      return true;
    };
    for (int L = 0; L < 64 && K; ++L) {
      uint64_t A, C = 0, R;
      uint32_t Sh = 0;
      if (!Get64(O[1], L, A)) { K = false; break; }
      if (M == "v_lshl_add_u64" && (!W.get32(O[2], L, Sh) || !Get64(O[3], L, C))) { K = false; break; }
      R = M == "v_mov_b64" ? A : (A << (Sh & 7)) + C;
      Lo->L[L] = (uint32_t)R; Hi->L[L] = (uint32_t)(R >> 32);
    }
    if (K) { W.V[O[0].Idx] = Lo; W.V[O[0].Idx + 1] = Hi; }
    else W.clobber(O[0]);
    return true;
  }
  if ((M == "v_mad_u64_u32" || M == "v_mad_i64_i32") && O.size() == 5 && O[0].K == Opnd::V && O[0].N == 2 && !I.Modifiers) {
    // vD[2], sdst (carry), A, B, C[2]
    bool K = W.ExecKnown && W.Exec == ~0ull;
    std::shared_ptr<VVal> Lo(new VVal), Hi(new VVal);
    Opnd C1 = O[4]; C1.Idx += 1;
    for (int L = 0; L < 64 && K; ++L) {
      uint32_t A, B, C0, Ch;
      if (!W.get32(O[2], L, A) || !W.get32(O[3], L, B) || !W.get32(O[4], L, C0)) { K = false; break; }
      if (O[4].K == Opnd::Imm) Ch = (uint32_t)((uint64_t)O[4].Val >> 32);
      else if (!W.get32(C1, L, Ch)) { K = false; break; }
      uint64_t Cv = (uint64_t)Ch << 32 | C0;
      uint64_t R = M == "v_mad_u64_u32" ? (uint64_t)A * B + Cv : (uint64_t)((int64_t)(int32_t)A * (int32_t)B + (int64_t)Cv);
      Lo->L[L] = (uint32_t)R; Hi->L[L] = (uint32_t)(R >> 32);
    }
    if (K) { W.V[O[0].Idx] = Lo; W.V[O[0].Idx + 1] = Hi; }
    else W.clobber(O[0]);
    W.clobber(O[1]);
    return true;
  }
  if (O.empty() || O[0].K != Opnd::V) return false;
  int Ar = valuArity(M);
  uint32_t Dummy;
  if (!valuOp(M, 0, 0, 0, Dummy)) return false;
  if (I.Modifiers || (int)O.size() != 1 + Ar) { W.clobber(O[0]); return true; } // modifiers present
  writeLanes(W, O[0], [&](int L, uint32_t &R) {
    uint32_t A = 0, B = 0, C = 0;
    if (!W.get32(O[1], L, A) || (Ar > 1 && !W.get32(O[2], L, B)) || (Ar > 2 && !W.get32(O[3], L, C))) return false;
    valuOp(M, A, B, C, R);
    return true;
  });
  return true;
}

// The SALU instructions the model computes: moves, arithmetic, logic,
// compares (SCC), 64-bit masks and exec.
bool saluValues(WaveValues &W, const Inst &I) {
  const std::string &M = I.Mnem;
  const std::vector<Operand> &O = I.Vals;
  auto Src = [&](size_t K) { return K < O.size() ? O[K] : Opnd(); };
  std::string CmpOp;
  bool Signed = false;
  // compares
  if (cmpParts(M, "s_cmp_", CmpOp, Signed) || cmpParts(M, "s_cmpk_", CmpOp, Signed)) {
    uint32_t A, B;
    bool R;
    if (W.get32(Src(0), 0, A) && W.get32(Src(1), 0, B) && cmpOp(CmpOp, Signed, A, B, R)) W.Scc = R;
    else W.Scc = -1;
    return true;
  }
  if (M == "s_bitcmp0_b32" || M == "s_bitcmp1_b32") {
    uint32_t A, B;
    if (W.get32(Src(0), 0, A) && W.get32(Src(1), 0, B)) W.Scc = ((A >> (B & 31)) & 1) == (M == "s_bitcmp1_b32" ? 1u : 0u);
    else W.Scc = -1;
    return true;
  }
  if (O.empty()) return false;
  const Opnd &D = O[0];
  // 64-bit logic / exec
  if (M == "s_and_saveexec_b64" || M == "s_or_saveexec_b64" || M == "s_andn2_saveexec_b64") {
    uint64_t A;
    bool K = W.get64(Src(1), A) && W.ExecKnown;
    uint64_t Old = W.Exec;
    W.set64(D, W.ExecKnown, Old);
    uint64_t E = M == "s_and_saveexec_b64" ? (A & Old) : M == "s_or_saveexec_b64" ? (A | Old) : (A & ~Old);
    W.ExecKnown = K;
    W.Exec = E;
    W.Scc = K ? (E != 0) : -1;
    return true;
  }
  if (M == "s_mov_b64" || M == "s_not_b64") {
    uint64_t A;
    bool K = W.get64(Src(1), A);
    if (M == "s_not_b64") { A = ~A; W.Scc = K ? (A != 0) : -1; }
    W.set64(D, K, A);
    return true;
  }
  if (M == "s_and_b64" || M == "s_or_b64" || M == "s_xor_b64" || M == "s_andn2_b64" || M == "s_orn2_b64") {
    uint64_t A, B, R = 0;
    bool K = W.get64(Src(1), A) && W.get64(Src(2), B);
    if (K) {
      if (M == "s_and_b64") R = A & B;
      else if (M == "s_or_b64") R = A | B;
      else if (M == "s_xor_b64") R = A ^ B;
      else if (M == "s_andn2_b64") R = A & ~B;
      else R = A | ~B;
    }
    W.set64(D, K, R);
    W.Scc = K ? (R != 0) : -1;
    return true;
  }
  if (M == "s_cselect_b64") {
    uint64_t A, B;
    bool K = W.Scc >= 0 && W.get64(Src(1), A) && W.get64(Src(2), B);
    W.set64(D, K, W.Scc == 1 ? A : B);
    return true;
  }
  if ((D.K != Opnd::S && D.K != Opnd::M0) || D.N != 1) return false;
  uint32_t A = 0, B = 0, R = 0;
  bool KA = W.get32(Src(1), 0, A), KB = W.get32(Src(2), 0, B);
  int NewScc = -2; // -2: unchanged
  bool K = KA && KB;
  if (M == "s_mov_b32") { R = A; K = KA; }
  else if (M == "s_movk_i32") { R = (uint32_t)(int32_t)(int16_t)A; K = KA; }
  else if (M == "s_not_b32") { R = ~A; K = KA; NewScc = K ? R != 0 : -1; }
  else if (M == "s_cselect_b32") { K = K && W.Scc >= 0; R = W.Scc == 1 ? A : B; }
  else if (M == "s_lshr_b32") { R = A >> (B & 31); NewScc = K ? R != 0 : -1; }
  else if (M == "s_lshl_b32") { R = A << (B & 31); NewScc = K ? R != 0 : -1; }
  else if (M == "s_ashr_i32") { R = (uint32_t)((int32_t)A >> (B & 31)); NewScc = K ? R != 0 : -1; }
  else if (M == "s_and_b32") { R = A & B; NewScc = K ? R != 0 : -1; }
  else if (M == "s_or_b32") { R = A | B; NewScc = K ? R != 0 : -1; }
  else if (M == "s_xor_b32") { R = A ^ B; NewScc = K ? R != 0 : -1; }
  else if (M == "s_andn2_b32") { R = A & ~B; NewScc = K ? R != 0 : -1; }
  else if (M == "s_add_u32") { uint64_t X = (uint64_t)A + B; R = (uint32_t)X; NewScc = K ? (X >> 32) != 0 : -1; }
  else if (M == "s_sub_u32") { R = A - B; NewScc = K ? B > A : -1; }
  else if (M == "s_add_i32") { int64_t X = (int64_t)(int32_t)A + (int32_t)B; R = (uint32_t)X; NewScc = K ? (X != (int32_t)X) : -1; }
  else if (M == "s_sub_i32") { int64_t X = (int64_t)(int32_t)A - (int32_t)B; R = (uint32_t)X; NewScc = K ? (X != (int32_t)X) : -1; }
  else if (M == "s_mulk_i32") { uint32_t Dv; K = W.get32(D, 0, Dv) && KA; R = Dv * (uint32_t)(int32_t)(int16_t)A; }
  else if (M == "s_addk_i32") { uint32_t Dv; K = W.get32(D, 0, Dv) && KA; int64_t X = (int64_t)(int32_t)Dv + (int16_t)A; R = (uint32_t)X; NewScc = K ? (X != (int32_t)X) : -1; }
  else if (M == "s_mul_i32") { R = A * B; }
  else if (M == "s_mul_hi_u32") { R = (uint32_t)(((uint64_t)A * B) >> 32); }
  else if (M == "s_mul_hi_i32") { R = (uint32_t)(((int64_t)(int32_t)A * (int32_t)B) >> 32); }
  else if (M == "s_addc_u32") { K = K && W.Scc >= 0; uint64_t X = (uint64_t)A + B + (W.Scc == 1); R = (uint32_t)X; NewScc = K ? (X >> 32) != 0 : -1; }
  else if (M == "s_subb_u32") { K = K && W.Scc >= 0; uint64_t C = W.Scc == 1; R = A - B - (uint32_t)C; NewScc = K ? ((uint64_t)B + C > A) : -1; }
  else if (M == "s_abs_i32") { R = (int32_t)A < 0 ? 0u - A : A; K = KA; NewScc = K ? R != 0 : -1; }
  else if (M == "s_min_i32") { R = (uint32_t)std::min((int32_t)A, (int32_t)B); NewScc = K ? (int32_t)A < (int32_t)B : -1; }
  else if (M == "s_max_i32") { R = (uint32_t)std::max((int32_t)A, (int32_t)B); NewScc = K ? (int32_t)A > (int32_t)B : -1; }
  else if (M == "s_bfe_i32") { unsigned Off = B & 31, Wd = (B >> 16) & 0x7f; R = Wd == 0 ? 0 : Wd >= 32 ? (uint32_t)((int32_t)A >> Off) : (uint32_t)((int32_t)((A >> Off) << (32 - Wd)) >> (32 - Wd)); NewScc = K ? R != 0 : -1; }
  else if (M == "s_lshl1_add_u32" || M == "s_lshl2_add_u32" || M == "s_lshl3_add_u32" || M == "s_lshl4_add_u32") {
    uint64_t X = ((uint64_t)A << (M[6] - '0')) + B; R = (uint32_t)X; NewScc = K ? (X >> 32) != 0 : -1; }
  else if (M == "s_sext_i32_i8") { R = (uint32_t)(int32_t)(int8_t)A; K = KA; }
  else if (M == "s_sext_i32_i16") { R = (uint32_t)(int32_t)(int16_t)A; K = KA; }
  else if (M == "s_brev_b32") { R = 0; for (int X = 0; X < 32; ++X) R |= ((A >> X) & 1u) << (31 - X); K = KA; }
  else if (M == "s_orn2_b32") { R = A | ~B; NewScc = K ? R != 0 : -1; }
  else if (M == "s_nand_b32") { R = ~(A & B); NewScc = K ? R != 0 : -1; }
  else if (M == "s_nor_b32") { R = ~(A | B); NewScc = K ? R != 0 : -1; }
  else if (M == "s_xnor_b32") { R = ~(A ^ B); NewScc = K ? R != 0 : -1; }
  else if (M == "s_min_u32" && false) {}
  else if (M == "s_cmov_b32" || M == "s_cmovk_i32") {
    uint32_t Dv; bool KD = W.get32(D, 0, Dv);
    if (M == "s_cmovk_i32") A = (uint32_t)(int32_t)(int16_t)A;
    K = W.Scc >= 0 && (W.Scc == 1 ? KA : KD); R = W.Scc == 1 ? A : Dv; }
  else if (M == "s_pack_ll_b32_b16") { R = (A & 0xffff) | (B << 16); }
  else if (M == "s_pack_lh_b32_b16") { R = (A & 0xffff) | (B & 0xffff0000u); }
  else if (M == "s_pack_hh_b32_b16") { R = (A >> 16) | (B & 0xffff0000u); }
  else if (M == "s_bcnt1_i32_b32") { R = __builtin_popcount(A); K = KA; NewScc = K ? R != 0 : -1; }
  else if (M == "s_ff1_i32_b32") { R = A ? __builtin_ctz(A) : 0xffffffffu; K = KA; }
  else if (M == "s_bfe_u32") { unsigned Off = B & 31, Wd = (B >> 16) & 0x7f; R = Wd >= 32 ? A >> Off : (A >> Off) & ((1u << Wd) - 1); NewScc = K ? R != 0 : -1; }
  else if (M == "s_min_u32") { R = std::min(A, B); NewScc = K ? A < B : -1; }
  else if (M == "s_max_u32") { R = std::max(A, B); NewScc = K ? A > B : -1; }
  else return false;
  W.set32(D, K, R);
  if (NewScc != -2) W.Scc = NewScc;
  return true;
}

// Executes the value semantics the model knows. Returns true if the
// semantics were modelled; everything else makes its destinations unknown.
bool execValues(WaveValues &W, const Inst &I) {
  const std::string &M = I.Mnem;
  if (I.C == Cat::VMEM && M.compare(0, 8, "scratch_") == 0 && !I.LdsDma && !I.Vals.empty())
    return spillValues(W, I);
  switch (I.C) {
  case Cat::SMEM: return kernargValues(W, I);
  case Cat::VALU: return valuValues(W, I);
  case Cat::SALU: return saluValues(W, I);
  default: return false;
  }
}

// Marks every destination of an instruction whose values are not modelled as unknown.
void clobberDefs(WaveValues &W, const Inst &I) {
  for (unsigned K = 0; K < I.NumValDefs && K < I.Vals.size(); ++K)
    W.clobber(I.Vals[K]);
  if (I.DefsScc) W.Scc = -1;
  if (I.DefsVcc) W.VccKnown = false;
  if (I.DefsExec) W.ExecKnown = false;
}

void mergeIntervals(std::vector<std::pair<uint32_t, uint32_t>> &Iv, LdsBytes &B) {
  std::sort(Iv.begin(), Iv.end());
  for (auto &X : Iv) {
    if (!B.Iv.empty() && X.first <= B.Iv.back().second) B.Iv.back().second = std::max(B.Iv.back().second, X.second);
    else B.Iv.push_back(X);
  }
  B.Known = true;
}

// The LDS bytes an LDS DMA (global_load_lds_*, buffer_load_* ... lds) of wave
// W writes. gfx9 (gfx942/gfx950): the LDS base is M0 (wave-uniform), and lane
// L writes its Size bytes at M0 + inst_offset + L * Size -- the lanes' data is
// packed in lane order (the 64 x 16 B of a dwordx4 form one 1 KiB block).
// The instruction's immediate offset is added to the LDS address too for
// global_load_lds (llvm.amdgcn.global.load.lds: "imm offset (applied to both
// global and LDS address)"; llc keeps the LDS pointer in M0 and the constant
// in offset:, and its LDS memory operand carries the offset). For
// buffer_load ... lds LLVM's LDS memory operand does not carry the offset, so
// both M0 + L * Size and M0 + offset + L * Size are taken (conservative).
// Sub-dword forms: each lane is taken to cover [L * Size, L * 4 + 4) (either
// packing). M0 unknown: unknown (all of LDS).
LdsBytes dmaBytes(const WaveValues &W, const Inst &In) {
  LdsBytes B;
  if (!W.M0Known || !In.BytesPerLane) return B;
  const int64_t Off = In.Offset; // global: 13-bit signed
  const int64_t Size = In.BytesPerLane;
  std::vector<int64_t> Bases = {(int64_t)W.M0 + Off};
  if (In.Mnem.compare(0, 7, "buffer_") == 0 && Off != 0) Bases.push_back((int64_t)W.M0);
  std::vector<std::pair<uint32_t, uint32_t>> Iv;
  for (int L = 0; L < 64; ++L) {
    if (W.ExecKnown && !(W.Exec >> L & 1)) continue;
    for (int64_t Base : Bases) {
      int64_t Lo = Base + L * Size, Hi = Size < 4 ? Base + L * 4 + 4 : Lo + Size;
      if (Lo < 0 || Hi > (int64_t)UINT32_MAX) return B;
      Iv.push_back({(uint32_t)Lo, (uint32_t)Hi});
    }
  }
  mergeIntervals(Iv, B);
  return B;
}

} // namespace

// The values of one instruction (execValues, else its destinations become
// unknown); remembers the last known exec when it becomes unknown.
void applyValues(WaveValues &W, const Inst &I) {
  bool EK = W.ExecKnown;
  uint64_t E = W.Exec;
  if (!execValues(W, I)) {
    clobberDefs(W, I);
    static const bool Dbg = getenv("PPSIM_DEBUG_VALUES") != nullptr;
    if (Dbg && (I.C == Cat::VALU || I.C == Cat::SALU)) fprintf(stderr, "unmodelled: %s | %s\n", I.Mnem.c_str(), I.Text.c_str());
  }
  if (EK && !W.ExecKnown) { W.ExecSavedKnown = true; W.ExecSaved = E; }
}

// The condition of a conditional branch from the wave's values: 1 taken,
// 0 not taken, -1 unknown (data-dependent).
int branchCond(const WaveValues &W, const Inst &In) {
  const std::string &M = In.Mnem;
  if (!In.Conditional) return 1;
  if (M == "s_cbranch_scc0") return W.Scc < 0 ? -1 : W.Scc == 0;
  if (M == "s_cbranch_scc1") return W.Scc < 0 ? -1 : W.Scc == 1;
  if (M == "s_cbranch_vccz") return W.VccKnown ? W.Vcc == 0 : -1;
  if (M == "s_cbranch_vccnz") return W.VccKnown ? W.Vcc != 0 : -1;
  if (M == "s_cbranch_execz") return W.ExecKnown ? W.Exec == 0 : -1;
  if (M == "s_cbranch_execnz") return W.ExecKnown ? W.Exec != 0 : -1;
  return -1;
}

// After the model chose the direction of a data-dependent branch, make the
// condition agree with it, so that a later branch on the same SCC / VCC /
// EXEC goes the same way: SCC = the direction; VCC = 0 or exec; EXEC = 0, or
// every lane active before the guard (a uniform condition) -- an assumption
// the report states.
void assumeCond(WaveValues &W, const Inst &In, bool Taken) {
  const std::string &M = In.Mnem;
  if (M == "s_cbranch_scc0") W.Scc = !Taken;
  else if (M == "s_cbranch_scc1") W.Scc = Taken;
  else if (M == "s_cbranch_vccz" || M == "s_cbranch_vccnz") {
    bool Zero = (M == "s_cbranch_vccz") == Taken;
    if (Zero) { W.VccKnown = true; W.Vcc = 0; }
    else if (W.ExecKnown && W.Exec) { W.VccKnown = true; W.Vcc = W.Exec; }
  } else if (M == "s_cbranch_execz" || M == "s_cbranch_execnz") {
    bool Zero = (M == "s_cbranch_execz") == Taken;
    if (Zero) { W.ExecKnown = true; W.Exec = 0; }
    else if (W.ExecSavedKnown && W.ExecSaved) { W.ExecKnown = true; W.Exec = W.ExecSaved; }
  }
}

// The LDS bytes an LDS instruction (or LDS DMA) of wave W touches, from the
// address operand's known lane values and the immediate offsets (LDS DMA:
// from M0, dmaBytes).
namespace {

// The address VGPR's lane values of a ds_* instruction (null: unknown) and
// the (offset, size) of each part a lane touches (ds_read2/write2: two).
const VVal *dsAddress(const WaveValues &W, const Inst &In, std::vector<std::pair<int64_t, int64_t>> &Parts) {
  if (In.NumValDefs >= In.Vals.size()) return nullptr;
  const Opnd &A = In.Vals[In.NumValDefs];
  if (A.K != Opnd::V || A.N != 1) return nullptr;
  auto It = W.V.find(A.Idx);
  if (It == W.V.end()) return nullptr;
  int64_t Off = In.Offset, Off0 = In.Offset0, Off1 = In.Offset1;
  const std::string &M = In.Mnem;
  if (M.find("read2") != std::string::npos || M.find("write2") != std::string::npos) {
    int64_t Elem = M.find("_b64") != std::string::npos ? 8 : 4;
    int64_t Unit = Elem * (M.find("st64") != std::string::npos ? 64 : 1);
    Parts.push_back({std::max<int64_t>(0, Off0) * Unit, Elem});
    Parts.push_back({std::max<int64_t>(0, Off1) * Unit, Elem});
  } else {
    if (!In.BytesPerLane) return nullptr;
    Parts.push_back({Off, (int64_t)In.BytesPerLane});
  }
  return It->second.get();
}

} // namespace

LdsBytes ldsBytes(const WaveValues &W, const Inst &In) {
  LdsBytes B;
  if (In.LdsDma) return dmaBytes(W, In);
  // (start, size) of each part a lane touches
  std::vector<std::pair<int64_t, int64_t>> Parts;
  const VVal *Addr = dsAddress(W, In, Parts);
  if (!Addr) return B;
  std::vector<std::pair<uint32_t, uint32_t>> Iv;
  for (int L = 0; L < 64; ++L) {
    if (W.ExecKnown && !(W.Exec >> L & 1)) continue;
    for (auto &Pt : Parts) {
      int64_t Lo = (int64_t)Addr->L[L] + Pt.first, Hi = Lo + Pt.second;
      if (Lo < 0 || Hi > (int64_t)UINT32_MAX) return B;
      Iv.push_back({(uint32_t)Lo, (uint32_t)Hi});
    }
  }
  mergeIntervals(Iv, B);
  return B;
}

// The lane addresses of an LDS access: ds_*: the address VGPR's lanes plus
// each part's offset (32-bit wrap, as the hardware adds); LDS DMA: M0 +
// offset + lane x size (a dword per lane below 4 bytes), as dmaBytes counts.
LdsLanes ldsLanes(const WaveValues &W, const Inst &In) {
  LdsLanes R;
  R.ExecKnown = W.ExecKnown;
  R.Exec = W.ExecKnown ? W.Exec : ~0ull;
  R.M0Known = W.M0Known;
  R.M0 = W.M0;
  if (In.LdsDma) {
    if (!W.M0Known || !In.BytesPerLane) return R;
    uint32_t Stride = std::max(4u, In.BytesPerLane);
    R.Width = In.BytesPerLane;
    R.Parts.emplace_back();
    for (int L = 0; L < 64; ++L) R.Parts[0][L] = W.M0 + (uint32_t)In.Offset + L * Stride;
    R.Known = true;
    return R;
  }
  std::vector<std::pair<int64_t, int64_t>> Parts;
  const VVal *Addr = dsAddress(W, In, Parts);
  if (!Addr) return R;
  R.Width = (unsigned)Parts[0].second;
  for (auto &Pt : Parts) {
    R.Parts.emplace_back();
    for (int L = 0; L < 64; ++L) R.Parts.back()[L] = Addr->L[L] + (uint32_t)Pt.first;
  }
  R.Known = true;
  return R;
}

} // namespace ppsim
