; test/kernels/dma_gemm_kt2.hip -DSLOT=mod (gfx950), as clang 22.1 compiles it:
; clang++ -x hip --offload-arch=gfx950 -nogpulib -nogpuinc --offload-device-only -O3 -S -emit-llvm
; (frozen: sync-check-kt2.test checks the IR, not clang's middle end)
; ModuleID = 'dma_gemm_kt2.hip'
source_filename = "dma_gemm_kt2.hip"
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@lds = hidden addrspace(3) global [2 x [32768 x i8]] undef, align 16
@__hip_cuid_fe936e80f8157c89 = addrspace(1) global i8 0
@llvm.compiler.used = appending addrspace(1) global [1 x ptr] [ptr addrspacecast (ptr addrspace(1) @__hip_cuid_fe936e80f8157c89 to ptr)], section "llvm.metadata"

; Function Attrs: convergent mustprogress nofree norecurse nounwind
define protected amdgpu_kernel void @dma_gemm_kt2(ptr addrspace(1) noalias noundef captures(none) %0, ptr addrspace(1) noalias noundef captures(none) %1, ptr addrspace(1) noalias noundef writeonly %2, i32 noundef %3, i32 noundef %4, i32 noundef %5) local_unnamed_addr #0 {
  %7 = tail call i32 @llvm.amdgcn.workitem.id.x()
  %8 = tail call i32 @llvm.amdgcn.readfirstlane.i32(i32 %7)
  %9 = lshr i32 %8, 6
  %10 = shl nsw i32 %5, 1
  %11 = tail call i32 @llvm.amdgcn.workgroup.id.y()
  %12 = zext i32 %11 to i64
  %13 = shl nuw nsw i64 %12, 7
  %14 = sext i32 %10 to i64
  %15 = mul i64 %13, %14
  %16 = getelementptr inbounds i8, ptr addrspace(1) %0, i64 %15
  %17 = shl i32 %9, 10
  %18 = getelementptr i8, ptr addrspace(3) @lds, i32 %17
  %19 = shl nuw nsw i32 %7, 4
  %20 = lshr i32 %7, 3
  %21 = mul i32 %20, %10
  %22 = zext i32 %21 to i64
  %23 = getelementptr inbounds nuw i8, ptr addrspace(1) %16, i64 %22
  %24 = and i32 %19, 112
  %25 = zext nneg i32 %24 to i64
  %26 = getelementptr inbounds nuw i8, ptr addrspace(1) %23, i64 %25
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %26, ptr addrspace(3) %18, i32 16, i32 0, i32 0)
  %27 = add nuw nsw i32 %7, 256
  %28 = shl nuw nsw i32 %27, 4
  %29 = lshr i32 %27, 3
  %30 = mul i32 %29, %10
  %31 = zext i32 %30 to i64
  %32 = getelementptr inbounds nuw i8, ptr addrspace(1) %16, i64 %31
  %33 = and i32 %28, 112
  %34 = zext nneg i32 %33 to i64
  %35 = getelementptr inbounds nuw i8, ptr addrspace(1) %32, i64 %34
  %36 = getelementptr i8, ptr addrspace(3) %18, i32 4096
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %35, ptr addrspace(3) %36, i32 16, i32 0, i32 0)
  %37 = add nuw nsw i32 %7, 512
  %38 = shl nuw nsw i32 %37, 4
  %39 = lshr i32 %37, 3
  %40 = mul i32 %39, %10
  %41 = zext i32 %40 to i64
  %42 = getelementptr inbounds nuw i8, ptr addrspace(1) %16, i64 %41
  %43 = and i32 %38, 112
  %44 = zext nneg i32 %43 to i64
  %45 = getelementptr inbounds nuw i8, ptr addrspace(1) %42, i64 %44
  %46 = getelementptr i8, ptr addrspace(3) %18, i32 8192
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %45, ptr addrspace(3) %46, i32 16, i32 0, i32 0)
  %47 = add nuw nsw i32 %7, 768
  %48 = shl nuw nsw i32 %47, 4
  %49 = lshr i32 %47, 3
  %50 = mul i32 %49, %10
  %51 = zext i32 %50 to i64
  %52 = getelementptr inbounds nuw i8, ptr addrspace(1) %16, i64 %51
  %53 = and i32 %48, 112
  %54 = zext nneg i32 %53 to i64
  %55 = getelementptr inbounds nuw i8, ptr addrspace(1) %52, i64 %54
  %56 = getelementptr i8, ptr addrspace(3) %18, i32 12288
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %55, ptr addrspace(3) %56, i32 16, i32 0, i32 0)
  %57 = tail call i32 @llvm.amdgcn.workgroup.id.x()
  %58 = zext i32 %57 to i64
  %59 = shl nuw nsw i64 %58, 7
  %60 = mul i64 %59, %14
  %61 = getelementptr inbounds i8, ptr addrspace(1) %1, i64 %60
  %62 = getelementptr i8, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @lds, i32 16384), i32 %17
  %63 = getelementptr inbounds nuw i8, ptr addrspace(1) %61, i64 %22
  %64 = getelementptr inbounds nuw i8, ptr addrspace(1) %63, i64 %25
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %64, ptr addrspace(3) %62, i32 16, i32 0, i32 0)
  %65 = getelementptr inbounds nuw i8, ptr addrspace(1) %61, i64 %31
  %66 = getelementptr inbounds nuw i8, ptr addrspace(1) %65, i64 %34
  %67 = getelementptr i8, ptr addrspace(3) %62, i32 4096
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %66, ptr addrspace(3) %67, i32 16, i32 0, i32 0)
  %68 = getelementptr inbounds nuw i8, ptr addrspace(1) %61, i64 %41
  %69 = getelementptr inbounds nuw i8, ptr addrspace(1) %68, i64 %44
  %70 = getelementptr i8, ptr addrspace(3) %62, i32 8192
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %69, ptr addrspace(3) %70, i32 16, i32 0, i32 0)
  %71 = getelementptr inbounds nuw i8, ptr addrspace(1) %61, i64 %51
  %72 = getelementptr inbounds nuw i8, ptr addrspace(1) %71, i64 %54
  %73 = getelementptr i8, ptr addrspace(3) %62, i32 12288
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %72, ptr addrspace(3) %73, i32 16, i32 0, i32 0)
  %74 = lshr i32 %8, 7
  %75 = and i32 %9, 1
  %76 = sdiv i32 %5, 64
  %77 = icmp sgt i32 %5, 63
  br i1 %77, label %78, label %84

