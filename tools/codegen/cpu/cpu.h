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

/* a GEMM's micro-kernel: NR columns (two zmm vectors of VW floats) by up
 * to MRMAX rows */
enum { NR = 32, VW = 16, MRMAX = 12 };

/* gemm_plan.c: turns a contraction kernel into a packed GEMM when it can */
int gemm_plan(Gen *g, Kernel *k, FnPlan *fp, Op *op);
/* gemm_emit.c: a KK_GEMM kernel's body */
int gemm_emit(E *e, Kernel *k);

/* nest.c: sets a loop nest's grid (its schedule's workgroups) */
void loop_grid(Kernel *k);
/* a KK_LOOP kernel's body, workgroup wx */
void nest_emit(E *e, Kernel *k, LLVMValueRef wx);

/* compile.c: kernel k's entry and body functions in e's module */
int cpu_kernel(E *e, Kernel *k);
/* identical bodies merged */
int cpu_dedupe(E *e, LLVMTargetMachineRef tm);
/* the module, compiled on --jobs threads, as *nobj objects */
int cpu_compile(E *e, LLVMModuleRef m, const char *triple, KObj **objs, int *nobj);

#endif
