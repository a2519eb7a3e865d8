//===- LoopModelTest.cpp - unit tests of the analysis helpers ------------===//
//
// The role analysis runs on a real MachineFunction: the focused loop of
// test/CodeGen/AMDGPU/Inputs/tiny-loop.ll stopped after processimpdefs
// (machine SSA, where the plugin runs), given in PINGPONG_TEST_MIR.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/Directives.h"
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Analysis/RegPressure.h"
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/ISA/Waitcnt.h"
#include "pingpong/Schedule/ClusterPlan.h"
#include "pingpong/Schedule/ModeChoice.h"
#include "pingpong/Target/MFMACycles.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/CodeGen/MIRParser/MIRParser.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/MachineDominators.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineModuleInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "gtest/gtest.h"

#include <cstdlib>
#include <set>

using namespace llvm;
using namespace pingpong;

extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeAMDGPUTarget();
extern "C" void LLVMInitializeAMDGPUTargetMC();

TEST(Waitcnt, Gfx9Encoding) {
  EXPECT_EQ(Waitcnt::lgkm(0).encodeGfx9(), 0xC07F); // lgkmcnt(0) alone
  EXPECT_EQ(Waitcnt::vm(0).encodeGfx9(), 0x0F70);
  // vmcnt is split: bits [3:0] and [15:14].
  EXPECT_EQ(Waitcnt::vm(0x25).encodeGfx9(), 0x8F75);
  Waitcnt W = Waitcnt::decodeGfx9(0x8F75);
  EXPECT_EQ(W.Vm, 0x25u);
  EXPECT_EQ(W.Lgkm, 15u);
  EXPECT_TRUE(Waitcnt::decodeGfx9(0xFFFF).waitsOnNothing());
  EXPECT_FALSE(Waitcnt::decodeGfx9(0xC07F).waitsOnNothing());
}

TEST(TargetFacts, Table) {
  using namespace pingpong::target;
  ASSERT_TRUE(factsFor("gfx942"));
  ASSERT_TRUE(factsFor("gfx950"));
  EXPECT_EQ(factsFor("gfx90a"), nullptr);
  EXPECT_EQ(factsFor("gfx942")->LDSBytesPerCU, 65536u);
  EXPECT_EQ(factsFor("gfx950")->LDSBytesPerCU, 163840u);
  EXPECT_EQ(supportedCPUList(), "gfx942 and gfx950");
  EXPECT_EQ(waveGroupBit(), 256u);
  EXPECT_EQ(vgprBudget(Gfx942, 2), 256u);
  EXPECT_EQ(Waitcnt::MaxVm, 63u);
  EXPECT_EQ(Waitcnt::MaxLgkm, 15u);
  EXPECT_EQ(Waitcnt::MaxExp, 7u);
}

// The table the plugin's copy-bound rule and pingpong-sim read, by opcode
// name (the plugin) as by mnemonic (the sim).
TEST(TargetFacts, MFMACyclesAndL2Share) {
  using namespace pingpong::target;
  EXPECT_EQ(mfmaTableCycles("V_MFMA_SCALE_F32_16X16X128_F8F6F4_f4_f4_vgprcd_e64", true), 16u);
  EXPECT_EQ(mfmaTableCycles("V_MFMA_SCALE_F32_16X16X128_F8F6F4_f8_f4_vgprcd_e64", true), 32u);
  EXPECT_EQ(mfmaTableCycles("V_MFMA_SCALE_F32_16X16X128_F8F6F4_f4_f8_vgprcd_e64", true), 32u);
  EXPECT_EQ(mfmaTableCycles("V_MFMA_SCALE_F32_16X16X128_F8F6F4_f4_f4_vgprcd_e64", false), 0u);
  EXPECT_EQ(mfmaTableCycles("V_MFMA_F32_16X16X16_F16_e64", false), 16u);
  EXPECT_EQ(mfmaTableCycles("v_mfma_f32_32x32x8_f16", false), 32u);
  EXPECT_EQ(mfmaTableCycles("V_MFMA_F32_16X16X16BF16_1K_vgprcd_e64", false), 16u);
  // LLVM's enum names drop the mnemonic's underscore before the type.
  EXPECT_EQ(mfmaTableCycles("V_MFMA_F32_16X16X16F16_vgprcd_e64", false), 16u);
  EXPECT_EQ(mfmaTableCycles("V_MFMA_F32_32X32X8F16_mac_e64", false), 32u);
  EXPECT_EQ(mfmaTableCycles("V_MFMA_F32_16X16X32_F16_vgprcd_e64", true), 16u);
  EXPECT_EQ(mfmaTableCycles("V_MFMA_F32_16X16X32_FP8_FP8_vgprcd_e64", false), 16u);
  EXPECT_EQ(mfmaTableCycles("V_ADD_F32_e32", true), 0u);
  EXPECT_DOUBLE_EQ(l2BytesPerClkPerCU(Gfx950), 64.0);
  EXPECT_NEAR(l2BytesPerClkPerCU(Gfx942), 53.9, 0.05);
}

