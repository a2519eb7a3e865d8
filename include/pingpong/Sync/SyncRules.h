//===- SyncRules.h - the one set of wait/barrier rules --------*- C++ -*-===//
//
// The sync-semantics library behind both checkers (-amdgpu-pingpong-verify on
// MachineInstrs, `pingpong-sim verify` on the instruction stream each wave
// executed in the cycle model), the wait placement (-amdgpu-pingpong-waits)
// and the emitter's drains. It knows nothing of MachineInstr or of the
// simulator: a checker turns what a wave executes into a stream of
// WaveEvents (an issue of an operation of some OpClass, an s_waitcnt, an
// s_barrier, the end of the program), describes each LDS access by its use
// and an LDSRegion (bytes, or an object / offset / alias-scope key, or
// nothing), and reports from what the library answers:
//
//  - per-target counter semantics: which counters an operation class
//    increments on gfx942/gfx950 (vmcnt, lgkmcnt, expcnt) and whether it
//    completes in order on them (FLAT: both, lgkm out of order);
//  - the retire rule: does an s_waitcnt guarantee an operation complete,
//    given how many younger operations of its in-order streams followed it;
//  - per wave: barrier phase of every event, the wait that completes each
//    operation, the drain distance (barriers passed before completion);
//  - LDS access classes (read / write / read-write atomic / DMA write; the
//    LDS crossbar ops ds_bpermute, ds_permute, ds_swizzle touch no LDS
//    memory) and the pair rule for two waves' accesses (read/write and
//    write/write): different barrier phases, the earlier drained before the
//    barrier that closes its phase;
//  - buffer identity as an interface: bytes known, a buffer key, or
//    unknown -- an unknown overlap is "cannot prove", never a race;
//  - barrier-count equality and the pingpong pacing rules.
//
// See docs/waits-and-barriers.md ("The sync-rules library") for the rules
// and why they are what they are.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SYNC_SYNCRULES_H
#define PINGPONG_SYNC_SYNCRULES_H

