/*
 * pass.c - convert-torch-to-linalg: torch-lower's lowerings as a torch-opt
 * pass, in torch-mlir's partial form.
 *
 * Unlike the torch-lower tool, the pass keeps the function's signature and
 * every op it cannot lower in torch types.  Each op with a lowering row
 * whose scalars are constants is lowered where it stands: its torch tensor
 * operands enter builtin IR through torch_c.to_builtin_tensor (one per
 * value and block), chains of lowered ops use each other's builtin values,
 * each result is tensor.cast to its torch type's builtin form where
 * torch-mlir's pattern casts, and a result that an op left in torch types
 * still uses leaves through torch_c.from_builtin_tensor.  A lowering that
 * refuses the op leaves it as it was, its partial output erased and its
 * errors unreported.  torch.constant.*, lists and literals stay.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower.h"
#include "pass.h"

static Type *scalar_bt(Ctx *c, Type *t, const char **sfx);

static void
quiet_hook(const Loc *loc, const char *kind, const char *msg)
{
}

/* Runs f(l, op, arg) with its diagnostics dropped; its result. */
static int
quietly(int (*f)(L *, Op *, const void *), L *l, Op *op, const void *arg)
{
	void (*saved)(const Loc *, const char *, const char *) = diag_hook;
	int errs = diag_errors, rc;

	diag_hook = quiet_hook;
	rc = f(l, op, arg);
	diag_hook = saved;
	diag_errors = errs;
	return rc;
}

static int
check_constants_fn(L *l, Op *op, const void *arg)
{
	return check_constants(l, op);
}

/* Places a new torch_c.to_builtin_tensor of v as torch-mlir's conversion
 * does: right after v's definition, or for a block argument first in its
 * block (after the ones made there before). */
void
pass_place_after_def(Op *m, Value *v)
{
	Op *at;

	if (v->def) {
		op_insert_after(v->def, m);
		return;
	}
	for (at = v->block->first; at && op_is(at, "torch_c.to_builtin_tensor") &&
			!OPND(at, 0)->def; at = at->next)
		;
	if (at)
		op_insert_before(at, m);
	else
		op_append(v->block, m);
}

/* The builtin value of torch tensor v for a use in op, made with
 * torch_c.to_builtin_tensor when there is none: after v's definition when
 * that is in op's block (list is 0), else just before op; *made records
 * the op made (to undo). */
static int
materialize(L *l, Value *v, Op *op, int list, Op **made, int *nmade, int max)
{
	Value *have = get(l, v);
	Block *b = op->parent;
	Type *bt;
	Op *m;

	if (have && (!have->def || have->def->parent == b ||
			!op_is(have->def, "torch_c.to_builtin_tensor")))
		return 0;
	if (!(bt = btensor(l->c, v->type)) || *nmade >= max)
		return -1;
	m = op_new(l->c, "torch_c.to_builtin_tensor", 1, &v, 1, &bt, 0, op->loc);
	if (!list && (v->def ? v->def->parent : v->block) == b)
		pass_place_after_def(m, v);
	else
		op_insert_before(op, m);
	set(l, v, RES(m, 0));
	made[(*nmade)++] = m;
	return 0;
}

/* Every torch tensor the op reads: its operands and their list elements.
 * The operands go last first: torch-mlir inserts each one of an op's
 * block arguments at the block's start, before the op's earlier ones. */
static int
materialize_operands(L *l, Op *op, Op **made, int *nmade, int max)
{
	int i, k;

	for (i = op->nopnds - 1; i >= 0; i--) {
		Value *v = OPND(op, i);
		Op *d = v->def;
		if (ty_istorchtensor(v->type)) {
			if (materialize(l, v, op, 0, made, nmade, max))
				return -1;
		} else if (d && op_is(d, "torch.prim.ListConstruct")) {
			/* a pattern converts list elements itself, at the op */
			for (k = 0; k < d->nopnds; k++)
				if (ty_istorchtensor(OPND(d, k)->type) &&
						materialize(l, OPND(d, k), op, 1, made, nmade, max))
					return -1;
		}
	}
	return 0;
}

