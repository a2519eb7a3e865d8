//===- RepairDMAWaits.cpp - the LDS-DMA waits LLVM 22.1 leaves out --------===//
//
// gfx9 counts an LDS DMA (global_load_lds_*, buffer_load_* ... lds) on vmcnt:
// until a wait covers it, its wave may not touch the LDS bytes it writes, and
// a workgroup release (__syncthreads()'s fence) must complete it before other
// waves may. LLVM 22.1's SIInsertWaitcnts misses both in loops users write:
//  - a DS access with TBAA but no alias scope that matches a tracked DMA gets
//    no vmcnt at all (fixed upstream by llvm/llvm-project PR #170660, after
//    22.1: with no matching DMA it now waits for all of them);
//  - the memory legalizer's S_WAITCNT_lds_direct at a workgroup release (PR
//    #150887) comes out as no wait in a loop whose preheader flushes vmcnt
//    (measured: docs/waits-and-barriers.md, "LLVM's own missing LDS-DMA
//    waits");
//  - SIInsertWaitcnts counts a FLAT-encoded LDS DMA (global_load_lds_*) on
//    lgkmcnt as well, which the hardware does not (fixed upstream by
//    llvm/llvm-project PR #179305, after 22.1): an lgkmcnt(N) meant to
//    complete a ds_read with DMAs issued after it leaves the read in flight.
// This pass runs after every other wait edit, in every function with LDS DMA
// (scheduled by the plugin or not): a dataflow over the CFG (loops included,
// so a DMA of the previous iteration is seen around the back-edge) counts the
// vmcnt operations issued after each DMA, and where a DS access may touch the
// DMA's bytes (lib/Sync's buffer identity through Analysis/LDSObjects;
// unknown bytes count as touching), or a recorded release point has the DMA
// in flight, it inserts the loosest s_waitcnt vmcnt(N) that completes it (or
// tightens the wait right before). Every lgkmcnt(N) in a function with a
// global_load_lds is recounted the hardware's way (repairLgkmCounts). Where
// nothing is missing nothing changes.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/LDSObjects.h"
#include "pingpong/ISA/Opcodes.h"
#include "pingpong/Passes/Passes.h"
#include "pingpong/Sync/SyncRules.h"
#include "pingpong/Sync/Waitcnt.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/InitializePasses.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#include <algorithm>
#include <array>
#include <functional>
#include <mutex>

#define DEBUG_TYPE "amdgpu-pingpong"

using namespace llvm;
using namespace pingpong;

STATISTIC(NumAccessWaits, "LDS-DMA waits repaired before a DS access");
STATISTIC(NumReleaseWaits, "LDS-DMA waits repaired at a workgroup release");
STATISTIC(NumTightened, "Repairs that tightened an existing s_waitcnt");
STATISTIC(NumLgkmRecounted,
          "lgkmcnt waits recounted without LLVM 22.1's global_load_lds");

static cl::opt<bool> RepairOpt(
    "amdgpu-pingpong-repair-dma-waits", cl::init(true),
    cl::desc("Insert the s_waitcnt vmcnt that LLVM 22.1 leaves out between an "
             "LDS DMA and a DS access of its bytes, or a workgroup release, "
             "and recount the lgkmcnt waits it counts global_load_lds in, in "
             "every function with LDS DMA (AMDGPUPingpong plugin; on by "
             "default, independent of -amdgpu-pingpong)"));

bool pingpong::dmaWaitRepairRequested() { return RepairOpt; }

namespace llvm {
void initializePingpongReleasePointsPass(PassRegistry &);
void initializePingpongRepairDMAWaitsPass(PassRegistry &);
} // namespace llvm

//===-- Release points ------------------------------------------------------===//
//
// SIInsertWaitcnts erases S_WAITCNT_lds_direct, so where the memory model
// asked for the DMA drain is recorded before it runs: the instruction after
// the pseudo (the s_barrier of __syncthreads()), or the block's end. Keyed by
// function; the repair takes the entry. Pointers are only compared.

