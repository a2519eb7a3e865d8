#!/usr/bin/env python3
"""doc-pipeline.py WHICH KERNEL.mlir OUT.s: run the MLIR pipeline exactly as a
document writes it. WHICH is "readme" (README.md's "MLIR" table row) or
"mlir-doc" (docs/mlir.md's first sh block). Only the names a reader replaces
are replaced: k.mlir, <so>, build/ (this build), and bare opt/llc (Debian's
llvm-22 tools, as the README means them). The command runs under bash with
its own `set -o pipefail` where the document has one; stdout (the assembly)
goes to OUT.s."""
import os
import re
import subprocess
import sys

which, kernel, out = sys.argv[1:4]
src = os.environ["PP_SRC"]
build = os.environ["PP_BUILD"]
llvm_bin = os.environ["PP_LLVM_BIN"]
if which == "readme":
    text = open(os.path.join(src, "README.md")).read()
    row = re.search(r"^\| MLIR \| `([^`]+)`", text, re.M)
    if not row:
        sys.exit("doc-pipeline: no MLIR row in README.md")
    cmd = row.group(1).replace("\\|", "|")
else:
    text = open(os.path.join(src, "docs", "mlir.md")).read()
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    if not block:
        sys.exit("doc-pipeline: no sh block in docs/mlir.md")
    cmd = block.group(1)
cmd = cmd.replace("<so>", os.path.join(build, "lib", "AMDGPUPingpong.so"))
cmd = re.sub(r"(?<![\w/.-])build/", build + "/", cmd)
cmd = re.sub(r"(?<![\w/.-])k\.mlir\b", kernel, cmd)
cmd = re.sub(r"-o k\.s\b", "-o " + out, cmd)
cmd = re.sub(r"(\|\s*)(opt|llc)(?=\s)", lambda m: m.group(1) + os.path.join(llvm_bin, m.group(2)), cmd)
print("doc-pipeline: " + " ".join(cmd.split()), file=sys.stderr)
with open(out, "ab") as f:
    rc = subprocess.call(["bash", "-c", cmd], stdout=f if "-o " + out not in cmd else None)
sys.exit(rc)