static int
convertible_results(L *l, Op *op)
{
	const char *sfx;
	int i;

	for (i = 0; i < op->nres; i++)
		if (!(op->res[i].type->kind == TY_TORCH_NONE && value_use_empty(RES(op, i))) &&
				!btensor(l->c, op->res[i].type) &&
				!scalar_bt(l->c, op->res[i].type, &sfx))
			return 0;
	return 1;
}

/* The ops whose torch-mlir pattern makes the result's type itself, with
 * no tensor.cast after it. */
static int
uncast(const char *name)
{
	static const char *const ops[] = {
		"torch.aten.unsqueeze", "torch.aten.squeeze", "torch.aten.squeeze.dim",
		"torch.aten.cat", "torch.prim.NumToTensor.Scalar", "torch.aten.view",
		"torch.quantized_decomposed.quantize_per_channel",
		"torch.quantized_decomposed.dequantize_per_channel",
		"torch.aten.convolution_backward", NULL,
	};
	int i;

	for (i = 0; ops[i]; i++)
		if (!strcmp(ops[i], name))
			return 1;
	return 0;
}

/* Is b the builtin value of one of op's operands (a no-op lowering)? */
static int
is_operand_value(L *l, Op *op, Value *b)
{
	int i;

	for (i = 0; i < op->nopnds; i++)
		if (get(l, OPND(op, i)) == b)
			return 1;
	return 0;
}

/* A static tensor.expand_shape gets newer MLIR's output_shape, as
 * torch-mlir prints it. */
static void
mark_output_shape(Ctx *c, Op *o)
{
	Type *t = o->nres ? o->res[0].type : NULL;
	int i;

	if (!op_is(o, "tensor.expand_shape") || !t || !t->ranked)
		return;
	for (i = 0; i < t->rank; i++)
		if (t->dims[i] == DYN)
			return;
	op_set_attr(c, o, "static_output_shape", at_dense_array(c,
		ty_int(c, 64, SIGNLESS), t->rank, t->dims));
}

/* ---- ops torch-opt's pipeline decomposes before torch-lower sees them,
 * lowered here as torch-mlir's TorchToLinalg does ---- */

/* flatten.using_ints of a static tensor: one collapse_shape (an
 * expand_shape for rank 0, nothing for rank 1); the result's type may be
 * less static, the tensor.cast after it makes it */
static int
lower_flatten(L *l, Op *op, const void *arg)
{
	Type *st = OPND(op, 0)->type, *rt = op->res[0].type, *bt;
	int64_t dims[TY_MAXRANK], s, e;
	int i, n = 0;

	if (!st->ranked || !ty_static(st) || !rt->ranked || !st->elem)
		return -1;
	s = tv_ival(OPND(op, 1));
	e = tv_ival(OPND(op, 2));
	if (st->rank == 0) {
		if (s < -1 || s > 0 || e < -1 || e > 0)
			return -1;
		dims[n++] = 1;
	} else {
		if ((s = tt_dim(s, st->rank)) < 0 || (e = tt_dim(e, st->rank)) < 0 || s > e)
			return -1;
		for (i = 0; i < st->rank; i++) {
			if (i > s && i <= e)
				dims[n - 1] *= st->dims[i];
			else
				dims[n++] = st->dims[i];
		}
	}
	if (n != rt->rank)
		return -1;
	for (i = 0; i < n; i++)
		if (rt->dims[i] != DYN && rt->dims[i] != dims[i])
			return -1;
	bt = tensor_of(l->c, n, dims, st->elem);
	Value *v = reshape_to(l, get(l, OPND(op, 0)), bt);
	if (!v)
		return -1;
	set(l, RES(op, 0), v);
	return 0;
}

/* The builtin type of a torch scalar type (int i64, float f64, bool i1)
 * and the torch_c op suffix that converts it; NULL if not a scalar. */
static Type *
scalar_bt(Ctx *c, Type *t, const char **sfx)
{
	return t->kind == TY_TORCH_VTENSOR ? NULL : torch_c_type(c, t, sfx);
}

/* The builtin value of torch scalar v: torch_c.to_i64 (to_f64, to_i1) */
static Value *
scalar_of(L *l, Value *v)
{
	char name[32];
	const char *sfx;
	Type *bt = scalar_bt(l->c, v->type, &sfx);

	if (!bt)
		return NULL;
	snprintf(name, sizeof name, "torch_c.to_%s", sfx);
	return emit1(l, name, 1, &v, bt);
}

