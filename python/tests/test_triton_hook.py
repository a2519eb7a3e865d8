"""The Triton hook on real Triton kernels (corpus/triton/kernels.py), compiled by Triton 3.6 for gfx942/gfx950.

Every compile goes through Triton's own pipeline (triton.compile); with the hook enabled only the
amdgcn stage changes. What each test checks can fail: the schedule's s_setprio must be in the
code object Triton linked (disassembled), pingpong-sim verify must pass on Triton's final
assembly, Triton's own code must come back byte for byte where the plugin is not used.
"""
import dataclasses
import os
import stat
import subprocess
import sys
import warnings

import pytest

import conftest as C
from conftest import pp


def own_code(src, arch, warps, stages, **kw):
    """Triton's own compile of the same kernel (hook disabled), for comparison."""
    was = pp.config()
    pp.disable()
    try:
        return C.compile_src(src, arch, warps, stages, **kw)
    finally:
        if was is not None:
            pp.enable(was.mode, kernels=dict(was.kernels), layout=was.layout, decide=was.decide)


# kernel, arch, warps, stages, async copy, the plugin's mode: the model takes the plugin's code
TAKEN = [
    pytest.param(lambda: C.gemm_src("fp16", "TN", 256, 256, 64), "gfx942", 8, 2, False, "four-cluster",
                 id="gemm-tn-f16-256x256x64-gfx942"),
    pytest.param(lambda: C.gemm_src("fp16", "NN", 256, 256, 64), "gfx950", 8, 2, False, "four-cluster",
                 id="gemm-nn-f16-256x256x64-gfx950"),
    pytest.param(lambda: C.gemm_src("fp8e4b8", "TN", 256, 128, 128), "gfx942", 8, 2, False, "two-cluster",
                 id="gemm-tn-fp8-256x128x128-gfx942"),
    pytest.param(lambda: C.gemm_src("fp8e4nv", "TN", 128, 128, 128), "gfx950", 4, 2, False, "one-cluster",
                 id="gemm-tn-fp8-128x128x128-gfx950"),
    pytest.param(lambda: C.mxfp4_src(128, 128, 512), "gfx950", 8, 2, True, "async-two-cluster",
                 id="mxfp4-128x128x512-gfx950-async"),
]


@pytest.mark.parametrize("make_src,arch,warps,stages,async_copy,mode", TAKEN)
def test_plugin_code_in_tritons_code_object(make_src, arch, warps, stages, async_copy, mode, tmp_path):
    """The plugin's schedule reaches the hsaco Triton assembled and linked, and verifies clean."""
    src = make_src()
    own = own_code(src, arch, warps, stages, async_copy=async_copy, matrix_instr_nonkdim=16)
    assert pp.enable()
    k = C.compile_src(src, arch, warps, stages, async_copy=async_copy, matrix_instr_nonkdim=16)
    rep = k.metadata.amdgpu_pingpong
    assert rep["decision"] == "plugin", rep["reason"]
    assert rep["plugin_mode"] == mode
    assert rep["verify"] == "clean"
    assert rep["plugin_cycles"] < rep["triton_cycles"]
    assert pp.report(k.metadata.name).decision == "plugin"
    # Triton kept the plugin's assembly as its amdgcn stage and linked its own hsaco from it
    asm = k.asm["amdgcn"]
    assert asm != own.asm["amdgcn"]
    assert k.metadata.name in asm and f".amdhsa_kernel {k.metadata.name}" in asm
    assert k.asm["hsaco"] != own.asm["hsaco"]
    dis = C.disassemble(k.asm["hsaco"], arch, tmp_path)
    own_dis = C.disassemble(own.asm["hsaco"], arch, tmp_path)
    n = C.count(r"^\s*s_setprio\b", asm)
    if mode != "async-two-cluster":      # the async two-cluster order paces with barriers alone
        assert n > 0
    assert C.count(r"\bs_setprio\b", dis) == n
    assert C.count(r"\bs_barrier\b", dis) == C.count(r"^\s*s_barrier\b", asm)
    assert C.count(r"\bv_mfma", dis) == C.count(r"^\s*v_mfma", asm)
    assert dis != own_dis
    # the launcher sees the same kernel: target, arguments, kernarg segment, workgroup size
    assert C.kernel_abi(k.asm["hsaco"], tmp_path) == C.kernel_abi(own.asm["hsaco"], tmp_path)
    v = C.sim_verify(asm, tmp_path)
    assert v.returncode == 0, v.stdout


