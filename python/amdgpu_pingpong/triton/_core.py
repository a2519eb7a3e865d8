"""llc-22 + AMDGPUPingpong on Triton's LLVM IR, and pingpong-sim on the results.

Nothing here imports Triton: the hook (``_hook.py``) and the "does it help" command
(``check.py``) pass in what Triton's own amdgcn stage used (triple, arch, features, flags, FP
fusion), read at run time from the installed Triton.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from .. import tools as _tools
from ..tools import Tools

#: The plugin's modes (``-amdgpu-pingpong=``), "auto" and "off" included.
MODES = ("auto", "off", "one-cluster", "two-cluster", "four-cluster", "async-two-cluster",
         "async-one-cluster", "async-four-cluster", "chained-dot", "skinny", "single-wave")

#: The option that applies the 4-wave attention order, which auto leaves out because its
#: gain over LLVM's order is decided by AMDGPU's scheduler after the plugin (docs/modes.md); the
#: plugin's remark names it where it kept LLVM's order for that reason.
FOUR_WAVE_ATTENTION = "-amdgpu-pingpong-four-wave-attention"

#: The start of the occupancy hint's remark (lib/Passes/OccupancyHint.cpp): the kernel was told
#: "amdgpu-waves-per-eu", so its loops kept in LLVM's order are AMDGPU's scheduler's order at two
#: waves per SIMD, not llc-22's. Where llc-22's order is not squeezed for registers the two
#: differ by the scheduler's own choices, which only the model can judge (docs/modes.md,
#: "Session 24: belowbest").
OCCUPANCY_HINT = "AMDGPU's scheduler told the kernel runs at"

#: LDS a workgroup may use (bytes): the code object's static LDS plus Triton's dynamic `shared`.
LDS_BYTES = {"gfx942": 65536, "gfx950": 163840}

# "loop %bb.3 of gemm: four-cluster (auto), 8 waves, ..., tile 256x256x64 ..."; the source in
# parentheses: auto, forced, command line, function attribute, loop metadata
_SCHEDULED = re.compile(r"loop %bb\.\d+ of ([\w.$]+): ((?:async-)?(?:one|two|four)-cluster|chained-dot"
                        r"|skinny|single-wave|custom layout) \(([^)]*)\), (\d+) waves")
_WHY_NOT = re.compile(r"no pingpong: (.*)")
_REMARK = re.compile(r"^(?:[^:\n]*:\d+:\d+: )?remark: (?:[^:\n]*:\d+:\d+: )?(.*)$", re.M)


class PluginError(RuntimeError):
    """A step of the plugin's path failed; the hook falls back to Triton's own code."""


@dataclass(frozen=True)
class Target:
    """What Triton's own amdgcn stage passed to its LLVM (``llvm.translate_to_asm``)."""
    triple: str
    arch: str
    features: str = ""
    flags: tuple = ()
    enable_fp_fusion: bool = True

    def llc_args(self) -> list[str]:
        """llc options for the same code generation as Triton's translate_to_asm.

        The target, features and flags come from Triton's call. The TargetOptions Triton sets in
        C++ (python/src/llvm.cc, createTargetMachine / translateLLVMIRToASM in Triton 3.6.0:
        FP fusion Fast when enabled, NoNaNsFPMath, TrapUnreachable, PIC, CodeGenOptLevel
        Aggressive or None under DISABLE_LLVM_OPT) are not visible from Python; their llc
        spellings are below."""
        disable_opt = os.environ.get("DISABLE_LLVM_OPT", "").lower() in ("1", "true", "on", "yes")
        args = [f"-mtriple={self.triple}", f"-mcpu={self.arch}",
                "-O0" if disable_opt else "-O3",
                "--relocation-model=pic",
                "--fp-contract=fast" if self.enable_fp_fusion else "--fp-contract=on",
                "--enable-no-nans-fp-math", "--trap-unreachable"]
        if self.features:
            args.append(f"-mattr={self.features}")
        # Triton's flags are names of boolean cl::opts it sets to true
        args += [f"-{f}" for f in self.flags]
        return args


@dataclass
class PluginBuild:
    """llc-22 + plugin on one kernel's IR."""
    asm: str
    remarks: list[str]
    llir: str = ""                    # the IR llc compiled (with the layout's loop metadata)
    mode: Optional[str] = None        # the mode of the first loop scheduled, None if none
    forced: bool = False
    waves: Optional[int] = None
    tile: Optional[tuple] = None      # (BM, BN, BK) from the plugin's remark
    why_not: str = ""                 # the plugin's reason when it scheduled no loop
    seconds: float = 0.0


