/*
 * dynamic.c - dynamic shapes in torch-lower.
 *
 * An op with a dynamic dimension takes the convert-torch-to-linalg pass's
 * row (torch-mlir's forms: tensor.dim sizes, run-time asserts where sizes
 * must agree) or, where that row keeps to static shapes, one of the rows
 * here (lower_dynamic_row).  The int arithmetic of sizes (size.int and
 * kin) lowers to tensor.dim and arith, and the torch_c scalar casts the
 * forms read them through are resolved to those values.
 *
 * torch.symbolic_int lowers to nothing.  A torch.bind_symbolic_shape of a
 * function argument becomes run-time checks where it stands: a symbol is
 * the size of the first argument dimension bound to it alone (s0); there
 * its range [min_val, max_val] is asserted, and every other dimension is
 * asserted equal to its expression (s0, s0 * 2 + 1, a constant) over the
 * symbols so sized.  Each check is a cf.assert whose message names the
 * argument and the dimension.  A bind of any other value restates what
 * the lowered ops compute and check themselves: it lowers to nothing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lower.h"

/* The argument number of v, or -1 when v is no function argument. */
static int
arg_number(Value *v)
{
	Block *b = v->block;

	if (v->def || !b || b->prev || !b->parent || !b->parent->parent ||
			!op_is(b->parent->parent, "func.func"))
		return -1;
	return v->index;
}

static int64_t
int_attr(Op *op, const char *key, int64_t dflt)
{
	Attr *a = op_attr(op, key);

	return a && a->kind == AT_INT ? a->i : dflt;
}

/* The index value of e over the sized symbols sym[], or NULL (after an
 * error at op) where e reads a symbol not yet sized or is no polynomial
 * expression. */
static Value *
eval(L *l, Op *op, const AffExpr *e, Value **sym)
{
	Value *a, *b;
	const char *name;

	switch (e->kind) {
	case AFF_CONST:
		return cst_idx(l, e->v);
	case AFF_SYM:
		if (!sym[e->v])
			op_error(op, "torch-lower: symbol s%" PRId64 " of this shape is sized by "
				"no argument dimension of its own, so the shape cannot be checked",
				e->v);
		return sym[e->v];
	case AFF_ADD: name = "arith.addi"; break;
	case AFF_MUL: name = "arith.muli"; break;
	case AFF_MOD: name = "arith.remsi"; break;
	case AFF_FLOORDIV: name = "arith.floordivsi"; break;
	case AFF_CEILDIV: name = "arith.ceildivsi"; break;
	default:
		op_error(op, "torch-lower: a dimension expression is not over symbols");
		return NULL;
	}
	if (!(a = eval(l, op, e->l, sym)) || !(b = eval(l, op, e->r, sym)))
		return NULL;
	return bin(l, name, a, b);
}

/* e as text over the symbols' names, into buf */
static void
expr_str(const AffExpr *e, Op *op, char *buf, size_t n)
{
	static const char *const sep[] = {
		[AFF_ADD] = " + ", [AFF_MUL] = " * ", [AFF_MOD] = " mod ",
		[AFF_FLOORDIV] = " floordiv ", [AFF_CEILDIV] = " ceildiv ",
	};
	char a[96], b[96];

	if (e->kind == AFF_CONST) {
		snprintf(buf, n, "%" PRId64, e->v);
	} else if (e->kind == AFF_SYM) {
		Attr *s = op_attr(OPND(op, e->v + 1)->def, "symbol_name");
		snprintf(buf, n, "%s", s && s->kind == AT_STR ? s->s : "?");
	} else if (e->kind >= AFF_ADD && e->kind <= AFF_CEILDIV) {
		expr_str(e->l, op, a, sizeof a);
		expr_str(e->r, op, b, sizeof b);
		snprintf(buf, n, "(%s%s%s)", a, sep[e->kind], b);
	} else {
		snprintf(buf, n, "?");
	}
}

/* The symbols' sizes, by torch.symbolic_int value: the builtin value map
 * holds them (the torch.int results are read by binds alone). */
