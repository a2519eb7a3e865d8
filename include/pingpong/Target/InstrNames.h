//===- InstrNames.h - what an AMDGPU instruction is, from its name -*- C++ -*-===//
//
// The one name table behind every classifier of the project: the machine
// passes' opcode kinds (ISA/Opcodes: TII names such as DS_READ_B128_gfx9),
// the sync rules' counter classes (Sync/SyncRules, shared by both checkers)
// and pingpong-sim's issue categories (assembly mnemonics such as
// ds_read_b128). Each of them maps a NameOp to its own categories with a
// switch; none of them matches names itself. Case does not matter.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_TARGET_INSTRNAMES_H
#define PINGPONG_TARGET_INSTRNAMES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace pingpong {
namespace target {

/// The finest distinction any client makes. Order is not significant.
enum class NameOp : uint8_t {
  Unknown,     // no rule matched (an unmodelled non-s_/v_ name)
  // vector ALU
  MFMA,        // v_mfma_*, v_smfmac_*
  ValuFMA,     // v_fma_*, v_pk_fma_*, v_dot*, v_fmac_*, v_mac_*
  VALU,        // any other v_*
  // LDS (ds_*)
  LDSRead,     // ds_read*, ds_load*
  LDSWrite,    // ds_write*, ds_store*
  LDSAtomic,   // any other ds_* on LDS memory (atomics, append/consume)
  LDSCrossbar, // ds_bpermute, ds_permute, ds_swizzle, ds_nop: no LDS memory
  GDS,         // ds_gws_*, ds_ordered_count
  // vector memory (global_, buffer_, scratch_, tbuffer_)
  LDSDMA,      // a load straight to LDS (global_load_lds_*, *_lds, lds modifier)
  VMEMLoad,    // a load to VGPRs
  VMEMStore,   // a store
  VMEMAtomic,  // an atomic
  CacheMaint,  // buffer_wbl2, buffer_inv, buffer_wbinvl1, buffer_gl*
  FlatLoad,    // flat_load*
  FlatStore,   // flat_store*, flat_atomic* (FLAT may reach LDS or memory)
  // scalar memory
  SMEMLoad,    // s_load*, s_buffer_load*
  SMEMOther,   // s_store, s_buffer_store, s_scratch_, s_dcache, s_memtime,
               // s_memrealtime, s_atomic, s_buffer_atomic, s_atc_probe
  SendMsg,     // s_sendmsg*: counts on lgkmcnt
  // synchronisation and control
  Waitcnt,     // s_waitcnt, s_waitcnt_soft (MIR's relaxable form)
  WaitcntOne,  // s_waitcnt_vmcnt/lgkmcnt/expcnt/vscnt (one counter)
  Barrier,     // s_barrier
  EndPgm,      // s_endpgm
  SetPrio,     // s_setprio
  Nop,         // s_nop
  Sleep,       // s_sleep
  InternalOther, // s_waitcnt_depctr, s_code_end
  Branch,      // s_branch
  CondBranch,  // s_cbranch_*
  ControlOther, // s_setpc, s_swappc, s_call, s_rfe, s_trap, s_sethalt, s_icache
  SALU,        // any other s_*
  Export,      // exp, exp_*
  // MIR pseudos
  Fence,       // ATOMIC_FENCE
  SchedFence,  // SCHED_BARRIER, SCHED_GROUP_BARRIER, IGLP_OPT
};

/// The op of an instruction named Name (an opcode name or an assembly
/// mnemonic, any case, encoding suffixes allowed). LdsModifier: the
/// assembly's `lds` modifier on a buffer load (the mnemonic alone does not
/// say it is an LDS DMA).
NameOp classifyInstrName(llvm::StringRef Name, bool LdsModifier = false);

/// Whether the instruction named Name reads another lane's value: the LDS
/// crossbar (ds_bpermute, ds_swizzle), v_permlane*, v_readlane,
/// v_readfirstlane, DPP forms. A softmax's row reductions are made of these.
bool readsOtherLanes(llvm::StringRef Name);

} // namespace target
} // namespace pingpong

#endif
