//===- LayoutTest.cpp - the layout text form: parse, print, errors --------===//
//
// parseLayout is the one way into a schedule for built-in modes and users
// alike (loop metadata, the MLIR front), so its grammar is pinned here: what
// each clause sets, that print() gives text that parses to the same layout,
// and that each malformed clause is an error naming it.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Schedule/Layout.h"

#include "gtest/gtest.h"

using namespace pingpong;

namespace {

ClusterLayout parseOK(llvm::StringRef Text, unsigned NumDots = 128) {
  std::string Error;
  std::optional<ClusterLayout> L = parseLayout(Text, NumDots, Error);
  EXPECT_TRUE(L.has_value()) << Text.str() << ": " << Error;
  return L ? *L : ClusterLayout();
}

std::string parseError(llvm::StringRef Text) {
  std::string Error;
  std::optional<ClusterLayout> L = parseLayout(Text, 128, Error);
  EXPECT_FALSE(L.has_value()) << Text.str() << " parsed";
  return Error;
}

const char *FourCluster =
    "pingpong-layout v1; sync barrier asymmetric delay-global-data; "
    "mem mem0: local-read[0/4]; mem+ mem0.global: global-load.a, "
    "global-load.-; dot dot0: dot[0/4]; mem mem1: local-read[1/4]; "
    "mem+ mem1.global: global-load.b; dot dot1: dot[1/4]; "
    "mem mem2: local-read[2-3/4]; dot dot2: dot[2/4]; mem mem3: local-write; "
    "dot dot3: dot[3/4]";

TEST(Layout, ClausesSetWhatTheySay) {
  ClusterLayout L = parseOK(FourCluster);
  EXPECT_TRUE(L.BarrierBetweenClusters);
  EXPECT_TRUE(L.AsymmetricSync);
  EXPECT_TRUE(L.DelayGlobalDataUse);
  EXPECT_FALSE(L.GateDotEntry);
  EXPECT_FALSE(L.DelayCopyAddress);
  ASSERT_EQ(L.Clusters.size(), 10u);
  EXPECT_EQ(L.Clusters[0].Name, "mem0");
  EXPECT_EQ(L.Clusters[0].Kind, ClusterKind::Mem);
  EXPECT_FALSE(L.Clusters[0].Joined);
  EXPECT_TRUE(L.Clusters[1].Joined);
  EXPECT_EQ(L.Clusters[2].Kind, ClusterKind::Dot);
  // local-read[2-3/4]: slices 2..3 of 4, any operand.
  const Selector &S = L.Clusters[6].Takes.at(0);
  EXPECT_EQ(S.R, Role::LocalRead);
  EXPECT_FALSE(S.Op.has_value());
  EXPECT_EQ(S.Slices, 4u);
  EXPECT_EQ(S.First, 2u);
  EXPECT_EQ(S.Last, 3u);
  // global-load.a, global-load.-: operand A, then "operand unknown".
  ASSERT_EQ(L.Clusters[1].Takes.size(), 2u);
  EXPECT_EQ(L.Clusters[1].Takes[0].Op, Operand::A);
  EXPECT_EQ(L.Clusters[1].Takes[1].Op, Operand::None);
  // mem mem1 / barrierAfter: a barrier after a cluster unless mem+ continues
  // it, and none after the last.
  EXPECT_FALSE(L.barrierAfter(0));
  EXPECT_TRUE(L.barrierAfter(1));
  EXPECT_FALSE(L.barrierAfter(9));
}

TEST(Layout, GroupsStagesPriorityDrainInterleave) {
  ClusterLayout L = parseOK(
      "pingpong-layout v1; sync dot-waits mem-priority operand-waits "
      "delay-copy-address; "
      "mem m0 prio=2 drain=lds: async-copy~1, local-read.b@1; "
      "dot d0 prio=3: dot@0; interleave d0: mfma 4, ds-read 1");
  EXPECT_FALSE(L.GateDotEntry);
  EXPECT_TRUE(L.WaitsInDot);
  EXPECT_TRUE(L.MemPriority);
  EXPECT_TRUE(L.OperandWaits);
  EXPECT_TRUE(L.DelayCopyAddress);
  ASSERT_EQ(L.Clusters.size(), 2u);
  EXPECT_EQ(L.Clusters[0].Sync.Priority, 2u);
  EXPECT_EQ(L.Clusters[0].Sync.Drain, true);
  EXPECT_EQ(L.Clusters[0].Takes[0].R, Role::AsyncCopy);
  EXPECT_EQ(L.Clusters[0].Takes[0].Stage, 1u);
  EXPECT_EQ(L.Clusters[0].Takes[1].Op, Operand::B);
  EXPECT_EQ(L.Clusters[0].Takes[1].Group, 1u);
  EXPECT_EQ(L.priority(0), 2u);
  ASSERT_EQ(L.Clusters[1].Interleave.size(), 2u);
  EXPECT_EQ(L.Clusters[1].Interleave[0].Size, 4u);
  EXPECT_EQ(L.Clusters[1].Interleave[0].Mask, interleaveMask("mfma"));
  EXPECT_EQ(L.Clusters[1].Interleave[1].Mask, interleaveMask("ds-read"));
}

TEST(Layout, PrintParsesBackToTheSameText) {
  for (const char *Text :
       {FourCluster,
        "pingpong-layout v1; sync gate dot-waits; mem m0 prio=1: "
        "local-read.a[0/2], global-load; dot d0: dot[0/2]; mem m1 drain=lds: "
        "local-write; dot d1: dot[1/2]; interleave d1: mfma 2, ds-write 1",
        "pingpong-layout v1; sync mem-priority delay-copy-address; "
        "mem m0: async-copy~2@0; "
        "dot d0: dot@0, inter-dot@0; mem m1: exchange-write, exchange-read; "
        "dot d1: dot@1"}) {
    ClusterLayout L = parseOK(Text);
    std::string Printed = L.print();
    ClusterLayout Again = parseOK(Printed);
    EXPECT_EQ(Again.print(), Printed) << Text;
    EXPECT_EQ(Again.Clusters.size(), L.Clusters.size()) << Text;
  }
}

TEST(Layout, MalformedClausesAreErrorsNamingThem) {
  EXPECT_EQ(parseError("v2; dot d0: dot"),
            "layout must start with 'pingpong-layout v1'");
  EXPECT_NE(parseError("pingpong-layout v1; mem m0: local-reads; dot d0: dot")
                .find("unknown role 'local-reads'"),
            std::string::npos);
  EXPECT_NE(parseError("pingpong-layout v1; mem m0: local-read; dot d0: dot[2/2]")
                .find("slice '[2/2]'"),
            std::string::npos);
  EXPECT_NE(parseError("pingpong-layout v1; mem m0: local-read.c; dot d0: dot")
                .find("unknown operand '.c'"),
            std::string::npos);
  EXPECT_EQ(parseError("pingpong-layout v1; mem m0: local-read"),
            "a layout needs at least one dot cluster");
  EXPECT_NE(parseError("pingpong-layout v1; mem+ m0: local-read; dot d0: dot")
                .find("mem+ must follow a memory cluster"),
            std::string::npos);
  EXPECT_NE(parseError("pingpong-layout v1; sync sideways; dot d0: dot")
                .find("unknown sync flag 'sideways'"),
            std::string::npos);
  EXPECT_NE(parseError("pingpong-layout v1; sync asymmetric; mem m0: "
                       "local-read; dot d0: dot")
                .find("sync asymmetric needs sync barrier"),
            std::string::npos);
  EXPECT_NE(parseError("pingpong-layout v1; sync barrier; mem m0 drain=none: "
                       "local-read; dot d0: dot")
                .find("drain=none before a barrier"),
            std::string::npos);
  EXPECT_NE(parseError("pingpong-layout v1; dot d0: dot; interleave d9: mfma 1")
                .find("no cluster 'd9'"),
            std::string::npos);
  EXPECT_NE(parseError("pingpong-layout v1; dot d0: dot; interleave d0: mfma 0")
                .find("interleave group 'mfma 0'"),
            std::string::npos);
  EXPECT_NE(parseError("pingpong-layout v1; mem m0 prio=7: local-read; dot d0: dot")
                .find("unknown sync attribute 'prio=7'"),
            std::string::npos);
  EXPECT_NE(parseError("pingpong-layout v1; sync gate mem-priority; dot d0: dot")
                .find("mem-priority and gate exclude each other"),
            std::string::npos);
  // Two clusters of one name (the remark and interleave clauses name them).
  EXPECT_NE(parseError("pingpong-layout v1; sync barrier; mem m0: local-read; "
                       "dot m0: dot")
                .find("a cluster named 'm0' already exists"),
            std::string::npos);
}

} // namespace
