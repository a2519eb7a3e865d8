//===- LoopModel.cpp - the model of a dot loop: driver and printing -------===//
//
// analyzeLoop() runs the concerns of ModelBuilder.h in order; print() is what
// -amdgpu-pingpong-print-roles shows.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Analysis/LoopModel.h"
#include "pingpong/Analysis/LDSObjects.h"
#include "pingpong/Target/TargetFacts.h"
#include "ModelBuilder.h"

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
namespace pingpong {

unsigned LoopModel::count(Role R) const {
  unsigned N = 0;
  for (const InstInfo &I : Insts)
    N += I.R == R;
  return N;
}

bool LoopModel::copiesFollowReads() const {
  int LastRead = -1, FirstCopy = -1;
  for (unsigned I = 0; I < Insts.size(); ++I) {
    if (Insts[I].R == Role::LocalRead)
      LastRead = I;
    if (Insts[I].R == Role::AsyncCopy && FirstCopy < 0)
      FirstCopy = I;
  }
  return FirstCopy >= 0 && LastRead >= 0 && FirstCopy > LastRead;
}

bool LoopModel::copiesOneTileAhead() const {
  return copiesFollowReads() && llvm::all_of(Insts, [](const InstInfo &I) {
           return I.R != Role::AsyncCopy || (I.StagesAhead == 2 && I.Buffers == 2);
         });
}

bool LoopModel::copiesIntoBufferJustRead() const {
  return copiesFollowReads() && llvm::all_of(Insts, [](const InstInfo &I) {
           return I.R != Role::AsyncCopy ||
                  (I.Buffers >= 2 && I.StagesAhead == I.Buffers);
         });
}

bool LoopModel::scaled() const {
  return llvm::any_of(Groups, [](const DotGroup &G) { return G.Shape.Scaled; });
}

namespace {

void printShape(raw_ostream &OS, const MFMAShape &S) {
  OS << "mfma " << S.M << "x" << S.N << "x" << S.K << " (" << S.ElemBits
     << "-bit" << (S.Scaled ? ", scaled" : "") << ")";
}

/// "lds-read 16 <- local-write 4 <- global-load 4", "loop-invariant", ...
void printSource(raw_ostream &OS, const OperandSource &S) {
  const char *Sep = "";
  if (S.LocalReads) {
    OS << "lds-read " << S.LocalReads;
    if (S.AsyncCopies)
      OS << " <- async-copy " << S.AsyncCopies;
    if (S.LocalWrites)
      OS << " <- local-write " << S.LocalWrites;
    if (S.GlobalLoads)
      OS << " <- global-load " << S.GlobalLoads;
    if (S.StagesAhead)
      OS << " (written " << S.StagesAhead << " iteration"
         << (S.StagesAhead > 1 ? "s" : "") << " ahead)";
    Sep = " + ";
  }
  if (S.DirectLoads) {
    OS << Sep << "direct-load " << S.DirectLoads;
    if (S.DirectPrefetched)
      OS << " (" << S.DirectPrefetched << " prefetched 1 iteration ahead)";
    Sep = " + ";
  }
  if (S.SideLoads) {
    OS << Sep << "side-load " << S.SideLoads;
    if (S.SidePrefetched)
      OS << " (" << S.SidePrefetched << " prefetched 1 iteration ahead)";
    Sep = " + ";
  }
  if (S.FromGroup >= 0) {
    OS << Sep << "dot group " << S.FromGroup
       << (S.Exchanged ? " (through LDS)" : "");
    Sep = " + ";
  }
  if (S.LoopInvariant)
    OS << Sep << "loop-invariant registers";
}

} // namespace

void LoopModel::print(raw_ostream &OS) const {
  OS << "loop %bb." << Body->getNumber() << ": " << Insts.size()
     << " instructions, waves " << Waves << ", ";
  printShape(OS, Shape);
  if (chainedDots())
    OS << ", dots " << NumDots << " in " << Groups.size()
       << " chained groups, no single GEMM tile\n";
  else
    OS << ", dots " << NumDots << " = " << NumAccumulators
       << " accumulators x " << ChainLen << " K steps, tile " << TileM << "x"
       << TileN << "x" << TileK << " (replication " << Replication
       << "), tile bits " << TileBits << "\n";
  OS << "  local-read " << NumLocalReads << ", local-write " << NumLocalWrites
     << ", global-load " << NumGlobalLoads << ", operand-prep " << NumPrep
     << ", sync " << NumSync;
  if (NumAsyncCopies)
    OS << ", async-copy " << NumAsyncCopies;
  if (NumDirectLoads)
    OS << ", direct-load " << NumDirectLoads;
  if (NumSideLoads)
    OS << ", side-load " << NumSideLoads;
  if (NumInterDot)
    OS << ", inter-dot " << NumInterDot;
  if (NumCrossbar)
    OS << ", lds-crossbar " << NumCrossbar;
  if (NumExchangeWrites)
    OS << ", exchange " << NumExchangeWrites << " lds-write/"
       << NumExchangeReads << " lds-read";
  OS << "\n";
  for (unsigned G = 0; G < Groups.size(); ++G) {
    const DotGroup &DG = Groups[G];
    OS << "  group " << G << ": " << DG.NumDots << " dots = "
       << DG.NumAccumulators << " accumulators x " << DG.ChainLen
       << " K steps, ";
    printShape(OS, DG.Shape);
    if (DG.FedBy >= 0)
      OS << ", chained: fed by group " << DG.FedBy
         << (DG.FedLate ? " of the previous iteration" : "") << " through "
         << DG.InterDot << " inter-dot instructions";
    OS << "\n";
    for (Operand O : {Operand::A, Operand::B, Operand::ScaleA, Operand::ScaleB}) {
      const OperandSource &S = DG.source(O);
      if (!S.used())
        continue;
      OS << "    " << operandName(O) << ": ";
      printSource(OS, S);
      OS << "\n";
    }
  }
  if (UnknownWrites || UnknownLoads || UnknownCopies) {
    OS << "  LDS fills of no known operand:";
    const char *Sep = " ";
    for (auto [N, Name] : {std::pair{UnknownWrites, "local-write"},
                           std::pair{UnknownLoads, "global-load"},
                           std::pair{UnknownCopies, "async-copy"}})
      if (N) {
        OS << Sep << Name << " " << N;
        Sep = ", ";
      }
    OS << "\n";
  }
  if (NumStages)
    OS << "  stages: " << NumStages << " (LDS "
       << (NumAsyncCopies ? "DMA" : "writes") << " up to " << NumStages - 1
       << " iteration" << (NumStages > 2 ? "s" : "")
       << " ahead of the reads of their data)\n";
  const TargetInstrInfo *TII =
      Body->getParent()->getSubtarget().getInstrInfo();
  for (unsigned I = 0; I < Insts.size(); ++I) {
    const InstInfo &II = Insts[I];
    if (II.R == Role::Other)
      continue;
    OS << "  [" << I << "] " << roleName(II.R);
    if (II.Op != Operand::None)
      OS << " " << operandName(II.Op);
    if (chainedDots() &&
        (II.R == Role::Dot || II.R == Role::LocalRead ||
         II.R == Role::OperandPrep || II.R == Role::InterDot ||
         II.R == Role::DirectLoad || II.R == Role::SideLoad ||
         II.R == Role::AccPrep || II.R == Role::ExchangeWrite ||
         II.R == Role::ExchangeRead))
      OS << " g" << II.Group;
    if (II.R == Role::Dot || II.R == Role::LocalRead ||
        II.R == Role::OperandPrep)
      OS << " k" << II.KStep;
    if ((II.R == Role::AsyncCopy || II.R == Role::DirectLoad ||
         II.R == Role::SideLoad || II.R == Role::LocalRead) &&
        II.StagesAhead)
      OS << " +" << II.StagesAhead;
    // Rotating buffers, where not the one more than the stages the sync
    // rules otherwise take (a refill of what the same iteration read).
    if (II.Buffers && II.Buffers != II.StagesAhead + 1)
      OS << " /" << II.Buffers;
    OS << " " << TII->getName(II.MI->getOpcode()) << "\n";
  }
}

unsigned wavesPerWorkgroup(const MachineFunction &MF) {
  const Function &F = MF.getFunction();
  if (!F.hasFnAttribute("amdgpu-flat-work-group-size"))
    return 0;
  StringRef V =
      F.getFnAttribute("amdgpu-flat-work-group-size").getValueAsString();
  auto [MinS, MaxS] = V.split(',');
  unsigned Max = 0;
  if (MaxS.trim().getAsInteger(10, Max) || Max == 0)
    return 0;
  const target::TargetFacts *TF = target::factsFor(MF.getSubtarget().getCPU());
  unsigned WaveSize = TF ? TF->WaveSize : 64;
  return (Max + WaveSize - 1) / WaveSize;
}

LoopAnalysis analyzeLoop(MachineLoop &L, MachineFunction &MF,
                         AnalysisOptions Opts) {
  ModelBuilder B(L, MF, Opts);
  if (!buildRegion(B) || !buildDotGroups(B) || !traceOperandSources(B))
    return std::move(B.R);
  markInterDotWork(B);
  markAccumulatorPrep(B);
  if (!traceLDSWrites(B))
    return std::move(B.R);
  assignWriteOperands(B);
  deriveStages(B);
  assignLoadOperands(B);
  classifyResultSideLoads(B);
  classifyInterDotLoads(B);
  markLDSReductions(B);
  if (!checkLeftovers(B))
    return std::move(B.R);
  summarizeSources(B);
  B.M.Waves = wavesPerWorkgroup(MF);
  deriveTile(B.M, MF);
  B.R.Model = std::move(B.M);
  return std::move(B.R);
}

std::string LoopModel::tileText() const {
  const std::string K = "x" + std::to_string(TileK);
  return TileM ? std::to_string(TileM) + "x" + std::to_string(TileN) + K
               : "?x?" + K;
}

} // namespace pingpong
