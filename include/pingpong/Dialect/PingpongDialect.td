//===- PingpongDialect.td - the pingpong dialect ----------*- tablegen -*-===//
//
// Attributes that carry block-pingpong directives from MLIR down to the LLVM
// IR the AMDGPUPingpong plugin reads (docs/mlir.md):
//   #pingpong.loop<...>  on a K loop: becomes !{!"amdgpu.pingpong", !"<mode>"}
//                        (or !"amdgpu.pingpong.layout") in its !llvm.loop
//   #pingpong.mem<...>   on a memory op of that loop: its role and operand;
//                        becomes alias scopes (buffer identity)
// and two ops for gathers from LDS (seed 003, docs/local-gather.md):
//   pingpong.local_preload  copies a global range (a bucket) into LDS
//   pingpong.local_gather   reads LDS at per-lane element offsets
// which --pingpong-lower-local-gather lowers to upstream ops.
// and the user's spelling on an scf.for: {pingpong.mode = "<mode>"},
// {pingpong.layout = "pingpong-layout v1; ..."}.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_DIALECT_TD
#define PINGPONG_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Pingpong_Dialect : Dialect {
  let name = "pingpong";
  let summary = "Block-pingpong directives for AMDGPU GEMM loops";
  let description = [{
    Tags that the AMDGPUPingpong LLVM plugin understands once lowered: the
    mode (or layout) of a K loop and the buffer identity of its memory ops.
    Scheduling itself happens in the plugin, at machine level.
  }];
  let cppNamespace = "::mlir::pingpong";
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

// The plugin's modes, spelled as in -amdgpu-pingpong= and the loop metadata
// (test/MLIR/modes-match.test checks the two lists are the same).
def Pingpong_Mode : I32EnumAttr<"Mode", "block-pingpong mode", [
    I32EnumAttrCase<"Auto", 0, "auto">,
    I32EnumAttrCase<"Off", 1, "off">,
    I32EnumAttrCase<"OneCluster", 2, "one-cluster">,
    I32EnumAttrCase<"TwoCluster", 3, "two-cluster">,
    I32EnumAttrCase<"FourCluster", 4, "four-cluster">,
    I32EnumAttrCase<"AsyncTwoCluster", 5, "async-two-cluster">,
    I32EnumAttrCase<"AsyncOneCluster", 6, "async-one-cluster">,
    I32EnumAttrCase<"AsyncFourCluster", 7, "async-four-cluster">,
    I32EnumAttrCase<"ChainedDot", 8, "chained-dot">,
    I32EnumAttrCase<"Skinny", 9, "skinny">,
    I32EnumAttrCase<"SingleWave", 10, "single-wave">]> {
  let cppNamespace = "::mlir::pingpong";
  let genSpecializedAttr = 0;
}

// Role of a memory op in the K loop (the plugin's roles, docs/design.md).
def Pingpong_MemRole : I32EnumAttr<"MemRole", "memory role in a K loop", [
    I32EnumAttrCase<"GlobalLoad", 0, "global_load">,
    I32EnumAttrCase<"LdsWrite", 1, "lds_write">,
    I32EnumAttrCase<"LdsRead", 2, "lds_read">,
    I32EnumAttrCase<"LdsDma", 3, "lds_dma">]> {
  let cppNamespace = "::mlir::pingpong";
  let genSpecializedAttr = 0;
}

