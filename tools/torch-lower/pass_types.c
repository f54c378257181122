/*
 * pass_types.c - the TorchConversion passes around
 * convert-torch-to-linalg: torch-func-backend-type-conversion gives
 * functions builtin signatures, torch-finalizing-backend-type-conversion
 * removes the torch_c pairs that leaves (and output_shape, which mlir-opt
 * 16 cannot read), and
 * torch-backend-to-linalg-on-tensors-backend-pipeline runs them all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower.h"
#include "pass.h"

Type *
torch_c_type(Ctx *c, Type *t, const char **sfx)
{
	Type *bt;

	if (t->kind == TY_TORCH_VTENSOR && (bt = btensor(c, t)))
		return *sfx = "builtin_tensor", bt;
	if (t->kind == TY_TORCH_INT)
		return *sfx = "i64", ty_int(c, 64, SIGNLESS);
	if (t->kind == TY_TORCH_FLOAT)
		return *sfx = "f64", ty_float(c, TY_F64);
	if (t->kind == TY_TORCH_BOOL)
		return *sfx = "i1", ty_int(c, 1, SIGNLESS);
	return NULL;
}

/* torch_c.to_X of v (a torch value) before `before`. */
static Value *
to_builtin(Ctx *c, Op *before, Value *v, Type *bt, const char *sfx)
{
	char name[40];
	Op *op;

	snprintf(name, sizeof name, "torch_c.to_%s", sfx);
	op = op_new(c, name, 1, &v, 1, &bt, 0, before->loc);
	op_insert_before(before, op);
	return RES(op, 0);
}

/* Gives v (now of builtin type) to its users as torch type t through
 * torch_c.from_X, placed after `after` or else first in `start`; the op
 * made, or `after` when v has no users. */
static Op *
from_builtin(Ctx *c, Value *v, Type *t, const char *sfx, Op *after, Block *start)
{
	char name[40];
	Op *op;

	if (value_use_empty(v))
		return after;
	snprintf(name, sizeof name, "torch_c.from_%s", sfx);
	op = op_new(c, name, 1, &v, 1, &t, 0, after ? after->loc : v->loc);
	if (after)
		op_insert_after(after, op);
	else if (start->first)
		op_insert_before(start->first, op);
	else
		op_append(start, op);
	value_replace_all_uses(v, RES(op, 0));
	op_set_operand(op, 0, v);
	return op;
}

/* The operands of op (a return or call) given as builtin values. */
static void
operands_to_builtin(Ctx *c, Op *op)
{
	const char *sfx;
	Type *bt;
	int i;

	for (i = 0; i < op->nopnds; i++)
		if ((bt = torch_c_type(c, OPND(op, i)->type, &sfx)))
			op_set_operand(op, i, to_builtin(c, op, OPND(op, i), bt, sfx));
}

static int
convert_boundaries(Op *op, void *env)
{
	Ctx *c = env;
	const char *sfx;
	Type *bt, *t;
	int i;

	if (op_is(op, "func.return"))
		operands_to_builtin(c, op);
	if (!op_is(op, "func.call"))
		return 0;
	operands_to_builtin(c, op);
	for (i = 0; i < op->nres; i++) {
		t = op->res[i].type;
		if (!(bt = torch_c_type(c, t, &sfx)))
			continue;
		value_set_type(RES(op, i), bt);
		from_builtin(c, RES(op, i), t, sfx, op, NULL);
	}
	return 0;
}

static int
run_func_types(Ctx *c, Op *m, PassArgs *a)
{
	Op *fn;
	const char *sfx;
	int i;

	for (fn = m->regs[0].first ? m->regs[0].first->first : NULL; fn; fn = fn->next) {
		Attr *ft = op_attr(fn, "function_type");
		Type *t = ft ? ft->type : NULL;
		Block *entry = fn->nregs ? fn->regs[0].first : NULL;

		if (!op_is(fn, "func.func") || !t || t->kind != TY_FUNC)
			continue;
		Type *sub[t->nsub + 1];
		for (i = 0; i < t->nsub; i++) {
			Type *bt = torch_c_type(c, t->sub[i], &sfx);
			sub[i] = bt ? bt : t->sub[i];
		}
		op_set_attr(c, fn, "function_type", at_type(c,
			ty_func(c, t->nin, sub, t->nsub - t->nin, sub + t->nin)));
		Op *last = NULL;   /* in argument order */
		for (i = 0; entry && i < entry->nargs; i++) {
			Value *arg = entry->args[i];
			Type *at = arg->type, *bt = torch_c_type(c, at, &sfx);
			if (!bt)
				continue;
			value_set_type(arg, bt);
			last = from_builtin(c, arg, at, sfx, last, entry);
		}
		op_walk(fn, convert_boundaries, c);
	}
	a->changed = 1;
	return 0;
}

