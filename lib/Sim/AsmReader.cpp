//===- AsmReader.cpp - read AMDGPU assembly through LLVM's MC layer -------===//
//
// The file is parsed by LLVM's own AMDGPU assembly parser (libLLVM). A small
// MCStreamer records every instruction of the text sections (MCInst + source
// line), every label and which symbols are functions; the lexer's comment
// consumer reports the `; sched_barrier` comment lines that open clusters (as
// llvm-mca finds its LLVM-MCA-BEGIN markers). InstrBuilder describes each
// MCInst; the directives the AMDGPU parser keeps to itself come from
// KernelMeta. The result is the Program: instructions, labels, branch
// targets, kernels.
//
//===----------------------------------------------------------------------===//
#include "InstrBuilder.h"
#include "KernelMeta.h"
#include "pingpong/Sim/Sim.h"
#include "pingpong/Target/TargetFacts.h"

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCParser/AsmLexer.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSectionELF.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <cstdlib>
#include <set>

using namespace llvm;

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmParser();
}

namespace ppsim {

namespace {

const unsigned MaxShownErrors = 3; // assembler errors printed in full

struct RecInst {
  MCInst I;
  unsigned Line;
};

// Records instructions (text sections only), labels and function symbols.
class RecordingStreamer : public MCStreamer {
public:
  SourceMgr &SM;
  std::vector<RecInst> Insts;
  std::vector<std::pair<std::string, unsigned>> Labels; // name, inst index
  std::set<std::string> Functions;
  bool InText = true;

  RecordingStreamer(MCContext &Ctx, SourceMgr &SM) : MCStreamer(Ctx), SM(SM) {}

