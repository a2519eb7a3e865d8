//===- Flow.cpp - pingpong-sim: the kernel's CFG and the hot loop's rules -===//
//
// See Flow.h.
//
//===----------------------------------------------------------------------===//
#include "Flow.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace ppsim {

void Flow::build(unsigned B0, unsigned E0) {
  Begin = B0; End = E0;
  std::vector<char> Leader(End - Begin + 1, 0);
  Leader[0] = 1;
  for (unsigned P = Begin; P < End; ++P) {
    const Inst &In = I[P];
    if (In.C == Cat::Branch || In.In == Internal::Endpgm) {
      Leader[P + 1 - Begin] = 1;
      int T = targetOf(P);
      if (T >= 0) Leader[T - Begin] = 1;
    }
  }
  BlockOf.assign(End - Begin, -1);
  for (unsigned P = Begin; P < End; ++P) {
    if (Leader[P - Begin]) { BStart.push_back(P); BLast.push_back(P); }
    BlockOf[P - Begin] = (int)BStart.size() - 1;
    BLast.back() = P;
  }
  size_t NB = BStart.size();
  Succ.assign(NB, {});
  Pred.assign(NB, {});
  for (size_t B = 0; B < NB; ++B) {
    const Inst &L = I[BLast[B]];
    bool Fall = L.In != Internal::Endpgm && !(L.C == Cat::Branch && !L.Conditional);
    if (L.C == Cat::Branch) {
      int T = targetOf(BLast[B]);
      if (T >= 0) Succ[B].push_back(blockOf(T));
    }
    if (Fall && BLast[B] + 1 < End) Succ[B].push_back(blockOf(BLast[B] + 1));
    for (int S : Succ[B]) Pred[S].push_back((int)B);
  }
  // back-edges: CFG edges to a block on the depth-first search stack
  std::vector<int> Color(NB, 0), Stack{0}, Next(NB, 0);
  Color[0] = 1;
  while (!Stack.empty()) {
    int B = Stack.back();
    if (Next[B] < (int)Succ[B].size()) {
      int S = Succ[B][Next[B]++];
      if (Color[S] == 1) BackEdges.push_back({B, S});
      else if (Color[S] == 0) { Color[S] = 1; Stack.push_back(S); }
    } else { Color[B] = 2; Stack.pop_back(); }
  }
}

// the natural loop of header block S: S and the blocks that reach one of
// its back-edges without passing S
std::vector<char> Flow::naturalLoop(int S) const {
  std::vector<int> Src;
  for (auto &E : BackEdges) if (E.second == S) Src.push_back(E.first);
  std::vector<char> L = backReach(Src, S);
  L[S] = 1;
  return L;
}

// The CFG header of the loop that a branch back to an earlier label closes:
// usually that label; in LLVM's rotated layout (body blocks placed before
// the header, entered by an s_branch to the header and closed by a
// fall-through into it) the header of the innermost natural loop that
// contains both.
unsigned Flow::cfgHeader(unsigned Latch, unsigned TextHeader) const {
  int LBk = blockOf(Latch), TH = blockOf(TextHeader);
  int Best = -1;
  size_t BestSize = SIZE_MAX;
  std::set<int> Heads;
  for (auto &E : BackEdges) Heads.insert(E.second);
  for (int S : Heads) {
    std::vector<char> L = naturalLoop(S);
    if (!L[LBk] || !L[TH]) continue;
    size_t Sz = std::count(L.begin(), L.end(), 1);
    if (Sz < BestSize || (Sz == BestSize && S == TH)) { Best = S; BestSize = Sz; }
  }
  return Best < 0 ? TextHeader : BStart[Best];
}

