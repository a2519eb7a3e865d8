#!/usr/bin/env python3
"""Print the code of an AMDGCN assembly file without its debug info.

Keeps instructions and code labels; drops comments, directives (.loc, .file,
.cfi_*, sections, metadata), debug labels (.Ltmp*, .Lfunc_end*) and the
per-compile HIP cuid symbol. Two compiles that differ only in -g / -g0 /
-gline-tables-only must print the same lines.
"""
import re
import sys

DROP_LABEL = re.compile(r"^(\.Ltmp\d+|\.Lfunc_(?:begin|end)\d+|\.Ldebug\w*|\.Linfo\w*|"
                        r"\.Lline\w*|\.Lsection\w*|__hip_cuid_\w+):")


def code_lines(text):
    in_code = True
    for raw in text.splitlines():
        line = raw.split(";", 1)[0].rstrip()
        s = line.strip()
        if not s:
            continue
        # Debug sections and the metadata that follows code hold no code.
        if s.startswith(".section"):
            in_code = ".text" in s
            continue
        if s.startswith((".text", ".p2align")):
            in_code = True
        if not in_code or s.startswith(".") and not s.endswith(":"):
            continue
        if DROP_LABEL.match(s):
            continue
        yield s


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: asm-code.py FILE.s")
    with open(sys.argv[1]) as f:
        for line in code_lines(f.read()):
            print(line)


if __name__ == "__main__":
    main()
