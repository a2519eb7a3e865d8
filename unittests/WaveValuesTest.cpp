//===- WaveValuesTest.cpp - the integer ops of wave-id tests --------------===//
//
// lib/Analysis/WaveValues: the semantics both the skew recognition and the
// checker's per-wave paths rely on (operand order of the *REV shifts, signed
// and unsigned compares, the bits a threshold test leaves per wave).
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/WaveValues.h"

#include "gtest/gtest.h"

using namespace pingpong;
using namespace pingpong::wavevalues;

TEST(WaveValues, IntegerOps) {
  EXPECT_EQ(evalInt("S_AND_B32", {300, 256}), 256u);
  EXPECT_EQ(evalInt("V_AND_B32_e64", {300, 256}), 256u);
  // VOP2 *REV: the shift amount comes first.
  EXPECT_EQ(evalInt("V_LSHRREV_B32_e64", {6, 300}), 4u);
  EXPECT_EQ(evalInt("V_LSHLREV_B32_e32", {2, 3}), 12u);
  EXPECT_EQ(evalInt("S_LSHR_B32", {300, 6}), 4u);
  // A clamp operand after the two sources is not read.
  EXPECT_EQ(evalInt("V_ADD_U32_e64", {5, 7, 0}), 12u);
  EXPECT_EQ(evalInt("V_BFE_U32_e64", {0x1234, 4, 8}), 0x23u);
  EXPECT_EQ(evalInt("S_BFE_U32", {0x1234, 4 | (8 << 16)}), 0x23u);
  EXPECT_EQ(evalInt("S_MOVK_I32", {256}), 256u);
  // Not modelled: unknown, never guessed.
  EXPECT_FALSE(evalInt("V_ADD_F32_e32", {1, 2}).has_value());
  EXPECT_FALSE(evalInt("V_READFIRSTLANE_B32", {1}).has_value());
  EXPECT_FALSE(evalInt("S_AND_B32", {1}).has_value());
}

TEST(WaveValues, Compares) {
  EXPECT_EQ(evalCompare("V_CMP_GT_U32_e64", 256, 255), true); // 256 > tid
  EXPECT_EQ(evalCompare("V_CMP_LT_U32_e32", 255, 256), true);
  EXPECT_EQ(evalCompare("S_CMP_LG_U32", 256, 0), true);
  EXPECT_EQ(evalCompare("S_CMPK_LT_I32", uint32_t(-1), 96), true);
  EXPECT_EQ(evalCompare("S_CMPK_LT_U32", uint32_t(-1), 96), false);
  EXPECT_EQ(evalCompare("V_CMP_GE_I32_e64", 3, 3), true);
  EXPECT_EQ(evalCompare("V_CMP_LE_U32_e64", 4, 3), false);
  EXPECT_FALSE(evalCompare("V_CMP_GT_F32_e64", 1, 0).has_value());
  EXPECT_FALSE(evalCompare("V_CMPX_GT_U32_e64", 1, 0).has_value());
  EXPECT_FALSE(evalCompare("V_CMP_GT_U64_e64", 1, 0).has_value());
}

TEST(WaveValues, Masks) {
  EXPECT_EQ(evalMask("S_AND_B64", {0xF0, 0x3C}), 0x30u);
  EXPECT_EQ(evalMask("S_ANDN2_B64", {0xF0, 0x3C}), 0xC0u);
  EXPECT_EQ(evalMask("S_OR_B64", {0xF0, 0x0F}), 0xFFu);
  EXPECT_FALSE(evalMask("S_MUL_I32", {1, 2}).has_value());
}

TEST(WaveValues, ThresholdPerWave) {
  // tid < 256 holds in every lane of waves 0-3 and in none of waves 4-7;
  // tid < 200 splits wave 3 (lanes 0-7 on one side).
  for (unsigned W = 0; W < 8; ++W) {
    unsigned True256 = 0, True200 = 0;
    for (unsigned L = 0; L < Lanes; ++L) {
      True256 += *evalCompare("V_CMP_GT_U32_e64", 256, W * Lanes + L);
      True200 += *evalCompare("V_CMP_GT_U32_e64", 200, W * Lanes + L);
    }
    EXPECT_EQ(True256, W < 4 ? Lanes : 0u);
    EXPECT_EQ(True200, W < 3 ? Lanes : W == 3 ? 8u : 0u);
  }
}

TEST(WaveValues, SetNames) {
  EXPECT_EQ(waveSetName(0xF0), "waves 4-7");
  EXPECT_EQ(waveSetName(0x8), "wave 3");
  EXPECT_EQ(waveSetName(0x33), "waves 0-1, 4-5");
}
