/*
 * cuda.c - kernels to PTX through LLVM's NVPTX backend (--target=cuda).
 *
 * The dispatch regions and their kernel IR are the CPU's (dispatch.c,
 * kir.h); the scalar expressions are emitted by llvm/'s e_expr, so the
 * two targets compute the same thing.  What differs is the iteration:
 *
 *   tiled             a contraction (matmul, batch matmul, convolution:
 *                     out = sum of x * y in f32): a block per 64 x 64
 *                     tile of outputs, x and y staged through shared
 *                     memory 16 steps of the reduction at a time, 4 x 4
 *                     outputs per thread (tile_plan, tile_kernel); with
 *                     f16 or bf16 operands the tiles stay 16-bit and
 *                     tensor cores multiply them (mma_kernel)
 *   thread per point  the parallel dims linearized, one thread per output
 *                     point in blocks of CUDA_BLOCK threads over a
 *                     grid-stride loop; a reduction runs serially in the
 *                     thread (small contractions, short reductions)
 *   block per point   a long reduction whose body combines the
 *                     accumulator with one associative op (add, mul, max,
 *                     min, and, or, xor): the block's threads stride the
 *                     reduction domain, then reduce by warp shuffles and
 *                     one word of shared memory per warp
 *
 * Kernels take their bindings as `ptr addrspace(1)` parameters (the ABI in
 * formats/fxvm.md) and are marked in nvvm.annotations.  Math functions
 * the expressions call (expf, tanhf, erff, …) are defined over libdevice's
 * __nv_* functions, linked from CUDA's libdevice.10.bc and internalized.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "cuda.h"
#include "tool.h"

static const char *const arches[][2] = {
	{ "sm_80", "+ptx70" }, { "sm_86", "+ptx71" }, { "sm_89", "+ptx78" }, { "sm_90", "+ptx78" },
};

/* The GPU architectures --gpu-arch accepts; 1 if arch is one. */
static int cuda_arch_ok(const char *arch)
{
	for (size_t i = 0; i < sizeof arches / sizeof arches[0]; i++)
		if (!strcmp(arch, arches[i][0]))
			return 1;
	return 0;
}

/* ---- libdevice ---- */

static char *libdevice_path(void)
{
	const char *env[] = { "CUDA_HOME", "CUDA_PATH" };
	const char *fixed[] = {
		"/usr/local/cuda/nvvm/libdevice/libdevice.10.bc",
		"/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc",
		"/usr/lib/cuda/nvvm/libdevice/libdevice.10.bc",
		"/opt/cuda/nvvm/libdevice/libdevice.10.bc",
	};
	char buf[4096];

	for (size_t i = 0; i < 2; i++) {
		const char *h = getenv(env[i]);

		if (h && *h) {
			snprintf(buf, sizeof buf, "%s/nvvm/libdevice/libdevice.10.bc", h);
			if (!access(buf, R_OK))
				return xstrdup(buf);
		}
	}
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (!access(fixed[i], R_OK))
			return xstrdup(fixed[i]);
	return NULL;
}

/* Defines each C math function the kernels call (expf, …) as a call of
 * libdevice's __nv_ twin: 1 if there is one, 0 if none, -1 after an
 * error. */
static int define_math(E *e)
{
	LLVMValueRef f;
	int need = 0;

	for (f = LLVMGetFirstFunction(e->m); f; f = LLVMGetNextFunction(f)) {
		size_t n;
		const char *name = LLVMGetValueName2(f, &n);
		char nv[128];
		LLVMTypeRef ft = LLVMGlobalGetValueType(f);
		unsigned np = LLVMCountParams(f), i;
		LLVMValueRef args[4], callee;

		if (!LLVMIsDeclaration(f) || !strncmp(name, "llvm.", 5) || !strncmp(name, "__nv_", 5))
			continue;
		if (np > 4 || n + 6 > sizeof nv) {
			tool_err("the CUDA target has no function '%s'", name);
			return -1;
		}
		snprintf(nv, sizeof nv, "__nv_%s", name);
		callee = LLVMGetNamedFunction(e->m, nv);
		if (!callee)
			callee = LLVMAddFunction(e->m, nv, ft);
		LLVMPositionBuilderAtEnd(e->b, LLVMAppendBasicBlockInContext(e->cx, f, "entry"));
		for (i = 0; i < np; i++)
			args[i] = LLVMGetParam(f, i);
		LLVMBuildRet(e->b, LLVMBuildCall2(e->b, ft, callee, args, np, ""));
		LLVMSetLinkage(f, LLVMInternalLinkage);
		need = 1;
	}
	return need;
}

