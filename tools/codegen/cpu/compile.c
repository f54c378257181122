/*
 * compile.c - the CPU's kernels as LLVM functions and objects.  Each
 * kernel is two functions: the ABI entry point (formats/fxvm.md), which
 * loads the binding pointers and calls an internal body whose pointer
 * parameters are noalias and 64-byte aligned, so LLVM may vectorize
 * freely.  Identical bodies are merged; the module is then cut into
 * partitions compiled on threads of their own (--jobs), each to an ELF
 * object.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "cpu.h"
#include "rt/rt.h"
#include "tool.h"

void cpu_fn_attrs(E *e, LLVMValueRef f)
{
	LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
		LLVMCreateStringAttribute(e->cx, "target-cpu", 10, e->cpu, (unsigned)strlen(e->cpu)));
	LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
		LLVMCreateStringAttribute(e->cx, "target-features", 15, e->features, (unsigned)strlen(e->features)));
	LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
		LLVMCreateStringAttribute(e->cx, "prefer-vector-width", 19, "512", 3));
	LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
		LLVMCreateStringAttribute(e->cx, "min-legal-vector-width", 22, "512", 3));
	LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
		LLVMCreateEnumAttribute(e->cx, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
}

LLVMAttributeRef cpu_enum_attr(E *e, const char *n, uint64_t v)
{
	return LLVMCreateEnumAttribute(e->cx, LLVMGetEnumAttributeKindForName(n, strlen(n)), v);
}

/* k's body: body(ptr noalias b0..bn-1, i64 wx, i64 wy, i64 nx, i64 ny),
 * internal, of type *ft */
static LLVMValueRef body_fn(E *e, Kernel *k, LLVMTypeRef *ft)
{
	LLVMTypeRef *pt = xcalloc((size_t)k->nbind + 4, sizeof *pt);
	LLVMValueRef body;
	char name[64];
	int i;

	for (i = 0; i < k->nbind; i++)
		pt[i] = e->ptr;
	for (i = 0; i < 4; i++)
		pt[k->nbind + i] = e->i64;
	*ft = LLVMFunctionType(LLVMVoidTypeInContext(e->cx), pt, (unsigned)k->nbind + 4, 0);
	free(pt);
	snprintf(name, sizeof name, "%s.body", k->name);
	body = LLVMAddFunction(e->m, name, *ft);
	LLVMSetLinkage(body, LLVMInternalLinkage);
	cpu_fn_attrs(e, body);
	/* identical bodies are compiled once (cpu_dedupe) and called from
	 * each kernel's entry: not inlined there */
	LLVMAddAttributeAtIndex(body, LLVMAttributeFunctionIndex, cpu_enum_attr(e, "noinline", 0));
	for (i = 0; i < k->nbind; i++) {
		LLVMAddAttributeAtIndex(body, (unsigned)i + 1, cpu_enum_attr(e, "noalias", 0));
		LLVMAddAttributeAtIndex(body, (unsigned)i + 1, cpu_enum_attr(e, "nocapture", 0));
		LLVMAddAttributeAtIndex(body, (unsigned)i + 1, cpu_enum_attr(e, "align", 64));
		if (!k->bind[i].out)
			LLVMAddAttributeAtIndex(body, (unsigned)i + 1, cpu_enum_attr(e, "readonly", 0));
	}
	return body;
}

/* The body's code: a GEMM or a loop nest. */
static void body_code(E *e, Kernel *k, LLVMValueRef body)
{
	int i;

	e->fn = body;
	LLVMPositionBuilderAtEnd(e->b, LLVMAppendBasicBlockInContext(e->cx, body, "entry"));
	e->bp = xcalloc((size_t)k->nbind + 1, sizeof *e->bp);
	for (i = 0; i < k->nbind; i++)
		e->bp[i] = LLVMGetParam(body, (unsigned)i);
	/* 6: a GEMM's pack over (batch, panel, k', column, j, step) */
	e->dimv = xcalloc((size_t)(k->ndims > 5 ? k->ndims : 5) + 1, sizeof *e->dimv);
	for (i = 0; i < k->ndims; i++)
		e->dimv[i] = e_i64(e, 0);
	e->accp = xcalloc((size_t)k->nout + (size_t)k->naccs + 4, sizeof *e->accp);
	e->vw = 1;
	e_bounds(e);
	if (k->kind == KK_GEMM) {
		if (gemm_emit(e, k))
			e->err = 1;
	} else {
		nest_emit(e, k, LLVMGetParam(body, (unsigned)k->nbind),
			LLVMGetParam(body, (unsigned)k->nbind + 2));
	}
	LLVMBuildRetVoid(e->b);
	e_reset(e);
	free(e->hi);
	e->hi = NULL;
	free(e->bp);
	free(e->dimv);
	free(e->accp);
}

