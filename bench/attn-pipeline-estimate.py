#!/usr/bin/env python3
"""Estimate, not a transform the plugin makes: software-pipeline the next Q K^T of a Triton
two-stage, register-staged attention loop by rewriting its LLVM IR (docs/modes.md, "Session 21:
the next Q K^T beside the softmax").

The loop (one block, Triton's pipeliner: the last iteration peeled after it) is, per iteration i:
global loads of tile i+1; barrier; K_i's LDS reads; S_i = Q K_i^T; softmax(S_i); V_i's reads;
O += P_i V_i; barrier; LDS stores of tile i+1. Two forms:

  next-qk      S_{i+1} = Q K_{i+1}^T at the end of iteration i (after the stores and a barrier),
               S carried into the next iteration by header PHIs; a prologue in the preheader
               computes S_0. The softmax of S_i then needs no MFMA of its own iteration.
  reads-ahead  the same, and the next tile's V reads go with K's after the stores' barrier, the
               stores move to the top of the body (barrier, stores, barrier), and the global loads
               go one tile further ahead (their data carried across the back edge, the last
               iteration's loads past the tensor's end: the buffer resource's bounds read zeros;
               an estimate only, the plugin's LoadLookahead masks such a load). Everything but the
               stores then sits between one barrier and the next: a wave's softmax of S_i, its
               P_i V_i and its Q K_{i+1}^T share one interval.

  k-ahead      a second LDS buffer for K (at the end of Triton's arena; meta.json's triton_shared
               doubled): iteration i reads K_{i+1} from it right after its first barrier and computes
               S_{i+1} there, stores K_{i+2} (its global load a tile further ahead) into the buffer
               K_i used; the prologue loads and stores K_1 and computes S_0. No barrier is added:
               the softmax of S_i, Q K_{i+1}^T, V_i's reads and P_i V_i share one barrier interval,
               only the LDS stores sit in the other. (The peeled last iteration after the loop
               reads K from the first buffer: its data is wrong on one parity, which no timing of
               the loop sees; an estimate only.)

The epilogue after the loop is Triton's: it recomputes the last tile from LDS; the loop's last
S_{N-1} is dropped. Values renamed by `opt -passes=instnamer` first.

usage: bench/attn-pipeline-estimate.py CASE_pp0 OUTDIR/CASE_pp0 [--form next-qk|reads-ahead]
                                      [--layout 'pingpong-layout v1; ...']
Copies meta.json and Triton's kernel.amdgcn beside the new kernel.llir, so that
`python3 bench/triton_bench.py --corpus OUTDIR` times it (llc-22's order and the plugin's);
--layout puts a layout on the loop as metadata (docs/modes.md, "Layouts as data") for the plugin's
build.
"""
import argparse, json, os, re, shutil, subprocess, sys

TOK = r"%([-\w.$]+)(?![-\w.$])"



def with_loop_layout(latch):
    """The latch branch with the layout's loop metadata (!90000) attached."""
    if "!llvm.loop" in latch:
        sys.exit("the latch already carries loop metadata")
    return latch + ", !llvm.loop !90000"


def layout_metadata(layout):
    """The metadata nodes that with_loop_layout refers to ([] without a layout)."""
    if not layout:
        return []
    return ["!90000 = distinct !{!90000, !90001}",
            '!90001 = !{!"amdgpu.pingpong.layout", !"%s"}' % layout]

def dn(l):
    m = re.match(r"\s+%([-\w.$]+) = ", l)
    return m.group(1) if m else None


def uses(l):
    rhs = l.split(" = ", 1)[1] if dn(l) else l
    return set(re.findall(TOK, rhs.split(", !")[0]))


def rename(l, names, suf, sub=None):
    def f(m):
        t = m.group(1)
        if sub and t in sub:
            return sub[t]
        return f"%{t}{suf}" if t in names else m.group(0)
    return re.sub(TOK, f, l)