  void changeSection(MCSection *Sec, uint32_t Sub) override {
    MCStreamer::changeSection(Sec, Sub);
    StringRef N = Sec->getName();
    InText = N.starts_with(".text");
  }
  void emitLabel(MCSymbol *S, SMLoc Loc) override {
    MCStreamer::emitLabel(S, Loc);
    if (InText)
      Labels.push_back({S->getName().str(), (unsigned)Insts.size()});
  }
  bool emitSymbolAttribute(MCSymbol *S, MCSymbolAttr A) override {
    if (A == MCSA_ELF_TypeFunction)
      Functions.insert(S->getName().str());
    return true;
  }
  void emitCommonSymbol(MCSymbol *, uint64_t, Align) override {}
  void emitZerofill(MCSection *, MCSymbol *, uint64_t, Align, SMLoc) override {}
  void emitInstruction(const MCInst &I, const MCSubtargetInfo &) override {
    if (!InText)
      return;
    unsigned Line = I.getLoc().isValid() ? SM.FindLineNumber(I.getLoc()) : 0;
    Insts.push_back({I, Line});
  }
};

// The lines that hold only a `; sched_barrier`, `; sched_group_barrier` or
// `; iglp_opt` comment (what llc prints for those pseudos): the next
// instruction opens a cluster.
class ClusterMarkers : public AsmCommentConsumer {
public:
  SourceMgr &SM;
  std::set<unsigned> Lines;
  explicit ClusterMarkers(SourceMgr &SM) : SM(SM) {}
  void HandleComment(SMLoc Loc, StringRef Text) override {
    if (!Text.contains("sched_barrier") && !Text.contains("sched_group_barrier") && !Text.contains("iglp_opt"))
      return;
    // the comment marker ';' first on its line
    const char *P = Loc.getPointer();
    const char *Begin = SM.getMemoryBuffer(SM.FindBufferContainingLoc(Loc))->getBufferStart();
    if (P <= Begin || P[-1] != ';')
      return;
    for (const char *Q = P - 2; Q >= Begin && *Q != '\n'; --Q)
      if (*Q != ' ' && *Q != '\t' && *Q != '\r')
        return;
    Lines.insert(SM.FindLineNumber(Loc));
  }
};

} // namespace

namespace {
bool fail(SimError &E, Errc Code, std::string Message) {
  E.Code = Code;
  E.Message = std::move(Message);
  return false;
}
} // namespace

bool parseProgram(const ParseOptions &O, Program &P, SimError &E) {
  LLVMInitializeAMDGPUTargetInfo();
  LLVMInitializeAMDGPUTargetMC();
  LLVMInitializeAMDGPUAsmParser();

  P.File = O.File;
  ErrorOr<std::unique_ptr<MemoryBuffer>> BufOr =
      O.Source.empty() ? MemoryBuffer::getFileOrSTDIN(O.File) : MemoryBuffer::getMemBufferCopy(O.Source, O.File);
  if (!BufOr)
    return fail(E, Errc::Unreadable,
                "pingpong-sim: error: cannot read '" + O.File + "': " + BufOr.getError().message() + "\n");
  StringRef Text = (*BufOr)->getBuffer();

  Directives Dir = scanDirectives(Text);
  const std::string &FileCpu = Dir.TargetCpu;
  std::string Cpu = O.Mcpu.empty() ? FileCpu : O.Mcpu;
  if (Cpu.empty())
    Cpu = pingpong::target::supportedTargets().front().CPU;
  if (!pingpong::target::factsFor(Cpu))
    return fail(E, Errc::TargetNotModelled,
                O.File + ": error: target '" + Cpu + "' is not modelled (pingpong-sim models " +
                    pingpong::target::supportedCPUList() + "); use --mcpu\n");
  if (!O.Mcpu.empty() && !FileCpu.empty() && FileCpu != O.Mcpu)
    return fail(E, Errc::TargetMismatch,
                O.File + ": error: the file is for " + FileCpu + " (.amdgcn_target) but --mcpu is " + O.Mcpu + "\n");
  P.Mcpu = Cpu;

  Triple TT("amdgcn-amd-amdhsa");
  std::string TErr;
  const Target *T = TargetRegistry::lookupTarget(TT, TErr);
  if (!T)
    return fail(E, Errc::NoTarget, "pingpong-sim: error: AMDGPU target not available in libLLVM: " + TErr + "\n");
  MCTargetOptions MCO;
  std::unique_ptr<MCRegisterInfo> MRI(T->createMCRegInfo(TT));
  std::unique_ptr<MCAsmInfo> MAI(T->createMCAsmInfo(*MRI, TT, MCO));
  std::unique_ptr<MCInstrInfo> MCII(T->createMCInstrInfo());
  std::unique_ptr<MCSubtargetInfo> STI(T->createMCSubtargetInfo(TT, Cpu, ""));
  SourceMgr SrcMgr;
  const bool LooksLikeIR = Text.starts_with("; ModuleID") || Text.contains("\ntarget triple = ");
  SrcMgr.AddNewSourceBuffer(std::move(*BufOr), SMLoc());
  MCContext Ctx(TT, MAI.get(), MRI.get(), STI.get(), &SrcMgr, &MCO);
  std::unique_ptr<MCObjectFileInfo> MOFI(T->createMCObjectFileInfo(Ctx, /*PIC=*/false));
  Ctx.setObjectFileInfo(MOFI.get());

  // assembler diagnostics: the first few errors in full, then a count (an
  // LLVM IR or x86 file gives one error per line)
  struct DiagCount { unsigned Errors = 0; } DC;
  SrcMgr.setDiagHandler(
      [](const SMDiagnostic &D, void *Ctx) {
        auto *C = static_cast<DiagCount *>(Ctx);
        bool Err = D.getKind() == SourceMgr::DK_Error;
        C->Errors += Err;
        if (C->Errors > MaxShownErrors && (Err || D.getKind() == SourceMgr::DK_Note)) return;
        D.print(nullptr, errs());
      },
      &DC);
  RecordingStreamer Str(Ctx, SrcMgr);
  T->createNullTargetStreamer(Str); // AMDGPUTargetStreamer: the parser needs one
  std::unique_ptr<MCAsmParser> Parser(createMCAsmParser(SrcMgr, Ctx, Str, *MAI));
  std::unique_ptr<MCTargetAsmParser> TAP(T->createMCAsmParser(*STI, *Parser, *MCII, MCO));
  if (!TAP)
    return fail(E, Errc::NoTarget, "pingpong-sim: error: no AMDGPU asm parser\n");
  Parser->setTargetParser(*TAP);
  ClusterMarkers Markers(SrcMgr);
  Parser->getLexer().setCommentConsumer(&Markers);
  Str.initSections(false, *STI);
  if (Parser->Run(/*NoInitialTextSection=*/false) || DC.Errors) {
    // the assembler's own diagnostics are printed already; then the summary
    std::string M;
    if (DC.Errors > MaxShownErrors)
      M += O.File + ": " + std::to_string(DC.Errors - MaxShownErrors) + " more errors not shown\n";
    M += O.File + ": error: the LLVM AMDGPU assembler rejected the file (errors above); is it AMDGPU assembly for " +
         Cpu + "?\n";
    if (StringRef(O.File).ends_with(".ll") || LooksLikeIR)
      M += O.File + ": note: this looks like LLVM IR; compile it first: llc -mtriple=amdgcn-amd-amdhsa -mcpu=" + Cpu +
           " -O3 " + O.File + " -o k.s\n";
    return fail(E, Errc::Assembler, M);
  }
  if (Str.Insts.empty())
    return fail(E, Errc::NoInstructions, O.File + ":1: error: no instructions found: not AMDGPU assembly, or empty\n");

  std::unique_ptr<MCInstPrinter> IP(T->createMCInstPrinter(TT, 0, *MAI, *MCII, *MRI));
  InstrBuilder Builder(*MCII, *MRI, *STI, *IP, Cpu);
  for (auto &RI : Str.Insts)
    P.Insts.push_back(Builder.build(RI.I, RI.Line, P.Warnings));
  Builder.finish(P.Warnings);

  // cluster boundaries from "; sched_barrier" comment lines
  for (unsigned L : Markers.Lines) {
    for (auto &In : P.Insts)
      if (In.Line > L) {
        In.ClusterStart = true;
        break;
      }
  }
  for (auto &L : Str.Labels)
    P.Labels[L.first] = L.second;
  for (auto &In : P.Insts)
    if (In.C == Cat::Branch) {
      auto It = P.Labels.find(In.TargetLabel);
      if (It != P.Labels.end())
        In.Target = (int)It->second;
    }

  // kernels: function symbols, in code order, with their directives
  const std::vector<KernelInfo> &Meta = Dir.Kernels;
  std::vector<std::pair<unsigned, std::string>> Funcs;
  for (auto &L : Str.Labels)
    if (Str.Functions.count(L.first))
      Funcs.push_back({L.second, L.first});
  std::sort(Funcs.begin(), Funcs.end());
  for (size_t K = 0; K < Funcs.size(); ++K) {
    if (!Dir.HsaKernels.empty() && !Dir.HsaKernels.count(Funcs[K].second))
      continue;
    KernelInfo KI;
    KI.Name = Funcs[K].second;
    KI.Begin = Funcs[K].first;
    KI.End = K + 1 < Funcs.size() ? Funcs[K + 1].first : (unsigned)P.Insts.size();
    if (KI.Begin >= KI.End)
      continue;
    KI.Line = P.Insts[KI.Begin].Line;
    for (auto &M : Meta)
      if (M.Name == KI.Name) {
        // All the metadata says (registers, static LDS, arguments, the SGPR
        // layout) with this function's code range: a field copied one by one
        // was once left out (static LDS, so occupancy ignored it).
        KernelInfo FromMeta = M;
        FromMeta.Begin = KI.Begin;
        FromMeta.End = KI.End;
        FromMeta.Line = KI.Line;
        KI = std::move(FromMeta);
      }
    P.Kernels.push_back(KI);
  }
  if (P.Kernels.empty()) {
    // hand-written micro kernels may have no .type: the whole text is one kernel
    KernelInfo KI;
    KI.Name = Str.Labels.empty() ? "<text>" : Str.Labels.front().first;
    KI.Begin = 0;
    KI.End = P.Insts.size();
    KI.Line = P.Insts[0].Line;
    if (Meta.size() == 1) {
      KI.MaxFlatWG = Meta[0].MaxFlatWG;
      KI.ReqdWG = Meta[0].ReqdWG;
    }
    P.Kernels.push_back(KI);
  }
  if (getenv("PPSIM_DUMP")) {
    for (auto &In : P.Insts)
      errs() << In.Line << " [" << catName(In.C) << "] " << In.OpName << " | " << In.Text
             << " | defs " << In.DefUnits.size() << " uses " << In.UseUnits.size()
             << (In.MfmaCycles ? " mfma=" + std::to_string(In.MfmaCycles) + " " + In.CyclesSource : "")
             << (In.C == Cat::SMEM ? " lat=" + std::to_string(In.Latency) : "")
             << (In.In == Internal::Waitcnt ? " vm=" + std::to_string(In.Vm) + " lgkm=" + std::to_string(In.Lgkm) : "")
             << (In.Target >= 0 ? " ->" + std::to_string(In.Target) : "")
             << (In.ClusterStart ? " <cluster>" : "") << "\n";
  }
  return true;
}

} // namespace ppsim
