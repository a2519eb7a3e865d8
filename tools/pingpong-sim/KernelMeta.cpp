//===- KernelMeta.cpp - pingpong-sim: what the directives say -------------===//
//
// See KernelMeta.h.
//
//===----------------------------------------------------------------------===//
#include "KernelMeta.h"

#include "llvm/ADT/SmallVector.h"

#include <map>

using namespace llvm;

namespace ppsim {

Directives scanDirectives(StringRef Text) {
  Directives Dir;
  std::string &FileCpu = Dir.TargetCpu;
  std::set<std::string> &HsaKernels = Dir.HsaKernels;
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  KernelInfo Cur;
  bool InKernels = false, InArgs = false;
  int EntryIndent = -1;
  // .amdhsa_kernel NAME ... .end_amdhsa_kernel: the initial SGPR layout
  // (AMDGPUUsage "Initial Kernel Execution State": private segment buffer 4,
  // dispatch ptr 2, queue ptr 2, kernarg segment ptr 2, ... user SGPRs, then
  // workgroup id x)
  std::string HsaName;
  std::map<std::string, int64_t> HsaDir;
  std::map<std::string, std::pair<int, int>> Layout; // kernel -> kernarg SGPR, wg id x SGPR
  auto FlushHsa = [&]() {
    auto D = [&](const char *K, int64_t Def) {
      auto It = HsaDir.find(K);
      return It == HsaDir.end() ? Def : It->second;
    };
    int Psb = D("private_segment_buffer", 0), Dp = D("dispatch_ptr", 0), Qp = D("queue_ptr", 0),
        Kp = D("kernarg_segment_ptr", 0), Di = D("dispatch_id", 0), Fs = D("flat_scratch_init", 0),
        Ps = D("private_segment_size", 0), Pl = D("kernarg_preload_length", 0);
    int Count = D("count", 4 * Psb + 2 * Dp + 2 * Qp + 2 * Kp + 2 * Di + 2 * Fs + Ps + Pl);
    int KSgpr = Kp ? 4 * Psb + 2 * Dp + 2 * Qp : -1;
    int WgX = D("workgroup_id_x", 1) ? Count : -1;
    Layout[HsaName] = {KSgpr, WgX};
    HsaName.clear();
    HsaDir.clear();
  };
  std::vector<KernelInfo> Meta;
  auto Flush = [&]() {
    if (!Cur.Name.empty())
      Meta.push_back(Cur);
    Cur = KernelInfo();
  };
  for (unsigned I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I];
    StringRef T = L.trim();
    if (T.starts_with(".amdgcn_target")) {
      size_t D = T.find("--");
      if (D != StringRef::npos) {
        StringRef C = T.substr(D + 2);
        C = C.take_until([](char Ch) { return Ch == ':' || Ch == '"'; });
        FileCpu = C.str();
      }
    }
    if (T.starts_with(".amdhsa_kernel ")) {
      HsaName = T.substr(15).trim().str();
      HsaKernels.insert(HsaName);
    } else if (T.starts_with(".end_amdhsa_kernel") && !HsaName.empty()) {
      FlushHsa();
    } else if (!HsaName.empty() && (T.starts_with(".amdhsa_user_sgpr_") || T.starts_with(".amdhsa_system_sgpr_"))) {
      StringRef Key = T.take_until([](char C) { return C == ' ' || C == '\t'; });
      StringRef Val = T.substr(Key.size()).trim();
      Key = Key.starts_with(".amdhsa_user_sgpr_") ? Key.substr(18) : Key.substr(20);
      int64_t X;
      if (!Val.getAsInteger(0, X)) HsaDir[Key.str()] = X;
    }
    // amdgpu metadata YAML: amdhsa.kernels: list of maps
    if (T.starts_with("amdhsa.kernels:")) {
      InKernels = true;
      continue;
    }
    if (InKernels) {
      if (T.starts_with(".end_amdgpu_metadata") ||
          (!L.empty() && L[0] != ' ' && L[0] != '-' && !T.empty())) {
        InKernels = false;
        Flush();
        continue;
      }
      size_t Ind = L.find_first_not_of(' ');
      bool Item = false;
      if (Ind != StringRef::npos && L[Ind] == '-') {
        if (EntryIndent < 0)
          EntryIndent = Ind;
        if ((int)Ind == EntryIndent) {
          Flush();
          InArgs = false;
        } else if (InArgs) {
          Item = true;
          Cur.Args.push_back(KernArg());
        }
        T = L.substr(Ind + 1).trim();
      } else if (Ind != StringRef::npos && EntryIndent >= 0 && (int)Ind <= EntryIndent + 2) {
        InArgs = false; // a key of the kernel entry ends the .args list
      }
      if (T.starts_with(".args:") && !Item) {
        InArgs = true;
        continue;
      }
      if (InArgs && !Cur.Args.empty()) {
        KernArg &A = Cur.Args.back();
        StringRef V = T.substr(T.find(':') == StringRef::npos ? T.size() : T.find(':') + 1).trim();
        if (T.starts_with(".name:")) A.Name = V.trim('\'').trim('"').str();
        else if (T.starts_with(".offset:")) V.getAsInteger(0, A.Offset);
        else if (T.starts_with(".size:")) V.getAsInteger(0, A.Size);
        else if (T.starts_with(".value_kind:")) A.ValueKind = V.str();
        continue;
      }
      if (InArgs)
        continue;
      auto Val = [&](StringRef Key, int &Out) {
        if (T.starts_with(Key)) {
          StringRef V = T.substr(Key.size()).trim();
          int X;
          if (!V.getAsInteger(10, X))
            Out = X;
        }
      };
      Val(".max_flat_workgroup_size:", Cur.MaxFlatWG);
      Val(".vgpr_count:", Cur.VgprCount);
      Val(".agpr_count:", Cur.AgprCount);
      Val(".kernarg_segment_size:", Cur.KernargSize);
      if (T.starts_with(".name:"))
        Cur.Name = T.substr(6).trim().trim('\'').trim('"').str();
      if (T.starts_with(".reqd_workgroup_size:")) {
        // the list follows on the next lines ("- 256") or inline ("[ 256, 1, 1 ]")
        int Prod = 1, N = 0;
        StringRef V = T.substr(21).trim();
        auto Take = [&](StringRef S) {
          int X;
          S = S.trim().trim('[').trim(']').trim();
          if (!S.getAsInteger(10, X)) {
            Prod *= X;
            ++N;
          }
        };
        if (!V.empty()) {
          SmallVector<StringRef, 4> Parts;
          V.split(Parts, ',');
          for (auto S : Parts)
            Take(S);
        } else {
          for (unsigned J = I + 1; J < Lines.size() && N < 3; ++J) {
            StringRef U = Lines[J].trim();
            if (!U.starts_with("- "))
              break;
            Take(U.substr(2));
          }
        }
        if (N > 0)
          Cur.ReqdWG = Prod;
      }
    }
  }
  Flush();
  if (!HsaName.empty())
    FlushHsa();
  for (auto &M : Meta) {
    auto It = Layout.find(M.Name);
    if (It != Layout.end()) {
      M.KernargSgpr = It->second.first;
      M.WgIdXSgpr = It->second.second;
    }
    Dir.Kernels.push_back(M); // merged with code ranges later
  }
  // kernels with an .amdhsa_kernel block but no metadata entry
  for (auto &KV : Layout) {
    bool Have = false;
    for (auto &M : Meta) Have |= M.Name == KV.first;
    if (Have) continue;
    KernelInfo K;
    K.Name = KV.first;
    K.KernargSgpr = KV.second.first;
    K.WgIdXSgpr = KV.second.second;
    Dir.Kernels.push_back(K);
  }
  return Dir;
}


} // namespace ppsim
