//===- Sim.h - pingpong-sim: program representation and simulator ---------===//
//
// The public interface of the cycle model library (lib/Sim), for the tool
// (tools/pingpong-sim) and the unit tests: the program as read
// from the assembly (parseProgram: AsmReader.cpp, InstrBuilder.cpp,
// KernelMeta.cpp), the run (simulate: Sim.cpp, Pipeline.cpp, Flow.cpp,
// Values.cpp, HardwareUnits.cpp, Listeners.cpp, Results.cpp; at run's
// clock: Clock.cpp) and what it returns. The checkers are in Verify.h and
// Addresses.h. docs/cycle-model.md, "Structure", maps the files to the rules.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SIM_SIM_H
#define PINGPONG_SIM_SIM_H

#include "pingpong/Sim/Params.h"
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ppsim {

enum class Cat { VALU, MFMA, VMEM, SALU, SMEM, LDS, Branch, Internal, Unknown };
const char *catName(Cat C);

enum class Internal { None, Waitcnt, Nop, Barrier, Setprio, Sleep, Endpgm, Other };

// A value operand as the value tracker reads it (InstrBuilder builds it from
// the MCInst operand): a register or a run of N consecutive 32-bit registers,
// or an immediate. AGPR aN is V register AgprBase + N (AGPRs share the VGPR
// value map, above the 512 VGPR numbers).
struct Operand {
  enum Kind : uint8_t { None, V, S, M0, Vcc, Exec, Scc, Imm, Other } K = None;
  unsigned Idx = 0, N = 1;
  int64_t Val = 0; // Imm: the MCInst immediate (float inline constants are their bit patterns)
};
constexpr unsigned AgprBase = 1024;

// How a scratch_* instruction addresses the wave's private memory (from its
// opcode: SCRATCH_*_ST, _SADDR, _SVS, or the VGPR-address form).
enum class ScratchAddr : uint8_t { None, VAddr, SAddr, VAddrSAddr };

// One instruction, described once from its MCInst, MCInstrDesc and
// MCRegisterInfo (InstrBuilder.cpp).
struct Inst {
  unsigned Line = 0;          // 1-based line in the input file
  std::string OpName;         // MCInstrInfo name (e.g. V_MFMA_F32_16X16X16F16_vi)
  std::string Mnem;           // mnemonic (MCInstPrinter::getMnemonic), lower case, no _e32/_e64/_sdwa/_dpp suffix
  std::string Text;           // printed instruction (for messages and reports only)
  unsigned NumDefs = 0;       // explicit defs (MCInstrDesc)
  // value operands in assembly order: the defs (NumValDefs, including a VCC
  // the assembly names but the MCInst leaves implicit), then the sources;
  // register or immediate sources only (named immediates are below)
  std::vector<Operand> Vals;
  unsigned NumValDefs = 0;
  // a modifier the value tracker does not model (clamp, omod, op_sel, SDWA or
  // DPP controls, a named immediate on a VALU op)
  bool Modifiers = false;
  // named immediates of memory instructions: offset (DS, FLAT, buffer,
  // SMEM) or offset0/offset1 (ds_read2/write2); bitop3 of v_bitop3
  int64_t Offset = 0, Offset0 = 0, Offset1 = 0;
  unsigned BitOp3 = 0;
  ScratchAddr Scratch = ScratchAddr::None;
  Cat C = Cat::Unknown;
  Internal In = Internal::None;
  std::vector<unsigned> DefUnits, UseUnits; // register units (MCRegisterInfo)
  bool DefsScc = false, DefsExec = false, DefsVcc = false;
  // memory
  bool IsLoad = false, IsStore = false, LdsDma = false, Flat = false;
  unsigned BytesPerLane = 0;
  int Latency = 0;            // clocks, for SMEM (from the sched model)
  // MFMA
  int MfmaCycles = 0;
  bool MfmaCoexec = true;
  std::string CyclesSource;
  // branch
  std::string TargetLabel;
  int Target = -1;
  bool Conditional = false;
  // s_waitcnt (-1 = no wait on that counter), s_nop / s_setprio / s_sleep imm
  int Vm = -1, Lgkm = -1;
  int Imm = 0;
  bool ClusterStart = false;  // s_setprio, s_barrier, or after a "; sched_barrier" line
};

// One kernel argument from the .amdgpu_metadata `.args` list.
struct KernArg {
  std::string Name;      // .name (absent in Triton's and in clang's release output)
  unsigned Offset = 0, Size = 0;
  std::string ValueKind; // by_value, global_buffer, hidden_group_size_x, ...
};

struct KernelInfo {
  std::string Name;
  unsigned Begin = 0, End = 0; // instruction index range [Begin, End)
  unsigned Line = 0;
  int MaxFlatWG = 0;
  int ReqdWG = 0;
  int VgprCount = 0, AgprCount = 0;
  int GroupSegmentBytes = 0;   // .group_segment_fixed_size: static LDS per workgroup
  std::vector<KernArg> Args;   // .amdgpu_metadata .args, in order
  int KernargSize = 0;         // .kernarg_segment_size
  // initial SGPR layout from the .amdhsa_kernel directives (-1: not present)
  int KernargSgpr = -1;        // first SGPR of the kernarg segment pointer
  int WgIdXSgpr = -1;          // workgroup id x (after the user SGPRs)
  int WgIdYSgpr = -1, WgIdZSgpr = -1; // workgroup id y, z (after x, where enabled)
};

struct Program {
  std::string File;
  std::string Mcpu;
  std::vector<Inst> Insts;
  std::map<std::string, unsigned> Labels; // label -> instruction index
  std::vector<KernelInfo> Kernels;
  std::vector<std::string> Warnings;
};

struct ParseOptions {
  std::string File;   // "-": stdin
  // Non-empty: the assembly itself, read instead of File (File names it in
  // messages): a library user's in-memory kernel.
  std::string Source;
  std::string Mcpu; // empty: from .amdgcn_target
};

// Why pingpong-sim could not do what was asked, as a code (callers decide by
// the code, never by the message) and the message for people.
enum class Errc {
  None,
  // reading the input (exit 1)
  Unreadable,        // the file cannot be read
  NoTarget,          // libLLVM has no AMDGPU target / asm parser
  TargetNotModelled, // not gfx942 / gfx950
  TargetMismatch,    // --mcpu disagrees with .amdgcn_target
  Assembler,         // the LLVM AMDGPU assembler rejected the file (its diagnostics are printed)
  NoInstructions,
  // what to run (exit 1)
  KernelNotFound, NoLoop, LoopWithoutExit, BadShape,
  // a command-line value only the model can check: --arg (exit 2)
  BadArgument,
  // the run (exit 1; verify reports Hang and EndlessLoop as a finding)
  Hang,              // the clock limit
  EndlessLoop,       // a wave's instruction budget
  IndirectBranch,    // s_setpc / s_swappc: the target cannot be followed
  MissingLabel,      // a branch to a label that is not in the file
  StuckInLoop,       // a wave did not leave the loop after its iterations
  // the loop did not run as asked: a wave ran fewer iterations (exit 4)
  LoopNotRun,
};

struct SimError {
  Errc Code = Errc::None;
  std::string Message; // parseProgram: the complete lines to print; simulate: the sentence after "FILE: error: "
  bool isHang() const { return Code == Errc::Hang || Code == Errc::EndlessLoop; }
  int exitCode() const { return Code == Errc::BadArgument ? 2 : Code == Errc::LoopNotRun ? 4 : 1; }
};

// Parses the assembly with LLVM's MC layer. Returns false with E set on
// error (the assembler's own diagnostics are printed as they come).
bool parseProgram(const ParseOptions &O, Program &P, SimError &E);

struct SimOptions {
  std::string Kernel;
  std::string Loop;
  int WavesPerSimd = 0;   // 0: not given
  int WorkgroupsPerCu = 0;
  int WavesPerWorkgroup = 0; // 0: not given
  // LDS a launch adds to the static size per workgroup (--lds-bytes: Triton's
  // and HIP's dynamic shared memory; the metadata says 0 for it)
  int DynamicLdsBytes = 0;
  // More workgroups asked than fit on the CU (VGPRs, LDS, wave slots):
  // Check: an error; Fit: run the ones that fit and report the CU's time for
  // the asked number; Ignore: simulate them anyway, with a warning.
  enum class Occupancy { Check, Fit, Ignore } OccupancyMode = Occupancy::Check;
  int Iterations = 16;
  // nested loops: iterations per entry into the hot loop from outside
  // (0: all of --iterations in one visit); the loop around it is followed
  // until the hot loop has run --iterations
  int IterationsPerVisit = 0;
  // kernel argument values: --arg NAME=VALUE (NAME: .name from the metadata,
  // or the byte offset in the kernarg segment) and initial SGPRs (--sgpr N=V)
  std::vector<std::pair<std::string, std::string>> Args;
  std::vector<std::pair<unsigned, uint32_t>> Sgprs;
  // --workgroup-id X[,Y,Z]: workgroup g on the CU gets id x = X + g, y = Y,
  // z = Z (empty: x = g, y and z unknown)
  std::vector<uint32_t> WorkgroupId;
  double L2HitRate = 0.0;
  // The engine clock of the run in GHz (0: the target's peak clock). `run
  // --clock power` finds it from the loop's MFMA busy (powerLimitedClockGHz).
  double ClockGHz = 0;
  // --gemm M,N[,K] with --tile BM,BN: the L2 reuse rule (l2ReuseRule below)
  // sets L2HitRate; L2Rule is the explanation printed in the report.
  std::string L2Rule;
  // --gemm: the whole chip runs this GEMM, so its loads see the loaded round
  // trip (withGemmLoad, Params.h) where one is sourced.
  bool GemmLoad = false;
  // --gemm M,N,K with --elem-bytes: the MiB of operand data the GEMM re-reads
  // (A when N > BN, B when M > BM), which sets the loaded round trip
  // (loadedRoundTrip, Params.h); -1: not stated.
  double GemmReReadMiB = -1;
  long long MaxCycles = 50000000;
  long long MaxInstrsPerWave = 20000000; // more: an endless loop
  // verify: record every wave's executed instruction stream and LDS addresses;
  // a kernel without an MFMA loop runs straight (no forced trip count), and the
  // steady-state statistics are skipped.
  bool Trace = false;
  // addresses: with Trace, also each LDS access's lane addresses (LdsLanes)
  bool TraceLanes = false;
};

enum Stall {
  StVmcnt, StLgkmcnt, StBarrier, StMfmaBusy, StDependency, StArbHigher,
  StArbOlder, StNop, StValuBlocked, StLdsQueue, NumStalls
};
const char *stallName(int S); // for people
const char *stallKey(int S);  // for JSON: snake_case, stable

// The LDS bytes one LDS instruction of one wave touches (verify's buffer rule):
// sorted, merged [lo, hi) intervals over the active lanes, or Known = false
// when the model cannot compute an address (then it stands for all of LDS).
struct LdsBytes {
  bool Known = false;
  std::vector<std::pair<uint32_t, uint32_t>> Iv;
};

// The lane addresses of one LDS access (SimOptions::TraceLanes, for
// `pingpong-sim addresses`): each lane's first byte of every part the
// instruction accesses (ds_read2/write2: two parts; LDS DMA: M0 + offset +
// lane x size), Width bytes from each. Known = false when the address VGPR
// (LDS DMA: M0) is unknown. Exec unknown: every lane counts as active.
struct LdsLanes {
  bool Known = false, ExecKnown = true, M0Known = false;
  uint64_t Exec = ~0ull;
  uint32_t M0 = 0;
  unsigned Width = 0;
  int Iter = 0; // the hot loop's iteration (1-based); 0 before the loop, -1 after it
  std::vector<std::array<uint32_t, 64>> Parts;
};

// One executed instruction of a wave (SimOptions::Trace): the instruction index
// and, for LDS accesses and LDS DMA, an index into WaveResult::LdsAddrs.
struct TraceStep {
  unsigned Pc = 0;
  int Lds = -1;
};

// A bar of the timeline: Kind is a Cat (an issued instruction), SegPassedWait
// (an s_waitcnt / s_barrier that passed) or SegStall + a Stall.
struct Segment { int64_t Begin, End; int Kind; };
constexpr int SegPassedWait = 50, SegStall = 100;

struct ClusterInfo {
  unsigned Begin, End; // instruction indices in the loop body
  std::string Label;
  int Mfmas = 0, Lds = 0, Vmem = 0, Valu = 0, Salu = 0;
};

// One wave's result. The statistics come from the listeners of the mode:
// `run` fills Stalls, LoopStalls, ClusterTime, ClusterStarts and Segs,
// `verify` (SimOptions::Trace) fills Trace and LdsAddrs.
struct WaveResult {
  int Wg = 0, Id = 0, Simd = 0;
  std::vector<int64_t> IterStart; // issue time of the loop header per iteration (+ exit)
  int64_t EndTime = 0;
  int64_t Stalls[NumStalls] = {};       // whole run, clocks
  int64_t LoopStalls[NumStalls] = {};   // steady-state window, clocks
  std::vector<double> ClusterTime;      // clocks per iteration, steady state
  std::vector<std::pair<int64_t, int>> ClusterStarts; // (clock, cluster) on entry
  std::vector<Segment> Segs;            // the timeline
  int Instrs = 0;
  int Iters = 0, Visits = 0;      // iterations of the hot loop run; entries into it
  std::string Why;                // why fewer than asked (empty: all ran)
  std::vector<TraceStep> Trace;   // SimOptions::Trace only
  std::vector<LdsBytes> LdsAddrs;
  std::vector<LdsLanes> LdsLaneAddrs; // SimOptions::TraceLanes: parallel to LdsAddrs
};

struct SimResult {
  std::string Kernel, Mcpu, LoopLabel;
  unsigned LoopBegin = 0, LoopEnd = 0, LoopLineBegin = 0, LoopLineEnd = 0;
  int WavesPerWg = 0, Wgs = 0, WavesPerSimd = 0;
  std::string WgSource;
  // Occupancy: the workgroups asked for, the most that fit on the CU and what
  // limits them ("352 VGPRs per wave: 1 wave per SIMD"; empty: nothing does).
  int WgsAsked = 0, WgsFit = 0;
  std::string OccupancyLimit;
  // CyclesPerIter scaled to the asked workgroups' throughput: the CU runs
  // Wgs tiles' iterations at a time, so WgsAsked of them take
  // CyclesPerIter x WgsAsked / Wgs (equal to CyclesPerIter when all fit).
  double CyclesPerIterAtAsked = 0;
  // Several workgroups whose steady states did not overlap (the older one
  // ran its iterations before the younger got turns): CyclesPerIter is then
  // the sum of their own periods. More --iterations may let them overlap.
  bool WorkgroupsSerial = false;
  int Iterations = 0, Warmup = 0, LastIter = 0; // steady state: iterations [Warmup, LastIter)
  double CyclesPerIter = 0;
  double MfmaBusyPct = 0;
  // The engine clock the run was at, and how it was chosen ("peak",
  // "power-limited", "given"); NsPerIter = CyclesPerIter / ClockGHz.
  double ClockGHz = 0;
  std::string ClockRule;
  double NsPerIter = 0;
  // The same for the resource bound and the floor: a loop at its bound keeps
  // the MFMA pipe busier, so under the power limit it runs at a lower clock.
  double BoundNsPerIter = 0, FloorNsPerIter = 0;
  double MfmaBusySimd[4] = {};
  // What the loop's instructions ask of each shared unit, in clocks per
  // iteration (the scale of CyclesPerIter), and the largest: no order of the
  // same instructions runs an iteration faster than ResourceBound.
  struct UnitLoad { std::string Name; double PerIter; };
  std::vector<UnitLoad> Units;
  double ResourceBound = 0;
  std::string ResourceBoundUnit;
  // The latency floors (Floors.h; docs/cycle-model.md, "Latency floor"), in
  // the same scale, and the loop's floor: the largest of them and the
  // resource bound, with what binds.
  struct InFlight {
    double PerIter = 0;       // the floor: summed request latency per iteration / MaxInFlight
    double Requests = 0;      // requests per iteration (of the wave that sets the floor)
    int MaxInFlight = 0;      // the most its waits let be outstanding
    double MeanLatency = 0;   // clocks per request (by the level each request hit)
  };
  struct Floors {
    double Chain = 0;         // the longest loop-carried dependence chain, clocks per iteration
    int ChainInsts = 0;       // instructions per iteration on it
    std::string ChainWhat;    // "4 MFMA (line 12 v_mfma_...)"
    InFlight Vmem, Lgkm;      // Little's law per counter
    // One wave alone through its own order (waits, dependences, its MFMAs on
    // its pipe, one issue per turn; no other wave, no bandwidth): a floor for
    // this build's schedule, not for any order; reported beside the floors,
    // not part of Floor.
    double WavePath = 0;
    double Latency = 0;       // the largest latency floor
    std::string LatencyWhat;  // "dependence chain", "VMEM in flight", "LDS/SMEM in flight"
    // The barrier-drain bound (Floors.h): a SIMD pair's LDS port clocks per
    // iteration plus an idle gap at each loop barrier that every wave of the
    // pair reaches with its LDS operations drained; 0 where none qualifies.
    double BarrierDrain = 0;
    double DrainPortClocks = 0; // that pair's LDS port clocks per iteration
    double DrainBarriers = 0;   // drained barriers per iteration on it
    double DrainGap = 0;        // clocks the port idles at each
    std::string DrainUnit;      // "LDS port, SIMD pair N"
    std::string DrainNone;      // why the bound is 0 (empty where it is not)
    double Floor = 0;         // max(resource bound, latency floor, barrier-drain bound)
    std::string Binds;        // "resource bound (UNIT)", the latency floor's or the barrier-drain bound's name
  } Floor;
  int64_t WindowBegin = 0, WindowEnd = 0, TotalCycles = 0;
  std::vector<WaveResult> Waves;
  std::vector<ClusterInfo> Clusters;
  std::vector<std::vector<std::pair<int64_t, int64_t>>> XdlBusy; // per SIMD
  std::vector<std::string> Warnings;
  std::vector<std::string> Unknown;
  int MfmasPerIter = 0;
  double L2HitRate = 0;           // the rate used (given or derived)
  std::string L2Rule;             // how it was derived (empty: --l2-hit-rate or default)
  int64_t LoopLoadBytes = 0;      // VMEM load bytes issued by the loop body, all waves, all iterations
  int64_t LoopL2Hits = 0, LoopLoads = 0; // VMEM loads issued by the loop body / of those L2 hits
  bool HasLoop = true;            // false: SimOptions::Trace on a kernel without an MFMA loop
  std::vector<char> LoopBody;     // per instruction index: in the hot loop (natural loop)
  std::vector<std::string> Inputs; // kernel arguments / SGPRs the model was given or set
  // iterations: ItersLine summarises what every wave ran; ItersShort when a
  // wave ran fewer than asked (ItersMsg: one line per such wave, with why)
  std::string ItersLine, ItersMsg;
  bool ItersShort = false;
};

// The L2 reuse rule for a GEMM C[M,N] += A[M,K] B[K,N] tiled BM x BN per
// workgroup (docs/cycle-model.md, "L2 reuse rule"): every A tile is read by the
// N/BN workgroups of its tile row, every B tile by the M/BM workgroups of its
// tile column; the first read misses, the others hit. Per K step a workgroup
// loads BM*BKb bytes of A and BN*BKb of B, so the miss fraction by bytes is
//   (BM*BKb * BN/N + BN*BKb * BM/M) / ((BM+BN)*BKb) = BM*BN*(1/M + 1/N)/(BM+BN)
// (BK and the element size cancel). Returns the hit rate = 1 - miss, and the
// explanation in Why.
double l2ReuseRule(long M, long N, long BM, long BN, std::string &Why);

// Runs the model. Returns false with E set on error (Errc::LoopNotRun: the
// run finished but a wave ran fewer iterations; R says which and why).
bool simulate(const Program &P, const SimOptions &O, SimResult &R, SimError &E);

// `run`'s engine clock: the target's peak; Power, the clock under the chip's
// power limit at the loop's own MFMA busy (the busy depends on the clock
// through the HBM time in clocks: a fixed point of powerLimitedClockGHz); or
// Given (GivenGHz > 0).
enum class ClockRule { Peak, Power, Given };
// simulate at the clock Rule picks (O.ClockGHz is ignored), then sets
// R.ClockRule and the resource bound's and the floor's time, each at the clock
// its own MFMA busy gives.
bool simulateAtClock(const Program &P, const SimOptions &O, ClockRule Rule, double GivenGHz,
                     SimResult &R, SimError &E);

} // namespace ppsim

#endif
