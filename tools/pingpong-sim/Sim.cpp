//===- Sim.cpp - the cycle model of one CDNA compute unit -----------------===//
//
// Clock-stepped model of one CU (docs/cycle-model.md has the rules and the
// parameter table; Params.h holds the numbers). Per clock t the SIMD t % 4 has
// its issue turn. At a turn the SIMD's waves are visited by priority
// (s_setprio, then age); each wave issues at most one instruction and each
// category (VALU+MFMA, VMEM, SALU+SMEM, LDS, branch) at most once per turn.
//
//===----------------------------------------------------------------------===//
#include "Sim.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <set>

namespace ppsim {

const char *stallName(int S) {
  switch (S) {
  case StVmcnt: return "waitcnt vmcnt";
  case StLgkmcnt: return "waitcnt lgkmcnt";
  case StBarrier: return "barrier";
  case StMfmaBusy: return "MFMA pipe busy";
  case StDependency: return "dependency";
  case StArbHigher: return "lost arbitration (higher priority)";
  case StArbOlder: return "lost arbitration (older wave)";
  case StNop: return "s_nop/s_sleep";
  case StValuBlocked: return "VALU blocked by non-coexec MFMA";
  }
  return "?";
}

const char *stallKey(int S) {
  switch (S) {
  case StVmcnt: return "waitcnt_vmcnt";
  case StLgkmcnt: return "waitcnt_lgkmcnt";
  case StBarrier: return "barrier";
  case StMfmaBusy: return "mfma_pipe_busy";
  case StDependency: return "dependency";
  case StArbHigher: return "lost_arbitration_priority";
  case StArbOlder: return "lost_arbitration_age";
  case StNop: return "nop_sleep";
  case StValuBlocked: return "valu_blocked_by_mfma";
  }
  return "unknown";
}

namespace {

// ---------------------------------------------------------------- operands
// Value operands come from the MCInst (InstrBuilder): Inst::Vals.
using Opnd = Operand;

// The kernarg segment pointer the model gives a kernel: high dword KernargHi,
// low dword 0 (s_load from it reads the known argument bytes).
const uint32_t KernargHi = 0x7f4b4100;

struct VVal {
  std::array<uint32_t, 64> L;
};

// ---------------------------------------------------------------- wave state
struct Wave {
  int Wg = 0, Id = 0, Gid = 0, Simd = 0;
  unsigned Pc = 0;
  int Prio = 0;
  bool Done = false;
  int64_t NotBefore = 0;
  int NotBeforeWhy = StNop;
  int BarrierCount = 0;
  bool AtBarrier = false;
  std::vector<int64_t> Vm, Lgkm; // completion times of outstanding ops
  int64_t LastVmDone = 0, LastLdsDone = 0;
  std::vector<int64_t> Ready; // per register unit
  // values: copy-on-write lane vectors (a VALU result is a new VVal), so a
  // wave's value state can be copied cheaply (the path search snapshots it)
  std::map<unsigned, std::shared_ptr<const VVal>> V;
  std::map<unsigned, uint32_t> S;
  bool ExecKnown = true, VccKnown = false;
  uint64_t Exec = ~0ull, Vcc = 0;
  bool M0Known = false; // unknown at entry (the kernel sets it before an LDS DMA)
  uint32_t M0 = 0;
  int Scc = -1;
  // the last exec value known before an s_*_saveexec made it unknown: a
  // data-dependent exec branch that enters the guarded code assumes every
  // lane that was active before the guard still is (a uniform condition)
  bool ExecSavedKnown = false;
  uint64_t ExecSaved = 0;
  const std::vector<int16_t> *Kernarg = nullptr; // known kernarg bytes (-1: unknown)
  std::map<int64_t, std::shared_ptr<const VVal>> Scratch; // spill slots (scratch offset -> lanes)
  // hot-loop control (Flow): iterations counted at the header, at most N
  int Iters = 0, Visits = 0, VisitPasses = 0, VisitTarget = 0;
  bool InLoop = false, Exited = false;
  std::vector<char> Plan;  // free decisions of data-dependent branches, in order
  size_t PlanPos = 0;
  std::string Why;         // why the loop was left early / not reached
  int LastBranch = -1;     // pc of the last branch executed
  bool LastBranchKnown = false;
  int64_t Issued = 0;
  std::vector<std::pair<int64_t, unsigned>> Events; // issue time, pc
  WaveResult R;

