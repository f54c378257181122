/*
 * pass_mm.c - convert-torch-to-linalg's mm, bmm and matmul (of two
 * matrices or two batches of them) in torch-mlir's form: the named op
 * takes the operands in their own element type and accumulates in the
 * default accumulator type (f32 for f16/bf16/f32, f64, i32 for 8-bit and
 * i64 for wider integers; linalg's named op extends each operand to it,
 * signed), then one conversion to the result's dtype where that differs.
 * Sizes come from tensor.dim of the operands; unless the function assumes
 * strict symbolic shapes, mm asserts that the contracting dims agree.
 * The init's dims are static where an operand's type says, else those
 * sizes; the tensor.cast after the op gives the result's type.
 *
 * mm of ints of one width and mixed signedness is a generic that extends
 * each operand by its own signedness; mm of two unsigned ints is the named
 * op with cast_unsigned (codegen refuses it rather than extend signed).
 * bmm of two dtypes converts the one operand to the result's dtype first
 * where that is exact.  Bool, 4-bit ints and other mixed dtypes are left
 * to torch-lower's lowering (lower_mm: both operands converted to the
 * accumulator first).
 *
 * matmul with a 1-D operand is linalg.dot, vecmat or matvec; of two
 * operands of one rank above 3 whose batch dims need no broadcast, a
 * batch_matmul of the collapsed batch dims or a generic (tm_batch).
 */
#include <string.h>

#include "lower.h"

/* torch-mlir's default accumulator for operand dtype d (widened to the
 * result's int dtype r where that is wider, so no bit of the result is
 * lost); NULL where this file does not lower */
static Type *
acc_of(Ctx *c, Type *d, Type *r)
{
	Type *acc;

	if (dt_isfloat(d))
		return d->kind == TY_F64 ? dt_f64(c) : dt_f32(c);
	if (d->kind != TY_INT || d->width < 8)
		return NULL;   /* bool, 4-bit: lower_mm */
	acc = ty_int(c, d->width == 8 ? 32 : 64, d->sign);
	if (r && r->kind == TY_INT && r->width > acc->width)
		acc = ty_int(c, r->width, d->sign);
	return acc;
}

/* mm of 8..64-bit ints of one width and different signedness: a generic
 * that extends each operand by its own dtype (the named op extends both
 * alike) */
static Value *
mixed_mm(L *l, Value *a, Value *b, Value *out, Type *da, Type *db, Type *acc)
{
	Gen g;
	AffMap *maps[3];
	Value *ins[2] = { a, b }, *x, *y, *s;

	maps[0] = map_sel(l, 3, 2, (const int[]){ 0, 2 });
	maps[1] = map_sel(l, 3, 2, (const int[]){ 2, 1 });
	maps[2] = map_sel(l, 3, 2, (const int[]){ 0, 1 });
	gen_begin(l, &g, 2, ins, 1, &out, maps, 3, "ppr");
	x = cv(l, g.arg[0], da, acc);
	y = cv(l, g.arg[1], db, acc);
	s = bin(l, "arith.addi", g.arg[2], bin(l, "arith.muli", x, y));
	return gen_end(l, &g, 1, &s);
}

/* Is every value of dtype d exactly one of float dtype f? */
static int
widens_exactly(Type *d, Type *f)
{
	int p = f->kind == TY_F64 ? 53 : f->kind == TY_F32 ? 24 : f->kind == TY_F16 ? 11 :
		f->kind == TY_BF16 ? 8 : 0;

	if (!p)
		return 0;
	if (dt_isfloat(d))
		return ty_bitwidth(d) < ty_bitwidth(f) && !(d->kind == TY_F16 && f->kind == TY_BF16);
	return d->kind == TY_INT && !dt_isbool(d) && d->width <= p;
}

static int
assumes_strict_shapes(Op *op)
{
	Op *p;

	for (p = block_parent_op(op->parent); p; p = p->parent ? block_parent_op(p->parent) : NULL)
		if (op_is(p, "func.func"))
			return op_attr(p, "torch.assume_strict_symbolic_shapes") != NULL;
	return 0;
}

static Value *
dim_of(L *l, Value *t, int i)
{
	Value *o[2] = { t, cst_idx(l, i) };

	return emit1(l, "tensor.dim", 2, o, ty_index(l->c));
}

