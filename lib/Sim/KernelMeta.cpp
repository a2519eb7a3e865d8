//===- KernelMeta.cpp - pingpong-sim: what the directives say -------------===//
//
// See KernelMeta.h. Three directives are read from the text (the AMDGPU asm
// parser hands them to its target streamer, which a tool outside the AMDGPU
// backend cannot see): `.amdgcn_target`, the `.amdhsa_kernel` blocks and the
// `.amdgpu_metadata` block. The metadata block is YAML; it is read the way
// LLVM reads it (AMDGPUTargetStreamer::EmitHSAMetadataV3): through
// msgpack::Document::fromYAML. The assembler has already checked it (invalid
// YAML is an assembler error, so the file never gets here).
//
//===----------------------------------------------------------------------===//
#include <array>
#include "KernelMeta.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"

#include <map>

using namespace llvm;

namespace ppsim {

namespace {

// An integer scalar of the metadata (msgpack Int or UInt), or std::nullopt.
std::optional<int64_t> intOf(const msgpack::DocNode &N) {
  if (N.getKind() == msgpack::Type::Int) return N.getInt();
  if (N.getKind() == msgpack::Type::UInt) return (int64_t)N.getUInt();
  return std::nullopt;
}

// A scalar as text (a kernel or argument name: a string, or anything YAML
// took for a number).
std::string textOf(const msgpack::DocNode &N) {
  if (N.isString()) return N.getString().str();
  return N.isScalar() && !N.isEmpty() ? N.toString() : std::string();
}

msgpack::DocNode *field(msgpack::MapDocNode &M, StringRef Key) {
  auto It = M.find(Key);
  return It == M.end() ? nullptr : &It->second;
}

// One `amdhsa.kernels` entry: the kernel's name, workgroup size, register
// counts and arguments (AMDGPUUsage "Code Object V3+ Metadata").
std::optional<KernelInfo> kernelOf(msgpack::DocNode &E) {
  if (!E.isMap()) return std::nullopt;
  msgpack::MapDocNode &M = E.getMap();
  KernelInfo K;
  if (auto *N = field(M, ".name")) K.Name = textOf(*N);
  if (K.Name.empty()) return std::nullopt;
  auto Int = [&](StringRef Key, int &Out) {
    if (auto *N = field(M, Key))
      if (auto X = intOf(*N)) Out = (int)*X;
  };
  Int(".max_flat_workgroup_size", K.MaxFlatWG);
  Int(".vgpr_count", K.VgprCount);
  Int(".agpr_count", K.AgprCount);
  Int(".group_segment_fixed_size", K.GroupSegmentBytes);
  Int(".kernarg_segment_size", K.KernargSize);
  if (auto *N = field(M, ".reqd_workgroup_size"); N && N->isArray()) {
    // x, y, z: the workgroup has their product of work-items
    int Prod = 1, Count = 0;
    for (const msgpack::DocNode &D : N->getArray())
      if (auto X = intOf(D); X && Count < 3) {
        Prod *= (int)*X;
        ++Count;
      }
    if (Count > 0) K.ReqdWG = Prod;
  }
  if (auto *N = field(M, ".args"); N && N->isArray())
    for (msgpack::DocNode &AN : N->getArray()) {
      KernArg A;
      if (AN.isMap()) {
        msgpack::MapDocNode &AM = AN.getMap();
        if (auto *F = field(AM, ".name")) A.Name = textOf(*F);
        if (auto *F = field(AM, ".offset")) A.Offset = (unsigned)intOf(*F).value_or(0);
        if (auto *F = field(AM, ".size")) A.Size = (unsigned)intOf(*F).value_or(0);
        if (auto *F = field(AM, ".value_kind")) A.ValueKind = textOf(*F);
      }
      K.Args.push_back(A);
    }
  return K;
}

// The kernels of one `.amdgpu_metadata` block.
void readMetadata(StringRef Yaml, std::vector<KernelInfo> &Out) {
  msgpack::Document Doc;
  if (!Doc.fromYAML(Yaml) || !Doc.getRoot().isMap()) return;
  msgpack::DocNode *Ks = field(Doc.getRoot().getMap(), "amdhsa.kernels");
  if (!Ks || !Ks->isArray()) return;
  for (msgpack::DocNode &E : Ks->getArray())
    if (std::optional<KernelInfo> K = kernelOf(E)) Out.push_back(std::move(*K));
}

} // namespace

Directives scanDirectives(StringRef Text) {
  Directives Dir;
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  // .amdhsa_kernel NAME ... .end_amdhsa_kernel: the initial SGPR layout
  // (AMDGPUUsage "Initial Kernel Execution State": private segment buffer 4,
  // dispatch ptr 2, queue ptr 2, kernarg segment ptr 2, ... user SGPRs, then
  // workgroup id x)
  std::string HsaName;
  std::map<std::string, int64_t> HsaDir;
  std::map<std::string, std::array<int, 4>> Layout; // kernel -> kernarg SGPR, wg id x, y, z SGPRs
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
    // workgroup ids x, y, z follow the user SGPRs, each only where enabled
    int Next = Count;
    int WgX = D("workgroup_id_x", 1) ? Next++ : -1;
    int WgY = D("workgroup_id_y", 0) ? Next++ : -1;
    int WgZ = D("workgroup_id_z", 0) ? Next++ : -1;
    Layout[HsaName] = {KSgpr, WgX, WgY, WgZ};
    HsaName.clear();
    HsaDir.clear();
  };
  std::vector<KernelInfo> Meta;
  const char *MetaBegin = nullptr; // first line of an .amdgpu_metadata block
  for (unsigned I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I];
    StringRef T = L.trim();
    if (MetaBegin) {
      if (T.starts_with(".end_amdgpu_metadata")) {
        readMetadata(StringRef(MetaBegin, L.data() - MetaBegin), Meta);
        MetaBegin = nullptr;
      }
      continue;
    }
    if (T.starts_with(".amdgpu_metadata")) {
      MetaBegin = I + 1 < Lines.size() ? Lines[I + 1].data() : L.end();
      continue;
    }
    if (T.starts_with(".amdgcn_target")) {
      size_t D = T.find("--");
      if (D != StringRef::npos) {
        StringRef C = T.substr(D + 2);
        C = C.take_until([](char Ch) { return Ch == ':' || Ch == '"'; });
        Dir.TargetCpu = C.str();
      }
    }
    if (T.starts_with(".amdhsa_kernel ")) {
      HsaName = T.substr(15).trim().str();
      Dir.HsaKernels.insert(HsaName);
    } else if (T.starts_with(".end_amdhsa_kernel") && !HsaName.empty()) {
      FlushHsa();
    } else if (!HsaName.empty() && (T.starts_with(".amdhsa_user_sgpr_") || T.starts_with(".amdhsa_system_sgpr_"))) {
      StringRef Key = T.take_until([](char C) { return C == ' ' || C == '\t'; });
      StringRef Val = T.substr(Key.size()).trim();
      Key = Key.starts_with(".amdhsa_user_sgpr_") ? Key.substr(18) : Key.substr(20);
      int64_t X;
      if (!Val.getAsInteger(0, X)) HsaDir[Key.str()] = X;
    }
  }
  if (!HsaName.empty())
    FlushHsa();
  for (auto &M : Meta) {
    auto It = Layout.find(M.Name);
    if (It != Layout.end()) {
      M.KernargSgpr = It->second[0];
      M.WgIdXSgpr = It->second[1];
      M.WgIdYSgpr = It->second[2];
      M.WgIdZSgpr = It->second[3];
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
    K.KernargSgpr = KV.second[0];
    K.WgIdXSgpr = KV.second[1];
    K.WgIdYSgpr = KV.second[2];
    K.WgIdZSgpr = KV.second[3];
    Dir.Kernels.push_back(K);
  }
  return Dir;
}

} // namespace ppsim
