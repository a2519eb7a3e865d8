//===- KernelMeta.h - pingpong-sim: what the directives say ---------------===//
//
// The parts of an AMDGPU assembly file that LLVM's AMDGPU asm parser
// consumes into its target streamer (not reachable from a plugin-free tool:
// AMDGPUTargetStreamer is internal), read from the text:
//  - `.amdgcn_target "amdgcn-amd-amdhsa--gfxNNN"`: the subtarget, needed
//    before the MC layer is set up (the parser checks it against it);
//  - `.amdhsa_kernel NAME` ... `.end_amdhsa_kernel`: the user / system SGPR
//    directives, i.e. the initial SGPR layout (kernarg pointer, workgroup id);
//  - the `.amdgpu_metadata` block: `amdhsa.kernels` (workgroup size, register
//    counts, kernel arguments).
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SIM_KERNELMETA_H
#define PINGPONG_SIM_KERNELMETA_H

#include "pingpong/Sim/Sim.h"

#include "llvm/ADT/StringRef.h"

#include <set>
#include <string>
#include <vector>

namespace ppsim {

struct Directives {
  std::string TargetCpu;               // from .amdgcn_target ("" if absent)
  std::vector<KernelInfo> Kernels;     // metadata entries and .amdhsa_kernel layouts, by name
  std::set<std::string> HsaKernels;    // kernels with an .amdhsa_kernel block
};

Directives scanDirectives(llvm::StringRef Text);

} // namespace ppsim

#endif
