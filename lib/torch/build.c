/*
 * build.c - making torch ops whose result types are inferred, replacing
 * ops while keeping function signatures in step, and refining result
 * types in place.
 */
#include <stdlib.h>
#include <string.h>

#include "pass.h"
#include "torch.h"

B
b_at(Ctx *c, Op *op)
{
	return (B){c, op, op->loc};
}

static Value *
b_const(B *b, Attr *a, TypeKind k)
{
	Value *v = materialize_constant(b->c, b->at, a, ty_torch(b->c, k), b->loc);

	if (!v)
		die("cannot make a torch constant");
	return v;
}

Value *b_int(B *b, int64_t v) { return b_const(b, at_int(b->c, v, NULL), TY_TORCH_INT); }
Value *b_float(B *b, double v) { return b_const(b, at_float(b->c, v, NULL), TY_TORCH_FLOAT); }
Value *b_bool(B *b, int v) { return b_const(b, at_bool(b->c, v), TY_TORCH_BOOL); }
Value *b_none(B *b) { return b_const(b, at_unit(b->c), TY_TORCH_NONE); }
Value *b_str(B *b, const char *s) { return b_const(b, at_str(b->c, s), TY_TORCH_STR); }

Value *
b_list(B *b, int n, Value *const *v)
{
	Type *elem = n && tt_is(v[0]->type) ? ty_vtensor(b->c, -1, NULL, NULL)
	    : n ? v[0]->type : ty_torch(b->c, TY_TORCH_INT);
	Type *lt = ty_torch_list(b->c, elem);
	Op *op = op_new(b->c, "torch.prim.ListConstruct", n, v, 1, &lt, 0, b->loc);

	op_insert_before(b->at, op);
	return RES(op, 0);
}

Value *
b_ints(B *b, int n, const int64_t *v)
{
	Value *e[TORCH_MAXRANK * 2];
	int i;

	if (n > TORCH_MAXRANK * 2)
		die("b_ints: list too long");
	for (i = 0; i < n; i++)
		e[i] = b_int(b, v[i]);
	return b_list(b, n, e);
}

/* The placeholder type for a schema return type. */
static Type *
ret_type(Ctx *c, const char *s, size_t n)
{
#define IS(lit) (n == sizeof(lit) - 1 && !strncmp(s, lit, n))
	if (IS("Tensor"))
		return ty_vtensor(c, -1, NULL, NULL);
	if (IS("List[Tensor]"))
		return ty_torch_list(c, ty_vtensor(c, -1, NULL, NULL));
	if (IS("int"))
		return ty_torch(c, TY_TORCH_INT);
	if (IS("float"))
		return ty_torch(c, TY_TORCH_FLOAT);
	if (IS("bool"))
		return ty_torch(c, TY_TORCH_BOOL);
	return ty_torch(c, TY_TORCH_ANY);
#undef IS
}

Op *
b_opn(B *b, const char *name, int n, Value *const *v)
{
	char full[128];
	const OpInfo *info;
	Type *types[8];
	const char *p, *q;
	int i, nres;
	Op *op;

	snprintf(full, sizeof full, "torch.%s", name);
	if (!(info = opinfo_lookup(full)) || !info->sig || info->nres < 0 || info->nres > 8)
		die("b_opn: no op '%s'", full);
	nres = info->nres;
	for (i = 0, p = info->sig->rets; i < nres; i++, p = q + (*q != 0)) {
		q = p + strcspn(p, ",");
		types[i] = ret_type(b->c, p, q - p);
	}
	op = op_new(b->c, intern(b->c, full), n, v, nres, types, 0, b->loc);
	op_insert_before(b->at, op);
	/* scalar results have their types from the signature already */
	for (i = 0; i < nres && !tt_is(types[i]); i++)
		;
	if (i < nres && !torch_infer(b->c, op, types))
		die("b_opn: cannot infer the result types of '%s'", full);
	for (i = 0; i < nres; i++)
		value_set_type(RES(op, i), types[i]);
	return op;
}

Value *
b_op(B *b, const char *name, int n, Value *const *v)
{
	return RES(b_opn(b, name, n, v), 0);
}

Value *
b_op1(B *b, const char *name, Value *x)
{
	return b_op(b, name, 1, &x);
}

Value *
b_op2(B *b, const char *name, Value *x, Value *y)
{
	Value *v[2] = {x, y};

	return b_op(b, name, 2, v);
}

Value *
b_op3(B *b, const char *name, Value *x, Value *y, Value *z)
{
	Value *v[3] = {x, y, z};

	return b_op(b, name, 3, v);
}

static int
all_same(const uint8_t *p, size_t n, size_t esz)
{
	size_t i;

	for (i = esz; i < n; i += esz)
		if (memcmp(p, p + i, esz))
			return 0;
	return 1;
}

Value *
b_literal(B *b, Type *vt, const void *data, size_t nbytes)
{
	return b_literal_named(b, vt, data, nbytes, NULL);
}

/* a literal of value a, before b's op */
static Value *
literal_op(B *b, Type *vt, Attr *a)
{
	Op *op = op_new(b->c, "torch.vtensor.literal", 0, NULL, 1, &vt, 0, b->loc);

	op_set_attr(b->c, op, "value", a);
	op_insert_before(b->at, op);
	return RES(op, 0);
}