int
lower_bind_symbolic_shape(L *l, Op *op)
{
	Attr *m = op_attr(op, "shape_expressions");
	Value *t = OPND(op, 0), *bt = get(l, t);
	int argno = arg_number(t), nsym = op->nopnds - 1, i;
	Value *sym[nsym + 1];
	char msg[512], ex[256];

	if (argno < 0)
		return 0;
	if (!m || m->kind != AT_AFFINE_MAP || !bt || !bt->type->ranked ||
			m->map->nres != bt->type->rank) {
		op_error(op, "torch-lower: the shape expressions do not fit the tensor");
		return -1;
	}
	int sized[m->map->nres + 1];
	for (i = 0; i < nsym; i++)
		sym[i] = get(l, OPND(op, i + 1));
	/* first, the symbols this argument sizes, and their ranges */
	for (i = 0; i < m->map->nres; i++) {
		AffExpr *e = m->map->res[i];
		sized[i] = e->kind == AFF_SYM && !sym[e->v];
		if (!sized[i])
			continue;
		Op *s = OPND(op, e->v + 1)->def;
		Value *d = emit1(l, "tensor.dim", 2, (Value *[]){bt, cst_idx(l, i)},
			ty_index(l->c));
		int64_t lo = int_attr(s, "min_val", 0), hi = int_attr(s, "max_val", INT64_MAX);
		Value *ok = NULL;
		if (lo > 0)
			ok = cmpi(l, "sge", d, cst_idx(l, lo));
		if (hi < INT64_MAX) {
			Value *le = cmpi(l, "sle", d, cst_idx(l, hi));
			ok = ok ? bin(l, "arith.andi", ok, le) : le;
		}
		expr_str(e, op, ex, sizeof ex);
		snprintf(msg, sizeof msg, "input %d: dimension %d (%s) must be in [%" PRId64
			", %" PRId64 "]", argno, i, ex, lo < 0 ? 0 : lo, hi);
		if (ok)
			emit_assert(l, ok, msg);
		sym[e->v] = d;
		set(l, OPND(op, e->v + 1), d);
	}
	/* then every other dimension against its expression */
	for (i = 0; i < m->map->nres; i++) {
		AffExpr *e = m->map->res[i];
		Value *want, *d;
		if (sized[i] || (e->kind == AFF_CONST && bt->type->dims[i] == e->v))
			continue;
		if (!(want = eval(l, op, e, sym)))
			return -1;
		d = emit1(l, "tensor.dim", 2, (Value *[]){bt, cst_idx(l, i)}, ty_index(l->c));
		expr_str(e, op, ex, sizeof ex);
		snprintf(msg, sizeof msg, "input %d: dimension %d must equal %s", argno, i, ex);
		emit_assert(l, cmpi(l, "eq", d, want), msg);
	}
	return 0;
}

/* ---- the int arithmetic of symbolic sizes ---- */

/* The i64 value of torch int v: a constant, or a lowered int's. */
Value *
lower_int_of(L *l, Value *v)
{
	int64_t k;
	Value *b;

	if (tv_int(v, &k))
		return cst_i(l, k, ty_int(l->c, 64, SIGNLESS));
	if ((b = get(l, v)) && b->type == ty_int(l->c, 64, SIGNLESS))
		return b;
	return NULL;
}

/* size.int of a tensor (tensor.dim), and the add, sub, mul and floordiv
 * of ints, on i64 as torch-mlir's convert-torch-to-arith makes them */
int
lower_int_op(L *l, Op *op)
{
	static const char *const ar[][2] = {
		{"torch.aten.add.int", "arith.addi"}, {"torch.aten.sub.int", "arith.subi"},
		{"torch.aten.mul.int", "arith.muli"}, {"torch.aten.floordiv.int", "arith.floordivsi"},
	};
	Type *i64 = ty_int(l->c, 64, SIGNLESS);
	Value *a, *b;
	int64_t d;
	size_t i;

	if (op_is(op, "torch.aten.size.int")) {
		Value *t = get(l, OPND(op, 0));
		if (!t || !t->type->ranked || !tv_int(OPND(op, 1), &d) ||
				(d = norm_dim(l, d, t->type->rank)) < 0) {
			op_error(op, "torch-lower: size.int needs a ranked tensor and a constant "
				"dimension");
			return -1;
		}
		Value *n = emit1(l, "tensor.dim", 2, (Value *[]){t, cst_idx(l, d)}, ty_index(l->c));
		set(l, RES(op, 0), emit1(l, "arith.index_cast", 1, &n, i64));
		return 0;
	}
	for (i = 0; i < sizeof ar / sizeof *ar && !op_is(op, ar[i][0]); i++)
		;
	if (i == sizeof ar / sizeof *ar)
		return 1;
	if (!(a = lower_int_of(l, OPND(op, 0))) || !(b = lower_int_of(l, OPND(op, 1)))) {
		op_error(op, "torch-lower: '%s' of an int with no value", op->name);
		return -1;
	}
	if (!strcmp(ar[i][1], "arith.floordivsi")) {
		emit_assert(l, cmpi(l, "ne", b, cst_i(l, 0, i64)), "integer division by zero");
	}
	set(l, RES(op, 0), bin(l, ar[i][1], a, b));
	return 0;
}

/* What the torch-mlir forms left: torch_c.to_i64 (to_f64, to_i1) of a
 * torch scalar, replaced by its constant or lowered value.  0, or -1
 * after an error. */
