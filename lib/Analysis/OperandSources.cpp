//===- OperandSources.cpp - where each dot operand comes from -------------===//
//
// Concern (c) of the loop model. Walking back from each MFMA's A and B
// operand (and the A/B scales of v_mfma_scale_*) through copies,
// REG_SEQUENCEs and VALU ops (operand preparation) to:
//  - LDS reads (the GEMM case); a read takes the earliest K step that uses it
//    and the operand it feeds. The LDS buffer is filled by ds_writes of global
//    load data (walked back from each write's data) or by LDS DMA (Stages.cpp
//    says which DMA fills which read's buffer);
//  - global loads straight into registers (direct, or prefetched one
//    iteration ahead through a PHI). Where the path from such a load to the
//    MFMA always passes VALU arithmetic and the operand is read from LDS,
//    the load is a side input (a scale vector: A * s[k]), not the operand's
//    data: SideLoad;
//  - registers defined before the loop (attention's Q);
//  - another dot group's results (chained dots, DotGroups.cpp).
// An LDS read whose data reaches the MFMA through header PHIs and copies
// only (Triton's four-stage loops prefetch K's tile into registers for the
// next iteration) is a LocalRead one stage ahead (StagesAhead 1); one behind
// arithmetic of the previous iteration ends the analysis.
// A/B of writes and loads comes from the LDS buffer identity of the reads
// (sync::LDSRegion through Analysis/LDSObjects, the checker's identity).
//
//===----------------------------------------------------------------------===//
#include "ModelBuilder.h"
#include "pingpong/Analysis/LDSObjects.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineMemOperand.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

// A mask on an operand load (Triton's `mask=offs_k < K - k * BK`) is a select
// in the load's address or between the load and its LDS write: a data
// dependence like any other, which the dependence graph orders. Triton's own
// pingpong refuses such loops (#10585: its TTGIR pass slices the loads and
// re-synchronises them, and the slices lost the mask); a pass that only
// reorders machine instructions along their dependences does not.
static cl::opt<bool> RefuseMaskedLoads(
    "amdgpu-pingpong-refuse-masked-loads", cl::Hidden, cl::init(false),
    cl::desc("Refuse loops whose operand loads carry a loop-variant mask, as "
             "Triton's pingpong does (for bisecting)"));
namespace pingpong {

namespace {

/// Underlying IR object of a global load's memory operand, through
/// llvm.amdgcn.make.buffer.rsrc to the base pointer (the kernel argument).
const Value *globalObject(const MachineInstr &MI) {
  if (MI.memoperands_empty())
    return nullptr;
  const Value *V = (*MI.memoperands_begin())->getValue();
  if (!V)
    return nullptr;
  V = getUnderlyingObject(V);
  if (auto *II = dyn_cast<IntrinsicInst>(V))
    if (II->getIntrinsicID() == Intrinsic::amdgcn_make_buffer_rsrc)
      V = getUnderlyingObject(II->getArgOperand(0));
  return V;
}

class OperandTracer {
public:
  OperandTracer(ModelBuilder &B) : B(B), M(B.M) {}
  bool traceDot(unsigned DotPos);
  /// Direct loads reached through arithmetic only, of an operand that is
  /// read from LDS, become SideLoads.
  void classifySideLoads();

private:
  ModelBuilder &B;
  LoopModel &M;
  unsigned Group = 0;
  unsigned TracedDot = 0; // traceDot's DotPos
  SmallPtrSet<const MachineInstr *, 16> Seen;
  /// Direct loads some path reaches through copies alone: the operand's
  /// own data, not a side input.
  SmallPtrSet<const MachineInstr *, 8> ReachedAsIs;