TEST(Directives, ModeSpellings) {
  for (Mode M : {Mode::Auto, Mode::Off, Mode::OnePP, Mode::TwoPP, Mode::FourPP})
    EXPECT_EQ(parseMode(modeName(M)), M);
  EXPECT_FALSE(parseMode("sideways").has_value());
  EXPECT_FALSE(parseMode("").has_value());
}

namespace {
class TinyLoop : public ::testing::Test {
protected:
  void SetUp() override {
    const char *Path = std::getenv("PINGPONG_TEST_MIR");
    if (!Path)
      GTEST_SKIP() << "PINGPONG_TEST_MIR not set";
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    SMDiagnostic Err;
    Parser = createMIRParserFromFile(Path, Err, Ctx);
    ASSERT_TRUE(Parser) << Err.getMessage().str();
    Mod = Parser->parseIRModule();
    ASSERT_TRUE(Mod);
    Triple TT("amdgcn-amd-amdhsa");
    std::string Error;
    const Target *T = TargetRegistry::lookupTarget(TT, Error);
    ASSERT_TRUE(T) << Error;
    TM.reset(T->createTargetMachine(TT, "gfx942", "", TargetOptions(),
                                    std::nullopt, std::nullopt,
                                    CodeGenOptLevel::Aggressive));
    Mod->setDataLayout(TM->createDataLayout());
    MMI = std::make_unique<MachineModuleInfo>(TM.get());
    ASSERT_FALSE(Parser->parseMachineFunctions(*Mod, *MMI));
    MF = MMI->getMachineFunction(*Mod->getFunction("tiny"));
    ASSERT_TRUE(MF);
    MDT = std::make_unique<MachineDominatorTree>(*MF);
    MLI = std::make_unique<MachineLoopInfo>(*MDT);
    ASSERT_EQ(std::distance(MLI->begin(), MLI->end()), 1);
  }
  LLVMContext Ctx;
  std::unique_ptr<MIRParser> Parser;
  std::unique_ptr<Module> Mod;
  std::unique_ptr<TargetMachine> TM;
  std::unique_ptr<MachineModuleInfo> MMI;
  MachineFunction *MF = nullptr;
  std::unique_ptr<MachineDominatorTree> MDT;
  std::unique_ptr<MachineLoopInfo> MLI;
};
} // namespace