/* libdevice read and linked into e's module; 0, or -1 after an error */
static int link_libdevice(E *e, LLVMTargetDataRef td, const char *triple)
{
	LLVMMemoryBufferRef mb;
	LLVMModuleRef lib;
	char *msg = NULL, *path;

	if (!(path = libdevice_path())) {
		tool_err("the kernels call math functions, which need CUDA's libdevice "
			"(libdevice.10.bc; set CUDA_HOME to the toolkit)");
		return -1;
	}
	if (LLVMCreateMemoryBufferWithContentsOfFile(path, &mb, &msg)) {
		tool_err("cannot read '%s': %s", path, msg);
		LLVMDisposeMessage(msg);
		free(path);
		return -1;
	}
	if (LLVMParseBitcodeInContext2(e->cx, mb, &lib)) {
		tool_err("'%s' is not LLVM bitcode", path);
		LLVMDisposeMemoryBuffer(mb);
		free(path);
		return -1;
	}
	LLVMDisposeMemoryBuffer(mb);
	free(path);
	LLVMSetTarget(lib, triple);
	LLVMSetModuleDataLayout(lib, td);
	if (LLVMLinkModules2(e->m, lib)) {
		tool_err("cannot link libdevice");
		return -1;
	}
	return 0;
}

/* everything but the kernels is internal, so O3 drops what is unused */
static void internalize(CU *u)
{
	E *e = &u->e;
	LLVMValueRef f, next;

	for (f = LLVMGetFirstFunction(e->m); f; f = next) {
		next = LLVMGetNextFunction(f);
		if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) != LLVMInternalLinkage) {
			size_t n;
			const char *name = LLVMGetValueName2(f, &n);
			int kern = 0;

			for (int i = 0; i < e->g->nk && !kern; i++)
				kern = !strcmp(name, e->g->k[i]->name);
			if (!kern)
				LLVMSetLinkage(f, LLVMInternalLinkage);
		}
	}
	for (LLVMValueRef gv = LLVMGetFirstGlobal(e->m); gv; gv = LLVMGetNextGlobal(gv))
		if (gv != u->smem && !LLVMIsDeclaration(gv))
			LLVMSetLinkage(gv, LLVMInternalLinkage);
}

/* The math functions the kernels call, defined over libdevice, linked
 * and internalized with all but the kernels.  0, or -1 after an error. */
static int link_math(CU *u, LLVMTargetDataRef td, const char *triple)
{
	int need = define_math(&u->e);

	if (need <= 0)
		return need;
	if (link_libdevice(&u->e, td, triple))
		return -1;
	internalize(u);
	return 0;
}

static int run_passes(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *p)
{
	LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
	LLVMErrorRef lerr;
	int rc = 0;

	LLVMPassBuilderOptionsSetLoopUnrolling(po, 1);
	if ((lerr = LLVMRunPasses(m, p, tm, po))) {
		char *msg = LLVMGetErrorMessage(lerr);

		tool_err("LLVM passes failed: %s", msg);
		LLVMDisposeErrorMessage(msg);
		rc = -1;
	}
	LLVMDisposePassBuilderOptions(po);
	return rc;
}

static int emit_text(Gen *g, CU *u, LLVMTargetMachineRef tm, uint8_t **obj, size_t *objlen)
{
	LLVMMemoryBufferRef mb;
	char *err = NULL;

	if (g->o->emit && !strcmp(g->o->emit, "llvm")) {
		char *s = LLVMPrintModuleToString(u->e.m);

		*objlen = strlen(s);
		*obj = (uint8_t *)xstrdup(s);
		LLVMDisposeMessage(s);
		return 0;
	}
	if (LLVMTargetMachineEmitToMemoryBuffer(tm, u->e.m, LLVMAssemblyFile, &err, &mb)) {
		tool_err("LLVM's NVPTX backend failed: %s", err);
		LLVMDisposeMessage(err);
		return -1;
	}
	*objlen = LLVMGetBufferSize(mb);
	*obj = xmalloc(*objlen + 1);
	memcpy(*obj, LLVMGetBufferStart(mb), *objlen);
	(*obj)[(*objlen)++] = 0;   /* the format's NUL */
	LLVMDisposeMemoryBuffer(mb);
	return 0;
}