  bool trace(Register Reg, unsigned UsePos, Operand Op, unsigned K,
             unsigned Order, unsigned Depth, bool OnlyCopies);
  /// A value from the previous iteration: follow copies to a global load
  /// (an operand prefetched into registers one iteration ahead).
  void traceCarried(Register Reg, Operand Op, unsigned K, unsigned Order,
                    unsigned Depth, bool AsIs);
  void direct(InstInfo &DI, Operand Op, unsigned StagesAhead, bool AsIs);
  /// An LDS read feeding the dot (K step K, dot order Order) in the same
  /// iteration (Ahead 0) or the next (Ahead 1, a register prefetch).
  void localRead(InstInfo &DI, Operand Op, unsigned K, unsigned Order,
                 unsigned Ahead);
};

void OperandTracer::direct(InstInfo &DI, Operand Op, unsigned StagesAhead,
                           bool AsIs) {
  if (DI.R != Role::Other && DI.R != Role::DirectLoad)
    return; // already the global load of an LDS write
  if (AsIs)
    ReachedAsIs.insert(DI.MI);
  if (DI.R == Role::Other) {
    DI.R = Role::DirectLoad;
    DI.Op = Op;
    DI.Group = Group;
  } else if (DI.Op != Op) {
    DI.Op = Operand::None;
  }
  DI.StagesAhead = std::max(DI.StagesAhead, StagesAhead);
}

void OperandTracer::localRead(InstInfo &DI, Operand Op, unsigned K,
                              unsigned Order, unsigned Ahead) {
  if (DI.R != Role::LocalRead) {
    DI.R = Role::LocalRead;
    DI.Op = Op;
    DI.KStep = K;
    DI.DotOrder = Order;
    DI.Group = Group;
    DI.StagesAhead = Ahead;
    return;
  }
  DI.KStep = std::min(DI.KStep, K);
  DI.DotOrder = std::min(DI.DotOrder, Order);
  if (DI.Op != Op)
    DI.Op = Operand::None;
  // Used in this iteration and the next: its registers are needed now.
  DI.StagesAhead = std::min(DI.StagesAhead, Ahead);
}

void OperandTracer::traceCarried(Register Reg, Operand Op, unsigned K,
                                 unsigned Order, unsigned Depth, bool AsIs) {
  if (!Reg.isVirtual() || Depth > 8)
    return;
  auto Phi = B.PhiFromBody.find(Reg);
  Register Latch = Phi != B.PhiFromBody.end() ? Phi->second : Reg;
  auto Defs = B.DefsOf.find(Latch);
  if (Defs == B.DefsOf.end())
    return;
  for (unsigned D : Defs->second) {
    InstInfo &DI = M.Insts[D];
    if (DI.Kind == InstKind::VMEMLoad) {
      direct(DI, Op, 1, AsIs);
      continue;
    }
    if (DI.Kind == InstKind::LDSRead) {
      if (DI.R != Role::ExchangeRead)
        localRead(DI, Op, K, Order, 1);
      continue;
    }
    if (DI.Kind == InstKind::Other && ModelBuilder::isCopyLike(*DI.MI))
      for (Register U : B.regUses(*DI.MI))
        traceCarried(U, Op, K, Order, Depth + 1, AsIs);
  }
}

bool OperandTracer::trace(Register Reg, unsigned UsePos, Operand Op,
                          unsigned K, unsigned Order, unsigned Depth,
                          bool OnlyCopies) {
  if (!Reg.isVirtual() || Depth > 16)
    return true;
  bool Carried;
  SmallVector<unsigned, 2> Defs = B.reachingDefs(Reg, UsePos, Carried);
  if (Defs.empty() && OnlyCopies && B.definedOutside(Reg))
    M.Groups[Group].source(Op).LoopInvariant = true;
  for (unsigned D : Defs) {
    InstInfo &DI = M.Insts[D];
    if (!Seen.insert(DI.MI).second) {
      // A load met before through arithmetic may now be met through copies.
      if (DI.Kind == InstKind::VMEMLoad && OnlyCopies &&
          DI.R == Role::DirectLoad)
        ReachedAsIs.insert(DI.MI);
      continue;
    }
    switch (DI.Kind) {
    case InstKind::LDSRead:
      if (DI.R == Role::ExchangeRead) {
        // Another group's results, through LDS (DotGroups.cpp).
        OperandSource &S = M.Groups[Group].source(Op);
        S.FromGroup = std::max(S.FromGroup, int(DI.Group));
        S.Exchanged = true;
        M.Insts[TracedDot].ExchangeFeed =
            std::max(M.Insts[TracedDot].ExchangeFeed, DI.ExchangeStep);
        continue;
      }
      // Carried: read in the previous iteration, a register prefetch.
      localRead(DI, Op, K, Order, Carried ? 1 : 0);
      continue;
    case InstKind::VMEMLoad:
      // Straight from global memory into the operand's registers (no LDS).
      direct(DI, Op, Carried ? 1 : 0, OnlyCopies);
      continue;
    case InstKind::MFMA: {
      // Chained dots: another group's results (DotGroups.cpp put this dot
      // in a later group; the VALU between them is InterDot work).
      int &From = M.Groups[Group].source(Op).FromGroup;
      From = std::max(From, int(DI.Group));
      continue;
    }
    default:
      break;
    }
    if (Carried) {
      // A value from the previous iteration's arithmetic; a global load
      // behind copies is an operand prefetched into registers.
      if (ModelBuilder::isCopyLike(*DI.MI))
        for (Register U : B.regUses(*DI.MI))
          traceCarried(U, Op, K, Order, 0, OnlyCopies);
      continue;
    }
    if (DI.R == Role::Other) {
      DI.R = Role::OperandPrep;
      DI.KStep = K;
      DI.DotOrder = Order;
      DI.Group = Group;
    } else if (DI.R == Role::OperandPrep) {
      DI.KStep = std::min(DI.KStep, K);
      DI.DotOrder = std::min(DI.DotOrder, Order);
    }
    bool Copies = OnlyCopies && ModelBuilder::isCopyLike(*DI.MI);
    for (Register U : B.regUses(*DI.MI))
      if (!trace(U, D, Op, K, Order, Depth + 1, Copies))
        return false;
  }
  return true;
}

bool OperandTracer::traceDot(unsigned DotPos) {
  const InstInfo &Dot = M.Insts[DotPos];
  const MachineInstr &MI = *Dot.MI;
  Group = Dot.Group;
  TracedDot = DotPos;
  unsigned K = Dot.KStep, Order = Dot.DotOrder;
  // src0 = A, src1 = B; v_mfma_scale_*: the registers after src2 and the
  // format immediates are the scales of A and B.
  SmallVector<std::pair<Register, Operand>, 4> Inputs = {
      {MI.getOperand(1).getReg(), Operand::A},
      {MI.getOperand(2).getReg(), Operand::B}};
  if (M.Groups[Group].Shape.Scaled) {
    Operand Next = Operand::ScaleA;
    for (unsigned Op = 4; Op < MI.getNumOperands() && Next != Operand::None;
         ++Op) {
      const MachineOperand &MO = MI.getOperand(Op);
      if (!MO.isReg() || MO.isImplicit())
        continue;
      if (MO.getReg())
        Inputs.push_back({MO.getReg(), Next});
      Next = Next == Operand::ScaleA ? Operand::ScaleB : Operand::None;
    }
  }
  for (auto [Reg, Op] : Inputs) {
    Seen.clear();
    if (!trace(Reg, DotPos, Op, K, Order, 0, /*OnlyCopies=*/true))
      return false;
  }
  return true;
}

void OperandTracer::classifySideLoads() {
  for (InstInfo &DI : M.Insts) {
    if (DI.R != Role::DirectLoad || ReachedAsIs.contains(DI.MI) ||
        (DI.Op != Operand::A && DI.Op != Operand::B))
      continue;
    bool FromLDS = llvm::any_of(M.Insts, [&](const InstInfo &R) {
      return R.R == Role::LocalRead && R.Op == DI.Op && R.Group == DI.Group;
    });
    if (FromLDS)
      DI.R = Role::SideLoad;
  }
}

/// Walk back from an LDS write's data to the global loads that produce it.
bool traceToGlobal(ModelBuilder &B, Register Reg, unsigned UsePos,
                   unsigned WritePos, unsigned Depth,
                   SmallPtrSetImpl<const MachineInstr *> &Seen,
                   bool Ahead = false) {
  if (!Reg.isVirtual() || Depth > 16)
    return true;
  bool Carried;
  for (unsigned D : B.reachingDefs(Reg, UsePos, Carried)) {
    InstInfo &DI = B.M.Insts[D];
    if (!Seen.insert(DI.MI).second)
      continue;
    if (DI.Kind == InstKind::VMEMLoad) {
      DI.R = Role::GlobalLoad;
      B.WriteOfLoad.try_emplace(D, WritePos);
      if (Ahead || Carried)
        B.LoadsAhead.insert(D);
      continue;
    }
    if (RefuseMaskedLoads && B.isSelect(DI.MI->getOpcode()))
      return B.reject("operand load has a loop-variant mask (select between "
                      "the global load and its LDS write): reordering such "
                      "loads is unsafe (Triton #10585)",
                      DI.MI);
    if (DI.Kind != InstKind::Other)
      continue;
    for (Register U : B.regUses(*DI.MI))
      if (!traceToGlobal(B, U, D, WritePos, Depth + 1, Seen,
                         Ahead || Carried))
        return false;
  }
  return true;
}

bool checkMaskInvariant(ModelBuilder &B, unsigned LoadPos) {
  SmallVector<std::pair<Register, unsigned>, 8> Work;
  SmallPtrSet<const MachineInstr *, 16> Seen;
  /// Direct loads some path reaches through copies alone: the operand's
  /// own data, not a side input.
  SmallPtrSet<const MachineInstr *, 8> ReachedAsIs;
  for (Register U : B.regUses(*B.M.Insts[LoadPos].MI))
    Work.push_back({U, LoadPos});
  while (!Work.empty()) {
    auto [Reg, Pos] = Work.pop_back_val();
    if (!Reg.isVirtual())
      continue;
    bool Carried;
    for (unsigned D : B.reachingDefs(Reg, Pos, Carried)) {
      const MachineInstr *DMI = B.M.Insts[D].MI;
      if (!Seen.insert(DMI).second)
        continue;
      if (B.isSelect(DMI->getOpcode()))
        return B.reject("operand load has a loop-variant mask (select in its "
                        "address): reordering such loads is unsafe "
                        "(Triton #10585)",
                        DMI);
      if (!Carried)
        for (Register U : B.regUses(*DMI))
          Work.push_back({U, D});
    }
  }
  return true;
}

} // namespace

bool traceOperandSources(ModelBuilder &B) {
  OperandTracer Tracer(B);
  for (unsigned I = 0; I < B.M.Insts.size(); ++I)
    if (B.M.Insts[I].R == Role::Dot && !Tracer.traceDot(I))
      return false;
  Tracer.classifySideLoads();
  return true;
}

bool traceLDSWrites(ModelBuilder &B) {
  LoopModel &M = B.M;
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    if (M.Insts[I].Kind != InstKind::LDSWrite ||
        M.Insts[I].R == Role::ExchangeWrite)
      continue;
    M.Insts[I].R = Role::LocalWrite;
    SmallVector<Register, 4> Uses = B.regUses(*M.Insts[I].MI);
    SmallPtrSet<const MachineInstr *, 16> Seen;
  /// Direct loads some path reaches through copies alone: the operand's
  /// own data, not a side input.
  SmallPtrSet<const MachineInstr *, 8> ReachedAsIs;
    for (unsigned U = 1; U < Uses.size(); ++U) // operand 0 is the address
      if (!traceToGlobal(B, Uses[U], I, I, 0, Seen))
        return false;
  }
  return true;
}