namespace {
struct ReleasePoint {
  const MachineBasicBlock *MBB;
  const MachineInstr *Before; // null: before the block's terminators
};
std::mutex ReleaseLock;
DenseMap<const MachineFunction *, SmallVector<ReleasePoint, 4>> Releases;

SmallVector<ReleasePoint, 4> takeReleasePoints(const MachineFunction &MF) {
  std::lock_guard<std::mutex> G(ReleaseLock);
  auto It = Releases.find(&MF);
  if (It == Releases.end())
    return {};
  SmallVector<ReleasePoint, 4> R = std::move(It->second);
  Releases.erase(It);
  return R;
}

class PingpongReleasePoints : public MachineFunctionPass {
public:
  static char ID;
  PingpongReleasePoints() : MachineFunctionPass(ID) {}
  StringRef getPassName() const override {
    return "AMDGPU block pingpong LDS-DMA release points";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesAll();
    MachineFunctionPass::getAnalysisUsage(AU);
  }
  bool runOnMachineFunction(MachineFunction &MF) override {
    if (!sync::targetForCPU(MF.getSubtarget().getCPU()))
      return false;
    const OpcodeTable &T = OpcodeTable::get(*MF.getSubtarget().getInstrInfo());
    SmallVector<ReleasePoint, 4> Points;
    for (const MachineBasicBlock &MBB : MF)
      for (auto It = MBB.instr_begin(), E = MBB.instr_end(); It != E; ++It) {
        if (T.name(It->getOpcode()) != "S_WAITCNT_lds_direct")
          continue;
        // The next instruction SIInsertWaitcnts keeps: not a wait.
        auto Next = std::next(It);
        while (Next != E && (Next->isMetaInstruction() ||
                             T.name(Next->getOpcode()).starts_with("S_WAITCNT")))
          ++Next;
        Points.push_back(
            {&MBB, Next == E || Next->isTerminator() ? nullptr : &*Next});
      }
    if (!Points.empty()) {
      std::lock_guard<std::mutex> G(ReleaseLock);
      Releases[&MF] = std::move(Points);
    }
    return false;
  }
};
} // namespace

char PingpongReleasePoints::ID = 0;
char &pingpong::PingpongReleasePointsPassID = PingpongReleasePoints::ID;

INITIALIZE_PASS(PingpongReleasePoints, "amdgpu-pingpong-release-points",
                "AMDGPU block pingpong LDS-DMA release points (plugin)", false,
                true)

//===-- The repair ----------------------------------------------------------===//