/* Every kernel of g as one PTX module for arch (NUL-terminated text;
 * objlen counts the NUL), or with --emit=llvm the optimized LLVM IR. */
static int cuda_emit_kernels(Gen *g, const char *arch, uint8_t **obj, size_t *objlen)
{
	static const char triple[] = "nvptx64-nvidia-cuda";
	const char *feat = "+ptx70";
	CU u;
	E *e = &u.e;
	char *err = NULL;
	LLVMTargetRef target;
	LLVMTargetMachineRef tm;
	LLVMTargetDataRef td;
	int i, rc = 0;

	for (size_t j = 0; j < sizeof arches / sizeof arches[0]; j++)
		if (!strcmp(arch, arches[j][0]))
			feat = arches[j][1];
	memset(&u, 0, sizeof u);
	LLVMInitializeNVPTXTargetInfo();
	LLVMInitializeNVPTXTarget();
	LLVMInitializeNVPTXTargetMC();
	LLVMInitializeNVPTXAsmPrinter();
	if (LLVMGetTargetFromTriple(triple, &target, &err)) {
		tool_err("this LLVM has no NVPTX backend: %s", err);
		LLVMDisposeMessage(err);
		return -1;
	}
	tm = LLVMCreateTargetMachine(target, triple, arch, feat, LLVMCodeGenLevelAggressive,
		LLVMRelocDefault, LLVMCodeModelDefault);
	td = LLVMCreateTargetDataLayout(tm);
	e_open(e, g, triple, td);
	e->cpu = arch;
	e->features = feat;
	u.i16 = LLVMInt16TypeInContext(e->cx);
	u.smem = LLVMAddGlobalInAddressSpace(e->m, LLVMArrayType(e->i8, 0), "__fx_shared", 3);
	LLVMSetAlignment(u.smem, 16);
	for (i = 0; i < g->nk && !rc; i++)
		if (cu_kernel(&u, g->k[i]))
			rc = -1;
	if (!rc && link_math(&u, td, triple))
		rc = -1;
	if (!rc && LLVMVerifyModule(e->m, LLVMReturnStatusAction, &err)) {
		tool_err("internal error: invalid LLVM IR: %s", err);
		rc = -1;
	}
	LLVMDisposeMessage(err);
	if (!rc)
		rc = run_passes(e->m, tm, g->o->opt ? "default<O3>" : "function(nvvm-reflect),globaldce");
	if (!rc)
		rc = emit_text(g, &u, tm, obj, objlen);
	e_close(e);
	LLVMDisposeTargetData(td);
	LLVMDisposeTargetMachine(tm);
	pmap_free(&e->memo);
	return rc;
}

static void cuda_options(Opts *o)
{
	if (!o->gpu_arch)
		o->gpu_arch = "sm_80";
	if (!cuda_arch_ok(o->gpu_arch))
		tool_fail("unsupported --gpu-arch '%s' (sm_80, sm_86, sm_89 or sm_90)", o->gpu_arch);
	if (o->cpu || o->features)
		tool_fail("--cpu and --features are for --target=cpu");
	if (o->emit && !strcmp(o->emit, "obj"))
		tool_fail("--emit=obj is for --target=cpu (cuda: llvm or ptx)");
	if (o->emit && !strcmp(o->emit, "ptx"))
		o->emit = "asm";
}

/* one object: the PTX module */
static int cuda_emit(Gen *g, KObj **objs, int *nobj, const char **cpu, const char **features)
{
	*objs = xcalloc(1, sizeof **objs);
	*nobj = 1;
	if (cuda_emit_kernels(g, g->o->gpu_arch, &(*objs)[0].p, &(*objs)[0].n))
		return -1;
	*cpu = xstrdup(g->o->gpu_arch);
	*features = xstrdup("");
	return 0;
}

/* Contractions stay loop nests (tiled by the schedule, not packed); the
 * grid is the launch's, set once every kernel is formed. */
const Target T_cuda = {
	.name = "cuda",
	.format = "ptx",
	.options = cuda_options,
	.init = expr_init,
	.launch = cuda_launch,
	.emit = cuda_emit,
	.text_nul = 1,
};