78:                                               ; preds = %6
  %79 = and i32 %7, 48
  %80 = shl nuw nsw i32 %75, 13
  %81 = shl nuw nsw i32 %7, 7
  %82 = and i32 %81, 1920
  %83 = shl i32 %74, 13
  br label %280

84:                                               ; preds = %280, %6
  %85 = phi <4 x float> [ zeroinitializer, %6 ], [ %415, %280 ]
  %86 = phi <4 x float> [ zeroinitializer, %6 ], [ %416, %280 ]
  %87 = phi <4 x float> [ zeroinitializer, %6 ], [ %417, %280 ]
  %88 = phi <4 x float> [ zeroinitializer, %6 ], [ %418, %280 ]
  %89 = phi <4 x float> [ zeroinitializer, %6 ], [ %419, %280 ]
  %90 = phi <4 x float> [ zeroinitializer, %6 ], [ %420, %280 ]
  %91 = phi <4 x float> [ zeroinitializer, %6 ], [ %421, %280 ]
  %92 = phi <4 x float> [ zeroinitializer, %6 ], [ %422, %280 ]
  %93 = phi <4 x float> [ zeroinitializer, %6 ], [ %423, %280 ]
  %94 = phi <4 x float> [ zeroinitializer, %6 ], [ %424, %280 ]
  %95 = phi <4 x float> [ zeroinitializer, %6 ], [ %425, %280 ]
  %96 = phi <4 x float> [ zeroinitializer, %6 ], [ %426, %280 ]
  %97 = phi <4 x float> [ zeroinitializer, %6 ], [ %427, %280 ]
  %98 = phi <4 x float> [ zeroinitializer, %6 ], [ %428, %280 ]
  %99 = phi <4 x float> [ zeroinitializer, %6 ], [ %429, %280 ]
  %100 = phi <4 x float> [ zeroinitializer, %6 ], [ %430, %280 ]
  %101 = shl nuw nsw i32 %74, 6
  %102 = zext nneg i32 %101 to i64
  %103 = add nuw nsw i64 %13, %102
  %104 = lshr i32 %7, 2
  %105 = and i32 %104, 12
  %106 = zext nneg i32 %105 to i64
  %107 = or disjoint i64 %103, %106
  %108 = sext i32 %4 to i64
  %109 = shl i32 %57, 7
  %110 = zext i32 %109 to i64
  %111 = shl nuw nsw i32 %75, 6
  %112 = zext nneg i32 %111 to i64
  %113 = and i32 %7, 15
  %114 = zext nneg i32 %113 to i64
  %115 = getelementptr float, ptr addrspace(1) %2, i64 %110
  %116 = getelementptr float, ptr addrspace(1) %115, i64 %112
  %117 = getelementptr float, ptr addrspace(1) %116, i64 %114
  %118 = extractelement <4 x float> %85, i64 0
  %119 = mul i64 %107, %108
  %120 = getelementptr float, ptr addrspace(1) %117, i64 %119
  store float %118, ptr addrspace(1) %120, align 4, !tbaa !9
  %121 = extractelement <4 x float> %85, i64 1
  %122 = or disjoint i64 %107, 1
  %123 = mul i64 %122, %108
  %124 = getelementptr float, ptr addrspace(1) %117, i64 %123
  store float %121, ptr addrspace(1) %124, align 4, !tbaa !9
  %125 = extractelement <4 x float> %85, i64 2
  %126 = or disjoint i64 %107, 2
  %127 = mul i64 %126, %108
  %128 = getelementptr float, ptr addrspace(1) %117, i64 %127
  store float %125, ptr addrspace(1) %128, align 4, !tbaa !9
  %129 = extractelement <4 x float> %85, i64 3
  %130 = or disjoint i64 %107, 3
  %131 = mul i64 %130, %108
  %132 = getelementptr float, ptr addrspace(1) %117, i64 %131
  store float %129, ptr addrspace(1) %132, align 4, !tbaa !9
  %133 = getelementptr i8, ptr addrspace(1) %117, i64 64
  %134 = extractelement <4 x float> %86, i64 0
  %135 = getelementptr float, ptr addrspace(1) %133, i64 %119
  store float %134, ptr addrspace(1) %135, align 4, !tbaa !9
  %136 = extractelement <4 x float> %86, i64 1
  %137 = getelementptr float, ptr addrspace(1) %133, i64 %123
  store float %136, ptr addrspace(1) %137, align 4, !tbaa !9
  %138 = extractelement <4 x float> %86, i64 2
  %139 = getelementptr float, ptr addrspace(1) %133, i64 %127
  store float %138, ptr addrspace(1) %139, align 4, !tbaa !9
  %140 = extractelement <4 x float> %86, i64 3
  %141 = getelementptr float, ptr addrspace(1) %133, i64 %131
  store float %140, ptr addrspace(1) %141, align 4, !tbaa !9
  %142 = getelementptr i8, ptr addrspace(1) %117, i64 128
  %143 = extractelement <4 x float> %87, i64 0
  %144 = getelementptr float, ptr addrspace(1) %142, i64 %119
  store float %143, ptr addrspace(1) %144, align 4, !tbaa !9
  %145 = extractelement <4 x float> %87, i64 1
  %146 = getelementptr float, ptr addrspace(1) %142, i64 %123
  store float %145, ptr addrspace(1) %146, align 4, !tbaa !9
  %147 = extractelement <4 x float> %87, i64 2
  %148 = getelementptr float, ptr addrspace(1) %142, i64 %127
  store float %147, ptr addrspace(1) %148, align 4, !tbaa !9
  %149 = extractelement <4 x float> %87, i64 3
  %150 = getelementptr float, ptr addrspace(1) %142, i64 %131
  store float %149, ptr addrspace(1) %150, align 4, !tbaa !9
  %151 = getelementptr i8, ptr addrspace(1) %117, i64 192
  %152 = extractelement <4 x float> %88, i64 0
  %153 = getelementptr float, ptr addrspace(1) %151, i64 %119
  store float %152, ptr addrspace(1) %153, align 4, !tbaa !9
  %154 = extractelement <4 x float> %88, i64 1
  %155 = getelementptr float, ptr addrspace(1) %151, i64 %123
  store float %154, ptr addrspace(1) %155, align 4, !tbaa !9
  %156 = extractelement <4 x float> %88, i64 2
  %157 = getelementptr float, ptr addrspace(1) %151, i64 %127
  store float %156, ptr addrspace(1) %157, align 4, !tbaa !9
  %158 = extractelement <4 x float> %88, i64 3
  %159 = getelementptr float, ptr addrspace(1) %151, i64 %131
  store float %158, ptr addrspace(1) %159, align 4, !tbaa !9
  %160 = or disjoint i64 %107, 16
  %161 = extractelement <4 x float> %89, i64 0
  %162 = mul i64 %160, %108
  %163 = getelementptr float, ptr addrspace(1) %117, i64 %162
  store float %161, ptr addrspace(1) %163, align 4, !tbaa !9
  %164 = extractelement <4 x float> %89, i64 1
  %165 = or disjoint i64 %107, 17
  %166 = mul i64 %165, %108
  %167 = getelementptr float, ptr addrspace(1) %117, i64 %166
  store float %164, ptr addrspace(1) %167, align 4, !tbaa !9
  %168 = extractelement <4 x float> %89, i64 2
  %169 = or disjoint i64 %107, 18
  %170 = mul i64 %169, %108
  %171 = getelementptr float, ptr addrspace(1) %117, i64 %170
  store float %168, ptr addrspace(1) %171, align 4, !tbaa !9
  %172 = extractelement <4 x float> %89, i64 3
  %173 = or disjoint i64 %107, 19
  %174 = mul i64 %173, %108
  %175 = getelementptr float, ptr addrspace(1) %117, i64 %174
  store float %172, ptr addrspace(1) %175, align 4, !tbaa !9
  %176 = extractelement <4 x float> %90, i64 0
  %177 = getelementptr float, ptr addrspace(1) %133, i64 %162
  store float %176, ptr addrspace(1) %177, align 4, !tbaa !9
  %178 = extractelement <4 x float> %90, i64 1
  %179 = getelementptr float, ptr addrspace(1) %133, i64 %166
  store float %178, ptr addrspace(1) %179, align 4, !tbaa !9
  %180 = extractelement <4 x float> %90, i64 2
  %181 = getelementptr float, ptr addrspace(1) %133, i64 %170
  store float %180, ptr addrspace(1) %181, align 4, !tbaa !9
  %182 = extractelement <4 x float> %90, i64 3
  %183 = getelementptr float, ptr addrspace(1) %133, i64 %174
  store float %182, ptr addrspace(1) %183, align 4, !tbaa !9
  %184 = extractelement <4 x float> %91, i64 0
  %185 = getelementptr float, ptr addrspace(1) %142, i64 %162
  store float %184, ptr addrspace(1) %185, align 4, !tbaa !9
  %186 = extractelement <4 x float> %91, i64 1
  %187 = getelementptr float, ptr addrspace(1) %142, i64 %166
  store float %186, ptr addrspace(1) %187, align 4, !tbaa !9
  %188 = extractelement <4 x float> %91, i64 2
  %189 = getelementptr float, ptr addrspace(1) %142, i64 %170
  store float %188, ptr addrspace(1) %189, align 4, !tbaa !9
  %190 = extractelement <4 x float> %91, i64 3
  %191 = getelementptr float, ptr addrspace(1) %142, i64 %174
  store float %190, ptr addrspace(1) %191, align 4, !tbaa !9
  %192 = extractelement <4 x float> %92, i64 0
  %193 = getelementptr float, ptr addrspace(1) %151, i64 %162
  store float %192, ptr addrspace(1) %193, align 4, !tbaa !9
  %194 = extractelement <4 x float> %92, i64 1
  %195 = getelementptr float, ptr addrspace(1) %151, i64 %166
  store float %194, ptr addrspace(1) %195, align 4, !tbaa !9
  %196 = extractelement <4 x float> %92, i64 2
  %197 = getelementptr float, ptr addrspace(1) %151, i64 %170
  store float %196, ptr addrspace(1) %197, align 4, !tbaa !9
  %198 = extractelement <4 x float> %92, i64 3
  %199 = getelementptr float, ptr addrspace(1) %151, i64 %174
  store float %198, ptr addrspace(1) %199, align 4, !tbaa !9
  %200 = or disjoint i64 %107, 32
  %201 = extractelement <4 x float> %93, i64 0
  %202 = mul i64 %200, %108
  %203 = getelementptr float, ptr addrspace(1) %117, i64 %202
  store float %201, ptr addrspace(1) %203, align 4, !tbaa !9
  %204 = extractelement <4 x float> %93, i64 1
  %205 = or disjoint i64 %107, 33
  %206 = mul i64 %205, %108
  %207 = getelementptr float, ptr addrspace(1) %117, i64 %206
  store float %204, ptr addrspace(1) %207, align 4, !tbaa !9
  %208 = extractelement <4 x float> %93, i64 2
  %209 = or disjoint i64 %107, 34
  %210 = mul i64 %209, %108
  %211 = getelementptr float, ptr addrspace(1) %117, i64 %210
  store float %208, ptr addrspace(1) %211, align 4, !tbaa !9
  %212 = extractelement <4 x float> %93, i64 3
  %213 = or disjoint i64 %107, 35
  %214 = mul i64 %213, %108
  %215 = getelementptr float, ptr addrspace(1) %117, i64 %214
  store float %212, ptr addrspace(1) %215, align 4, !tbaa !9
  %216 = extractelement <4 x float> %94, i64 0
  %217 = getelementptr float, ptr addrspace(1) %133, i64 %202
  store float %216, ptr addrspace(1) %217, align 4, !tbaa !9
  %218 = extractelement <4 x float> %94, i64 1
  %219 = getelementptr float, ptr addrspace(1) %133, i64 %206
  store float %218, ptr addrspace(1) %219, align 4, !tbaa !9
  %220 = extractelement <4 x float> %94, i64 2
  %221 = getelementptr float, ptr addrspace(1) %133, i64 %210
  store float %220, ptr addrspace(1) %221, align 4, !tbaa !9
  %222 = extractelement <4 x float> %94, i64 3
  %223 = getelementptr float, ptr addrspace(1) %133, i64 %214
  store float %222, ptr addrspace(1) %223, align 4, !tbaa !9
  %224 = extractelement <4 x float> %95, i64 0
  %225 = getelementptr float, ptr addrspace(1) %142, i64 %202
  store float %224, ptr addrspace(1) %225, align 4, !tbaa !9
  %226 = extractelement <4 x float> %95, i64 1
  %227 = getelementptr float, ptr addrspace(1) %142, i64 %206
  store float %226, ptr addrspace(1) %227, align 4, !tbaa !9
  %228 = extractelement <4 x float> %95, i64 2
  %229 = getelementptr float, ptr addrspace(1) %142, i64 %210
  store float %228, ptr addrspace(1) %229, align 4, !tbaa !9
  %230 = extractelement <4 x float> %95, i64 3
  %231 = getelementptr float, ptr addrspace(1) %142, i64 %214
  store float %230, ptr addrspace(1) %231, align 4, !tbaa !9
  %232 = extractelement <4 x float> %96, i64 0
  %233 = getelementptr float, ptr addrspace(1) %151, i64 %202
  store float %232, ptr addrspace(1) %233, align 4, !tbaa !9
  %234 = extractelement <4 x float> %96, i64 1
  %235 = getelementptr float, ptr addrspace(1) %151, i64 %206
  store float %234, ptr addrspace(1) %235, align 4, !tbaa !9
  %236 = extractelement <4 x float> %96, i64 2
  %237 = getelementptr float, ptr addrspace(1) %151, i64 %210
  store float %236, ptr addrspace(1) %237, align 4, !tbaa !9
  %238 = extractelement <4 x float> %96, i64 3
  %239 = getelementptr float, ptr addrspace(1) %151, i64 %214
  store float %238, ptr addrspace(1) %239, align 4, !tbaa !9
  %240 = or disjoint i64 %107, 48
  %241 = extractelement <4 x float> %97, i64 0
  %242 = mul i64 %240, %108
  %243 = getelementptr float, ptr addrspace(1) %117, i64 %242
  store float %241, ptr addrspace(1) %243, align 4, !tbaa !9
  %244 = extractelement <4 x float> %97, i64 1
  %245 = or disjoint i64 %107, 49
  %246 = mul i64 %245, %108
  %247 = getelementptr float, ptr addrspace(1) %117, i64 %246
  store float %244, ptr addrspace(1) %247, align 4, !tbaa !9
  %248 = extractelement <4 x float> %97, i64 2
  %249 = or disjoint i64 %107, 50
  %250 = mul i64 %249, %108
  %251 = getelementptr float, ptr addrspace(1) %117, i64 %250
  store float %248, ptr addrspace(1) %251, align 4, !tbaa !9
  %252 = extractelement <4 x float> %97, i64 3
  %253 = or disjoint i64 %107, 51
  %254 = mul i64 %253, %108
  %255 = getelementptr float, ptr addrspace(1) %117, i64 %254
  store float %252, ptr addrspace(1) %255, align 4, !tbaa !9
  %256 = extractelement <4 x float> %98, i64 0
  %257 = getelementptr float, ptr addrspace(1) %133, i64 %242
  store float %256, ptr addrspace(1) %257, align 4, !tbaa !9
  %258 = extractelement <4 x float> %98, i64 1
  %259 = getelementptr float, ptr addrspace(1) %133, i64 %246
  store float %258, ptr addrspace(1) %259, align 4, !tbaa !9
  %260 = extractelement <4 x float> %98, i64 2
  %261 = getelementptr float, ptr addrspace(1) %133, i64 %250
  store float %260, ptr addrspace(1) %261, align 4, !tbaa !9
  %262 = extractelement <4 x float> %98, i64 3
  %263 = getelementptr float, ptr addrspace(1) %133, i64 %254
  store float %262, ptr addrspace(1) %263, align 4, !tbaa !9
  %264 = extractelement <4 x float> %99, i64 0
  %265 = getelementptr float, ptr addrspace(1) %142, i64 %242
  store float %264, ptr addrspace(1) %265, align 4, !tbaa !9
  %266 = extractelement <4 x float> %99, i64 1
  %267 = getelementptr float, ptr addrspace(1) %142, i64 %246
  store float %266, ptr addrspace(1) %267, align 4, !tbaa !9
  %268 = extractelement <4 x float> %99, i64 2
  %269 = getelementptr float, ptr addrspace(1) %142, i64 %250
  store float %268, ptr addrspace(1) %269, align 4, !tbaa !9
  %270 = extractelement <4 x float> %99, i64 3
  %271 = getelementptr float, ptr addrspace(1) %142, i64 %254
  store float %270, ptr addrspace(1) %271, align 4, !tbaa !9
  %272 = extractelement <4 x float> %100, i64 0
  %273 = getelementptr float, ptr addrspace(1) %151, i64 %242
  store float %272, ptr addrspace(1) %273, align 4, !tbaa !9
  %274 = extractelement <4 x float> %100, i64 1
  %275 = getelementptr float, ptr addrspace(1) %151, i64 %246
  store float %274, ptr addrspace(1) %275, align 4, !tbaa !9
  %276 = extractelement <4 x float> %100, i64 2
  %277 = getelementptr float, ptr addrspace(1) %151, i64 %250
  store float %276, ptr addrspace(1) %277, align 4, !tbaa !9
  %278 = extractelement <4 x float> %100, i64 3
  %279 = getelementptr float, ptr addrspace(1) %151, i64 %254
  store float %278, ptr addrspace(1) %279, align 4, !tbaa !9
  ret void