def transform(L, form, layout=None, koff=None):
    hi = next(i for i, l in enumerate(L)
              if re.match(r"^([-\w.]+):\s+; preds = (%\.lr\.ph, %\1|%\1, %\.lr\.ph)$", l))
    H = re.match(r"^([-\w.]+):", L[hi]).group(1)
    ei = next(i for i in range(hi, len(L)) if L[i].strip().startswith("br i1") and f"label %{H}" in L[i])
    pi = max(j for j in range(hi) if L[j].strip().startswith(f"br label %{H}"))
    PRE = re.match(r"^([-\w.]+):", L[max(j for j in range(pi) if re.match(r"^[-\w.]+:", L[j]))]).group(1)
    body = list(range(hi + 1, ei))
    phis = [i for i in body if " = phi " in L[i]]
    defs = {dn(L[i]): i for i in body if dn(L[i])}
    phiv = {dn(L[i]): dict((b, v) for v, b in re.findall(r"\[ ([^,]+), %([-\w.]+) \]", L[i])) for i in phis}
    phinames = set(phiv)
    waits = [i for i in body if "s.waitcnt" in L[i]]
    bars = [i for i in body if "s.barrier" in L[i]]
    if len(waits) != 2 or len(bars) != 2:
        sys.exit("expected two waitcnt + barrier pairs in the loop")
    b1, b2 = [waits[0], bars[0]], [waits[1], bars[1]]

    def closure(roots, stop):
        S, work = set(roots), list(roots)
        while work:
            for u in uses(L[defs[work.pop()]]):
                if u in defs and u not in S and u not in stop:
                    S.add(u)
                    work.append(u)
        return S
    # Q K^T: the MFMAs from a zero accumulator and their chains
    mf = [dn(L[i]) for i in body if "@llvm.amdgcn.mfma" in L[i]]
    g0, grew = set(), True
    while grew:
        grew = False
        for n in mf:
            if n not in g0 and ("float> zeroinitializer" in L[defs[n]] or uses(L[defs[n]]) & g0):
                g0.add(n)
                grew = True
    reads = {dn(L[i]) for i in body if dn(L[i]) and "addrspace(3)" in L[i]
             and (re.search(r"= load ", L[i]) or "ds.read" in L[i])}
    A = closure(g0 | (reads if form == "reads-ahead" else set()), phinames)
    if closure(A, set()) & phinames:
        sys.exit("the moved reads or Q K^T depend on a loop-carried value")
    if any(defs[n] < bars[0] for n in A):
        sys.exit("a moved instruction sits before the loop's first barrier")
    G, St, stores, Gclone = set(), set(), [], set()
    if form == "reads-ahead":
        G = {dn(L[i]) for i in body if "raw.ptr.buffer.load" in L[i]}
        stores = [i for i in body if L[i].strip().startswith("store") and "addrspace(3)" in L[i]]
        St = {n for n in closure(set().union(*[uses(L[i]) for i in stores]) & set(defs), phinames | G)
              if n not in G}
        memo = {}

        def dep_phi(n):
            if n not in memo:
                memo[n] = n in phinames or any(dep_phi(u) for u in uses(L[defs[n]]) if u in defs)
            return memo[n]
        Gclone = {n for n in closure(G, phinames) if n not in phinames and (n in G or dep_phi(n))}
    if form == "k-ahead":
        return kahead(L, locals(), layout, koff)
    moved = A | G | St
    rest = [i for i in body if i not in phis and i not in b1 + (b2 if form == "reads-ahead" else [])
            and i not in stores and dn(L[i]) not in moved]
    user_lines = rest + stores + [defs[m] for m in St]
    escA = sorted({n for n in A for i in user_lines if n in uses(L[i])}, key=lambda n: defs[n])
    escG = sorted(G, key=lambda n: defs[n])

    def typ(n):
        m = re.search(r"= load ([^,]+),", L[defs[n]]) or re.search(r"call (<[^>]+>|\w+) @", L[defs[n]])
        return m.group(1)
    order = lambda S: sorted(S, key=lambda n: defs[n])
    out = []
    for j, l in enumerate(L):
        if j == pi:   # prologue: the reads and Q K^T of tile 0 (and the loads of tile 1)
            out += [L[b1[0]], L[b1[1]]] + [rename(L[defs[n]], A, ".pro") for n in order(A)]
            sub = {p: (v[PRE] if PRE in v else v[".lr.ph"]) for p, v in phiv.items()}
            out += [rename(L[defs[n]], Gclone, ".g1", sub) for n in order(Gclone)]
        if j == hi:
            out.append(l)
            out += [L[i] for i in phis]
            out += [f"  %{n} = phi {typ(n)} [ %{n}.pro, %{PRE} ], [ %{n}.nx, %{H} ]" for n in escA]
            out += [f"  %{n} = phi {typ(n)} [ %{n}.g1, %{PRE} ], [ %{n}.g2, %{H} ]" for n in escG]
            nxt = [L[b1[0]], L[b1[1]]] + [rename(L[defs[n]], A, ".nx") for n in order(A)]
            if form == "reads-ahead":
                out += [L[b2[0]], L[b2[1]]] + [L[defs[n]] for n in order(St)] + [L[i] for i in stores]
                out += nxt + [L[i] for i in rest]
                sub = {p: v[H] for p, v in phiv.items()}
                out += [rename(L[defs[n]], Gclone, ".g2", sub) for n in order(Gclone)]
            else:
                out += [L[i] for i in rest] + nxt
            continue
        if hi < j < ei:
            continue
        if j == ei and layout:
            l = with_loop_layout(l)
        out.append(l)
    out += layout_metadata(layout)
    print(f"loop %{H}: moved {len(A)} instructions ({len(g0)} MFMAs), {len(escA)} values and "
          f"{len(escG)} loaded tiles carried across the back edge", file=sys.stderr)
    return out