/* Int.Tensor, Float.Tensor, Bool.Tensor: the one element of a tensor
 * (each dim asserted to be 1 where it is not known to be), as PyTorch's
 * int(), float() and bool() convert it */
static int
lower_item(L *l, Op *op, const void *arg)
{
	Value *x = OPND(op, 0), *t = get(l, x), *idx[TY_MAXRANK + 1], *one, *e;
	Type *xt = x->type, *d = xt->elem, *to, *rt;
	const char *sfx;
	int i;

	rt = scalar_bt(l->c, op->res[0].type, &sfx);
	if (!rt || !xt->ranked || !d || xt->rank > TY_MAXRANK)
		return -1;
	to = op->res[0].type->kind == TY_TORCH_INT ? ty_int(l->c, 64, SIGNED) :
		op->res[0].type->kind == TY_TORCH_FLOAT ? ty_float(l->c, TY_F64) : d;
	/* int() of a float truncates and bool() of a number tests it in
	 * PyTorch; torch-mlir's pattern only extends or truncates: keep to
	 * the dtypes whose conversion is exact the same way */
	if ((op->res[0].type->kind == TY_TORCH_INT && !(d->kind == TY_INT && !dt_isbool(d))) ||
			(op->res[0].type->kind == TY_TORCH_FLOAT && !dt_isfloat(d)) ||
			(op->res[0].type->kind == TY_TORCH_BOOL && !dt_isbool(d)))
		return -1;
	for (i = 0; i < xt->rank; i++)
		if (xt->dims[i] != DYN && xt->dims[i] != 1)
			return -1;
	if (xt->rank) {
		Value *dims[TY_MAXRANK];
		for (i = 0; i < xt->rank; i++) {
			Value *o[2] = { t, cst_idx(l, i) };
			dims[i] = emit1(l, "tensor.dim", 2, o, ty_index(l->c));
		}
		one = cst_i(l, 1, ty_int(l->c, 64, SIGNLESS));
		for (i = 0; i < xt->rank; i++) {
			Value *n = emit1(l, "arith.index_cast", 1, &dims[i],
				ty_int(l->c, 64, SIGNLESS));
			Op *a = emit(l, "cf.assert", 1, (Value *[]){ cmpi(l, "eq", n, one) }, 0, NULL);
			op_set_attr(l->c, a, "msg", at_str(l->c, "mismatching contracting dimension"));
		}
		Value *zero = cst_idx(l, 0);
		for (i = 0; i < xt->rank; i++)
			idx[i + 1] = zero;
	} else if (op->res[0].type->kind == TY_TORCH_INT) {
		cst_i(l, 1, ty_int(l->c, 64, SIGNLESS));
		cst_idx(l, 0);
	}
	idx[0] = t;
	e = emit1(l, "tensor.extract", xt->rank + 1, idx, belem(l->c, d));
	set(l, RES(op, 0), cv(l, e, d, to));
	return 0;
}

/* prim.NumToTensor.Scalar: a rank-0 tensor filled with the scalar */
static int
lower_num_to_tensor(L *l, Op *op, const void *arg)
{
	Type *bt = btensor(l->c, op->res[0].type), *d = op->res[0].type->elem;
	Value *x = OPND(op, 0), *s;

	if (!bt || bt->rank != 0 || !(s = scalar_of(l, x)))
		return -1;
	/* only the dtype the scalar already has: i64 for an int, f64 for a
	 * float, i1 for a bool */
	if (s->type != belem(l->c, d) ||
			(x->type->kind == TY_TORCH_INT && (d->kind != TY_INT || d->sign != SIGNED)))
		return -1;
	Value *out = filled(l, bt, s);
	if (!out)
		return -1;
	set(l, RES(op, 0), out);
	return 0;
}

/* view: torch-lower's static reshape, and as torch-mlir's, a view to
 * rank 0 of any shape (a collapse_shape of no groups, after a cast of
 * unknown dims to 1: numel is 1 in a valid program) and of rank 0 to
 * all-1 dims */
