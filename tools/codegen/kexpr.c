/*
 * kexpr.c - scalar expressions of the kernel IR (kir.h): building them,
 * the op codes codegen itself builds or looks for, and the analyses the
 * dispatch formation and both targets share (accumulators, loop dims,
 * the multiply-accumulate of a contraction).
 */
#include <string.h>

#include "kir.h"

KOps kop;

/* by op code: the op's dialect, for the ops of kernel bodies */
enum { DIALECT_OTHER, DIALECT_ARITH, DIALECT_MATH };
static unsigned char *dialect;
static int ncodes;

int kop_code(const char *table, const char *name)
{
	const OpInfo *info = opinfo_lookup(name);

	if (!info)
		die("codegen: %s: unknown op '%s'", table, name);
	return info->code;
}

const char *kop_name(int code)
{
	const OpInfo *info = opinfo_at(code);

	return info ? info->name : "?";
}

void kops_init(void)
{
	int i;

#define KOP_INIT(f, name) kop.f = kop_code("kir.h KOPS", name);
	KOPS(KOP_INIT)
#undef KOP_INIT
	ncodes = opinfo_count();
	dialect = xcalloc((size_t)ncodes, 1);
	for (i = 0; i < ncodes; i++) {
		const char *n = opinfo_at(i)->name;

		if (!strncmp(n, "arith.", 6))
			dialect[i] = DIALECT_ARITH;
		else if (!strncmp(n, "math.", 5))
			dialect[i] = DIALECT_MATH;
	}
}

int kop_of(const Op *op)
{
	return op->info ? op->info->code : -1;
}

int kop_scalar(int code)
{
	return code >= 0 && code < ncodes && dialect[code] != DIALECT_OTHER;
}

int kop_math(int code)
{
	return code >= 0 && code < ncodes && dialect[code] == DIALECT_MATH;
}

int kop_int_div(int code)
{
	return code >= 0 && (code == kop.divsi || code == kop.divui || code == kop.remsi ||
		code == kop.remui || code == kop.floordivsi || code == kop.ceildivsi ||
		code == kop.ceildivui);
}

KExpr *kx_new(Ctx *c, KKind k, Type *t, int n)
{
	KExpr *e = arena_alloc(c, sizeof *e);

	e->kind = k;
	e->type = t;
	e->n = n;
	e->a = arena_alloc(c, sizeof *e->a * (size_t)(n + 1));
	e->buf = -1;
	return e;
}

KExpr *kx_op(Ctx *c, int op, Type *t, int n)
{
	KExpr *e = kx_new(c, KX_OP, t, n);

	e->op = op;
	return e;
}

KExpr *kx_const_f(Ctx *c, Type *t, double v)
{
	KExpr *e = kx_new(c, KX_CONST, t, 0);

	e->cval = ty_isfloat(t) ? at_float(c, v, t) : at_int(c, (int64_t)v, t);
	return e;
}

KExpr *kx_const_i(Ctx *c, Type *t, int64_t v)
{
	KExpr *e = kx_new(c, KX_CONST, t, 0);

	e->cval = ty_isfloat(t) ? at_float(c, (double)v, t) : at_int(c, v, t);
	return e;
}

int kx_has_acc(const KExpr *e)
{
	int i;

	if (e->kind == KX_ACC)
		return 1;
	for (i = 0; i < e->n; i++)
		if (kx_has_acc(e->a[i]))
			return 1;
	return 0;
}

KExpr *kx_acc_other(const KExpr *v)
{
	int i;

	if (v->kind != KX_OP || v->n != 2)
		return NULL;
	for (i = 0; i < 2; i++)
		if (v->a[i]->kind == KX_ACC && !kx_has_acc(v->a[1 - i]))
			return v->a[1 - i];
	return NULL;
}

void ix_dims(const IExpr *x, uint64_t *set)
{
	if (!x)
		return;
	if (x->kind == IX_DIM)
		*set |= 1ull << x->v;
	ix_dims(x->l, set);
	ix_dims(x->r, set);
}

void kx_dims(const KExpr *e, uint64_t *set)
{
	int i;

	for (i = 0; i < e->n; i++)
		kx_dims(e->a[i], set);
	if (e->kind == KX_LOAD || e->kind == KX_INDEX || e->kind == KX_INRANGE || e->kind == KX_FIX)
		for (i = 0; i < e->rank; i++)
			ix_dims(e->ix[i], set);
}

int kx_is_zero(const KExpr *e)
{
	return e && e->kind == KX_CONST && e->cval->kind == AT_FLOAT && e->cval->f == 0;
}

/* val = acc + x * y (either order): the operands, or 0 */
int gemm_mac(KExpr *v, KExpr **x, KExpr **y)
{
	KExpr *m;

	if (v->kind != KX_OP || v->op != kop.addf || v->type->kind != TY_F32 ||
			!(m = kx_acc_other(v)) || m->kind != KX_OP || m->op != kop.mulf)
		return 0;
	*x = m->a[0];
	*y = m->a[1];
	return 1;
}

static void add_dim(int *v, int *n, int d)
{
	int i;

	for (i = 0; i < *n && v[i] != d; i++)
		;
	if (i == *n)
		v[(*n)++] = d;
}

int kernel_loops(const Kernel *k, int *par, int *npar, int *red, int *nred)
{
	int j, d, empty = 0;

	*npar = *nred = 0;
	if (k->nout)
		for (j = 0; j < k->bind[k->out[0].buf].type->rank; j++)
			for (d = 0; d < k->ndims; d++)
				if (!k->red[d] && k->ext[d] > 1 && ix_uses_dim(k->out[0].ix[j], d))
					add_dim(par, npar, d);
	for (d = 0; d < k->ndims; d++) {
		if (k->ext[d] == 0 && !k->red[d])
			empty = 1;
		if (k->ext[d] == 1 || (k->ext[d] == 0 && !k->red[d]))
			continue;
		if (k->red[d])
			red[(*nred)++] = d;
		else
			add_dim(par, npar, d);
	}
	return empty;
}