static int
tm_mm(L *l, Op *op, int r)
{
	Ctx *c = l->c;
	Type *da = dtype_of(l, OPND(op, 0)), *db = dtype_of(l, OPND(op, 1));
	Type *rt = op->res[0].type->elem, *acc;
	Value *a = get(l, OPND(op, 0)), *b = get(l, OPND(op, 1));
	Value *sz[3], *v[3], *out;
	int64_t dims[3], seg[2] = { 2, 1 };
	char msg[96];
	Op *mm;
	int i, n, mixed, uns;

	/* bmm of two dtypes: torch-mlir converts the operand whose dtype is
	 * not the result's to it first; taken where that is exact (then
	 * the same as converting both to the accumulator) */
	if (r == 3 && da && db && rt && da != db) {
		if (db == rt && widens_exactly(da, rt)) {
			a = convert_tensor(l, a, da, rt);
			da = rt;
		} else if (da == rt && widens_exactly(db, rt)) {
			b = convert_tensor(l, b, db, rt);
			db = rt;
		}
	}
	if (!da || !db || !rt || !(acc = acc_of(c, da, rt)))
		return lower_mm(l, op, r == 2 ? "linalg.matmul" : "linalg.batch_matmul");
	uns = da == db && r == 2 && da->kind == TY_INT && da->sign == UNSIGNED;
	mixed = da != db && r == 2 && da->kind == TY_INT && db->kind == TY_INT &&
		da->width == db->width && (da->sign == UNSIGNED) != (db->sign == UNSIGNED);
	if ((da != db && !mixed) || (!mixed && !uns && da->kind == TY_INT && da->sign == UNSIGNED))
		return lower_mm(l, op, r == 2 ? "linalg.matmul" : "linalg.batch_matmul");
	if (mixed)
		acc = ty_int(c, acc->width, SIGNED);
	if (a->type->rank != r || b->type->rank != r)
		return -1;
	if (r == 3)
		sz[0] = dim_of(l, a, 0);
	sz[r - 2] = dim_of(l, a, r - 2);
	sz[r - 1] = dim_of(l, b, r - 1);
	if (l->dyn || !assumes_strict_shapes(op)) {   /* torch-lower: always */
		Value *k1 = dim_of(l, a, r - 1), *k2 = dim_of(l, b, r - 2);
		Op *as = emit(l, "cf.assert", 1, (Value *[]){ cmpi(l, "eq", k1, k2) }, 0, NULL);
		snprintf(msg, sizeof msg, "mismatching contracting dimension for %s", op->name);
		op_set_attr(c, as, "msg", at_str(c, msg));
	}
	/* a dim either operand's type knows is static in the init */
	for (i = n = 0; i < r; i++) {
		Type *from = i == r - 1 ? b->type : a->type;
		dims[i] = from->dims[i];
		if (i == 0 && r == 3 && dims[0] == DYN)
			dims[0] = b->type->dims[0];
		if (dims[i] == DYN)
			sz[n++] = sz[i];
	}
	out = emit1(l, "tensor.empty", n, sz, tensor_of(c, r, dims, acc));
	out = fill(l, cst_d(l, 0, acc), out);
	if (!out)
		return -1;
	if (mixed) {
		set(l, RES(op, 0), convert_tensor(l, mixed_mm(l, a, b, out, da, db, acc), acc, rt));
		return 0;
	}
	v[0] = a;
	v[1] = b;
	v[2] = out;
	mm = emit(l, r == 2 ? "linalg.matmul" : "linalg.batch_matmul", 3, v, 1, &out->type);
	op_set_attr(c, mm, "operand_segment_sizes",
		at_dense_array(c, ty_int(c, 32, SIGNLESS), 2, seg));
	if (uns)
		op_set_attr(c, mm, "cast", at_opaque(c, "#linalg.type_fn<cast_unsigned>"));
	set(l, RES(op, 0), acc == rt ? RES(mm, 0) : convert_tensor(l, RES(mm, 0), acc, rt));
	return 0;
}

/* the size of dim i of t: a constant where its type knows it (as
 * torch-mlir's folded tensor.dim), else tensor.dim */
static Value *
size_of(L *l, Value *t, int i)
{
	return t->type->dims[i] != DYN ? cst_idx(l, t->type->dims[i]) : dim_of(l, t, i);
}