@dataclass
class SimResult:
    """pingpong-sim run on one assembly file (cycles per K iteration at the asked occupancy, and
    the time: the cycles at the engine clock the power limit gives the loop, `run --clock power`)."""
    cycles: Optional[float] = None
    ns: Optional[float] = None
    ghz: Optional[float] = None
    mfma_busy: Optional[float] = None
    bound: Optional[float] = None
    bound_unit: str = ""
    workgroups: Optional[int] = None
    workgroups_asked: Optional[int] = None
    vgprs: Optional[int] = None
    scratch: Optional[int] = None
    error: str = ""


@dataclass
class Verify:
    """pingpong-sim verify: exit 0 clean; 1 a finding (a race or a missing wait); 3 no finding
    but LDS pairs it cannot prove ordered (docs/cycle-model.md; Triton's replicated-value
    stores); anything else, the check did not run as asked."""
    clean: Optional[bool] = None      # None: not run
    message: str = ""
    rc: Optional[int] = None

    @property
    def finding(self) -> bool:
        return self.rc == 1

    @property
    def unproven(self) -> bool:
        return self.rc == 3

    def describe(self) -> str:
        if self.clean:
            return "clean"
        if self.unproven:
            return "cannot prove (no finding)"
        if self.finding:
            return "finding"
        return f"did not run (exit {self.rc})"


def verify_message(rc: int, out: str) -> str:
    """The line of verify's output that says why it is not clean (or its summary when clean)."""
    lines = [l.strip() for l in (out or "").splitlines() if l.strip()]
    key = {1: "finding:", 3: "cannot prove:"}.get(rc)
    for l in lines:
        if key and key in l:
            return l[:400]
    return (lines[-1] if lines else "")[:400]


def remarks_of(text: str) -> list[str]:
    """The plugin's remark texts (without the "file:line:col: remark:" prefix)."""
    return [m.group(1).strip() for m in _REMARK.finditer(text)]


def parse_remarks(remarks: Sequence[str], build: PluginBuild) -> None:
    """The mode, waves and tile of the first loop the plugin scheduled, or its reason."""
    for r in remarks:
        m = _SCHEDULED.search(r)
        if m:
            build.mode = m.group(2)
            build.forced = m.group(3) != "auto"
            build.waves = int(m.group(4))
            t = re.search(r"tile (\d+)x(\d+)x(\d+)", r)
            if t:
                build.tile = tuple(int(x) for x in t.groups())
            return
    for r in remarks:
        m = _WHY_NOT.search(r)
        if m:
            build.why_not = m.group(1).strip()
            return
    build.why_not = "no MFMA loop"


def inject_layout(llir: str, layout: str) -> str:
    """Tag every loop of the IR that holds an MFMA with ``!{!"amdgpu.pingpong.layout", layout}``.

    A loop here is a back edge: a ``br`` in block B to a label L defined at or before B in the
    function's text; the loop holds an MFMA if a call to ``@llvm.amdgcn.mfma``/``smfmac`` lies
    between L and the branch. Existing ``!llvm.loop`` nodes get the option appended."""
    if not layout.lstrip().startswith("pingpong-layout"):
        raise PluginError(f"a layout starts with 'pingpong-layout v1;': {layout[:40]!r}")
    lines = llir.split("\n")
    md_ids = [int(x) for x in re.findall(r"^!(\d+) = ", llir, re.M)]
    next_id = max(md_ids, default=-1) + 1
    esc = layout.replace("\\", "\\5C").replace('"', "\\22")
    option = next_id
    extra = [f'!{option} = !{{!"amdgpu.pingpong.layout", !"{esc}"}}']
    next_id += 1
    label_line = {}
    tagged = 0
    defs = {int(m.group(1)): m for m in re.finditer(r"^!(\d+) = (distinct )?!\{(.*)\}$", llir, re.M)}
    rewrite_md = {}
    for i, line in enumerate(lines):
        m = re.match(r"^([\w.$-]+):", line)
        if m:
            label_line[m.group(1)] = i
        if line.startswith("define "):
            label_line = {}
        if not line.lstrip().startswith("br "):
            continue
        targets = re.findall(r"label %([\w.$-]+)", line)
        back = [t for t in targets if t in label_line]
        if not back:
            continue
        start = min(label_line[t] for t in back)
        if not any(("@llvm.amdgcn.mfma" in l or "@llvm.amdgcn.smfmac" in l) for l in lines[start:i]):
            continue
        lm = re.search(r"!llvm\.loop !(\d+)", line)
        if lm:
            rewrite_md[int(lm.group(1))] = True
        else:
            loop_id = next_id
            next_id += 1
            extra.append(f"!{loop_id} = distinct !{{!{loop_id}, !{option}}}")
            lines[i] = line + f", !llvm.loop !{loop_id}"
        tagged += 1
    if not tagged:
        raise PluginError("the layout has no loop to go to: no back edge around an MFMA in the IR")
    out = "\n".join(lines)
    for mid in rewrite_md:
        d = defs.get(mid)
        if d is None:
            raise PluginError(f"!llvm.loop !{mid} is not defined in the IR")
        old = d.group(0)
        new = old[:-1] + f", !{option}}}"
        out = out.replace(old, new, 1)
    return out.rstrip("\n") + "\n" + "\n".join(extra) + "\n"


