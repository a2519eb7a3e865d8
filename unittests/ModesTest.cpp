//===- ModesTest.cpp - the mode registry ----------------------------------===//
//
// Modes.def is read by the plugin's option, directives, layoutFor and
// candidateModes and by the MLIR front: its derived views are pinned here
// (names round-trip, the auto rule at each threshold, the preconditions the
// front warns about).
//
//===----------------------------------------------------------------------===//
#include "pingpong/Modes/Modes.h"

#include "gtest/gtest.h"

using namespace pingpong;

namespace {

TEST(ModesTest, NamesRoundTrip) {
  unsigned I = 0;
  for (const ModeInfo &Row : allModes()) {
    EXPECT_EQ(unsigned(Row.M), I++) << Row.Name; // Rows[i] is Mode(i)
    EXPECT_EQ(parseMode(Row.Name), Row.M);
    EXPECT_STREQ(modeName(Row.M), Row.Name);
    EXPECT_NE(validModes().find(Row.Name), std::string::npos);
  }
  EXPECT_EQ(parseMode("sideways"), std::nullopt);
  EXPECT_EQ(validModes().rfind("expected one of: auto, off, one-cluster", 0),
            0u);
}

TEST(ModesTest, AutoRuleAtThresholds) {
  using V = std::vector<Mode>;
  EXPECT_EQ(autoGemmModes(4, tile::Min - 1), V{});
  EXPECT_EQ(autoGemmModes(4, tile::Min), V{Mode::OnePP});
  EXPECT_EQ(autoGemmModes(4, tile::Small), V{Mode::OnePP});
  EXPECT_EQ(autoGemmModes(4, tile::Small + 1), V{Mode::SingleWave});
  EXPECT_EQ(autoGemmModes(8, tile::TwoClusterMin - 1), V{});
  EXPECT_EQ(autoGemmModes(8, tile::TwoClusterMin), V{Mode::TwoPP});
  EXPECT_EQ(autoGemmModes(8, tile::Large - 1), V{Mode::TwoPP});
  EXPECT_EQ(autoGemmModes(8, tile::Large), (V{Mode::FourPP, Mode::TwoPP}));
  EXPECT_EQ(autoGemmModes(16, tile::Large), V{});
  auto Min4 = autoMinTile(4), Min8 = autoMinTile(8);
  ASSERT_TRUE(Min4 && Min8);
  EXPECT_EQ(*Min4, std::make_pair(tile::Min, Mode::OnePP));
  EXPECT_EQ(*Min8, std::make_pair(tile::TwoClusterMin, Mode::TwoPP));
  EXPECT_EQ(autoMinTile(2), std::nullopt);
}

TEST(ModesTest, ForcedModePreconditions) {
  EXPECT_EQ(forcedModeConflict(Mode::TwoPP, 4, false),
            "two-cluster needs 8 waves per workgroup; this loop has 4");
  EXPECT_EQ(forcedModeConflict(Mode::TwoPP, 8, false), "");
  EXPECT_EQ(forcedModeConflict(Mode::TwoPP, 0, false), ""); // waves unknown
  EXPECT_EQ(forcedModeConflict(Mode::ChainedPP, 2, false),
            "chained-dot needs 4 or 8 waves per workgroup; this loop has 2");
  EXPECT_EQ(forcedModeConflict(Mode::OnePP, 8, false), "");
  EXPECT_NE(forcedModeConflict(Mode::OnePP, 4, true), "");
  EXPECT_EQ(forcedModeConflict(Mode::AsyncOnePP, 4, false),
            "async-one-cluster needs LDS DMA in the loop");
  EXPECT_EQ(forcedModeConflict(Mode::AsyncOnePP, 4, true), "");
  EXPECT_EQ(forcedModeConflict(Mode::Auto, 16, true), "");
  EXPECT_EQ(forcedModeConflict(Mode::Off, 16, true), "");
}

} // namespace