TEST_F(TinyLoop, Roles) {
  LoopAnalysis A = analyzeLoop(**MLI->begin(), *MF);
  ASSERT_TRUE(A.Model) << A.Why.Reason;
  const LoopModel &M = *A.Model;
  EXPECT_EQ(M.Waves, 8u);
  EXPECT_EQ(M.NumDots, 4u);
  EXPECT_EQ(M.NumAccumulators, 2u);
  EXPECT_EQ(M.ChainLen, 2u);
  EXPECT_EQ(M.Shape.M, 16u);
  EXPECT_EQ(M.Shape.K, 16u);
  EXPECT_EQ(M.Shape.ElemBits, 16u);
  EXPECT_EQ(M.NumGlobalLoads, 2u);
  EXPECT_EQ(M.NumLocalWrites, 2u);
  EXPECT_EQ(M.NumLocalReads, 2u); // two K steps merged per operand
  EXPECT_EQ(M.NumSync, 6u);       // 2 x (fence, s_barrier, fence)
  // 2048 halves per LDS buffer, K = 2 steps x 16: 64 x 64 x 32.
  EXPECT_EQ(M.TileM, 64u);
  EXPECT_EQ(M.TileN, 64u);
  EXPECT_EQ(M.TileK, 32u);
  EXPECT_EQ(M.Replication, 1u); // 8 waves x 4 MFMAs x 16*16*16 = 64*64*32

  unsigned A_Loads = 0, B_Loads = 0, A_Writes = 0, B_Writes = 0;
  for (const InstInfo &I : M.Insts) {
    if (I.R == Role::GlobalLoad)
      (I.Op == Operand::A ? A_Loads : B_Loads)++;
    if (I.R == Role::LocalWrite)
      (I.Op == Operand::A ? A_Writes : B_Writes)++;
    if (I.R == Role::LocalRead)
      EXPECT_EQ(I.KStep, 0u) << "a merged read belongs to its first K step";
    if (I.R == Role::Dot)
      EXPECT_LT(I.KStep, 2u);
  }
  EXPECT_EQ(A_Loads, 1u);
  EXPECT_EQ(B_Loads, 1u);
  EXPECT_EQ(A_Writes, 1u);
  EXPECT_EQ(B_Writes, 1u);
}

TEST_F(TinyLoop, LayoutsAndAutoChoice) {
  LoopAnalysis A = analyzeLoop(**MLI->begin(), *MF);
  ASSERT_TRUE(A.Model);
  Rejection Why;
  // 64x64x32 x 16 bits = 2097152: too small for 8 waves.
  EXPECT_TRUE(candidateModes(*A.Model, Why).empty());
  EXPECT_NE(Why.Reason.find("below 8388608"), std::string::npos) << Why.Reason;
  EXPECT_TRUE(layoutTwoPP(*A.Model, Why).has_value());
  // 2 K steps x 2 accumulators: four-cluster splits each K step's
  // accumulators, K-major (acc0 k0, acc1 k0, acc0 k1, acc1 k1).
  EXPECT_TRUE(layoutFourPP(*A.Model, Why, 0).has_value());
  std::vector<std::pair<unsigned, unsigned>> StepAndSlice;
  for (const InstInfo &I : A.Model->Insts)
    if (I.R == Role::Dot)
      StepAndSlice.push_back({I.KStep, A.Model->slice(I, 4)});
  ASSERT_EQ(StepAndSlice.size(), 4u);
  std::set<unsigned> Slices;
  for (auto [Step, Slice] : StepAndSlice) {
    EXPECT_EQ(Slice / 2, Step) << "K step 0 fills slices 0-1, step 1 slices 2-3";
    Slices.insert(Slice);
  }
  EXPECT_EQ(Slices.size(), 4u);
  for (const InstInfo &I : A.Model->Insts)
    if (I.R == Role::LocalRead)
      EXPECT_EQ(A.Model->slice(I, 4), 0u) << "reads go with their first user";
  // 4 MFMAs do not split into 3.
  EXPECT_FALSE(canSliceAcrossWaveGroups(*A.Model, 3, Mode::TwoPP, Why));
  EXPECT_NE(Why.Reason.find("split into 3 equal parts"), std::string::npos)
      << Why.Reason;
}

