//===- AttachMetadata.cpp - --pingpong-attach-metadata --------------------===//
//
// Emission side of the tags, on the LLVM dialect (after convert-gpu-to-rocdl
// or -nvvm): the tags ride on locations (Annotate.cpp), so here
//   - a back-edge branch whose location carries #pingpong.loop gets the
//     discardable attribute pingpong.loop (pingpong-translate writes it into
//     the branch's !llvm.loop),
//   - a load/store/LDS-DMA whose location carries #pingpong.mem gets the
//     alias scope of its buffer, and the scopes of the other LDS buffers as
//     noalias scopes (distinct workgroup buffers never overlap; global
//     buffers get a scope only, since kernel arguments may alias),
//   - the locations lose the tags, so debug info sees the source locations.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Dialect/PingpongPasses.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Location.h"
#include <map>

namespace mlir::pingpong {
#define GEN_PASS_DEF_PINGPONGATTACHMETADATA
#include "pingpong/Dialect/PingpongPasses.h.inc"
} // namespace mlir::pingpong

using namespace mlir;
using namespace mlir::pingpong;

namespace {

template <typename TagT> TagT findTag(Location L) {
  TagT Found;
  L->walk([&](Location Sub) {
    if (auto F = dyn_cast<FusedLoc>(Sub))
      if (auto T = dyn_cast_or_null<TagT>(F.getMetadata())) {
        Found = T;
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return Found;
}

/// `L` without pingpong tags.
Location strip(Location L) {
  MLIRContext *Ctx = L->getContext();
  if (auto F = dyn_cast<FusedLoc>(L)) {
    SmallVector<Location> Locs;
    for (Location Sub : F.getLocations())
      Locs.push_back(strip(Sub));
    Attribute Md = F.getMetadata();
    if (isa_and_nonnull<LoopAttr, MemAttr>(Md))
      Md = {};
    return FusedLoc::get(Ctx, Locs, Md);
  }
  if (auto C = dyn_cast<CallSiteLoc>(L))
    return CallSiteLoc::get(strip(C.getCallee()), strip(C.getCaller()));
  if (auto N = dyn_cast<NameLoc>(L))
    return NameLoc::get(N.getName(), strip(N.getChildLoc()));
  return L;
}

bool isLDSRole(MemRole R) { return R != MemRole::GlobalLoad; }

struct PingpongAttachMetadata
    : public pingpong::impl::PingpongAttachMetadataBase<PingpongAttachMetadata> {
  using PingpongAttachMetadataBase::PingpongAttachMetadataBase;

  void runOnOperation() override {
    getOperation()->walk([&](LLVM::LLVMFuncOp F) {
      if (failed(attach(F)))
        signalPassFailure();
    });
  }

  LogicalResult attach(LLVM::LLVMFuncOp F) {
    MLIRContext *Ctx = &getContext();
    if (F.getBody().empty())
      return success();

    // Loops: the tag goes on each back edge (a branch to a block that
    // dominates it) whose location carries it.
    DominanceInfo Dom(F);
    SetVector<Attribute> Tagged, Placed;
    SmallVector<Operation *> Latches;
    SmallVector<LoopAttr> LatchTags;
    F.walk([&](Operation *Op) {
      LoopAttr Tag = findTag<LoopAttr>(Op->getLoc());
      if (!Tag)
        return;
      Tagged.insert(Tag);
      if (!isa<LLVM::BrOp, LLVM::CondBrOp>(Op))
        return;
      for (Block *Succ : Op->getSuccessors())
        if (Dom.dominates(Succ, Op->getBlock())) {
          if (!functionAttr)
            Op->setAttr(kLoopAttr, Tag);
          LatchTags.push_back(Tag);
          // cf-to-llvm copies scf.for's llvm.loop_annotation as a discardable
          // attribute, which the translation ignores: make it the branch's
          // own loop_annotation (unroll disabled by pingpong-annotate).
          if (auto A = Op->getAttrOfType<LLVM::LoopAnnotationAttr>(
                  "llvm.loop_annotation")) {
            Op->removeAttr("llvm.loop_annotation");
            if (auto Br = dyn_cast<LLVM::BrOp>(Op))
              Br.setLoopAnnotationAttr(A);
            else
              cast<LLVM::CondBrOp>(Op).setLoopAnnotationAttr(A);
          }
          Placed.insert(Tag);
          Latches.push_back(Op);
          break;
        }
    });
    for (Attribute T : Tagged)
      if (!Placed.contains(T))
        return F.emitError()
               << "pingpong: a tagged K loop of '" << F.getName()
               << "' has no back-edge branch left after lowering (" << T
               << ")";

    // Memory ops: one alias scope per (address space, buffer).
    // Key: "lds <buffer>" or "global <buffer>".
    std::map<std::string, LLVM::AliasScopeAttr> Scopes; // ordered: stable output
    auto KeyOf = [](MemAttr Tag) {
      return (isLDSRole(Tag.getRole()) ? "lds " : "global ") +
             Tag.getBuffer().str();
    };
    LLVM::AliasScopeDomainAttr Domain;
    SmallVector<std::pair<LLVM::AliasAnalysisOpInterface, MemAttr>> MemOps;
    F.walk([&](LLVM::AliasAnalysisOpInterface Op) {
      MemAttr Tag = findTag<MemAttr>(Op->getLoc());
      if (!Tag)
        return;
      MemOps.push_back({Op, Tag});
      std::string Key = KeyOf(Tag);
      if (Scopes.count(Key))
        return;
      if (!Domain)
        Domain = LLVM::AliasScopeDomainAttr::get(
            Ctx, DistinctAttr::create(UnitAttr::get(Ctx)),
            StringAttr::get(Ctx, "pingpong " + F.getName()));
      Scopes[Key] = LLVM::AliasScopeAttr::get(
          Ctx, DistinctAttr::create(UnitAttr::get(Ctx)), Domain,
          StringAttr::get(Ctx, "pingpong " + Key + " (" +
                                   stringifyOperand(Tag.getOperand()) + ")"));
    });
    for (auto [Op, Tag] : MemOps) {
      bool LDS = isLDSRole(Tag.getRole());
      LLVM::AliasScopeAttr Own = Scopes[KeyOf(Tag)];
      SmallVector<Attribute> Alias, NoAlias;
      if (ArrayAttr Old = Op.getAliasScopesOrNull())
        Alias.append(Old.begin(), Old.end());
      if (ArrayAttr Old = Op.getNoAliasScopesOrNull())
        NoAlias.append(Old.begin(), Old.end());
      Alias.push_back(Own);
      if (LDS)
        for (auto &[Key, Scope] : Scopes)
          if (StringRef(Key).starts_with("lds ") && Scope != Own)
            NoAlias.push_back(Scope);
      Op.setAliasScopes(ArrayAttr::get(Ctx, Alias));
      if (!NoAlias.empty())
        Op.setNoAliasScopes(ArrayAttr::get(Ctx, NoAlias));
    }

    // For stock mlir-translate (which cannot parse pingpong attributes nor
    // write custom loop metadata): the mode as a function attribute instead,
    // when the function's tagged loops agree and none is a layout.
    if (functionAttr && !Latches.empty()) {
      std::optional<Mode> Common;
      bool Agree = true;
      for (LoopAttr T : LatchTags) {
        Agree &= !T.getLayout() && (!Common || *Common == T.getMode());
        Common = T.getMode();
      }
      if (Agree && *Common != Mode::Auto) {
        SmallVector<Attribute> Pass;
        if (ArrayAttr Old = F.getPassthroughAttr())
          Pass.append(Old.begin(), Old.end());
        Pass.push_back(ArrayAttr::get(
            Ctx, {StringAttr::get(Ctx, "amdgpu-pingpong"),
                  StringAttr::get(Ctx, stringifyMode(*Common))}));
        F.setPassthroughAttr(ArrayAttr::get(Ctx, Pass));
      } else if (!Agree) {
        F.emitWarning() << "pingpong: tagged loops of '" << F.getName()
                        << "' differ: no function attribute set";
      }
    }

    // Tags off the locations (ops and block arguments).
    F.walk([&](Operation *Op) {
      Op->setLoc(strip(Op->getLoc()));
      for (Region &R : Op->getRegions())
        for (Block &B : R)
          for (BlockArgument A : B.getArguments())
            A.setLoc(strip(A.getLoc()));
    });
    return success();
  }
};

} // namespace
