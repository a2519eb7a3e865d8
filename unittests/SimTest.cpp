//===- SimTest.cpp - the cycle model as a library -------------------------===//
//
// Links PingpongSim (lib/Sim) without the tool: parseProgram on assembly held
// in memory, simulate and verifyTraces, checked against numbers worked out by
// hand (the same kernels as test/tools/pingpong-sim/vmem-latency.s).
//
//===----------------------------------------------------------------------===//
#include "pingpong/Sim/Sim.h"
#include "pingpong/Sim/Verify.h"

#include "gtest/gtest.h"

using namespace ppsim;

namespace {

// One wave: a 16-byte load per lane, wait for it, loop.
const char *VmemLoop = R"(
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.text
	.globl vmem
	.type vmem,@function
vmem:
.LBB0_1:
	global_load_dwordx4 v[0:3], v[4:5], off
	s_waitcnt vmcnt(0)
	s_cbranch_scc0 .LBB0_1
	s_endpgm
)";

bool parse(const std::string &Text, Program &P, SimError &E) {
  ParseOptions PO;
  PO.File = "<memory>";
  PO.Source = Text;
  return parseProgram(PO, P, E);
}

SimOptions oneWave() {
  SimOptions SO;
  SO.WavesPerWorkgroup = 1;
  SO.Iterations = 8;
  SO.Loop = ".LBB0_1";
  return SO;
}

TEST(SimTest, VmemLatencyFromMemory) {
  Program P;
  SimError E;
  ASSERT_TRUE(parse(VmemLoop, P, E)) << E.Message;
  EXPECT_EQ(P.Mcpu, "gfx950");
  ASSERT_EQ(P.Insts.size(), 4u);
  SimResult R;
  ASSERT_TRUE(simulate(P, oneWave(), R, E)) << E.Message;
  // gfx950 HBM latency 650: the data is back at t+650, the wait passes at the
  // wave's next issue turn (t+652), the branch issues at t+656 and the next
  // load at t+660.
  EXPECT_DOUBLE_EQ(R.CyclesPerIter, 660.0);
  EXPECT_EQ(R.Iterations, 8);
}

TEST(SimTest, L2HitLatency) {
  Program P;
  SimError E;
  ASSERT_TRUE(parse(VmemLoop, P, E)) << E.Message;
  SimOptions SO = oneWave();
  SO.L2HitRate = 1;
  SimResult R;
  ASSERT_TRUE(simulate(P, SO, R, E)) << E.Message;
  // L2 hit latency 336 (on a turn): wait t+336, branch t+340, load t+344.
  EXPECT_DOUBLE_EQ(R.CyclesPerIter, 344.0);
  EXPECT_EQ(R.LoopL2Hits, 8);
}

TEST(SimTest, TargetNotModelled) {
  std::string Text = VmemLoop;
  Text.replace(Text.find("gfx950"), 6, "gfx90a");
  Program P;
  SimError E;
  EXPECT_FALSE(parse(Text, P, E));
  EXPECT_EQ(E.Code, Errc::TargetNotModelled);
  EXPECT_EQ(E.exitCode(), 1);
}

// Two waves: each writes its own 256 bytes of LDS, then reads the other
// wave's. Without a barrier between, the read and the other wave's write are
// in the same barrier phase: a race. With one, the checker proves the order.
std::string exchange(bool Barrier) {
  return std::string(R"(
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl xchg
	.type xchg,@function
xchg:
	v_lshlrev_b32 v1, 2, v0
	v_xor_b32 v3, 0x100, v1
	ds_write_b32 v1, v2
	s_waitcnt lgkmcnt(0)
)") + (Barrier ? "\ts_barrier\n" : "") + R"(	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
)";
}

VerifyResult verifyExchange(bool Barrier, bool &Clean) {
  Program P;
  SimError E;
  VerifyResult V;
  Clean = false;
  if (!parse(exchange(Barrier), P, E)) {
    ADD_FAILURE() << E.Message;
    return V;
  }
  SimOptions SO;
  SO.WavesPerWorkgroup = 2;
  SO.Iterations = 4;
  SO.Trace = true;
  SimResult R;
  if (!simulate(P, SO, R, E)) {
    ADD_FAILURE() << E.Message;
    return V;
  }
  EXPECT_FALSE(R.HasLoop);
  VerifyContext C{P, R, R.WavesPerWg, R.Wgs};
  Clean = verifyTraces(C, V);
  return V;
}

TEST(SimTest, VerifyLdsExchange) {
  bool Clean = false;
  VerifyResult V = verifyExchange(/*Barrier=*/false, Clean);
  EXPECT_FALSE(Clean);
  EXPECT_NE(V.Finding.find("LDS race"), std::string::npos) << V.Finding;

  V = verifyExchange(/*Barrier=*/true, Clean);
  EXPECT_TRUE(Clean) << V.Finding;
  EXPECT_EQ(V.Waves, 2);
  EXPECT_EQ(V.Barriers, 1);
  // 2 waves x (1 write + 1 read), every address known
  EXPECT_EQ(V.LdsAccesses, 4);
  EXPECT_EQ(V.UnknownAddr, 0);
  EXPECT_EQ(V.Unproven, 0);
}

} // namespace
