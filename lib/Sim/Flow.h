//===- Flow.h - pingpong-sim: the kernel's CFG and the hot loop's rules ---===//
//
// Control flow of one kernel for every wave: basic blocks, back-edges, the
// hot loop as a natural loop, the rules that steer a wave through it
// (docs/cycle-model.md, "What it does", 3 and 5), and the path search that
// picks the directions of branches on data the model does not know.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SIM_FLOW_H
#define PINGPONG_SIM_FLOW_H

#include "pingpong/Sim/Sim.h"
#include "Values.h"

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ppsim {

// Where one wave stands in the hot loop (the Flow rules read and update it).
struct LoopProgress {
  int Iters = 0, Visits = 0, VisitPasses = 0, VisitTarget = 0; // iterations run; entries; this entry's passes and target
  bool InLoop = false, Exited = false;
  std::string Why;         // why the loop was left early / not reached
  int LastBranch = -1;     // pc of the last branch executed
  bool LastBranchKnown = false;
};

// What one step did to the loop: an iteration started (the header issued
// with iterations left), the wave left the loop after its last iteration.
struct LoopStep {
  bool IterationStarted = false, LoopLeft = false;
};

// The kernel's CFG (basic blocks over its instruction range), the hot loop as
// a natural loop (the blocks that reach one of its back-edges without passing
// its header), and the rules that steer each wave through it:
//  - a conditional back-edge of the hot loop is forced: taken while the
//    current visit has iterations left (--iterations, at most
//    --iterations-per-visit per entry from outside);
//  - another branch that leaves the hot loop, on an unknown condition, stays
//    in the loop while iterations are left; an exit test before the body's
//    first MFMA (in the header: "while (k < K) {...}") exits on the pass after
//    the last iteration, one after it at the end of that iteration;
//  - a back-edge of a loop around the hot loop (persistent GEMM: outer loop
//    over tiles) is not taken once the hot loop ran its iterations;
//  - any other branch on an unknown condition (kernel arguments, loaded
//    values) is a free decision: the direction from which the hot loop's
//    header (after its iterations: the kernel's end, not through the header)
//    can still be reached; where both can, the path search (planWave) picks.
struct Flow {
  const std::vector<Inst> &I;
  unsigned Begin = 0, End = 0;
  bool HasLoop = false;
  unsigned LB = ~0u, BE = ~0u;
  int N = 1, PerVisit = 1;
  std::vector<int> BlockOf;          // pc - Begin -> block
  std::vector<unsigned> BStart, BLast;
  std::vector<std::vector<int>> Succ, Pred;
  std::vector<char> BodyB;           // per block: in the hot loop
  std::vector<char> ReachLoop, ReachEnd; // per block
  std::vector<int> DistLoop, DistEnd;    // per block: blocks on the shortest path (ReachLoop / ReachEnd)
  std::vector<char> TopExit;             // per pc - Begin
  std::set<std::pair<int, int>> OuterEdges; // block edges that go back around a loop enclosing the hot loop
  std::vector<std::pair<int, int>> BackEdges; // CFG back-edges (depth-first search from the entry)

  explicit Flow(const std::vector<Inst> &I) : I(I) {}
  int blockOf(unsigned Pc) const { return Pc >= Begin && Pc < End ? BlockOf[Pc - Begin] : -1; }
  bool inBody(unsigned Pc) const { int B = blockOf(Pc); return HasLoop && B >= 0 && BodyB[B]; }
  int targetOf(unsigned Pc) const {
    int T = I[Pc].Target;
    return T >= (int)Begin && T < (int)End ? T : -1;
  }

  void build(unsigned B0, unsigned E0);

  // the natural loop of header block S: S and the blocks that reach one of
  // its back-edges without passing S
  std::vector<char> naturalLoop(int S) const;

  // The CFG header of the loop that a branch back to an earlier label closes:
  // usually that label; in LLVM's rotated layout (body blocks placed before
  // the header, entered by an s_branch to the header and closed by a
  // fall-through into it) the header of the innermost natural loop that
  // contains both.
  unsigned cfgHeader(unsigned Latch, unsigned TextHeader) const;

  // blocks that reach one of the sources without passing Stop (Stop itself
  // included when it is a source's target: a natural loop)
  std::vector<char> backReach(const std::vector<int> &From, int Stop) const;

  // shortest number of blocks from each block to one of the targets, not
  // through Stop (INT_MAX: unreachable)
  std::vector<int> dist(const std::vector<int> &To, int Stop) const;

  void setLoop(unsigned L, unsigned Be);

  void setEnds();

  bool done(const LoopProgress &W) const { return !HasLoop || W.Iters >= N; }
  // can the wave, at Pc, still get where it has to go?
  bool viable(const LoopProgress &W, unsigned Pc) const {
    int B = blockOf(Pc);
    if (B < 0) return done(W); // ran past the kernel's end
    if (!done(W)) return ReachLoop[B];
    return (W.InLoop && BodyB[B]) || ReachEnd[B];
  }

  enum Kind { Known, Forced, Free };
  // The direction of the conditional branch at Pc. Free decisions where both
  // directions are viable set Both (the caller picks: plan, search, default).
  bool decide(const LoopProgress &W, unsigned Pc, int C, Kind &K, bool &Both) const;
  // The direction with the shorter way to the goal (the path search uses it
  // to leave a loop it keeps going round on unknown data).
  bool shorter(const LoopProgress &W, unsigned Pc) const {
    const std::vector<int> &D = done(W) ? DistEnd : DistLoop;
    int T = targetOf(Pc);
    if (D.empty() || T < 0) return false;
    return D[blockOf(T)] < D[blockOf(Pc + 1)];
  }

  // After the wave issued Pc and goes to Next: iteration bookkeeping.
  LoopStep advance(LoopProgress &W, unsigned Pc, unsigned Next) const;
};

// The path search: the directions of one wave's free decisions, in order,
// from its values at entry (Pc0). Returns false (with Why) when no path runs
// the loop's iterations to the end.
bool planWave(const Flow &F, const WaveValues &V0, unsigned Pc0, long Budget, std::vector<char> &Plan,
              std::string &Why);

} // namespace ppsim

#endif
