"""asm_loops.py: the loops of an AMDGPU assembly file, for corpus checks.

llc's assembly printer writes MachineLoopInfo into each block's comment
("=>This Inner Loop Header: Depth=1", "in Loop: Header=BB0_6 Depth=1"), so
every block is put in its innermost loop exactly as the compiler saw it.
mfma_loops() counts, per function, the loops whose own blocks (not a nested
loop's) hold an MFMA: each of them must have been given a remark by the
plugin ("loop %bb.N of F: ...", applied or missed).
"""
import re

FUNC_RE = re.compile(r"^([A-Za-z_$][\w.$]*):")
BLOCK_RE = re.compile(r"^(?:\.L(BB\d+_\d+):|; %bb\.\d+:)(.*)$")
COMMENT_RE = re.compile(r"^\s+;(.*)$")
HEADER_RE = re.compile(r"=>\s*This (?:Inner )?Loop Header")
IN_LOOP_RE = re.compile(r"in Loop: Header=(BB\d+_\d+)")
MFMA_RE = re.compile(r"^\s*v_mfma_")
# "loop %bb.N of F: " in a remark from the schedule pass (not the final
# check's "final check, %bb.N of F").
REMARK_LOOP_RE = re.compile(r"remark: .*?(?<!final check, )loop %bb\.(\d+) of ([^:\s]+)[: ]")


def mfma_loops(asm_text):
    """{function: number of loops with an MFMA in their own blocks}."""
    with_mfma = set()  # (function, header)
    func, loop, comment, in_block_comment = None, None, "", False

    def settle():
        # The block's comment lines are all read: which loop is it in?
        nonlocal loop
        if HEADER_RE.search(comment):
            loop = block_name
        else:
            m = IN_LOOP_RE.findall(comment)
            loop = m[-1] if m else None

    block_name = None
    for line in asm_text.splitlines():
        m = BLOCK_RE.match(line)
        if m:
            block_name, comment, in_block_comment = m.group(1), m.group(2), True
            settle()
            continue
        if in_block_comment:
            c = COMMENT_RE.match(line)
            if c:
                comment += " " + c.group(1)
                settle()
                continue
            in_block_comment = False
        f = FUNC_RE.match(line)
        if f and not line.startswith(".L"):
            func, loop, block_name = f.group(1), None, None
            continue
        if func and loop and MFMA_RE.match(line):
            with_mfma.add((func, loop))
    counts = {}
    for func, _ in with_mfma:
        counts[func] = counts.get(func, 0) + 1
    return counts


def remarked_loops(remarks_text):
    """{function: number of distinct loops a schedule-pass remark names}."""
    seen = set()
    for m in REMARK_LOOP_RE.finditer(remarks_text):
        seen.add((m.group(2), m.group(1)))
    counts = {}
    for func, _ in seen:
        counts[func] = counts.get(func, 0) + 1
    return counts


def silent_loops(asm_text, remarks_text):
    """Functions with more MFMA loops than loops named in remarks: {f: (loops, remarked)}."""
    have = remarked_loops(remarks_text)
    return {f: (n, have.get(f, 0)) for f, n in mfma_loops(asm_text).items()
            if have.get(f, 0) < n}