def kahead(L, v, layout, koff):
    """The k-ahead form (docstring): A (K's reads and Q K^T) stays after the first barrier but
    reads the other K buffer and computes the next S; K's global load goes a tile further ahead
    and its stores go to the buffer this iteration's reads did not use."""
    hi, ei, pi, H, PRE, body, phis, defs, phiv, phinames, b1, A, reads, closure = (
        v[k] for k in ("hi", "ei", "pi", "H", "PRE", "body", "phis", "defs", "phiv", "phinames", "b1",
                       "A", "reads", "closure"))
    loads = [i for i in body if "raw.ptr.buffer.load" in L[i]]
    KL = dn(L[loads[0]])   # Triton's order: K's tile is loaded first
    stores = [i for i in body if L[i].strip().startswith("store") and "addrspace(3)" in L[i]
              and KL in closure(uses(L[i]) & set(defs), phinames) | (uses(L[i]) & {KL})]
    if not stores:
        sys.exit("no LDS store of the first global load's tile")
    kchain = {n for n in closure(set().union(*[uses(L[i]) for i in stores]) & set(defs), phinames)
              if KL in closure({n}, phinames) and n != KL}
    memo = {}

    def dep_phi(n):
        if n not in memo:
            memo[n] = n in phinames or any(dep_phi(u) for u in uses(L[defs[n]]) if u in defs)
        return memo[n]
    off_tree = {n for n in closure({KL}, phinames) if n not in phinames and n != KL and dep_phi(n)}
    for n in off_tree:
        for p in phinames:
            if p in uses(L[defs[n]]) and defs[dn_back(phiv[p][H])] > defs[KL]:
                sys.exit("a backedge value K's load needs is computed after it")
    kreads = sorted((n for n in A if n in reads), key=lambda n: defs[n])
    rest_users = [i for i in body if i not in phis and dn(L[i]) not in A]
    escA = sorted({n for n in A for i in rest_users if n in uses(L[i])}, key=lambda n: defs[n])

    def typ(n):
        m = re.search(r"call (<[^>]+>|\w+) @", L[defs[n]])
        return m.group(1)
    order = lambda S: sorted(S, key=lambda n: defs[n])
    sub_pre = {p: (pv[PRE] if PRE in pv else pv[".lr.ph"]) for p, pv in phiv.items()}
    sub_back = {p: pv[H] for p, pv in phiv.items()}
    out = []
    for j, l in enumerate(L):
        if j == pi:   # prologue: K_1 loaded and stored to the second buffer; barrier; S_0
            tree = order(off_tree | {KL})
            out += [rename(L[defs[n]], set(tree), ".g1", sub_pre) for n in tree]
            out += [rename(L[defs[n]], set(tree) | kchain, ".g1") for n in order(kchain)]
            for i in stores:
                ptr = re.search(r"ptr addrspace\(3\) %([-\w.$]+)", L[i]).group(1)
                out.append(f"  %{ptr}.k1 = getelementptr i8, ptr addrspace(3) %{ptr}, i32 {koff}")
                out.append(rename(L[i], set(tree) | kchain | {ptr}, ".g1", {ptr: f"%{ptr}.k1"}))
            out += [L[b1[0]], L[b1[1]]] + [rename(L[defs[n]], A, ".pro") for n in order(A)]
        if j == hi:
            out.append(l)
            out += [L[i] for i in phis]
            out += [f"  %{n} = phi {typ(n)} [ %{n}.pro, %{PRE} ], [ %{n}.nx, %{H} ]" for n in escA]
            out += [f"  %kb = phi i32 [ {koff}, %{PRE} ], [ %kb.n, %{H} ]",
                    f"  %kb.n = xor i32 %kb, {koff}"]
            continue
        if hi < j < ei:
            n = dn(l)
            if j in phis:
                continue
            if n in A:
                if n in kreads:
                    ptr = re.search(r"ptr addrspace\(3\) (?:nonnull )?%([-\w.$]+)", l).group(1)
                    out.append(f"  %{n}.kp = getelementptr i8, ptr addrspace(3) %{ptr}, i32 %kb")
                    l = re.sub(rf"%{re.escape(ptr)}(?![-\w.$])", f"%{n}.kp", l)
                out.append(rename(l, A, ".nx"))
                continue
            if n == KL:
                tree = order(off_tree)
                out += [rename(L[defs[m]], set(tree), ".g2", sub_back) for m in tree]
                out.append(rename(l, set(tree), ".g2"))
                continue
            if j in stores:
                ptr = re.search(r"ptr addrspace\(3\) %([-\w.$]+)", l).group(1)
                out.append(f"  %{ptr}.k{j} = getelementptr i8, ptr addrspace(3) %{ptr}, i32 %kb.n")
                l = re.sub(rf"(ptr addrspace\(3\) )%{re.escape(ptr)}(?![-\w.$])", rf"\1%{ptr}.k{j}", l)
        if j == ei and layout:
            l = with_loop_layout(l)
        out.append(l)
    out += layout_metadata(layout)
    print(f"loop %{H}: K double-buffered at +{koff}: {len(kreads)} reads of the next K, "
          f"{len(v['g0'])} MFMAs of the next S ({len(escA)} values carried), {len(stores)} stores a tile "
          f"further ahead", file=sys.stderr)
    return out


