//===- PingpongDialect.td - the pingpong dialect ----------*- tablegen -*-===//
//
// Attributes that carry block-pingpong directives from MLIR down to the LLVM
// IR the AMDGPUPingpong plugin reads (docs/mlir.md):
//   #pingpong.loop<...>  on a K loop: becomes !{!"amdgpu.pingpong", !"<mode>"}
//                        (or !"amdgpu.pingpong.layout") in its !llvm.loop
//   #pingpong.mem<...>   on a memory op of that loop: its role and operand;
//                        becomes alias scopes (buffer identity)
// and the user's spelling on an scf.for: {pingpong.mode = "<mode>"},
// {pingpong.layout = "pingpong-layout v1; ..."}.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_DIALECT_TD
#define PINGPONG_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

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

// The plugin's modes, spelled as in -amdgpu-pingpong= and the loop metadata.
def Pingpong_Mode : I32EnumAttr<"Mode", "block-pingpong mode", [
    I32EnumAttrCase<"Auto", 0, "auto">,
    I32EnumAttrCase<"Off", 1, "off">,
    I32EnumAttrCase<"OneCluster", 2, "one-cluster">,
    I32EnumAttrCase<"TwoCluster", 3, "two-cluster">,
    I32EnumAttrCase<"FourCluster", 4, "four-cluster">]> {
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

#endif // PINGPONG_DIALECT_TD