#include "pingpong/Sync/Waitcnt.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace pingpong {
namespace sync {

//===-- Targets and counters ----------------------------------------------===//

enum class Target : uint8_t { Gfx942, Gfx950 };
/// gfx942 / gfx950 (the gfx9 counters); std::nullopt for anything else.
std::optional<Target> targetForCPU(llvm::StringRef CPU);

/// What an instruction is to the counters.
enum class OpClass : uint8_t {
  None,        // no counter (ALU, branches, s_barrier, s_waitcnt ...)
  VMEMLoad,    // global_/buffer_/scratch_ load to VGPRs
  VMEMStore,   // global_/buffer_/scratch_ store, atomics
  LDSDMA,      // global_load_lds_*, buffer_load_* ... lds (global -> LDS)
  FLAT,        // flat_*: may reach LDS or memory
  LDS,         // ds_* that reads or writes LDS memory
  LDSCrossbar, // ds_bpermute, ds_permute, ds_swizzle, ds_nop: lgkmcnt only
  GDS,         // ds_gws_*, ds_ordered_count: lgkmcnt, no LDS memory
  SMEM,        // s_load, s_buffer_load, s_store, s_memtime, s_sendmsg ...
  Export,      // exp
};
const char *opClassName(OpClass C);

/// How an operation class uses the counters.
struct CounterUse {
  bool Vm = false, Lgkm = false, Exp = false;
  /// Completes in order with the other in-order lgkm operations (the DS
  /// pipe: LDS and crossbar ops); SMEM, FLAT and GDS do not.
  bool LgkmInOrder = false;
  bool any() const { return Vm || Lgkm || Exp; }
};
CounterUse countersOf(OpClass C, Target T);

/// Two operations whose results may be written in either order? A later load
/// of the same in-order stream (vmcnt alone, or the DS pipe) overwriting a
/// register an earlier one writes is safe; anything else is not.
bool sameInOrderStream(OpClass A, OpClass B, Target T);

/// Does a register operand take part in the register rules (a read or an
/// overwrite of a register an outstanding load writes)? Not an implicit
/// vector-register operand of a memory instruction: LLVM's spill code puts
/// the whole spilled tuple on every part's scratch store and reload
/// (`implicit-def $vgpr232_..._vgpr247, implicit $vgpr232_..._vgpr247` for
/// liveness); the hardware touches only the encoded registers.
/// SIInsertWaitcnts skips these operands the same way, so a checker that
/// counts them reports waits LLVM rightly left out. `RegName` is the
/// TableGen name (`VGPR236`, `AGPR0_AGPR1`, `SGPR4`, `EXEC`).
bool registerOperandCounts(OpClass C, bool Implicit, llvm::StringRef RegName);

/// The retire rule: after `W`, is an operation of class `U` complete that
/// was followed (before W) by `YoungerVm` operations counting on vmcnt and
/// `YoungerLgkmInOrder` in-order lgkm operations? vmcnt(N) completes all but
/// the N youngest vmcnt operations (in order); lgkmcnt(N) completes an
/// in-order lgkm operation with at least N younger in-order ones, an
/// out-of-order one (SMEM, FLAT's lgkm side, GDS) only at lgkmcnt(0); an
/// operation on two counters (FLAT) needs both.
bool retires(const Waitcnt &W, const CounterUse &U, unsigned YoungerVm,
             unsigned YoungerLgkmInOrder);
/// The same per counter: which of U's counters W completes. An operation on
/// two counters is complete once each has been completed, by one wait or by
/// two (llc writes `s_waitcnt vmcnt(0)` and `s_waitcnt lgkmcnt(0)` apart).
CounterUse retiredParts(const Waitcnt &W, const CounterUse &U, unsigned YoungerVm,
                        unsigned YoungerLgkmInOrder);

/// The wait the emitter puts before a barrier that orders the wave's LDS
/// reads against another wave's writes (and at the end of a memory
/// cluster): every LDS operation complete.
Waitcnt drainLDS();
/// The wait that completes every LDS DMA (and every other vmcnt op).
Waitcnt drainVM();

/// LDS DMA in a loop whose layout puts an s_barrier at the end of each of
/// its Intervals barrier intervals, with the asymmetric sync (the other wave
/// group one interval behind). A DMA issued in interval Issue fills a buffer
/// read Stages iterations later, in intervals FirstRead..LastRead (the
/// rotating buffers of Triton's pipeline: Buffers of them, Stages + 1 where
/// not derived, so the DMA overwrites what iteration Stages - Buffers read:
/// the iteration before, or with Stages buffers this one). Intervals count
/// from the iteration's start; absolute interval = iteration * Intervals +
/// interval.
struct DMAIntervals {
  unsigned Intervals, Issue, Stages, FirstRead, LastRead;
  unsigned Buffers = 0;
  /// Intervals the later wave group runs behind: 1 under the asymmetric
  /// sync, 0 where every wave passes each barrier together (a 4-wave
  /// workgroup, or the barriers without the skew).
  unsigned Behind = 1;
};
/// The buffer's last readers (both wave groups, the later one Behind
/// intervals behind) are past a barrier that followed their reads when the
/// DMA issues: Issue > LastRead + Behind - (Buffers - Stages) * Intervals.
bool dmaAfterLastRead(const DMAIntervals &D);
/// The absolute interval whose closing barrier must have the DMA complete
/// (vmcnt) in the wave that issued it: the barrier before the readers' first
/// read interval, which the group Behind intervals behind passes Behind
/// barriers earlier, so the DMA of both groups must be complete that much
/// sooner: Stages * Intervals + FirstRead - 1 - Behind. Negative: no
/// interval can.
int dmaDeadline(const DMAIntervals &D);

//===-- Instruction classes from names ------------------------------------===//

/// What an instruction does to LDS memory.
enum class LDSUse : uint8_t {
  None,      // no LDS memory (crossbar ops included)
  Read,      // ds_read*, ds_load*
  Write,     // ds_write*, ds_store*
  ReadWrite, // ds atomics (ds_add_*, ds_cmpst*, ds_wrxchg*, ds_append ...)
  DMAWrite,  // LDS DMA: written when the vmcnt op completes
};
inline bool ldsReads(LDSUse U) { return U == LDSUse::Read || U == LDSUse::ReadWrite; }
inline bool ldsWrites(LDSUse U) {
  return U == LDSUse::Write || U == LDSUse::ReadWrite || U == LDSUse::DMAWrite;
}
const char *ldsUseName(LDSUse U); // "read", "write", "atomic", "LDS DMA write"

enum class SyncKind : uint8_t { None, Waitcnt, Barrier, EndPgm };

/// One instruction as the rules see it, from its name: an MIR opcode name
/// (`DS_READ_B128_gfx9`, `BUFFER_LOAD_DWORDX4_LDS_OFFEN`) or an assembly
/// mnemonic (`ds_read_b128`, `buffer_load_dwordx4` with `LdsModifier` for
/// its `lds` operand). Case does not matter.
struct InstRules {
  OpClass Class = OpClass::None;
  LDSUse Use = LDSUse::None;
  SyncKind Sync = SyncKind::None;
};
InstRules classifyByName(llvm::StringRef Name, bool LdsModifier = false);

//===-- Buffer identity -----------------------------------------------------===//

/// An alias scope and its domain (opaque identities: MDNode pointers in the
/// plugin).
struct ScopeRef {
  const void *Scope = nullptr, *Domain = nullptr;
  bool operator==(const ScopeRef &O) const { return Scope == O.Scope; }
};

/// What is known about the LDS bytes one access (of one wave) touches.
/// Exactly one of the descriptions is used, in this order: Bytes (computed
/// addresses), then the compiler's key (object, constant range, alias
/// scopes). Nothing known: overlaps are unknown.
struct LDSRegion {
  bool BytesKnown = false;
  std::vector<std::pair<uint32_t, uint32_t>> Bytes; // sorted, merged [lo, hi)