// Which dot operand the data feeds.
def Pingpong_Operand : I32EnumAttr<"Operand", "dot operand", [
    I32EnumAttrCase<"A", 0, "a">,
    I32EnumAttrCase<"B", 1, "b">,
    I32EnumAttrCase<"ScaleA", 2, "scale_a">,
    I32EnumAttrCase<"ScaleB", 3, "scale_b">]> {
  let cppNamespace = "::mlir::pingpong";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class Pingpong_Attr<string name, string attrMnemonic>
    : AttrDef<Pingpong_Dialect, name> {
  let mnemonic = attrMnemonic;
}

// Modes contain '-', which is not a keyword character: always quoted.
def Pingpong_ModeParameter : EnumParameter<Pingpong_Mode> {
  let printer = "$_printer << '\"' << ::mlir::pingpong::stringifyMode($_self) << '\"'";
}

def Pingpong_LoopAttr : Pingpong_Attr<"Loop", "loop"> {
  let summary = "Block-pingpong directive of one K loop";
  let description = [{
    Set by --pingpong-annotate on the K loop (scf.for) of a kernel:

    ```mlir
    #pingpong.loop<mode = "two-cluster", waves = 8, stages = 2,
                   tile = array<i64: 256, 128, 64>, bits = 16>
    ```

    `mode` is what the loop metadata will say; `user` is true when it came
    from the loop's own `pingpong.mode` / `pingpong.layout` attribute;
    `waves` the workgroup's waves, `stages` the pipeline depth (2: the next K
    tile is loaded while this one is used), `tile` BM x BN x BK, `bits` the
    operand element width, `mfmas` the MFMAs per iteration and `layout` a
    pingpong-layout text that replaces the mode.
  }];
  let parameters = (ins
    Pingpong_ModeParameter:$mode,
    DefaultValuedParameter<"bool", "false">:$user,
    DefaultValuedParameter<"unsigned", "0">:$waves,
    DefaultValuedParameter<"unsigned", "0">:$stages,
    OptionalParameter<"::mlir::DenseI64ArrayAttr">:$tile,
    DefaultValuedParameter<"unsigned", "0">:$bits,
    DefaultValuedParameter<"unsigned", "0">:$mfmas,
    OptionalParameter<"::mlir::StringAttr">:$layout);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Pingpong_MemAttr : Pingpong_Attr<"Mem", "mem"> {
  let summary = "Role and operand of a memory op in a K loop";
  let description = [{
    `#pingpong.mem<lds_read, a, "wg0", kstep = 1>`: an LDS read of operand A
    from buffer "wg0" (the first workgroup attribution; "argN" for kernel
    arguments, "allocN", "@global") whose data feeds the MFMAs of K step 1.
    Lowered to alias scopes, one per buffer, so the plugin (and LLVM's wait
    insertion) sees the buffers apart.
  }];
  let parameters = (ins
    EnumParameter<Pingpong_MemRole>:$role,
    EnumParameter<Pingpong_Operand>:$operand,
    StringRefParameter<"root buffer">:$buffer,
    DefaultValuedParameter<"int64_t", "-1">:$kstep);
  let assemblyFormat =
      "`<` $role `,` $operand `,` $buffer (`,` `kstep` `=` $kstep^)? `>`";
}

//===----------------------------------------------------------------------===//
// Ops: gathers from LDS (seed 003)
//===----------------------------------------------------------------------===//

class Pingpong_Op<string mnemonic, list<Trait> traits = []>
    : Op<Pingpong_Dialect, mnemonic, traits>;

def Pingpong_IndexLike : AnyTypeOf<[AnySignlessIntegerOrIndex,
    FixedVectorOfNonZeroRankOf<[AnySignlessIntegerOrIndex]>]>;
def Pingpong_MaskLike : AnyTypeOf<[I1, FixedVectorOfNonZeroRankOf<[I1]>]>;

def Pingpong_LocalGatherOp : Pingpong_Op<"local_gather", [
    AttrSizedOperandSegments,
    OptionalTypesMatchWith<"mask has the shape of the indices, with i1 elements",
        "indices", "mask", "::mlir::pingpong::maskTypeFor($_self)">,
    OptionalTypesMatchWith<"other has the source's element type",
        "source", "other",
        "::llvm::cast<::mlir::MemRefType>($_self).getElementType()">]> {
  let summary = "Gather from an LDS (workgroup memory) buffer by element offsets";
  let description = [{
    Each lane of `indices` (a scalar per thread, or a vector of them) is an
    element offset into `source`, a rank-1 buffer of static size N in
    workgroup memory (`#gpu.address_space<workgroup>` or address space 3):

    ```mlir
    %g = pingpong.local_gather %bucket[%idx] mask(%m) other(%zero)
        : memref<4096xf32, #gpu.address_space<workgroup>>, vector<4xi32>
        -> vector<4xf32>
    ```

    Lane l of the result is `source[indices[l]]` when `mask[l]` is true
    (no mask: all true) and `0 <= indices[l] < N`; otherwise it is `other`
    (no `other`: zero of the element type). Indices are signed: a negative
    one is out of range. Out-of-range indices are masked, not clamped: an
    out-of-range or masked-off lane never reads out of the buffer and never
    yields another element's value. The result has the element type of
    `source` and the shape of `indices` (a scalar for a scalar index).

    --pingpong-lower-local-gather lowers it to one `memref.load` per lane at
    a safe offset (the index when the lane is in range and enabled, else 0)
    and `arith.select` of the loaded value and `other`: straight-line code
    (LDS loads, no branches), so it can sit in a K loop the plugin schedules.
  }];
  let arguments = (ins
    Arg<AnyMemRef, "LDS buffer", [MemRead]>:$source,
    Pingpong_IndexLike:$indices,
    Optional<Pingpong_MaskLike>:$mask,
    Optional<AnyType>:$other);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` (`mask` `(` $mask^ `)`)? (`other` `(` $other^ `)`)?
    attr-dict `:` type($source) `,` type($indices) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Pingpong_LocalPreloadOp : Pingpong_Op<"local_preload", [
    AllElementTypesMatch<["source", "dest"]>]> {
  let summary = "Copy a global range (a bucket) into an LDS buffer, then a barrier";
  let description = [{
    A workgroup-collective copy, for before the loop that gathers from the
    bucket: every thread of the workgroup must reach it (like gpu.barrier).

    ```mlir
    pingpong.local_preload %base[%start] -> %bucket
        : memref<1048576xf32>, memref<4096xf32, #gpu.address_space<workgroup>>
    ```

    After it, for every thread, `dest[j] = source[start + j]` for
    `0 <= j < N` (N the static size of `dest`) where `start + j` is inside
    `source`, and `dest[j] = 0` where it is not (no read outside `source`).
    `source` is a rank-1 memref outside workgroup memory, `dest` a rank-1
    workgroup-memory buffer of static size, both of one element type.

    --pingpong-lower-local-gather lowers it, in a gpu.func, to a copy loop
    spread over the workgroup's threads (thread t copies elements t, t + T,
    ...; coalesced global loads, LDS stores) and a `gpu.barrier`; outside a
    gpu.func (the CPU form of the tests) to one sequential loop. LDS DMA
    (amdgpu.gather_to_lds) is not used yet: on AMDGPU the copy goes through
    VGPRs.
  }];
  let arguments = (ins
    Arg<AnyMemRef, "global source", [MemRead]>:$source,
    Index:$start,
    Arg<AnyMemRef, "LDS buffer", [MemWrite]>:$dest);
  let assemblyFormat = [{
    $source `[` $start `]` `->` $dest attr-dict `:` type($source) `,` type($dest)
  }];
  let hasVerifier = 1;
}

#endif // PINGPONG_DIALECT_TD
