//===- IRAddressTest.cpp - the shared range evaluator and GEP walker -----===//
//
// IntRanges and walkGEPs (lib/Analysis/IRAddress.cpp) on small IR functions:
// the two callers (RelocateExchange, LDSObjects) read LDS addresses through
// them, so what they bound here is what both passes see.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/IRAddress.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

#include <memory>
#include <vector>

using namespace llvm;
using namespace pingpong;

namespace {

struct IRFixture : ::testing::Test {
  LLVMContext Ctx;
  std::unique_ptr<Module> M;

  void parse(const char *IR) {
    SMDiagnostic Err;
    M = parseAssemblyString(IR, Err, Ctx);
    if (!M)
      Err.print("IRAddressTest", errs());
    ASSERT_TRUE(M);
  }
  /// The instruction named Name in function F.
  const Value *val(StringRef F, StringRef Name) {
    for (const Instruction &I : instructions(*M->getFunction(F)))
      if (I.getName() == Name)
        return &I;
    ADD_FAILURE() << "no %" << Name.str() << " in " << F.str();
    return nullptr;
  }
  /// [lo, hi] of V as unsigned numbers, or {1, 0} when not bounded.
  std::pair<uint64_t, uint64_t> bounds(const Value *V) {
    IntRanges R(M->getDataLayout());
    auto B = R.indexBounds(V);
    return B ? *B : std::make_pair(uint64_t(1), uint64_t(0));
  }
};

constexpr const char *Kernels = R"IR(
target datalayout = "e-p:64:64-p3:32:32-i64:64-n32:64"

@buf = internal addrspace(3) global [2 x [64 x i32]] poison
@st = internal addrspace(3) global { i32, [8 x i64] } poison

declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x()
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.y()
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.z()

define amdgpu_kernel void @wg256() #0 {
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  %y = call i32 @llvm.amdgcn.workitem.id.y()
  %z = call i32 @llvm.amdgcn.workitem.id.z()
  %lane4 = shl i32 %x, 2
  %hi = and i32 %x, 192
  %lo = and i32 %x, 15
  %both = or disjoint i32 %hi, %lo
  ret void
}

define amdgpu_kernel void @noattr() {
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  ret void
}

define amdgpu_kernel void @loop(i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %body
body:
  %t = phi i32 [ 0, %entry ], [ %t.next, %body ]
  %stage = phi i32 [ 0, %entry ], [ %stage.next, %body ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %t.next = xor i32 %t, 1
  %inc = add i32 %stage, 1
  %wrap = icmp slt i32 %inc, 3
  %stage.next = select i1 %wrap, i32 %inc, i32 0
  %p = getelementptr [2 x [64 x i32]], ptr addrspace(3) @buf, i32 0, i32 %t.next, i32 %tid
  %q = getelementptr i8, ptr addrspace(3) %p, i32 4
  %f = getelementptr { i32, [8 x i64] }, ptr addrspace(3) @st, i32 0, i32 1, i32 %stage
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
)IR";

using IntRangesTest = IRFixture;

// The kernel's flat work-group size bounds every dimension's id, and what is
// computed from it; without the attribute, the intrinsic's declared range.
TEST_F(IntRangesTest, WorkItemIdByFlatWorkGroupSize) {
  parse(Kernels);
  using B = std::pair<uint64_t, uint64_t>;
  EXPECT_EQ(bounds(val("wg256", "x")), B(0, 255));
  EXPECT_EQ(bounds(val("wg256", "y")), B(0, 255));
  EXPECT_EQ(bounds(val("wg256", "z")), B(0, 255));
  EXPECT_EQ(bounds(val("wg256", "lane4")), B(0, 1020));
  EXPECT_EQ(bounds(val("wg256", "both")), B(0, 207));
  EXPECT_EQ(bounds(val("noattr", "x")), B(0, 1023));
  IntRanges R(M->getDataLayout());
  EXPECT_EQ(R.of(val("wg256", "x")),
            ConstantRange(APInt(32, 0), APInt(32, 256)));
}

// A double buffer's toggle (phi 0, t ^ 1) and Triton's rotating stage index
// (select narrowed by its icmp against a constant), by the PHIs' fixed point.
TEST_F(IntRangesTest, ToggleAndNarrowedSelect) {
  parse(Kernels);
  using B = std::pair<uint64_t, uint64_t>;
  EXPECT_EQ(bounds(val("loop", "t")), B(0, 1));
  EXPECT_EQ(bounds(val("loop", "t.next")), B(0, 1));
  EXPECT_EQ(bounds(val("loop", "stage")), B(0, 2));
  EXPECT_EQ(bounds(val("loop", "stage.next")), B(0, 2));
  EXPECT_EQ(bounds(val("loop", "inc")), B(1, 3));
  // A counter to an argument: no bound.
  EXPECT_EQ(bounds(val("loop", "i")), B(1, 0));
}

// The walker: constant indices and struct fields into the constant, every
// other index with its stride, down to the object.
TEST(WalkGEPs, IndicesStridesAndBase) {
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(Kernels, Err, Ctx);
  ASSERT_TRUE(M);
  const DataLayout &DL = M->getDataLayout();
  const Value *Buf = M->getNamedGlobal("buf"), *St = M->getNamedGlobal("st");
  auto Named = [&](StringRef N) -> const Value * {
    for (const Instruction &I : instructions(*M->getFunction("loop")))
      if (I.getName() == N)
        return &I;
    return nullptr;
  };
  std::vector<std::pair<std::string, uint64_t>> Seen;
  auto Record = [&](const Value *Idx, uint64_t Stride) {
    Seen.push_back({Idx->getName().str(), Stride});
    return true;
  };
  int64_t Const = 0;
  EXPECT_EQ(walkGEPs(Named("q"), DL, Const, Record), Buf);
  EXPECT_EQ(Const, 4);
  ASSERT_EQ(Seen.size(), 2u);
  EXPECT_EQ(Seen[0], std::make_pair(std::string("t.next"), uint64_t(256)));
  EXPECT_EQ(Seen[1], std::make_pair(std::string("tid"), uint64_t(4)));

  Seen.clear();
  Const = 0;
  EXPECT_EQ(walkGEPs(Named("f"), DL, Const, Record), St);
  EXPECT_EQ(Const, 8); // field 1 of { i32, [8 x i64] }
  ASSERT_EQ(Seen.size(), 1u);
  EXPECT_EQ(Seen[0], std::make_pair(std::string("stage"), uint64_t(8)));

  // Stopping at a GEP, and a refused index.
  Const = 0;
  EXPECT_EQ(walkGEPs(Named("q"), DL, Const, Record,
                     [&](const Value *V) { return V == Named("p"); }),
            Named("p"));
  EXPECT_EQ(Const, 4);
  Const = 0;
  EXPECT_EQ(walkGEPs(Named("q"), DL, Const,
                     [](const Value *, uint64_t) { return false; }),
            nullptr);
}

} // namespace
