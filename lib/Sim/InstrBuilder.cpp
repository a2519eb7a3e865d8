//===- InstrBuilder.cpp - pingpong-sim: an Inst from an MCInst ------------===//
//
// See InstrBuilder.h. The printed text of an instruction is kept for the
// report and the messages only; nothing here reads it back.
//
//===----------------------------------------------------------------------===//
#include "InstrBuilder.h"
#include "pingpong/Sync/Waitcnt.h"
#include "pingpong/Target/InstrNames.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSchedule.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>

using namespace llvm;

namespace ppsim {

const char *catName(Cat C) {
  switch (C) {
  case Cat::VALU: return "VALU";
  case Cat::MFMA: return "MFMA";
  case Cat::VMEM: return "VMEM";
  case Cat::SALU: return "SALU";
  case Cat::SMEM: return "SMEM";
  case Cat::LDS: return "LDS";
  case Cat::Branch: return "BRANCH";
  case Cat::Internal: return "INTERNAL";
  case Cat::Unknown: return "UNKNOWN";
  }
  return "?";
}

namespace {

bool startsWith(const std::string &S, const char *P) { return StringRef(S).starts_with(P); }

// Bytes one lane moves, from the mnemonic's data type (ds_read_b128: 16,
// buffer_load_dwordx2: 8; ds_read2/write2 move two elements).
unsigned bytesPerLane(const std::string &M) {
  StringRef S(M);
  // ordered longest first
  static const std::pair<const char *, unsigned> Suff[] = {
      {"dwordx4", 16}, {"dwordx3", 12}, {"dwordx2", 8}, {"dword", 4},
      {"b128", 16}, {"b96", 12}, {"b64", 8}, {"b32", 4}, {"b16", 2}, {"b8", 1},
      {"ubyte", 1}, {"sbyte", 1}, {"byte", 1}, {"ushort", 2}, {"sshort", 2}, {"short", 2},
      {"u8", 1}, {"i8", 1}, {"u16", 2}, {"i16", 2}, {"u32", 4}, {"i32", 4}, {"f32", 4},
      {"u64", 8}, {"i64", 8}, {"f64", 8}};
  unsigned Mult = (S.contains("read2") || S.contains("write2")) ? 2 : 1;
  size_t Best = StringRef::npos;
  unsigned Bytes = 4;
  for (auto &P : Suff) {
    size_t Pos = S.find(P.first);
    if (Pos != StringRef::npos && (Best == StringRef::npos || Pos < Best)) {
      // the earliest data-type token after the operation name; ties: the longest (listed first)
      Best = Pos;
      Bytes = P.second;
    }
  }
  if (S.contains("_tr_b"))  // ds_read_b64_tr_b16 etc: 8 bytes per lane
    Bytes = S.contains("b96") ? 12 : 8;
  return Bytes * Mult;
}

// The category (which issue slot, which unit) from the mnemonic.
// The model's categories from the one name table (Target/InstrNames); the
// opcode name says whether a buffer load is an LDS DMA
// (BUFFER_LOAD_DWORD_LDS_*: the assembly writes it as a `lds` modifier).
void classify(Inst &In) {
  using pingpong::target::NameOp;
  NameOp Op = pingpong::target::classifyInstrName(
      In.Mnem, StringRef(In.OpName).contains("_LDS_"));
  In.In = Internal::None;
  switch (Op) {
  case NameOp::MFMA:
    In.C = Cat::MFMA;
    break;
  case NameOp::ValuFMA:
  case NameOp::VALU:
    In.C = Cat::VALU;
    break;
  case NameOp::LDSRead:
  case NameOp::LDSWrite:
  case NameOp::LDSAtomic:
  case NameOp::LDSCrossbar:
  case NameOp::GDS:
    In.C = Cat::LDS;
    break;
  case NameOp::LDSDMA:
  case NameOp::VMEMLoad:
  case NameOp::VMEMStore:
  case NameOp::VMEMAtomic:
  case NameOp::CacheMaint:
  case NameOp::FlatLoad:
  case NameOp::FlatStore:
    In.C = Cat::VMEM;
    In.Flat = Op == NameOp::FlatLoad || Op == NameOp::FlatStore;
    In.LdsDma = Op == NameOp::LDSDMA;
    break;
  case NameOp::SMEMLoad:
  case NameOp::SMEMOther:
    In.C = Cat::SMEM;
    break;
  case NameOp::Waitcnt:
  case NameOp::WaitcntOne:
    In.C = Cat::Internal;
    In.In = Internal::Waitcnt;
    break;
  case NameOp::Nop:
    In.C = Cat::Internal;
    In.In = Internal::Nop;
    break;
  case NameOp::Barrier:
    In.C = Cat::Internal;
    In.In = Internal::Barrier;
    break;
  case NameOp::SetPrio:
    In.C = Cat::Internal;
    In.In = Internal::Setprio;
    break;
  case NameOp::Sleep:
    In.C = Cat::Internal;
    In.In = Internal::Sleep;
    break;
  case NameOp::EndPgm:
    In.C = Cat::Internal;
    In.In = Internal::Endpgm;
    break;
  case NameOp::InternalOther:
    In.C = Cat::Internal;
    In.In = Internal::Other;
    break;
  case NameOp::Branch:
  case NameOp::CondBranch:
    In.C = Cat::Branch;
    In.Conditional = Op == NameOp::CondBranch;
    break;
  case NameOp::SALU:
    In.C = Cat::SALU;
    break;
  default: // indirect control flow, messages, exports: not modelled, reported
    In.C = Cat::Unknown;
    break;
  }
  if (In.C == Cat::VMEM || In.C == Cat::LDS)
    In.BytesPerLane = bytesPerLane(In.Mnem);
}

// The mnemonic as the assembly writes it, lower case, without the encoding
// suffix (_e32, _e64, _sdwa, _dpp).
std::string mnemonicOf(const MCInst &MI, MCInstPrinter &IP, StringRef Text) {
  std::pair<const char *, uint64_t> Mn = IP.getMnemonic(MI);
  StringRef M = Mn.first ? StringRef(Mn.first) : StringRef();
  M = M.trim().take_until([](char C) { return C == ' ' || C == '\t'; });
  if (M.empty()) // no AsmWriter entry: the printed text's first word
    M = Text.take_until([](char C) { return C == ' ' || C == '\t'; });
  std::string L = M.lower();
  for (const char *Suf : {"_e32", "_e64", "_sdwa", "_dpp"})
    if (StringRef(L).ends_with(Suf))
      L.resize(L.size() - strlen(Suf));
  return L;
}

} // namespace

InstrBuilder::InstrBuilder(const MCInstrInfo &MCII, const MCRegisterInfo &MRI, const MCSubtargetInfo &STI,
                           MCInstPrinter &IP, const std::string &Cpu)
    : MCII(MCII), MRI(MRI), STI(STI), IP(IP), Cpu(Cpu) {
  // Register identities: the 32-bit VGPRs, AGPRs and SGPRs by their number
  // (VGPR<n>), a tuple by the run of 32-bit registers it covers.
  Regs.assign(MRI.getNumRegs(), RegInfo());
  for (unsigned R = 1; R < MRI.getNumRegs(); ++R) {
    StringRef N = MRI.getName(R);
    RegInfo &I = Regs[R];
    unsigned X;
    if (N.consume_front("VGPR") && !N.getAsInteger(10, X)) I = {Operand::V, X, 1};
    else if (N.consume_front("AGPR") && !N.getAsInteger(10, X)) I = {Operand::V, AgprBase + X, 1};
    else if (N.consume_front("SGPR") && !N.getAsInteger(10, X)) I = {Operand::S, X, 1};
    N = MRI.getName(R);
    if (N == "SCC") { RegScc = R; I = {Operand::Scc, 0, 1}; }
    if (N == "EXEC") { RegExec = R; I = {Operand::Exec, 0, 2}; }
    if (N == "EXEC_LO") I = {Operand::Exec, 0, 1};
    if (N == "VCC") { RegVcc = R; I = {Operand::Vcc, 0, 2}; }
    if (N == "VCC_LO") I = {Operand::Vcc, 0, 1};
    if (N == "M0" || N.starts_with("M0_gfx")) I = {Operand::M0, 0, 1}; // M0_gfxpre11 on gfx9
  }
  for (unsigned R = 1; R < MRI.getNumRegs(); ++R) {
    if (Regs[R].K != Operand::Other || MRI.subregs(R).empty())
      continue;
    // a tuple: consecutive 32-bit registers of one kind
    Operand::Kind K = Operand::None;
    unsigned Lo = ~0u, Hi = 0, Count = 0;
    bool Ok = true;
    for (MCPhysReg Sub : MRI.subregs(R)) {
      const RegInfo &S = Regs[Sub];
      if (S.N != 1 || (S.K != Operand::V && S.K != Operand::S)) continue; // 16-bit halves etc.
      if (K != Operand::None && K != S.K) Ok = false;
      K = S.K;
      Lo = std::min(Lo, S.Idx);
      Hi = std::max(Hi, S.Idx);
      ++Count;
    }
    if (Ok && Count > 1 && Hi - Lo + 1 == Count)
      Regs[R] = {K, Lo, Count};
  }
}

const InstrBuilder::RegInfo &InstrBuilder::reg(MCRegister R) const {
  static const RegInfo None;
  return R.id() < Regs.size() ? Regs[R.id()] : None;
}

Operand InstrBuilder::operand(const MCInst &MI, unsigned K) const {
  const MCOperand &Op = MI.getOperand(K);
  Operand O;
  if (Op.isReg()) {
    const RegInfo &R = reg(Op.getReg());
    O.K = R.K;
    O.Idx = R.Idx;
    O.N = R.N;
  } else if (Op.isImm()) {
    O.K = Operand::Imm;
    O.Val = Op.getImm();
  } else if (Op.isExpr() && isa<MCConstantExpr>(Op.getExpr())) {
    O.K = Operand::Imm;
    O.Val = cast<MCConstantExpr>(Op.getExpr())->getValue();
  } else {
    O.K = Operand::Other; // a symbol, a double literal
  }
  return O;
}

// The value operands in assembly order and the named immediates. An operand
// with a register class is a register or source operand (a source may be an
// immediate); one without is a named immediate: a positional value for SALU
// (s_movk_i32's simm16), the offset of a memory instruction, a modifier
// (clamp, omod, src modifiers, op_sel, SDWA/DPP controls) of a VALU op.
void InstrBuilder::addOperands(const MCInst &MI, Inst &In) const {
  const MCInstrDesc &D = MCII.get(MI.getOpcode());
  StringRef Name = In.OpName;
  // VOP2 / VOPC in the 32-bit (and SDWA, DPP) encodings keep VCC implicit;
  // the assembly names it: after vdst (carry out), first (compare result),
  // last (carry in, cndmask's mask)
  bool VccNamed = Name.contains("_e32") || Name.contains("_sdwa") || Name.contains("_dpp");
  auto Implicit = [&](ArrayRef<MCPhysReg> Rs) {
    return VccNamed && std::find(Rs.begin(), Rs.end(), (MCPhysReg)RegVcc.id()) != Rs.end();
  };
  const bool Memory = In.C == Cat::VMEM || In.C == Cat::LDS || In.C == Cat::SMEM;
  std::vector<int64_t> Named;
  for (unsigned K = 0; K < MI.getNumOperands(); ++K) {
    const MCOperand &Op = MI.getOperand(K);
    bool InDesc = K < D.getNumOperands();
    if (K < D.getNumDefs()) {
      In.Vals.push_back(operand(MI, K));
      ++In.NumValDefs;
      continue;
    }
    if (InDesc && D.getOperandConstraint(K, MCOI::TIED_TO) >= 0)
      continue; // the tied source repeats a def (v_fmac's src2, s_addk's sdst)
    bool HasClass = !InDesc || D.operands()[K].RegClass >= 0;
    if (Op.isReg() || HasClass || Op.isExpr()) {
      In.Vals.push_back(operand(MI, K));
      continue;
    }
    if (!Op.isImm())
      continue;
    if (In.C == Cat::SALU) // s_movk_i32 / s_cmpk_* / s_addk_i32 simm16
      In.Vals.push_back(operand(MI, K));
    else
      Named.push_back(Op.getImm());
  }
  if (Implicit(D.implicit_defs())) {
    Operand V;
    V.K = Operand::Vcc;
    V.N = 2;
    In.Vals.insert(In.Vals.begin() + In.NumValDefs, V);
    ++In.NumValDefs;
  }
  if (Implicit(D.implicit_uses())) {
    Operand V;
    V.K = Operand::Vcc;
    V.N = 2;
    In.Vals.push_back(V);
  }
  if (Memory) {
    // DS: offset (or offset0, offset1), gds; FLAT, buffer: offset, cpol...;
    // SMEM: offset in the _IMM and _SGPR_IMM forms, then cpol
    bool TwoOffsets = In.C == Cat::LDS && Named.size() >= 3;
    if (In.C == Cat::SMEM && !Name.contains("_IMM"))
      Named.clear();
    if (TwoOffsets) {
      In.Offset0 = Named[0];
      In.Offset1 = Named[1];
    } else if (!Named.empty() && !startsWith(In.Mnem, "ds_swizzle")) {
      In.Offset = Named[0]; // ds_swizzle's offset field is a lane pattern, not bytes
    }
  } else if (In.C == Cat::VALU) {
    if (Name.starts_with("V_BITOP3_B32") && !Named.empty()) {
      In.BitOp3 = (unsigned)Named.back() & 0xff;
      Named.pop_back();
    }
    for (int64_t X : Named)
      In.Modifiers |= X != 0;
    In.Modifiers |= Name.contains("_sdwa") || Name.contains("_dpp");
  }
  if (startsWith(In.Mnem, "scratch_")) {
    if (Name.contains("_SVS")) In.Scratch = ScratchAddr::VAddrSAddr;
    else if (Name.contains("_SADDR")) In.Scratch = ScratchAddr::SAddr;
    else if (Name.contains("_ST_") || Name.ends_with("_ST")) In.Scratch = ScratchAddr::None;
    else In.Scratch = ScratchAddr::VAddr;
  }
}

// MFMA pipe cycles: the scheduling model's XDL passes x 4 clocks, checked
// against the ISA table (Params.h); the f8f6f4 forms, whose cycles depend on
// the operand formats the model does not see, from the table. SMEM latency
// from the sched model (passes of 4 clocks).
void InstrBuilder::addCycles(const MCInst &MI, Inst &In, std::vector<std::string> &Warnings) {
  const MCSchedModel &SM = STI.getSchedModel();
  const MCInstrDesc &D = MCII.get(MI.getOpcode());
  unsigned SC = D.getSchedClass();
  const MCSchedClassDesc *SCD = SM.getSchedClassDesc(SC);
  int Guard = 0;
  while (SCD && SCD->isVariant() && Guard++ < 8) {
    SC = STI.resolveVariantSchedClass(SC, &MI, &MCII, SM.getProcessorID());
    SCD = SC ? SM.getSchedClassDesc(SC) : nullptr;
  }
  int XdlPasses = -1;
  int Lat = -1;
  if (SCD && SCD->isValid() && !SCD->isVariant()) {
    for (auto *W = STI.getWriteProcResBegin(SCD), *E = STI.getWriteProcResEnd(SCD); W != E; ++W) {
      const MCProcResourceDesc *PR = SM.getProcResource(W->ProcResourceIdx);
      if (PR && PR->Name && StringRef(PR->Name).contains("XDL"))
        XdlPasses = std::max<int>(XdlPasses, W->ReleaseAtCycle);
    }
    Lat = MCSchedModel::computeInstrLatency(STI, *SCD);
  }
  if (In.C == Cat::SMEM) {
    int Passes = Lat > 0 ? Lat : paramsFor(Cpu).SmemLatencyPasses;
    In.Latency = Passes * 4; // SISchedule.td latencies are in passes of 4 clocks
  }
  if (In.C != Cat::MFMA)
    return;
  int N;
  const MfmaRule *Rules = mfmaRules(N);
  const MfmaRule *Hit = nullptr;
  for (int K = 0; K < N && !Hit; ++K)
    if (In.Mnem.find(Rules[K].Pattern) != std::string::npos)
      Hit = &Rules[K];
  int TableCycles = 0;
  if (Hit) {
    TableCycles = Cpu == "gfx950" ? Hit->Cycles950 : Hit->Cycles942;
    In.MfmaCoexec = Hit->Coexec;
    if (Hit->F8F6F4) {
      // The A / B formats (cbsz / blgp: fp8, bf8, fp6, bf6, fp4) select the
      // opcode variant, named by the register widths they need.
      if (pingpong::target::f8f6f4HasF8Operand(In.OpName))
        TableCycles *= 2;
    }
  }
  int ModelCycles = XdlPasses > 0 ? XdlPasses * 4 : 0;
  // The F8F6F4 2x rule is "not reflected in MCA" (SISchedule.td TODO): the
  // ISA table decides those; elsewhere the LLVM model decides and the table checks.
  if (Hit && Hit->F8F6F4 && TableCycles > 0) {
    In.MfmaCycles = TableCycles;
    In.CyclesSource = std::string("table (") + Hit->Source + ")";
  } else if (ModelCycles > 0) {
    In.MfmaCycles = ModelCycles;
    In.CyclesSource = "LLVM MCSchedModel (" + std::to_string(XdlPasses) + " passes)";
  } else if (TableCycles > 0) {
    In.MfmaCycles = TableCycles;
    In.CyclesSource = std::string("table (") + Hit->Source + "); sched model unresolved";
  } else {
    In.MfmaCycles = 16;
    Warnings.push_back("line " + std::to_string(In.Line) + ": no MFMA cycle count for '" + In.Mnem +
                       "' in the sched model or the table: assuming 16");
    In.CyclesSource = "assumed 16 (unknown)";
  }
  if (ModelCycles > 0 && TableCycles > 0 && ModelCycles != TableCycles)
    SchedMismatch[In.Mnem] = "sched model " + std::to_string(ModelCycles) + " vs table " +
                             std::to_string(TableCycles) + ", using " + std::to_string(In.MfmaCycles);
}

Inst InstrBuilder::build(const MCInst &MI, unsigned Line, std::vector<std::string> &Warnings) {
  const MCInstrDesc &D = MCII.get(MI.getOpcode());
  Inst In;
  In.Line = Line;
  In.OpName = MCII.getName(MI.getOpcode()).str();
  std::string S;
  raw_string_ostream OS(S);
  IP.printInst(&MI, 0, "", STI, OS);
  OS.flush();
  In.Text = StringRef(S).trim().str();
  In.Mnem = mnemonicOf(MI, IP, In.Text);
  In.NumDefs = D.getNumDefs();
  In.IsLoad = D.mayLoad();
  In.IsStore = D.mayStore();
  classify(In);
  addOperands(MI, In);

  // register units: explicit defs, explicit uses, implicit ones
  auto Overlaps = [&](MCRegister A, MCRegister B) { return A && B && MRI.regsOverlap(A, B); };
  auto AddUnits = [&](MCRegister R, std::vector<unsigned> &V) {
    for (MCRegUnit U : MRI.regunits(R))
      V.push_back((unsigned)U);
  };
  auto Defines = [&](MCRegister R) {
    In.DefsScc |= Overlaps(R, RegScc);
    In.DefsExec |= Overlaps(R, RegExec);
    In.DefsVcc |= Overlaps(R, RegVcc);
  };
  for (unsigned K = 0; K < MI.getNumOperands(); ++K) {
    const MCOperand &Op = MI.getOperand(K);
    if (!Op.isReg() || !Op.getReg())
      continue;
    bool Def = K < D.getNumDefs();
    AddUnits(Op.getReg(), Def ? In.DefUnits : In.UseUnits);
    if (Def)
      Defines(Op.getReg());
  }
  for (MCPhysReg R : D.implicit_defs()) {
    AddUnits(R, In.DefUnits);
    Defines(R);
  }
  for (MCPhysReg R : D.implicit_uses())
    AddUnits(R, In.UseUnits);

  // immediates of the internal instructions (s_waitcnt's SIMM16, s_nop's count)
  if (In.C == Cat::Internal && MI.getNumOperands() > 0) {
    int64_t Imm = 0;
    for (unsigned K = 0; K < MI.getNumOperands(); ++K)
      if (MI.getOperand(K).isImm())
        Imm = MI.getOperand(K).getImm();
    In.Imm = (int)Imm;
    // the one s_waitcnt decoder (lib/Sync): gfx9 SIMM16 and the single-counter forms
    if (std::optional<pingpong::Waitcnt> W = pingpong::Waitcnt::fromAsm(In.Mnem.c_str(), Imm)) {
      In.Vm = W->waitsOnVm() ? (int)W->Vm : -1;
      In.Lgkm = W->waitsOnLgkm() ? (int)W->Lgkm : -1;
    }
  }
  if (In.C == Cat::Branch) {
    for (unsigned K = 0; K < MI.getNumOperands(); ++K) {
      const MCOperand &Op = MI.getOperand(K);
      if (Op.isExpr())
        if (auto *SR = dyn_cast<MCSymbolRefExpr>(Op.getExpr()))
          In.TargetLabel = SR->getSymbol().getName().str();
    }
  }
  if (In.Mnem == "s_setprio" || In.Mnem == "s_barrier")
    In.ClusterStart = true;
  addCycles(MI, In, Warnings);
  return In;
}

void InstrBuilder::finish(std::vector<std::string> &Warnings) const {
  for (auto &KV : SchedMismatch)
    Warnings.push_back("MFMA cycles for " + KV.first + ": " + KV.second);
}

} // namespace ppsim
