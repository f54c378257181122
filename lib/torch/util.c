/* util.c - op names, constant operands and tensor types for the torch
 * passes. */
#include <string.h>

#include "fold.h"
#include "torch.h"

/* ---- names ---- */

const char *
torch_opname(const Op *op)
{
	Attr *n;

	/* torch.aten.*, torch.prims.*...: the ops with a schema */
	if (!strncmp(op->name, "torch.aten.", 11) || (op->info && op->info->sig))
		return op->name + 6;
	if (!op_is(op, "torch.operator"))
		return NULL;
	n = op_attr(op, "name");
	return n && n->kind == AT_STR ? n->s : NULL;
}

int
torch_is(const Op *op, const char *name)
{
	const char *n = torch_opname(op);

	return n && !strcmp(n, name);
}

/* ---- constant operands ---- */

int
tv_int(Value *v, int64_t *out)
{
	Attr *a = value_const(v);

	if (!a || a->kind != AT_INT || v->type->kind == TY_TORCH_BOOL
	    || ty_istorchtensor(v->type))
		return 0;
	*out = a->i;
	return 1;
}

int
tv_float(Value *v, double *out)
{
	Attr *a = value_const(v);

	if (!a || ty_istorchtensor(v->type))
		return 0;
	if (a->kind == AT_FLOAT) {
		*out = a->f;
		return 1;
	}
	if (a->kind == AT_INT) {
		*out = (double)a->i;
		return 1;
	}
	return 0;
}

int
tv_bool(Value *v, int *out)
{
	Attr *a = value_const(v);

	if (!a || a->kind != AT_INT || v->type->kind != TY_TORCH_BOOL)
		return 0;
	*out = a->i != 0;
	return 1;
}

int
tv_none(Value *v)
{
	return v->type->kind == TY_TORCH_NONE;
}

int
tv_str(Value *v, const char **out)
{
	Attr *a = value_const(v);

	if (!a || a->kind != AT_STR || v->type->kind != TY_TORCH_STR)
		return 0;
	*out = a->s;
	return 1;
}

int
tv_const(Value *v)
{
	return v->def && !strncmp(v->def->name, "torch.constant.", 15);
}

int64_t
tv_ival(Value *v)
{
	Attr *a = value_const(v);

	if (!a || ty_istorchtensor(v->type))
		return 0;
	return a->kind == AT_INT ? a->i : a->kind == AT_FLOAT ? (int64_t)a->f : 0;
}

double
tv_fval(Value *v)
{
	double f = 0;

	tv_float(v, &f);
	return f;
}

int
tv_list(Value *list, Value ***elts)
{
	Op *d = list->def;
	int i;

	if (!d || !op_is(d, "torch.prim.ListConstruct"))
		return -1;
	*elts = d->nopnds ? xmalloc(d->nopnds * sizeof **elts) : NULL;
	for (i = 0; i < d->nopnds; i++)
		(*elts)[i] = OPND(d, i);
	return d->nopnds;
}

int
tv_ints(Value *list, int64_t *out, int max)
{
	Op *d = list->def;
	int i;

	if (!d || !op_is(d, "torch.prim.ListConstruct") || d->nopnds > max)
		return -1;
	for (i = 0; i < d->nopnds; i++)
		if (!tv_int(OPND(d, i), &out[i]))
			return -1;
	return d->nopnds;
}

/* ---- tensor types ---- */

int
tt_is(const Type *t)
{
	return t && ty_istorchtensor(t);
}

int
tt_rank(const Type *t)
{
	return tt_is(t) && t->ranked ? t->rank : -1;
}

Type *
tt_dtype(const Type *t)
{
	return tt_is(t) ? t->elem : NULL;
}

Type *
tt_make(Ctx *c, const Type *kind, int rank, const int64_t *dims, Type *dtype)
{
	if (kind && kind->kind == TY_TORCH_TENSOR)
		return ty_torch_tensor(c, rank, dims, dtype);
	return ty_vtensor(c, rank, dims, dtype);
}

Type *
tt_vt(Ctx *c, int rank, const int64_t *dims, Type *dtype)
{
	return ty_vtensor(c, rank, dims, dtype);
}

int64_t
tt_dim(int64_t d, int rank)
{
	int r = rank > 0 ? rank : 1;

	if (d < 0)
		d += r;
	return d >= 0 && d < r ? d : -1;
}

int
torch_rewrite_each(Ctx *c, Op *fn, int (*rewrite)(Ctx *c, Op *op))
{
	Block *b = fn->nregs ? fn->regs[0].first : NULL;
	Op *op, *next;
	int changed = 0;

	for (; b; b = b->next)
		for (op = b->first; op; op = next) {
			next = op->next;
			if (rewrite(c, op))
				changed = 1;
		}
	return changed;
}