/* data is copied, or taken when owned (malloc'd) is data. */
static Value *
literal(B *b, Type *vt, const void *data, size_t nbytes, const char *name,
	void *owned)
{
	Type *bt = ty_to_builtin(b->c, vt);
	size_t esz = elem_size(vt->elem);
	Attr *a;

	if (nbytes >= esz && all_same(data, nbytes, esz))
		a = at_dense(b->c, bt, data, esz, 1);
	else if (nbytes <= 64)
		a = at_dense(b->c, bt, data, nbytes, 0);
	else {
		name = name ? name : "torch_folded";
		a = at_dense_resource(b->c, bt, owned
		    ? resource_adopt(b->c, "builtin", name, owned, nbytes, 64)
		    : resource_new(b->c, "builtin", name, data, nbytes, 64));
		owned = NULL;
	}
	free(owned);
	return literal_op(b, vt, a);
}

Value *
b_literal_lazy(B *b, Type *vt, size_t nbytes, const char *name,
	void (*fill)(void *arg, uint8_t *dst), void *arg, Resource *src)
{
	Resource *r = resource_lazy(b->c, "builtin", name, nbytes, 64, fill, arg);

	if ((r->src = src))
		src->readers++;
	return literal_op(b, vt, at_dense_resource(b->c, ty_to_builtin(b->c, vt), r));
}

Value *
b_literal_named(B *b, Type *vt, const void *data, size_t nbytes, const char *name)
{
	return literal(b, vt, data, nbytes, name, NULL);
}

Value *
b_literal_take(B *b, Type *vt, void *data, size_t nbytes, const char *name)
{
	return literal(b, vt, data, nbytes, name, data);
}

/* ---- replacing and refining ---- */

void
torch_sync_func_type(Ctx *c, Op *ret)
{
	Op *f = ret->parent ? block_parent_op(ret->parent) : NULL;
	Attr *ft;
	Type *t, *outs[64];
	int i;

	if (!f || !op_is(f, "func.func") || !(ft = op_attr(f, "function_type"))
	    || ft->kind != AT_TYPE || ret->nopnds > 64)
		return;
	t = ft->type;
	for (i = 0; i < ret->nopnds; i++)
		outs[i] = OPND(ret, i)->type;
	Type *nt = ty_func(c, t->nin, t->sub, ret->nopnds, outs);
	if (nt != t)
		op_set_attr(c, f, "function_type", at_type(c, nt));
}

static void
sync_users(Ctx *c, Value *v)
{
	for (Use *u = v->uses; u; u = u->next)
		if (op_is(u->owner, "func.return"))
			torch_sync_func_type(c, u->owner);
}

void
torch_replace(Ctx *c, Op *op, Value *const *vals)
{
	int i, n = op->nres;
	Value *keep[n + 1];

	keep[n] = NULL;
	for (i = 0; i < n; i++)
		keep[i] = vals[i];
	op_replace(op, keep);
	for (i = 0; i < n; i++)
		if (keep[i])
			sync_users(c, keep[i]);
}

/* The more refined of two types of one value; NULL on a conflict. */
static Type *
merge(Ctx *c, Type *old, Type *new)
{
	Type *dt;
	int64_t d[TORCH_MAXRANK];
	int i;

	if (!new || !tt_is(new) || !tt_is(old) || new == old)
		return old;
	if (old->elem && new->elem && old->elem != new->elem)
		return NULL;
	dt = new->elem ? new->elem : old->elem;
	if (tt_rank(new) < 0 || tt_rank(old) < 0) {
		Type *s = tt_rank(new) < 0 ? old : new;
		return tt_make(c, old, tt_rank(s), s->dims, dt);
	}
	if (new->rank != old->rank || new->rank > TORCH_MAXRANK)
		return NULL;
	for (i = 0; i < new->rank; i++) {
		if (new->dims[i] != DYN && old->dims[i] != DYN && new->dims[i] != old->dims[i])
			return NULL;
		d[i] = new->dims[i] != DYN ? new->dims[i] : old->dims[i];
	}
	return tt_make(c, old, new->rank, d, dt);
}

static const char *
tystr(Type *t, Buf *b)
{
	b->n = 0;
	print_type(b, t);
	buf_putc(b, 0);
	return b->p;
}

int
torch_refine_op(Ctx *c, Op *op)
{
	int n = op->nres, i, changed = 0;
	Type *t[n + 1], *m;
	Buf b1 = {0}, b2 = {0};

	for (i = 0; i < n; i++)
		t[i] = RES(op, i)->type;
	if (!n || !torch_infer(c, op, t))
		return 0;
	for (i = 0; i < n; i++) {
		if (!(m = merge(c, RES(op, i)->type, t[i]))) {
			op_error(op, "'%s' result #%d is '%s' but its operands make it '%s'",
			    op->name, i, tystr(RES(op, i)->type, &b1), tystr(t[i], &b2));
			buf_free(&b1);
			buf_free(&b2);
			return -1;
		}
		if (ty_check_limits(m, &b1)) {   /* a broadcast, an expand, a repeat... */
			op_error(op, "'%s' result #%d: %s", op->name, i, b1.p);
			buf_free(&b1);
			return -1;
		}
		if (m != RES(op, i)->type) {
			value_set_type(RES(op, i), m);
			sync_users(c, RES(op, i));
			changed = 1;
		}
	}
	return changed;
}
