//===- Directives.cpp - option, attribute and loop metadata ---------------===//
#include "pingpong/Analysis/Directives.h"

#include "llvm/Analysis/LoopInfo.h"

#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/ADT/DenseMap.h"
#include <mutex>

using namespace llvm;
namespace pingpong {

namespace {
/// cl::values from the registry: every mode with its description.
struct RegistryModes {
  template <class Opt> void apply(Opt &O) const {
    for (const ModeInfo &I : allModes())
      O.getParser().addLiteralOption(I.Name, I.M, I.Description);
  }
};
} // namespace

static cl::opt<Mode> PingpongMode(
    "amdgpu-pingpong", cl::init(Mode::Auto),
    cl::desc("Block pingpong for AMDGPU MFMA loops (AMDGPUPingpong plugin). "
             "Overrides the \"amdgpu-pingpong\" function attribute and "
             "!llvm.loop \"amdgpu.pingpong\" metadata unless auto"),
    RegistryModes());

Mode commandLineMode() { return PingpongMode; }

namespace {
/// Per function: AMDGPU's pipeline has module passes between CodeGenPrepare
/// and the machine passes, so every function's IR passes can run before the
/// first function's machine passes: one record per function, for the
/// module being compiled.
struct LoopIDRecord {
  std::mutex Lock;
  const Module *M = nullptr;
  DenseMap<const Function *, DenseMap<const BasicBlock *, MDNode *>> ByHeader;
};
LoopIDRecord &loopIDs() {
  static LoopIDRecord R;
  return R;
}
} // namespace

void recordLoopIDs(const Function &F,
                   ArrayRef<std::pair<const BasicBlock *, MDNode *>> IDs) {
  LoopIDRecord &R = loopIDs();
  std::lock_guard<std::mutex> G(R.Lock);
  if (R.M != F.getParent()) {
    R.M = F.getParent();
    R.ByHeader.clear();
  }
  auto &Mine = R.ByHeader[&F];
  Mine.clear();
  for (auto [BB, ID] : IDs)
    Mine[BB] = ID;
}

/// The loop's !llvm.loop: recorded before the structurizer, or still on the
/// latch (MIR input, targets that keep it).
static MDNode *loopID(const MachineLoop &L) {
  const MachineBasicBlock *Header = L.getHeader();
  const Function &F = Header->getParent()->getFunction();
  if (const BasicBlock *BB = Header->getBasicBlock()) {
    LoopIDRecord &R = loopIDs();
    std::lock_guard<std::mutex> G(R.Lock);
    auto Fn = R.ByHeader.find(&F);
    if (R.M == F.getParent() && Fn != R.ByHeader.end()) {
      auto It = Fn->second.find(BB);
      if (It != Fn->second.end())
        return It->second;
    }
  }
  const MachineBasicBlock *Latch = L.getLoopLatch();
  if (!Latch || !Latch->getBasicBlock())
    return nullptr;
  const Instruction *Term = Latch->getBasicBlock()->getTerminator();
  return Term ? Term->getMetadata(LLVMContext::MD_loop) : nullptr;
}

/// The string operand of a {!"<key>", !"<value>"} option, nullptr if the
/// node has another shape.
static MDString *optionValue(MDNode *Option) {
  return Option->getNumOperands() == 2
             ? dyn_cast_or_null<MDString>(Option->getOperand(1).get())
             : nullptr;
}

/// Finds {!"amdgpu.pingpong", !"<mode>"} or {!"amdgpu.pingpong.layout",
/// !"<text>"} in the loop's !llvm.loop.
static std::optional<Directive> loopDirective(const MachineLoop &L,
                                              std::string &Error) {
  MDNode *LoopMD = loopID(L);
  if (!LoopMD)
    return Directive{};
  if (MDNode *Option = findOptionMDForLoopID(LoopMD, "amdgpu.pingpong.layout")) {
    MDString *Val = optionValue(Option);
    if (!Val) {
      Error = "malformed !llvm.loop metadata \"amdgpu.pingpong.layout\": "
              "expected !{!\"amdgpu.pingpong.layout\", !\"pingpong-layout "
              "v1; ...\"}";
      return std::nullopt;
    }
    // A mode next to a layout (even "off") is a contradiction the user
    // must resolve, not one the plugin guesses at.
    if (MDNode *ModeOption = findOptionMDForLoopID(LoopMD, "amdgpu.pingpong")) {
      MDString *ModeVal = optionValue(ModeOption);
      if (!ModeVal || ModeVal->getString() != "auto") {
        Error = ("!llvm.loop has both \"amdgpu.pingpong\"" +
                 (ModeVal ? " \"" + ModeVal->getString() + "\"" : Twine("")) +
                 " and \"amdgpu.pingpong.layout\": give one of them")
                    .str();
        return std::nullopt;
      }
    }
    Directive D{Mode::Auto, "loop metadata"};
    D.LayoutText = Val->getString().str();
    return D;
  }
  MDNode *Option = findOptionMDForLoopID(LoopMD, "amdgpu.pingpong");
  if (!Option)
    return Directive{};
  MDString *Val = optionValue(Option);
  if (!Val) {
    Error = "malformed !llvm.loop metadata \"amdgpu.pingpong\": expected "
            "!{!\"amdgpu.pingpong\", !\"<mode>\"}";
    return std::nullopt;
  }
  std::optional<Mode> M = parseMode(Val->getString());
  if (!M) {
    Error = ("invalid !llvm.loop \"amdgpu.pingpong\" mode '" +
             Val->getString() + "': " + validModes())
                .str();
    return std::nullopt;
  }
  return Directive{*M, "loop metadata"};
}

std::optional<Directive> resolveDirective(const Function &F,
                                          const MachineLoop &L,
                                          std::string &Error) {
  Mode CL = commandLineMode();
  if (CL != Mode::Auto)
    return Directive{CL, "command line"};
  std::optional<Directive> LoopD = loopDirective(L, Error);
  if (!LoopD)
    return std::nullopt;
  if (LoopD->M != Mode::Auto || !LoopD->LayoutText.empty())
    return LoopD;
  if (F.hasFnAttribute("amdgpu-pingpong")) {
    StringRef V = F.getFnAttribute("amdgpu-pingpong").getValueAsString();
    std::optional<Mode> M = parseMode(V);
    if (!M) {
      Error = ("invalid function attribute \"amdgpu-pingpong\"=\"" + V +
               "\": " + validModes())
                  .str();
      return std::nullopt;
    }
    return Directive{*M, "function attribute"};
  }
  return Directive{};
}

} // namespace pingpong