/* The ABI entry (formats/fxvm.md): entry(ptr bindings, i64 wx, wy, wz,
 * nx, ny, nz) loads the binding pointers and calls the body. */
static void entry_fn(E *e, Kernel *k, LLVMValueRef body, LLVMTypeRef ft)
{
	LLVMTypeRef at[7] = { e->ptr, e->i64, e->i64, e->i64, e->i64, e->i64, e->i64 };
	LLVMValueRef p, a[4], entry, *args;
	int i;

	entry = LLVMAddFunction(e->m, k->name, LLVMFunctionType(LLVMVoidTypeInContext(e->cx), at, 7, 0));
	cpu_fn_attrs(e, entry);
	LLVMPositionBuilderAtEnd(e->b, LLVMAppendBasicBlockInContext(e->cx, entry, "entry"));
	args = xcalloc((size_t)k->nbind + 4, sizeof *args);
	p = LLVMGetParam(entry, 0);
	for (i = 0; i < k->nbind; i++) {
		LLVMValueRef idx = e_i64(e, i);
		LLVMValueRef q = LLVMBuildInBoundsGEP2(e->b, e->ptr, p, &idx, 1, "");

		args[i] = LLVMBuildLoad2(e->b, e->ptr, q, "");
	}
	a[0] = LLVMGetParam(entry, 1);
	a[1] = LLVMGetParam(entry, 2);
	a[2] = LLVMGetParam(entry, 4);
	a[3] = LLVMGetParam(entry, 5);
	for (i = 0; i < 4; i++)
		args[k->nbind + i] = a[i];
	LLVMBuildCall2(e->b, ft, body, args, (unsigned)k->nbind + 4, "");
	LLVMBuildRetVoid(e->b);
	free(args);
}

int cpu_kernel(E *e, Kernel *k)
{
	LLVMTypeRef ft;
	LLVMValueRef body;

	e->k = k;
	e->err = 0;
	body = body_fn(e, k, &ft);
	body_code(e, k, body);
	entry_fn(e, k, body, ft);
	return e->err ? -1 : 0;
}

/* ---- objects ---- */

/* Kernels with the same code (the repeated blocks of a network: same
 * shapes, same fused ops) share one body: LLVM's MergeFunctions finds
 * them.  An entry may become a call of another, identical entry. */
int cpu_dedupe(E *e, LLVMTargetMachineRef tm)
{
	LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
	LLVMErrorRef lerr = LLVMRunPasses(e->m, "mergefunc", tm, po);

	LLVMDisposePassBuilderOptions(po);
	if (lerr) {
		char *m = LLVMGetErrorMessage(lerr);

		tool_err("LLVM passes failed: %s", m);
		LLVMDisposeErrorMessage(m);
		return -1;
	}
	return 0;
}

/* One object's worth of kernels, compiled on a thread of its own: the
 * module's bitcode is read into a context of the thread's, everything
 * but the partition's entries (and the bodies they call) deleted. */
typedef struct Part {
	const char *bc;
	size_t bclen;
	const char **names;
	int nnames;
	double cost;
	const char *triple, *cpu, *features;
	int opt, asmout, llout;
	const char *passes;
	uint8_t *obj;
	size_t objlen;
	char *err;
} Part;

static int in_part(const Part *p, const char *name)
{
	int i;

	for (i = 0; i < p->nnames; i++)
		if (!strcmp(p->names[i], name))
			return 1;
	return 0;
}

static void part_err(Part *p, const char *what, char *msg)
{
	size_t n = strlen(what) + strlen(msg) + 3;

	p->err = xmalloc(n);
	snprintf(p->err, n, "%s: %s", what, msg);
}

/* Everything but the partition's entries, and the bodies they call,
 * deleted from m. */
static void keep_part(const Part *p, LLVMModuleRef m)
{
	LLVMValueRef f, next;
	int again;

	for (f = LLVMGetFirstFunction(m); f; f = next) {
		size_t n;

		next = LLVMGetNextFunction(f);
		if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage &&
				!in_part(p, LLVMGetValueName2(f, &n)))
			LLVMDeleteFunction(f);
	}
	do {
		again = 0;
		for (f = LLVMGetFirstFunction(m); f; f = next) {
			next = LLVMGetNextFunction(f);
			if (LLVMGetLinkage(f) == LLVMInternalLinkage && !LLVMGetFirstUse(f)) {
				LLVMDeleteFunction(f);
				again = 1;
			}
		}
	} while (again);
}

