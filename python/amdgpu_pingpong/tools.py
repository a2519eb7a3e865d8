"""Where the plugin, llc-22 and pingpong-sim are.

Each tool is looked up in this order:

1. its environment variable (``AMDGPU_PINGPONG_PLUGIN``, ``AMDGPU_PINGPONG_LLC``,
   ``AMDGPU_PINGPONG_SIM``), or the explicit path a caller gives;
2. the build directory: ``AMDGPU_PINGPONG_BUILD``, else ``<repository>/build`` when this
   package is the editable install of a checkout (``pip install -e .``);
3. an installed prefix (``cmake --install build --prefix P``): ``P/lib/AMDGPUPingpong.so``
   and ``P/bin/pingpong-sim``, with ``pingpong-sim`` found on ``PATH``;
4. llc: ``/usr/lib/llvm-22/bin/llc`` (Debian's LLVM 22), else ``llc-22`` on ``PATH``.
"""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

#: The repository root when this package runs from a checkout (editable install), else None.
REPO_ROOT: Optional[Path] = None
_here = Path(__file__).resolve().parent          # <root>/python/amdgpu_pingpong
if (_here.parent.parent / "llvm-plugin").is_dir():
    REPO_ROOT = _here.parent.parent

LLVM_BIN = Path(os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin"))
#: Where a build puts the plugin and the model, relative to the build directory.
PLUGIN_IN_BUILD = Path("lib") / "AMDGPUPingpong.so"
SIM_IN_BUILD = Path("bin") / "pingpong-sim"


def build_dir() -> Optional[Path]:
    """The build directory holding lib/AMDGPUPingpong.so and bin/pingpong-sim, if any."""
    env = os.environ.get("AMDGPU_PINGPONG_BUILD")
    if env:
        return Path(env)
    if REPO_ROOT is not None:
        return REPO_ROOT / "build"
    return None


def in_build(rel: Path) -> Path:
    """A file of the checkout's build, whether or not it exists yet: the scripts and benches of a
    checkout measure what it built (``AMDGPU_PINGPONG_BUILD`` or ``<repository>/build``)."""
    return (build_dir() or Path("build")) / rel


def _first(*candidates: Optional[Path]) -> Optional[Path]:
    for c in candidates:
        if c is not None and c.exists():
            return c
    return None


def plugin_path(explicit: Optional[str] = None) -> Optional[Path]:
    """AMDGPUPingpong.so: explicit, $AMDGPU_PINGPONG_PLUGIN, the build, an install prefix."""
    if explicit:
        return Path(explicit)
    env = os.environ.get("AMDGPU_PINGPONG_PLUGIN")
    if env:
        return Path(env)
    b = build_dir()
    sim = shutil.which("pingpong-sim")
    prefix = Path(sim).resolve().parent.parent if sim else None
    return _first(b / PLUGIN_IN_BUILD if b else None,
                  prefix / PLUGIN_IN_BUILD if prefix else None)


def llc_path(explicit: Optional[str] = None) -> Optional[Path]:
    """llc of LLVM 22: explicit, $AMDGPU_PINGPONG_LLC, $LLVM_BIN/llc, llc-22 on PATH."""
    if explicit:
        return Path(explicit)
    env = os.environ.get("AMDGPU_PINGPONG_LLC")
    if env:
        return Path(env)
    which = shutil.which("llc-22")
    return _first(LLVM_BIN / "llc", Path(which) if which else None)


def sim_path(explicit: Optional[str] = None) -> Optional[Path]:
    """pingpong-sim: explicit, $AMDGPU_PINGPONG_SIM, the build, PATH."""
    if explicit:
        return Path(explicit)
    env = os.environ.get("AMDGPU_PINGPONG_SIM")
    if env:
        return Path(env)
    b = build_dir()
    which = shutil.which("pingpong-sim")
    return _first(b / SIM_IN_BUILD if b else None, Path(which) if which else None)


@dataclass(frozen=True)
class Tools:
    """The three programs one compile uses (paths may be None when not found)."""
    plugin: Optional[Path]
    llc: Optional[Path]
    sim: Optional[Path]

    @classmethod
    def find(cls, plugin: Optional[str] = None, llc: Optional[str] = None,
             sim: Optional[str] = None) -> "Tools":
        return cls(plugin_path(plugin), llc_path(llc), sim_path(sim))

    def missing(self) -> list[str]:
        """Human-readable names of the tools that are not there."""
        out = []
        for what, p, hint in (("AMDGPUPingpong.so", self.plugin, "AMDGPU_PINGPONG_PLUGIN"),
                              ("llc (LLVM 22)", self.llc, "AMDGPU_PINGPONG_LLC"),
                              ("pingpong-sim", self.sim, "AMDGPU_PINGPONG_SIM")):
            if p is None or not p.exists():
                out.append(f"{what} not found ({p or 'no candidate'}; set {hint} or build with "
                           f"bash scripts/dev.sh build)")
        return out

    def identity(self) -> list[str]:
        """What the Triton cache key takes from the tools: path, size and mtime of each, so a
        rebuilt plugin or another llc never gets a kernel compiled with the old one."""
        out = []
        for p in (self.plugin, self.llc, self.sim):
            try:
                st = p.stat() if p else None
                out.append(f"{p}:{st.st_size}:{st.st_mtime_ns}" if st else f"{p}:missing")
            except OSError:
                out.append(f"{p}:missing")
        return out


#: How many more iterations a model run gets when its workgroups did not overlap.
SERIAL_RERUN_FACTOR = 4


def ran_serially(sim_json: dict) -> bool:
    """True when pingpong-sim's workgroups did not overlap in the run (JSON
    ``workgroups_ran_serially``): the older one ran its iterations before the
    younger got turns. That can be a transient of a short run, so callers time
    such a build again with ``SERIAL_RERUN_FACTOR`` times the iterations and
    keep that run (bench/triton_bench.py, the Triton hook)."""
    return bool(sim_json.get("workgroups_ran_serially"))
