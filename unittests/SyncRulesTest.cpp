//===- SyncRulesTest.cpp - unit tests of the sync-rules library ----------===//
//
// lib/Sync on its own: no MachineInstr, no simulator (docs/waits-and-barriers.md,
// "The sync-rules library").
//
//===----------------------------------------------------------------------===//
#include "pingpong/Sync/SyncRules.h"
#include "pingpong/Target/InstrNames.h"

#include "gtest/gtest.h"

using namespace pingpong;
using namespace pingpong::sync;

namespace {
WaveEvent op(OpClass C) { WaveEvent E; E.Class = C; return E; }
WaveEvent wait(Waitcnt W) { WaveEvent E; E.Sync = SyncKind::Waitcnt; E.W = W; return E; }
WaveEvent barrier() { WaveEvent E; E.Sync = SyncKind::Barrier; return E; }
LDSRegion bytes(uint32_t Lo, uint32_t Hi) {
  LDSRegion R;
  R.BytesKnown = true;
  R.Bytes = {{Lo, Hi}};
  return R;
}
} // namespace

TEST(SyncRules, ClassesByName) {
  // MIR opcode names and assembly mnemonics give the same answer.
  EXPECT_EQ(classifyByName("DS_BPERMUTE_B32").Class, OpClass::LDSCrossbar);
  EXPECT_EQ(classifyByName("ds_bpermute_b32").Use, LDSUse::None);
  EXPECT_EQ(classifyByName("ds_swizzle_b32").Class, OpClass::LDSCrossbar);
  EXPECT_EQ(classifyByName("DS_READ_B128_gfx9").Use, LDSUse::Read);
  EXPECT_EQ(classifyByName("ds_write2st64_b64").Use, LDSUse::Write);
  EXPECT_EQ(classifyByName("ds_add_u32").Use, LDSUse::ReadWrite);
  EXPECT_EQ(classifyByName("BUFFER_LOAD_DWORDX4_LDS_OFFEN").Use, LDSUse::DMAWrite);
  EXPECT_EQ(classifyByName("buffer_load_dwordx4", /*LdsModifier=*/true).Use, LDSUse::DMAWrite);
  EXPECT_EQ(classifyByName("buffer_load_dwordx4").Class, OpClass::VMEMLoad);
  EXPECT_EQ(classifyByName("global_load_lds_dwordx4").Class, OpClass::LDSDMA);
  EXPECT_EQ(classifyByName("FLAT_LOAD_DWORD").Class, OpClass::FLAT);
  EXPECT_EQ(classifyByName("s_load_dwordx2").Class, OpClass::SMEM);
  EXPECT_EQ(classifyByName("S_WAITCNT").Sync, SyncKind::Waitcnt);
  EXPECT_EQ(classifyByName("s_barrier").Sync, SyncKind::Barrier);
}