/* ---- finalizing: to_X(from_X(x)) is x; nothing of torch_c stays ---- */

static int
is_pair(Op *op)
{
	Op *d;

	if (strncmp(op->name, "torch_c.to_", 11) || op->nopnds != 1)
		return 0;
	d = OPND(op, 0)->def;
	return d && !strncmp(d->name, "torch_c.from_", 13) &&
		!strcmp(d->name + 13, op->name + 11) && OPND(d, 0)->type == op->res[0].type;
}

typedef struct Ops {
	Ctx *c;
	Op **v;
	size_t n, cap;
} Ops;

/* Also drops newer MLIR's output_shape of expand_shape (pass.c sets it):
 * what leaves here is builtin IR that mlir-opt 16 must read. */
static int
collect(Op *op, void *env)
{
	Ops *o = env;

	if (op_is(op, "tensor.expand_shape"))
		op_set_attr(o->c, op, "static_output_shape", NULL);
	pass_quant_mlir16_name(o->c, op);
	if (strncmp(op->name, "torch_c.", 8))
		return 0;
	if (o->n == o->cap)
		o->v = xrealloc(o->v, sizeof *o->v * (o->cap = o->cap ? 2 * o->cap : 32));
	o->v[o->n++] = op;
	return 0;
}

static int
run_finalize(Ctx *c, Op *fn, PassArgs *a)
{
	Ops ops = {.c = c};
	size_t i;
	int rc = 0;

	op_walk(fn, collect, &ops);
	for (i = 0; i < ops.n; i++)
		if (is_pair(ops.v[i]))
			value_replace_all_uses(RES(ops.v[i], 0), OPND(OPND(ops.v[i], 0)->def, 0));
	/* the pairs' ops and what only they read go: one sweep from the
	 * end, users before what they read */
	for (i = ops.n; i-- > 0;)
		if (value_use_empty(RES(ops.v[i], 0))) {
			op_erase(ops.v[i]);
			ops.v[i] = NULL;
		}
	for (i = 0; i < ops.n && !rc; i++)
		if (ops.v[i]) {
			op_error(ops.v[i], "failed to legalize operation '%s' that was "
				"explicitly marked illegal", (ops.v[i])->name);
			rc = -1;
		}
	free(ops.v);
	a->changed = 1;
	return rc;
}

const PassInfo pass_torch_func_backend_type_conversion = {
	.name = "torch-func-backend-type-conversion",
	.summary = "function signatures, calls and returns in builtin types "
		"(torch_c at the boundaries)",
	.anchor = "builtin.module",
	.run = run_func_types,
};

const PassInfo pass_torch_finalizing_backend_type_conversion = {
	.name = "torch-finalizing-backend-type-conversion",
	.summary = "fold torch_c.to_X(torch_c.from_X(x)) to x; fail on any torch_c left",
	.anchor = "func.func",
	.run = run_finalize,
};

static const char *const pipeline_options[] = {"allow-non-finites", NULL};

const PassInfo pass_torch_backend_to_linalg_on_tensors_backend_pipeline = {
	.name = "torch-backend-to-linalg-on-tensors-backend-pipeline",
	.summary = "torch at the backend contract to linalg on tensors, "
		"builtin signatures",
	.options = pipeline_options,
	.pipeline = "func.func(convert-torch-to-linalg,decompose-tensor-concat,canonicalize,cse),"
		"torch-func-backend-type-conversion,"
		"func.func(canonicalize,torch-finalizing-backend-type-conversion)",
};
