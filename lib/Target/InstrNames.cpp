//===- InstrNames.cpp - what an AMDGPU instruction is, from its name -----===//
#include "pingpong/Target/InstrNames.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

using namespace llvm;

namespace pingpong {
namespace target {

namespace {
enum class Match : uint8_t { Exact, Prefix };
struct NameRule {
  Match M;
  const char *Text; // lower case
  NameOp Op;
};

// First match wins: the specific forms come before their family's prefix.
// Vector memory (global_, buffer_, scratch_, tbuffer_) and flat_ are decided
// in vectorMemoryOp below: load / store / atomic and LDS DMA are read from
// the whole name.
constexpr NameRule Rules[] = {
    // synchronisation
    {Match::Exact, "s_waitcnt", NameOp::Waitcnt},
    {Match::Exact, "s_waitcnt_soft", NameOp::Waitcnt},
    {Match::Prefix, "s_waitcnt_vmcnt", NameOp::WaitcntOne},
    {Match::Prefix, "s_waitcnt_lgkmcnt", NameOp::WaitcntOne},
    {Match::Prefix, "s_waitcnt_expcnt", NameOp::WaitcntOne},
    {Match::Prefix, "s_waitcnt_vscnt", NameOp::WaitcntOne},
    {Match::Exact, "s_waitcnt_depctr", NameOp::InternalOther},
    {Match::Exact, "s_code_end", NameOp::InternalOther},
    {Match::Exact, "s_barrier", NameOp::Barrier},
    {Match::Exact, "s_endpgm", NameOp::EndPgm},
    {Match::Exact, "s_setprio", NameOp::SetPrio},
    {Match::Exact, "s_nop", NameOp::Nop},
    {Match::Exact, "s_sleep", NameOp::Sleep},
    // control
    {Match::Exact, "s_branch", NameOp::Branch},
    {Match::Prefix, "s_cbranch_", NameOp::CondBranch},
    {Match::Prefix, "s_setpc", NameOp::ControlOther},
    {Match::Prefix, "s_swappc", NameOp::ControlOther},
    {Match::Prefix, "s_call", NameOp::ControlOther},
    {Match::Prefix, "s_rfe", NameOp::ControlOther},
    {Match::Prefix, "s_trap", NameOp::ControlOther},
    {Match::Prefix, "s_sethalt", NameOp::ControlOther},
    {Match::Prefix, "s_icache", NameOp::ControlOther},
    // scalar memory (lgkmcnt)
    {Match::Prefix, "s_sendmsg", NameOp::SendMsg},
    {Match::Prefix, "s_load", NameOp::SMEMLoad},
    {Match::Prefix, "s_buffer_load", NameOp::SMEMLoad},
    {Match::Prefix, "s_store", NameOp::SMEMOther},
    {Match::Prefix, "s_buffer_store", NameOp::SMEMOther},
    {Match::Prefix, "s_scratch_", NameOp::SMEMOther},
    {Match::Prefix, "s_dcache", NameOp::SMEMOther},
    {Match::Prefix, "s_memtime", NameOp::SMEMOther},
    {Match::Prefix, "s_memrealtime", NameOp::SMEMOther},
    {Match::Prefix, "s_atomic", NameOp::SMEMOther},
    {Match::Prefix, "s_buffer_atomic", NameOp::SMEMOther},
    {Match::Prefix, "s_atc_probe", NameOp::SMEMOther},
    {Match::Prefix, "s_", NameOp::SALU},
    // vector ALU
    {Match::Prefix, "v_mfma_", NameOp::MFMA},
    {Match::Prefix, "v_smfmac_", NameOp::MFMA},
    {Match::Prefix, "v_fma_", NameOp::ValuFMA},
    {Match::Prefix, "v_pk_fma_", NameOp::ValuFMA},
    {Match::Prefix, "v_dot", NameOp::ValuFMA},
    {Match::Prefix, "v_fmac_", NameOp::ValuFMA},
    {Match::Prefix, "v_mac_", NameOp::ValuFMA},
    {Match::Prefix, "v_", NameOp::VALU},
    // LDS
    {Match::Prefix, "ds_bpermute", NameOp::LDSCrossbar},
    {Match::Prefix, "ds_permute", NameOp::LDSCrossbar},
    {Match::Prefix, "ds_swizzle", NameOp::LDSCrossbar},
    {Match::Prefix, "ds_nop", NameOp::LDSCrossbar},
    {Match::Prefix, "ds_gws", NameOp::GDS},
    {Match::Prefix, "ds_ordered_count", NameOp::GDS},
    {Match::Prefix, "ds_read", NameOp::LDSRead},
    {Match::Prefix, "ds_load", NameOp::LDSRead},
    {Match::Prefix, "ds_write", NameOp::LDSWrite},
    {Match::Prefix, "ds_store", NameOp::LDSWrite},
    {Match::Prefix, "ds_", NameOp::LDSAtomic},
    // export, MIR pseudos
    {Match::Exact, "exp", NameOp::Export},
    {Match::Prefix, "exp_", NameOp::Export},
    {Match::Exact, "atomic_fence", NameOp::Fence},
    {Match::Exact, "sched_barrier", NameOp::SchedFence},
    {Match::Exact, "sched_group_barrier", NameOp::SchedFence},
    {Match::Exact, "iglp_opt", NameOp::SchedFence},
};

constexpr const char *VectorMemoryPrefixes[] = {"global_", "buffer_", "scratch_",
                                                "tbuffer_"};
constexpr const char *CacheMaintenancePrefixes[] = {
    "buffer_wbl2", "buffer_inv", "buffer_wbinvl1", "buffer_gl"};

NameOp vectorMemoryOp(StringRef N, bool LdsModifier) {
  if (N.contains("_load")) {
    bool DMA = LdsModifier || N.starts_with("global_load_lds") ||
               N.contains("_lds_") || N.ends_with("_lds");
    return DMA ? NameOp::LDSDMA : NameOp::VMEMLoad;
  }
  for (const char *P : CacheMaintenancePrefixes)
    if (N.starts_with(P))
      return NameOp::CacheMaint;
  return N.contains("_atomic") ? NameOp::VMEMAtomic : NameOp::VMEMStore;
}
} // namespace

NameOp classifyInstrName(StringRef Name, bool LdsModifier) {
  std::string Lower = Name.lower();
  StringRef N(Lower);
  for (const char *P : VectorMemoryPrefixes)
    if (N.starts_with(P))
      return vectorMemoryOp(N, LdsModifier);
  if (N.starts_with("flat_"))
    return N.starts_with("flat_load") ? NameOp::FlatLoad : NameOp::FlatStore;
  for (const NameRule &R : Rules)
    if (R.M == Match::Exact ? N == R.Text : N.starts_with(R.Text))
      return R.Op;
  return NameOp::Unknown;
}

bool readsOtherLanes(StringRef Name) {
  std::string Lower = Name.lower();
  StringRef N(Lower);
  return classifyInstrName(N) == NameOp::LDSCrossbar ||
         N.starts_with("v_permlane") || N.starts_with("v_readlane") ||
         N.starts_with("v_readfirstlane") || N.contains("_dpp");
}

} // namespace target
} // namespace pingpong