// blocks that reach one of the sources without passing Stop (Stop itself
// included when it is a source's target: a natural loop)
std::vector<char> Flow::backReach(const std::vector<int> &From, int Stop) const {
  std::vector<char> Seen(BStart.size(), 0);
  std::vector<int> Work;
  for (int F : From) if (F >= 0 && F != Stop && !Seen[F]) { Seen[F] = 1; Work.push_back(F); }
  while (!Work.empty()) {
    int B = Work.back();
    Work.pop_back();
    for (int P : Pred[B])
      if (P != Stop && !Seen[P]) { Seen[P] = 1; Work.push_back(P); }
  }
  return Seen;
}

// shortest number of blocks from each block to one of the targets, not
// through Stop (INT_MAX: unreachable)
std::vector<int> Flow::dist(const std::vector<int> &To, int Stop) const {
  std::vector<int> D(BStart.size(), INT32_MAX);
  std::vector<int> Q;
  for (int T : To) if (T >= 0 && D[T] == INT32_MAX) { D[T] = 0; Q.push_back(T); }
  for (size_t H = 0; H < Q.size(); ++H)
    for (int P : Pred[Q[H]])
      if (P != Stop && D[P] == INT32_MAX) { D[P] = D[Q[H]] + 1; Q.push_back(P); }
  return D;
}

void Flow::setLoop(unsigned L, unsigned Be) {
  HasLoop = true; LB = L; BE = Be;
  int H = blockOf(LB);
  std::vector<int> Latches;
  for (unsigned P = LB; P < End; ++P)
    if (I[P].C == Cat::Branch && targetOf(P) == (int)LB) Latches.push_back(blockOf(P));
  for (auto &E : BackEdges) if (E.second == H) Latches.push_back(E.first);
  BodyB = backReach(Latches, H);
  BodyB[H] = 1;
  if (getenv("PPSIM_DEBUG_LOOP")) // the loop's blocks
    for (size_t B = 0; B < BodyB.size(); ++B)
      if (BodyB[B]) fprintf(stderr, "loop block %zu: lines %u-%u\n", B, I[BStart[B]].Line, I[BLast[B]].Line);
  // reach the header
  ReachLoop = backReach({H}, -1);
  ReachLoop[H] = 1;
  DistLoop = dist({H}, -1);
  // exits: branches of the body with a successor outside it
  TopExit.assign(End - Begin, 0);
  bool Mfma = false;
  for (unsigned Q = 0; Q < End - Begin; ++Q) { // from the header on, in layout order
    unsigned P = LB + Q < End ? LB + Q : LB + Q - (End - Begin);
    if (!inBody(P)) continue;
    if (I[P].C == Cat::MFMA) Mfma = true;
    if (I[P].C == Cat::Branch && !Mfma) TopExit[P - Begin] = 1;
  }
  // back-edges of loops around the hot loop: CFG edges B -> S to a block on
  // the depth-first search stack whose natural loop contains the header
  // (the outer loop's latch may branch out and fall through back)
  for (auto &E : BackEdges) {
    if (E.second == H) continue;
    std::vector<char> Body = backReach({E.first}, E.second);
    Body[E.second] = 1;
    if (Body[H]) OuterEdges.insert(E);
  }
}

void Flow::setEnds() {
  std::vector<int> Ends;
  for (size_t B = 0; B < BStart.size(); ++B)
    if (I[BLast[B]].In == Internal::Endpgm || (Succ[B].empty() && !(I[BLast[B]].C == Cat::Branch)))
      Ends.push_back((int)B);
  int H = HasLoop ? blockOf(LB) : -1;
  ReachEnd = backReach(Ends, H);
  for (int E : Ends) if (E != H) ReachEnd[E] = 1;
  std::vector<int> E2;
  for (int E : Ends) if (E != H) E2.push_back(E);
  DistEnd = dist(E2, H);
}