namespace {

/// An LDS DMA that may still be writing: how many vmcnt operations were
/// issued after it (on the path with the fewest), and whether a FLAT
/// operation was (FLAT may return out of order: only vmcnt(0) is sure).
struct Pending {
  unsigned Younger = 0;
  bool AfterFlat = false;
  unsigned need() const { return AfterFlat ? 0 : Younger; }
};
/// Which iteration's toggle a DMA's double-buffer slot is in, against the
/// current one: the same, the previous (an odd number of back-edges of the
/// toggle's loop since), or unknown (the loop was entered again).
enum Flip : uint8_t { SameIter, OtherParity, UnknownIter };
using Key = std::pair<const MachineInstr *, Flip>;
using State = MapVector<Key, Pending>;

/// At most min(a, b) younger operations on some path; in flight on any.
bool join(State &Into, const State &From) {
  bool Changed = false;
  for (const auto &[D, P] : From) {
    auto [It, New] = Into.insert({D, P});
    if (New) {
      Changed = true;
      continue;
    }
    Pending &Q = It->second;
    if (P.Younger < Q.Younger || (P.AfterFlat && !Q.AfterFlat)) {
      Q.Younger = std::min(Q.Younger, P.Younger);
      Q.AfterFlat |= P.AfterFlat;
      Changed = true;
    }
  }
  return Changed;
}

/// R as seen from the current iteration: a double-buffer slot of a DMA F
/// iterations back has the other parity, or is unknown.
sync::LDSRegion inIteration(sync::LDSRegion R, Flip F) {
  if (F == SameIter)
    return R;
  // The DMA's iteration is the one before (OtherParity); else unknown.
  return sync::advanceSlots(
      std::move(R), [&](const sync::LDSRegion::ToggledSlot &) {
        return F == OtherParity ? std::optional<int>(-1) : std::nullopt;
      });
}

/// The toggles (IR loop headers) a region's double-buffer slots follow;
/// Multi: one of them has more than two slots (two back-edges do not bring
/// it back: the parity states above cannot follow it).
void slotHeaders(const sync::LDSRegion &R, SmallPtrSetImpl<const void *> &Out,
                 bool &Multi) {
  if (R.Slot) {
    Out.insert(R.Slot->Header);
    Multi |= R.Slot->Slots != 2;
  }
  for (const sync::LDSRegion &P : R.Parts)
    slotHeaders(P, Out, Multi);
}

void applyVmWait(State &S, unsigned Vm) {
  if (Vm >= Waitcnt::MaxVm)
    return;
  S.remove_if([&](const std::pair<Key, Pending> &E) {
    return E.second.need() >= Vm;
  });
}

enum class NeedKind { Access, Release };
struct Need {
  unsigned Vm;
  const MachineInstr *DMA; // the one that sets Vm
  NeedKind Kind;
  bool PreviousIteration; // DMA's slot seen from the next iteration
};

class PingpongRepairDMAWaits : public MachineFunctionPass {
public:
  static char ID;
  PingpongRepairDMAWaits() : MachineFunctionPass(ID) {}
  StringRef getPassName() const override {
    return "AMDGPU block pingpong LDS-DMA wait repair";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesCFG();
    AU.addRequired<MachineLoopInfoWrapperPass>();
    AU.addPreserved<MachineLoopInfoWrapperPass>();
    AU.addRequired<MachineOptimizationRemarkEmitterPass>();
    MachineFunctionPass::getAnalysisUsage(AU);
  }
  bool runOnMachineFunction(MachineFunction &MF) override;

private:
  struct Info {
    sync::InstRules Rules;
    bool VmOp = false;   // counts on vmcnt
    bool Access = false; // may touch LDS bytes a DMA writes (not a DMA)
    sync::LDSRegion Region;
  };
  const OpcodeTable *T = nullptr;
  const TargetInstrInfo *TII = nullptr;
  DenseMap<const MachineInstr *, Info> Infos;
  SmallPtrSet<const MachineInstr *, 4> ReleaseBefore;
  SmallPtrSet<const MachineBasicBlock *, 4> ReleaseAtEnd;

  const Info &info(const MachineInstr &MI);
  /// What MI (and a release point before it) needs from S, if anything.
  std::optional<Need> needAt(const MachineInstr *MI, bool Release,
                             const State &S);
  void step(const MachineInstr &MI, State &S);
  /// S on the edge From -> To: into the header of a slot's toggle, a DMA's
  /// slot flips (a back-edge) or is lost (the loop entered again).
  State alongEdge(const State &S, const MachineBasicBlock &From,
                  const MachineBasicBlock &To);
  MachineLoopInfo *MLI = nullptr;
  /// The innermost machine loop of each IR block's machine blocks (null
  /// when they are in different loops or none).
  DenseMap<const void *, const MachineLoop *> ToggleLoop;
  /// Runs MBB from S; with Fix, repairs every need on the way.
  bool runBlock(MachineBasicBlock &MBB, State &S, bool Fix,
                MachineOptimizationRemarkEmitter *ORE);
  void place(MachineBasicBlock &MBB, MachineBasicBlock::instr_iterator At,
             const Need &N, const MachineInstr *What,
             MachineOptimizationRemarkEmitter &ORE);
};

} // namespace

char PingpongRepairDMAWaits::ID = 0;
char &pingpong::PingpongRepairDMAWaitsPassID = PingpongRepairDMAWaits::ID;