def dn_back(v):
    return v.lstrip("%")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("case")
    ap.add_argument("out")
    ap.add_argument("--form", choices=("next-qk", "reads-ahead", "k-ahead"), default="next-qk")
    ap.add_argument("--layout", help="a layout for the loop, as loop metadata")
    ap.add_argument("--opt", default="/usr/lib/llvm-22/bin/opt")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    meta = {}
    if os.path.exists(os.path.join(a.case, "meta.json")):
        meta = json.load(open(os.path.join(a.case, "meta.json")))
    koff = meta.get("triton_shared") or 0
    if a.form == "k-ahead" and not koff:
        sys.exit("k-ahead needs meta.json's triton_shared (where the second K buffer goes)")
    named = subprocess.run([a.opt, "-S", "-passes=instnamer", os.path.join(a.case, "kernel.llir"), "-o", "-"],
                           check=True, capture_output=True, text=True).stdout
    ir = os.path.join(a.out, "kernel.llir")
    with open(ir, "w") as f:
        f.write("\n".join(transform(named.split("\n"), a.form, a.layout, koff)))
    subprocess.run([a.opt, "-passes=verify", ir, "-o", os.devnull], check=True)
    for f in ("meta.json", "kernel.amdgcn"):
        if os.path.exists(os.path.join(a.case, f)):
            shutil.copy(os.path.join(a.case, f), a.out)
    if a.form == "k-ahead":
        meta["triton_shared"] = 2 * koff
        with open(os.path.join(a.out, "meta.json"), "w") as f:
            json.dump(meta, f, indent=1)


if __name__ == "__main__":
    main()