/* the part's pipeline; 0, or -1 with p->err set */
static int optimize(Part *p, LLVMModuleRef m, LLVMTargetMachineRef tm)
{
	LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
	LLVMErrorRef lerr;

	LLVMPassBuilderOptionsSetLoopVectorization(po, 1);
	LLVMPassBuilderOptionsSetSLPVectorization(po, 1);
	LLVMPassBuilderOptionsSetLoopUnrolling(po, 1);
	LLVMPassBuilderOptionsSetLoopInterleaving(po, 1);
	lerr = LLVMRunPasses(m, p->passes, tm, po);
	LLVMDisposePassBuilderOptions(po);
	if (lerr) {
		char *msg = LLVMGetErrorMessage(lerr);

		part_err(p, "LLVM passes failed", msg);
		LLVMDisposeErrorMessage(msg);
		return -1;
	}
	return 0;
}

/* p->obj: the object, or the LLVM IR or assembly text; 0, or -1 with
 * p->err set */
static int part_output(Part *p, LLVMModuleRef m, LLVMTargetMachineRef tm)
{
	LLVMMemoryBufferRef ob;
	char *err = NULL;

	if (p->llout) {
		char *s = LLVMPrintModuleToString(m);

		p->objlen = strlen(s);
		p->obj = (uint8_t *)xstrdup(s);
		LLVMDisposeMessage(s);
		return 0;
	}
	if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, p->asmout ? LLVMAssemblyFile : LLVMObjectFile,
			&err, &ob)) {
		part_err(p, "LLVM code generation failed", err);
		LLVMDisposeMessage(err);
		return -1;
	}
	p->objlen = LLVMGetBufferSize(ob);
	p->obj = xmalloc(p->objlen + 1);
	memcpy(p->obj, LLVMGetBufferStart(ob), p->objlen);
	p->obj[p->objlen] = 0;
	LLVMDisposeMemoryBuffer(ob);
	return 0;
}

/* the part's kernels read from the bitcode into cx, optimized by its
 * pipeline (with *tm made for it); NULL with p->err set */
static LLVMModuleRef part_module(Part *p, LLVMContextRef cx, LLVMTargetMachineRef *tm)
{
	LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange(p->bc, p->bclen, "kernels", 0);
	LLVMModuleRef m = NULL;
	LLVMTargetRef target;
	char *err = NULL;

	*tm = NULL;
	if (LLVMParseBitcodeInContext2(cx, mb, &m)) {
		p->err = xstrdup("internal error: cannot read back the kernels' bitcode");
		m = NULL;
		goto out;
	}
	keep_part(p, m);
	if (LLVMGetTargetFromTriple(p->triple, &target, &err)) {
		part_err(p, "LLVM", err);
		goto fail;
	}
	*tm = LLVMCreateTargetMachine(target, p->triple, p->cpu, p->features, LLVMCodeGenLevelAggressive,
		LLVMRelocStatic, LLVMCodeModelLarge);
	if (p->opt && optimize(p, m, *tm))
		goto fail;
	goto out;
fail:
	LLVMDisposeModule(m);
	m = NULL;
out:
	LLVMDisposeMessage(err);
	LLVMDisposeMemoryBuffer(mb);
	return m;
}

static void *part_compile(void *arg)
{
	Part *p = arg;
	LLVMContextRef cx = LLVMContextCreate();
	LLVMTargetMachineRef tm;
	LLVMModuleRef m = part_module(p, cx, &tm);

	if (m) {
		part_output(p, m, tm);
		LLVMDisposeModule(m);
	}
	if (tm)
		LLVMDisposeTargetMachine(tm);
	LLVMContextDispose(cx);
	return NULL;
}

/* --emit: the parts (one per pipeline) optimized one after the other in
 * one context and linked into the first, printed as one module: each
 * kernel's text is the code an object of it holds */