// The direction of the conditional branch at Pc. Free decisions where both
// directions are viable set Both (the caller picks: plan, search, default).
bool Flow::decide(const LoopProgress &W, unsigned Pc, int C, Kind &K, bool &Both) const {
  const Inst &In = I[Pc];
  Both = false;
  K = Known;
  if (!In.Conditional) return true;
  int T = targetOf(Pc);
  unsigned F = Pc + 1;
  if (HasLoop && inBody(Pc)) {
    if (T == (int)LB) { K = Forced; return W.VisitPasses < W.VisitTarget; } // back-edge: trip count
    bool TIn = T >= 0 && inBody(T), FIn = inBody(F);
    if (TIn != FIn && C < 0) {
      K = Forced;
      bool Stay = TopExit[Pc - Begin] ? W.VisitPasses <= W.VisitTarget : W.VisitPasses < W.VisitTarget;
      return Stay == TIn;
    }
  }
  if (HasLoop && done(W) && !inBody(Pc)) {
    // after the iterations, a loop around the hot loop (persistent GEMM)
    // is not followed back into it, whatever its condition says
    int B = blockOf(Pc);
    bool OT = T >= 0 && OuterEdges.count({B, blockOf(T)}), OF = F < End && OuterEdges.count({B, blockOf(F)});
    if (OT != OF) { K = Forced; return OF; }
    bool RT = T >= 0 && ReachEnd[blockOf(T)], RF = F < End && ReachEnd[blockOf(F)];
    if (RT != RF) { K = Forced; return RT; }
  }
  if (C >= 0) return C;
  K = Free;
  bool VT = T >= 0 && viable(W, T), VF = F < End && viable(W, F);
  if (VT && VF) {
    // both: the fall-through, where LLVM lays out the guarded code (the
    // prologue's loads, the epilogue's last K steps), so it is executed
    // and checked; the path search revises it when it leads nowhere
    Both = true;
    return false;
  }
  return VT && !VF;
}

// After the wave issued Pc and goes to Next: iteration bookkeeping.
LoopStep Flow::advance(LoopProgress &W, unsigned Pc, unsigned Next) const {
  LoopStep Step;
  if (!HasLoop) return Step;
  if (Pc == LB) {
    if (!W.InLoop) {
      W.InLoop = true;
      ++W.Visits;
      W.VisitPasses = 0;
      W.VisitTarget = std::max(0, std::min(PerVisit, N - W.Iters));
    }
    ++W.VisitPasses;
    if (W.VisitPasses <= W.VisitTarget && W.Iters < N) { ++W.Iters; Step.IterationStarted = true; }
  }
  if (W.InLoop && inBody(Pc) && !inBody(Next)) {
    W.InLoop = false;
    if (W.Iters >= N && !W.Exited) {
      W.Exited = true;
      Step.LoopLeft = true;
    } else if (W.Iters < N && W.VisitPasses < W.VisitTarget) {
      const Inst &In = I[Pc];
      W.Why = "it left the loop at line " + std::to_string(In.Line) + " '" + In.Text + "' after " +
              std::to_string(W.VisitPasses) + " iteration(s) of visit " + std::to_string(W.Visits) +
              (W.LastBranch == (int)Pc && W.LastBranchKnown ? " (the model knows the branch's condition)" : "");
    }
  }
  return Step;
}