def compile_with_plugin(llir: str, target: Target, tools: Tools, mode: str = "auto",
                        layout: Optional[str] = None, replace_schedule: bool = False,
                        extra_args: Sequence[str] = (), workdir: Optional[str] = None,
                        timeout: float = 300, load_plugin: bool = True) -> PluginBuild:
    """Runs llc-22 -load AMDGPUPingpong.so on the IR (plain llc-22 with load_plugin=False);
    raises PluginError when llc fails."""
    import time
    if tools.llc is None or (load_plugin and tools.plugin is None):
        raise PluginError("; ".join(tools.missing()))
    if layout:
        llir = inject_layout(llir, layout)
    with tempfile.TemporaryDirectory(prefix="pingpong-") as tmp:
        d = Path(workdir or tmp)
        d.mkdir(parents=True, exist_ok=True)
        ir, asm = d / "kernel.llir", d / "plugin.s"
        ir.write_text(llir)
        cmd = [str(tools.llc), *target.llc_args()]
        if load_plugin:
            cmd += ["-load", str(tools.plugin), f"-amdgpu-pingpong={mode}", "-amdgpu-pingpong-verify",
                    "-pass-remarks=amdgpu-pingpong", "-pass-remarks-missed=amdgpu-pingpong",
                    "-pass-remarks-analysis=amdgpu-pingpong"]
        if replace_schedule and load_plugin:
            cmd.append("-amdgpu-pingpong-replace-schedule")
        cmd += [*extra_args, str(ir), "-o", str(asm)]
        t0 = time.monotonic()
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise PluginError(f"{tools.llc} did not run: {e}") from e
        if p.returncode != 0 or not asm.exists():
            tail = "\n".join((p.stderr or p.stdout).strip().splitlines()[-6:])
            raise PluginError(f"llc exited {p.returncode}: {tail}")
        build = PluginBuild(asm=asm.read_text(), remarks=remarks_of(p.stderr), llir=llir,
                            seconds=time.monotonic() - t0)
    parse_remarks(build.remarks, build)
    return build


def static_lds(asm: str) -> int:
    m = re.search(r"\.amdhsa_group_segment_fixed_size\s+(\d+)", asm)
    return int(m.group(1)) if m else 0


def scratch_bytes(asm: str) -> Optional[int]:
    m = re.search(r"; ScratchSize: (\d+)", asm)
    return int(m.group(1)) if m else None


def _sim_common(arch: str, waves: int, shared: int) -> list[str]:
    args = ["--mcpu", arch, "--waves-per-workgroup", str(waves),
            "--workgroups-per-cu", "2" if waves == 4 else "1"]
    if shared:
        args += ["--lds-bytes", str(shared)]
    return args


#: Loop iterations per model run (bench/triton_bench.py's default too).
SIM_ITERATIONS = 32