static void emit_parts(Part *parts, int np)
{
	LLVMContextRef cx = LLVMContextCreate();
	LLVMTargetMachineRef tm = NULL, tmi;
	LLVMModuleRef m = NULL, mi;
	int i;

	for (i = 0; i < np; i++) {
		if (!(mi = part_module(&parts[i], cx, &tmi))) {
			if (tmi)
				LLVMDisposeTargetMachine(tmi);
			break;
		}
		if (!m) {
			m = mi;
			tm = tmi;
			continue;
		}
		LLVMDisposeTargetMachine(tmi);
		if (LLVMLinkModules2(m, mi)) {
			parts[i].err = xstrdup("internal error: cannot link the kernels' modules");
			break;
		}
	}
	if (m && i == np)
		part_output(&parts[0], m, tm);
	if (m)
		LLVMDisposeModule(m);
	if (tm)
		LLVMDisposeTargetMachine(tm);
	LLVMContextDispose(cx);
}

/* instructions in f, the estimate of its compile time */
static double fn_cost(LLVMValueRef f)
{
	LLVMBasicBlockRef bb;
	LLVMValueRef in;
	double n = 0;

	for (bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
		for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
			n++;
	return n;
}

/* the body an entry calls, through entries merged into calls of others */
static LLVMValueRef callee_of(LLVMValueRef f)
{
	int depth;

	for (depth = 0; f && depth < 8; depth++) {
		LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f);
		LLVMValueRef in, c = NULL;

		for (in = bb ? LLVMGetFirstInstruction(bb) : NULL; in && !c; in = LLVMGetNextInstruction(in))
			if (LLVMGetInstructionOpcode(in) == LLVMCall)
				c = LLVMGetCalledValue(in);
		if (!c || LLVMGetLinkage(c) != LLVMExternalLinkage || LLVMIsDeclaration(c))
			return c;
		f = c;
	}
	return f;
}

enum { PART_COST = 4000, MAXPART = 8, LOOP_WEIGHT = 4 };

/* LLVM's pipelines.  GEMM kernels come vectorized and register-blocked
 * already: scalar cleanup and hoisting is all they need (O3 takes twice
 * as long for the same code speed); loop nests need the loop vectorizer
 * and the rest of O3. */
static const char GEMM_PASSES[] = "function(sroa,early-cse,simplifycfg,instcombine,loop(loop-rotate),"
	"loop-mssa(licm),gvn,instcombine,simplifycfg)";
static const char LOOP_PASSES[] = "default<O3>";

/* kernels we wrote vectorized (GEMMs, packs, S2) take the short pipeline */
static int light(const Kernel *k)
{
	return k->kind == KK_GEMM || k->light;
}

/* The parts, heaviest first, taken by whichever thread is free. */
typedef struct Queue {
	Part *parts;
	const int *order;
	int np;
	_Atomic int next;
} Queue;

static void *worker(void *arg)
{
	Queue *q = arg;
	int i;

	while ((i = atomic_fetch_add(&q->next, 1)) < q->np)
		part_compile(&q->parts[q->order[i]]);
	return NULL;
}

/* a part's estimated compile time: O3 costs about four times as much per
 * instruction as the GEMM pipeline */
static double part_weight(const Part *p)
{
	return p->cost * (p->passes == LOOP_PASSES ? LOOP_WEIGHT : 1);
}

/* What compiling each kernel is estimated to cost: its body's
 * instructions, and the functions the body calls (the micro-kernels),
 * which every part holding a caller compiles again. */
typedef struct Costs {
	LLVMValueRef *callee; /* each kernel's body */
	double *cost;         /* its instructions; a body shared by kernels
	                       * counted once, with the first */
	int *order;
	LLVMValueRef *fn;     /* the functions bodies call, each once */
	double *fcost;
	int nfn, maxfn;
	unsigned char *uses;  /* [kernel][fn]: the kernel's body calls it */
} Costs;

/* row i of a [][maxfn] matrix of functions (uses, and assign's parts) */
static unsigned char *fn_row(const Costs *c, unsigned char *m, int i)
{
	return m + (size_t)i * (size_t)c->maxfn;
}

/* what kernel k's functions cost that has (a row, or NULL) has not */
static double fn_extra(const Costs *c, int k, const unsigned char *has)
{
	const unsigned char *u = fn_row(c, c->uses, k);
	double x = 0;
	int f;

	for (f = 0; f < c->nfn; f++)
		if (u[f] && !(has && has[f]))
			x += c->fcost[f];
	return x;
}

/* has gains kernel k's functions */
static void fn_take(const Costs *c, unsigned char *has, int k)
{
	const unsigned char *u = fn_row(c, c->uses, k);
	int f;

	for (f = 0; f < c->nfn; f++)
		has[f] |= u[f];
}