TEST(InstrNames, OneTableForEveryClassifier) {
  using target::classifyInstrName;
  using target::NameOp;
  // Opcode names (any case, encoding suffixes) and mnemonics alike.
  EXPECT_EQ(classifyInstrName("V_MFMA_F32_16X16X16F16_e64"), NameOp::MFMA);
  EXPECT_EQ(classifyInstrName("v_smfmac_f32_16x16x32_f16"), NameOp::MFMA);
  EXPECT_EQ(classifyInstrName("V_PK_FMA_F32"), NameOp::ValuFMA);
  EXPECT_EQ(classifyInstrName("v_add_u32_e32"), NameOp::VALU);
  EXPECT_EQ(classifyInstrName("ds_read2_b64"), NameOp::LDSRead);
  EXPECT_EQ(classifyInstrName("DS_WRITE_B128_gfx9"), NameOp::LDSWrite);
  EXPECT_EQ(classifyInstrName("ds_permute_b32"), NameOp::LDSCrossbar);
  EXPECT_EQ(classifyInstrName("ds_gws_init"), NameOp::GDS);
  EXPECT_EQ(classifyInstrName("ds_append"), NameOp::LDSAtomic);
  // LDS DMA from the name or from the assembly's lds modifier.
  EXPECT_EQ(classifyInstrName("GLOBAL_LOAD_LDS_DWORDX4_SADDR"), NameOp::LDSDMA);
  EXPECT_EQ(classifyInstrName("scratch_load_lds_dword"), NameOp::LDSDMA);
  EXPECT_EQ(classifyInstrName("buffer_load_dword", true), NameOp::LDSDMA);
  EXPECT_EQ(classifyInstrName("buffer_load_dword"), NameOp::VMEMLoad);
  EXPECT_EQ(classifyInstrName("tbuffer_load_format_x"), NameOp::VMEMLoad);
  EXPECT_EQ(classifyInstrName("BUFFER_STORE_LDS_DWORD"), NameOp::VMEMStore);
  EXPECT_EQ(classifyInstrName("global_atomic_add_f32"), NameOp::VMEMAtomic);
  EXPECT_EQ(classifyInstrName("buffer_wbl2"), NameOp::CacheMaint);
  EXPECT_EQ(classifyInstrName("flat_load_dword"), NameOp::FlatLoad);
  EXPECT_EQ(classifyInstrName("FLAT_ATOMIC_ADD"), NameOp::FlatStore);
  EXPECT_EQ(classifyInstrName("S_BUFFER_LOAD_DWORDX4_IMM"), NameOp::SMEMLoad);
  EXPECT_EQ(classifyInstrName("s_memrealtime"), NameOp::SMEMOther);
  EXPECT_EQ(classifyInstrName("s_sendmsg"), NameOp::SendMsg);
  EXPECT_EQ(classifyInstrName("S_WAITCNT_soft"), NameOp::Waitcnt);
  EXPECT_EQ(classifyInstrName("s_waitcnt_vmcnt"), NameOp::WaitcntOne);
  EXPECT_EQ(classifyInstrName("s_waitcnt_depctr"), NameOp::InternalOther);
  EXPECT_EQ(classifyInstrName("s_cbranch_scc1"), NameOp::CondBranch);
  EXPECT_EQ(classifyInstrName("s_swappc_b64"), NameOp::ControlOther);
  EXPECT_EQ(classifyInstrName("s_add_u32"), NameOp::SALU);
  EXPECT_EQ(classifyInstrName("SCHED_GROUP_BARRIER"), NameOp::SchedFence);
  EXPECT_EQ(classifyInstrName("ATOMIC_FENCE"), NameOp::Fence);
  EXPECT_EQ(classifyInstrName("exp"), NameOp::Export);
  EXPECT_EQ(classifyInstrName("COPY"), NameOp::Unknown);
}

TEST(SyncRules, Counters) {
  CounterUse F = countersOf(OpClass::FLAT, Target::Gfx942);
  EXPECT_TRUE(F.Vm && F.Lgkm && !F.LgkmInOrder);
  CounterUse X = countersOf(OpClass::LDSCrossbar, Target::Gfx950);
  EXPECT_TRUE(X.Lgkm && X.LgkmInOrder && !X.Vm);
  EXPECT_TRUE(countersOf(OpClass::LDSDMA, Target::Gfx950).Vm);
  EXPECT_TRUE(sameInOrderStream(OpClass::VMEMLoad, OpClass::LDSDMA, Target::Gfx942));
  EXPECT_TRUE(sameInOrderStream(OpClass::LDS, OpClass::LDSCrossbar, Target::Gfx942));
  EXPECT_FALSE(sameInOrderStream(OpClass::FLAT, OpClass::FLAT, Target::Gfx942));
  EXPECT_FALSE(sameInOrderStream(OpClass::SMEM, OpClass::SMEM, Target::Gfx942));
}

