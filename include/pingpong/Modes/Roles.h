//===- Roles.h - what an instruction does for the dot ------------*- C++ -*-===//
//
// The roles and operands the loop model (Analysis/LoopModel.h) gives
// instructions and layout selectors name (Modes/LayoutText.h). Apart from the
// model so that the layout parser, and the MLIR front with it, need no
// MachineInstr.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_MODES_ROLES_H
#define PINGPONG_MODES_ROLES_H

namespace pingpong {

enum class Role : unsigned char {
  Other,       // address arithmetic, loop counter, anything else
  Dot,         // an MFMA of the dot
  LocalRead,   // LDS read feeding a dot operand
  LocalWrite,  // LDS write of the next tile
  GlobalLoad,  // global/buffer load of the next tile (feeds a LocalWrite)
  OperandPrep, // VALU/copy between a LocalRead and the MFMA
  Sync,        // barrier or fence already in the loop
  // Roles of shapes the model knows and no mode schedules yet (issue 10):
  AsyncCopy,   // LDS DMA (buffer_load ... lds, global_load_lds_*): fills an
               // operand's LDS buffer straight from global memory
  DirectLoad,  // global load whose data feeds a dot operand in registers
  InterDot,    // VALU between chained dots (attention's softmax): works on
               // the results of dot group Group for the next group
  SideLoad,    // global load whose data VALU combines with an operand read
               // from LDS before the MFMA (a scale vector: A * s[k]); the
               // GEMM modes place it with the global loads
  AccPrep,     // chained dots: VALU on a dot group's incoming accumulators
               // that no dot of this iteration feeds (attention's rescale of
               // O by alpha when P V runs one iteration late)
  ExchangeWrite, // chained dots: LDS write of values derived from dot group
                 // Group's results, read back in the same iteration by
                 // other lanes and waves (a layout conversion: Triton's P
                 // between two MFMA layouts, convert_layout through LDS);
                 // one dot group: a partial sum of a cross-warp reduction
                 // (Triton's tl.sum over warps beside the dot), read back
                 // behind one of the loop's barriers (LDSReductions.cpp)
  ExchangeRead,  // the LDS read of such values, feeding the next group's
                 // operand or accumulator (Group: the producing group), or
                 // the reduction's next step or its loop-carried total
};
const char *roleName(Role R);

/// Which operand of a dot an instruction serves. ScaleA/ScaleB: the scales of
/// v_mfma_scale_* (one per operand).
enum class Operand : unsigned char { None, A, B, ScaleA, ScaleB };
constexpr unsigned NumOperandKinds = 5;
const char *operandName(Operand O);
inline bool isScale(Operand O) {
  return O == Operand::ScaleA || O == Operand::ScaleB;
}

} // namespace pingpong
#endif