TEST_F(TinyLoop, F8F6F4Bits) {
  // The formats of an f8f6f4 MFMA follow its name: FP4 is 4 bits (an MXFP4
  // tile is half the bits of an FP8 one), FP6 6, FP8 8; the wider counts.
  const TargetInstrInfo &TII = *MF->getSubtarget().getInstrInfo();
  const OpcodeTable &T = OpcodeTable::get(TII);
  auto Bits = [&](StringRef Name) -> unsigned {
    for (unsigned Op = 0, E = TII.getNumOpcodes(); Op != E; ++Op)
      if (TII.getName(Op) == Name) {
        std::optional<MFMAShape> S = T.mfmaShape(Op);
        return S ? S->ElemBits : 0;
      }
    return 0;
  };
  EXPECT_EQ(Bits("V_MFMA_SCALE_F32_16X16X128_F8F6F4_f4_f4_vgprcd_e64"), 4u);
  EXPECT_EQ(Bits("V_MFMA_SCALE_F32_16X16X128_F8F6F4_f6_f4_vgprcd_e64"), 6u);
  EXPECT_EQ(Bits("V_MFMA_SCALE_F32_16X16X128_F8F6F4_f8_f4_vgprcd_e64"), 8u);
  EXPECT_EQ(Bits("V_MFMA_F32_16X16X32_FP8_FP8_vgprcd_e64"), 8u);
  EXPECT_EQ(Bits("V_MFMA_F32_16X16X16F16_vgprcd_e64"), 16u);
}

TEST_F(TinyLoop, OpcodeTable) {
  const OpcodeTable &T = OpcodeTable::get(*MF->getSubtarget().getInstrInfo());
  EXPECT_TRUE(T.builders().complete());
  unsigned Kinds[16] = {};
  for (const MachineBasicBlock &MBB : *MF)
    for (const MachineInstr &MI : MBB)
      Kinds[unsigned(T.classify(MI))]++;
  EXPECT_EQ(Kinds[unsigned(InstKind::MFMA)], 4u);
  EXPECT_EQ(Kinds[unsigned(InstKind::Barrier)], 2u);
  EXPECT_EQ(Kinds[unsigned(InstKind::Fence)], 4u);
  std::optional<MFMAShape> S;
  for (const MachineBasicBlock &MBB : *MF)
    for (const MachineInstr &MI : MBB)
      if (T.classify(MI) == InstKind::MFMA)
        S = T.mfmaShape(MI.getOpcode());
  ASSERT_TRUE(S);
  EXPECT_EQ(S->N, 16u);
}