/* cf.assert that index sizes a and b agree */
static void
assert_same(L *l, Value *a, Value *b, const char *msg)
{
	Type *i64 = ty_int(l->c, 64, SIGNLESS);
	Value *x = emit1(l, "arith.index_cast", 1, &a, i64);
	Value *y = emit1(l, "arith.index_cast", 1, &b, i64);
	Op *as = emit(l, "cf.assert", 1, (Value *[]){ cmpi(l, "eq", x, y) }, 0, NULL);

	op_set_attr(l->c, as, "msg", at_str(l->c, msg));
}

/* a zero-filled tensor of dtype acc with sizes sz (static where the
 * size is a constant index) */
static Value *
zeros(L *l, int n, Value *const *sz, Type *acc)
{
	int64_t dims[TY_MAXRANK];
	Value *dyn[TY_MAXRANK];
	int i, k = 0;

	for (i = 0; i < n; i++) {
		Attr *c = sz[i]->def && op_is(sz[i]->def, "arith.constant") ?
			op_attr(sz[i]->def, "value") : NULL;
		dims[i] = c ? c->i : DYN;
		if (dims[i] == DYN)
			dyn[k++] = sz[i];
	}
	Value *out = emit1(l, "tensor.empty", k, dyn, tensor_of(l->c, n, dims, acc));
	return fill(l, cst_d(l, 0, acc), out);
}

/* the named op name of a, b into out (of out's type) */
static Value *
named(L *l, const char *name, Value *a, Value *b, Value *out)
{
	Value *v[3] = { a, b, out };
	int64_t seg[2] = { 2, 1 };
	Op *mm = emit(l, name, 3, v, 1, &out->type);

	op_set_attr(l->c, mm, "operand_segment_sizes",
		at_dense_array(l->c, ty_int(l->c, 32, SIGNLESS), 2, seg));
	return RES(mm, 0);
}

/* the dtypes matmul's named-op forms take: one dtype, float or 8..64-bit
 * signed int (the named ops extend signed); its accumulator, or NULL */
static Type *
named_acc(L *l, Op *op)
{
	Type *da = dtype_of(l, OPND(op, 0)), *db = dtype_of(l, OPND(op, 1));
	Type *rt = op->res[0].type->elem;

	if (!da || da != db || !rt || (da->kind == TY_INT && da->sign == UNSIGNED))
		return NULL;
	return acc_of(l->c, da, rt);
}

/* matmul with a 1-D operand: linalg.dot (1-D by 1-D), linalg.vecmat
 * (1-D by 2-D), linalg.matvec (2-D by 1-D), accumulating in acc */
static int
tm_vec(L *l, Op *op, Type *acc)
{
	Value *a = get(l, OPND(op, 0)), *b = get(l, OPND(op, 1)), *sz[1], *out;
	Type *rt = op->res[0].type->elem;
	int ra = a->type->rank, rb = b->type->rank;
	const char *name = ra == 1 ? (rb == 1 ? "linalg.dot" : "linalg.vecmat") : "linalg.matvec";
	Type *bt = btensor(l->c, op->res[0].type);

	if (!bt || bt->rank != ra + rb - 2)
		return -1;
	if (ra == 1 && rb == 1)
		assert_same(l, size_of(l, a, 0), size_of(l, b, 0), "mismatching contracting dimension");
	else if (ra == 1) {
		assert_same(l, size_of(l, a, 0), size_of(l, b, 0), "mismatching contracting dimension");
		sz[0] = size_of(l, b, 1);
	} else {
		sz[0] = size_of(l, a, 0);
		assert_same(l, size_of(l, a, 1), size_of(l, b, 0), "mismatching contracting dimension");
	}
	out = named(l, name, a, b, zeros(l, ra + rb - 2, sz, acc));
	set(l, RES(op, 0), acc == rt ? out : convert_tensor(l, out, acc, rt));
	return 0;
}

/* matmul of two operands of one rank r > 3 whose batch dims need no
 * broadcast: all static and equal (collapsed into one, a batch_matmul,
 * expanded back), or two or more unknown (asserted equal unless the
 * function assumes strict symbolic shapes; a generic over every dim,
 * floats only).  Any other batch shape is left. */