TEST(SyncRules, RegisterOperands) {
  // The spill code's tuple on a scratch store/reload is liveness, not access.
  OpClass Scratch = classifyByName("SCRATCH_STORE_DWORDX4_ST").Class;
  EXPECT_EQ(Scratch, OpClass::VMEMStore);
  EXPECT_EQ(classifyByName("SCRATCH_LOAD_DWORD_SADDR").Class, OpClass::VMEMLoad);
  EXPECT_FALSE(registerOperandCounts(Scratch, /*Implicit=*/true, "VGPR4_VGPR5_VGPR6_VGPR7"));
  EXPECT_FALSE(registerOperandCounts(OpClass::VMEMLoad, true, "AGPR0_AGPR1"));
  EXPECT_TRUE(registerOperandCounts(Scratch, /*Implicit=*/false, "VGPR4_VGPR5_VGPR6_VGPR7"));
  EXPECT_TRUE(registerOperandCounts(Scratch, true, "FLAT_SCR"));
  EXPECT_TRUE(registerOperandCounts(OpClass::LDSDMA, true, "M0"));
  // Not on ALU instructions (v_movrel reads its tuple implicitly).
  EXPECT_TRUE(registerOperandCounts(OpClass::None, true, "VGPR0_VGPR1"));
}

TEST(SyncRules, Retire) {
  CounterUse Vm = countersOf(OpClass::VMEMLoad, Target::Gfx942);
  EXPECT_TRUE(retires(Waitcnt::vm(2), Vm, 2, 0));
  EXPECT_FALSE(retires(Waitcnt::vm(2), Vm, 1, 0));
  CounterUse Smem = countersOf(OpClass::SMEM, Target::Gfx942);
  EXPECT_FALSE(retires(Waitcnt::lgkm(1), Smem, 0, 5));
  EXPECT_TRUE(retires(Waitcnt::lgkm(0), Smem, 0, 0));
  CounterUse Flat = countersOf(OpClass::FLAT, Target::Gfx942);
  EXPECT_FALSE(retires(Waitcnt::vm(0), Flat, 0, 0));
  EXPECT_FALSE(retires(Waitcnt::lgkm(0), Flat, 0, 0));
  EXPECT_TRUE(retires(Waitcnt::vm(0).merge(Waitcnt::lgkm(0)), Flat, 0, 0));
}

TEST(SyncRules, WaveTimeline) {
  // FLAT completed by two waits, one per counter (llc's split form).
  std::vector<WaveEvent> E = {op(OpClass::FLAT), wait(Waitcnt::vm(0)),
                              wait(Waitcnt::lgkm(0)), op(OpClass::None)};
  WaveTimeline T = analyzeWave(E, Target::Gfx942);
  EXPECT_EQ(T.CompletedBy[0], 2u);
  // An LDS read issued before a barrier and drained one barrier later.
  E = {op(OpClass::LDS), barrier(), wait(Waitcnt::lgkm(0)), barrier()};
  T = analyzeWave(E, Target::Gfx942);
  EXPECT_EQ(T.drain(0), 1u);
  EXPECT_EQ(T.Phase[3], 1);
  // lgkmcnt(1) completes the older of two DS ops.
  E = {op(OpClass::LDS), op(OpClass::LDSCrossbar), wait(Waitcnt::lgkm(1))};
  T = analyzeWave(E, Target::Gfx942);
  EXPECT_EQ(T.CompletedBy[0], 2u);
  EXPECT_EQ(T.CompletedBy[1], WaveTimeline::Never);
}

TEST(SyncRules, PairRule) {
  LDSAccess R{LDSUse::Read, 0, 0}, W{LDSUse::Write, 1, 0};
  EXPECT_EQ(checkPair(R, bytes(0, 16), W, bytes(8, 24)).V, PairVerdict::Ordered);
  R.Drain = 1; // the read completes one barrier too late
  PairResult P = checkPair(R, bytes(0, 16), W, bytes(8, 24));
  EXPECT_EQ(P.V, PairVerdict::Race);
  EXPECT_EQ(P.Why, Disorder::NotDrained);
  EXPECT_EQ(P.Where.Lo, 8u);
  EXPECT_EQ(checkPair(R, bytes(0, 16), W, bytes(16, 24)).V, PairVerdict::NotAPair);
  // Unknown bytes: cannot prove, never a race.
  EXPECT_EQ(checkPair(R, LDSRegion(), W, bytes(0, 4)).V, PairVerdict::Unproven);
  // write/write on bytes: a pair; two different stores race, the same store
  // (replicated value) is unproven.
  LDSAccess W1{LDSUse::Write, 0, 0, &R}, W2{LDSUse::Write, 0, 0, &W};
  EXPECT_EQ(checkPair(W1, bytes(0, 4), W2, bytes(0, 4)).V, PairVerdict::Race);
  EXPECT_EQ(checkPair(W1, bytes(0, 4), W1, bytes(0, 4)).V, PairVerdict::Unproven);
  // ... and not a pair without bytes (cooperative store).
  EXPECT_EQ(checkPair(W1, LDSRegion(), W2, LDSRegion()).V, PairVerdict::NotAPair);
}

