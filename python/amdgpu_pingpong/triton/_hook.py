"""The Triton side: the stage hook, the cache key, the decision, the reports.

How it plugs in (Triton 3.6.0, read at run time from the installed Triton, not copied):

* ``triton/backends/amd/compiler.py``, ``HIPBackend.add_stages``: builds the stage dict
  (ttir, ttgir, llir, amdgcn, hsaco) and calls ``knobs.runtime.add_stages_inspection_hook(
  backend, stages, options, language, None)``; the hook here replaces ``stages["amdgcn"]`` and
  wraps ``stages["hsaco"]``.
* ``HIPBackend.make_amdgcn``: sets ``metadata["name"]`` and calls
  ``llvm.translate_to_asm(src, amd.TARGET_TRIPLE, options.arch, features, flags,
  options.enable_fp_fusion, False)``. Our stage runs Triton's own stage first (Triton's own
  code is the baseline and the fallback) and records the arguments of that call, so llc-22
  gets the same triple, CPU, features and flags.
* ``triton/compiler/compiler.py``, ``compile``: the cache key is
  ``get_cache_key(src, backend, options, env_vars)`` (``triton/runtime/cache.py``), which takes
  ``backend.hash()``; the stage hook runs only after the cache lookup. While enabled,
  ``HIPBackend.hash`` returns Triton's value plus ``-amdgpu-pingpong-<digest of the
  configuration and the tools>``; disabled, Triton's own value, so each side gets only its
  own cache entries. ``JITFunction``'s in-memory kernel caches are cleared on every change.
"""
from __future__ import annotations

import contextlib
import dataclasses
import fnmatch
import gc
import hashlib
import json
import logging
import os
import threading
import time
import types
import warnings
from dataclasses import dataclass, field
from typing import Any, Optional

from .. import __version__ as _PKG_VERSION
from ..tools import Tools
from . import _core
from ._core import MODES, PluginError, Target

log = logging.getLogger("amdgpu_pingpong.triton")

#: Triton versions (major.minor) this hook was written against and tested with.
SUPPORTED_TRITON = ("3.6",)

DECIDE = ("model", "plugin")
VERIFY = ("strict", "no-findings")


class PingpongWarning(UserWarning):
    """The plugin's path could not be used; Triton's own code was (or nothing was enabled)."""


@dataclass(frozen=True)
class KernelControl:
    """Per-kernel control: a mode (``"off"`` leaves the kernel to Triton), a layout
    (``"pingpong-layout v1; ..."``, docs/modes.md "Layouts as data"), and the decision rule."""
    mode: Optional[str] = None
    layout: Optional[str] = None
    decide: Optional[str] = None
    tile: Optional[tuple] = None      # (BM, BN) for the model's L2 reuse where the plugin's
                                      # remark names no tile (chained dots: attention)