/// Name the operand of each LDS write from the LDS buffers the reads of each
/// operand use (the sync library's identity: the same declared buffer).
void assignWriteOperands(ModelBuilder &B) {
  LoopModel &M = B.M;
  SmallVector<sync::LDSRegion, 16> Reads[NumOperandKinds];
  for (const InstInfo &II : M.Insts)
    if (II.R == Role::LocalRead && II.Op != Operand::None)
      Reads[unsigned(II.Op)].push_back(ldsRegionOf(*II.MI));
  for (InstInfo &II : M.Insts) {
    if (II.R != Role::LocalWrite)
      continue;
    sync::LDSRegion W = ldsRegionOf(*II.MI);
    Operand Found = Operand::None;
    unsigned Matches = 0;
    for (Operand O : {Operand::A, Operand::B, Operand::ScaleA, Operand::ScaleB})
      if (llvm::any_of(Reads[unsigned(O)], [&](const sync::LDSRegion &R) {
            return sameLDSBuffer(R, W);
          })) {
        Found = O;
        ++Matches;
      }
    II.Op = Matches == 1 ? Found : Operand::None;
  }
}

/// Global loads take the operand of the write they feed, or (in the GEMM
/// loops the modes schedule) the order of their sources: the first kernel
/// argument loaded is A.
void assignLoadOperands(ModelBuilder &B) {
  LoopModel &M = B.M;
  const bool NewShape = B.newShape();
  SmallVector<const Value *, 4> Sources;
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    InstInfo &II = M.Insts[I];
    if (II.R != Role::GlobalLoad)
      continue;
    auto W = B.WriteOfLoad.find(I);
    if (W != B.WriteOfLoad.end() && M.Insts[W->second].Op != Operand::None) {
      II.Op = M.Insts[W->second].Op;
      continue;
    }
    if (NewShape)
      continue;
    const Value *Src = globalObject(*II.MI);
    auto It = llvm::find(Sources, Src);
    unsigned Idx = It - Sources.begin();
    if (It == Sources.end())
      Sources.push_back(Src);
    II.Op = Idx == 0 ? Operand::A : Operand::B;
  }
}

