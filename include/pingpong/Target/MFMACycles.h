//===- MFMACycles.h - matrix-pipe clocks of each MFMA -----------*- C++ -*-===//
//
// One table for pingpong-sim (its MFMA pipe) and the plugin (the async
// two-stage layout choice compares a loop's copy time with its MFMA time).
// Sources per row; cdna_model is /work/shared/reference/cdna_model.md.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_TARGET_MFMACYCLES_H
#define PINGPONG_TARGET_MFMACYCLES_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace pingpong {
namespace target {

// MFMA cycle table (cdna_model §1.2). "Cycles" = clocks the SIMD's matrix
// pipe (XDL) is busy = back-to-back issue interval of independent MFMAs.
// Matched in order against the lower-case mnemonic (substring match, first hit
// wins). Used to cross-check LLVM's scheduling model (MCSchedModel HWXDL
// ReleaseAtCycles x 4 clocks/pass) and where the model does not resolve
// (variant classes that need the operands, e.g. f8f6f4 cbsz/blgp).
struct MfmaRule {
  const char *Pattern;  // substring of the mnemonic
  int Cycles942;        // 0: not on gfx942
  int Cycles950;
  bool Coexec;          // independent VALU may co-issue while it runs
  bool F8F6F4;          // cycles depend on cbsz/blgp: x2 if A or B is FP8/BF8
  const char *Source;
};

inline const MfmaRule *mfmaRules(int &N) {
  static const MfmaRule Rules[] = {
      // gfx950 scaled / f8f6f4: 16 cycles if both FP4/FP6, 32 if either FP8 (16x16x128);
      // 32 / 64 for 32x32x64 [A] CDNA4 ISA Table 28; LLVM WriteMFMAScale_16X16X128_F8F6F4.
      {"16x16x128_f8f6f4", 0, 16, true, true, "CDNA4 ISA Table 28; SISchedule.td F8F6F4"},
      {"32x32x64_f8f6f4", 0, 32, true, true, "CDNA4 ISA Table 28; SISchedule.td F8F6F4"},
      // 16-bit [A] matrix_calculator.py (CDNA3), CDNA4 ISA Table 28, SIDPGFX950FullSpeedModel
      {"16x16x32_f16", 0, 16, true, false, "CDNA4 ISA Table 28"},
      {"16x16x32_bf16", 0, 16, true, false, "CDNA4 ISA Table 28"},
      {"32x32x16_f16", 0, 32, true, false, "CDNA4 ISA Table 28"},
      {"32x32x16_bf16", 0, 32, true, false, "CDNA4 ISA Table 28"},
      {"16x16x16_f16", 16, 16, true, false, "matrix_calculator.py; CDNA4 ISA Table 28"},
      {"16x16x16_bf16", 16, 16, true, false, "matrix_calculator.py; CDNA4 ISA Table 28"},
      {"16x16x16bf16_1k", 16, 16, true, false, "matrix_calculator.py"},
      {"32x32x8_f16", 32, 32, true, false, "matrix_calculator.py; CDNA4 ISA Table 28"},
      {"32x32x8_bf16", 32, 32, true, false, "matrix_calculator.py; CDNA4 ISA Table 28"},
      {"32x32x8bf16_1k", 32, 32, true, false, "matrix_calculator.py"},
      // 8-bit float [A] matrix_calculator.py; CDNA4 ISA
      {"16x16x32_fp8", 16, 16, true, false, "matrix_calculator.py; CDNA4 ISA"},
      {"16x16x32_bf8", 16, 16, true, false, "matrix_calculator.py; CDNA4 ISA"},
      {"32x32x16_fp8", 32, 32, true, false, "matrix_calculator.py; CDNA4 ISA"},
      {"32x32x16_bf8", 32, 32, true, false, "matrix_calculator.py; CDNA4 ISA"},
      // int8 [A]
      {"16x16x64_i8", 0, 16, true, false, "CDNA4 ISA"},
      {"32x32x32_i8", 0, 32, true, false, "CDNA4 ISA"},
      {"16x16x32_i8", 16, 16, true, false, "matrix_calculator.py; CDNA4 ISA"},
      {"32x32x16_i8", 32, 32, true, false, "matrix_calculator.py; CDNA4 ISA"},
      // fp32 / fp64: no VALU co-execution [A] matrix_calculator.py coexec=False
      {"16x16x4_f32", 32, 32, false, false, "matrix_calculator.py; CDNA4 ISA"},
      {"32x32x2_f32", 64, 64, false, false, "matrix_calculator.py; CDNA4 ISA"},
      {"16x16x4_f64", 32, 64, false, false, "CDNA4 ISA; SISchedule.td Write16PassDGEMM"},
      // sparse [A] matrix_calculator.py; co-exec delay 8
      {"smfmac", 16, 16, true, false, "matrix_calculator.py"},
  };
  N = sizeof(Rules) / sizeof(Rules[0]);
  return Rules;
}

/// An f8f6f4 MFMA's opcode name (..._F8F6F4_<A>_<B>_..., formats f8, f6, f4
/// by the registers they need) names an 8-bit A or B: its pipe time doubles.
inline bool f8f6f4HasF8Operand(llvm::StringRef OpName) {
  size_t P = OpName.find("F8F6F4_");
  llvm::StringRef Fmt =
      P == llvm::StringRef::npos ? llvm::StringRef() : OpName.substr(P + 7);
  return Fmt.starts_with("f8_") || Fmt.substr(3).starts_with("f8_") ||
         Fmt.substr(3) == "f8";
}

/// Matrix-pipe clocks of an MFMA from its opcode name (the rows' patterns
/// match it case-insensitively and without underscores: the enum names of
/// TargetInstrInfo::getName drop some of the mnemonic's, as in
/// V_MFMA_F32_16X16X16F16_vgprcd_e64), the f8f6f4 doubling included; 0 when
/// no row matches or the MFMA does not exist on the target.
inline unsigned mfmaTableCycles(llvm::StringRef OpName, bool Gfx950) {
  auto Squash = [](llvm::StringRef S) {
    std::string R;
    for (char C : S)
      if (C != '_')
        R += llvm::toLower(C);
    return R;
  };
  const std::string Op = Squash(OpName);
  int N;
  const MfmaRule *Rules = mfmaRules(N);
  for (int K = 0; K < N; ++K) {
    if (llvm::StringRef(Op).find(Squash(Rules[K].Pattern)) == llvm::StringRef::npos)
      continue;
    unsigned C = Gfx950 ? Rules[K].Cycles950 : Rules[K].Cycles942;
    return Rules[K].F8F6F4 && f8f6f4HasF8Operand(OpName) ? 2 * C : C;
  }
  return 0;
}

} // namespace target
} // namespace pingpong

#endif
