#!/usr/bin/env python3
"""Does Triton take the plugin's code through TRITON_KERNEL_OVERRIDE? (needs Triton; no GPU)

  override_check.py dump DIR NAME        compile corpus case NAME (e.g. mm_f16_tn_256x256x64_w8_ns2_gfx942_pp0)
                                         with TRITON_KERNEL_DUMP into DIR (HASH/NAME.llir, .json, ...)
  override_check.py override DIR NAME    compile it again with TRITON_KERNEL_OVERRIDE from DIR (what
                                         scripts/pingpong-triton wrote) and report what Triton used:
                                         s_setprio count of its final amdgcn, and whether its code object
                                         is the override's .hsaco byte for byte.
"""
import glob, os, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate


def compile_case(name):
    case, pp = next((c, pp) for c, pp in generate.cases() if c.name(pp) == name)
    generate.set_knobs(pp, case.async_copy, tempfile.mkdtemp(prefix="tc_"))
    import triton, kernels
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    sig, cst, attrs, opts = case.spec()
    fn = getattr(kernels, case.fn)
    path_attrs = {(fn.arg_names.index(k),): v for k, v in attrs.items()}
    src = ASTSource(fn=fn, signature=sig, constexprs=cst, attrs=path_attrs)
    return triton.compile(src, target=GPUTarget("hip", case.arch, 64), options=opts)


def main():
    mode, d, name = sys.argv[1:4]
    d = os.path.abspath(d)
    if mode == "dump":
        os.environ.update(TRITON_KERNEL_DUMP="1", TRITON_DUMP_DIR=d)
        compile_case(name)
        print("dumped:", sorted(os.path.relpath(p, d) for p in glob.glob(d + "/*/*")))
    else:
        os.environ.update(TRITON_KERNEL_OVERRIDE="1", TRITON_OVERRIDE_DIR=d)
        ck = compile_case(name)
        asm = ck.asm.get("amdgcn", "")
        hsaco = ck.asm.get("hsaco", b"")
        ours = glob.glob(d + "/*/*.hsaco")
        same = bool(ours) and open(ours[0], "rb").read() == hsaco
        print(f"override: final amdgcn has {asm.count('s_setprio')} s_setprio; "
              f"code object identical to the override's .hsaco: {same}")


if __name__ == "__main__":
    main()