// The path search: runs one wave's values alone (no timing) through the
// kernel with the Flow rules and returns the directions of its free
// decisions, in order. Where both directions of a data-dependent branch can
// still reach the target, it tries the fall-through first and, if the wave
// later reaches a place from which the hot loop (after the loop: the end)
// can no longer be reached -- e.g. a second branch on a flag the first one's
// path set -- it goes back to the latest such branch and takes the other way.
// Returns false (with Why) when no path runs the loop's iterations to the end.
bool planWave(const Flow &F, const WaveValues &V0, unsigned Pc0, long Budget, std::vector<char> &Plan, std::string &Why) {
  // the wave's values and loop progress (no timing)
  struct State {
    WaveValues V;
    LoopProgress L;
  };
  struct Frame { State S; size_t PlanLen; unsigned Pc; bool Done; bool First; };
  std::vector<Frame> St;
  State W{V0, LoopProgress()};
  unsigned Pc = Pc0;
  int Forced = -1; // the alternative direction after a backtrack
  std::map<std::pair<unsigned, bool>, int> Seen; // two-way decisions per branch and phase
  long Steps = 0;
  int Backtracks = 0;
  Plan.clear();
  auto DeadWhy = [&](unsigned At) {
    if (!Why.empty()) return;
    std::string S = "no path found: ";
    if (W.L.LastBranch >= 0) {
      const Inst &B = F.I[W.L.LastBranch];
      S += "the branch at line " + std::to_string(B.Line) + " '" + B.Text + "'" +
           (W.L.LastBranchKnown ? " (its condition is known to the model)" : " (data-dependent)") + " leads to ";
    } else S += "the wave reaches ";
    S += At < F.End ? "line " + std::to_string(F.I[At].Line) : std::string("the kernel's end");
    S += F.done(W.L) ? ", from where the kernel's end cannot be reached"
                   : ", from where the loop cannot be reached";
    Why = S;
  };
  while (true) {
    bool Dead = false;
    if (++Steps > Budget) { if (Why.empty()) Why = "the path search gave up after " + std::to_string(Budget) + " instructions"; return false; }
    if (Pc >= F.End) {
      if (F.done(W.L)) return true;
      Dead = true;
    } else {
      const Inst &In = F.I[Pc];
      unsigned Next = Pc + 1;
      if (In.In == Internal::Endpgm) {
        if (F.done(W.L)) return true;
        Dead = true;
      } else if (In.C != Cat::Internal) {
        if (In.C == Cat::Unknown && (In.Mnem.find("setpc") != std::string::npos || In.Mnem.find("swappc") != std::string::npos)) {
          Why = "line " + std::to_string(In.Line) + ": indirect branch '" + In.Text + "' cannot be followed";
          return false;
        }
        applyValues(W.V, In);
        if (In.C == Cat::Branch) {
          int C = branchCond(W.V, In);
          Flow::Kind K;
          bool Both;
          bool Taken = F.decide(W.L, Pc, C, K, Both);
          if (K == Flow::Free) {
            if (Forced >= 0) { Taken = Forced; Forced = -1; }
            else if (Both) {
              // a branch decided over and over (a loop on unknown data that
              // is not the hot loop): take the shorter way to the goal
              if (++Seen[{Pc, F.done(W.L)}] > 16) Taken = F.shorter(W.L, Pc);
              St.push_back({W, Plan.size(), Pc, F.done(W.L), Taken});
            }
            Plan.push_back(Taken);
          }
          if (C < 0) assumeCond(W.V, In, Taken);
          W.L.LastBranch = (int)Pc;
          W.L.LastBranchKnown = C >= 0;
          if (Taken) {
            if (In.Target < 0) { Why = "line " + std::to_string(In.Line) + ": branch target '" + In.TargetLabel + "' not found"; return false; }
            Next = In.Target;
          }
        }
      }
      if (!Dead) {
        F.advance(W.L, Pc, Next);
        Pc = Next;
        Dead = !F.viable(W.L, Pc);
      }
    }
    if (!Dead) continue;
    DeadWhy(Pc);
    // back to the latest two-way decision of the same phase
    bool DoneNow = F.done(W.L);
    while (!St.empty() && St.back().Done != DoneNow && DoneNow) St.pop_back();
    if (St.empty() && DoneNow) { Why.clear(); return true; } // the loop ran: the rest uses the default rule
    if (St.empty() || ++Backtracks > 256) return false;
    Frame Fr = std::move(St.back());
    St.pop_back();
    W = std::move(Fr.S);
    Pc = Fr.Pc;
    Plan.resize(Fr.PlanLen);
    Forced = !Fr.First; // the other direction than the one tried first
    // re-run the branch instruction itself with the alternative
    W.L.LastBranch = -1;
    // (values of a branch: none; the loop above re-applies it)
  }
}

} // namespace ppsim
