/*
 * cpu.h - the x86-64 target's own declarations (cpu/): GEMM planning
 * (gemm_plan.c) and emission (gemm_emit.c), loop nests (nest.c), LLVM
 * functions and objects (compile.c), the target (cpu.c).  The middle sees
 * none of it: only T_cpu (gen.h).
 */
#ifndef CODEGEN_CPU_H
#define CODEGEN_CPU_H

#include <llvm-c/TargetMachine.h>

#include "llvm/emit.h"

/* A GEMM's micro-kernel: a tile of up to mk.mrmax rows by mk.nr columns,
 * each row NV vectors of mk.nr / NV floats, held in registers: 14 x 32 in
 * zmm where the target has AVX-512 (28 accumulators and two of B: a 14x14
 * map's 196 pixels in 14 tiles, a row of 14 or two of 7 read through
 * their taps one tile), else 6 x 16 in ymm (AVX2's 16 registers: twelve
 * accumulators, two of B and a broadcast).  cpu.c sets it from --cpu and
 * --features before any kernel is planned; MRCAP bounds it for arrays. */
enum { NV = 2, MRCAP = 14 };
typedef struct MicroKernel {
	int nr, mrmax, mrmin;   /* mrmin: gemm_plan.c's pick_mr */
	int vnni;               /* AVX-512 VNNI: int8 GEMMs by vpdpbusd */
	int amx;                /* AMX-BF16: bf16 GEMMs on tiles (tdpbf16ps) */
	int amx8;               /* AMX-INT8: int8 GEMMs on tiles (tdpbsud) */
	int dpbf16;             /* AVX-512 BF16: bf16 GEMMs by vdpbf16ps, where
	                         * not on AMX tiles */
} MicroKernel;
extern MicroKernel mk;

/* gemm_plan.c: turns a contraction kernel into a packed GEMM when it can */
int gemm_plan(Gen *g, Kernel *k, FnPlan *fp, Op *op);
/* gemm_plan.c: a planned GEMM storing into a pad: whether its epilogue
 * writes the pad's columns beside its rows too (kir.h's padw) */
void gemm_pad_columns(Gen *g, Kernel *k);
/* gemm_plan.c: a B packed in the kernel whose k splits into a loop and
 * constant steps (kir.h's kper) */
void gemm_kperiod(Gen *g, Kernel *k);
/* gemm_emit.c: a KK_GEMM kernel's body */
int gemm_emit(E *e, Kernel *k);

/* nest.c: four vectors of n bytes as one of 4n, lane 4j + i lane j of
 * v[i] (an int8 pack's four k of each column together) */
LLVMValueRef interleave(E *e, LLVMValueRef *v, int n, int q);
/* nest.c: sets a loop nest's grid (its schedule's workgroups) */
void loop_grid(Kernel *k);
/* a KK_LOOP kernel's body, workgroup wx of nx */
void nest_emit(E *e, Kernel *k, LLVMValueRef wx, LLVMValueRef nx);

/* compile.c: kernel k's entry and body functions in e's module */
int cpu_kernel(E *e, Kernel *k);
/* a function's attributes: the target CPU and features, vector width */
void cpu_fn_attrs(E *e, LLVMValueRef f);
LLVMAttributeRef cpu_enum_attr(E *e, const char *name, uint64_t v);
/* identical bodies merged */
int cpu_dedupe(E *e, LLVMTargetMachineRef tm);
/* the module, compiled on --jobs threads, as *nobj objects */
int cpu_compile(E *e, LLVMModuleRef m, const char *triple, KObj **objs, int *nobj);

#endif