  const void *Object = nullptr; // the underlying LDS object (IR global)
  /// The object is an arena: external or zero-sized (dynamic LDS, Triton's
  /// `global_smem`) -- many buffers in one object, so the object alone does
  /// not identify a buffer.
  bool Arena = false;
  std::optional<std::pair<int64_t, int64_t>> Range; // [lo, hi) in Object
  /// [lo, hi) in Object holding every byte any lane may touch (a bound, not
  /// the bytes: lane-dependent addresses of an arena's buffers, e.g. K's and
  /// V's tiles in Triton's global_smem). Disjoint extents: disjoint accesses.
  std::optional<std::pair<int64_t, int64_t>> Extent;
  llvm::SmallVector<ScopeRef, 2> Scopes, NoAlias;    // !alias.scope, !noalias
  /// Multi-buffering in one object (`buf[cur]` and `buf[cur ^ 1]` of a
  /// `cur ^= 1` PHI; `buf[kt % N]`, `buf[(kt + d) & (N - 1)]` of a counter;
  /// a ring counter `s = s + 1 == N ? 0 : s + 1`; two stage pointers swapped
  /// every iteration; a pointer select on a toggle), the slot changing every
  /// iteration of the loop whose header is Header: the access lies within
  /// [0, Stride) of slot Index of the Slots Stride-byte slots at each of
  /// Bases (one per memory operand: ds_write2 merges two arrays' stores).
  /// Index is relative to Var's value at the first iteration, or the slot
  /// number itself when Absolute (the toggle starts at a constant); each
  /// iteration adds Step (mod Slots). The checker folds in the iteration
  /// (advance); accesses in slots of different index of one array, or in
  /// arrays whose slots do not meet, touch different bytes; the same index
  /// of one array is the same slot.
  struct ToggledSlot {
    const void *Var = nullptr, *Header = nullptr;
    llvm::SmallVector<int64_t, 2> Bases;
    int64_t Stride = 0;
    unsigned Index = 0, Slots = 2, Step = 1;
    bool Absolute = false;
    /// The slot Iters iterations later (negative: earlier).
    void advance(int Iters) {
      long long N = Slots;
      Index = unsigned(((Index + (long long)Iters * Step) % N + N) % N);
    }
    /// Two slots whose indices are in the same terms: one Var, or both
    /// absolute with the same step (so that the first iteration the checker
    /// traces need not be the loop's first).
    bool comparable(const ToggledSlot &O) const {
      return Header == O.Header && Stride == O.Stride && Slots == O.Slots &&
             (Var == O.Var || (Absolute && O.Absolute && Step == O.Step));
    }
  };
  std::optional<ToggledSlot> Slot;
  /// The address within Object changes between iterations (a PHI, a select
  /// or a loaded value in it) and Slot does not say how: the same key is not
  /// the same bytes, so the key alone proves no overlap (SameBuffer only for
  /// a proven same slot).
  bool Varies = false;
  /// A merged access (ds_write2 of two arrays' stores): one region per
  /// part; when present, only the parts describe the access.
  std::vector<LDSRegion> Parts;
};

enum class Overlap : uint8_t {
  Disjoint,   // proven: different bytes, objects, ranges or scoped noalias
  Bytes,      // proven: the bytes [Lo, Hi) are touched by both
  SameBuffer, // the same declared buffer (key), bytes not known
  Unknown,    // cannot tell
};
struct OverlapResult {
  Overlap O = Overlap::Unknown;
  uint32_t Lo = 0, Hi = 0; // Bytes only
};
OverlapResult overlap(const LDSRegion &A, const LDSRegion &B);
/// R seen from another iteration: each toggled slot (its parts' too)
/// advanced by the iterations Steps gives it, or dropped (bytes unknown)
/// where Steps gives none.
LDSRegion advanceSlots(
    LDSRegion R,
    llvm::function_ref<std::optional<int>(const LDSRegion::ToggledSlot &)> Steps);
/// LLVM's scoped-noalias rule on the two accesses' scope lists.
bool scopedNoAlias(const LDSRegion &A, const LDSRegion &B);

//===-- One wave's events ---------------------------------------------------===//

struct WaveEvent {
  SyncKind Sync = SyncKind::None; // Waitcnt / Barrier / EndPgm, else an op
  OpClass Class = OpClass::None;  // operations
  Waitcnt W;                      // Waitcnt
};

/// Per event of one wave: its barrier phase and, for operations with a
/// counter, the event index of the wait that completes it (EndPgm completes
/// everything: a wave that ended holds nothing open).
struct WaveTimeline {
  static constexpr size_t Never = ~size_t(0);
  static constexpr unsigned NoDrain = ~0u;
  std::vector<int> Phase;          // barriers passed before the event
  std::vector<size_t> CompletedBy; // Never: not completed in the stream
  /// Barriers the wave passes between issuing event `E` and the wait that
  /// completes it (NoDrain: never).
  unsigned drain(size_t E) const;
  bool completeBefore(size_t Op, size_t At) const {
    return CompletedBy[Op] != Never && CompletedBy[Op] < At;
  }
};
WaveTimeline analyzeWave(llvm::ArrayRef<WaveEvent> Events, Target T);

//===-- Cross-wave LDS pairs ------------------------------------------------===//

/// An LDS access of one wave, for the pair rule.
struct LDSAccess {
  LDSUse Use = LDSUse::None;
  int Phase = 0;
  unsigned Drain = WaveTimeline::NoDrain;
  /// The instruction (any identity; null: unknown). The same store run by
  /// two waves onto the same bytes is the replicated-value idiom (e.g.
  /// Triton's layout conversions, where the waves that share rows store the
  /// same value): its order cannot be proven to matter, so it is Unproven,
  /// not a Race.
  const void *Site = nullptr;
};

enum class PairVerdict : uint8_t {
  NotAPair, // two reads, disjoint, or two writes to one buffer key
  Ordered,  // different phases, the earlier drained in time
  Race,     // overlapping (bytes or buffer key) and not ordered
  Unproven, // not ordered and the overlap is unknown: "cannot prove"
};
enum class Disorder : uint8_t { None, SamePhase, NotDrained };
enum class UnprovenWhy : uint8_t { None, UnknownBytes, SameStore };

struct PairResult {
  PairVerdict V = PairVerdict::NotAPair;
  Disorder Why = Disorder::None;
  UnprovenWhy Unproven = UnprovenWhy::None;
  bool AFirst = true; // A is the earlier access (by phase)
  OverlapResult Where;
};
/// Accesses A and B of two different waves of one workgroup. Pairs: at
/// least one writes. Write/write pairs need proven bytes: two writes to one
/// buffer key, or to unknown bytes, are taken as the disjoint parts of a
/// cooperative store.
PairResult checkPair(const LDSAccess &A, const LDSRegion &RA,
                     const LDSAccess &B, const LDSRegion &RB);
/// The same with the overlap already known.
PairResult checkPair(const LDSAccess &A, const LDSAccess &B, OverlapResult O);
/// Same wave: an LDS access (not a DMA) while the wave's own DMA to
/// overlapping bytes is outstanding (ds ops complete on lgkmcnt and may
/// overtake it). Race / Unproven / NotAPair.
PairVerdict sameWaveDMA(const LDSRegion &Dma, const LDSRegion &Access,
                        OverlapResult *Where = nullptr);

//===-- Barriers and pacing -------------------------------------------------===//

/// The first pair (more, fewer) of waves whose s_barrier counts differ (the
/// workgroup hangs at `fewer`'s count + 1), or std::nullopt.
std::optional<std::pair<size_t, size_t>>
barrierMismatch(llvm::ArrayRef<unsigned> BarriersPerWave);

/// The asymmetric sync must put the wave groups an odd number of barriers
/// (clusters) apart.
inline bool groupOffsetPaces(int BarriersApart) { return BarriersApart % 2 != 0; }

/// Static pacing of an asymmetric loop body (s_setprio 1 ... 0 marks a dot
/// cluster): after a dot cluster, a barrier before the next memory
/// operation or dot; after a memory operation, one before the next dot.
enum class PaceEvent : uint8_t { Other, Barrier, DotStart, DotEnd, Mem };
struct PacingGap {
  size_t At = 0;        // index in the body
  bool AfterDot = true; // the missing barrier follows a dot (else memory)
};
std::optional<PacingGap> pacingGap(llvm::ArrayRef<PaceEvent> Body);

/// Dynamic pacing: two same-SIMD waves of two groups entering the loop at
/// different barrier counts must never run loop MFMAs in one phase.
/// Arguments: each wave's sorted phases with a loop MFMA. Returns a shared
/// phase, or std::nullopt.
std::optional<int> sharedMfmaPhase(llvm::ArrayRef<int> PhasesA,
                                   llvm::ArrayRef<int> PhasesB);

} // namespace sync
} // namespace pingpong
#endif