/// Is Reg a dot's result, or VALU of this iteration computed from one (a few
/// steps: the result scaled by one side input, then by the next)?
static bool dotDerived(ModelBuilder &B, Register Reg, unsigned Depth) {
  const MachineInstr *D = Reg.isVirtual() ? B.MRI.getUniqueVRegDef(Reg) : nullptr;
  auto P = D ? B.PosOf.find(D) : B.PosOf.end();
  if (P == B.PosOf.end())
    return false;
  const InstInfo &DI = B.M.Insts[P->second];
  if (DI.R == Role::Dot)
    return true;
  if (Depth >= 4 || DI.R != Role::Other ||
      (DI.Kind != InstKind::Other && DI.Kind != InstKind::ValuFMA))
    return false;
  return llvm::any_of(B.regUses(*D), [&](Register R) {
    return dotDerived(B, R, Depth + 1);
  });
}

/// Does the value of the global load at Pos reach nothing but VALU (through
/// copies and the loop's PHIs) that meets a dot's result? Such a load scales
/// or shifts a dot's result before it joins the accumulator (block-scaled
/// fp8: acc += dot(a, b) * sa[k] * sb[k]); it is neither an operand tile nor
/// extra traffic of its own: a side input of the result.
static bool feedsDotResultOnly(ModelBuilder &B, unsigned Pos) {
  LoopModel &M = B.M;
  SmallVector<const MachineInstr *, 16> Work{M.Insts[Pos].MI};
  SmallPtrSet<const MachineInstr *, 32> Seen{M.Insts[Pos].MI};
  bool MeetsDot = false;
  while (!Work.empty()) {
    const MachineInstr *MI = Work.pop_back_val();
    for (const MachineOperand &Def : MI->defs()) {
      if (!Def.isReg() || !Def.getReg().isVirtual())
        return false;
      for (const MachineInstr &U : B.MRI.use_nodbg_instructions(Def.getReg())) {
        if (!Seen.insert(&U).second)
          continue;
        if (Seen.size() > 256)
          return false; // too far to judge: not a short epilogue chain
        if (U.isPHI() && U.getParent() == M.Body) {
          Work.push_back(&U); // carried to the next iteration
          continue;
        }
        auto It = B.PosOf.find(&U);
        if (It == B.PosOf.end())
          continue; // after the loop (a register's other lanes live out)
        const InstInfo &UI = M.Insts[It->second];
        if ((UI.Kind != InstKind::Other && UI.Kind != InstKind::ValuFMA) ||
            UI.R != Role::Other || U.mayLoadOrStore())
          return false; // an MFMA operand, memory, an address, a role's input
        bool Meets = llvm::any_of(B.regUses(U), [&](Register R) {
          return dotDerived(B, R, 0);
        });
        MeetsDot |= Meets;
        if (!Meets) // past the meeting point it is the result's own chain
          Work.push_back(&U);
      }
    }
  }
  return MeetsDot;
}