@dataclass(frozen=True)
class Config:
    mode: str = "auto"
    kernels: tuple = ()                    # ((pattern, KernelControl), ...) in the user's order
    layout: Optional[str] = None
    decide: str = "model"
    problem: tuple = (8192, 8192, 8192)
    replace_schedule: bool = False
    llc_args: tuple = ()
    tools: Tools = None
    dump_dir: Optional[str] = None
    verify: str = "strict"


    def control(self, name: str) -> KernelControl:
        """The control for kernel `name`: the first pattern (fnmatch) that matches, with the
        global mode, layout and decision rule for what it leaves out."""
        for pat, kc in self.kernels:
            if fnmatch.fnmatchcase(name, pat):
                return KernelControl(kc.mode or (None if kc.layout else self.mode) or "auto",
                                     kc.layout if kc.layout is not None else
                                     (None if kc.mode else self.layout),
                                     kc.decide or self.decide, kc.tile)
        return KernelControl(self.mode, self.layout, self.decide)

    def key(self) -> str:
        """What the Triton cache is keyed on while enabled: everything that changes the code."""
        d = dataclasses.asdict(self)
        d["tools"] = self.tools.identity() if self.tools else None
        d["package"] = _PKG_VERSION
        blob = json.dumps(d, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


@dataclass
class KernelReport:
    """What happened to one kernel (also in ``CompiledKernel.metadata.amdgpu_pingpong``)."""
    kernel: str
    arch: str = ""
    num_warps: int = 0
    mode: str = "auto"                      # the mode asked for
    plugin_mode: Optional[str] = None       # the mode the plugin applied, None if no loop
    decision: str = "triton"                # "plugin" or "triton": whose code Triton got
    reason: str = ""
    triton_cycles: Optional[float] = None   # pingpong-sim, cycles per K iteration
    plugin_cycles: Optional[float] = None
    triton_ns: Optional[float] = None       # the same in ns, at each build's power-limited clock
    plugin_ns: Optional[float] = None
    triton_mfma_busy: Optional[float] = None
    plugin_mfma_busy: Optional[float] = None
    plugin_bound: Optional[float] = None
    bound_unit: str = ""
    verify: Optional[str] = None            # "clean" or the first finding
    four_wave: bool = False                 # the 4-wave attention order went on (faster than auto's)
    four_wave_cycles: Optional[float] = None  # its build, where auto named the option
    four_wave_ns: Optional[float] = None
    llvm_order: bool = False                # LLVM 22's own order went on (faster than every schedule)
    llvm_cycles: Optional[float] = None     # llc-22's build, where a loop was scheduled or the kernel hinted
    llvm_ns: Optional[float] = None
    schedule_ns: Optional[float] = None     # the plugin's best schedule, compared with LLVM's order
    hint_dropped: bool = False              # llc-22's order went on, faster than the hinted one
    remarks: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def speedup(self) -> Optional[float]:
        # time, not cycles: a build that keeps the MFMA pipe busier runs at a lower clock
        if self.triton_ns and self.plugin_ns:
            return self.triton_ns / self.plugin_ns
        return None

    def summary(self) -> str:
        s = f"{self.kernel} ({self.arch}, {self.num_warps} warps): "
        if self.plugin_mode or self.llvm_order:
            s += (f"plugin {self.plugin_mode}" + (" (4-wave attention order)" if self.four_wave else "")
                  if self.plugin_mode else
                  "LLVM 22's order (faster than " +
                  ("with the occupancy hint)" if self.hint_dropped else "the plugin's schedule)"))
            if self.plugin_ns and self.triton_ns:
                s += (f", {self.plugin_ns:.1f} vs Triton {self.triton_ns:.1f} ns/iter "
                      f"({self.speedup:.3f}x)")
            if self.verify:
                s += f", verify {self.verify}"
            s += "; "
        s += ("the plugin's code" if self.decision == "plugin" else "Triton's own code")
        if self.reason:
            s += f" ({self.reason})"
        return s

    def as_metadata(self) -> dict:
        d = dataclasses.asdict(self)
        d["remarks"] = d["remarks"][:40]
        return d


class _State:
    def __init__(self):
        self.lock = threading.RLock()
        self.config: Optional[Config] = None
        self.prev_hook = None
        self.orig_hash = None
        self.reports: dict[str, KernelReport] = {}


_state = _State()
_swap_lock = threading.Lock()


# ---------------------------------------------------------------------------------------------
# Triton version, hook installation, cache key


def triton_supported() -> tuple[bool, str]:
    """(True, version) for a supported Triton, else (False, why)."""
    try:
        import triton
    except Exception as e:  # noqa: BLE001 - any import failure means "not usable"
        return False, f"Triton is not importable ({e})"
    v = getattr(triton, "__version__", "?")
    if ".".join(v.split(".")[:2]) not in SUPPORTED_TRITON:
        return False, (f"Triton {v} is not a supported version ({', '.join(s + '.x' for s in SUPPORTED_TRITON)}); "
                       f"amdgpu_pingpong.triton does nothing")
    try:
        from triton import knobs  # noqa: F401
        from triton.backends.amd.compiler import HIPBackend  # noqa: F401
    except Exception as e:  # noqa: BLE001
        return False, f"Triton {v} has no AMD backend here ({e}); amdgpu_pingpong.triton does nothing"
    return True, v


def _install(cfg: Config) -> None:
    from triton import knobs
    from triton.backends.amd.compiler import HIPBackend
    with _state.lock:
        if _state.config is None:
            cur = knobs.runtime.add_stages_inspection_hook
            _state.prev_hook = None if cur is _stages_hook else cur
            knobs.runtime.add_stages_inspection_hook = _stages_hook
            orig = HIPBackend.__dict__["hash"]
            _state.orig_hash = orig

            def hash(self):  # noqa: A001 - Triton's method name
                base = orig(self)
                c = _state.config
                return base if c is None else f"{base}-amdgpu-pingpong-{c.key()}"

            hash.__wrapped__ = orig
            hash._amdgpu_pingpong = True
            hash.__doc__ = "Triton's HIPBackend.hash, plus amdgpu_pingpong's key while enabled."
            HIPBackend.hash = hash
        _state.config = cfg
    _invalidate_jit_caches()


def _uninstall() -> None:
    from triton import knobs
    from triton.backends.amd.compiler import HIPBackend
    with _state.lock:
        if _state.config is None:
            return
        if knobs.runtime.add_stages_inspection_hook is _stages_hook:
            knobs.runtime.add_stages_inspection_hook = _state.prev_hook
        else:
            warnings.warn("amdgpu_pingpong: triton.knobs.runtime.add_stages_inspection_hook was "
                          "replaced after enable(); left as it is", PingpongWarning, stacklevel=3)
        if _state.orig_hash is not None:
            HIPBackend.hash = _state.orig_hash
        _state.config = None
        _state.prev_hook = None
        _state.orig_hash = None
    _invalidate_jit_caches()


def _invalidate_jit_caches() -> None:
    """Drop the kernels JITFunctions hold in memory (their key does not see the backend hash),
    so that the next launch compiles (or finds in the disk cache) code of the new setting."""
    try:
        from triton.runtime.jit import JITFunction
    except Exception:  # noqa: BLE001
        return
    for obj in gc.get_objects():
        if isinstance(obj, JITFunction):
            for entry in list(getattr(obj, "device_caches", {}).values()):
                with contextlib.suppress(Exception):
                    entry[0].clear()


# ---------------------------------------------------------------------------------------------
# the stage


@contextlib.contextmanager
def _capture_translate_args():
    """Runs the body with Triton's AMD compiler module seeing a transparent proxy of its `llvm`
    binding that records the arguments of ``translate_to_asm``."""
    import triton.backends.amd.compiler as amdc
    cap = types.SimpleNamespace(target=None)

    with _swap_lock:
        real = amdc.llvm

        class _LLVMProxy:
            def __getattr__(self, name):
                return getattr(real, name)

            def translate_to_asm(self, src, triple, proc, features, flags, enable_fp_fusion,
                                 is_object, *args, **kwargs):
                cap.target = Target(str(triple), str(proc), str(features), tuple(flags),
                                    bool(enable_fp_fusion))
                return real.translate_to_asm(src, triple, proc, features, flags,
                                             enable_fp_fusion, is_object, *args, **kwargs)

        amdc.llvm = _LLVMProxy()
        try:
            yield cap
        finally:
            amdc.llvm = real


class _KernelCompile:
    """The amdgcn and hsaco stages of one compile."""

    def __init__(self, cfg: Config, options, own_amdgcn, own_hsaco):
        self.cfg, self.options = cfg, options
        self.own_amdgcn, self.own_hsaco = own_amdgcn, own_hsaco
        self.validated: Optional[tuple] = None     # (asm, hsaco bytes) checked by Triton's own stage

    def amdgcn(self, src, metadata):
        with _capture_translate_args() as cap:
            own = self.own_amdgcn(src, metadata)   # Triton's own failure is the user's error
        name = str(metadata.get("name", "?"))
        opts = self.options
        rep = KernelReport(kernel=name, arch=str(getattr(opts, "arch", "")),
                           num_warps=int(getattr(opts, "num_warps", 0)))
        t0 = time.monotonic()
        try:
            asm = self._plugin(src, own, metadata, cap.target, rep)
        except Exception as e:  # noqa: BLE001 - never break the user's program
            asm = own
            rep.decision = "triton"
            rep.reason = f"fallback: {e}"
            warnings.warn(f"amdgpu_pingpong: kernel {name}: {e}; using Triton's own code",
                          PingpongWarning, stacklevel=2)
        rep.seconds = round(time.monotonic() - t0, 3)
        with _state.lock:
            _state.reports[name] = rep
        log.info("%s", rep.summary())
        with contextlib.suppress(Exception):
            metadata["amdgpu_pingpong"] = rep.as_metadata()
        return asm

    def hsaco(self, src, metadata):
        if self.validated is not None and src is self.validated[0]:
            return self.validated[1]
        return self.own_hsaco(src, metadata)

    def _dump(self, name: str, files: dict) -> None:
        if not self.cfg.dump_dir:
            return
        d = os.path.join(self.cfg.dump_dir, name)
        try:
            os.makedirs(d, exist_ok=True)
            for fname, text in files.items():
                with open(os.path.join(d, fname), "w") as f:
                    f.write(text if isinstance(text, str) else json.dumps(text, indent=1, default=str))
        except OSError as e:          # a dump is a convenience: never a reason to fall back
            log.warning("%s: could not write the dump to %s: %s", name, d, e)

    def _plugin(self, src: str, own: str, metadata, target: Optional[Target], rep: KernelReport) -> str:
        cfg, opts = self.cfg, self.options
        ctl = cfg.control(rep.kernel)
        rep.mode = ctl.layout and "layout" or ctl.mode
        if ctl.mode == "off" and not ctl.layout:
            rep.reason = "off for this kernel"
            return own
        if target is None:
            raise PluginError("Triton's amdgcn stage did not call llvm.translate_to_asm as Triton "
                              "3.6 does; its target options are unknown")
        if rep.arch not in _core.LDS_BYTES:
            rep.reason = f"{rep.arch} is not a target of the plugin (gfx942, gfx950)"
            return own
        if "@llvm.amdgcn.mfma" not in src and "@llvm.amdgcn.smfmac" not in src:
            rep.reason = "no MFMA in the kernel"     # nothing to schedule: llc is not even run
            return own
        missing = cfg.tools.missing()
        if missing:
            raise PluginError("; ".join(missing))
        build = _core.compile_with_plugin(src, target, cfg.tools, ctl.mode if ctl.mode != "off" else "auto",
                                          ctl.layout, cfg.replace_schedule, cfg.llc_args)
        rep.remarks = build.remarks
        for r in build.remarks:
            log.debug("%s: remark: %s", rep.kernel, r)
        self._dump(rep.kernel, {"kernel.llir": build.llir, "triton.s": own, "plugin.s": build.asm,
                                "remarks.txt": "\n".join(build.remarks) + "\n"})
        # Auto's candidates, timed by the model; the fastest goes on to the comparison with
        # Triton's own code. Where auto kept LLVM's order because it cannot judge the 4-wave
        # attention order, the model can: that build is one. Where auto scheduled a loop, LLVM 22's
        # own order is one: the plugin's bounds judge it under plain llc, and Triton's llc options
        # (FP contraction, no NaNs) can move LLVM's order more than the plugin's. So is it where
        # the plugin only told AMDGPU's scheduler the kernel's occupancy (the hint): the hinted
        # order gains where llc-22's is squeezed for registers, elsewhere it is the scheduler's
        # other choice at the same two waves, ahead or behind (docs/modes.md, session 24).
        hinted = any(_core.OCCUPANCY_HINT in r for r in build.remarks)
        four = llvm = None
        if ctl.mode == "auto" and not ctl.layout and \
                any(_core.FOUR_WAVE_ATTENTION in r for r in build.remarks):
            four = _core.compile_with_plugin(src, target, cfg.tools, "auto", None,
                                              cfg.replace_schedule,
                                              (*cfg.llc_args, _core.FOUR_WAVE_ATTENTION))
            if four.mode is None:
                four = None
        if ctl.mode == "auto" and not ctl.layout and (build.mode is not None or hinted):
            llvm = _core.compile_with_plugin(src, target, cfg.tools, "off", None, False, cfg.llc_args)
        if build.mode is None and four is None:
            rep.reason = f"the plugin scheduled no loop: {build.why_not}"
            return own
        rep.plugin_mode = build.mode
        if f".amdhsa_kernel {rep.kernel}" not in build.asm:
            raise PluginError(f"the plugin's assembly has no kernel {rep.kernel}")
        shared = int(metadata.get("shared") or 0)
        lds = _core.static_lds(build.asm) + shared
        if lds > _core.LDS_BYTES[rep.arch]:
            whose = ("Triton's shared memory alone" if shared > _core.LDS_BYTES[rep.arch]
                     else "the plugin's code with Triton's shared memory")
            rep.reason = f"{whose} needs {lds} B of LDS, more than {rep.arch} has"
            return own
        waves = int(opts.num_warps)
        tile = build.tile or ctl.tile
        asms = {"triton": own, "plugin": build.asm}
        if four is not None:
            asms["four-wave"] = four.asm
            tile = tile or four.tile
        if llvm is not None:
            asms["llvm"] = llvm.asm
        sims, vers = _core.measure(asms, rep.arch, waves, shared, tile, cfg.problem, cfg.tools,
                                   verify=tuple(n for n in asms if n != "triton"))

        def faster(name: str) -> bool:   # a candidate that beats the one kept so far
            g, kept = sims[name], sims["plugin"]
            return not vers[name].finding and g.ns is not None and (kept.ns is None or g.ns < kept.ns)

        if four is not None:
            g = sims["four-wave"]
            rep.four_wave_cycles, rep.four_wave_ns = g.cycles, g.ns
            if faster("four-wave"):
                build, sims["plugin"], vers["plugin"] = four, g, vers["four-wave"]
                rep.plugin_mode = build.mode
                rep.remarks = build.remarks
                rep.four_wave = True
        if llvm is not None:
            g = sims["llvm"]
            rep.llvm_cycles, rep.llvm_ns = g.cycles, g.ns
            rep.schedule_ns = sims["plugin"].ns
            if faster("llvm"):
                if hinted and build.mode is None:
                    rep.hint_dropped = True
                build, sims["plugin"], vers["plugin"] = llvm, g, vers["llvm"]
                rep.plugin_mode = None
                rep.llvm_order = True
        t, p, v = sims["triton"], sims["plugin"], vers["plugin"]
        rep.triton_cycles, rep.plugin_cycles = t.cycles, p.cycles
        rep.triton_ns, rep.plugin_ns = t.ns, p.ns
        rep.triton_mfma_busy, rep.plugin_mfma_busy = t.mfma_busy, p.mfma_busy
        rep.plugin_bound, rep.bound_unit = p.bound, p.bound_unit
        rep.verify = "clean" if v.clean else f"{v.describe()}: {v.message}"
        self._dump(rep.kernel, {"report.json": rep.as_metadata()})
        if v.finding:
            rep.reason = "pingpong-sim verify found a problem in the plugin's code"
            warnings.warn(f"amdgpu_pingpong: kernel {rep.kernel}: pingpong-sim verify: {v.message}; "
                          f"using Triton's own code", PingpongWarning, stacklevel=3)
            return own
        if v.unproven and cfg.verify != "no-findings":
            rep.reason = ("pingpong-sim verify cannot prove every LDS pair of the plugin's code "
                          "ordered (no finding; verify='no-findings' accepts that)")
            return own
        if not v.clean and not v.unproven:
            raise PluginError(f"pingpong-sim verify did not run as asked (exit {v.rc}): {v.message}")
        if ctl.decide == "model":
            if p.ns is None or t.ns is None:
                which = "the plugin's" if p.ns is None else "Triton's"
                rep.reason = f"the model could not time {which} code ({(p.error or t.error)[:160]})"
                return own
            if not p.ns < t.ns:
                rep.reason = "not faster in the model"
                return own
        # Triton's own hsaco stage must take it: assemble and link now, keep the bytes
        try:
            hs = self.own_hsaco(build.asm, metadata)
        except Exception as e:  # noqa: BLE001
            raise PluginError(f"Triton could not assemble/link the plugin's code: {e}") from e
        self.validated = (build.asm, hs)
        rep.decision = "plugin"
        rep.reason = "faster in the model, verify clean" if ctl.decide == "model" else \
            "decide='plugin': verify clean"
        if four is not None:
            rep.reason += ("; the 4-wave attention order, faster than LLVM's" if rep.four_wave
                           else "; LLVM's order of the loop" + (" (hinted)" if hinted else "") +
                           ", faster than the 4-wave one")
        if rep.llvm_order:
            rep.reason += ("; LLVM 22's order of the loop, faster than the plugin's schedule"
                           if not rep.hint_dropped else
                           "; LLVM 22's order of the loop, faster than with the occupancy hint")
        return build.asm


def _stages_hook(backend, stages, options, language, capability):
    """``triton.knobs.runtime.add_stages_inspection_hook`` while enabled."""
    prev = _state.prev_hook
    if prev is not None:
        prev(backend, stages, options, language, capability)
    cfg = _state.config
    target = getattr(backend, "target", None)
    if cfg is None or getattr(target, "backend", None) != "hip" or "amdgcn" not in stages:
        return
    kc = _KernelCompile(cfg, options, stages["amdgcn"], stages.get("hsaco"))
    stages["amdgcn"] = kc.amdgcn
    if "hsaco" in stages:
        stages["hsaco"] = kc.hsaco


# ---------------------------------------------------------------------------------------------
# public API (re-exported by amdgpu_pingpong.triton)


def _control(v: Any, where: str) -> KernelControl:
    if isinstance(v, KernelControl):
        kc = v
    elif isinstance(v, str):
        kc = KernelControl(layout=v) if v.lstrip().startswith("pingpong-layout") else KernelControl(mode=v)
    elif isinstance(v, dict):
        unknown = set(v) - {"mode", "layout", "decide", "tile"}
        if unknown:
            raise ValueError(f"{where}: unknown keys {sorted(unknown)} (mode, layout, decide, tile)")
        tile = tuple(int(x) for x in v["tile"][:2]) if v.get("tile") else None
        kc = KernelControl(v.get("mode"), v.get("layout"), v.get("decide"), tile)
    elif v is None or v is False:
        kc = KernelControl(mode="off")
    else:
        raise TypeError(f"{where}: a mode, a layout, a dict or a KernelControl, not {type(v).__name__}")
    if kc.mode is not None and kc.mode not in MODES:
        raise ValueError(f"{where}: unknown mode {kc.mode!r}; one of {', '.join(MODES)}")
    if kc.mode not in (None, "auto") and kc.layout:
        raise ValueError(f"{where}: give a mode or a layout, not both")
    if kc.decide is not None and kc.decide not in DECIDE:
        raise ValueError(f"{where}: decide is one of {DECIDE}")
    return kc


def enable(mode: str = "auto", *, kernels: Optional[dict] = None, layout: Optional[str] = None,
           decide: str = "model", problem=(8192, 8192, 8192), replace_schedule: bool = False,
           llc_args=(), plugin: Optional[str] = None, llc: Optional[str] = None,
           sim: Optional[str] = None, dump_dir: Optional[str] = None,
           verify: str = "strict") -> bool:
    """Compile Triton's AMD kernels (gfx942, gfx950) with llc-22 + AMDGPUPingpong where that helps.

    mode      the plugin's mode for every kernel: "auto" (default), "off", or a mode name
              (one-cluster, two-cluster, four-cluster, ..., see docs/modes.md)
    kernels   per kernel name (fnmatch patterns, first match wins): a mode, "off", a layout
              ("pingpong-layout v1; ..."), or {"mode"|"layout"|"decide"|"tile": ...}; "tile":
              (BM, BN) for the model's L2 reuse where the plugin's remark names none (attention)
    layout    a layout for every kernel's MFMA loops instead of a mode
    decide    "model" (default): take the plugin's code only when pingpong-sim models it faster
              than Triton's own and `pingpong-sim verify` is clean; "plugin": whenever the
              plugin scheduled a loop and verify is clean
    problem   the GEMM (M, N, K) whose L2 reuse the model assumes (default 8192^3)
    replace_schedule  re-schedule loops Triton's own BlockPingpong scheduled
              (-amdgpu-pingpong-replace-schedule); by default the plugin keeps them
    llc_args  extra llc options
    plugin, llc, sim  tool paths (default: see amdgpu_pingpong.tools)
    dump_dir  write each kernel's IR, both assemblies, the remarks and the report there
    verify    "strict" (default): the plugin's code only when `pingpong-sim verify` exits 0;
              "no-findings": also when it finds nothing but cannot prove some LDS pairs ordered
              (exit 3: Triton's replicated-value stores; Triton's own code often is such)

    Returns True when enabled; False (with a warning) when Triton is not a supported version.
    Calling it again replaces the configuration.
    """
    ok, why = triton_supported()
    if not ok:
        warnings.warn(f"amdgpu_pingpong: {why}", PingpongWarning, stacklevel=2)
        return False
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; one of {', '.join(MODES)}")
    if decide not in DECIDE:
        raise ValueError(f"decide is one of {DECIDE}, not {decide!r}")
    if verify not in VERIFY:
        raise ValueError(f"verify is one of {VERIFY}, not {verify!r}")
    if layout is not None and not layout.lstrip().startswith("pingpong-layout"):
        raise ValueError("a layout starts with 'pingpong-layout v1;' (docs/modes.md)")
    ks = tuple((str(k), _control(v, f"kernels[{k!r}]")) for k, v in (kernels or {}).items())
    cfg = Config(mode=mode, kernels=ks, layout=layout, decide=decide,
                 problem=tuple(int(x) for x in problem), replace_schedule=bool(replace_schedule),
                 llc_args=tuple(llc_args), tools=Tools.find(plugin, llc, sim), dump_dir=dump_dir,
                 verify=verify)
    for m in cfg.tools.missing():
        warnings.warn(f"amdgpu_pingpong: {m}; kernels keep Triton's own code", PingpongWarning,
                      stacklevel=2)
    _install(cfg)
    log.info("enabled: mode %s, decide %s, plugin %s", mode, decide, cfg.tools.plugin)
    return True


def disable() -> None:
    """Back to Triton's own amdgcn stage and cache key (its own cached code comes back)."""
    ok, _ = triton_supported()
    if ok:
        _uninstall()


def is_enabled() -> bool:
    return _state.config is not None


def config() -> Optional[Config]:
    """The configuration in force, None when disabled."""
    return _state.config


@contextlib.contextmanager
def pingpong(mode: str = "auto", **kwargs):
    """``with pingpong(...):`` enable() inside, the previous state (and configuration) after."""
    prev = _state.config
    on = enable(mode, **kwargs)
    try:
        yield on
    finally:
        if on:
            if prev is None:
                disable()
            else:
                _install(prev)


def reports() -> dict:
    """{kernel name: KernelReport} of the kernels compiled in this process (the last of each)."""
    with _state.lock:
        return dict(_state.reports)


def report(kernel: str) -> Optional[KernelReport]:
    with _state.lock:
        return _state.reports.get(kernel)


def _parse_kernels_env(text: str) -> dict:
    out = {}
    for item in filter(None, (x.strip() for x in text.replace(";", ",").split(","))):
        if "=" not in item:
            raise ValueError(f"AMDGPU_PINGPONG_TRITON_KERNELS: '{item}' is not NAME=MODE")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def enable_from_env(environ=os.environ) -> bool:
    """The environment's switch (no code change): AMDGPU_PINGPONG_TRITON=1|auto|MODE enables;
    AMDGPU_PINGPONG_TRITON_KERNELS="name=mode,other=off", AMDGPU_PINGPONG_TRITON_DECIDE,
    AMDGPU_PINGPONG_TRITON_VERIFY,
    AMDGPU_PINGPONG_TRITON_DUMP=DIR and AMDGPU_PINGPONG_TRITON_LOG=INFO|DEBUG (a stderr handler
    on the "amdgpu_pingpong.triton" logger) refine it."""
    v = environ.get("AMDGPU_PINGPONG_TRITON", "").strip().lower()
    if v in ("", "0", "off", "false", "no"):
        return False
    level = environ.get("AMDGPU_PINGPONG_TRITON_LOG", "").strip().upper()
    if level:
        h = logging.StreamHandler()
        h.setFormatter(logging.Formatter("amdgpu_pingpong: %(message)s"))
        log.addHandler(h)
        log.setLevel(getattr(logging, level, logging.INFO))
    mode = "auto" if v in ("1", "on", "true", "yes", "auto") else v
    try:
        return enable(mode, kernels=_parse_kernels_env(environ.get("AMDGPU_PINGPONG_TRITON_KERNELS", "")),
                      decide=environ.get("AMDGPU_PINGPONG_TRITON_DECIDE", "model") or "model",
                      verify=environ.get("AMDGPU_PINGPONG_TRITON_VERIFY", "strict") or "strict",
                      dump_dir=environ.get("AMDGPU_PINGPONG_TRITON_DUMP") or None)
    except (ValueError, TypeError) as e:
        warnings.warn(f"amdgpu_pingpong: AMDGPU_PINGPONG_TRITON*: {e}; not enabled", PingpongWarning)
        return False