static int
tm_batch(L *l, Op *op, Type *acc)
{
	Value *a = get(l, OPND(op, 0)), *b = get(l, OPND(op, 1)), *sz[TY_MAXRANK], *out;
	Type *rt = op->res[0].type->elem, *ta = a->type, *tb = b->type;
	Type *bt = btensor(l->c, op->res[0].type);
	int r = ta->rank, br = r - 2, i, ndyn = 0;
	Attr *groups[3], *inner[TY_MAXRANK];
	int64_t cd[3];

	if (tb->rank != r || !bt || bt->rank != r)
		return -1;
	for (i = 0; i < br; i++) {
		if (ta->dims[i] != tb->dims[i])
			return -1;
		ndyn += ta->dims[i] == DYN;
	}
	if (ndyn == 1 || (ndyn && !dt_isfloat(acc)))
		return -1;
	for (i = 0; i < br; i++) {
		sz[i] = size_of(l, a, i);
		if (ta->dims[i] == DYN && (l->dyn || !assumes_strict_shapes(op)))
			assert_same(l, sz[i], size_of(l, b, i), "mismatching batch dimension");
	}
	sz[br] = size_of(l, a, r - 2);
	sz[br + 1] = size_of(l, b, r - 1);
	assert_same(l, size_of(l, a, r - 1), size_of(l, b, r - 2),
		"mismatching contracting dimension");
	/* torch-mlir's broadcast of each operand to the batch shape: a cast */
	a = emit1(l, "tensor.cast", 1, &a, ta);
	b = emit1(l, "tensor.cast", 1, &b, tb);
	if (ndyn) {
		AffExpr *ea[TY_MAXRANK], *eb[TY_MAXRANK], *eo[TY_MAXRANK];
		AffMap *maps[3];
		char it[TY_MAXRANK + 2];
		Value *ins[2] = { a, b }, *x, *y, *s;
		Gen g;
		for (i = 0; i < br; i++) {
			ea[i] = eb[i] = eo[i] = d_(l, i);
			it[i] = 'p';
		}
		ea[br] = eo[br] = d_(l, br);
		ea[br + 1] = eb[br] = d_(l, br + 1);
		eb[br + 1] = eo[br + 1] = d_(l, br + 2);
		memcpy(it + br, "prp", 4);
		maps[0] = map_of(l, r + 1, r, ea);
		maps[1] = map_of(l, r + 1, r, eb);
		maps[2] = map_of(l, r + 1, r, eo);
		out = zeros(l, r, sz, acc);
		gen_begin(l, &g, 2, ins, 1, &out, maps, r + 1, it);
		x = cv(l, g.arg[0], dtype_of(l, OPND(op, 0)), acc);
		y = cv(l, g.arg[1], dtype_of(l, OPND(op, 1)), acc);
		s = bin(l, "arith.addf", bin(l, "arith.mulf", x, y), g.arg[2]);
		out = gen_end(l, &g, 1, &s);
		set(l, RES(op, 0), acc == rt ? out : convert_tensor(l, out, acc, rt));
		return 0;
	}
	cd[0] = 1;
	for (i = 0; i < br; i++) {
		cd[0] *= ta->dims[i];
		inner[i] = at_int(l->c, i, NULL);
	}
	groups[0] = at_array(l->c, br, inner);
	groups[1] = at_array(l->c, 1, (Attr *[]){ at_int(l->c, br, NULL) });
	groups[2] = at_array(l->c, 1, (Attr *[]){ at_int(l->c, br + 1, NULL) });
	Attr *re = at_array(l->c, 3, groups);
	cd[1] = ta->dims[r - 2];
	cd[2] = ta->dims[r - 1];
	a = expand_dims(l, a, tensor_of(l->c, 3, cd, dtype_of(l, OPND(op, 0))), re, 1);
	cd[1] = tb->dims[r - 2];
	cd[2] = tb->dims[r - 1];
	b = expand_dims(l, b, tensor_of(l->c, 3, cd, dtype_of(l, OPND(op, 1))), re, 1);
	sz[0] = cst_idx(l, cd[0]);
	sz[1] = sz[br];
	sz[2] = sz[br + 1];
	out = named(l, "linalg.batch_matmul", a, b, zeros(l, 3, sz, acc));
	if (acc != rt)
		out = convert_tensor(l, out, acc, rt);
	/* the batch dims as the operands know them (a static group expands
	 * to static dims); the tensor.cast after it gives the result's type */
	int64_t ed[TY_MAXRANK];
	for (i = 0; i < br; i++)
		ed[i] = ta->dims[i];
	ed[br] = out->type->dims[1];
	ed[br + 1] = out->type->dims[2];
	set(l, RES(op, 0), expand_dims(l, out, tensor_of(l->c, r, ed, rt), re, 0));
	return 0;
}

