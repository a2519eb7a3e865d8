//===- Annotate.cpp - --pingpong-annotate ---------------------------------===//
//
// Per K loop: analysis (KLoop.h), then the strategy (chooseMode: the plugin's
// auto rule from the mode registry, Modes/Modes.h, or the user's pingpong.mode
// / pingpong.layout, with a warning where the registry says the plugin will
// refuse the forced mode), then the tags:
//   scf.for   pingpong.loop = #pingpong.loop<...>, llvm.loop_annotation with
//             unroll disabled (LLVM must not unroll a scheduled loop)
//   mem ops   pingpong.mem = #pingpong.mem<role, operand, buffer, kstep>
// Lowering to the LLVM dialect drops discardable attributes, but keeps
// locations; so each tag is also put on the op's location, as the metadata
// of a FusedLoc. --pingpong-attach-metadata reads it from there and restores
// the plain location.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Dialect/KLoop.h"
#include "pingpong/Dialect/PingpongPasses.h"
#include "pingpong/Modes/Modes.h" // the plugin's auto rule, mode preconditions

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Location.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::pingpong {
#define GEN_PASS_DEF_PINGPONGANNOTATE
#include "pingpong/Dialect/PingpongPasses.h.inc"
} // namespace mlir::pingpong

using namespace mlir;
using namespace mlir::pingpong;