280:                                              ; preds = %78, %280
  %281 = phi <4 x float> [ zeroinitializer, %78 ], [ %415, %280 ]
  %282 = phi <4 x float> [ zeroinitializer, %78 ], [ %416, %280 ]
  %283 = phi <4 x float> [ zeroinitializer, %78 ], [ %417, %280 ]
  %284 = phi <4 x float> [ zeroinitializer, %78 ], [ %418, %280 ]
  %285 = phi <4 x float> [ zeroinitializer, %78 ], [ %419, %280 ]
  %286 = phi <4 x float> [ zeroinitializer, %78 ], [ %420, %280 ]
  %287 = phi <4 x float> [ zeroinitializer, %78 ], [ %421, %280 ]
  %288 = phi <4 x float> [ zeroinitializer, %78 ], [ %422, %280 ]
  %289 = phi <4 x float> [ zeroinitializer, %78 ], [ %423, %280 ]
  %290 = phi <4 x float> [ zeroinitializer, %78 ], [ %424, %280 ]
  %291 = phi <4 x float> [ zeroinitializer, %78 ], [ %425, %280 ]
  %292 = phi <4 x float> [ zeroinitializer, %78 ], [ %426, %280 ]
  %293 = phi <4 x float> [ zeroinitializer, %78 ], [ %427, %280 ]
  %294 = phi <4 x float> [ zeroinitializer, %78 ], [ %428, %280 ]
  %295 = phi <4 x float> [ zeroinitializer, %78 ], [ %429, %280 ]
  %296 = phi <4 x float> [ zeroinitializer, %78 ], [ %430, %280 ]
  %297 = phi i32 [ 0, %78 ], [ %298, %280 ]
  fence syncscope("workgroup") release
  tail call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %298 = add nuw nsw i32 %297, 1
  %299 = and i32 %298, 1
  %300 = icmp slt i32 %298, %76
  %301 = shl nsw i32 %298, 7
  %302 = select i1 %300, i32 %301, i32 0
  %303 = getelementptr inbounds nuw [32768 x i8], ptr addrspace(3) @lds, i32 %299
  %304 = zext nneg i32 %302 to i64
  %305 = getelementptr inbounds nuw i8, ptr addrspace(1) %16, i64 %304
  %306 = getelementptr i8, ptr addrspace(3) %303, i32 %17
  %307 = getelementptr inbounds nuw i8, ptr addrspace(1) %305, i64 %22
  %308 = getelementptr inbounds nuw i8, ptr addrspace(1) %307, i64 %25
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %308, ptr addrspace(3) %306, i32 16, i32 0, i32 0)
  %309 = getelementptr inbounds nuw i8, ptr addrspace(1) %305, i64 %31
  %310 = getelementptr inbounds nuw i8, ptr addrspace(1) %309, i64 %34
  %311 = getelementptr i8, ptr addrspace(3) %306, i32 4096
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %310, ptr addrspace(3) %311, i32 16, i32 0, i32 0)
  %312 = getelementptr inbounds nuw i8, ptr addrspace(1) %305, i64 %41
  %313 = getelementptr inbounds nuw i8, ptr addrspace(1) %312, i64 %44
  %314 = getelementptr i8, ptr addrspace(3) %306, i32 8192
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %313, ptr addrspace(3) %314, i32 16, i32 0, i32 0)
  %315 = getelementptr inbounds nuw i8, ptr addrspace(1) %305, i64 %51
  %316 = getelementptr inbounds nuw i8, ptr addrspace(1) %315, i64 %54
  %317 = getelementptr i8, ptr addrspace(3) %306, i32 12288
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %316, ptr addrspace(3) %317, i32 16, i32 0, i32 0)
  %318 = getelementptr inbounds nuw i8, ptr addrspace(1) %61, i64 %304
  %319 = getelementptr inbounds nuw i8, ptr addrspace(3) %303, i32 16384
  %320 = getelementptr i8, ptr addrspace(3) %319, i32 %17
  %321 = getelementptr inbounds nuw i8, ptr addrspace(1) %318, i64 %22
  %322 = getelementptr inbounds nuw i8, ptr addrspace(1) %321, i64 %25
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %322, ptr addrspace(3) %320, i32 16, i32 0, i32 0)
  %323 = getelementptr inbounds nuw i8, ptr addrspace(1) %318, i64 %31
  %324 = getelementptr inbounds nuw i8, ptr addrspace(1) %323, i64 %34
  %325 = getelementptr i8, ptr addrspace(3) %320, i32 4096
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %324, ptr addrspace(3) %325, i32 16, i32 0, i32 0)
  %326 = getelementptr inbounds nuw i8, ptr addrspace(1) %318, i64 %41
  %327 = getelementptr inbounds nuw i8, ptr addrspace(1) %326, i64 %44
  %328 = getelementptr i8, ptr addrspace(3) %320, i32 8192
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %327, ptr addrspace(3) %328, i32 16, i32 0, i32 0)
  %329 = getelementptr inbounds nuw i8, ptr addrspace(1) %318, i64 %51
  %330 = getelementptr inbounds nuw i8, ptr addrspace(1) %329, i64 %54
  %331 = getelementptr i8, ptr addrspace(3) %320, i32 12288
  tail call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %330, ptr addrspace(3) %331, i32 16, i32 0, i32 0)
  %332 = and i32 %297, 1
  %333 = getelementptr inbounds nuw [32768 x i8], ptr addrspace(3) @lds, i32 %332
  %334 = getelementptr inbounds nuw i8, ptr addrspace(3) %333, i32 16384
  %335 = getelementptr i8, ptr addrspace(3) %333, i32 %79
  %336 = getelementptr inbounds nuw i8, ptr addrspace(3) %334, i32 %79
  %337 = getelementptr i8, ptr addrspace(3) %335, i32 %83
  %338 = getelementptr i8, ptr addrspace(3) %337, i32 %82
  %339 = load <8 x half>, ptr addrspace(3) %338, align 16, !tbaa !11
  %340 = getelementptr i8, ptr addrspace(3) %335, i32 2048
  %341 = getelementptr i8, ptr addrspace(3) %340, i32 %83
  %342 = getelementptr i8, ptr addrspace(3) %341, i32 %82
  %343 = load <8 x half>, ptr addrspace(3) %342, align 16, !tbaa !11
  %344 = getelementptr i8, ptr addrspace(3) %335, i32 4096
  %345 = getelementptr i8, ptr addrspace(3) %344, i32 %83
  %346 = getelementptr i8, ptr addrspace(3) %345, i32 %82
  %347 = load <8 x half>, ptr addrspace(3) %346, align 16, !tbaa !11
  %348 = getelementptr i8, ptr addrspace(3) %335, i32 6144
  %349 = getelementptr i8, ptr addrspace(3) %348, i32 %83
  %350 = getelementptr i8, ptr addrspace(3) %349, i32 %82
  %351 = load <8 x half>, ptr addrspace(3) %350, align 16, !tbaa !11
  %352 = getelementptr i8, ptr addrspace(3) %336, i32 %80
  %353 = getelementptr i8, ptr addrspace(3) %352, i32 %82
  %354 = load <8 x half>, ptr addrspace(3) %353, align 16, !tbaa !11
  %355 = getelementptr i8, ptr addrspace(3) %336, i32 2048
  %356 = getelementptr i8, ptr addrspace(3) %355, i32 %80
  %357 = getelementptr i8, ptr addrspace(3) %356, i32 %82
  %358 = load <8 x half>, ptr addrspace(3) %357, align 16, !tbaa !11
  %359 = getelementptr i8, ptr addrspace(3) %336, i32 4096
  %360 = getelementptr i8, ptr addrspace(3) %359, i32 %80
  %361 = getelementptr i8, ptr addrspace(3) %360, i32 %82
  %362 = load <8 x half>, ptr addrspace(3) %361, align 16, !tbaa !11
  %363 = getelementptr i8, ptr addrspace(3) %336, i32 6144
  %364 = getelementptr i8, ptr addrspace(3) %363, i32 %80
  %365 = getelementptr i8, ptr addrspace(3) %364, i32 %82
  %366 = load <8 x half>, ptr addrspace(3) %365, align 16, !tbaa !11
  %367 = getelementptr i8, ptr addrspace(3) %335, i32 64
  %368 = getelementptr i8, ptr addrspace(3) %367, i32 %83
  %369 = getelementptr i8, ptr addrspace(3) %368, i32 %82
  %370 = load <8 x half>, ptr addrspace(3) %369, align 16, !tbaa !11
  %371 = getelementptr i8, ptr addrspace(3) %335, i32 2112
  %372 = getelementptr i8, ptr addrspace(3) %371, i32 %83
  %373 = getelementptr i8, ptr addrspace(3) %372, i32 %82
  %374 = load <8 x half>, ptr addrspace(3) %373, align 16, !tbaa !11
  %375 = getelementptr i8, ptr addrspace(3) %335, i32 4160
  %376 = getelementptr i8, ptr addrspace(3) %375, i32 %83
  %377 = getelementptr i8, ptr addrspace(3) %376, i32 %82
  %378 = load <8 x half>, ptr addrspace(3) %377, align 16, !tbaa !11
  %379 = getelementptr i8, ptr addrspace(3) %335, i32 6208
  %380 = getelementptr i8, ptr addrspace(3) %379, i32 %83
  %381 = getelementptr i8, ptr addrspace(3) %380, i32 %82
  %382 = load <8 x half>, ptr addrspace(3) %381, align 16, !tbaa !11
  %383 = getelementptr inbounds nuw i8, ptr addrspace(3) %336, i32 64
  %384 = getelementptr i8, ptr addrspace(3) %383, i32 %80
  %385 = getelementptr i8, ptr addrspace(3) %384, i32 %82
  %386 = load <8 x half>, ptr addrspace(3) %385, align 16, !tbaa !11
  %387 = getelementptr i8, ptr addrspace(3) %336, i32 2112
  %388 = getelementptr i8, ptr addrspace(3) %387, i32 %80
  %389 = getelementptr i8, ptr addrspace(3) %388, i32 %82
  %390 = load <8 x half>, ptr addrspace(3) %389, align 16, !tbaa !11
  %391 = getelementptr i8, ptr addrspace(3) %336, i32 4160
  %392 = getelementptr i8, ptr addrspace(3) %391, i32 %80
  %393 = getelementptr i8, ptr addrspace(3) %392, i32 %82
  %394 = load <8 x half>, ptr addrspace(3) %393, align 16, !tbaa !11
  %395 = getelementptr i8, ptr addrspace(3) %336, i32 6208
  %396 = getelementptr i8, ptr addrspace(3) %395, i32 %80
  %397 = getelementptr i8, ptr addrspace(3) %396, i32 %82
  %398 = load <8 x half>, ptr addrspace(3) %397, align 16, !tbaa !11
  %399 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %339, <8 x half> %354, <4 x float> %281, i32 0, i32 0, i32 0)
  %400 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %339, <8 x half> %358, <4 x float> %282, i32 0, i32 0, i32 0)
  %401 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %339, <8 x half> %362, <4 x float> %283, i32 0, i32 0, i32 0)
  %402 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %339, <8 x half> %366, <4 x float> %284, i32 0, i32 0, i32 0)
  %403 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %343, <8 x half> %354, <4 x float> %285, i32 0, i32 0, i32 0)
  %404 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %343, <8 x half> %358, <4 x float> %286, i32 0, i32 0, i32 0)
  %405 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %343, <8 x half> %362, <4 x float> %287, i32 0, i32 0, i32 0)
  %406 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %343, <8 x half> %366, <4 x float> %288, i32 0, i32 0, i32 0)
  %407 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %347, <8 x half> %354, <4 x float> %289, i32 0, i32 0, i32 0)
  %408 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %347, <8 x half> %358, <4 x float> %290, i32 0, i32 0, i32 0)
  %409 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %347, <8 x half> %362, <4 x float> %291, i32 0, i32 0, i32 0)
  %410 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %347, <8 x half> %366, <4 x float> %292, i32 0, i32 0, i32 0)
  %411 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %351, <8 x half> %354, <4 x float> %293, i32 0, i32 0, i32 0)
  %412 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %351, <8 x half> %358, <4 x float> %294, i32 0, i32 0, i32 0)
  %413 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %351, <8 x half> %362, <4 x float> %295, i32 0, i32 0, i32 0)
  %414 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %351, <8 x half> %366, <4 x float> %296, i32 0, i32 0, i32 0)
  %415 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %370, <8 x half> %386, <4 x float> %399, i32 0, i32 0, i32 0)
  %416 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %370, <8 x half> %390, <4 x float> %400, i32 0, i32 0, i32 0)
  %417 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %370, <8 x half> %394, <4 x float> %401, i32 0, i32 0, i32 0)
  %418 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %370, <8 x half> %398, <4 x float> %402, i32 0, i32 0, i32 0)
  %419 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %374, <8 x half> %386, <4 x float> %403, i32 0, i32 0, i32 0)
  %420 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %374, <8 x half> %390, <4 x float> %404, i32 0, i32 0, i32 0)
  %421 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %374, <8 x half> %394, <4 x float> %405, i32 0, i32 0, i32 0)
  %422 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %374, <8 x half> %398, <4 x float> %406, i32 0, i32 0, i32 0)
  %423 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %378, <8 x half> %386, <4 x float> %407, i32 0, i32 0, i32 0)
  %424 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %378, <8 x half> %390, <4 x float> %408, i32 0, i32 0, i32 0)
  %425 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %378, <8 x half> %394, <4 x float> %409, i32 0, i32 0, i32 0)
  %426 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %378, <8 x half> %398, <4 x float> %410, i32 0, i32 0, i32 0)
  %427 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %382, <8 x half> %386, <4 x float> %411, i32 0, i32 0, i32 0)
  %428 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %382, <8 x half> %390, <4 x float> %412, i32 0, i32 0, i32 0)
  %429 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %382, <8 x half> %394, <4 x float> %413, i32 0, i32 0, i32 0)
  %430 = tail call contract <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %382, <8 x half> %398, <4 x float> %414, i32 0, i32 0, i32 0)
  %431 = icmp eq i32 %298, %76
  br i1 %431, label %84, label %280, !llvm.loop !12
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #1

