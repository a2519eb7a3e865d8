import os
import lit.formats

config.name = "AMDGPUPingpong"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".mir", ".hip", ".test", ".s", ".mlir"]
config.excludes = ["Inputs", "kernels", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)

# Tools come from Debian's llvm-22 / clang-22, then this build's bin/.
config.environment["PATH"] = os.pathsep.join(
    [config.project_bin_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.environment["LC_ALL"] = "C"

kernels = os.path.join(config.project_src_dir, "test", "kernels")
llc = os.path.join(config.llvm_tools_dir, "llc")
clang = os.path.join(config.llvm_tools_dir, "clang++")
config.substitutions.append(("%kernels", kernels))
config.substitutions.append(("%plugin", config.plugin))
# %llc_pp: llc with the plugin loaded and the machine verifier on.
config.substitutions.append(("%llc_pp", "%s -load %s -verify-machineinstrs" % (llc, config.plugin)))
config.substitutions.append(("%llc", "%s -verify-machineinstrs" % llc))
# %hipcc: device-only HIP compile to LLVM IR, the way the tests' kernels are built.
config.substitutions.append(("%hipcc", "%s -x hip -nogpulib -nogpuinc --offload-device-only -O3 -S -emit-llvm" % clang))
config.substitutions.append(("%clangxx", clang))
config.substitutions.append(("%python", "python3"))
config.substitutions.append(("%llvm_bin", config.llvm_tools_dir))
# Packaging and loading tests (test/Plugin, test/Packaging).
config.substitutions.append(("%{pp_build}", config.project_build_dir))
config.substitutions.append(("%{pp_src}", config.project_src_dir))
config.substitutions.append(("%{cmake}", config.cmake_command))
config.substitutions.append(("%{pp_version}", config.project_version))
config.substitutions.append(("%{llvm_version}", config.llvm_version))
# Debian's LLVM 14 tools, to check that the plugin refuses another LLVM.
import shutil
if all(shutil.which(t) for t in ("llc-14", "opt-14", "clang-14")):
    config.available_features.add("llvm14")
# The MLIR front (test/MLIR): built unless -DPINGPONG_ENABLE_MLIR=OFF.
if getattr(config, "mlir_enabled", "OFF").upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("mlir")
