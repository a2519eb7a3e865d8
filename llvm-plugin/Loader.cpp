//===- Loader.cpp - AMDGPUPingpong.so: check the LLVM, then load the plugin ===//
//
// The file users name (llc -load, clang -fplugin / -fpass-plugin, opt
// -load-pass-plugin, lld --load-pass-plugin) is this small loader. It uses no
// LLVM symbol, so it loads into any process, old LLVMs included. At load it
// asks the process for its LLVM version (LLVMGetVersion, LLVM >= 16) and only
// when major.minor match the LLVM the plugin was built for does it load the
// plugin proper, AMDGPUPingpong-llvm<major>.<minor>.so from the same folder.
// Otherwise it says so on stderr once and does nothing: no passes, no options.
//
// Built standalone too (a lit test compiles it with another expected version),
// so everything it needs comes from the PINGPONG_* macros below.
//
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>

#ifndef PINGPONG_LLVM_MAJOR
#error "PINGPONG_LLVM_MAJOR/MINOR/PATCH: the LLVM the plugin is built for"
#endif
#ifndef PINGPONG_VERSION
#define PINGPONG_VERSION "unknown"
#endif
#ifndef PINGPONG_IMPL_NAME
#define PINGPONG_IMPL_NAME "AMDGPUPingpong-llvm.so"
#endif

#define PINGPONG_STR2(X) #X
#define PINGPONG_STR(X) PINGPONG_STR2(X)
#define PINGPONG_LLVM_STRING                                                   \
  PINGPONG_STR(PINGPONG_LLVM_MAJOR)                                            \
  "." PINGPONG_STR(PINGPONG_LLVM_MINOR) "." PINGPONG_STR(PINGPONG_LLVM_PATCH)

namespace {

/// Layouts of llvm::PassPluginLibraryInfo (llvm/Plugins/PassPlugin.h): API
/// version 1 in LLVM 9..21, version 2 (a pre-codegen callback added) in LLVM
/// 22. The loader includes no LLVM header so that it stays free of LLVM
/// symbols; Plugin.cpp checks that the build's LLVM has the version-2 layout.
struct PassPluginInfoV1 {
  uint32_t APIVersion;
  const char *PluginName;
  const char *PluginVersion;
  void (*RegisterPassBuilderCallbacks)(void *PassBuilder);
};
struct PassPluginInfoV2 {
  PassPluginInfoV1 V1;
  void *PreCodeGenCallback;
};
using GetInfoFn = PassPluginInfoV2 (*)();
using GetVersionFn = void (*)(unsigned *, unsigned *, unsigned *);

void *Impl = nullptr;
/// The process's LLVM major version (0: unknown, older than 16).
unsigned HostMajor = 0;

std::string siblingPath(const char *Name) {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&siblingPath), &Info) ||
      !Info.dli_fname)
    return Name;
  std::string Self = Info.dli_fname;
  size_t Slash = Self.rfind('/');
  return Slash == std::string::npos ? std::string(Name)
                                    : Self.substr(0, Slash + 1) + Name;
}

void refuse(const std::string &Why) {
  std::fprintf(stderr,
               "AMDGPUPingpong " PINGPONG_VERSION
               ": built for LLVM " PINGPONG_LLVM_STRING ", but %s; the plugin "
               "is not loaded (no passes, no -amdgpu-pingpong options). Build "
               "it against this LLVM.\n",
               Why.c_str());
}

struct LoadImpl {
  LoadImpl() {
    auto *GetVersion =
        reinterpret_cast<GetVersionFn>(dlsym(RTLD_DEFAULT, "LLVMGetVersion"));
    if (!GetVersion) {
      refuse("this process has no LLVMGetVersion (an LLVM older than 16, or "
             "a tool that does not export LLVM's symbols)");
      return;
    }
    unsigned Major = 0, Minor = 0, Patch = 0;
    GetVersion(&Major, &Minor, &Patch);
    HostMajor = Major;
    if (Major != PINGPONG_LLVM_MAJOR || Minor != PINGPONG_LLVM_MINOR) {
      refuse("this process runs LLVM " + std::to_string(Major) + "." +
             std::to_string(Minor) + "." + std::to_string(Patch));
      return;
    }
    std::string Path = siblingPath(PINGPONG_IMPL_NAME);
    // RTLD_NOW: a symbol this LLVM lacks is an error here, not a crash later.
    Impl = dlopen(Path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!Impl) {
      const char *Err = dlerror();
      std::fprintf(stderr, "AMDGPUPingpong " PINGPONG_VERSION ": cannot load %s: %s\n",
                   Path.c_str(), Err ? Err : "unknown error");
    }
  }
} TheLoad;

void registerNothing(void *) {}

} // namespace

/// For -fpass-plugin / -load-pass-plugin / lld --load-pass-plugin: the
/// plugin's own entry, or, when it was refused, one that registers nothing
/// in the layout the process's LLVM expects (so that a refused plugin is not
/// an error there either).
#if defined(__x86_64__)
// The struct is returned in memory: on x86-64 (System V) the caller passes
// the result's address in the first argument register and the callee returns
// it, exactly as for `void *f(void *)`. Written that way so that one entry can
// fill the 32-byte version-1 or the 40-byte version-2 layout.
extern "C" __attribute__((visibility("default"))) void *
llvmGetPassPluginInfo(void *Result) {
  if (Impl)
    if (auto *Get = reinterpret_cast<GetInfoFn>(dlsym(Impl, "llvmGetPassPluginInfo"))) {
      *static_cast<PassPluginInfoV2 *>(Result) = Get();
      return Result;
    }
  PassPluginInfoV1 None = {1, "AMDGPUPingpong", PINGPONG_VERSION, registerNothing};
  if (HostMajor >= 22)
    *static_cast<PassPluginInfoV2 *>(Result) = {{2, None.PluginName, None.PluginVersion,
                                                 registerNothing},
                                                nullptr};
  else
    *static_cast<PassPluginInfoV1 *>(Result) = None;
  return Result;
}
#else
extern "C" __attribute__((visibility("default"))) PassPluginInfoV2
llvmGetPassPluginInfo() {
  if (Impl)
    if (auto *Get = reinterpret_cast<GetInfoFn>(dlsym(Impl, "llvmGetPassPluginInfo")))
      return Get();
  // Refused: a host of another plugin API version reports the mismatch.
  return {{2, "AMDGPUPingpong", PINGPONG_VERSION, registerNothing}, nullptr};
}
#endif