namespace {

std::string tileText(const KLoop &K) {
  std::string S;
  if (auto T = K.tile())
    S = std::to_string((*T)[0]) + "x" + std::to_string((*T)[1]) + "x" +
        std::to_string((*T)[2]) + " = ";
  return S + std::to_string(K.tileBits()) + " bits";
}

/// Why a kernel without a workgroup size counts the waves it does.
std::string assumedWaves() {
  return " (no known_block_size: the ROCDL lowering gives the kernel the flat "
         "work-group size 1," +
         std::to_string(kROCDLDefaultFlatWorkGroupMax) +
         " and the plugin counts the waves of its maximum; give "
         "known_block_size to say how many it runs)";
}

/// The dialect's spelling of a registry mode (the lists are checked equal by
/// test/MLIR/modes-match.test).
Mode dialectMode(::pingpong::Mode M) {
  return *symbolizeMode(::pingpong::modeName(M));
}

/// The plugin's auto rule for a GEMM loop (Modes/Modes.h autoGemmModes, as
/// Schedule/ModeChoice.cpp candidateModes applies it) without the register
/// estimate: where the plugin chooses among modes by registers, the tag says
/// auto and leaves it to the plugin; ByRegisters names the modes it weighs.
std::optional<Mode> chooseMode(const KLoop &K, std::string &why,
                               std::string &ByRegisters) {
  uint64_t Bits = K.tileBits();
  if (K.waves == 0) {
    why = "workgroup size unknown (give the gpu.func known_block_size): "
          "cannot tell how waves share a SIMD";
    return std::nullopt;
  }
  auto Min = ::pingpong::autoMinTile(K.waves);
  if (!Min) {
    why = "workgroup of " + std::to_string(K.waves) +
          " waves: pingpong modes need 4 or 8";
    return std::nullopt;
  }
  std::vector<::pingpong::Mode> Modes = ::pingpong::autoGemmModes(K.waves, Bits);
  if (Modes.empty()) {
    why = "tile " + tileText(K) + " is below " + std::to_string(Min->first) +
          ", the smallest " + ::pingpong::modeName(Min->second) +
          " tile for " + std::to_string(K.waves) + " waves" +
          (K.wavesAssumed ? assumedWaves() : std::string());
    return std::nullopt;
  }
  bool Weighed = false;
  for (::pingpong::Mode M : Modes) {
    Weighed |= ::pingpong::modeInfo(M).ByRegisters;
    ByRegisters += std::string(ByRegisters.empty() ? "" : " or ") +
                   ::pingpong::modeName(M);
  }
  if (Modes.size() == 1)
    ByRegisters += " or none"; // the plugin refuses where it does not fit
  if (Weighed)
    return Mode::Auto;
  ByRegisters.clear();
  return dialectMode(Modes.front());
}

/// `loop_annotation` with unrolling disabled, other fields kept.
LLVM::LoopAnnotationAttr noUnroll(MLIRContext *Ctx,
                                  LLVM::LoopAnnotationAttr Old) {
  auto Unroll = LLVM::LoopUnrollAttr::get(
      Ctx, /*disable=*/BoolAttr::get(Ctx, true), /*count=*/{},
      /*runtimeDisable=*/{}, /*full=*/{}, /*followupUnrolled=*/{},
      /*followupRemainder=*/{}, /*followupAll=*/{});
  if (!Old)
    return LLVM::LoopAnnotationAttr::get(Ctx, {}, {}, {}, Unroll, {}, {}, {},
                                         {}, {}, {}, {}, {}, {}, {}, {});
  return LLVM::LoopAnnotationAttr::get(
      Ctx, Old.getDisableNonforced(), Old.getVectorize(), Old.getInterleave(),
      Unroll, Old.getUnrollAndJam(), Old.getLicm(), Old.getDistribute(),
      Old.getPipeline(), Old.getPeeled(), Old.getUnswitch(),
      Old.getMustProgress(), Old.getIsVectorized(), Old.getStartLoc(),
      Old.getEndLoc(), Old.getParallelAccesses());
}

/// Puts `tag` on the op as an attribute and on its location.
void tag(Operation *Op, StringRef Name, Attribute Tag) {
  Op->setAttr(Name, Tag);
  Op->setLoc(FusedLoc::get(Op->getContext(), {Op->getLoc()}, Tag));
}

struct PingpongAnnotate
    : public mlir::pingpong::impl::PingpongAnnotateBase<PingpongAnnotate> {
  using PingpongAnnotateBase::PingpongAnnotateBase;

  void runOnOperation() override {
    getOperation()->walk([&](FunctionOpInterface F) {
      if (!isa<LLVM::LLVMFuncOp>(F))
        annotate(F);
    });
  }

  void annotate(FunctionOpInterface F) {
    SmallVector<scf::ForOp> Loops;
    F->walk([&](scf::ForOp L) { Loops.push_back(L); });
    unsigned KLoops = 0;
    for (scf::ForOp L : Loops) {
      auto UserMode = L->getAttrOfType<StringAttr>(kModeAttr);
      auto UserLayout = L->getAttrOfType<StringAttr>(kLayoutAttr);
      std::string Why;
      Operation *At = nullptr;
      std::optional<KLoop> K = analyzeKLoop(L, Why, At);
      if (!K) {
        if (At || UserMode || UserLayout) {
          ++KLoops;
          InFlightDiagnostic D =
              (UserMode || UserLayout) ? emitWarning(L.getLoc()) : emitRemark(L.getLoc());
          D << "pingpong: loop not tagged: " << Why;
          if (At)
            D.attachNote(At->getLoc()) << "here";
        }
        continue;
      }
      ++KLoops;
      std::optional<Mode> M;
      std::string ByRegisters;
      bool User = UserMode || UserLayout;
      if (UserLayout)
        M = Mode::Auto;
      else if (UserMode)
        M = symbolizeMode(UserMode.getValue()); // verified by the dialect
      else if (!Why.empty()) {
        if (remarks) {
          InFlightDiagnostic D = emitRemark(L.getLoc())
                                 << "pingpong: loop not tagged: " << Why;
          D.attachNote(At->getLoc()) << "here";
        }
        continue;
      } else if (!(M = chooseMode(*K, Why, ByRegisters))) {
        if (remarks)
          emitRemark(L.getLoc()) << "pingpong: loop not tagged: " << Why;
        continue;
      }
      apply(*K, *M, User, UserLayout, ByRegisters);
      if (UserMode) {
        std::string Conflict = ::pingpong::forcedModeConflict(
            *::pingpong::parseMode(UserMode.getValue()), K->waves,
            K->count(MemRole::LdsDma) > 0);
        if (!Conflict.empty())
          emitWarning(L.getLoc())
              << "pingpong: the plugin will refuse the forced mode: "
              << Conflict;
      }
      if (User && !Why.empty()) {
        // Tagged as asked; the plugin will say it cannot apply it, at this
        // loop's location.
        InFlightDiagnostic D = emitWarning(L.getLoc())
                               << "pingpong: the plugin will likely refuse "
                                  "this loop: "
                               << Why;
        D.attachNote(At->getLoc()) << "here";
      }
    }
    if (!KLoops && remarks)
      emitRemark(F.getLoc()) << "pingpong: no K loop in '" << F.getName()
                     << "': no scf.for holds an MFMA";
  }

  void apply(const KLoop &K, Mode M, bool User, StringAttr Layout,
             StringRef ByRegisters) {
    MLIRContext *Ctx = &getContext();
    scf::ForOp L = K.loop;
    DenseI64ArrayAttr Tile;
    if (auto T = K.tile())
      Tile = DenseI64ArrayAttr::get(Ctx, *T);
    auto LoopTag = LoopAttr::get(Ctx, M, User, K.waves, K.stages(), Tile,
                                 K.bits, K.dots.size(), Layout);
    tag(L, kLoopAttr, LoopTag);
    L->setAttr("llvm.loop_annotation",
               noUnroll(Ctx, L->getAttrOfType<LLVM::LoopAnnotationAttr>(
                                 "llvm.loop_annotation")));
    for (const KLoopMemOp &Mem : K.mem)
      tag(Mem.op, kMemAttr,
          MemAttr::get(Ctx, Mem.role, Mem.operand, Mem.buffer, Mem.kstep));
    if (!remarks)
      return;
    InFlightDiagnostic D = emitRemark(L.getLoc());
    D << "pingpong: K loop tagged "
      << (Layout ? std::string("layout") : stringifyMode(M).str()) << " ("
      << (User              ? "user"
          : M != Mode::Auto ? "auto"
                            : ByRegisters.str() +
                                  " by the plugin's register estimate")
      << "): " << K.waves << " waves"
      << (K.wavesAssumed ? assumedWaves() : std::string()) << ", "
      << K.dots.size() << " MFMA "
      << K.mfmaM << "x" << K.mfmaN << "x" << K.mfmaK << ", tile "
      << tileText(K) << "; " << K.count(MemRole::GlobalLoad)
      << " global loads, " << K.count(MemRole::LdsWrite) << " LDS writes, "
      << K.count(MemRole::LdsRead) << " LDS reads, "
      << K.count(MemRole::LdsDma) << " LDS DMA, " << K.barriers.size()
      << " barriers";
  }
};

} // namespace