TEST(SyncRules, BufferIdentity) {
  int Buf, Arena, Other;
  int ScopeA, ScopeB, Domain;
  LDSRegion A, B;
  A.Object = B.Object = &Buf;
  EXPECT_EQ(overlap(A, B).O, Overlap::SameBuffer); // one declared variable
  B.Object = &Other;
  EXPECT_EQ(overlap(A, B).O, Overlap::Disjoint);
  A.Object = B.Object = &Arena;
  A.Arena = B.Arena = true;
  EXPECT_EQ(overlap(A, B).O, Overlap::Unknown); // Triton's global_smem
  A.Range = std::make_pair(int64_t(0), int64_t(16));
  B.Range = std::make_pair(int64_t(16), int64_t(32));
  EXPECT_EQ(overlap(A, B).O, Overlap::Disjoint);
  B.Range.reset();
  // Lane-dependent addresses: extents bound the bytes; apart proves
  // disjoint, overlapping proves nothing (not Bytes).
  A.Range.reset();
  A.Extent = std::make_pair(int64_t(0), int64_t(16384));
  B.Extent = std::make_pair(int64_t(16384), int64_t(32768));
  EXPECT_EQ(overlap(A, B).O, Overlap::Disjoint); // K's tile, V's tile
  B.Extent = std::make_pair(int64_t(16376), int64_t(32768));
  EXPECT_EQ(overlap(A, B).O, Overlap::Unknown);
  A.Range = std::make_pair(int64_t(32760), int64_t(32776)); // constant address
  EXPECT_EQ(overlap(A, B).O, Overlap::Unknown);
  A.Range = std::make_pair(int64_t(0), int64_t(8));
  EXPECT_EQ(overlap(A, B).O, Overlap::Disjoint);
  A.Range.reset();
  A.Extent.reset();
  B.Extent.reset();
  // Triton's async copies: the copy in scope A, the read !noalias to it.
  A.Scopes = {{&ScopeA, &Domain}};
  B.Scopes = {{&ScopeB, &Domain}};
  B.NoAlias = {{&ScopeA, &Domain}};
  EXPECT_EQ(overlap(A, B).O, Overlap::Disjoint);
  EXPECT_EQ(sameWaveDMA(A, B), PairVerdict::NotAPair);
  B.NoAlias.clear();
  EXPECT_EQ(sameWaveDMA(A, B), PairVerdict::Unproven);
}