const PingpongRepairDMAWaits::Info &
PingpongRepairDMAWaits::info(const MachineInstr &MI) {
  auto It = Infos.find(&MI);
  if (It != Infos.end())
    return It->second;
  Info I;
  I.Rules = sync::classifyByName(T->name(MI.getOpcode()));
  I.VmOp = sync::countersOf(I.Rules.Class, sync::Target::Gfx942).Vm;
  bool FlatMayBeLDS =
      I.Rules.Class == sync::OpClass::FLAT &&
      (MI.memoperands_empty() ||
       any_of(MI.memoperands(), [](const MachineMemOperand *MMO) {
         return MMO->getAddrSpace() == 0 || MMO->getAddrSpace() == 3;
       }));
  I.Access = (I.Rules.Class == sync::OpClass::LDS &&
              I.Rules.Use != sync::LDSUse::None) ||
             FlatMayBeLDS;
  if (I.Access)
    I.Region = ldsRegionOf(MI);
  else if (I.Rules.Class == sync::OpClass::LDSDMA)
    I.Region = ldsRegionOf(MI, /*LaneUniform=*/false);
  return Infos[&MI] = std::move(I);
}

std::optional<Need> PingpongRepairDMAWaits::needAt(const MachineInstr *MI,
                                                   bool Release,
                                                   const State &S) {
  std::optional<Need> N;
  auto Take = [&](const Key &D, const Pending &P, NeedKind K) {
    if (!N || P.need() < N->Vm)
      N = Need{P.need(), D.first, K, D.second == OtherParity};
  };
  for (const auto &[K, P] : S) {
    if (Release) {
      Take(K, P, NeedKind::Release);
      continue;
    }
    if (!MI || !info(*MI).Access)
      continue;
    // Unknown bytes count as touching: the safe side.
    if (sync::sameWaveDMA(inIteration(info(*K.first).Region, K.second),
                          info(*MI).Region) != sync::PairVerdict::NotAPair)
      Take(K, P, NeedKind::Access);
  }
  return N;
}

State PingpongRepairDMAWaits::alongEdge(const State &S,
                                        const MachineBasicBlock &From,
                                        const MachineBasicBlock &To) {
  const MachineLoop *L = MLI->getLoopFor(&To);
  if (!L || L->getHeader() != &To)
    return S;
  bool Back = L->contains(&From);
  State Out;
  for (const auto &[K, P] : S) {
    SmallPtrSet<const void *, 2> Headers;
    bool Multi = false;
    slotHeaders(info(*K.first).Region, Headers, Multi);
    Key NK = K;
    for (const void *H : Headers) {
      // The toggle flips once per iteration of the machine loop that holds
      // its IR header; where that is not one loop, any loop edge loses it.
      auto It = ToggleLoop.find(H);
      const MachineLoop *TL = It == ToggleLoop.end() ? nullptr : It->second;
      if (TL && TL != L)
        continue;
      NK.second = TL && Back && K.second != UnknownIter && !Multi
                      ? (K.second == SameIter ? OtherParity : SameIter)
                      : UnknownIter;
    }
    auto [It, New] = Out.insert({NK, P});
    if (!New) {
      It->second.Younger = std::min(It->second.Younger, P.Younger);
      It->second.AfterFlat |= P.AfterFlat;
    }
  }
  return Out;
}

