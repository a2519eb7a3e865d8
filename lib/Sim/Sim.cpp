//===- Sim.cpp - pingpong-sim: what to run, and running it -----------------===//
//
// simulate() sets a run up -- the kernel, its hot loop and clusters, the
// workgroup shape, the kernel arguments, every wave's initial state and the
// path search's directions -- then hands the waves to the Pipeline (the clock
// loop) with the listeners the mode needs, and makes the result
// (Results.cpp). docs/cycle-model.md has the rules and the parameter table;
// Params.h holds the numbers.
//
//===----------------------------------------------------------------------===//
#include "pingpong/Sim/Sim.h"
#include "Flow.h"
#include "Listeners.h"
#include "Pipeline.h"
#include "Results.h"
#include "Floors.h"
#include "Values.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <memory>

namespace ppsim {

const char *stallName(int S) {
  switch (S) {
  case StVmcnt: return "waitcnt vmcnt";
  case StLgkmcnt: return "waitcnt lgkmcnt";
  case StBarrier: return "barrier";
  case StMfmaBusy: return "MFMA pipe busy";
  case StDependency: return "dependency";
  case StArbHigher: return "lost arbitration (higher priority)";
  case StArbOlder: return "lost arbitration (older wave)";
  case StNop: return "s_nop/s_sleep";
  case StValuBlocked: return "VALU blocked by non-coexec MFMA";
  case StLdsQueue: return "LDS request queue full";
  }
  return "?";
}

const char *stallKey(int S) {
  switch (S) {
  case StVmcnt: return "waitcnt_vmcnt";
  case StLgkmcnt: return "waitcnt_lgkmcnt";
  case StBarrier: return "barrier";
  case StMfmaBusy: return "mfma_pipe_busy";
  case StDependency: return "dependency";
  case StArbHigher: return "lost_arbitration_priority";
  case StArbOlder: return "lost_arbitration_age";
  case StNop: return "nop_sleep";
  case StValuBlocked: return "valu_blocked_by_mfma";
  case StLdsQueue: return "lds_queue_full";
  }
  return "unknown";
}

double l2ReuseRule(long M, long N, long BM, long BN, std::string &Why) {
  // Fraction of A bytes that miss: each A tile is re-read by N/BN workgroups,
  // only the first read misses. Likewise B with M/BM.
  double MissA = std::min(1.0, (double)BN / N), MissB = std::min(1.0, (double)BM / M);
  double Miss = (BM * MissA + BN * MissB) / (double)(BM + BN);
  char Buf[512];
  snprintf(Buf, sizeof Buf,
           "gemm %ldx%ld, tile %ldx%ld: A tile read by N/BN = %.4g workgroups, B tile by M/BM = %.4g; "
           "miss = (BM*BN/N + BN*BM/M)/(BM+BN) = (%ld*%.6g + %ld*%.6g)/%ld = %.6g, L2 hit rate %.6g",
           M, N, BM, BN, (double)N / BN, (double)M / BM, BM, MissA, BN, MissB, BM + BN, Miss, 1 - Miss);
  Why = Buf;
  return 1 - Miss;
}

namespace {

bool fail(SimError &E, Errc Code, std::string Message) {
  E.Code = Code;
  E.Message = std::move(Message);
  return false;
}

// --kernel NAME, or the first kernel.
const KernelInfo *findKernel(const Program &P, const SimOptions &O, SimError &E) {
  if (O.Kernel.empty())
    return &P.Kernels[0];
  for (auto &KI : P.Kernels)
    if (KI.Name == O.Kernel) return &KI;
  std::string M = "kernel '" + O.Kernel + "' not found; kernels in " + P.File + ":";
  for (auto &KI : P.Kernels) M += " " + KI.Name;
  fail(E, Errc::KernelNotFound, M);
  return nullptr;
}

// The hot loop's closing branch, or the last back-edge to --loop LABEL; -1 if
// none. Of the innermost loops with MFMAs (no MFMA loop inside), the one with
// the most MFMAs per iteration, then the shortest: a loop the user unrolled
// (tl.range's loop_unroll_factor) comes with a remainder loop of one K step
// that runs at most a few times, and the unrolled loop is where the K steps run.
int findBackEdge(const Program &P, const KernelInfo &K, const SimOptions &O) {
  const auto &I = P.Insts;
  struct Candidate { unsigned Head, BackEdge; int Mfmas; };
  std::vector<Candidate> Loops;
  int LastToLabel = -1;
  for (unsigned J = K.Begin; J < K.End; ++J) {
    if (I[J].C != Cat::Branch || I[J].Target < (int)K.Begin || I[J].Target > (int)J) continue;
    if (!O.Loop.empty()) {
      if (I[J].TargetLabel == O.Loop) LastToLabel = J;
      continue;
    }
    // a backward branch over s_endpgm joins a block laid out after the end
    // (a cold path), not a loop
    unsigned H = I[J].Target;
    int Mf = 0;
    bool OverEnd = false;
    for (unsigned X = H; X <= J; ++X) {
      Mf += I[X].C == Cat::MFMA;
      OverEnd |= I[X].Mnem == "s_endpgm";
    }
    if (Mf > 0 && !OverEnd) Loops.push_back({H, J, Mf});
  }
  if (!O.Loop.empty()) return LastToLabel;
  auto Contains = [](const Candidate &Outer, const Candidate &Inner) {
    return &Outer != &Inner && Outer.Head <= Inner.Head && Inner.BackEdge <= Outer.BackEdge;
  };
  const Candidate *Best = nullptr;
  for (const Candidate &L : Loops) {
    if (std::any_of(Loops.begin(), Loops.end(),
                    [&](const Candidate &In) { return Contains(L, In); }))
      continue;
    if (!Best || L.Mfmas > Best->Mfmas ||
        (L.Mfmas == Best->Mfmas && L.BackEdge - L.Head < Best->BackEdge - Best->Head))
      Best = &L;
  }
  return Best ? (int)Best->BackEdge : -1;
}

// The loop body's clusters in layout order from the header (a rotated loop's
// blocks before the header come last): a new one at every s_setprio, every
// s_barrier and after every '; sched_barrier' line. ClusterOf: per
// instruction, its cluster (-1 outside the loop).
void buildClusters(const Program &P, const KernelInfo &K, const Flow &F, unsigned LB, SimResult &R,
                   std::vector<int> &ClusterOf) {
  const auto &I = P.Insts;
  ClusterOf.assign(I.size(), -1);
  const unsigned KLen = K.End - K.Begin;
  for (unsigned Q = 0; Q < KLen; ++Q) {
    unsigned X = LB + Q < K.End ? LB + Q : LB + Q - KLen;
    if (!F.inBody(X)) continue;
    if (X == LB || I[X].ClusterStart) {
      ClusterInfo C; C.Begin = X; C.End = X + 1;
      R.Clusters.push_back(C);
    }
    auto &C = R.Clusters.back();
    C.End = X + 1;
    ClusterOf[X] = (int)R.Clusters.size() - 1;
    C.Mfmas += I[X].C == Cat::MFMA; C.Lds += I[X].C == Cat::LDS; C.Vmem += I[X].C == Cat::VMEM;
    C.Valu += I[X].C == Cat::VALU; C.Salu += I[X].C == Cat::SALU || I[X].C == Cat::SMEM;
  }
  for (size_t C = 0; C < R.Clusters.size(); ++C) {
    auto &CI = R.Clusters[C];
    const Inst &First = I[CI.Begin];
    std::string L = "C" + std::to_string(C) + "@" + std::to_string(First.Line);
    if (First.Mnem == "s_setprio") L += " prio" + std::to_string(First.Imm);
    else if (First.Mnem == "s_barrier") L += " barrier";
    std::string Parts;
    auto Add = [&](int N, const char *S) { if (N) Parts += " " + std::to_string(N) + S; };
    Add(CI.Mfmas, "mfma"); Add(CI.Lds, "ds"); Add(CI.Vmem, "vmem"); Add(CI.Valu, "valu"); Add(CI.Salu, "salu");
    CI.Label = L + Parts;
  }
}

// The workgroup shape (precedence: flags > .reqd_workgroup_size >
// .max_flat_workgroup_size > 8 waves) and the register occupancy warning.
bool workgroupShape(const KernelInfo &K, const SimOptions &O, const TargetParams &TP, SimResult &R, SimError &E) {
  int Wgs = O.WorkgroupsPerCu > 0 ? O.WorkgroupsPerCu : 1;
  int WavesPerWg;
  if (O.WavesPerWorkgroup > 0) {
    WavesPerWg = O.WavesPerWorkgroup;
    R.WgSource = "--waves-per-workgroup";
  } else if (O.WavesPerSimd > 0) {
    int Total = TP.NumSimds * O.WavesPerSimd;
    if (Total % Wgs) return fail(E, Errc::BadShape, "--waves-per-simd x 4 is not divisible by --workgroups-per-cu");
    WavesPerWg = Total / Wgs;
    R.WgSource = "--waves-per-simd/--workgroups-per-cu";
  } else if (K.ReqdWG > 0) {
    WavesPerWg = (K.ReqdWG + 63) / 64;
    R.WgSource = ".reqd_workgroup_size metadata";
  } else if (K.MaxFlatWG > 0) {
    WavesPerWg = (K.MaxFlatWG + 63) / 64;
    R.WgSource = ".max_flat_workgroup_size metadata (upper bound, assumed launched)";
  } else {
    WavesPerWg = 8;
    R.WgSource = "default (8 waves: 2 per SIMD)";
  }
  if (WavesPerWg < 1 || WavesPerWg > 16)
    return fail(E, Errc::BadShape, "waves per workgroup must be 1..16 (got " + std::to_string(WavesPerWg) + ")");
  R.WavesPerWg = WavesPerWg;
  R.WgsAsked = Wgs;
  // How many such workgroups the CU holds: wave slots, the VGPR file (one per
  // lane for arch and acc registers on gfx942/gfx950: .vgpr_count is already
  // their total, LLVM's NumVGPRsForWavesPerEU; allocated in granules of 8),
  // and LDS (static + --lds-bytes). A workgroup's waves spread over the SIMDs.
  int Fit = TP.NumSimds * TP.MaxWavesPerSimd / WavesPerWg;
  std::string Limit = Fit < Wgs ? std::to_string(TP.NumSimds * TP.MaxWavesPerSimd) + " wave slots per CU" : "";
  if (K.VgprCount > 0) {
    int Alloc = ((K.VgprCount + 7) / 8) * 8;
    int WavesFit = std::min(TP.MaxWavesPerSimd, TP.VgprsPerSimdLane / std::max(Alloc, 8));
    int ByVgprs = (WavesPerWg + TP.NumSimds - 1) / TP.NumSimds > WavesFit ? 0 : WavesFit * TP.NumSimds / WavesPerWg;
    if (ByVgprs < Fit) {
      Fit = ByVgprs;
      Limit = std::to_string(Alloc) + " VGPRs per wave: " + std::to_string(WavesFit) + " wave" +
              (WavesFit == 1 ? "" : "s") + " per SIMD (" + std::to_string(TP.VgprsPerSimdLane) + " per lane)";
    }
  }
  const pingpong::target::TargetFacts *TF = pingpong::target::factsFor(TP.Name);
  long Lds = (long)K.GroupSegmentBytes + O.DynamicLdsBytes;
  if (Lds > 0 && TF) {
    int ByLds = (int)(TF->LDSBytesPerCU / Lds);
    if (ByLds < Fit) {
      Fit = ByLds;
      Limit = std::to_string(Lds) + " B of LDS per workgroup (" + std::to_string(TF->LDSBytesPerCU) + " per CU)";
    }
  }
  R.WgsFit = Fit;
  if (Wgs > Fit) {
    R.OccupancyLimit = Limit;
    std::string Asked = std::to_string(Wgs) + " workgroup" + (Wgs == 1 ? "" : "s") + " of " +
                        std::to_string(WavesPerWg) + " waves" + (Wgs == 1 ? " does" : " do");
    if (O.OccupancyMode == SimOptions::Occupancy::Ignore || Fit == 0) {
      if (O.OccupancyMode != SimOptions::Occupancy::Ignore)
        return fail(E, Errc::BadShape, "one workgroup of " + std::to_string(WavesPerWg) +
                                           " waves does not fit on a CU: " + Limit);
      R.Warnings.push_back(Asked + " not fit on a CU (" + Limit + "): only " + std::to_string(Fit) +
                           " fit, simulating " + std::to_string(Wgs) + " (--occupancy ignore)");
    } else if (O.OccupancyMode == SimOptions::Occupancy::Check) {
      return fail(E, Errc::BadShape, Asked + " not fit on a CU (" + Limit + "): only " + std::to_string(Fit) +
                                         " fit; --occupancy fit runs those and reports the CU's time for " +
                                         std::to_string(Wgs) + ", --occupancy ignore simulates " +
                                         std::to_string(Wgs) + " anyway");
    } else {
      Wgs = Fit;
    }
  }
  R.Wgs = Wgs;
  R.WavesPerSimd = (WavesPerWg * Wgs + TP.NumSimds - 1) / TP.NumSimds;
  return true;
}

// The kernarg segment's known bytes (-1: unknown): the hidden arguments the
// model knows and every --arg; the inputs are listed in R.Inputs.
bool kernargBytes(const KernelInfo &K, const SimOptions &O, int WavesPerWg, std::vector<int16_t> &Kernarg,
                  SimResult &R, SimError &E) {
  size_t Size = std::max<size_t>(K.KernargSize, 256);
  for (auto &A : K.Args) Size = std::max<size_t>(Size, A.Offset + A.Size);
  Kernarg.assign(Size, -1);
  auto Put = [&](unsigned Off, unsigned Bytes, uint64_t V) {
    for (unsigned B = 0; B < Bytes && B < 8 && Off + B < Kernarg.size(); ++B) Kernarg[Off + B] = (V >> (8 * B)) & 0xff;
  };
  // hidden arguments the model knows: the workgroup size (1-D), 1 grid dimension
  for (auto &A : K.Args) {
    if (A.ValueKind == "hidden_group_size_x") Put(A.Offset, A.Size, (uint64_t)WavesPerWg * 64);
    else if (A.ValueKind == "hidden_group_size_y" || A.ValueKind == "hidden_group_size_z") Put(A.Offset, A.Size, 1);
    else if (A.ValueKind == "hidden_remainder_x" || A.ValueKind == "hidden_remainder_y" ||
             A.ValueKind == "hidden_remainder_z") Put(A.Offset, A.Size, 0);
    else if (A.ValueKind == "hidden_grid_dims") Put(A.Offset, A.Size, 1);
  }
  for (auto &NV : O.Args) {
    const KernArg *Hit = nullptr;
    for (auto &A : K.Args) if (!A.Name.empty() && A.Name == NV.first) Hit = &A;
    unsigned Off = 0, Bytes = 4;
    if (Hit) { Off = Hit->Offset; Bytes = Hit->Size ? Hit->Size : 4; }
    else {
      char *End = nullptr;
      unsigned long X = strtoul(NV.first.c_str(), &End, 0);
      if (NV.first.empty() || *End) {
        std::string M = "--arg " + NV.first + ": no argument of that name in the metadata of " + K.Name + "; arguments:";
        for (auto &A : K.Args)
          M += " " + (A.Name.empty() ? std::string("<unnamed>") : A.Name) + "@" + std::to_string(A.Offset) + "(" +
               std::to_string(A.Size) + " B, " + A.ValueKind + ")";
        if (K.Args.empty()) M += " none (no .args metadata; give the byte offset instead of a name)";
        return fail(E, Errc::BadArgument, M);
      }
      Off = (unsigned)X;
      for (auto &A : K.Args) if (A.Offset == Off) { Hit = &A; Bytes = A.Size ? A.Size : 4; }
    }
    char *End = nullptr;
    const char *V = NV.second.c_str();
    uint64_t Val = *V == '-' ? (uint64_t)strtoll(V, &End, 0) : strtoull(V, &End, 0);
    if (NV.second.empty() || *End)
      return fail(E, Errc::BadArgument, "--arg " + NV.first + "=" + NV.second + ": the value is not an integer");
    if (Off + Bytes > Kernarg.size()) Kernarg.resize(Off + Bytes, -1);
    Put(Off, Bytes, Val);
    R.Inputs.push_back("argument " + NV.first + (Hit && Hit->Name != NV.first ? " (" + Hit->Name + ")" : "") +
                       " at kernarg offset " + std::to_string(Off) + " = " + NV.second);
  }
  if (K.KernargSgpr >= 0)
    R.Inputs.push_back("kernarg segment pointer in s[" + std::to_string(K.KernargSgpr) + ":" +
                       std::to_string(K.KernargSgpr + 1) + "]");
  if (K.WgIdXSgpr >= 0)
    R.Inputs.push_back("workgroup id x in s" + std::to_string(K.WgIdXSgpr) +
                       (O.WorkgroupId.empty() ? std::string(" = the workgroup's index on the CU (0, 1, ...)")
                                              : " = " + std::to_string(O.WorkgroupId[0]) +
                                                    " + the workgroup's index on the CU (--workgroup-id)"));
  if (O.WorkgroupId.size() > 1 && K.WgIdYSgpr >= 0)
    R.Inputs.push_back("workgroup id y in s" + std::to_string(K.WgIdYSgpr) + " = " + std::to_string(O.WorkgroupId[1]));
  if (O.WorkgroupId.size() > 2 && K.WgIdZSgpr >= 0)
    R.Inputs.push_back("workgroup id z in s" + std::to_string(K.WgIdZSgpr) + " = " + std::to_string(O.WorkgroupId[2]));
  for (auto &SV : O.Sgprs)
    R.Inputs.push_back("s" + std::to_string(SV.first) + " = " + std::to_string(SV.second) + " (--sgpr)");
  return true;
}

// Every wave of the CU at the kernel's entry (AMDGPUUsage "initial kernel
// execution state", as far as the model knows it), with the path search's
// directions for its data-dependent branches.
void initialWaves(const Program &P, const KernelInfo &K, const Flow &F, const SimOptions &O, const TargetParams &TP,
                  const SimResult &R, const std::vector<int16_t> &Kernarg, std::vector<WaveState> &Waves) {
  size_t NumUnits = 0;
  for (auto &In : P.Insts) {
    for (unsigned U : In.DefUnits) NumUnits = std::max<size_t>(NumUnits, U + 1);
    for (unsigned U : In.UseUnits) NumUnits = std::max<size_t>(NumUnits, U + 1);
  }
  Waves.reserve(R.Wgs * R.WavesPerWg);
  for (int G = 0; G < R.Wgs; ++G)
    for (int Wi = 0; Wi < R.WavesPerWg; ++Wi) {
      int Gid = G * R.WavesPerWg + Wi;
      Waves.emplace_back(G, Wi, Gid, Gid % TP.NumSimds, NumUnits);
      WaveState &W = Waves.back();
      W.Pc = K.Begin;
      auto V0 = std::make_shared<VVal>();
      for (int L = 0; L < 64; ++L) V0->L[L] = L + 64 * Wi; // workitem id x (1-D workgroup)
      W.Val.V[0] = std::move(V0);
      W.Val.Kernarg = &Kernarg;
      if (K.KernargSgpr >= 0) { W.Val.setS(K.KernargSgpr, true, 0); W.Val.setS(K.KernargSgpr + 1, true, KernargHi); }
      const uint32_t WgX = (O.WorkgroupId.empty() ? 0 : O.WorkgroupId[0]) + G;
      if (K.WgIdXSgpr >= 0) W.Val.setS(K.WgIdXSgpr, true, WgX);
      if (K.WgIdYSgpr >= 0 && O.WorkgroupId.size() > 1) W.Val.setS(K.WgIdYSgpr, true, O.WorkgroupId[1]);
      if (K.WgIdZSgpr >= 0 && O.WorkgroupId.size() > 2) W.Val.setS(K.WgIdZSgpr, true, O.WorkgroupId[2]);
      for (auto &SV : O.Sgprs) W.Val.setS(SV.first, true, SV.second);
      std::string Why;
      const WaveValues Entry = W.Val;
      if (!planWave(F, W.Val, W.Pc, std::max<long>(O.MaxInstrsPerWave, 1), W.Plan, Why)) {
        W.Plan.clear();
        W.Loop.Why = Why;
        // The workgroup id decides? Search again with it unknown: if the loop
        // is reached then, its entry depends on the workgroup id (a causal
        // attention loop `for n in range(0, pid * BM, BN)` is never entered by
        // workgroup 0). Either way, name the SGPR and the option.
        if (K.WgIdXSgpr >= 0) {
          WaveValues Unk = Entry;
          Unk.setS(K.WgIdXSgpr, false, 0);
          if (K.WgIdYSgpr >= 0) Unk.setS(K.WgIdYSgpr, false, 0);
          if (K.WgIdZSgpr >= 0) Unk.setS(K.WgIdZSgpr, false, 0);
          std::vector<char> Plan2;
          std::string Why2;
          unsigned Pc2 = K.Begin;
          std::string Sg = "s" + std::to_string(K.WgIdXSgpr);
          if (planWave(F, Unk, Pc2, std::max<long>(O.MaxInstrsPerWave, 1), Plan2, Why2))
            W.Loop.Why += "; the loop's entry depends on the workgroup id: workgroup id x is in " + Sg + " = " +
                          std::to_string(WgX) + " here; time it at another workgroup with --workgroup-id X[,Y,Z]";
          else
            W.Loop.Why += " (workgroup id x is in " + Sg + " = " + std::to_string(WgX) + "; --workgroup-id sets it)";
        }
      }
    }
}

} // namespace

bool simulate(const Program &P, const SimOptions &O, SimResult &R, SimError &E) {
  TargetParams TP = O.ClockGHz > 0 ? atClock(paramsFor(P.Mcpu), O.ClockGHz) : paramsFor(P.Mcpu);
  if (O.GemmLoad) TP = withGemmLoad(TP, O.GemmReReadMiB);
  R.ClockGHz = TP.EngineClockGHz;
  const KernelInfo *K = findKernel(P, O, E);
  if (!K) return false;
  R.Kernel = K->Name;
  R.Mcpu = P.Mcpu;
  const auto &I = P.Insts;

  // ---- the hot loop (verify runs a kernel without one straight: no
  // instruction is in a body, no branch is forced)
  int BestBE = findBackEdge(P, *K, O);
  const bool NoLoop = BestBE < 0 && O.Trace && O.Loop.empty();
  if (BestBE < 0 && !NoLoop) {
    if (!O.Loop.empty())
      return fail(E, Errc::NoLoop, "no back-edge branch to label '" + O.Loop + "' in kernel " + K->Name);
    return fail(E, Errc::NoLoop, "no loop containing MFMA instructions in kernel " + K->Name + " (lines " +
                                     std::to_string(I[K->Begin].Line) + "-" + std::to_string(I[K->End - 1].Line) +
                                     "); use --loop LABEL to pick a loop");
  }
  const int N = std::max(1, O.Iterations);
  Flow F(I);
  F.build(K->Begin, K->End);
  const unsigned BE = NoLoop ? ~0u : (unsigned)BestBE,
                 LB = NoLoop ? ~0u : F.cfgHeader(BE, (unsigned)I[BE].Target);
  R.HasLoop = !NoLoop;
  if (!NoLoop) {
    R.LoopLabel = I[BE].TargetLabel;
    if (LB != (unsigned)I[BE].Target)
      for (auto &KV : P.Labels)
        if (KV.second == LB && (R.LoopLabel == I[BE].TargetLabel || KV.first.compare(0, 4, ".LBB") == 0)) R.LoopLabel = KV.first;
    R.LoopBegin = LB; R.LoopEnd = BE;
    R.LoopLineBegin = I[LB].Line; R.LoopLineEnd = I[BE].Line;
  }
  F.N = N;
  F.PerVisit = O.IterationsPerVisit > 0 ? std::min(O.IterationsPerVisit, N) : N;
  if (!NoLoop) {
    F.setLoop(LB, BE);
    bool Exit = false;
    for (unsigned X = K->Begin; X < K->End; ++X) {
      if (!F.inBody(X) || I[X].C != Cat::Branch) continue;
      int T = F.targetOf(X);
      if ((I[X].Conditional && !F.inBody(X + 1)) || (T >= 0 && !F.inBody(T)) || T < 0) Exit = true;
    }
    if (!Exit)
      return fail(E, Errc::LoopWithoutExit, "loop " + R.LoopLabel + " (line " + std::to_string(I[BE].Line) +
                                                ") has no branch that leaves it");
  }
  F.setEnds();
  R.LoopBody.assign(I.size(), 0);
  for (unsigned X = K->Begin; X < K->End; ++X) R.LoopBody[X] = F.inBody(X);
  for (unsigned X = K->Begin; !NoLoop && X < K->End; ++X) R.MfmasPerIter += F.inBody(X) && I[X].C == Cat::MFMA;
  std::vector<int> ClusterOf(I.size(), -1);
  if (!NoLoop) buildClusters(P, *K, F, LB, R, ClusterOf);

  // ---- workgroups, iterations, the steady-state window, the L2 rule
  if (!workgroupShape(*K, O, TP, R, E)) return false;
  R.Iterations = N;
  R.L2HitRate = O.L2HitRate;
  R.L2Rule = O.L2Rule;
  if (O.GemmLoad && TP.LoadedRoundTrip > 0) {
    char Buf[160];
    snprintf(Buf, sizeof Buf, "; loaded round trip %d clk (operands re-read: %s)",
             loadedRoundTrip(TP, O.GemmReReadMiB),
             O.GemmReReadMiB >= 0 ? (std::to_string((long)std::lround(O.GemmReReadMiB)) + " MiB").c_str()
                                 : "not stated, --gemm M,N,K --elem-bytes B");
    R.L2Rule += Buf;
  }
  // Steady state: from the start of iteration Warmup to the start of the last
  // iteration (header to header). With fewer than 3 iterations the loop exit is
  // the end mark.
  R.Warmup = N >= 8 ? N / 4 : (N >= 3 ? 1 : 0);
  R.LastIter = N - 1 > R.Warmup ? N - 1 : N;

  // ---- the waves
  std::vector<int16_t> Kernarg;
  if (!kernargBytes(*K, O, R.WavesPerWg, Kernarg, R, E)) return false;
  std::vector<WaveState> Waves;
  initialWaves(P, *K, F, O, TP, R, Kernarg, Waves);

  // ---- the run, with the listeners of the mode: verify records traces;
  // run records what the report, the JSON and the timeline show
  Pipeline Pipe(P, *K, F, O, TP, Waves, R);
  Recorders Rec;
  IterationTimes Iters(Waves.size());
  BranchNotes Notes;
  UnknownInstructions Unknown;
  StallAccounting Stalls(Waves.size());
  TimelineRecorder Timeline(Waves.size());
  MfmaBusy Mfma(TP.NumSimds);
  UnitDemand Units(TP, Waves.size());
  ClusterStats Clusters(Waves.size(), ClusterOf);
  LoopLoads Loads;
  TraceRecorder Trace(Waves.size());
  IssueLog Issues(Waves.size());
  Rec.Iterations = &Iters;
  for (SimListener *L : std::initializer_list<SimListener *>{&Iters, &Notes, &Unknown})
    Pipe.addListener(L);
  if (O.Trace) {
    Pipe.addListener(&Trace);
    if (O.TraceLanes) Pipe.recordLdsLanes();
    else Pipe.recordLdsBytes();
    Rec.Trace = &Trace;
  } else {
    for (SimListener *L : std::initializer_list<SimListener *>{&Stalls, &Timeline, &Mfma, &Clusters, &Loads, &Units, &Issues})
      Pipe.addListener(L);
    Rec.Stalls = &Stalls;
    Rec.Timeline = &Timeline;
    Rec.Mfma = &Mfma;
    Rec.Units = &Units;
    Rec.Clusters = &Clusters;
  }
  bool Ran = Pipe.run(E);
  R.Unknown = std::move(Unknown.Lines);
  if (!Ran) return false;
  R.TotalCycles = Pipe.clock();
  Notes.finish(R.Warnings);
  for (const WaveState &W : Waves) {
    WaveResult WR;
    WR.Wg = W.Wg; WR.Id = W.Id; WR.Simd = W.Simd;
    WR.EndTime = W.EndTime;
    WR.Instrs = (int)W.Issued;
    WR.IterStart = Iters.starts(W.Gid);
    if (O.Trace) {
      WR.Trace = std::move(Trace.Trace[W.Gid]);
      WR.LdsAddrs = std::move(Trace.Lds[W.Gid]);
      WR.LdsLaneAddrs = std::move(Trace.Lanes[W.Gid]);
    } else {
      std::copy(Stalls.total(W.Gid).begin(), Stalls.total(W.Gid).end(), WR.Stalls);
      WR.Segs = std::move(Timeline.segments(W.Gid));
    }
    R.Waves.push_back(std::move(WR));
  }
  // ---- iterations of the hot loop, per wave: never a silent result
  if (!NoLoop) summariseIterations(Waves, N, I[LB].Line, R);
  if (O.Trace) return true; // verify needs the instruction streams, not the steady state
  R.LoopLoadBytes = Loads.Bytes;
  R.LoopLoads = Loads.Loads;
  R.LoopL2Hits = Loads.L2Hits;
  bool Ok = steadyState(Waves, Rec, TP, N, R.WavesPerWg, R, E);
  if (Ok) latencyFloors(P, TP, Issues, R);
  R.NsPerIter = R.CyclesPerIter / R.ClockGHz;
  R.XdlBusy = std::move(Mfma.intervals());
  return Ok;
}

} // namespace ppsim