; Function Attrs: convergent mustprogress nocallback nocreateundeforpoison nofree nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32) #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #1

; Function Attrs: convergent mustprogress nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half>, <8 x half>, <4 x float>, i32 immarg, i32 immarg, i32 immarg) #3

; Function Attrs: mustprogress nocallback nofree nounwind willreturn
declare void @llvm.amdgcn.global.load.lds(ptr addrspace(1) captures(none), ptr addrspace(3) captures(none), i32 immarg, i32 immarg, i32 immarg) #4

; Function Attrs: convergent mustprogress nocallback nofree nounwind willreturn
declare void @llvm.amdgcn.s.barrier() #5

attributes #0 = { convergent mustprogress nofree norecurse nounwind "amdgpu-agpr-alloc"="0" "amdgpu-flat-work-group-size"="256,256" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx950" "target-features"="+16-bit-insts,+ashr-pk-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-buffer-pk-add-bf16-inst,+atomic-ds-pk-add-16-insts,+atomic-fadd-rtn-insts,+atomic-flat-pk-add-16-insts,+atomic-fmin-fmax-global-f64,+atomic-global-pk-add-bf16-inst,+bf8-cvt-scale-insts,+bitop3-insts,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot12-insts,+dot13-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+f16bf16-to-fp6bf6-cvt-scale-insts,+f32-to-f16bf16-cvt-sr-insts,+fp4-cvt-scale-insts,+fp6bf6-cvt-scale-insts,+fp8-conversion-insts,+fp8-cvt-scale-insts,+fp8-insts,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+gfx940-insts,+gfx950-insts,+lerp-inst,+mai-insts,+permlane16-swap,+permlane32-swap,+prng-inst,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent mustprogress nocallback nocreateundeforpoison nofree nounwind willreturn memory(none) }
attributes #3 = { convergent mustprogress nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none) }
attributes #4 = { mustprogress nocallback nofree nounwind willreturn }
attributes #5 = { convergent mustprogress nocallback nofree nounwind willreturn }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}
!llvm.errno.tbaa = !{!5}

!0 = !{i32 1, !"amdhsa_code_object_version", i32 600}
!1 = !{i32 1, !"amdgpu_printf_kind", !"hostcall"}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 8, !"PIC Level", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C++ TBAA"}
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !7, i64 0}
!11 = !{!7, !7, i64 0}
!12 = distinct !{!12, !13}
!13 = !{!"llvm.loop.mustprogress"}
