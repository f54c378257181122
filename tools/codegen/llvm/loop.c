/*
 * loop.c - counted loops in LLVM IR (counters in allocas, for mem2reg),
 * with vectorize or no-unroll hints, and the start of a kernel's point:
 * the outputs of a point without reductions, or the accumulators' initial
 * values.  Both targets build their iteration from these.
 */
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "emit.h"

LLVMValueRef e_loop_begin(E *e, ELoop *l, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef step)
{
	LLVMValueRef i;

	(void)step;
	l->var = e_alloca(e, e->i64, "i");
	LLVMBuildStore(e->b, lo, l->var);
	l->hdr = LLVMAppendBasicBlockInContext(e->cx, e->fn, "loop");
	l->body = LLVMAppendBasicBlockInContext(e->cx, e->fn, "body");
	l->exit = LLVMAppendBasicBlockInContext(e->cx, e->fn, "exit");
	LLVMBuildBr(e->b, l->hdr);
	LLVMPositionBuilderAtEnd(e->b, l->hdr);
	i = LLVMBuildLoad2(e->b, e->i64, l->var, "");
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, i, hi, ""), l->body, l->exit);
	LLVMPositionBuilderAtEnd(e->b, l->body);
	return LLVMBuildLoad2(e->b, e->i64, l->var, "");
}

void e_loop_end(E *e, ELoop *l, LLVMValueRef step, int hint)
{
	LLVMValueRef i = LLVMBuildLoad2(e->b, e->i64, l->var, ""), br;

	LLVMBuildStore(e->b, LLVMBuildNSWAdd(e->b, i, step ? step : e_i64(e, 1), ""), l->var);
	br = LLVMBuildBr(e->b, l->hdr);
	if (hint) {
		LLVMMetadataRef tmp = LLVMTemporaryMDNode(e->cx, NULL, 0), node, ops[2];
		const char *what = hint == LOOP_VECTORIZE ? "llvm.loop.vectorize.enable" : "llvm.loop.unroll.disable";

		ops[0] = tmp;
		if (hint == LOOP_VECTORIZE) {
			LLVMMetadataRef kv[2] = { LLVMMDStringInContext2(e->cx, what, strlen(what)),
				LLVMValueAsMetadata(LLVMConstInt(e->i1, 1, 0)) };

			ops[1] = LLVMMDNodeInContext2(e->cx, kv, 2);
		} else {
			LLVMMetadataRef k1 = LLVMMDStringInContext2(e->cx, what, strlen(what));

			ops[1] = LLVMMDNodeInContext2(e->cx, &k1, 1);
		}
		node = LLVMMDNodeInContext2(e->cx, ops, 2);
		LLVMMetadataReplaceAllUsesWith(tmp, node);
		LLVMSetMetadata(br, LLVMGetMDKindIDInContext(e->cx, "llvm.loop", 9),
			LLVMMetadataAsValue(e->cx, node));
	}
	LLVMPositionBuilderAtEnd(e->b, l->exit);
}

int e_point_start(E *e, int nred, void (*store)(E *, KOut *, LLVMValueRef))
{
	Kernel *k = e->k;
	int i;

	e_reset(e);
	if (!nred) {
		for (i = 0; i < k->nout; i++)
			if (k->out[i].init)
				die("codegen: kernel %s: a reduction without its loops", k->name);
		for (i = 0; i < k->nout; i++) {
			LLVMValueRef v = e_expr(e, k->out[i].val);

			if (!v)
				return 1;
			if (k->out[i].epi) {
				LLVMBuildStore(e->b, v, e->accp[i]);
				v = e_expr(e, k->out[i].epi);
			}
			if (v)
				store(e, &k->out[i], v);
		}
		return 1;
	}
	for (i = 0; i < k->nout; i++) {
		LLVMValueRef v = e_expr(e, k->out[i].init);

		if (!v)
			return 1;
		LLVMBuildStore(e->b, v, e->accp[i]);
	}
	return 0;
}

LLVMValueRef e_bound(E *e, const KBound *b, int64_t ext)
{
	LLVMValueRef x;

	x = LLVMBuildAdd(e->b, LLVMBuildMul(e->b, e->n, e_i64(e, b->c), ""), e_i64(e, b->d), "");
	x = LLVMBuildSDiv(e->b, LLVMBuildAdd(e->b, x, e_i64(e, b->q - 1), ""), e_i64(e, b->q), "");
	x = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, x, e_i64(e, 0), ""), e_i64(e, 0), x, "");
	return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, x, e_i64(e, ext), ""), x,
		e_i64(e, ext), "hi");
}

void e_bounds(E *e)
{
	Kernel *k = e->k;

	e->hi = NULL;
	e->n = NULL;
	if (!k->bound)
		return;
	e->hi = xcalloc((size_t)k->ndims + 1, sizeof *e->hi);
	e->n = LLVMBuildLoad2(e->b, e->i64, e->bp[k->lenbuf], "n");
	for (int d = 0; d < k->ndims; d++)
		if (k->bound[d].c)
			e->hi[d] = e_bound(e, &k->bound[d], k->ext[d]);
}

LLVMValueRef e_extent(E *e, int d)
{
	return e->hi && e->hi[d] ? e->hi[d] : e_i64(e, e->k->ext[d]);
}