void PingpongRepairDMAWaits::step(const MachineInstr &MI, State &S) {
  const Info &I = info(MI);
  switch (I.Rules.Sync) {
  case sync::SyncKind::Waitcnt:
    // gfx9's s_waitcnt: an immediate. Other forms wait on nothing we know.
    if (T->name(MI.getOpcode()) == "S_WAITCNT" && MI.getOperand(0).isImm())
      applyVmWait(S, Waitcnt::decodeGfx9(MI.getOperand(0).getImm()).Vm);
    return;
  case sync::SyncKind::EndPgm:
    S.clear();
    return;
  default:
    break;
  }
  if (!I.VmOp)
    return;
  // vmcnt completes in order (gfx9: loads, stores, DMA alike); FLAT does not.
  bool Flat = I.Rules.Class == sync::OpClass::FLAT;
  for (auto &[K, P] : S) {
    P.AfterFlat |= Flat;
    ++P.Younger;
  }
  S.remove_if([](const std::pair<Key, Pending> &E) {
    // The counter holds at most MaxVm: this many younger ones complete it.
    return !E.second.AfterFlat && E.second.Younger >= Waitcnt::MaxVm;
  });
  if (I.Rules.Class == sync::OpClass::LDSDMA)
    S[{&MI, SameIter}] = Pending();
}

static std::string where(const MachineInstr &MI) {
  std::string S;
  if (const DebugLoc &DL = MI.getDebugLoc())
    S = " (" + DL->getFilename().str() + ":" + std::to_string(DL.getLine()) +
        ":" + std::to_string(DL.getCol()) + ")";
  return S;
}

void PingpongRepairDMAWaits::place(MachineBasicBlock &MBB,
                                   MachineBasicBlock::instr_iterator At,
                                   const Need &N, const MachineInstr *What,
                                   MachineOptimizationRemarkEmitter &ORE) {
  // A wait right before (nothing issued in between): tighten it.
  MachineInstr *Prev = nullptr;
  for (auto It = At; It != MBB.instr_begin();) {
    --It;
    if (It->isDebugInstr())
      continue;
    if (T->name(It->getOpcode()) == "S_WAITCNT" && It->getOperand(0).isImm() &&
        !It->isBundled())
      Prev = &*It;
    break;
  }
  unsigned OldVm = Waitcnt::MaxVm;
  if (Prev) {
    Waitcnt W = Waitcnt::decodeGfx9(Prev->getOperand(0).getImm());
    OldVm = W.Vm;
    W.Vm = std::min(W.Vm, N.Vm);
    Prev->getOperand(0).setImm(W.encodeGfx9());
    ++NumTightened;
  } else {
    DebugLoc DL = At != MBB.instr_end() ? At->getDebugLoc() : DebugLoc();
    BuildMI(MBB, At, DL, TII->get(T->builders().SWaitcnt))
        .addImm(Waitcnt::vm(N.Vm).encodeGfx9());
  }
  if (N.Kind == NeedKind::Access)
    ++NumAccessWaits;
  else
    ++NumReleaseWaits;
  MachineFunction &MF = *MBB.getParent();
  const MachineInstr &D = *N.DMA;
  bool Earlier = N.PreviousIteration ||
                 (What && D.getParent() == What->getParent() &&
                 [&] {
                   for (const MachineInstr &X : MBB.instrs()) {
                     if (&X == What)
                       return true; // the access first: D is of an earlier iteration
                     if (&X == &D)
                       return false;
                   }
                   return false;
                 }());
  LLVM_DEBUG(dbgs() << "repair-dma-waits: vmcnt(" << N.Vm << ") in "
                    << MF.getName() << " for " << D);
  ORE.emit([&]() {
    DebugLoc Loc = What ? What->getDebugLoc() : D.getDebugLoc();
    MachineOptimizationRemark R(DEBUG_TYPE, "DMAWaitRepaired", Loc, &MBB);
    std::string DMA = "`" + T->name(D.getOpcode()).lower() + "`" + where(D) +
                      (Earlier ? " of the previous iteration" : "");
    R << "LDS DMA wait repaired in " << ore::NV("Function", MF.getName())
      << ", %bb." << ore::NV("Block", MBB.getNumber()) << ": ";
    if (N.Kind == NeedKind::Access)
      R << "`" << ore::NV("Access", T->name(What->getOpcode()).lower()) << "`"
        << where(*What) << " may touch LDS that the same wave's LDS DMA "
        << ore::NV("DMA", DMA)
        << " is still writing, and LLVM placed no s_waitcnt vmcnt for it "
           "(LLVM 22.1: a DS access with TBAA and no matching alias scope; "
           "llvm/llvm-project#170660)";
    else
      R << "the workgroup release before `"
        << ore::NV("Release", What ? T->name(What->getOpcode()).lower()
                                   : std::string("the block's end"))
        << "`" << (What ? where(*What) : std::string())
        << " does not complete the LDS DMA " << ore::NV("DMA", DMA)
        << " (LLVM 22.1 dropped the memory model's S_WAITCNT_lds_direct "
           "here)";
    R << "; "
      << (!Prev ? std::string("inserted s_waitcnt vmcnt(")
          : OldVm >= Waitcnt::MaxVm
              ? std::string("added vmcnt(")
              : "tightened s_waitcnt vmcnt(" + std::to_string(OldVm) +
                    ") to vmcnt(")
      << ore::NV("Vmcnt", N.Vm) << ")"
      << (Prev && OldVm >= Waitcnt::MaxVm ? " to the s_waitcnt before it" : "");
    return R;
  });
}

