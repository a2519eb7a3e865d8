"""AMDGPUPingpong from Python.

``amdgpu_pingpong.triton`` puts the plugin into Triton's AMD backend: ``enable()`` replaces
Triton's amdgcn stage with llc-22 + AMDGPUPingpong, keeps the plugin's code only where
pingpong-sim models it faster than Triton's own and verifies it clean, and falls back to
Triton's own code on any failure (docs/triton.md).

``amdgpu_pingpong.tools`` finds the plugin, llc-22 and pingpong-sim.
"""

__version__ = "0.1.0"