def test_attention_gfx942_model_decides(tmp_path):
    """Attention (chained dots): the plugin schedules it, the model compares, the report says why
    whichever code it kept; the code Triton got is the one the report names."""
    src = C.attn_src("fp16", 128, 64, 128)
    own = own_code(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    assert pp.enable(kernels={"attn_fwd": {"tile": (128, 64)}})
    k = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    rep = k.metadata.amdgpu_pingpong
    assert rep["verify"] == "clean"
    assert rep["triton_cycles"] and rep["plugin_cycles"] and rep["triton_ns"] and rep["plugin_ns"]
    check_llvm_order_candidate(rep, "chained-dot")
    if rep["plugin_ns"] < rep["triton_ns"]:
        assert rep["decision"] == "plugin" and k.asm["amdgcn"] != own.asm["amdgcn"]
        assert C.sim_verify(k.asm["amdgcn"], tmp_path).returncode == 0
    else:
        assert rep["decision"] == "triton" and k.asm["amdgcn"] == own.asm["amdgcn"]


def check_llvm_order_candidate(rep, mode):
    """Auto scheduled the loop (`mode`); the hook timed LLVM 22's own order beside it and kept the
    faster: the report says which, with both times."""
    assert rep["llvm_ns"] and rep["schedule_ns"]
    if rep["llvm_order"]:
        assert rep["plugin_mode"] is None and rep["plugin_ns"] == rep["llvm_ns"] < rep["schedule_ns"]
        assert "LLVM 22's order" in rep["reason"] or rep["decision"] == "triton"
    else:
        assert rep["plugin_mode"] == mode and rep["plugin_ns"] == rep["schedule_ns"] <= rep["llvm_ns"]


def user_src(fn, arch, dtype, tile, warps, stages, **kw):
    """A kernel of the tuning set (corpus/triton-user/generate.py), as its generator builds it."""
    import importlib.util
    gen = os.path.join(C.CORPUS, "..", "triton-user", "generate.py")
    spec = importlib.util.spec_from_file_location("triton_user_generate", gen)
    G = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(G)
    case = G.UserCase(fn, arch, dtype, tile, warps, stages, **kw)
    sig, cst, attrs, opts = case.spec()
    spec = importlib.util.spec_from_file_location("triton_user_kernels",
                                                  os.path.join(os.path.dirname(gen), "kernels.py"))
    K = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(K)
    f = getattr(K, fn)
    from triton.compiler import ASTSource
    return ASTSource(fn=f, signature=sig, constexprs=cst,
                     attrs={(f.arg_names.index(k),): v for k, v in attrs.items()}), opts


def test_llvm_order_timed_against_the_schedule(tmp_path):
    """8-warp block-pointer causal attention (bf16 128x64x64, gfx942, the tuning set): auto
    schedules it (chained-dot); the hook also builds LLVM 22's order under Triton's own llc
    options and hands on the faster of the two (the report says which, with both times)."""
    src, opts = user_src("attn_bp", "gfx942", "bf16", (128, 64, 64), 8, 2, mask=1)
    assert pp.enable(kernels={"attn_bp": {"tile": (128, 64)}})
    k = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    rep = k.metadata.amdgpu_pingpong
    check_llvm_order_candidate(rep, "chained-dot")
    gate = C.count(r"^\s*s_setprio", k.asm["amdgcn"]) > 0
    if rep["decision"] == "plugin":
        assert gate == (not rep["llvm_order"])


def test_llvm_order_goes_on_where_the_model_puts_it_ahead(monkeypatch, tmp_path):
    """The same kernel with LLVM's order timed at half its model time: the hook must hand on
    LLVM's order (no s_setprio in the loop), and say so."""
    from amdgpu_pingpong.triton import _core
    real = _core.measure

    def measure(asms, *args, **kw):
        sims, vers = real(asms, *args, **kw)
        if "llvm" in sims and sims["llvm"].ns:
            g = sims["llvm"]
            sims["llvm"] = dataclasses.replace(g, ns=g.ns / 2, cycles=g.cycles / 2)
        return sims, vers
    monkeypatch.setattr(_core, "measure", measure)
    src, opts = user_src("attn_bp", "gfx942", "bf16", (128, 64, 64), 8, 2, mask=1)
    assert pp.enable(kernels={"attn_bp": {"tile": (128, 64)}})
    k = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    rep = k.metadata.amdgpu_pingpong
    check_llvm_order_candidate(rep, "chained-dot")
    assert rep["llvm_order"] and rep["decision"] == "plugin", rep["reason"]
    assert "LLVM 22's order" in rep["reason"]
    assert C.count(r"^\s*s_setprio", k.asm["amdgcn"]) == 0
    assert C.sim_verify(k.asm["amdgcn"], tmp_path).returncode == 0


def test_four_wave_attention_timed_against_auto(tmp_path):
    """4-warp attention (bf16 128x64x64, gfx942): auto keeps LLVM's order (its remark names the
    four-wave-attention option: the order's gain is AMDGPU's scheduler's to decide); the hook builds
    that order too, times both, and the faster goes on to the comparison with Triton's own code;
    the code Triton got is the one the report names."""
    src = C.attn_src("bf16", 128, 64, 64)
    own = own_code(src, "gfx942", 4, 2, matrix_instr_nonkdim=16)
    assert pp.enable(kernels={"attn_fwd": {"tile": (128, 64)}})
    k = C.compile_src(src, "gfx942", 4, 2, matrix_instr_nonkdim=16)
    rep = k.metadata.amdgpu_pingpong
    assert rep["four_wave_ns"] and rep["plugin_ns"] and rep["triton_ns"]
    if rep["four_wave"]:
        assert rep["plugin_mode"] == "chained-dot" and rep["plugin_ns"] == rep["four_wave_ns"]
    else:
        assert rep["plugin_mode"] is None and rep["plugin_ns"] <= rep["four_wave_ns"]
    assert rep["verify"] == "clean"
    gate = C.count(r"^\s*s_setprio 2", k.asm["amdgcn"]) > 0
    if rep["plugin_ns"] < rep["triton_ns"]:
        assert rep["decision"] == "plugin" and gate == rep["four_wave"]
    else:
        assert rep["decision"] == "triton" and k.asm["amdgcn"] == own.asm["amdgcn"]


def test_hinted_order_timed_against_llvms(tmp_path):
    """The same 4-warp attention: auto kept LLVM's order and told AMDGPU's scheduler the two waves
    per SIMD the kernel runs at (the occupancy hint). Under Triton's llc options that order is
    behind llc-22's own in the model (corpus attn_bf16_128x64x64_w4_ns2_gfx942: 4549 against 4401
    cycles per iteration; docs/modes.md, "Session 24: belowbest"): the hook times llc-22's order
    too and hands on the fastest, and says so."""
    src = C.attn_src("bf16", 128, 64, 64)
    assert pp.enable(kernels={"attn_fwd": {"tile": (128, 64)}})
    k = C.compile_src(src, "gfx942", 4, 2, matrix_instr_nonkdim=16)
    rep = k.metadata.amdgpu_pingpong
    assert any("AMDGPU's scheduler told the kernel runs at" in r for r in rep["remarks"])
    # llc-22's order was built and timed beside the hinted one (before session 24 it was not)
    assert rep["llvm_ns"] and rep["schedule_ns"]
    assert rep["plugin_ns"] <= rep["llvm_ns"] and rep["plugin_ns"] <= rep["four_wave_ns"]
    # in the model: llc-22 2881 ns per iteration, hinted 2946, the 4-wave order 2978, Triton 2972
    assert rep["llvm_order"] and rep["hint_dropped"] and not rep["four_wave"], rep["reason"]
    assert rep["plugin_mode"] is None and rep["plugin_ns"] == rep["llvm_ns"] < rep["schedule_ns"]
    assert rep["decision"] == "plugin", rep["reason"]
    assert "faster than with the occupancy hint" in rep["reason"]
    assert C.count(r"^\s*s_setprio", k.asm["amdgcn"]) == 0
    assert C.sim_verify(k.asm["amdgcn"], tmp_path).returncode == 0


def test_refused_attention_keeps_tritons_code():
    """8-warp 256x64x128 attention (gfx950, async copy, Triton's pingpong off): llc-22 would
    spill; the plugin refuses the loop and Triton's own amdgcn stays, byte for byte."""
    from triton import knobs
    old = knobs.amd.use_block_pingpong
    knobs.amd.use_block_pingpong = False
    try:
        src = C.attn_src("fp16", 256, 64, 128)
        own = own_code(src, "gfx950", 8, 4, async_copy=True, matrix_instr_nonkdim=16)
        assert pp.enable()
        k = C.compile_src(src, "gfx950", 8, 4, async_copy=True, matrix_instr_nonkdim=16)
    finally:
        knobs.amd.use_block_pingpong = old
    rep = k.metadata.amdgpu_pingpong
    assert rep["decision"] == "triton"
    assert rep["plugin_mode"] is None
    assert "register budget" in rep["reason"]
    assert k.asm["amdgcn"] == own.asm["amdgcn"]
    assert k.asm["hsaco"] == own.asm["hsaco"]


def test_loop_triton_scheduled_is_left_to_triton():
    """gfx942 bf16 NN 128x128x64, 4 warps: Triton's BlockPingpong (OnePP) scheduled the loop;
    the plugin keeps an author's schedule, so Triton's own code stays."""
    src = C.gemm_src("bf16", "NN", 128, 128, 64)
    own = own_code(src, "gfx942", 4, 2, matrix_instr_nonkdim=16)
    assert pp.enable()
    k = C.compile_src(src, "gfx942", 4, 2, matrix_instr_nonkdim=16)
    rep = k.metadata.amdgpu_pingpong
    assert rep["decision"] == "triton" and "schedule is kept" in rep["reason"]
    assert k.asm["amdgcn"] == own.asm["amdgcn"]


def test_cache_enable_after_plain_compile_then_disable(tmp_path):
    """One cache: a plain compile, then enabled (the plugin's code, not the cached plain one),
    then disabled (Triton's own code again, from the cache: the hook does not run)."""
    from triton import knobs
    src = C.gemm_src("fp16", "TN", 256, 256, 64)
    plain = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    assert "amdgpu_pingpong" not in plain.metadata._fields
    assert pp.enable()
    on = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    assert on.metadata.amdgpu_pingpong["decision"] == "plugin"
    assert on.hash != plain.hash
    assert on.asm["amdgcn"] != plain.asm["amdgcn"]
    pp.disable()
    hits = []
    knobs.compilation.listener = lambda **kw: hits.append(kw["cache_hit"])
    try:
        off = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
        assert pp.enable()
        on2 = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    finally:
        knobs.compilation.listener = None
    assert hits == [True, True]
    assert off.hash == plain.hash and off.asm["amdgcn"] == plain.asm["amdgcn"]
    assert off.asm["hsaco"] == plain.asm["hsaco"]
    assert on2.hash == on.hash and on2.asm["amdgcn"] == on.asm["amdgcn"]
    # another configuration is another key: nothing compiled under one is served to the other
    assert pp.enable(kernels={"gemm": "off"})
    k = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    assert k.hash not in (on.hash, plain.hash)
    assert k.asm["amdgcn"] == plain.asm["amdgcn"]


def _failing_tool(tmp_path, name, message):
    p = tmp_path / name
    p.write_text(f"#!/bin/sh\necho '{message}' >&2\nexit 1\n")
    p.chmod(p.stat().st_mode | stat.S_IEXEC)
    return str(p)


def test_llc_failure_falls_back_with_warning(tmp_path):
    src = C.gemm_src("fp16", "TN", 256, 256, 64)
    own = own_code(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    llc = _failing_tool(tmp_path, "llc", "LLVM ERROR: a stand-in that always fails")
    assert pp.enable(llc=llc)
    with pytest.warns(pp.PingpongWarning, match="stand-in that always fails"):
        k = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    rep = k.metadata.amdgpu_pingpong
    assert rep["decision"] == "triton" and rep["reason"].startswith("fallback: llc exited 1")
    assert k.asm["amdgcn"] == own.asm["amdgcn"] and k.asm["hsaco"] == own.asm["hsaco"]


def test_sim_failure_and_missing_plugin_fall_back(tmp_path):
    src = C.gemm_src("fp16", "TN", 256, 256, 64)
    own = own_code(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    sim = _failing_tool(tmp_path, "pingpong-sim", "error: a stand-in model")
    assert pp.enable(sim=sim)
    # the stand-in fails verify too: a finding of verify is a warning, Triton's own code is kept
    with pytest.warns(pp.PingpongWarning, match="pingpong-sim verify: error: a stand-in model"):
        k = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    assert k.metadata.amdgpu_pingpong["decision"] == "triton"
    assert k.asm["amdgcn"] == own.asm["amdgcn"]
    with pytest.warns(pp.PingpongWarning, match="AMDGPUPingpong.so not found"):
        assert pp.enable(plugin=str(tmp_path / "nope.so"))
    with pytest.warns(pp.PingpongWarning, match="AMDGPUPingpong.so not found"):
        k = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    assert k.asm["amdgcn"] == own.asm["amdgcn"]


def test_per_kernel_off_mode_and_layout():
    src = C.gemm_src("fp16", "TN", 256, 128, 64)
    own = own_code(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    assert pp.enable(kernels={"gemm": "off"})
    k = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    assert k.metadata.amdgpu_pingpong["reason"] == "off for this kernel"
    assert k.asm["amdgcn"] == own.asm["amdgcn"]
    # a forced mode, by pattern
    assert pp.enable(kernels={"ge*": "single-wave"}, decide="plugin")
    k = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    rep = k.metadata.amdgpu_pingpong
    assert rep["plugin_mode"] == "single-wave" and rep["decision"] == "plugin"
    assert any("single-wave (command line)" in r for r in rep["remarks"])
    # a layout (two-cluster's, as data): loop metadata on the MFMA loop
    layout = ("pingpong-layout v1; sync barrier asymmetric delay-global-data; mem mem0: local-read; "
              "mem+ mem0.global: global-load; dot dot0: dot[0/2]; mem mem1: local-write; dot dot1: dot[1/2]")
    assert pp.enable(kernels={"gemm": layout})
    k = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    rep = k.metadata.amdgpu_pingpong
    assert rep["plugin_mode"] == "custom layout", rep["reason"]
    assert any("custom layout (loop metadata)" in r for r in rep["remarks"])
    assert rep["decision"] == "plugin" and rep["verify"] == "clean"
    with pytest.raises(ValueError):
        pp.enable(kernels={"gemm": "no-such-mode"})


def test_scope_restores_previous_state():
    src = C.gemm_src("fp16", "TN", 256, 256, 64)
    with pp.pingpong() as on:
        assert on and pp.is_enabled()
        k = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
        assert k.metadata.amdgpu_pingpong["decision"] == "plugin"
    assert not pp.is_enabled()
    from triton import knobs
    from triton.backends.amd.compiler import HIPBackend
    assert knobs.runtime.add_stages_inspection_hook is None
    assert not getattr(HIPBackend.hash, "_amdgpu_pingpong", False)


def test_other_triton_version_warns_and_does_nothing(monkeypatch):
    import triton
    from triton import knobs
    monkeypatch.setattr(triton, "__version__", "3.5.1")
    with pytest.warns(pp.PingpongWarning, match="Triton 3.5.1 is not a supported version"):
        assert pp.enable() is False
    assert not pp.is_enabled()
    assert knobs.runtime.add_stages_inspection_hook is None


def test_environment_variable_enables_without_code_change(tmp_path):
    """AMDGPU_PINGPONG_TRITON=1: the .pth that pip installed enables the hook at start-up."""
    prog = tmp_path / "prog.py"
    prog.write_text(
        "import sys; sys.path.insert(0, %r)\n"
        "import conftest as C\n"
        "k = C.compile_src(C.gemm_src('fp16', 'TN', 256, 256, 64), 'gfx942', 8, 2, matrix_instr_nonkdim=16)\n"
        "print('DECISION', k.metadata.amdgpu_pingpong['decision'], k.asm['amdgcn'].count('s_setprio'))\n"
        % C.HERE)
    env = dict(os.environ, AMDGPU_PINGPONG_TRITON="1", AMDGPU_PINGPONG_TRITON_LOG="info",
               TRITON_CACHE_DIR=str(tmp_path / "cache"))
    p = subprocess.run([sys.executable, str(prog)], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "DECISION plugin 8" in p.stdout
    assert "amdgpu_pingpong: gemm (gfx942, 8 warps): plugin four-cluster" in p.stderr
    env["AMDGPU_PINGPONG_TRITON"] = "0"
    prog.write_text("import sys\nprint('LOADED', 'amdgpu_pingpong.triton' in sys.modules, "
                    "'triton' in sys.modules)\n")
    p = subprocess.run([sys.executable, str(prog)], env=env, stdout=subprocess.PIPE, text=True)
    assert "LOADED False False" in p.stdout    # the variable off: neither Triton nor the hook loads


def test_jit_in_memory_caches_cleared_on_change():
    """A JITFunction's per-device kernel cache (keyed without the backend hash) is emptied on
    enable() and disable(), so a launch after either compiles or reads the disk cache anew."""
    import kernels
    caches = kernels.gemm.device_caches
    kernel_cache = {"stale-key": object()}
    dict.__setitem__(caches, 0, (kernel_cache, {}, None, None, None))   # no driver here
    try:
        assert pp.enable()
        assert kernel_cache == {}
        kernel_cache["stale-key"] = object()
        pp.disable()
        assert kernel_cache == {}
    finally:
        dict.pop(caches, 0, None)


def test_slower_plugin_code_is_not_taken():
    """A forced mode the model times slower (two-cluster on the 256x256 TN tile spills) keeps
    Triton's own code under decide="model"; decide="plugin" takes it."""
    src = C.gemm_src("fp16", "TN", 256, 256, 64)
    own = own_code(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    assert pp.enable(kernels={"gemm": "two-cluster"})
    k = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    rep = k.metadata.amdgpu_pingpong
    assert rep["plugin_mode"] == "two-cluster" and rep["verify"] == "clean"
    assert rep["plugin_ns"] > rep["triton_ns"]
    assert rep["decision"] == "triton" and rep["reason"] == "not faster in the model"
    assert k.asm["amdgcn"] == own.asm["amdgcn"]
    assert pp.enable(kernels={"gemm": "two-cluster"}, decide="plugin")
    k = C.compile_src(src, "gfx942", 8, 2, matrix_instr_nonkdim=16)
    assert k.metadata.amdgpu_pingpong["decision"] == "plugin"
    assert k.asm["amdgcn"] != own.asm["amdgcn"]


def test_kernel_without_mfma_is_left_alone():
    """An elementwise kernel: no MFMA, so no llc run and Triton's own code."""
    import triton
    import triton.language as tl

    @triton.jit
    def axpy(X, Y, a, n, BLOCK: tl.constexpr):
        i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(Y + i, a * tl.load(X + i, mask=i < n) + tl.load(Y + i, mask=i < n), mask=i < n)

    src = C._src(axpy, {"X": "*fp32", "Y": "*fp32", "a": "fp32", "n": "i32"}, {"BLOCK": 1024},
                 "XY", ("n",))
    with pytest.warns(pp.PingpongWarning, match="llc .LLVM 22. not found"):
        assert pp.enable(llc="/nonexistent/llc")
    with warnings.catch_warnings():
        warnings.simplefilter("error", pp.PingpongWarning)     # llc is not run, so no warning
        k = C.compile_src(src, "gfx942", 4, 1)
    assert k.metadata.amdgpu_pingpong["reason"] == "no MFMA in the kernel"
    assert k.metadata.amdgpu_pingpong["decision"] == "triton"


def test_verify_cannot_prove_keeps_tritons_code_unless_asked():
    """gfx950 attention with 32x32 MFMAs (async copy): pingpong-sim verify finds nothing in the
    plugin's code but cannot prove some LDS pairs ordered (exit 3, Triton's replicated-value
    stores). verify="strict" keeps Triton's own code, without a warning; "no-findings" lets the
    model decide."""
    src = C.attn_src("fp16", 128, 64, 128)
    kw = dict(async_copy=True, matrix_instr_nonkdim=32)
    own = own_code(src, "gfx950", 8, 2, **kw)
    assert pp.enable(kernels={"attn_fwd": {"tile": (128, 64)}})
    with warnings.catch_warnings():
        warnings.simplefilter("error", pp.PingpongWarning)
        k = C.compile_src(src, "gfx950", 8, 2, **kw)
    rep = k.metadata.amdgpu_pingpong
    assert rep["plugin_mode"] == "chained-dot"
    assert rep["verify"].startswith("cannot prove (no finding): verify: cannot prove:")
    assert rep["decision"] == "triton" and "verify='no-findings'" in rep["reason"]
    assert k.asm["amdgcn"] == own.asm["amdgcn"]
    assert pp.enable(kernels={"attn_fwd": {"tile": (128, 64)}}, verify="no-findings")
    k = C.compile_src(src, "gfx950", 8, 2, **kw)
    rep = k.metadata.amdgpu_pingpong
    assert rep["decision"] == ("plugin" if rep["plugin_ns"] < rep["triton_ns"] else "triton")