bool PingpongRepairDMAWaits::runBlock(MachineBasicBlock &MBB, State &S,
                                      bool Fix,
                                      MachineOptimizationRemarkEmitter *ORE) {
  bool Changed = false;
  bool EndRelease = ReleaseAtEnd.count(&MBB);
  for (auto It = MBB.instr_begin(), E = MBB.instr_end(); It != E; ++It) {
    MachineInstr &MI = *It;
    if (MI.isBundle() || MI.isDebugInstr())
      continue;
    // A release at the block's end goes before its first terminator.
    bool AtEnd = EndRelease && MI.isTerminator();
    EndRelease &= !AtEnd;
    bool Release = AtEnd || ReleaseBefore.count(&MI);
    for (bool R : {true, false}) {
      if (R && !Release)
        continue;
      std::optional<Need> N = needAt(&MI, R, S);
      if (!N)
        continue;
      if (Fix) {
        // Inside a bundle the wait goes before it, where only vmcnt(0)
        // surely completes what is in flight.
        auto At = MI.isBundledWithPred() ? getBundleStart(It) : It;
        if (MI.isBundledWithPred())
          N->Vm = 0;
        place(MBB, At, *N, &MI, *ORE);
        Changed = true;
      }
      applyVmWait(S, N->Vm);
    }
    step(MI, S);
  }
  if (EndRelease)
    if (std::optional<Need> N = needAt(nullptr, true, S)) {
      if (Fix) {
        place(MBB, MBB.instr_end(), *N, nullptr, *ORE);
        Changed = true;
      }
      applyVmWait(S, N->Vm);
    }
  return Changed;
}

//===-- lgkmcnt recount -----------------------------------------------------===//
//
// LLVM 22.1 counts a FLAT-encoded LDS DMA on lgkmcnt; the hardware counts it
// on vmcnt only. So llc's lgkmcnt(N) has N operations of LLVM's count younger
// than the one it completes, some of them DMAs the counter never sees. Per
// point, Window[K] is, over every path reaching it, the fewest in-order lgkm
// operations (the DS pipe, which the counter retires in order) among the K
// youngest operations of LLVM's count (the hardware's lgkm operations plus
// those DMAs). The operation lgkmcnt(N) completes has at least Window[N]
// in-order operations younger on any path, so lgkmcnt(Window[N]) completes
// it; an out-of-order one (SMEM, FLAT, GDS) among the N counts for nothing,
// the safe side.

namespace {
using LgkmWindow = std::array<uint8_t, Waitcnt::MaxLgkm + 1>;

struct LgkmRecount {
  const OpcodeTable &T;
  const TargetInstrInfo &TII;