def sim_commands(sim: Path, asm_path: str, arch: str, waves: int, shared: int,
                 tile: Optional[tuple], problem: Sequence[int], json_path: str,
                 iterations: int = SIM_ITERATIONS) -> list[str]:
    """pingpong-sim run as bench/triton_bench.py runs it: 8-wave kernels one workgroup per CU,
    4-wave kernels two, where they fit (--occupancy fit); the GEMM's L2 reuse from --gemm and
    the tile the plugin reported; each build at its power-limited clock (--clock power)."""
    cmd = [str(sim), "run", asm_path, *_sim_common(arch, waves, shared),
           "--iterations", str(iterations), "--occupancy", "fit", "--clock", "power", "--json", json_path]
    if tile and problem:
        cmd += ["--gemm", ",".join(str(x) for x in problem), "--tile", f"{tile[0]},{tile[1]}"]
    return cmd


def read_sim(proc: subprocess.CompletedProcess, json_path: str, asm: str) -> SimResult:
    r = SimResult(scratch=scratch_bytes(asm))
    m = re.search(r"\.vgpr_count:\s+(\d+)", asm)
    r.vgprs = int(m.group(1)) if m else None
    if proc.returncode != 0 or not os.path.exists(json_path):
        out = (proc.stdout or "") + (proc.stderr or "")
        err = re.search(r"error: ([^\n]*)", out)
        r.error = err.group(1) if err else f"pingpong-sim exited {proc.returncode}"
        return r
    with open(json_path) as f:
        j = json.load(f)
    r.cycles = j.get("cycles_per_iteration_at_asked_occupancy")
    r.ns = j.get("ns_per_iteration_at_asked_occupancy")
    r.ghz = j.get("clock_ghz")
    r.mfma_busy = j.get("mfma_busy_pct")
    r.workgroups = j.get("workgroups")
    r.workgroups_asked = j.get("workgroups_asked")
    rb = j.get("resource_bound") or {}
    if rb.get("unit"):
        r.bound = rb.get("cycles_per_iteration_at_asked_occupancy")
        r.bound_unit = rb["unit"]
    return r


def _serial(json_path: str) -> bool:
    try:
        with open(json_path) as f:
            return _tools.ran_serially(json.load(f))
    except (OSError, ValueError):
        return False


def measure(asms: dict, arch: str, waves: int, shared: int, tile: Optional[tuple],
            problem: Sequence[int], tools: Tools, verify: Sequence[str] = (),
            timeout: float = 120) -> tuple[dict, dict]:
    """pingpong-sim run on every assembly of `asms` (name -> text) and verify on those named in
    `verify`, all at once (they are independent processes). Returns ({name: SimResult},
    {name: Verify})."""
    if tools.sim is None or not tools.sim.exists():
        raise PluginError("; ".join(tools.missing()))
    sims, vers = {}, {}
    with tempfile.TemporaryDirectory(prefix="pingpong-sim-") as d:
        procs = {}
        for name, text in asms.items():
            path = os.path.join(d, f"{name}.s")
            with open(path, "w") as f:
                f.write(text)
            j = os.path.join(d, f"{name}.json")
            procs[("run", name)] = (subprocess.Popen(
                sim_commands(tools.sim, path, arch, waves, shared, tile, problem, j),
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True), j, text)
            if name in verify:
                procs[("verify", name)] = (subprocess.Popen(
                    [str(tools.sim), "verify", path, *_sim_common(arch, waves, shared)],
                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True), None, text)
        for (kind, name), (p, j, text) in procs.items():
            try:
                out, _ = p.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                out, _ = p.communicate()
                out = f"error: pingpong-sim timed out after {timeout} s\n" + (out or "")
                p.returncode = 124
            cp = subprocess.CompletedProcess(p.args, p.returncode, out, "")
            if kind == "run" and p.returncode == 0 and _serial(j):
                # the workgroups did not overlap in the short run: time it longer
                path = os.path.join(d, f"{name}.s")
                cmd = sim_commands(tools.sim, path, arch, waves, shared, tile, problem, j,
                                   iterations=SIM_ITERATIONS * _tools.SERIAL_RERUN_FACTOR)
                try:
                    cp = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, timeout=timeout)
                except subprocess.TimeoutExpired:
                    cp = subprocess.CompletedProcess(
                        cmd, 124, f"error: pingpong-sim timed out after {timeout} s\n", "")
            if kind == "run":
                sims[name] = read_sim(cp, j, text)
            else:
                vers[name] = Verify(clean=p.returncode == 0, message=verify_message(p.returncode, out),
                                    rc=p.returncode)
    return sims, vers