static int
lower_view_any(L *l, Op *op, const void *arg)
{
	Type *st = OPND(op, 0)->type, *bt = btensor(l->c, op->res[0].type);
	int i;

	if (!bt || !st->ranked || !st->elem || pass_view_legacy_disabled(op))
		return -1;
	if (bt->rank == 0 || st->rank == 0) {
		Value *x = get(l, OPND(op, 0));
		for (i = 0; i < bt->rank; i++)
			if (bt->dims[i] != 1)
				return -1;
		/* unknown dims are cast to 1 first: MLIR 16 collapses only
		 * unit dims to rank 0 */
		if (bt->rank == 0 && !ty_static(x->type)) {
			int64_t ones[TY_MAXRANK];
			for (i = 0; i < st->rank; i++)
				ones[i] = 1;
			x = emit1(l, "tensor.cast", 1, &x, ty_tensor(l->c, st->rank, ones,
				x->type->elem));
		}
		set(l, RES(op, 0), expand_dims(l, x, bt, at_array(l->c, 0, NULL),
			bt->rank == 0));
		return 0;
	}
	return lower_view(l, op, arg);
}

/* permute: the identity is its operand, as torch-mlir's pattern gives */
static int
lower_permute_any(L *l, Op *op, const void *arg)
{
	int64_t perm[TY_MAXRANK];
	Type *st = OPND(op, 0)->type;
	int n = tv_ints(OPND(op, 1), perm, TY_MAXRANK), i;

	if (!st->ranked || n != st->rank || op->res[0].type != st)
		return lower_permute(l, op, arg);
	for (i = 0; i < n; i++)
		if (tt_dim(perm[i], n) != i)
			return lower_permute(l, op, arg);
	set(l, RES(op, 0), get(l, OPND(op, 0)));
	return 0;
}

/* squeeze.dim of a dim whose size is unknown: asserted to be 1 at run
 * time, then collapsed into its neighbour, as torch-mlir's; a static one
 * is torch-lower's */
static int
lower_squeeze_dim(L *l, Op *op, const void *arg)
{
	Type *st = OPND(op, 0)->type, *rt;
	int64_t d, dims[TY_MAXRANK];
	Attr *groups[TY_MAXRANK], *inner[TY_MAXRANK];
	int i, g, n, r;

	if (!st->ranked || !st->elem || st->rank < 2 ||
			(d = tt_dim(tv_ival(OPND(op, 1)), st->rank)) < 0 || st->dims[d] != DYN)
		return lower_view(l, op, arg);
	r = st->rank;
	Value *x = get(l, OPND(op, 0)), *o[2] = { x, cst_idx(l, d) };
	Value *size = emit1(l, "tensor.dim", 2, o, ty_index(l->c));
	Op *a = emit(l, "cf.assert", 1, (Value *[]){ cmpi(l, "eq", size, cst_idx(l, 1)) },
		0, NULL);
	op_set_attr(l->c, a, "msg",
		at_str(l->c, "Expected dynamic squeeze dim size to be statically 1"));
	/* dim d joins the next group (the previous one when it is last);
	 * a group with an unknown size is unknown */
	for (i = 0, g = 0; i < r; g++) {
		int last = i;
		if (i == d && d < r - 1)
			last = i + 1;
		if (last + 1 == d && d == r - 1)
			last = d;
		dims[g] = 1;
		for (n = 0; i <= last; i++) {
			inner[n++] = at_int(l->c, i, NULL);
			dims[g] = st->dims[i] == DYN || dims[g] == DYN ? DYN : dims[g] * st->dims[i];
		}
		groups[g] = at_array(l->c, n, inner);
	}
	rt = tensor_of(l->c, g, dims, st->elem);
	set(l, RES(op, 0), expand_dims(l, x, rt, at_array(l->c, g, groups), 1));
	return 0;
}

/* a row's arg: its lowering reads scalars that are not constants */
static const char any_scalars[] = "any scalars";