// Multi-buffer slots (issue 24, item 2): indices in one iteration's terms,
// absolute ones across toggles, and an address that moves unproven is no
// proof of one buffer.
TEST(SyncRules, SlotsAndVarying) {
  int Buf, Header, Kt, Rd, Wr;
  LDSRegion::ToggledSlot S;
  S.Slots = 3;
  S.Index = 2;
  S.advance(2);
  EXPECT_EQ(S.Index, 1u);
  S.advance(-1);
  EXPECT_EQ(S.Index, 0u);
  LDSRegion A, B;
  A.Object = B.Object = &Buf;
  A.Varies = B.Varies = true;
  EXPECT_EQ(overlap(A, B).O, Overlap::Unknown); // was SameBuffer
  // A 3-stage ring: the DMA into `wr` (starts at 2), the reads of `rd`
  // (starts at 0), 16 KiB stages: two toggles, comparable as absolute.
  LDSRegion::ToggledSlot W, R;
  W.Var = &Wr;
  R.Var = &Rd;
  W.Header = R.Header = &Header;
  W.Stride = R.Stride = 16384;
  W.Slots = R.Slots = 3;
  W.Bases = R.Bases = {0};
  W.Absolute = R.Absolute = true;
  W.Index = 2;
  A.Slot = W;
  B.Slot = R;
  EXPECT_EQ(overlap(A, B).O, Overlap::Disjoint); // same iteration
  B.Slot->advance(2); // iteration i's DMA, iteration i + 2's reads
  EXPECT_EQ(overlap(A, B).O, Overlap::SameBuffer); // proven same slot
  B.Slot->Absolute = false; // a start not known: not comparable
  EXPECT_EQ(overlap(A, B).O, Overlap::Unknown);
  // One counter, relative: (kt + 1) & 1 and kt & 1.
  A.Slot->Var = B.Slot->Var = &Kt;
  A.Slot->Absolute = B.Slot->Absolute = false;
  A.Slot->Slots = B.Slot->Slots = 2;
  A.Slot->Index = 1;
  B.Slot->Index = 0;
  EXPECT_EQ(overlap(A, B).O, Overlap::Disjoint);
  // Two arrays' slots (struct members 48 KiB apart) never meet.
  A.Slot->Index = 0;
  B.Slot->Bases = {49152};
  EXPECT_EQ(overlap(A, B).O, Overlap::Disjoint);
  // A loop-invariant cooperative tile keeps its key.
  A.Slot.reset();
  B.Slot.reset();
  A.Varies = B.Varies = false;
  EXPECT_EQ(overlap(A, B).O, Overlap::SameBuffer);
}

TEST(SyncRules, BarriersAndPacing) {
  unsigned Same[] = {4, 4}, Diff[] = {4, 3};
  EXPECT_FALSE(barrierMismatch(Same));
  auto M = barrierMismatch(Diff);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->first, 0u);
  EXPECT_TRUE(groupOffsetPaces(1));
  EXPECT_FALSE(groupOffsetPaces(2));
  std::vector<PaceEvent> Body = {PaceEvent::Mem, PaceEvent::Barrier, PaceEvent::DotStart,
                                 PaceEvent::DotEnd, PaceEvent::Mem};
  auto Gap = pacingGap(Body);
  ASSERT_TRUE(Gap);
  EXPECT_TRUE(Gap->AfterDot);
  EXPECT_EQ(Gap->At, 0u); // found on the second trip: the next iteration's first op
  int PA[] = {1, 3, 5}, PB[] = {2, 4, 5};
  EXPECT_EQ(sharedMfmaPhase(PA, PB), std::optional<int>(5));
  EXPECT_EQ(Waitcnt::fromAsm("s_waitcnt", 0xC07F)->Lgkm, 0u);
  EXPECT_EQ(Waitcnt::fromAsm("s_waitcnt_vmcnt", 3)->Vm, 3u);
}