int
lower_resolve_scalars(L *l, Op *fn)
{
	Block *b;
	Op *op, *next;
	int64_t k;
	double f;
	int bv;

	for (b = fn->regs[0].first; b; b = b->next)
		for (op = b->first; op; op = next) {
			next = op->next;
			if (strncmp(op->name, "torch_c.to_", 11) || op_is(op, "torch_c.to_builtin_tensor"))
				continue;
			Value *v = OPND(op, 0), *r = RES(op, 0), *nv;
			l->op = op;
			l->before = op;
			l->blk = NULL;
			if (op_is(op, "torch_c.to_i64") && tv_int(v, &k))
				nv = cst_i(l, k, r->type);
			else if (op_is(op, "torch_c.to_f64") && tv_float(v, &f))
				nv = cst_f(l, f, r->type);
			else if (op_is(op, "torch_c.to_i1") && tv_bool(v, &bv))
				nv = cst_i(l, bv, r->type);
			else if (!(nv = get(l, v)) || nv->type != r->type) {
				op_error(op, "torch-lower: a scalar of these shapes has no value");
				return -1;
			}
			value_replace_all_uses(r, nv);
			op_erase(op);
		}
	return 0;
}

/* ---- unit dims of dynamic shapes ---- */

/* The reassociation between a shape of rank r and the one of rank r - 1
 * without unit dim d: d joins its right neighbour's group (the left one's
 * when it is last). */
static Attr *
unit_groups(L *l, int r, int d)
{
	Attr *groups[TY_MAXRANK], *inner[2];
	int g, i = 0;

	for (g = 0; g < r - 1; g++) {
		int n = 0;
		if (i == d)
			inner[n++] = at_int(l->c, i++, NULL);
		inner[n++] = at_int(l->c, i++, NULL);
		if (i == d && d == r - 1)
			inner[n++] = at_int(l->c, i++, NULL);
		groups[g] = at_array(l->c, n, inner);
	}
	return at_array(l->c, r - 1, groups);
}

/* unsqueeze, and squeeze.dim of a dim of static size 1, with other dims
 * dynamic: tensor.expand_shape / collapse_shape of that one unit dim (a
 * squeeze of a dim that is not 1 is the operand) */
static int
lower_unit_dim_dyn(L *l, Op *op, const void *arg)
{
	int squeeze = op_is(op, "torch.aten.squeeze.dim");
	Value *x = get(l, OPND(op, 0));
	Type *bt = btensor(l->c, op->res[0].type), *st = x ? x->type : NULL;
	int64_t d;

	(void)arg;
	if (!bt || !st || !st->ranked || !bt->ranked || !tv_int(OPND(op, 1), &d))
		return -1;
	if ((d = norm_dim(l, d, squeeze ? st->rank : bt->rank)) < 0)
		return -1;
	if (squeeze && st->dims[d] != 1) {
		if (st->dims[d] == DYN)   /* asserted to be 1, torch-mlir's */
			return lower_pass_row(op->name)->fn(l, op, NULL);
		if (bt->rank != st->rank)
			return -1;
		set(l, RES(op, 0), emit1(l, "tensor.cast", 1, &x, bt));
		return 0;
	}
	if (bt->rank != st->rank + (squeeze ? -1 : 1) || bt->rank > TY_MAXRANK ||
			st->rank > TY_MAXRANK)
		return -1;
	int r = squeeze ? st->rank : bt->rank;
	set(l, RES(op, 0), expand_dims(l, x, bt, unit_groups(l, r, (int)d), squeeze));
	return 0;
}

/* select.int with dynamic dims: a rank-reduced tensor.extract_slice of
 * the one index at a constant offset (a negative index only on a static
 * dim), the other dims whole, their sizes tensor.dim where dynamic */