  struct Roles {
    bool Counted = false; // LLVM 22.1 counts it on lgkmcnt
    bool InOrder = false; // the DS pipe does, in order
    bool LLVMOnly = false; // LLVM counts it, the hardware does not
  };
  Roles roles(const MachineInstr &MI) const {
    StringRef Name = T.name(MI.getOpcode());
    sync::OpClass C = sync::classifyByName(Name).Class;
    Roles R;
    if (C == sync::OpClass::LDSDMA) {
      // FLAT-encoded (global_load_lds_*): the pseudo sets LGKM_CNT.
      R.Counted = R.LLVMOnly = !Name.starts_with("BUFFER_");
      return R;
    }
    sync::CounterUse U = sync::countersOf(C, sync::Target::Gfx942);
    R.Counted = U.Lgkm;
    R.InOrder = U.Lgkm && U.LgkmInOrder;
    return R;
  }
  void step(const MachineInstr &MI, LgkmWindow &W) const {
    Roles R = roles(MI);
    if (!R.Counted)
      return;
    for (unsigned K = W.size() - 1; K > 0; --K)
      W[K] = W[K - 1] + R.InOrder;
    W[0] = 0;
  }
  static bool join(LgkmWindow &Into, const LgkmWindow &From) {
    bool Changed = false;
    for (unsigned K = 0; K < Into.size(); ++K)
      if (From[K] < Into[K]) {
        Into[K] = From[K];
        Changed = true;
      }
    return Changed;
  }
  unsigned run(MachineFunction &MF, MachineOptimizationRemarkEmitter &ORE);
};
} // namespace

unsigned LgkmRecount::run(MachineFunction &MF,
                          MachineOptimizationRemarkEmitter &ORE) {
  // Without a global_load_lds LLVM's count is the hardware's: nothing to do
  // (and an out-of-order operation, counted for nothing here, moves nothing).
  bool LLVMOnly = false;
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineInstr &MI : MBB.instrs())
      LLVMOnly |= roles(MI).LLVMOnly;
  if (!LLVMOnly)
    return 0;
  ReversePostOrderTraversal<MachineFunction *> RPOT(&MF);
  DenseMap<const MachineBasicBlock *, LgkmWindow> In;
  LgkmWindow Entry{};
  In[&*MF.begin()] = Entry;
  SmallVector<MachineBasicBlock *, 16> Work(RPOT.begin(), RPOT.end());
  std::reverse(Work.begin(), Work.end());
  SmallPtrSet<MachineBasicBlock *, 16> Queued(Work.begin(), Work.end());
  while (!Work.empty()) {
    MachineBasicBlock *B = Work.pop_back_val();
    Queued.erase(B);
    auto It = In.find(B);
    if (It == In.end())
      continue; // not reached yet
    LgkmWindow W = It->second;
    for (const MachineInstr &MI : B->instrs())
      step(MI, W);
    for (MachineBasicBlock *Succ : B->successors()) {
      auto [SIt, New] = In.try_emplace(Succ, W);
      if ((New || join(SIt->second, W)) && Queued.insert(Succ).second)
        Work.push_back(Succ);
    }
  }
  unsigned Recounted = 0;
  for (MachineBasicBlock *B : RPOT) {
    auto It = In.find(B);
    if (It == In.end())
      continue;
    LgkmWindow W = It->second;
    for (MachineInstr &MI : B->instrs()) {
      if (T.name(MI.getOpcode()) == "S_WAITCNT" && MI.getOperand(0).isImm()) {
        Waitcnt Wt = Waitcnt::decodeGfx9(MI.getOperand(0).getImm());
        if (Wt.waitsOnLgkm() && W[Wt.Lgkm] < Wt.Lgkm) {
          const unsigned Old = Wt.Lgkm;
          Wt.Lgkm = W[Wt.Lgkm];
          MI.getOperand(0).setImm(Wt.encodeGfx9());
          ++NumLgkmRecounted;
          ++Recounted;
          LLVM_DEBUG(dbgs() << "repair-dma-waits: lgkmcnt(" << Old << ") -> "
                            << Wt.Lgkm << " in " << MF.getName() << "\n");
          ORE.emit([&]() {
            MachineOptimizationRemark R(DEBUG_TYPE, "DMALgkmRecounted",
                                        MI.getDebugLoc(), B);
            R << "LDS DMA wait repaired in "
              << ore::NV("Function", MF.getName()) << ", %bb."
              << ore::NV("Block", B->getNumber()) << ": s_waitcnt lgkmcnt("
              << ore::NV("OldLgkmcnt", Old)
              << ") counts global_load_lds as lgkm operations, which the "
                 "hardware counts on vmcnt only, so the DS operation it "
                 "waits for could still be in flight (LLVM 22.1; "
                 "llvm/llvm-project#179305); now lgkmcnt("
              << ore::NV("Lgkmcnt", Wt.Lgkm) << ")";
            return R;
          });
        }
      }
      step(MI, W);
    }
  }
  return Recounted;
}