static const Row pass_rows[] = {
	{"torch.aten.view", lower_view_any, NULL},
	{"torch.aten.permute", lower_permute_any, NULL},
	{"torch.aten.squeeze.dim", lower_squeeze_dim, NULL},
	{"torch.aten.matmul", pass_mm_lower, NULL},
	{"torch.aten.mm", pass_mm_lower, NULL},
	{"torch.aten.bmm", pass_mm_lower, NULL},
	{"torch.aten.neg", pass_mm_neg, NULL},
	{"torch.aten.max", pass_mm_bool_minmax, NULL},
	{"torch.aten.min", pass_mm_bool_minmax, NULL},
	{"torch.tensor_static_info_cast", pass_mm_static_cast, NULL},
	{"torch.aten.flatten.using_ints", lower_flatten, NULL},
	{"torch.aten.Int.Tensor", lower_item, NULL},
	{"torch.aten.Float.Tensor", lower_item, NULL},
	{"torch.aten.Bool.Tensor", lower_item, NULL},
	{"torch.prim.NumToTensor.Scalar", lower_num_to_tensor, any_scalars},
	{"torch.aten.max_pool1d", lower_pass_maxpool, "1"},
	{"torch.aten.max_pool2d", lower_pass_maxpool, "2"},
	{"torch.aten.avg_pool1d", lower_pass_avgpool, "1"},
	{"torch.aten.avg_pool2d", lower_pass_avgpool, "2"},
	{"torch.aten.avg_pool3d", lower_pass_avgpool, "3"},
	{"torch.aten.embedding_bag.padding_idx", lower_pass_embedding_bag, NULL},
	{"torch.quantized_decomposed.quantize_per_tensor", pass_quant_lower, any_scalars},
	{"torch.quantized_decomposed.dequantize_per_tensor", pass_quant_lower, any_scalars},
	{"torch.quantized_decomposed.quantize_per_channel", pass_quant_lower, any_scalars},
	{"torch.quantized_decomposed.dequantize_per_channel", pass_quant_lower, any_scalars},
	{NULL, NULL, NULL},
};

static int
reads_any_scalars(const Row *r)
{
	return r >= pass_rows && r < pass_rows + sizeof pass_rows / sizeof *pass_rows &&
		r->arg == any_scalars;
}

const Row *
lower_pass_row(const char *name)
{
	const Row *r;

	if ((r = row_find(pass_rows, name)) || (r = pass_view_lookup(name)) ||
			(r = pass_conv_lookup(name)) || (r = pass_basic_lookup(name)) ||
			(r = pass_concat_lookup(name)) || (r = pass_bwd_lookup(name)))
		return r;
	return lower_lookup(name);
}

/* An op whose types no lowering takes, in torch-mlir's either: a tensor
 * operand or result without a rank or dtype, or mm/bmm of the wrong
 * rank. */
static int
never_lowers(Op *op)
{
	int i, r = op_is(op, "torch.aten.mm") ? 2 : op_is(op, "torch.aten.bmm") ? 3 : 0;

	for (i = 0; i < op->nopnds + op->nres; i++) {
		Type *t = i < op->nopnds ? OPND(op, i)->type : op->res[i - op->nopnds].type;
		if (!ty_istorchtensor(t))
			continue;
		if (!t->ranked || !t->elem)
			return 1;
		if (r && i < 2 && t->rank != r)
			return 1;
	}
	return 0;
}

/* Lowers op in place; 1 when lowered, 0 when left as it was, -1 after
 * an error. */
static int
convert_op_row(L *l, Op *op, const Row *row)
{
	Op *first = op->prev, *o, *prev;
	int nmade = 0, i, ok;

	if (!row)
		return 0;
	if (never_lowers(op)) {
		/* torch-mlir marks the ops it has patterns for illegal: one no
		 * pattern can take fails the conversion */
		op_error(op, "failed to legalize operation '%s' that was explicitly "
			"marked illegal", op->name);
		return -1;
	}
	if (!convertible_results(l, op))
		return 0;
	l->op = op;
	l->before = op;
	l->blk = NULL;
	if (!reads_any_scalars(row) && !pass_view_reads_scalars(row) &&
			!pass_conv_reads_scalars(row) && !pass_basic_reads_scalars(row) &&
			quietly(check_constants_fn, l, op, NULL))
		return 0;
	Op *made[op->nopnds * 8 + 64];
	ok = !materialize_operands(l, op, made, &nmade, (int)(sizeof made / sizeof *made));
	ok = ok && !quietly(row->fn, l, op, row->arg);
	for (i = 0; ok && i < op->nres; i++)
		ok = get(l, RES(op, i)) != NULL || op->res[i].type->kind == TY_TORCH_NONE;
	if (!ok) {
		/* undo: what the lowering emitted, users first, then the
		 * operands it made (some may lie in that range too) */
		for (o = op->prev; o != first; o = prev) {
			prev = o->prev;
			for (i = 0; i < nmade && made[i] != o; i++)
				;
			if (i == nmade)
				op_erase(o);
		}
		for (i = 0; i < nmade; i++) {
			set(l, OPND(made[i], 0), NULL);
			op_erase(made[i]);
		}
		for (i = 0; i < op->nres; i++)
			set(l, RES(op, i), NULL);
		return 0;
	}
	for (o = first ? first->next : op->parent->first; o != op; o = o->next)
		mark_output_shape(l->c, o);
	/* as torch-mlir's patterns, each result through a tensor.cast to the
	 * result's type, one to its own type included (canonicalize folds) */
	for (i = 0; i < op->nres; i++) {
		Value *b = get(l, RES(op, i));
		Type *bt = btensor(l->c, op->res[i].type);
		if (!bt || (b->type == bt && (uncast(op->name) || pass_view_uncast(op) ||
				is_operand_value(l, op, b))))
			continue;
		set(l, RES(op, i), emit1(l, "tensor.cast", 1, &b, bt));
	}
	return 1;
}