// The LDS-DMA rules the async modes plan with, checked against the pair rule
// the checkers use (both ends of lib/Sync). Barrier phases as the checker
// counts them: waves 4-7 pass one barrier before the loop, so their interval
// a of an iteration is phase a + 1, waves 0-3's is phase a.
TEST(SyncRules, DMAIntervalsAgainstPairRule) {
  // Three stages, two intervals, reads in interval 0 (Triton's ns3 order):
  // the DMA of the group behind must have landed for the group ahead.
  for (unsigned Issue : {0u, 1u}) {
    DMAIntervals D{2, Issue, 2, 0, 0};
    ASSERT_TRUE(dmaAfterLastRead(D));
    int Due = dmaDeadline(D);
    EXPECT_EQ(Due, 2); // the middle barrier of the next iteration
    int Read = int(D.Stages * D.Intervals + D.FirstRead); // waves 0-3
    LDSAccess Dma{LDSUse::DMAWrite, int(Issue) + 1, unsigned(Due - int(Issue))};
    LDSAccess Rd{LDSUse::Read, Read, 0};
    EXPECT_EQ(checkPair(Dma, bytes(0, 64), Rd, bytes(0, 64)).V, PairVerdict::Ordered);
    // One barrier later is too late for the group ahead.
    Dma.Drain += 1;
    PairResult Late = checkPair(Dma, bytes(0, 64), Rd, bytes(0, 64));
    EXPECT_EQ(Late.V, PairVerdict::Race);
    EXPECT_EQ(Late.Why, Disorder::NotDrained);
  }
  // Two stages, four intervals, reads in 0 and 2, every DMA in interval 0.
  DMAIntervals Two{4, 0, 1, 0, 2};
  EXPECT_TRUE(dmaAfterLastRead(Two));
  EXPECT_EQ(dmaDeadline(Two), 2);
  // Issued in interval 2 it would be due in interval 2 itself (no latency
  // hidden, but legal); in two intervals a DMA in the dot interval is due
  // before it issues: refused.
  EXPECT_EQ(dmaDeadline(DMAIntervals{2, 1, 1, 0, 0}), 0);
  // Refilling the buffer the iteration before read: the group behind reads
  // it until phase R1 + 1 - K of this iteration's count (drained at its
  // barrier); the DMA must be in a later phase.
  DMAIntervals Early{2, 0, 2, 0, 1}; // reads in both intervals, DMA in 0
  EXPECT_FALSE(dmaAfterLastRead(Early));
  LDSAccess Behind{LDSUse::Read, int(Early.LastRead) - int(Early.Intervals) + 1, 0};
  LDSAccess Refill{LDSUse::DMAWrite, int(Early.Issue), 0};
  EXPECT_EQ(checkPair(Behind, bytes(0, 64), Refill, bytes(0, 64)).V, PairVerdict::Race);
  DMAIntervals Later{2, 1, 2, 0, 1};
  EXPECT_TRUE(dmaAfterLastRead(Later));
  Refill.Phase = int(Later.Issue);
  EXPECT_EQ(checkPair(Behind, bytes(0, 64), Refill, bytes(0, 64)).V, PairVerdict::Ordered);

  // Every wave in lockstep (Behind = 0: a 4-wave workgroup's barriers):
  // async-one-cluster's operand-split wait, two intervals, the second
  // operand's DMA in interval 0 and its reads in interval 1 of the next
  // iteration: due at the barrier closing interval 2 (the next iteration's
  // first), one barrier later than under the skew.
  DMAIntervals Lock{2, 0, 1, 1, 1};
  Lock.Behind = 0;
  ASSERT_TRUE(dmaAfterLastRead(Lock));
  EXPECT_EQ(dmaDeadline(Lock), 2);
  Lock.Behind = 1;
  EXPECT_EQ(dmaDeadline(Lock), 1);
  LDSAccess LockDma{LDSUse::DMAWrite, 0, 2};
  LDSAccess LockRd{LDSUse::Read, 3, 0};
  EXPECT_EQ(checkPair(LockDma, bytes(0, 64), LockRd, bytes(0, 64)).V, PairVerdict::Ordered);
  LockDma.Drain += 1;
  EXPECT_EQ(checkPair(LockDma, bytes(0, 64), LockRd, bytes(0, 64)).V, PairVerdict::Race);
  // Refill in lockstep: reads in both intervals, DMA in 0. Nobody reads the
  // buffer past the barrier closing the previous iteration, so the DMA may
  // issue right after it (under the skew it may not).
  DMAIntervals LockEarly{2, 0, 2, 0, 1};
  LockEarly.Behind = 0;
  EXPECT_TRUE(dmaAfterLastRead(LockEarly));
  LDSAccess LastRd{LDSUse::Read, int(LockEarly.LastRead) - int(LockEarly.Intervals), 0};
  LDSAccess LockRefill{LDSUse::DMAWrite, int(LockEarly.Issue), 0};
  EXPECT_EQ(checkPair(LastRd, bytes(0, 64), LockRefill, bytes(0, 64)).V, PairVerdict::Ordered);
}
