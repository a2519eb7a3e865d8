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

namespace {

// ---------------------------------------------------------------- operands
struct Opnd {
  enum Kind { None, V, S, M0, Vcc, Exec, Scc, Imm, Other } K = None;
  unsigned Idx = 0, N = 1;
  int64_t Val = 0;
};

Opnd parseOpnd(const std::string &T) {
  Opnd O;
  if (T.empty())
    return O;
  auto Range = [&](const char *P) {
    unsigned A = 0, B = 0;
    if (sscanf(P, "[%u:%u]", &A, &B) == 2) {
      O.Idx = A;
      O.N = B - A + 1;
      return true;
    }
    if (sscanf(P, "%u", &A) == 1) {
      O.Idx = A;
      O.N = 1;
      return true;
    }
    return false;
  };
  if (T[0] == 'v' && T.size() > 1 && (isdigit(T[1]) || T[1] == '[')) {
    O.K = Range(T.c_str() + 1) ? Opnd::V : Opnd::Other;
    return O;
  }
  if (T[0] == 's' && T.size() > 1 && (isdigit(T[1]) || T[1] == '[')) {
    O.K = Range(T.c_str() + 1) ? Opnd::S : Opnd::Other;
    return O;
  }
  if (T == "vcc" || T == "vcc_lo") { O.K = Opnd::Vcc; O.N = T == "vcc" ? 2 : 1; return O; }
  if (T == "exec" || T == "exec_lo") { O.K = Opnd::Exec; O.N = T == "exec" ? 2 : 1; return O; }
  if (T == "scc") { O.K = Opnd::Scc; return O; }
  if (T == "m0") { O.K = Opnd::M0; return O; } // the LDS DMA base (LdsBytes)
  char *End = nullptr;
  long long X = strtoll(T.c_str(), &End, 0);
  if (End && *End == 0) {
    O.K = Opnd::Imm;
    O.Val = X;
    return O;
  }
  O.K = Opnd::Other;
  return O;
}

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
  std::map<unsigned, std::unique_ptr<VVal>> V;
  std::map<unsigned, uint32_t> S;
  bool ExecKnown = true, VccKnown = false;
  uint64_t Exec = ~0ull, Vcc = 0;
  bool M0Known = false; // unknown at entry (the kernel sets it before an LDS DMA)
  uint32_t M0 = 0;
  int Scc = -1;
  int ItersStarted = 0;
  bool Exited = false;
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
  else return false;
  return true;
}
int valuArity(const std::string &M) {
  static const char *One[] = {"v_mov_b32", "v_not_b32"};
  static const char *Three[] = {"v_bfe_u32", "v_lshl_add_u32", "v_add_lshl_u32", "v_lshl_or_b32",
                                "v_and_or_b32", "v_or3_b32", "v_add3_u32"};
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
  std::unique_ptr<VVal> NV(new VVal);
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
  std::vector<Opnd> O;
  for (auto &T : I.Ops) O.push_back(parseOpnd(T));
  auto Src = [&](size_t K) { return K < O.size() ? O[K] : Opnd(); };
  std::string CmpOp;
  bool Signed = false;

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
    if (M == "v_bitop3_b32" && O.size() == 5 && O[0].K == Opnd::V && I.Ops[4].compare(0, 7, "bitop3:") == 0) {
      // gfx950 three-input truth table: bit i of the result is bit
      // (a_i << 2 | b_i << 1 | c_i) of the immediate (LLVM: src0 = 0xf0,
      // src1 = 0xcc, src2 = 0xaa)
      unsigned Tt = (unsigned)strtoul(I.Ops[4].c_str() + 7, nullptr, 0) & 0xff;
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
    if (O.empty() || O[0].K != Opnd::V) return false;
    int Ar = valuArity(M);
    uint32_t Dummy;
    if (!valuOp(M, 0, 0, 0, Dummy)) return false;
    if ((int)O.size() != 1 + Ar) { W.clobber(O[0]); return true; } // modifiers present
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
  for (unsigned K = 0; K < I.NumDefs && K < I.Ops.size(); ++K)
    W.clobber(parseOpnd(I.Ops[K]));
  if (I.DefsScc) W.Scc = -1;
  if (I.DefsVcc) W.VccKnown = false;
  if (I.DefsExec) W.ExecKnown = false;
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

// The value of an immediate modifier ("offset:", "offset0:", ...), 0 if absent.
int64_t immOffset(const Inst &In, const char *P) {
  size_t N = strlen(P);
  for (auto &T : In.Ops)
    if (T.compare(0, N, P) == 0) return (int64_t)strtoll(T.c_str() + N, nullptr, 0);
  return 0;
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
  const int64_t Off = immOffset(In, "offset:"); // global: 13-bit signed
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
  if (In.NumDefs >= In.Ops.size()) return B;
  Opnd A = parseOpnd(In.Ops[In.NumDefs]);
  if (A.K != Opnd::V || A.N != 1) return B;
  auto It = W.V.find(A.Idx);
  if (It == W.V.end()) return B;
  int64_t Off = immOffset(In, "offset:"), Off0 = immOffset(In, "offset0:"), Off1 = immOffset(In, "offset1:");
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
  const unsigned BE = NoLoop ? ~0u : (unsigned)BestBE, LB = NoLoop ? ~0u : (unsigned)I[BE].Target;
  R.HasLoop = !NoLoop;
  if (!NoLoop) {
    R.LoopLabel = I[BE].TargetLabel;
    R.LoopBegin = LB; R.LoopEnd = BE;
    R.LoopLineBegin = I[LB].Line; R.LoopLineEnd = I[BE].Line;
  }
  int ExitBranch = -1;
  if (!NoLoop && !I[BE].Conditional) {
    for (unsigned X = LB; X < BE; ++X)
      if (I[X].C == Cat::Branch && I[X].Conditional && (I[X].Target < (int)LB || I[X].Target > (int)BE)) { ExitBranch = X; break; }
    if (ExitBranch < 0) {
      Err = "loop " + R.LoopLabel + " (line " + std::to_string(I[BE].Line) + ") has an unconditional back-edge and no exit branch";
      return false;
    }
  }
  for (unsigned X = LB; !NoLoop && X <= BE; ++X) R.MfmasPerIter += I[X].C == Cat::MFMA;
  // clusters
  for (unsigned X = LB; !NoLoop && X <= BE; ++X) {
    if (X == LB || I[X].ClusterStart) {
      if (!R.Clusters.empty()) R.Clusters.back().End = X;
      ClusterInfo C; C.Begin = X; C.End = BE + 1;
      R.Clusters.push_back(C);
    }
    auto &C = R.Clusters.back();
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
  std::vector<int> ClusterOf(I.size(), -1);
  for (size_t C = 0; C < R.Clusters.size(); ++C)
    for (unsigned X = R.Clusters[C].Begin; X < R.Clusters[C].End; ++X) ClusterOf[X] = C;

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
  const int N = std::max(1, O.Iterations);
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
  std::vector<std::unique_ptr<Wave>> Waves;
  for (int G = 0; G < Wgs; ++G)
    for (int Wi = 0; Wi < WavesPerWg; ++Wi) {
      auto W = std::make_unique<Wave>();
      W->Wg = G; W->Id = Wi; W->Gid = G * WavesPerWg + Wi; W->Simd = W->Gid % TP.NumSimds;
      W->Pc = K->Begin;
      W->Ready.assign(NumUnits, 0);
      auto V0 = std::make_unique<VVal>();
      for (int L = 0; L < 64; ++L) V0->L[L] = L + 64 * Wi; // workitem id x (1-D workgroup)
      W->V[0] = std::move(V0);
      W->R.Wg = G; W->R.Id = Wi; W->R.Simd = W->Simd;
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
        }
        // values
        if (!execValues(*W, In)) clobberDefs(*W, In);
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
          if (In.IsLoad && Pc >= LB && Pc <= BE) {
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
          bool Taken;
          const std::string &M = In.Mnem;
          if (!In.Conditional) Taken = true;
          else if (Pc == BE) Taken = W->ItersStarted < N;           // forced trip count
          else if ((int)Pc == ExitBranch) Taken = W->ItersStarted >= N;
          else {
            int C = -1;
            if (M == "s_cbranch_scc0") C = W->Scc < 0 ? -1 : W->Scc == 0;
            else if (M == "s_cbranch_scc1") C = W->Scc < 0 ? -1 : W->Scc == 1;
            else if (M == "s_cbranch_vccz") C = W->VccKnown ? W->Vcc == 0 : -1;
            else if (M == "s_cbranch_vccnz") C = W->VccKnown ? W->Vcc != 0 : -1;
            else if (M == "s_cbranch_execz") C = W->ExecKnown ? W->Exec == 0 : -1;
            else if (M == "s_cbranch_execnz") C = W->ExecKnown ? W->Exec != 0 : -1;
            if (C >= 0) Taken = C;
            else {
              // data-dependent: never skip the hot loop from before it; enter it if
              // the branch leads into it; otherwise fall through.
              bool IntoLoop = (Pc < LB || Pc > BE) && In.Target >= (int)LB && In.Target <= (int)BE;
              Taken = IntoLoop;
              Notes["line " + std::to_string(In.Line) + ": data-dependent '" + In.Text + "': " +
                    (Taken ? "taken (leads into the hot loop)" : "not taken (fall through)")]++;
            }
          }
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
      if (Pc == LB && !W->Exited && W->ItersStarted < N) { W->ItersStarted++; W->R.IterStart.push_back(T); }
      W->Pc = Next;
      if (!W->Exited && W->ItersStarted >= N && (Next < LB || Next > BE)) {
        W->Exited = true;
        // time of leaving the loop = next issue; recorded as the issue time + one turn lower bound
        W->R.IterStart.push_back(T + TP.IssuePeriod);
      }
    }
  }
  R.TotalCycles = T;
  for (auto &KV : Notes) R.Warnings.push_back(KV.first + " x" + std::to_string(KV.second));
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
    if ((int)S.size() < N + 1) {
      Err = "wave " + std::to_string(W->Gid) + " ran only " + std::to_string(W->ItersStarted) +
            " of the loop's iterations (the loop at line " + std::to_string(I[LB].Line) + " is not reached on every wave?)";
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
    for (auto &Ev : W->Events) {
      if (Prev >= 0 && Ev.first > A && Ev.first <= E && ClusterOf[Ev.second] >= 0)
        WR.ClusterTime[ClusterOf[Ev.second]] += Ev.first - Prev;
      Prev = Ev.first;
    }
    for (auto &X : WR.ClusterTime) X /= (R.LastIter - R.Warmup);
    WR.Instrs = (int)W->Issued;
    R.Waves.push_back(std::move(WR));
  }
  return true;
}

} // namespace ppsim