/* the op's row, then where it refuses, a fallback row (pass_view.c) */
static int
convert_op(L *l, Op *op)
{
	const Row *fb;
	int rc = convert_op_row(l, op, lower_pass_row(op->name));

	if (rc == 0 && (fb = pass_view_fallback(op->name)))
		rc = convert_op_row(l, op, fb);
	return rc;
}

static int
convert_func(Ctx *c, Op *fn, int finite)
{
	L l = {0};
	Block *b;
	Op *op, *next, **done = NULL;
	size_t n = 0, cap = 0, i;
	int k, rc = 0;

	l.c = c;
	l.op = fn;
	l.finite = finite;
	l.pass = 1;
	if (!fn->nregs)
		return 0;
	for (b = fn->regs[0].first; b; b = b->next)
		for (op = b->first; op && !rc; op = next) {
			next = op->next;
			if ((k = convert_op(&l, op)) <= 0) {
				rc = k;
				continue;
			}
			if (n == cap)
				done = xrealloc(done, sizeof *done * (cap = cap ? 2 * cap : 32));
			done[n++] = op;
		}
	/* the lowered torch ops go, users first; what still reads their
	 * torch results gets them back through from_builtin_tensor */
	for (i = n; i-- > 0;) {
		op = done[i];
		l.op = op;
		l.before = op;
		l.blk = NULL;
		for (k = 0; k < op->nres; k++) {
			Value *r = RES(op, k), *bv = get(&l, r);
			const char *sfx;
			char name[32] = "torch_c.from_builtin_tensor";
			if (value_use_empty(r))
				continue;
			if (scalar_bt(c, r->type, &sfx))
				snprintf(name, sizeof name, "torch_c.from_%s", sfx);
			if (op->nres > 1 && bv->def && bv->def->parent == op->parent) {
				/* torch-mlir's: right after the result's own op */
				Op *m = op_new(c, name, 1, &bv, 1, &r->type, 0, op->loc);
				op_insert_after(bv->def, m);
				value_replace_all_uses(r, RES(m, 0));
				continue;
			}
			value_replace_all_uses(r, emit1(&l, name, 1, &bv, r->type));
		}
		op_erase(op);
	}
	free(done);
	pmap_free(&l.vmap);
	pmap_free(&l.ttype);
	return rc;
}

static int
run(Ctx *c, Op *fn, PassArgs *a)
{
	const char *nf = pass_opt(a, "allow-non-finites", "true");

	if (strcmp(nf, "true") && strcmp(nf, "false") && strcmp(nf, "1") &&
			strcmp(nf, "0")) {
		fprintf(stderr, "<Pass-Options-Parser>: for the --allow-non-finites option: "
			"'%s' is invalid value for boolean argument! Try 0 or 1\n", nf);
		return -1;
	}
	if (convert_func(c, fn, !strcmp(nf, "false") || !strcmp(nf, "0")))
		return -1;
	a->changed = 1;
	return 0;
}

static const char *const options[] = {"allow-non-finites", NULL};

const PassInfo pass_convert_torch_to_linalg = {
	.name = "convert-torch-to-linalg",
	.summary = "lower the torch ops torch-lower can lower to linalg, in place "
		"(torch_c at the boundaries)",
	.anchor = "func.func",
	.options = options,
	.run = run,
};
