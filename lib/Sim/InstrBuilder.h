//===- InstrBuilder.h - pingpong-sim: an Inst from an MCInst --------------===//
//
// The one place that describes an instruction for the model (as llvm-mca's
// InstrBuilder does for its pipeline): from the MCInst, its MCInstrDesc and
// MCRegisterInfo it takes the register reads and writes (register units for
// the scoreboard, value operands for the value tracker), the named
// immediates, the memory kind, the counters of s_waitcnt, the MFMA pipe
// cycles and the SMEM latency (MCSchedModel). What libLLVM does not export
// for AMDGPU (instruction formats, named operand indices) comes from names,
// the project's rule (lib/ISA/Opcodes.cpp): the category and bytes per lane
// from the mnemonic, scratch addressing, LDS DMA and the f8f6f4 operand
// formats from the opcode name.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SIM_INSTRBUILDER_H
#define PINGPONG_SIM_INSTRBUILDER_H

#include "pingpong/Sim/Sim.h"

#include "llvm/MC/MCRegister.h"

#include <map>
#include <string>
#include <vector>

namespace llvm {
class MCInst;
class MCInstrInfo;
class MCInstPrinter;
class MCRegisterInfo;
class MCSubtargetInfo;
} // namespace llvm

namespace ppsim {

class InstrBuilder {
public:
  InstrBuilder(const llvm::MCInstrInfo &MCII, const llvm::MCRegisterInfo &MRI,
               const llvm::MCSubtargetInfo &STI, llvm::MCInstPrinter &IP, const std::string &Cpu);

  // The instruction at source line Line. Warnings about it (an MFMA without a
  // cycle count) go to Warnings.
  Inst build(const llvm::MCInst &MI, unsigned Line, std::vector<std::string> &Warnings);
  // Warnings collected over all instructions (MFMA sched model vs table).
  void finish(std::vector<std::string> &Warnings) const;

private:
  struct RegInfo {
    Operand::Kind K = Operand::Other;
    unsigned Idx = 0, N = 1;
  };
  const RegInfo &reg(llvm::MCRegister R) const;
  Operand operand(const llvm::MCInst &MI, unsigned K) const;
  void addOperands(const llvm::MCInst &MI, Inst &In) const;
  void addCycles(const llvm::MCInst &MI, Inst &In, std::vector<std::string> &Warnings);

  const llvm::MCInstrInfo &MCII;
  const llvm::MCRegisterInfo &MRI;
  const llvm::MCSubtargetInfo &STI;
  llvm::MCInstPrinter &IP;
  std::string Cpu;
  std::vector<RegInfo> Regs;                   // per MCRegister
  llvm::MCRegister RegScc, RegExec, RegVcc;
  std::map<std::string, std::string> SchedMismatch;
};

} // namespace ppsim

#endif