/// Does the value of the load at Pos reach the body only through the loop's
/// PHIs (and copies)? It is then read in the next iteration: issued one
/// iteration ahead (LoadLookahead.cpp's scale loads).
static bool carriedOnly(ModelBuilder &B, unsigned Pos) {
  LoopModel &M = B.M;
  SmallVector<const MachineInstr *, 4> Work{M.Insts[Pos].MI};
  bool ReachesPhi = false;
  while (!Work.empty()) {
    const MachineInstr *MI = Work.pop_back_val();
    for (const MachineOperand &Def : MI->defs()) {
      if (!Def.isReg() || !Def.getReg().isVirtual())
        return false;
      for (const MachineInstr &U : B.MRI.use_nodbg_instructions(Def.getReg())) {
        if (U.getParent() != M.Body)
          continue; // after the loop
        if (U.isPHI()) {
          ReachesPhi = true;
          continue;
        }
        if (!U.isCopy())
          return false;
        Work.push_back(&U);
      }
    }
  }
  return ReachesPhi;
}

void classifyResultSideLoads(ModelBuilder &B) {
  LoopModel &M = B.M;
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    InstInfo &II = M.Insts[I];
    if (II.Kind != InstKind::VMEMLoad || II.R != Role::Other ||
        !feedsDotResultOnly(B, I))
      continue;
    II.R = Role::SideLoad;
    II.Op = Operand::None;
    II.Group = 0;
    II.StagesAhead = carriedOnly(B, I) ? 1 : 0;
  }
}