static int
lower_select_dyn(L *l, Op *op, const void *arg)
{
	Value *x = get(l, OPND(op, 0)), *dyn[TY_MAXRANK];
	Type *bt = btensor(l->c, op->res[0].type), *st = x ? x->type : NULL;
	Type *i64 = ty_int(l->c, 64, SIGNLESS);
	int64_t d, i, off[TY_MAXRANK], sz[TY_MAXRANK], one[TY_MAXRANK];
	int k, n = 0;

	(void)arg;
	if (!bt || !st || !st->ranked || st->rank > TY_MAXRANK || st->rank != bt->rank + 1 ||
			!tv_int(OPND(op, 1), &d) || !tv_int(OPND(op, 2), &i) ||
			(d = norm_dim(l, d, st->rank)) < 0)
		return -1;
	if (i < 0 && st->dims[d] == DYN) {
		op_error(op, "torch-lower: select of a negative index on a dynamic dimension");
		return -1;
	}
	if (i < 0)
		i += st->dims[d];
	if (i < 0 || (st->dims[d] != DYN && i >= st->dims[d])) {
		op_error(op, "torch-lower: select index out of range");
		return -1;
	}
	for (k = 0; k < st->rank; k++) {
		off[k] = k == d ? i : 0;
		one[k] = 1;
		sz[k] = k == d ? 1 : st->dims[k];
		if (sz[k] == DYN) {
			sz[k] = INT64_MIN;   /* MLIR's kDynamic */
			dyn[n++] = emit1(l, "tensor.dim", 2, (Value *[]){x, cst_idx(l, k)},
				ty_index(l->c));
		}
	}
	if (st->dims[d] == DYN) {   /* the index must be in range at run time */
		Value *ext = emit1(l, "tensor.dim", 2, (Value *[]){x, cst_idx(l, d)},
			ty_index(l->c));
		emit_assert(l, cmpi(l, "slt", cst_idx(l, i), ext), "select index out of range");
	}
	Value *o[TY_MAXRANK + 1];
	o[0] = x;
	for (k = 0; k < n; k++)
		o[k + 1] = dyn[k];
	Op *s = emit(l, "tensor.extract_slice", n + 1, o, 1, &bt);
	op_set_attr(l->c, s, "static_offsets", at_dense_array(l->c, i64, st->rank, off));
	op_set_attr(l->c, s, "static_sizes", at_dense_array(l->c, i64, st->rank, sz));
	op_set_attr(l->c, s, "static_strides", at_dense_array(l->c, i64, st->rank, one));
	op_set_attr(l->c, s, "operand_segment_sizes", at_dense_array(l->c,
		ty_int(l->c, 32, SIGNLESS), 4, (int64_t[]){1, 0, n, 0}));
	set(l, RES(op, 0), RES(s, 0));
	return 0;
}

/* arange.start_step of ints, a bound or the step a symbolic size (i64 at
 * run time): start + i * step over the length ceil((end - start) / step)
 * clamped at 0, as PyTorch's; the step must be a nonzero constant */
static int
lower_arange_dyn(L *l, Op *op, const void *arg)
{
	Type *bt = btensor(l->c, op->res[0].type), *rt = op->res[0].type->elem;
	Type *i64 = ty_int(l->c, 64, SIGNLESS);
	Value *start, *end, *len, *out;
	int64_t step;
	AffMap *m;
	Gen g;

	(void)arg;
	if (!bt || bt->rank != 1 || !rt || !tv_int(OPND(op, 2), &step) || step == 0 ||
			!(start = lower_int_of(l, OPND(op, 0))) || !(end = lower_int_of(l, OPND(op, 1)))) {
		op_error(op, "torch-lower: a dynamic arange needs int bounds and a constant "
			"nonzero step");
		return -1;
	}
	len = bin(l, "arith.ceildivsi", bin(l, "arith.subi", end, start), cst_i(l, step, i64));
	len = sel(l, cmpi(l, "slt", len, cst_i(l, 0, i64)), cst_i(l, 0, i64), len);
	len = emit1(l, "arith.index_cast", 1, &len, ty_index(l->c));
	if (bt->dims[0] != DYN)
		emit_assert(l, cmpi(l, "eq", len, cst_idx(l, bt->dims[0])),
			"arange: the range and the result length do not agree");
	out = emit1(l, "tensor.empty", bt->dims[0] == DYN, &len, bt);
	m = map_id(l, 1);
	gen_begin(l, &g, 0, NULL, 1, &out, &m, 1, NULL);
	Value *i = from_index(l, lindex(l, 0), i64);
	Value *y = bin(l, "arith.addi", bin(l, "arith.muli", i, cst_i(l, step, i64)), start);
	y = cv(l, y, dt_i64(l->c), rt);
	set(l, RES(op, 0), gen_end(l, &g, 1, &y));
	return 0;
}

static const Row dyn_rows[] = {
	{"torch.aten.unsqueeze", lower_unit_dim_dyn, NULL},
	{"torch.aten.squeeze.dim", lower_unit_dim_dyn, NULL},
	{"torch.aten.select.int", lower_select_dyn, NULL},
	{"torch.aten.arange.start_step", lower_arange_dyn, NULL},
	{NULL, NULL, NULL},
};

const Row *
lower_dynamic_row(const char *name)
{
	const Row *r;

	/* a view: torch-mlir's general one, tensor.reshape to sizes
	 * computed at run time */
	if ((r = row_find(dyn_rows, name)) || (r = pass_view_fallback(name)))
		return r;
	/* expand is broadcast_to (decompose-complex-ops makes it so) */
	return lower_pass_row(strcmp(name, "torch.aten.expand") ? name : "torch.aten.broadcast_to");
}