/* torch.aten.mm (rank 2), torch.aten.bmm (rank 3), torch.aten.matmul of
 * two operands of rank 2 or two of rank 3 */
int
pass_mm_lower(L *l, Op *op, const void *arg)
{
	Type *a = OPND(op, 0)->type, *b = OPND(op, 1)->type, *acc;
	int r = op_is(op, "torch.aten.mm") ? 2 : op_is(op, "torch.aten.bmm") ? 3 : 0;

	if (!a->ranked || !b->ranked)
		return -1;
	if (!r && (a->rank == 1 || b->rank == 1) && a->rank <= 2 && b->rank <= 2)
		return (acc = named_acc(l, op)) ? tm_vec(l, op, acc) : -1;
	if (!r && a->rank > 3)
		return (acc = named_acc(l, op)) ? tm_batch(l, op, acc) : -1;
	if (a->rank != b->rank)
		return -1;
	if (!r && (a->rank == 2 || a->rank == 3))
		r = a->rank;
	if (!r || a->rank != r)
		return -1;
	return tm_mm(l, op, r);
}

/* ---- small ops whose torch-mlir form differs from torch-lower's ---- */

static int
by_table(L *l, Op *op, const void *arg)
{
	const Row *r = lower_lookup(op->name);

	return r ? r->fn(l, op, r->arg) : -1;
}

/* neg of a float: arith.negf in the tensor's own type (exact in any
 * precision), where torch-lower computes f16/bf16 in f32 */
int
pass_mm_neg(L *l, Op *op, const void *arg)
{
	Type *d = dtype_of(l, OPND(op, 0)), *bt = btensor(l->c, op->res[0].type);
	Value *x = get(l, OPND(op, 0)), *out, *y;
	AffMap *maps[2];
	Gen g;

	if (!d || !dt_isfloat(d) || !bt || d != op->res[0].type->elem ||
			x->type->rank != bt->rank)
		return by_table(l, op, arg);
	if (!(out = empty(l, x->type, x)))
		return -1;
	maps[0] = maps[1] = map_id(l, bt->rank);
	gen_begin(l, &g, 1, &x, 1, &out, maps, bt->rank, NULL);
	y = un(l, "arith.negf", g.arg[0]);
	set(l, RES(op, 0), gen_end(l, &g, 1, &y));
	return 0;
}

/* max/min of a whole bool tensor: or/and as maxui/minui(in, acc) from
 * false/true */
int
pass_mm_bool_minmax(L *l, Op *op, const void *arg)
{
	Type *d = dtype_of(l, OPND(op, 0));
	Value *x = get(l, OPND(op, 0)), *out, *y;
	int mx = op_is(op, "torch.aten.max"), r, i;
	AffMap *maps[2];
	char it[TY_MAXRANK + 1];
	Gen g;

	if (!d || d->kind != TY_INT || d->width != 1 || !x->type->ranked ||
			op->res[0].type->elem != d)
		return by_table(l, op, arg);
	r = x->type->rank;
	out = filled(l, tensor_of(l->c, 0, NULL, d), cst_i(l, !mx, ty_int(l->c, 1, SIGNLESS)));
	if (!out)
		return -1;
	for (i = 0; i < r; i++)
		it[i] = 'r';
	it[r] = 0;
	maps[0] = map_id(l, r);
	maps[1] = map_sel(l, r, 0, NULL);
	gen_begin(l, &g, 1, &x, 1, &out, maps, r, it);
	y = bin(l, mx ? "arith.maxui" : "arith.minui", g.arg[0], g.arg[1]);
	set(l, RES(op, 0), gen_end(l, &g, 1, &y));
	return 0;
}

/* tensor_static_info_cast between tensors of one dtype and rank: the
 * operand itself, which the pass's tensor.cast to the result's type
 * refines (checked where it runs) */
int
pass_mm_static_cast(L *l, Op *op, const void *arg)
{
	Type *a = OPND(op, 0)->type, *r = op->res[0].type;

	if (a->elem != r->elem || a->rank != r->rank)
		return -1;
	set(l, RES(op, 0), get(l, OPND(op, 0)));
	return 0;
}
