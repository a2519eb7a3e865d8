//===- IterationValuesTest.cpp - a loop's values at another iteration -----===//
//
// IterationValues (lib/Passes/IRLoops.cpp) on a small rotated loop: both
// lookahead passes (LoadLookahead, DMALookahead) build the next iteration's
// and iteration 0's addresses through it, so what it refuses here is what
// neither pass may move.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Passes/IRLoops.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace pingpong;

namespace {

// %ip marks where the lookahead passes would put the early access; the
// induction step %i.next comes after it, as LSR leaves it.
constexpr const char *LoopIR = R"IR(
declare i64 @llvm.amdgcn.ballot.i64(i1)

define void @k(ptr addrspace(1) %p, i32 %n, i32 %d) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %off = shl i32 %i, 4
  %ld = load i32, ptr addrspace(1) %p
  %fromload = add i32 %i, %ld
  %div = sdiv i32 %i, %d
  %exec = call i64 @llvm.amdgcn.ballot.i64(i1 true)
  %lanes = trunc i64 %exec to i32
  %ip = add i32 %off, %lanes
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
)IR";

struct IterationValuesTest : ::testing::Test {
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  std::unique_ptr<DominatorTree> DT;
  std::unique_ptr<LoopInfo> LI;

  void SetUp() override {
    SMDiagnostic Err;
    M = parseAssemblyString(LoopIR, Err, Ctx);
    if (!M)
      Err.print("IterationValuesTest", errs());
    ASSERT_TRUE(M);
    DT = std::make_unique<DominatorTree>(*M->getFunction("k"));
    LI = std::make_unique<LoopInfo>(*DT);
  }
  Loop &loop() { return **LI->begin(); }
  Instruction *inst(StringRef Name) {
    for (Instruction &I : instructions(*M->getFunction("k")))
      if (I.getName() == Name)
        return &I;
    ADD_FAILURE() << "no %" << Name.str();
    return nullptr;
  }
};

TEST_F(IterationValuesTest, NextIterationRecomputesTheStepBeforeThePoint) {
  IterationValues At(loop(), ".x");
  Instruction *IP = inst("ip");
  ASSERT_TRUE(At.computable(inst("off"), IterationValues::Next));
  auto *Next = dyn_cast<Instruction>(At.get(inst("off"), IterationValues::Next, IP));
  ASSERT_TRUE(Next);
  // (i + 1) << 4, both copies before the insertion point.
  EXPECT_EQ(Next->getOpcode(), Instruction::Shl);
  EXPECT_TRUE(Next->comesBefore(IP));
  auto *Step = dyn_cast<Instruction>(Next->getOperand(0));
  ASSERT_TRUE(Step);
  EXPECT_NE(Step, inst("i.next"));
  EXPECT_EQ(Step->getOpcode(), Instruction::Add);
  EXPECT_EQ(Step->getOperand(0), inst("i"));
  EXPECT_TRUE(Step->comesBefore(Next));
  // A second request at the same point reuses the copies.
  EXPECT_EQ(At.get(inst("off"), IterationValues::Next, IP), Next);
}

TEST_F(IterationValuesTest, ThisIterationKeepsWhatIsAlreadyComputed) {
  IterationValues At(loop(), ".x");
  Instruction *IP = inst("ip");
  EXPECT_EQ(At.get(inst("off"), IterationValues::This, IP), inst("off"));
  // The exit test comes after the point: computed again before it.
  auto *Test = dyn_cast<Instruction>(At.get(inst("done"), IterationValues::This, IP));
  ASSERT_TRUE(Test);
  EXPECT_NE(Test, inst("done"));
  EXPECT_TRUE(Test->comesBefore(IP));
}

TEST_F(IterationValuesTest, FirstIterationFoldsInThePreheader) {
  IterationValues At(loop(), ".x");
  Instruction *PreEnd = loop().getLoopPreheader()->getTerminator();
  auto *C = dyn_cast<ConstantInt>(At.get(inst("off"), IterationValues::First, PreEnd));
  ASSERT_TRUE(C);
  EXPECT_TRUE(C->isZero());
}

TEST_F(IterationValuesTest, RefusesMemoryAndTraps) {
  IterationValues At(loop(), ".x");
  for (auto It : {IterationValues::First, IterationValues::This, IterationValues::Next}) {
    EXPECT_FALSE(At.computable(inst("fromload"), It)) << It;
    // sdiv by a variable may trap: a Next copy runs on the last iteration too.
    EXPECT_FALSE(At.computable(inst("div"), It)) << It;
    // ballot touches no memory and returns: copied in the loop's block or
    // its preheader, with the same lanes.
    EXPECT_TRUE(At.computable(inst("lanes"), It)) << It;
  }
}

} // namespace