bool checkLeftovers(ModelBuilder &B) {
  LoopModel &M = B.M;
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    const InstInfo &II = M.Insts[I];
    if (II.Kind == InstKind::LDSRead && II.R != Role::LocalRead &&
        II.R != Role::ExchangeRead)
      return B.reject("LDS read that does not feed the dot: extra memory "
                      "traffic",
                      II.MI);
    if (II.Kind == InstKind::VMEMLoad && II.R != Role::GlobalLoad &&
        II.R != Role::DirectLoad && II.R != Role::SideLoad)
      return B.reject("global load that does not feed the dot's LDS buffers: "
                      "extra memory traffic (Triton rejects such loops too)",
                      II.MI);
    if (RefuseMaskedLoads && II.R == Role::GlobalLoad &&
        !checkMaskInvariant(B, I))
      return false;
  }
  M.NumLocalReads = M.count(Role::LocalRead);
  M.NumLocalWrites = M.count(Role::LocalWrite);
  M.NumGlobalLoads = M.count(Role::GlobalLoad);
  M.NumGlobalLoadsAhead = B.LoadsAhead.size();
  M.NumSync = M.count(Role::Sync);
  M.NumPrep = M.count(Role::OperandPrep);
  M.NumAsyncCopies = M.count(Role::AsyncCopy);
  M.NumDirectLoads = M.count(Role::DirectLoad);
  M.NumSideLoads = M.count(Role::SideLoad);
  M.NumInterDot = M.count(Role::InterDot);
  M.NumExchangeWrites = M.count(Role::ExchangeWrite);
  M.NumExchangeReads = M.count(Role::ExchangeRead);
  M.NumCrossbar = 0;
  for (const InstInfo &II : M.Insts)
    M.NumCrossbar += II.Kind == InstKind::LDSOther && II.R != Role::InterDot;
  if (!M.NumLocalReads && !M.NumDirectLoads)
    return B.reject("no LDS reads feed the MFMAs: nothing to overlap with the "
                    "dot");
  if ((!M.NumGlobalLoads || !M.NumLocalWrites) && !M.NumAsyncCopies &&
      !M.NumDirectLoads)
    return B.reject("no global loads and LDS writes of the next tile in the "
                    "loop (the loop is not software pipelined)");
  return true;
}

void summarizeSources(ModelBuilder &B) {
  LoopModel &M = B.M;
  for (const InstInfo &II : M.Insts) {
    if (II.R == Role::LocalRead && II.Op != Operand::None)
      ++M.Groups[II.Group].source(II.Op).LocalReads;
    if (II.R == Role::DirectLoad && II.Op != Operand::None) {
      ++M.Groups[II.Group].source(II.Op).DirectLoads;
      M.Groups[II.Group].source(II.Op).DirectPrefetched += II.StagesAhead > 0;
    }
    if (II.R == Role::SideLoad) {
      ++M.Groups[II.Group].source(II.Op).SideLoads;
      M.Groups[II.Group].source(II.Op).SidePrefetched += II.StagesAhead > 0;
    }
  }
  // The fills of an operand's LDS buffer (writes, their global loads, LDS
  // DMA) go with the group whose reads they were paired with; with one
  // group, with it. Fills of no known operand or group are counted apart.
  for (unsigned I = 0; I < M.Insts.size(); ++I) {
    InstInfo &II = M.Insts[I];
    if (II.R != Role::LocalWrite && II.R != Role::AsyncCopy &&
        II.R != Role::GlobalLoad)
      continue;
    unsigned Fill = I;
    if (II.R == Role::GlobalLoad) {
      auto W = B.WriteOfLoad.find(I);
      Fill = W != B.WriteOfLoad.end() ? W->second : ~0u;
    }
    auto G = B.FillGroup.find(Fill);
    int Group = G != B.FillGroup.end() ? int(G->second)
                : M.Groups.size() == 1 ? 0
                                       : -1;
    if (II.Op == Operand::None || Group < 0 ||
        !M.Groups[Group].source(II.Op).LocalReads) {
      M.UnknownWrites += II.R == Role::LocalWrite;
      M.UnknownLoads += II.R == Role::GlobalLoad;
      M.UnknownCopies += II.R == Role::AsyncCopy;
      continue;
    }
    II.Group = unsigned(Group); // for layouts' group selectors
    OperandSource &S = M.Groups[Group].source(II.Op);
    S.LocalWrites += II.R == Role::LocalWrite;
    S.GlobalLoads += II.R == Role::GlobalLoad;
    S.AsyncCopies += II.R == Role::AsyncCopy;
    if (II.R != Role::GlobalLoad)
      S.StagesAhead = std::max(S.StagesAhead, II.StagesAhead);
  }
}

} // namespace pingpong