bool PingpongRepairDMAWaits::runOnMachineFunction(MachineFunction &MF) {
  SmallVector<ReleasePoint, 4> Points = takeReleasePoints(MF);
  if (!RepairOpt || !sync::targetForCPU(MF.getSubtarget().getCPU()))
    return false;
  TII = MF.getSubtarget().getInstrInfo();
  T = &OpcodeTable::get(*TII);
  if (!T->builders().SWaitcnt)
    return false;
  bool HasDMA = false;
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineInstr &MI : MBB.instrs())
      HasDMA |= T->classify(MI) == InstKind::LDSDMA;
  if (!HasDMA)
    return false;
  Infos.clear();
  ReleaseBefore.clear();
  ReleaseAtEnd.clear();
  for (const ReleasePoint &P : Points)
    if (P.Before)
      ReleaseBefore.insert(P.Before);
    else
      ReleaseAtEnd.insert(P.MBB);
  auto &ORE = getAnalysis<MachineOptimizationRemarkEmitterPass>().getORE();
  MLI = &getAnalysis<MachineLoopInfoWrapperPass>().getLI();
  ToggleLoop.clear();
  for (const MachineBasicBlock &MBB : MF)
    if (const BasicBlock *BB = MBB.getBasicBlock()) {
      const MachineLoop *ML = MLI->getLoopFor(&MBB);
      auto [It, New] = ToggleLoop.try_emplace(BB, ML);
      if (!New && It->second != ML)
        It->second = nullptr;
    }

  ReversePostOrderTraversal<MachineFunction *> RPOT(&MF);
  SmallVector<MachineBasicBlock *, 16> Order(RPOT.begin(), RPOT.end());
  bool Changed = false;
  // The states assume the waits the repair places (runBlock applies them), so
  // one round places them all; the next finds nothing (checked).
  for (unsigned Round = 0; Round < 8; ++Round) {
    DenseMap<const MachineBasicBlock *, State> In;
    In[Order.front()];
    SmallVector<MachineBasicBlock *, 16> Work(Order.rbegin(), Order.rend());
    SmallPtrSet<MachineBasicBlock *, 16> Queued(Order.begin(), Order.end());
    while (!Work.empty()) {
      MachineBasicBlock *B = Work.pop_back_val();
      Queued.erase(B);
      State S = In[B];
      runBlock(*B, S, /*Fix=*/false, nullptr);
      for (MachineBasicBlock *Succ : B->successors()) {
        auto [It, New] = In.try_emplace(Succ);
        if ((join(It->second, alongEdge(S, *B, *Succ)) || New) &&
            Queued.insert(Succ).second)
          Work.push_back(Succ);
      }
    }
    bool Fixed = false;
    for (MachineBasicBlock *B : Order) {
      State S = In[B];
      Fixed |= runBlock(*B, S, /*Fix=*/true, &ORE);
    }
    if (!Fixed)
      break;
    Changed = true;
  }
  if (LgkmRecount{*T, *TII}.run(MF, ORE))
    Changed = true;
  return Changed;
}

INITIALIZE_PASS(PingpongRepairDMAWaits, "amdgpu-pingpong-dma-wait-repair",
                "AMDGPU block pingpong LDS-DMA wait repair (plugin)", false,
                false)
