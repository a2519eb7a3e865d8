"""AMDGPUPingpong in Triton's AMD backend, with one import.

    import amdgpu_pingpong.triton as pp
    pp.enable()                      # every gfx942/gfx950 kernel compiled from now on
    ...
    with pp.pingpong(kernels={"attn_fwd": "off"}):   # a scope; per-kernel control
        ...
    pp.disable()

or, with no code change: ``AMDGPU_PINGPONG_TRITON=1 python3 prog.py``.

Only Triton's amdgcn stage changes: llc-22 + the plugin compiles Triton's LLVM IR with the
target, features and options Triton's own stage uses; Triton assembles and links the result
itself. The plugin's code is kept only where it scheduled a loop, `pingpong-sim verify` is clean
and the cycle model times it faster than Triton's own code; anything else, a failure included,
leaves Triton's own code (a failure with a PingpongWarning). Each kernel's decision is logged
on the "amdgpu_pingpong.triton" logger (INFO; the plugin's remarks at DEBUG), returned by
reports(), and stored in the compiled kernel's metadata (``kernel.metadata.amdgpu_pingpong``).
Details: docs/triton.md.
"""
from ._core import MODES
from ._hook import (DECIDE, SUPPORTED_TRITON, VERIFY, Config, KernelControl, KernelReport, PingpongWarning,
                    config, disable, enable, enable_from_env, is_enabled, pingpong, report, reports,
                    triton_supported)

__all__ = ["enable", "disable", "is_enabled", "pingpong", "config", "reports", "report",
           "enable_from_env", "triton_supported", "KernelControl", "KernelReport", "Config",
           "PingpongWarning", "MODES", "DECIDE", "VERIFY", "SUPPORTED_TRITON"]