// BodyPressure's "what if" queries, on edits whose effect is known without
// counting the loop: a vector value made before the loop and read in it is
// live at every point of the body (one register more at the peak, two for a
// 64-bit one); a copy of it is the same value; an instruction counted as
// deleted keeps nothing live.
TEST_F(TinyLoop, BodyPressureQueries) {
  MachineLoop &L = **MLI->begin();
  MachineBasicBlock &Body = *L.getHeader();
  MachineBasicBlock *Pre = L.getLoopPreheader();
  ASSERT_TRUE(Pre);
  MachineRegisterInfo &MRI = MF->getRegInfo();
  const TargetInstrInfo &TII = *MF->getSubtarget().getInstrInfo();
  const TargetRegisterInfo &TRI = *MF->getSubtarget().getRegisterInfo();
  const TargetRegisterClass *V32 = nullptr, *V64 = nullptr;
  for (const TargetRegisterClass *RC : TRI.regclasses()) {
    StringRef N = TRI.getRegClassName(RC);
    if (N == "VGPR_32")
      V32 = RC;
    else if (N == "VReg_64")
      V64 = RC;
  }
  ASSERT_TRUE(V32 && V64);

  BodyPressure P(Body, {});
  const unsigned Base = P.peak({});
  EXPECT_GT(Base, 0u);
  // The other question (a proposed order: ModeChoice's), asked of the
  // body's own order, counts the same.
  auto CurrentOrder = [&] {
    std::vector<const MachineInstr *> O;
    for (const MachineInstr &MI :
         make_range(Body.getFirstNonPHI(), Body.getFirstTerminator()))
      if (!MI.isDebugInstr())
        O.push_back(&MI);
    return O;
  };
  EXPECT_EQ(P.peakInOrder(CurrentOrder()), Base);
  // ModeChoice's entry, on a model of the body as it is now.
  auto ModelPeak = [&]() -> unsigned {
    LoopAnalysis LA = analyzeLoop(L, *MF);
    if (!LA.Model)
      return 0;
    std::vector<unsigned> Identity(LA.Model->Insts.size());
    for (unsigned I = 0; I < Identity.size(); ++I)
      Identity[I] = I;
    return peakVectorPressure(*LA.Model, Identity);
  };
  EXPECT_EQ(ModelPeak(), Base);

  // Registers made after P was built: found again on every query.
  DebugLoc DL;
  MachineBasicBlock::iterator PreEnd = Pre->getFirstTerminator();
  Register A = MRI.createVirtualRegister(V32);
  MachineInstr *DefA =
      BuildMI(*Pre, PreEnd, DL, TII.get(TargetOpcode::IMPLICIT_DEF), A);
  Register B = MRI.createVirtualRegister(V32);
  MachineInstr *CopyB =
      BuildMI(*Pre, PreEnd, DL, TII.get(TargetOpcode::COPY), B).addReg(A);
  Register W = MRI.createVirtualRegister(V64);
  MachineInstr *DefW =
      BuildMI(*Pre, PreEnd, DL, TII.get(TargetOpcode::IMPLICIT_DEF), W);
  MachineInstr *Use = BuildMI(Body, Body.getFirstNonPHI(), DL,
                              TII.get(TargetOpcode::KILL))
                          .addReg(A)
                          .addReg(B);
  EXPECT_EQ(P.peak({}), Base + 1) << "A and its copy B: one register";
  EXPECT_EQ(P.peakInOrder(CurrentOrder()), Base + 1)
      << "a proposed order counts A and B as one register too";
  EXPECT_EQ(BodyPressure(Body, {}).peakInOrder(CurrentOrder()), Base + 1)
      << "A and B known at construction: still one register";
  EXPECT_EQ(ModelPeak(), Base + 1) << "and so does a planned order";
  EXPECT_EQ(P.peak({Use}), Base) << "their only reader counted as deleted";
  EXPECT_EQ(P.peak({DefA, CopyB}), Base) << "their definitions deleted";
  Use->addOperand(MachineOperand::CreateReg(W, /*isDef=*/false));
  EXPECT_EQ(P.peak({}), Base + 3) << "a 64-bit value is two registers";
  EXPECT_EQ(P.peakInOrder(CurrentOrder()), Base + 3);

  // A register known when P was built is found again only if it is in
  // Changing: there, a reader counted as deleted frees it.
  BodyPressure Q(Body, {A, B, W});
  EXPECT_EQ(Q.peak({}), Base + 3);
  EXPECT_EQ(Q.peak({Use}), Base);
  EXPECT_EQ(Q.peak({DefW}), Base + 1);

  // Built now, A, B and W are live through the body, a constant of every
  // query; a copy of A made after is the same value, not one more.
  BodyPressure R(Body, {});
  EXPECT_EQ(R.peak({}), Base + 3);
  Register C = MRI.createVirtualRegister(V32);
  MachineInstr *CopyC =
      BuildMI(*Pre, PreEnd, DL, TII.get(TargetOpcode::COPY), C).addReg(A);
  Use->addOperand(MachineOperand::CreateReg(C, /*isDef=*/false));
  EXPECT_EQ(R.peak({}), Base + 3) << "C copies A, live through already";
  EXPECT_EQ(R.peak({Use}), Base + 3) << "A is not in Changing: kept";
  Use->removeOperand(Use->getNumOperands() - 1);
  CopyC->eraseFromParent();

  Use->eraseFromParent();
  DefW->eraseFromParent();
  CopyB->eraseFromParent();
  DefA->eraseFromParent();
  EXPECT_EQ(BodyPressure(Body, {}).peak({}), Base);
}