/* the functions body calls, noted as kernel k's */
static void note_calls(Costs *c, int k, LLVMValueRef body)
{
	LLVMBasicBlockRef bb;
	LLVMValueRef in, f;
	int i;

	for (bb = LLVMGetFirstBasicBlock(body); bb; bb = LLVMGetNextBasicBlock(bb))
		for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
			if (LLVMGetInstructionOpcode(in) != LLVMCall)
				continue;
			f = LLVMGetCalledValue(in);
			if (!f || !LLVMIsAFunction(f) || LLVMIsDeclaration(f) || f == body)
				continue;
			for (i = 0; i < c->nfn && c->fn[i] != f; i++)
				;
			if (i == c->nfn) {   /* below maxfn: that counts them all */
				c->fn[c->nfn] = f;
				c->fcost[c->nfn++] = fn_cost(f);
			}
			fn_row(c, c->uses, k)[i] = 1;
		}
}

static void kernel_costs(Gen *g, LLVMModuleRef m, Costs *c)
{
	LLVMValueRef f;
	int i, j;

	c->maxfn = 0;
	for (f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
		c->maxfn++;
	c->callee = xcalloc((size_t)g->nk + 1, sizeof *c->callee);
	c->cost = xcalloc((size_t)g->nk + 1, sizeof *c->cost);
	c->order = xcalloc((size_t)g->nk + 1, sizeof *c->order);
	c->fn = xcalloc((size_t)c->maxfn + 1, sizeof *c->fn);
	c->fcost = xcalloc((size_t)c->maxfn + 1, sizeof *c->fcost);
	c->uses = xcalloc((size_t)(g->nk + 1) * (size_t)(c->maxfn + 1), 1);
	c->nfn = 0;
	for (i = 0; i < g->nk; i++) {
		f = LLVMGetNamedFunction(m, g->k[i]->name);
		c->callee[i] = f ? callee_of(f) : NULL;
		for (j = 0; j < i && c->callee[j] != c->callee[i]; j++)
			;
		c->cost[i] = 10;
		if (j == i && c->callee[i]) {
			c->cost[i] += fn_cost(c->callee[i]);
			note_calls(c, i, c->callee[i]);
		}
		c->order[i] = i;
	}
}

static void costs_free(Costs *c)
{
	free(c->callee);
	free(c->cost);
	free(c->order);
	free(c->fn);
	free(c->fcost);
	free(c->uses);
}

/* GEMMs and packs, and loop nests, in parts of their own, each kind with
 * its pipeline: npk[0] parts of the first, npk[1] of the second */
static void part_counts(Gen *g, const Costs *c, int npk[2])
{
	double kcost[2] = { 0, 0 };
	unsigned char *seen = xcalloc((size_t)c->maxfn + 1, 1);
	int i, j;

	for (i = 0; i < g->nk; i++) {
		double x = c->cost[i] + fn_extra(c, i, seen);

		fn_take(c, seen, i);
		kcost[light(g->k[i]) ? 0 : 1] += x * (light(g->k[i]) ? 1 : LOOP_WEIGHT);
	}
	free(seen);
	for (j = 0; j < 2; j++) {
		npk[j] = kcost[j] > 0 ? (int)(kcost[j] / PART_COST) + 1 : 0;
		if (npk[j] > MAXPART / 2)
			npk[j] = MAXPART / 2;
	}
	if (g->o->emit) {
		/* a part per pipeline, linked into one module of text */
		npk[0] = kcost[0] > 0;
		npk[1] = kcost[1] > 0;
	}
	if (npk[0] + npk[1] == 0)
		npk[1] = 1;
}

static Part *parts_new(E *e, LLVMMemoryBufferRef bc, const char *triple, const int npk[2])
{
	Gen *g = e->g;
	int i, np = npk[0] + npk[1];
	Part *parts = xcalloc((size_t)np, sizeof *parts);

	for (i = 0; i < np; i++) {
		parts[i].bc = LLVMGetBufferStart(bc);
		parts[i].bclen = LLVMGetBufferSize(bc);
		parts[i].names = xcalloc((size_t)g->nk + 1, sizeof *parts[i].names);
		parts[i].triple = triple;
		parts[i].cpu = e->cpu;
		parts[i].features = e->features;
		parts[i].opt = g->o->opt;
		parts[i].passes = g->o->passes ? g->o->passes : i < npk[0] ? GEMM_PASSES : LOOP_PASSES;
		parts[i].llout = g->o->emit && !strcmp(g->o->emit, "llvm");
		parts[i].asmout = g->o->emit && !strcmp(g->o->emit, "asm");
	}
	return parts;
}

/* Largest first (with the functions its body calls), each group of
 * kernels sharing a body to the part of its kind it leaves least loaded:
 * a part that compiles the body's micro-kernels already takes it for
 * the body alone.  k->exe is the part. */
static void assign(Gen *g, Costs *c, Part *parts, const int npk[2])
{
	int i, j, np = npk[0] + npk[1], *order = c->order;
	double *whole = xcalloc((size_t)g->nk + 1, sizeof *whole);
	unsigned char *has = xcalloc((size_t)np * (size_t)c->maxfn + 1, 1);

	for (i = 0; i < g->nk; i++)
		whole[i] = c->cost[i] + fn_extra(c, i, NULL);
	for (i = 1; i < g->nk; i++)
		for (j = i; j > 0 && whole[order[j]] > whole[order[j - 1]]; j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (i = 0; i < g->nk; i++) {
		int k = order[i], lo, hi, best, d;
		double load = 0, extra = 0;

		for (j = 0; j < i; j++)
			if (c->callee[order[j]] == c->callee[k] && c->callee[k])
				break;
		if (np == 1) {
			lo = 0, hi = 1;
		} else if (light(g->k[k])) {
			lo = 0, hi = npk[0];
		} else {
			lo = npk[0], hi = np;
		}
		best = lo;
		if (j < i) {
			best = g->k[order[j]]->exe;
			extra = fn_extra(c, k, fn_row(c, has, best));
		} else {
			for (d = lo; d < hi; d++) {
				double x = fn_extra(c, k, fn_row(c, has, d));

				if (d == lo || parts[d].cost + x < load)
					best = d, extra = x, load = parts[d].cost + x;
			}
		}
		g->k[k]->exe = best;
		parts[best].cost += c->cost[k] + extra;
		fn_take(c, fn_row(c, has, best), k);
		parts[best].names[parts[best].nnames++] = g->k[k]->name;
	}
	free(whole);
	free(has);
}

/* The parts compiled on up to --jobs threads, heaviest first. */
static void run_parts(Gen *g, Part *parts, int np)
{
	int i, j, nthr = g->o->jobs > 0 ? g->o->jobs : rt_cpu_count();
	pthread_t *th;
	int *porder, nstarted = 0;

	if (nthr > np)
		nthr = np;
	if (nthr < 1)
		nthr = 1;
	th = xcalloc((size_t)nthr, sizeof *th);
	porder = xcalloc((size_t)np, sizeof *porder);
	Queue q = { parts, porder, np, 0 };

	for (i = 0; i < np; i++) {
		for (j = i; j > 0 && part_weight(&parts[porder[j - 1]]) < part_weight(&parts[i]); j--)
			porder[j] = porder[j - 1];
		porder[j] = i;
	}
	for (i = 1; i < nthr; i++)
		if (!pthread_create(&th[nstarted], NULL, worker, &q))
			nstarted++;
	worker(&q);
	for (i = 0; i < nstarted; i++)
		pthread_join(th[i], NULL);
	free(th);
	free(porder);
}

/* Splits the kernels into objects by estimated cost (the split depends on
 * the input alone, not on the machine), compiles them on up to --jobs
 * threads; k->exe is each kernel's object. */
int cpu_compile(E *e, LLVMModuleRef m, const char *triple, KObj **objs, int *nobj)
{
	Gen *g = e->g;
	LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(m);
	int i, np, npk[2], rc = 0;
	Costs c;
	Part *parts;

	kernel_costs(g, m, &c);
	part_counts(g, &c, npk);
	np = npk[0] + npk[1];
	parts = parts_new(e, bc, triple, npk);
	assign(g, &c, parts, npk);
	if (g->o->emit)
		emit_parts(parts, np);
	else
		run_parts(g, parts, np);
	*objs = xcalloc((size_t)np, sizeof **objs);
	*nobj = g->o->emit ? 1 : np;
	for (i = 0; i < np; i++) {
		if (parts[i].err && !rc) {
			tool_err("%s", parts[i].err);
			rc = -1;
		}
		free(parts[i].err);
		free(parts[i].names);
		(*objs)[i].p = parts[i].obj;
		(*objs)[i].n = parts[i].objlen;
	}
	free(parts);
	costs_free(&c);
	LLVMDisposeMemoryBuffer(bc);
	return rc;
}