  // --- values
  bool getS(unsigned I, uint32_t &X) const {
    auto It = S.find(I);
    if (It == S.end()) return false;
    X = It->second;
    return true;
  }
  void setS(unsigned I, bool K, uint32_t X) {
    if (K) S[I] = X; else S.erase(I);
  }
  bool get32(const Opnd &O, int Lane, uint32_t &X) const {
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
  bool get64(const Opnd &O, uint64_t &X) const {
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
  void set32(const Opnd &O, bool K, uint32_t X) {
    if (O.K == Opnd::S) setS(O.Idx, K, X);
    else if (O.K == Opnd::M0) { M0Known = K; M0 = X; }
  }
  void set64(const Opnd &O, bool K, uint64_t X) {
    switch (O.K) {
    case Opnd::S: setS(O.Idx, K, (uint32_t)X); setS(O.Idx + 1, K, (uint32_t)(X >> 32)); break;
    case Opnd::Vcc: VccKnown = K; Vcc = X; break;
    case Opnd::Exec: ExecKnown = K; Exec = X; break;
    default: break;
    }
  }
  void clobber(const Opnd &O) {
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
};

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
  else if (M == "v_lshl_add_u64") return false;
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
template <typename LaneFn> void writeLanes(Wave &W, const Opnd &Dst, LaneFn Lane) {
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

bool execValues(Wave &W, const Inst &I) {
  const std::string &M = I.Mnem;
  const std::vector<Operand> &O = I.Vals;
  auto Src = [&](size_t K) { return K < O.size() ? O[K] : Opnd(); };
  std::string CmpOp;
  bool Signed = false;

  if (I.C == Cat::VMEM && M.compare(0, 8, "scratch_") == 0 && !I.LdsDma && !O.empty()) {
    // register spills: scratch_store/load with no address register
    // (scratch_*_ST: "off, off offset:N"): the wave's private slot at the
    // immediate offset keeps the lanes' values (every lane active), so an
    // LDS address that was spilled and reloaded stays known
    bool Store = M.compare(0, 14, "scratch_store_") == 0, Load = M.compare(0, 13, "scratch_load_") == 0;
    bool VAddr = I.Scratch == ScratchAddr::VAddr || I.Scratch == ScratchAddr::VAddrSAddr;
    const Opnd &Data = Store && VAddr && O.size() > 1 ? O[1] : O[0];
    bool Plain = I.Scratch == ScratchAddr::None && Data.K == Opnd::V && (M.find("dword") != std::string::npos);
    int64_t Off = I.Offset;
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
    if (Load) {
      for (unsigned D = 0; D < Data.N; ++D) {
        auto It = Plain ? W.Scratch.find(Off + 4 * D) : W.Scratch.end();
        if (It != W.Scratch.end() && W.ExecKnown && W.Exec == ~0ull) W.V[Data.Idx + D] = It->second;
        else W.V.erase(Data.Idx + D);
      }
      return true;
    }
    return false;
  }

  if (I.C == Cat::SMEM) {
    // s_load_dword* from the kernarg segment: the bytes the user gave (--arg)
    // and the hidden arguments the model knows; anything else is unknown
    // (s_load_dword* sdst, sbase, [soffset] [offset])
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

  if (I.C == Cat::VALU) {
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

  if (I.C == Cat::SALU) {
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
  return false;
}

// Marks every destination of an instruction whose values are not modelled as unknown.
void clobberDefs(Wave &W, const Inst &I) {
  for (unsigned K = 0; K < I.NumValDefs && K < I.Vals.size(); ++K)
    W.clobber(I.Vals[K]);
  if (I.DefsScc) W.Scc = -1;
  if (I.DefsVcc) W.VccKnown = false;
  if (I.DefsExec) W.ExecKnown = false;
}

// The values of one instruction (execValues, else its destinations become
// unknown); remembers the last known exec when it becomes unknown.
void applyValues(Wave &W, const Inst &I) {
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
int branchCond(const Wave &W, const Inst &In) {
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
void assumeCond(Wave &W, const Inst &In, bool Taken) {
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

// ---------------------------------------------------------------- control flow
// The kernel's CFG (basic blocks over its instruction range), the hot loop as
// a natural loop (the blocks that reach one of its back-edges without passing
// its header), and the rules that steer each wave through it:
//  - a conditional back-edge of the hot loop is forced: taken while the
//    current visit has iterations left (--iterations, at most
//    --iterations-per-visit per entry from outside);
//  - another branch that leaves the hot loop, on an unknown condition, stays
//    in the loop while iterations are left; an exit test before the body's
//    first MFMA (in the header: "while (k < K) {...}") exits on the pass after
//    the last iteration, one after it at the end of that iteration;
//  - a back-edge of a loop around the hot loop (persistent GEMM: outer loop
//    over tiles) is not taken once the hot loop ran its iterations;
//  - any other branch on an unknown condition (kernel arguments, loaded
//    values) is a free decision: the direction from which the hot loop's
//    header (after its iterations: the kernel's end, not through the header)
//    can still be reached; where both can, the path search (planWave) picks.
struct Flow {
  const std::vector<Inst> &I;
  unsigned Begin = 0, End = 0;
  bool HasLoop = false;
  unsigned LB = ~0u, BE = ~0u;
  int N = 1, PerVisit = 1;
  std::vector<int> BlockOf;          // pc - Begin -> block
  std::vector<unsigned> BStart, BLast;
  std::vector<std::vector<int>> Succ, Pred;
  std::vector<char> BodyB;           // per block: in the hot loop
  std::vector<char> ReachLoop, ReachEnd; // per block
  std::vector<int> DistLoop, DistEnd;    // per block: blocks on the shortest path (ReachLoop / ReachEnd)
  std::vector<char> TopExit;             // per pc - Begin
  std::set<std::pair<int, int>> OuterEdges; // block edges that go back around a loop enclosing the hot loop
  std::vector<std::pair<int, int>> BackEdges; // CFG back-edges (depth-first search from the entry)

  explicit Flow(const std::vector<Inst> &I) : I(I) {}
  int blockOf(unsigned Pc) const { return Pc >= Begin && Pc < End ? BlockOf[Pc - Begin] : -1; }
  bool inBody(unsigned Pc) const { int B = blockOf(Pc); return HasLoop && B >= 0 && BodyB[B]; }
  int targetOf(unsigned Pc) const {
    int T = I[Pc].Target;
    return T >= (int)Begin && T < (int)End ? T : -1;
  }

  void build(unsigned B0, unsigned E0) {
    Begin = B0; End = E0;
    std::vector<char> Leader(End - Begin + 1, 0);
    Leader[0] = 1;
    for (unsigned P = Begin; P < End; ++P) {
      const Inst &In = I[P];
      if (In.C == Cat::Branch || In.In == Internal::Endpgm) {
        Leader[P + 1 - Begin] = 1;
        int T = targetOf(P);
        if (T >= 0) Leader[T - Begin] = 1;
      }
    }
    BlockOf.assign(End - Begin, -1);
    for (unsigned P = Begin; P < End; ++P) {
      if (Leader[P - Begin]) { BStart.push_back(P); BLast.push_back(P); }
      BlockOf[P - Begin] = (int)BStart.size() - 1;
      BLast.back() = P;
    }
    size_t NB = BStart.size();
    Succ.assign(NB, {});
    Pred.assign(NB, {});
    for (size_t B = 0; B < NB; ++B) {
      const Inst &L = I[BLast[B]];
      bool Fall = L.In != Internal::Endpgm && !(L.C == Cat::Branch && !L.Conditional);
      if (L.C == Cat::Branch) {
        int T = targetOf(BLast[B]);
        if (T >= 0) Succ[B].push_back(blockOf(T));
      }
      if (Fall && BLast[B] + 1 < End) Succ[B].push_back(blockOf(BLast[B] + 1));
      for (int S : Succ[B]) Pred[S].push_back((int)B);
    }
    // back-edges: CFG edges to a block on the depth-first search stack
    std::vector<int> Color(NB, 0), Stack{0}, Next(NB, 0);
    Color[0] = 1;
    while (!Stack.empty()) {
      int B = Stack.back();
      if (Next[B] < (int)Succ[B].size()) {
        int S = Succ[B][Next[B]++];
        if (Color[S] == 1) BackEdges.push_back({B, S});
        else if (Color[S] == 0) { Color[S] = 1; Stack.push_back(S); }
      } else { Color[B] = 2; Stack.pop_back(); }
    }
  }

  // the natural loop of header block S: S and the blocks that reach one of
  // its back-edges without passing S
  std::vector<char> naturalLoop(int S) const {
    std::vector<int> Src;
    for (auto &E : BackEdges) if (E.second == S) Src.push_back(E.first);
    std::vector<char> L = backReach(Src, S);
    L[S] = 1;
    return L;
  }

  // The CFG header of the loop that a branch back to an earlier label closes:
  // usually that label; in LLVM's rotated layout (body blocks placed before
  // the header, entered by an s_branch to the header and closed by a
  // fall-through into it) the header of the innermost natural loop that
  // contains both.
  unsigned cfgHeader(unsigned Latch, unsigned TextHeader) const {
    int LBk = blockOf(Latch), TH = blockOf(TextHeader);
    int Best = -1;
    size_t BestSize = SIZE_MAX;
    std::set<int> Heads;
    for (auto &E : BackEdges) Heads.insert(E.second);
    for (int S : Heads) {
      std::vector<char> L = naturalLoop(S);
      if (!L[LBk] || !L[TH]) continue;
      size_t Sz = std::count(L.begin(), L.end(), 1);
      if (Sz < BestSize || (Sz == BestSize && S == TH)) { Best = S; BestSize = Sz; }
    }
    return Best < 0 ? TextHeader : BStart[Best];
  }

  // blocks that reach one of the sources without passing Stop (Stop itself
  // included when it is a source's target: a natural loop)
  std::vector<char> backReach(const std::vector<int> &From, int Stop) const {
    std::vector<char> Seen(BStart.size(), 0);
    std::vector<int> Work;
    for (int F : From) if (F >= 0 && F != Stop && !Seen[F]) { Seen[F] = 1; Work.push_back(F); }
    while (!Work.empty()) {
      int B = Work.back();
      Work.pop_back();
      for (int P : Pred[B])
        if (P != Stop && !Seen[P]) { Seen[P] = 1; Work.push_back(P); }
    }
    return Seen;
  }

  // shortest number of blocks from each block to one of the targets, not
  // through Stop (INT_MAX: unreachable)
  std::vector<int> dist(const std::vector<int> &To, int Stop) const {
    std::vector<int> D(BStart.size(), INT32_MAX);
    std::vector<int> Q;
    for (int T : To) if (T >= 0 && D[T] == INT32_MAX) { D[T] = 0; Q.push_back(T); }
    for (size_t H = 0; H < Q.size(); ++H)
      for (int P : Pred[Q[H]])
        if (P != Stop && D[P] == INT32_MAX) { D[P] = D[Q[H]] + 1; Q.push_back(P); }
    return D;
  }

  void setLoop(unsigned L, unsigned Be) {
    HasLoop = true; LB = L; BE = Be;
    int H = blockOf(LB);
    std::vector<int> Latches;
    for (unsigned P = LB; P < End; ++P)
      if (I[P].C == Cat::Branch && targetOf(P) == (int)LB) Latches.push_back(blockOf(P));
    for (auto &E : BackEdges) if (E.second == H) Latches.push_back(E.first);
    BodyB = backReach(Latches, H);
    BodyB[H] = 1;
    if (getenv("PPSIM_DEBUG_LOOP")) // the loop's blocks
      for (size_t B = 0; B < BodyB.size(); ++B)
        if (BodyB[B]) fprintf(stderr, "loop block %zu: lines %u-%u\n", B, I[BStart[B]].Line, I[BLast[B]].Line);
    // reach the header
    ReachLoop = backReach({H}, -1);
    ReachLoop[H] = 1;
    DistLoop = dist({H}, -1);
    // exits: branches of the body with a successor outside it
    TopExit.assign(End - Begin, 0);
    bool Mfma = false;
    for (unsigned Q = 0; Q < End - Begin; ++Q) { // from the header on, in layout order
      unsigned P = LB + Q < End ? LB + Q : LB + Q - (End - Begin);
      if (!inBody(P)) continue;
      if (I[P].C == Cat::MFMA) Mfma = true;
      if (I[P].C == Cat::Branch && !Mfma) TopExit[P - Begin] = 1;
    }
    // back-edges of loops around the hot loop: CFG edges B -> S to a block on
    // the depth-first search stack whose natural loop contains the header
    // (the outer loop's latch may branch out and fall through back)
    for (auto &E : BackEdges) {
      if (E.second == H) continue;
      std::vector<char> Body = backReach({E.first}, E.second);
      Body[E.second] = 1;
      if (Body[H]) OuterEdges.insert(E);
    }
  }

  void setEnds() {
    std::vector<int> Ends;
    for (size_t B = 0; B < BStart.size(); ++B)
      if (I[BLast[B]].In == Internal::Endpgm || (Succ[B].empty() && !(I[BLast[B]].C == Cat::Branch)))
        Ends.push_back((int)B);
    int H = HasLoop ? blockOf(LB) : -1;
    ReachEnd = backReach(Ends, H);
    for (int E : Ends) if (E != H) ReachEnd[E] = 1;
    std::vector<int> E2;
    for (int E : Ends) if (E != H) E2.push_back(E);
    DistEnd = dist(E2, H);
  }

  bool done(const Wave &W) const { return !HasLoop || W.Iters >= N; }
  // can the wave, at Pc, still get where it has to go?
  bool viable(const Wave &W, unsigned Pc) const {
    int B = blockOf(Pc);
    if (B < 0) return done(W); // ran past the kernel's end
    if (!done(W)) return ReachLoop[B];
    return (W.InLoop && BodyB[B]) || ReachEnd[B];
  }

  enum Kind { Known, Forced, Free };
  // The direction of the conditional branch at Pc. Free decisions where both
  // directions are viable set Both (the caller picks: plan, search, default).
  bool decide(const Wave &W, unsigned Pc, int C, Kind &K, bool &Both) const {
    const Inst &In = I[Pc];
    Both = false;
    K = Known;
    if (!In.Conditional) return true;
    int T = targetOf(Pc);
    unsigned F = Pc + 1;
    if (HasLoop && inBody(Pc)) {
      if (T == (int)LB) { K = Forced; return W.VisitPasses < W.VisitTarget; } // back-edge: trip count
      bool TIn = T >= 0 && inBody(T), FIn = inBody(F);
      if (TIn != FIn && C < 0) {
        K = Forced;
        bool Stay = TopExit[Pc - Begin] ? W.VisitPasses <= W.VisitTarget : W.VisitPasses < W.VisitTarget;
        return Stay == TIn;
      }
    }
    if (HasLoop && done(W) && !inBody(Pc)) {
      // after the iterations, a loop around the hot loop (persistent GEMM)
      // is not followed back into it, whatever its condition says
      int B = blockOf(Pc);
      bool OT = T >= 0 && OuterEdges.count({B, blockOf(T)}), OF = F < End && OuterEdges.count({B, blockOf(F)});
      if (OT != OF) { K = Forced; return OF; }
      bool RT = T >= 0 && ReachEnd[blockOf(T)], RF = F < End && ReachEnd[blockOf(F)];
      if (RT != RF) { K = Forced; return RT; }
    }
    if (C >= 0) return C;
    K = Free;
    bool VT = T >= 0 && viable(W, T), VF = F < End && viable(W, F);
    if (VT && VF) {
      // both: the fall-through, where LLVM lays out the guarded code (the
      // prologue's loads, the epilogue's last K steps), so it is executed
      // and checked; the path search revises it when it leads nowhere
      Both = true;
      return false;
    }
    return VT && !VF;
  }
  // The direction with the shorter way to the goal (the path search uses it
  // to leave a loop it keeps going round on unknown data).
  bool shorter(const Wave &W, unsigned Pc) const {
    const std::vector<int> &D = done(W) ? DistEnd : DistLoop;
    int T = targetOf(Pc);
    if (D.empty() || T < 0) return false;
    return D[blockOf(T)] < D[blockOf(Pc + 1)];
  }

  // After the wave issued Pc and goes to Next: iteration bookkeeping.
  void advance(Wave &W, unsigned Pc, unsigned Next, int64_t T, int64_t Turn) const {
    if (!HasLoop) return;
    if (Pc == LB) {
      if (!W.InLoop) {
        W.InLoop = true;
        ++W.Visits;
        W.VisitPasses = 0;
        W.VisitTarget = std::max(0, std::min(PerVisit, N - W.Iters));
      }
      ++W.VisitPasses;
      if (W.VisitPasses <= W.VisitTarget && W.Iters < N) { ++W.Iters; W.R.IterStart.push_back(T); }
    }
    if (W.InLoop && inBody(Pc) && !inBody(Next)) {
      W.InLoop = false;
      if (W.Iters >= N && !W.Exited) {
        W.Exited = true;
        // time of leaving the loop = next issue; recorded as the issue time + one turn lower bound
        W.R.IterStart.push_back(T + Turn);
      } else if (W.Iters < N && W.VisitPasses < W.VisitTarget) {
        const Inst &In = I[Pc];
        W.Why = "it left the loop at line " + std::to_string(In.Line) + " '" + In.Text + "' after " +
                std::to_string(W.VisitPasses) + " iteration(s) of visit " + std::to_string(W.Visits) +
                (W.LastBranch == (int)Pc && W.LastBranchKnown ? " (the model knows the branch's condition)" : "");
      }
    }
  }
};

// The path search: runs one wave's values alone (no timing) through the
// kernel with the Flow rules and returns the directions of its free
// decisions, in order. Where both directions of a data-dependent branch can
// still reach the target, it tries the fall-through first and, if the wave
// later reaches a place from which the hot loop (after the loop: the end)
// can no longer be reached -- e.g. a second branch on a flag the first one's
// path set -- it goes back to the latest such branch and takes the other way.
// Returns false (with Why) when no path runs the loop's iterations to the end.
bool planWave(const Flow &F, const Wave &W0, long Budget, std::vector<char> &Plan, std::string &Why) {
  struct Frame { Wave S; size_t PlanLen; unsigned Pc; bool Done; bool First; };
  std::vector<Frame> St;
  Wave W = W0;
  unsigned Pc = W.Pc;
  int Forced = -1; // the alternative direction after a backtrack
  std::map<std::pair<unsigned, bool>, int> Seen; // two-way decisions per branch and phase
  long Steps = 0;
  int Backtracks = 0;
  Plan.clear();
  auto DeadWhy = [&](unsigned At) {
    if (!Why.empty()) return;
    std::string S = "no path found: ";
    if (W.LastBranch >= 0) {
      const Inst &B = F.I[W.LastBranch];
      S += "the branch at line " + std::to_string(B.Line) + " '" + B.Text + "'" +
           (W.LastBranchKnown ? " (its condition is known to the model)" : " (data-dependent)") + " leads to ";
    } else S += "the wave reaches ";
    S += At < F.End ? "line " + std::to_string(F.I[At].Line) : std::string("the kernel's end");
    S += F.done(W) ? ", from where the kernel's end cannot be reached"
                   : ", from where the loop cannot be reached";
    Why = S;
  };
  while (true) {
    bool Dead = false;
    if (++Steps > Budget) { if (Why.empty()) Why = "the path search gave up after " + std::to_string(Budget) + " instructions"; return false; }
    if (Pc >= F.End) {
      if (F.done(W)) return true;
      Dead = true;
    } else {
      const Inst &In = F.I[Pc];
      unsigned Next = Pc + 1;
      if (In.In == Internal::Endpgm) {
        if (F.done(W)) return true;
        Dead = true;
      } else if (In.C != Cat::Internal) {
        if (In.C == Cat::Unknown && (In.Mnem.find("setpc") != std::string::npos || In.Mnem.find("swappc") != std::string::npos)) {
          Why = "line " + std::to_string(In.Line) + ": indirect branch '" + In.Text + "' cannot be followed";
          return false;
        }
        applyValues(W, In);
        if (In.C == Cat::Branch) {
          int C = branchCond(W, In);
          Flow::Kind K;
          bool Both;
          bool Taken = F.decide(W, Pc, C, K, Both);
          if (K == Flow::Free) {
            if (Forced >= 0) { Taken = Forced; Forced = -1; }
            else if (Both) {
              // a branch decided over and over (a loop on unknown data that
              // is not the hot loop): take the shorter way to the goal
              if (++Seen[{Pc, F.done(W)}] > 16) Taken = F.shorter(W, Pc);
              St.push_back({W, Plan.size(), Pc, F.done(W), Taken});
            }
            Plan.push_back(Taken);
          }
          if (C < 0) assumeCond(W, In, Taken);
          W.LastBranch = (int)Pc;
          W.LastBranchKnown = C >= 0;
          if (Taken) {
            if (In.Target < 0) { Why = "line " + std::to_string(In.Line) + ": branch target '" + In.TargetLabel + "' not found"; return false; }
            Next = In.Target;
          }
        }
      }
      if (!Dead) {
        F.advance(W, Pc, Next, 0, 0);
        Pc = Next;
        Dead = !F.viable(W, Pc);
      }
    }
    if (!Dead) continue;
    DeadWhy(Pc);
    // back to the latest two-way decision of the same phase
    bool DoneNow = F.done(W);
    while (!St.empty() && St.back().Done != DoneNow && DoneNow) St.pop_back();
    if (St.empty() && DoneNow) { Why.clear(); return true; } // the loop ran: the rest uses the default rule
    if (St.empty() || ++Backtracks > 256) return false;
    Frame Fr = std::move(St.back());
    St.pop_back();
    W = std::move(Fr.S);
    Pc = Fr.Pc;
    Plan.resize(Fr.PlanLen);
    Forced = !Fr.First; // the other direction than the one tried first
    // re-run the branch instruction itself with the alternative
    W.LastBranch = -1;
    // (values of a branch: none; the loop above re-applies it)
  }
}

int catSlot(Cat C) {
  switch (C) {
  case Cat::VALU: case Cat::MFMA: return 0;
  case Cat::VMEM: return 1;
  case Cat::SALU: case Cat::SMEM: case Cat::Unknown: return 2;
  case Cat::LDS: return 3;
  case Cat::Branch: return 4;
  default: return -1;
  }
}

int64_t countAfter(std::vector<int64_t> &V, int64_t T) {
  V.erase(std::remove_if(V.begin(), V.end(), [&](int64_t X) { return X <= T; }), V.end());
  return (int64_t)V.size();
}

// Sorts and merges the lane intervals into B (Known).
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
LdsBytes dmaBytes(const Wave &W, const Inst &In) {
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

// The LDS bytes an LDS instruction (or LDS DMA) of wave W touches, from the
// address operand's known lane values and the immediate offsets (LDS DMA:
// from M0, dmaBytes).
LdsBytes ldsBytes(const Wave &W, const Inst &In) {
  LdsBytes B;
  if (In.LdsDma) return dmaBytes(W, In);
  if (In.NumValDefs >= In.Vals.size()) return B;
  const Opnd &A = In.Vals[In.NumValDefs];
  if (A.K != Opnd::V || A.N != 1) return B;
  auto It = W.V.find(A.Idx);
  if (It == W.V.end()) return B;
  int64_t Off = In.Offset, Off0 = In.Offset0, Off1 = In.Offset1;
  // (start, size) of each part a lane touches
  std::vector<std::pair<int64_t, int64_t>> Parts;
  const std::string &M = In.Mnem;
  if (M.find("read2") != std::string::npos || M.find("write2") != std::string::npos) {
    int64_t Elem = M.find("_b64") != std::string::npos ? 8 : 4;
    int64_t Unit = Elem * (M.find("st64") != std::string::npos ? 64 : 1);
    Parts.push_back({std::max<int64_t>(0, Off0) * Unit, Elem});
    Parts.push_back({std::max<int64_t>(0, Off1) * Unit, Elem});
  } else {
    if (!In.BytesPerLane) return B;
    Parts.push_back({Off, (int64_t)In.BytesPerLane});
  }
  std::vector<std::pair<uint32_t, uint32_t>> Iv;
  for (int L = 0; L < 64; ++L) {
    if (W.ExecKnown && !(W.Exec >> L & 1)) continue;
    for (auto &Pt : Parts) {
      int64_t Lo = (int64_t)It->second->L[L] + Pt.first, Hi = Lo + Pt.second;
      if (Lo < 0 || Hi > (int64_t)UINT32_MAX) return B;
      Iv.push_back({(uint32_t)Lo, (uint32_t)Hi});
    }
  }
  mergeIntervals(Iv, B);
  return B;
}

} // namespace

static std::string formatCpi(int G, double C) {
  char Buf[64];
  snprintf(Buf, sizeof Buf, " wg%d %.1f", G, C);
  return Buf;
}

double l2ReuseRule(long M, long N, long BM, long BN, std::string &Why) {
  // Fraction of A bytes that miss: each A tile is re-read by N/BN workgroups,
  // only the first read misses. Likewise B with M/BM.
  double MissA = std::min(1.0, (double)BN / N), MissB = std::min(1.0, (double)BM / M);
  double Miss = (BM * MissA + BN * MissB) / (double)(BM + BN);
  char Buf[512];
  snprintf(Buf, sizeof Buf,
           "gemm %ldx%ld, tile %ldx%ld: A tile read by N/BN = %.4g workgroups, B tile by M/BM = %.4g; "
           "miss = (BM*BN/N + BN*BM/M)/(BM+BN) = (%ld*%.6g + %ld*%.6g)/%ld = %.6g, L2 hit rate %.6g",
           M, N, BM, BN, (double)N / BN, (double)M / BM, BM, MissA, BN, MissB, BM + BN, Miss, 1 - Miss);
  Why = Buf;
  return 1 - Miss;
}

bool simulate(const Program &P, const SimOptions &O, SimResult &R, std::string &Err) {
  const TargetParams &TP = paramsFor(P.Mcpu);
  // ---- kernel
  const KernelInfo *K = nullptr;
  if (!O.Kernel.empty()) {
    for (auto &KI : P.Kernels)
      if (KI.Name == O.Kernel) K = &KI;
    if (!K) {
      Err = "kernel '" + O.Kernel + "' not found; kernels in " + P.File + ":";
      for (auto &KI : P.Kernels) Err += " " + KI.Name;
      return false;
    }
  } else {
    K = &P.Kernels[0];
  }
  R.Kernel = K->Name;
  R.Mcpu = P.Mcpu;
  const auto &I = P.Insts;

  // ---- hot loop: innermost back-edge whose body has MFMAs
  int BestBE = -1, BestLen = 1 << 30;
  for (unsigned J = K->Begin; J < K->End; ++J) {
    if (I[J].C != Cat::Branch || I[J].Target < (int)K->Begin || I[J].Target > (int)J) continue;
    unsigned H = I[J].Target;
    int Mf = 0;
    for (unsigned X = H; X <= J; ++X) Mf += I[X].C == Cat::MFMA;
    if (!O.Loop.empty()) {
      if (I[J].TargetLabel == O.Loop && (BestBE < 0 || (int)J > BestBE)) BestBE = J;
      continue;
    }
    if (Mf > 0 && (int)(J - H) < BestLen) { BestLen = J - H; BestBE = J; }
  }
  const bool NoLoop = BestBE < 0 && O.Trace && O.Loop.empty();
  if (BestBE < 0 && !NoLoop) {
    if (!O.Loop.empty())
      Err = "no back-edge branch to label '" + O.Loop + "' in kernel " + K->Name;
    else
      Err = "no loop containing MFMA instructions in kernel " + K->Name + " (lines " +
            std::to_string(I[K->Begin].Line) + "-" + std::to_string(I[K->End - 1].Line) +
            "); use --loop LABEL to pick a loop";
    return false;
  }
  // Without a loop (verify only) LB = BE = UINT_MAX: no instruction is in the
  // body, no branch is forced.
  const int N = std::max(1, O.Iterations);
  Flow F(I);
  F.build(K->Begin, K->End);
  const unsigned BE = NoLoop ? ~0u : (unsigned)BestBE,
                 LB = NoLoop ? ~0u : F.cfgHeader(BE, (unsigned)I[BE].Target);
  R.HasLoop = !NoLoop;
  if (!NoLoop) {
    R.LoopLabel = I[BE].TargetLabel;
    if (LB != (unsigned)I[BE].Target)
      for (auto &KV : P.Labels)
        if (KV.second == LB && (R.LoopLabel == I[BE].TargetLabel || KV.first.compare(0, 4, ".LBB") == 0)) R.LoopLabel = KV.first;
    R.LoopBegin = LB; R.LoopEnd = BE;
    R.LoopLineBegin = I[LB].Line; R.LoopLineEnd = I[BE].Line;
  }
  F.N = N;
  F.PerVisit = O.IterationsPerVisit > 0 ? std::min(O.IterationsPerVisit, N) : N;
  if (!NoLoop) {
    F.setLoop(LB, BE);
    bool Exit = false;
    for (unsigned X = K->Begin; X < K->End; ++X) {
      if (!F.inBody(X) || I[X].C != Cat::Branch) continue;
      int T = F.targetOf(X);
      if ((I[X].Conditional && !F.inBody(X + 1)) || (T >= 0 && !F.inBody(T)) || T < 0) Exit = true;
    }
    if (!Exit) {
      Err = "loop " + R.LoopLabel + " (line " + std::to_string(I[BE].Line) + ") has no branch that leaves it";
      return false;
    }
  }
  F.setEnds();
  R.LoopBody.assign(I.size(), 0);
  for (unsigned X = K->Begin; X < K->End; ++X) R.LoopBody[X] = F.inBody(X);
  for (unsigned X = K->Begin; !NoLoop && X < K->End; ++X) R.MfmasPerIter += F.inBody(X) && I[X].C == Cat::MFMA;
  // clusters: the loop's instructions in layout order from the header (a
  // rotated loop's blocks before the header come last)
  std::vector<int> ClusterOf(I.size(), -1);
  const unsigned KLen = K->End - K->Begin;
  for (unsigned Q = 0; !NoLoop && Q < KLen; ++Q) {
    unsigned X = LB + Q < K->End ? LB + Q : LB + Q - KLen;
    if (!F.inBody(X)) continue;
    if (X == LB || I[X].ClusterStart) {
      ClusterInfo C; C.Begin = X; C.End = X + 1;
      R.Clusters.push_back(C);
    }
    auto &C = R.Clusters.back();
    C.End = X + 1;
    ClusterOf[X] = (int)R.Clusters.size() - 1;
    C.Mfmas += I[X].C == Cat::MFMA; C.Lds += I[X].C == Cat::LDS; C.Vmem += I[X].C == Cat::VMEM;
    C.Valu += I[X].C == Cat::VALU; C.Salu += I[X].C == Cat::SALU || I[X].C == Cat::SMEM;
  }
  for (size_t C = 0; C < R.Clusters.size(); ++C) {
    auto &CI = R.Clusters[C];
    const Inst &F = I[CI.Begin];
    std::string L = "C" + std::to_string(C) + "@" + std::to_string(F.Line);
    if (F.Mnem == "s_setprio") L += " prio" + std::to_string(F.Imm);
    else if (F.Mnem == "s_barrier") L += " barrier";
    std::string Parts;
    auto Add = [&](int N, const char *S) { if (N) Parts += " " + std::to_string(N) + S; };
    Add(CI.Mfmas, "mfma"); Add(CI.Lds, "ds"); Add(CI.Vmem, "vmem"); Add(CI.Valu, "valu"); Add(CI.Salu, "salu");
    CI.Label = L + Parts;
  }

  // ---- workgroup shape (precedence: flags > .reqd_workgroup_size > .max_flat_workgroup_size > 8 waves)
  int Wgs = O.WorkgroupsPerCu > 0 ? O.WorkgroupsPerCu : 1;
  int WavesPerWg;
  if (O.WavesPerWorkgroup > 0) {
    WavesPerWg = O.WavesPerWorkgroup;
    R.WgSource = "--waves-per-workgroup";
  } else if (O.WavesPerSimd > 0) {
    int Total = TP.NumSimds * O.WavesPerSimd;
    if (Total % Wgs) { Err = "--waves-per-simd x 4 is not divisible by --workgroups-per-cu"; return false; }
    WavesPerWg = Total / Wgs;
    R.WgSource = "--waves-per-simd/--workgroups-per-cu";
  } else if (K->ReqdWG > 0) {
    WavesPerWg = (K->ReqdWG + 63) / 64;
    R.WgSource = ".reqd_workgroup_size metadata";
  } else if (K->MaxFlatWG > 0) {
    WavesPerWg = (K->MaxFlatWG + 63) / 64;
    R.WgSource = ".max_flat_workgroup_size metadata (upper bound, assumed launched)";
  } else {
    WavesPerWg = 8;
    R.WgSource = "default (8 waves: 2 per SIMD)";
  }
  if (WavesPerWg < 1 || WavesPerWg > 16) { Err = "waves per workgroup must be 1..16 (got " + std::to_string(WavesPerWg) + ")"; return false; }
  if (WavesPerWg * Wgs > TP.NumSimds * TP.MaxWavesPerSimd) { Err = "more than 32 waves on one CU"; return false; }
  R.WavesPerWg = WavesPerWg; R.Wgs = Wgs;
  R.WavesPerSimd = (WavesPerWg * Wgs + TP.NumSimds - 1) / TP.NumSimds;
  if (K->VgprCount > 0) {
    int Alloc = ((K->VgprCount + K->AgprCount + 7) / 8) * 8;
    int Fit = std::min(TP.MaxWavesPerSimd, TP.VgprsPerSimdLane / std::max(Alloc, 8));
    if (R.WavesPerSimd > Fit)
      R.Warnings.push_back("kernel uses " + std::to_string(Alloc) + " VGPRs: only " + std::to_string(Fit) +
                           " waves fit per SIMD, simulating " + std::to_string(R.WavesPerSimd));
  }
  R.Iterations = N;
  R.L2HitRate = O.L2HitRate;
  R.L2Rule = O.L2Rule;
  R.Warmup = N >= 8 ? N / 4 : (N >= 3 ? 1 : 0);
  // Steady state: from the start of iteration Warmup to the start of the last
  // iteration (header to header). With fewer than 3 iterations the loop exit is
  // the end mark.
  R.LastIter = N - 1 > R.Warmup ? N - 1 : N;

  // ---- waves
  size_t NumUnits = 0;
  for (auto &In : I) {
    for (unsigned U : In.DefUnits) NumUnits = std::max<size_t>(NumUnits, U + 1);
    for (unsigned U : In.UseUnits) NumUnits = std::max<size_t>(NumUnits, U + 1);
  }
  // ---- kernel arguments: the kernarg segment's known bytes
  auto Kernarg = std::make_shared<std::vector<int16_t>>();
  {
    size_t Size = std::max<size_t>(K->KernargSize, 256);
    for (auto &A : K->Args) Size = std::max<size_t>(Size, A.Offset + A.Size);
    Kernarg->assign(Size, -1);
    auto Put = [&](unsigned Off, unsigned Bytes, uint64_t V) {
      for (unsigned B = 0; B < Bytes && B < 8 && Off + B < Kernarg->size(); ++B) (*Kernarg)[Off + B] = (V >> (8 * B)) & 0xff;
    };
    // hidden arguments the model knows: the workgroup size (1-D), 1 grid dimension
    for (auto &A : K->Args) {
      if (A.ValueKind == "hidden_group_size_x") Put(A.Offset, A.Size, (uint64_t)WavesPerWg * 64);
      else if (A.ValueKind == "hidden_group_size_y" || A.ValueKind == "hidden_group_size_z") Put(A.Offset, A.Size, 1);
      else if (A.ValueKind == "hidden_remainder_x" || A.ValueKind == "hidden_remainder_y" ||
               A.ValueKind == "hidden_remainder_z") Put(A.Offset, A.Size, 0);
      else if (A.ValueKind == "hidden_grid_dims") Put(A.Offset, A.Size, 1);
    }
    for (auto &NV : O.Args) {
      const KernArg *Hit = nullptr;
      for (auto &A : K->Args) if (!A.Name.empty() && A.Name == NV.first) Hit = &A;
      unsigned Off = 0, Bytes = 4;
      if (Hit) { Off = Hit->Offset; Bytes = Hit->Size ? Hit->Size : 4; }
      else {
        char *E = nullptr;
        unsigned long X = strtoul(NV.first.c_str(), &E, 0);
        if (NV.first.empty() || *E) {
          R.BadOption = true;
          Err = "--arg " + NV.first + ": no argument of that name in the metadata of " + K->Name + "; arguments:";
          for (auto &A : K->Args)
            Err += " " + (A.Name.empty() ? std::string("<unnamed>") : A.Name) + "@" + std::to_string(A.Offset) + "(" +
                   std::to_string(A.Size) + " B, " + A.ValueKind + ")";
          if (K->Args.empty()) Err += " none (no .args metadata; give the byte offset instead of a name)";
          return false;
        }
        Off = (unsigned)X;
        for (auto &A : K->Args) if (A.Offset == Off) { Hit = &A; Bytes = A.Size ? A.Size : 4; }
      }
      char *E = nullptr;
      const char *V = NV.second.c_str();
      uint64_t Val = *V == '-' ? (uint64_t)strtoll(V, &E, 0) : strtoull(V, &E, 0);
      if (NV.second.empty() || *E) { R.BadOption = true; Err = "--arg " + NV.first + "=" + NV.second + ": the value is not an integer"; return false; }
      if (Off + Bytes > Kernarg->size()) Kernarg->resize(Off + Bytes, -1);
      Put(Off, Bytes, Val);
      R.Inputs.push_back("argument " + NV.first + (Hit && Hit->Name != NV.first ? " (" + Hit->Name + ")" : "") + " at kernarg offset " +
                         std::to_string(Off) + " = " + NV.second);
    }
  }
  if (K->KernargSgpr >= 0) R.Inputs.push_back("kernarg segment pointer in s[" + std::to_string(K->KernargSgpr) + ":" + std::to_string(K->KernargSgpr + 1) + "]");
  if (K->WgIdXSgpr >= 0) R.Inputs.push_back("workgroup id x in s" + std::to_string(K->WgIdXSgpr) + " = the workgroup's index on the CU (0, 1, ...)");
  for (auto &SV : O.Sgprs) R.Inputs.push_back("s" + std::to_string(SV.first) + " = " + std::to_string(SV.second) + " (--sgpr)");

  std::vector<std::unique_ptr<Wave>> Waves;
  for (int G = 0; G < Wgs; ++G)
    for (int Wi = 0; Wi < WavesPerWg; ++Wi) {
      auto W = std::make_unique<Wave>();
      W->Wg = G; W->Id = Wi; W->Gid = G * WavesPerWg + Wi; W->Simd = W->Gid % TP.NumSimds;
      W->Pc = K->Begin;
      W->Ready.assign(NumUnits, 0);
      auto V0 = std::make_shared<VVal>();
      for (int L = 0; L < 64; ++L) V0->L[L] = L + 64 * Wi; // workitem id x (1-D workgroup)
      W->V[0] = std::move(V0);
      W->Kernarg = Kernarg.get();
      if (K->KernargSgpr >= 0) { W->setS(K->KernargSgpr, true, 0); W->setS(K->KernargSgpr + 1, true, KernargHi); }
      if (K->WgIdXSgpr >= 0) W->setS(K->WgIdXSgpr, true, G);
      for (auto &SV : O.Sgprs) W->setS(SV.first, true, SV.second);
      W->R.Wg = G; W->R.Id = Wi; W->R.Simd = W->Simd;
      // the directions of its data-dependent branches (path search)
      {
        Wave P0 = *W;
        P0.Ready.clear();
        std::string Why;
        if (!planWave(F, P0, std::max<long>(O.MaxInstrsPerWave, 1), W->Plan, Why)) {
          W->Plan.clear();
          W->Why = Why;
        }
      }
      Waves.push_back(std::move(W));
    }
  std::vector<int64_t> XdlFree(TP.NumSimds, 0), NonCoexecUntil(TP.NumSimds, 0);
  R.XdlBusy.assign(TP.NumSimds, {});
  double LdsFree[2] = {0, 0};
  double HbmFree = 0, L2Free = 0;
  double HbmBW = hbmBytesPerClk(TP);
  double L2Acc = 0;
  std::map<std::string, int> Notes;
  std::map<unsigned, int> UnknownSeen;

  auto AddSeg = [](WaveResult &WR, int64_t B, int64_t E, int Kind) {
    if (!WR.Segs.empty() && WR.Segs.back().Kind == Kind && WR.Segs.back().End == B) WR.Segs.back().End = E;
    else WR.Segs.push_back({B, E, Kind});
  };

  int Live = (int)Waves.size();
  int64_t T = 0;
  for (; Live > 0; ++T) {
    if (T > O.MaxCycles) {
      Err = "simulation did not finish within " + std::to_string(O.MaxCycles) + " clocks (hang?); waves at lines:";
      for (auto &W : Waves) if (!W->Done) Err += " w" + std::to_string(W->Gid) + ":" + std::to_string(I[W->Pc].Line);
      return false;
    }
    int Simd = T % TP.NumSimds;
    std::vector<Wave *> Pool;
    for (auto &W : Waves) if (!W->Done && W->Simd == Simd) Pool.push_back(W.get());
    if (Pool.empty()) continue;
    std::stable_sort(Pool.begin(), Pool.end(), [](Wave *A, Wave *B) {
      if (A->Prio != B->Prio) return A->Prio > B->Prio;
      return A->Gid < B->Gid;
    });
    int SlotPrio[5];
    bool SlotUsed[5] = {false, false, false, false, false};
    for (Wave *W : Pool) {
      auto Stall = [&](int Why) { W->R.Stalls[Why] += TP.IssuePeriod; AddSeg(W->R, T, T + TP.IssuePeriod, 100 + Why); };
      if (T < W->NotBefore) { Stall(W->NotBeforeWhy); continue; }
      if (W->Pc >= K->End) {
        R.Warnings.push_back("wave " + std::to_string(W->Gid) + " ran past the end of the kernel");
        W->Done = true; --Live; W->R.EndTime = T; continue;
      }
      const unsigned Pc = W->Pc;
      const Inst &In = I[Pc];
      int TraceLds = -1;
      unsigned Next = Pc + 1;
      int Dur = TP.IssuePeriod;
      // ---------------- internal instructions (sequencer, no category)
      if (In.C == Cat::Internal) {
        if (In.In == Internal::Waitcnt) {
          bool VmOk = In.Vm < 0 || countAfter(W->Vm, T) <= In.Vm;
          bool LgOk = In.Lgkm < 0 || countAfter(W->Lgkm, T) <= In.Lgkm;
          if (!VmOk) { Stall(StVmcnt); continue; }
          if (!LgOk) { Stall(StLgkmcnt); continue; }
        } else if (In.In == Internal::Barrier) {
          if (!W->AtBarrier) { W->AtBarrier = true; ++W->BarrierCount; }
          bool Released = true;
          for (auto &O2 : Waves)
            if (O2->Wg == W->Wg && !O2->Done && O2->BarrierCount < W->BarrierCount) Released = false;
          if (!Released) { Stall(StBarrier); continue; }
          W->AtBarrier = false;
          if (TP.BarrierReleaseDelay) { W->NotBefore = T + TP.BarrierReleaseDelay; W->NotBeforeWhy = StBarrier; }
        } else if (In.In == Internal::Setprio) {
          W->Prio = In.Imm & 3;
        } else if (In.In == Internal::Nop) {
          W->NotBefore = T + (int64_t)TP.IssuePeriod * ((In.Imm & 0xf) + 1);
          W->NotBeforeWhy = StNop;
        } else if (In.In == Internal::Sleep) {
          W->NotBefore = T + 64 * (int64_t)In.Imm;
          W->NotBeforeWhy = StNop;
        } else if (In.In == Internal::Endpgm) {
          W->Done = true; --Live; W->R.EndTime = T;
        }
      } else {
        // ---------------- functional-unit instructions
        int64_t ReadyAt = 0;
        for (unsigned U : In.UseUnits) ReadyAt = std::max(ReadyAt, W->Ready[U]);
        if (ReadyAt > T) { Stall(StDependency); continue; }
        if (In.C == Cat::MFMA && XdlFree[Simd] > T) { Stall(StMfmaBusy); continue; }
        if ((In.C == Cat::VALU || In.C == Cat::MFMA) && NonCoexecUntil[Simd] > T) { Stall(StValuBlocked); continue; }
        int Slot = std::max(0, catSlot(In.C));
        if (SlotUsed[Slot]) { Stall(SlotPrio[Slot] > W->Prio ? StArbHigher : StArbOlder); continue; }
        SlotUsed[Slot] = true;
        SlotPrio[Slot] = W->Prio;
        if (In.C == Cat::Unknown && !UnknownSeen.count(Pc)) {
          UnknownSeen[Pc] = 1;
          R.Unknown.push_back("line " + std::to_string(In.Line) + ": '" + In.Text +
                              "' is not modelled (issued as one SALU slot, results unknown)");
          if (In.Mnem.find("setpc") != std::string::npos || In.Mnem.find("swappc") != std::string::npos) {
            Err = "line " + std::to_string(In.Line) + ": indirect branch '" + In.Text + "' cannot be followed";
            return false;
          }
        }
        // verify: the LDS bytes this access touches, from the address operand
        // before the instruction overwrites it
        if (O.Trace && (In.C == Cat::LDS || In.LdsDma)) {
          TraceLds = (int)W->R.LdsAddrs.size();
          W->R.LdsAddrs.push_back(ldsBytes(*W, In));
          static const bool Dbg = getenv("PPSIM_DEBUG_VALUES") != nullptr;
          if (Dbg && !W->R.LdsAddrs.back().Known) fprintf(stderr, "unknown-lds: line %u %s%s\n", In.Line, In.Text.c_str(), F.inBody(Pc) ? " (loop)" : "");
          static const unsigned DbgLine = getenv("PPSIM_DEBUG_LINE") ? atoi(getenv("PPSIM_DEBUG_LINE")) : 0;
          if (DbgLine == In.Line) {
            fprintf(stderr, "line %u wave %d:", In.Line, W->Gid);
            for (auto &Iv : W->R.LdsAddrs.back().Iv) fprintf(stderr, " [%#x,%#x)", Iv.first, Iv.second);
            fprintf(stderr, "\n");
          }
        }
        // values
        applyValues(*W, In);
        // timing of results
        int64_t DefReady = T;
        switch (In.C) {
        case Cat::VALU: DefReady = T + TP.ValuDepLatency; break;
        case Cat::SALU: case Cat::Unknown: case Cat::Branch: DefReady = T + TP.SaluDepLatency; break;
        case Cat::MFMA:
          DefReady = T + In.MfmaCycles + TP.MfmaDepExtra;
          XdlFree[Simd] = T + In.MfmaCycles;
          R.XdlBusy[Simd].push_back({T, T + In.MfmaCycles});
          if (!In.MfmaCoexec) NonCoexecUntil[Simd] = T + In.MfmaCycles;
          Dur = In.MfmaCycles;
          break;
        case Cat::VMEM: {
          int Lanes = W->ExecKnown ? __builtin_popcountll(W->Exec) : 64;
          double Bytes = (double)Lanes * In.BytesPerLane;
          double Start, Done;
          bool Hit = false;
          if (In.IsLoad && O.L2HitRate > 0) {
            double Prev = L2Acc;
            L2Acc += O.L2HitRate;
            Hit = std::floor(L2Acc + 1e-9) > std::floor(Prev + 1e-9);
          }
          if (In.IsLoad && F.inBody(Pc)) {
            R.LoopLoadBytes += (int64_t)Bytes;
            ++R.LoopLoads;
            R.LoopL2Hits += Hit;
          }
          if (Hit) {
            Start = std::max((double)T, L2Free);
            L2Free = Start + Bytes / TP.L2BytesPerClkCu;
            Done = Start + TP.L2HitLatency;
          } else {
            Start = std::max((double)T, HbmFree);
            HbmFree = Start + Bytes / HbmBW;
            Done = Start + TP.VmemLatency;
          }
          int64_t D = std::max<int64_t>((int64_t)std::ceil(Done), W->LastVmDone); // vmcnt returns in order
          W->LastVmDone = D;
          W->Vm.push_back(D);
          if (In.Flat) W->Lgkm.push_back(D);
          DefReady = T; // no interlock: software waits with s_waitcnt
          break;
        }
        case Cat::LDS: {
          int Lanes = W->ExecKnown ? __builtin_popcountll(W->Exec) : 64;
          double Bytes = (double)Lanes * In.BytesPerLane;
          bool Write = In.IsStore && !In.IsLoad;
          double BW = Write ? TP.LdsWriteBytesPerClkPair : TP.LdsReadBytesPerClkPair;
          int Port = Simd / 2;
          double Start = std::max((double)T, LdsFree[Port]);
          LdsFree[Port] = Start + Bytes / BW;
          int64_t D = std::max<int64_t>((int64_t)std::ceil(Start) + TP.LdsLatency, W->LastLdsDone);
          W->LastLdsDone = D;
          W->Lgkm.push_back(D);
          break;
        }
        case Cat::SMEM:
          W->Lgkm.push_back(T + In.Latency); // SMEM returns out of order
          break;
        default: break;
        }
        if (In.C != Cat::VMEM && In.C != Cat::LDS && In.C != Cat::SMEM)
          for (unsigned U : In.DefUnits) W->Ready[U] = std::max(W->Ready[U], DefReady);
        // control flow
        if (In.C == Cat::Branch) {
          int C = branchCond(*W, In);
          Flow::Kind Kd;
          bool Both;
          bool Taken = F.decide(*W, Pc, C, Kd, Both);
          if (Kd == Flow::Free) {
            bool Planned = W->PlanPos < W->Plan.size();
            if (Planned) Taken = W->Plan[W->PlanPos++];
            const char *Goal = F.done(*W) ? "the kernel's end" : "the loop";
            std::string Why = !Both ? std::string("the only direction that reaches ") + Goal
                              : !Taken ? std::string("both directions reach ") + Goal + "; fall-through first"
                              : Planned ? std::string("both directions reach ") + Goal + "; the path search took it: the fall-through led nowhere"
                                        : std::string("both directions reach ") + Goal;
            Notes["line " + std::to_string(In.Line) + ": data-dependent '" + In.Text + "': " +
                  (Taken ? "taken (" : "not taken (") + Why + ")"]++;
          } else if (Kd == Flow::Forced && F.inBody(Pc) && C < 0 && F.targetOf(Pc) != (int)LB) {
            Notes["line " + std::to_string(In.Line) + ": data-dependent '" + In.Text + "' leaves the loop: " +
                  (Taken == F.inBody(In.Target) ? "stays while iterations are left" : "exits after the last iteration")]++;
          } else if (Kd == Flow::Forced && !F.inBody(Pc) && (C < 0 || C != (int)Taken)) {
            Notes["line " + std::to_string(In.Line) + ": '" + In.Text + "' " + (Taken ? "taken" : "not taken") +
                  " after the loop's iterations: the other way goes back around the loop" +
                  (C >= 0 ? " (against its known condition)" : "")]++;
          }
          if (C < 0) {
            bool EK = W->ExecKnown;
            assumeCond(*W, In, Taken);
            if (!EK && W->ExecKnown && W->Exec)
              Notes["line " + std::to_string(In.Line) + ": assumed every lane active before the guard takes the same direction ('" + In.Text + "')"]++;
          }
          W->LastBranch = (int)Pc;
          W->LastBranchKnown = C >= 0;
          if (Taken) {
            if (In.Target < 0) { Err = "line " + std::to_string(In.Line) + ": branch target '" + In.TargetLabel + "' not found"; return false; }
            Next = In.Target;
          }
        }
      }
      // ---------------- issued
      W->Issued++;
      if (W->Issued > O.MaxInstrsPerWave) { Err = "a wave executed more than " + std::to_string(O.MaxInstrsPerWave) + " instructions (endless loop?) at line " + std::to_string(In.Line); return false; }
      W->Events.push_back({T, Pc});
      if (O.Trace) W->R.Trace.push_back({Pc, TraceLds});
      if (In.C != Cat::Internal || In.In == Internal::Barrier || In.In == Internal::Waitcnt)
        AddSeg(W->R, T, T + Dur, In.C == Cat::Internal ? 50 : (int)In.C);
      F.advance(*W, Pc, Next, T, TP.IssuePeriod);
      W->Pc = Next;
    }
  }
  R.TotalCycles = T;
  for (auto &KV : Notes) R.Warnings.push_back(KV.first + " x" + std::to_string(KV.second));
  // ---- iterations of the hot loop, per wave: never a silent result
  if (!NoLoop) {
    bool Same = true;
    // waves with the same count and reason are listed together
    std::vector<std::pair<std::string, std::vector<int>>> Short;
    for (auto &W : Waves) {
      W->R.Iters = W->Iters;
      W->R.Visits = W->Visits;
      if (W->Iters < N) {
        R.ItersShort = true;
        std::string Why = W->Why;
        if (Why.empty()) Why = W->Visits ? "it left the loop early" : "it never entered the loop";
        W->R.Why = Why;
        std::string Key = " ran " + std::to_string(W->Iters) + " of " + std::to_string(N) + " iterations of loop " +
                          R.LoopLabel + " (line " + std::to_string(I[LB].Line) + "): " + Why;
        auto It = std::find_if(Short.begin(), Short.end(), [&](auto &X) { return X.first == Key; });
        if (It == Short.end()) Short.push_back({Key, {W->Gid}});
        else It->second.push_back(W->Gid);
      }
      Same &= W->Iters == Waves[0]->Iters && W->Visits == Waves[0]->Visits;
    }
    for (auto &S : Short) {
      std::string Ws = S.second.size() == 1 ? "wave " + std::to_string(S.second[0]) : "waves";
      if (S.second.size() > 1) {
        bool Run = S.second.back() - S.second.front() + 1 == (int)S.second.size();
        if (Run) Ws += " " + std::to_string(S.second.front()) + "-" + std::to_string(S.second.back());
        else for (size_t X = 0; X < S.second.size(); ++X) Ws += (X ? "," : " ") + std::to_string(S.second[X]);
        Ws += " each";
      }
      R.ItersMsg += Ws + S.first + "\n";
    }
    auto Visits = [](int V) { return std::to_string(V) + (V == 1 ? " entry" : " entries"); };
    if (Same)
      R.ItersLine = "iterations of loop " + R.LoopLabel + ": every wave ran " + std::to_string(Waves[0]->Iters) + " of " +
                    std::to_string(N) + " (" + Visits(Waves[0]->Visits) + " into the loop)";
    else {
      R.ItersLine = "iterations of loop " + R.LoopLabel + " per wave (of " + std::to_string(N) + "):";
      for (auto &W : Waves) R.ItersLine += " w" + std::to_string(W->Gid) + " " + std::to_string(W->Iters) + "/" + Visits(W->Visits);
    }
  }
  if (O.Trace) {
    // verify needs the instruction streams, not the steady state
    for (auto &W : Waves) {
      W->R.Instrs = (int)W->Issued;
      R.Waves.push_back(std::move(W->R));
    }
    return true;
  }

  // ---- steady state
  double SumCpi = 0, WB = 0, WE = 0;
  int Cnt = 0;
  for (auto &W : Waves) {
    auto &S = W->R.IterStart;
    if (R.ItersShort || (int)S.size() < N + 1) {
      Err = R.ItersMsg.empty() ? "wave " + std::to_string(W->Gid) + " did not leave the loop after its iterations\n" : R.ItersMsg;
      Err.pop_back();
      return false;
    }
    SumCpi += double(S[R.LastIter] - S[R.Warmup]) / (R.LastIter - R.Warmup);
    WB += S[R.Warmup]; WE += S[R.LastIter];
    ++Cnt;
  }
  R.CyclesPerIter = SumCpi / Cnt;
  R.WindowBegin = (int64_t)(WB / Cnt);
  R.WindowEnd = (int64_t)(WE / Cnt);
  if (Wgs > 1) {
    // Several workgroups share the CU and need not progress at the same rate
    // (the older one wins arbitration), so one finishes its N iterations while
    // the other still runs, alone and faster. Measure throughput in the common
    // window where every wave is in its steady state: [latest start of
    // iteration Warmup, earliest start of iteration LastIter]. Each wave's
    // progress in the window is interpolated from its iteration start times;
    // cycles/iteration = window / mean iterations advanced per wave, i.e. the
    // CU's throughput expressed per workgroup iteration.
    int64_t CB = 0, CE = INT64_MAX;
    for (auto &W : Waves) {
      CB = std::max(CB, W->R.IterStart[R.Warmup]);
      CE = std::min(CE, W->R.IterStart[R.LastIter]);
    }
    auto Progress = [&](const std::vector<int64_t> &S, double T) {
      for (int K = R.Warmup; K < R.LastIter; ++K)
        if (T <= S[K + 1]) return K + (T - S[K]) / std::max<double>(1, S[K + 1] - S[K]);
      return (double)R.LastIter;
    };
    double Slowest = 0;
    std::vector<double> WgRate(Wgs, 0);
    double Adv = 0;
    for (auto &W : Waves) {
      Slowest = std::max(Slowest, double(W->R.IterStart[R.LastIter] - W->R.IterStart[R.Warmup]) / (R.LastIter - R.Warmup));
      if (CE > CB) {
        double A = Progress(W->R.IterStart, CE) - Progress(W->R.IterStart, CB);
        Adv += A;
        WgRate[W->Wg] += A / WavesPerWg;
      }
    }
    if (CE - CB >= 2 * Slowest && Adv > 0) {
      R.CyclesPerIter = (CE - CB) / (Adv / Cnt);
      R.WindowBegin = CB;
      R.WindowEnd = CE;
      std::string Rates;
      for (int G = 0; G < Wgs; ++G) Rates += formatCpi(G, (CE - CB) / std::max(1e-9, WgRate[G]));
      R.Warnings.push_back("multi-workgroup steady state: common window " + std::to_string(CB) + "-" +
                           std::to_string(CE) + "; workgroup cycles/iteration in it:" + Rates);
    } else {
      R.Warnings.push_back("multi-workgroup: the workgroups' steady states overlap by less than two iterations "
                           "(window " + std::to_string(CB) + "-" + std::to_string(CE) +
                           "); cycles/iteration is the mean over waves of their own windows (use more --iterations)");
    }
  }
  double Len = std::max<double>(1, R.WindowEnd - R.WindowBegin), Busy = 0;
  for (int S = 0; S < TP.NumSimds; ++S) {
    double B = 0;
    for (auto &Iv : R.XdlBusy[S]) {
      int64_t A = std::max(Iv.first, R.WindowBegin), E = std::min(Iv.second, R.WindowEnd);
      if (E > A) B += E - A;
    }
    R.MfmaBusySimd[S] = 100.0 * B / Len;
    Busy += B;
  }
  R.MfmaBusyPct = 100.0 * Busy / (Len * TP.NumSimds);
  for (auto &W : Waves) {
    auto &WR = W->R;
    int64_t A = WR.IterStart[R.Warmup], E = WR.IterStart[R.LastIter];
    for (auto &Sg : WR.Segs)
      if (Sg.Kind >= 100) {
        int64_t X = std::max(Sg.Begin, A), Y = std::min(Sg.End, E);
        if (Y > X) WR.LoopStalls[Sg.Kind - 100] += Y - X;
      }
    WR.ClusterTime.assign(R.Clusters.size(), 0);
    int64_t Prev = -1;
    int PrevCluster = -1;
    for (auto &Ev : W->Events) {
      int C = ClusterOf[Ev.second];
      if (Prev >= 0 && Ev.first > A && Ev.first <= E && C >= 0)
        WR.ClusterTime[C] += Ev.first - Prev;
      if (C >= 0 && C != PrevCluster)
        WR.ClusterStarts.push_back({Ev.first, C});
      PrevCluster = C;
      Prev = Ev.first;
    }
    for (auto &X : WR.ClusterTime) X /= (R.LastIter - R.Warmup);
    WR.Instrs = (int)W->Issued;
    R.Waves.push_back(std::move(WR));
  }
  return true;
}

} // namespace ppsim
