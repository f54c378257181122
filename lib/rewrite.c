/*
 * rewrite.c - helpers shared by the rewriting passes: reading constants
 * behind values, making constant ops for folded attributes, folding an op
 * through its table hook, and deciding whether an op is trivially dead.
 */
#include <string.h>

#include "fold.h"
#include "optable.h"
#include "pass.h"

/* ---- constants behind values ---- */

static int
is_constant_op(const Op *op)
{
	if (op->nopnds || op->nres != 1 || op->nregs)
		return 0;
	return op_has(op, TR_CONSTANT) || op_is(op, "arith.constant")
	    || op_is(op, "torch.vtensor.literal")
	    || !strncmp(op->name, "torch.constant.", 15);
}

Attr *
value_const(Value *v)
{
	if (!v || !v->def || !is_constant_op(v->def))
		return NULL;
	return op_attr(v->def, "value");
}

int
value_int(Value *v, int64_t *out)
{
	Attr *a = value_const(v);

	if (!a || a->kind != AT_INT)
		return 0;
	*out = a->i;
	return 1;
}

/* ---- making constants ---- */

/* The attribute an arith.constant of type t holds for a, or NULL. */
static Attr *
arith_value(Ctx *c, Attr *a, Type *t)
{
	if (ty_isintlike(t) && a->kind == AT_INT)
		return a->type == t ? a : at_int(c, a->i, t);
	if (ty_isfloat(t) && a->kind == AT_FLOAT)
		return a->type == t ? a : at_float(c, a->f, t);
	if ((t->kind == TY_TENSOR || t->kind == TY_VECTOR) && a->type == t
	    && (a->kind == AT_DENSE || a->kind == AT_DENSE_RESOURCE))
		return a;
	return NULL;
}

static Attr *
torch_int_value(Ctx *c, Attr *a, Type *t)
{
	(void)t;
	return a->kind == AT_INT ? at_int(c, a->i, NULL) : NULL;
}

static Attr *
torch_float_value(Ctx *c, Attr *a, Type *t)
{
	(void)t;
	return a->kind == AT_FLOAT ? at_float(c, a->f, NULL) : NULL;
}

static Attr *
torch_bool_value(Ctx *c, Attr *a, Type *t)
{
	(void)t;
	return a->kind == AT_INT ? at_bool(c, a->i != 0) : NULL;
}

static Attr *
torch_str_value(Ctx *c, Attr *a, Type *t)
{
	(void)c, (void)t;
	return a->kind == AT_STR ? a : NULL;
}

static Attr *
torch_literal_value(Ctx *c, Attr *a, Type *t)
{
	if (a->kind != AT_DENSE && a->kind != AT_DENSE_RESOURCE)
		return NULL;
	return a->type == ty_to_builtin(c, t) ? a : NULL;
}

/* torch types and the constant op that makes a value of each */
static const struct TorchConst {
	TypeKind kind;
	const char *op;
	Attr *(*value)(Ctx *, Attr *, Type *);  /* NULL: the op has no value */
} torch_consts[] = {
	{TY_TORCH_INT, "torch.constant.int", torch_int_value},
	{TY_TORCH_FLOAT, "torch.constant.float", torch_float_value},
	{TY_TORCH_BOOL, "torch.constant.bool", torch_bool_value},
	{TY_TORCH_STR, "torch.constant.str", torch_str_value},
	{TY_TORCH_NONE, "torch.constant.none", NULL},
	{TY_TORCH_VTENSOR, "torch.vtensor.literal", torch_literal_value},
};

const OpTable rewrite_optables[] = {
	OPTABLE_AT("constant op", torch_consts, struct TorchConst, op, ""),
	{NULL},
};

static Value *
make_const(Ctx *c, Op *before, const char *name, Attr *v, Type *t, Loc *loc)
{
	Op *op = op_new(c, name, 0, NULL, 1, &t, 0, loc);

	if (v)
		op_set_attr(c, op, "value", v);
	op_insert_before(before, op);
	return RES(op, 0);
}

Value *
materialize_constant(Ctx *c, Op *before, Attr *a, Type *t, Loc *loc)
{
	Attr *v;
	size_t i;

	if (!a || !t)
		return NULL;
	optable_require(rewrite_optables);
	for (i = 0; i < sizeof torch_consts / sizeof *torch_consts; i++) {
		if (torch_consts[i].kind != t->kind)
			continue;
		v = torch_consts[i].value ? torch_consts[i].value(c, a, t) : NULL;
		if (torch_consts[i].value && !v)
			return NULL;
		return make_const(c, before, torch_consts[i].op, v, t, loc);
	}
	if (!(v = arith_value(c, a, t)))
		return NULL;
	return make_const(c, before, "arith.constant", v, t, loc);
}

/* ---- folding ---- */

/* Erases the constants made for a fold that turned out unusable. */
static void
drop_made(Value **made, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (made[i] && value_use_empty(made[i]))
			op_erase(made[i]->def);
}

/* The values replacing op's results, or 0 when some cannot be had. */
static int
fold_results(Ctx *c, Op *op, Value **outv, Attr **outa, Value **vals,
	Value **made)
{
	int i;

	for (i = 0; i < op->nres; i++) {
		made[i] = NULL;
		if (outv[i]) {
			if (outv[i] == RES(op, i) || outv[i]->type != RES(op, i)->type)
				return 0;
			vals[i] = outv[i];
			continue;
		}
		if (!outa[i])
			return 0;
		vals[i] = made[i] = materialize_constant(c, op, outa[i],
		    RES(op, i)->type, op->loc);
		if (!vals[i])
			return 0;
	}
	return 1;
}

int
fold_op(Ctx *c, Op *op)
{
	int n = op->nres;
	Value *outv[n + 1], *vals[n + 1], *made[n + 1];
	Attr *outa[n + 1];

	if (!n || !op->info || !op->info->fold || is_constant_op(op))
		return 0;
	memset(outv, 0, sizeof outv);
	memset(outa, 0, sizeof outa);
	memset(made, 0, sizeof made);
	if (!op->info->fold(c, op, outv, outa))
		return 0;
	if (!fold_results(c, op, outv, outa, vals, made)) {
		drop_made(made, n);
		return 0;
	}
	op_replace(op, vals);
	return 1;
}

/* ---- dead ops ---- */

static int
has_no_effects(const Op *op)
{
	if (op_has(op, TR_MUTABLE))
		return 0;
	return op_has(op, TR_PURE) || is_constant_op(op);
}

/* Is everything nested in op free of side effects?  Terminators only
 * pass values on. */
static int
regions_pure(Op *op)
{
	int i;

	for (i = 0; i < op->nregs; i++)
		for (Block *b = op->regs[i].first; b; b = b->next)
			for (Op *o = b->first; o; o = o->next) {
				if (!has_no_effects(o) && !op_has(o, TR_TERMINATOR))
					return 0;
				if (o->nregs && !regions_pure(o))
					return 0;
			}
	return 1;
}

int
op_is_trivially_dead(Op *op)
{
	int i;

	for (i = 0; i < op->nres; i++)
		if (!value_use_empty(RES(op, i)))
			return 0;
	if (op_has(op, TR_TERMINATOR) || op->nsuccs || !has_no_effects(op))
		return 0;
	return !op->nregs || regions_pure(op);
}
