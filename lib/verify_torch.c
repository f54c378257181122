/*
 * verify_torch.c - the torch dialect's own rules beyond operand counts and
 * schemas: which casts are legal (the subtype relation of torch's types),
 * what a list may hold, what a literal may be, what a permutation may say.
 * Bound by name in verify_hooks (verify_ops.c).
 */
#include <string.h>

#include "torch/torch.h"
#include "verify.h"

const char *
type_text(const Type *t, Buf *b)
{
	b->n = 0;
	print_type(b, t);
	buf_putc(b, 0);
	return b->p;
}

/* A tensor type that says at least what super does about shape and dtype
 * (each known part equal), on the same side of value semantics. */
int
torch_tensor_refines(const Type *t, const Type *super)
{
	int i;

	if (t->kind != super->kind)
		return 0;
	if (super->elem && t->elem != super->elem)
		return 0;
	if (!super->ranked)
		return 1;
	if (!t->ranked || t->rank != super->rank)
		return 0;
	for (i = 0; i < t->rank; i++)
		if (super->dims[i] != DYN && t->dims[i] != super->dims[i])
			return 0;
	return 1;
}

/* Is every value of type t also one of super?  torch's subtyping: any
 * holds everything, optional<T> holds none and T, a union its members,
 * number ints and floats, a less refined tensor a more refined one;
 * containers hold the same elements (tuples elementwise). */
int
torch_subtype(const Type *t, const Type *super)
{
	int i;

	if (t == super || super->kind == TY_TORCH_ANY)
		return 1;
	switch (super->kind) {
	case TY_TORCH_OPTIONAL:
		return t->kind == TY_TORCH_NONE || torch_subtype(t, super->elem)
		    || (t->kind == TY_TORCH_OPTIONAL && torch_subtype(t->elem, super->elem));
	case TY_TORCH_UNION:
		for (i = 0; i < super->nsub; i++)
			if (torch_subtype(t, super->sub[i]))
				return 1;
		return 0;
	case TY_TORCH_NUMBER:
		return t->kind == TY_TORCH_INT || t->kind == TY_TORCH_FLOAT;
	case TY_TORCH_TENSOR: case TY_TORCH_VTENSOR:
		return torch_tensor_refines(t, super);
	case TY_TORCH_TUPLE:
		if (t->kind != TY_TORCH_TUPLE || t->nsub != super->nsub)
			return 0;
		for (i = 0; i < t->nsub; i++)
			if (!torch_subtype(t->sub[i], super->sub[i]))
				return 0;
		return 1;
	default:
		return 0;
	}
}

static int
cast_error(Op *op)
{
	Buf a = {0}, b = {0};

	op_error(op, "'%s' op operand type '%s' and result type '%s' are cast incompatible",
	    op->name, type_text(OPND(op, 0)->type, &a), type_text(RES(op, 0)->type, &b));
	buf_free(&a);
	buf_free(&b);
	return -1;
}

/* torch.derefine: the result may hold more than the operand. */
int
verify_derefine(Op *op)
{
	return torch_subtype(OPND(op, 0)->type, RES(op, 0)->type) ? 0 : cast_error(op);
}

/* torch.prim.unchecked_cast: the result holds less than the operand. */
int
verify_unchecked_cast(Op *op)
{
	return torch_subtype(RES(op, 0)->type, OPND(op, 0)->type) ? 0 : cast_error(op);
}

/* Shapes and dtypes that could describe one tensor: unknown parts agree
 * with anything (the kinds are the caller's to compare). */
int
torch_shapes_compatible(const Type *a, const Type *b)
{
	int i;

	if (a->elem && b->elem && a->elem != b->elem)
		return 0;
	if (!a->ranked || !b->ranked)
		return 1;
	if (a->rank != b->rank)
		return 0;
	for (i = 0; i < a->rank; i++)
		if (a->dims[i] != DYN && b->dims[i] != DYN && a->dims[i] != b->dims[i])
			return 0;
	return 1;
}

/* torch.tensor_static_info_cast: the same tensor, more or less known. */
int
verify_static_info_cast(Op *op)
{
	const Type *a = OPND(op, 0)->type, *b = RES(op, 0)->type;

	if (!tt_is(a) || !tt_is(b) || a->kind != b->kind || !torch_shapes_compatible(a, b))
		return cast_error(op);
	return 0;
}

/* torch.prim.ListConstruct: each element fits the list's element type. */
int
verify_list_construct(Op *op)
{
	const Type *l = RES(op, 0)->type;
	int i;

	if (l->kind != TY_TORCH_LIST) {
		op_error(op, "'%s' op result must be a !torch.list", op->name);
		return -1;
	}
	for (i = 0; i < op->nopnds; i++)
		if (!torch_subtype(OPND(op, i)->type, l->elem)) {
			op_error(op, "operand types should have the same type as the list contained type");
			return -1;
		}
	return 0;
}

/* torch.overwrite.tensor.contents: the value overwritten in is the
 * tensor's value-semantic twin, the very same shape and dtype. */
int
verify_overwrite(Op *op)
{
	const Type *v = OPND(op, 0)->type, *t = OPND(op, 1)->type;

	if (v->kind != TY_TORCH_VTENSOR || t->kind != TY_TORCH_TENSOR
	    || v->elem != t->elem || v->ranked != t->ranked
	    || (v->ranked && (v->rank != t->rank
	    || (v->rank && memcmp(v->dims, t->dims, sizeof *v->dims * (size_t)v->rank))))) {
		op_error(op, "'%s' op failed to verify that overwritten tensor type is corresponding !torch.tensor of value tensor type", op->name);
		return -1;
	}
	return 0;
}

/* A literal's builtin element type as a torch dtype: a signless integer
 * of a literal is torch's signed one (i64 holds an si64 tensor). */
static int
same_dtype(const Type *dt, const Type *elem)
{
	if (dt == elem)
		return 1;
	return ty_isint(dt) && ty_isint(elem) && dt->width == elem->width
	    && elem->sign == SIGNLESS && dt->sign == SIGNED;
}

/* torch.tensor.literal / torch.vtensor.literal: a tensor whose shape and
 * dtype, where given, are the literal's. */
int
verify_literal(Op *op)
{
	const Type *r = RES(op, 0)->type;
	Attr *v = op_attr(op, "value");
	const Type *lt = v && v->type && v->type->kind == TY_TENSOR ? v->type : NULL;
	Buf a = {0}, b = {0};
	int want = op_is(op, "torch.vtensor.literal") ? TY_TORCH_VTENSOR : TY_TORCH_TENSOR;

	if (r->kind == want && (!lt || ((!r->elem || same_dtype(r->elem, lt->elem))
	    && (!r->ranked || (lt->ranked && r->rank == lt->rank
	    && (r->rank == 0 || !memcmp(r->dims, lt->dims, sizeof *r->dims * (size_t)r->rank)))))))
		return 0;
	op_error(op, "'%s' op result #0 must be Multi-dimensional array modeling Torch's Tensor type, but got '%s' for a literal of type '%s'",
	    op->name, type_text(r, &a), lt ? type_text(lt, &b) : "?");
	buf_free(&a);
	buf_free(&b);
	return -1;
}

/* The permutation's constant dims against the ranks and static sizes of
 * input and result; each index once, negative ones from the end. */
static int
check_permutation(Op *op, const Type *in, const Type *out, const int64_t *perm, int n)
{
	int seen[TY_MAXRANK] = {0}, i;
	int64_t d;

	if (in->rank != out->rank) {
		op_error(op, "'%s' op expected input and output tensors to have same rank, but %d != %d",
		    op->name, in->rank, out->rank);
		return -1;
	}
	if (n != out->rank) {
		op_error(op, "'%s' op The permutation has %d elements, the output has rank %d",
		    op->name, n, out->rank);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if ((d = tt_dim(perm[i], in->rank)) < 0) {
			op_error(op, "'%s' op observed invalid index in permutation (%lld) for input tensor of rank %d.",
			    op->name, (long long)perm[i], in->rank);
			return -1;
		}
		if (seen[d]++) {
			op_error(op, "'%s' op has a duplicate dimension (%lld) in its permutation",
			    op->name, (long long)d);
			return -1;
		}
		if (in->dims[d] != DYN && out->dims[i] != DYN && in->dims[d] != out->dims[i]) {
			op_error(op, "'%s' op has a permutation which is not compatible with the input and output shapes. The input shape in dimension %lld is %lld, and the output shape in dimension %d is %lld : they should be the same with this permutation.",
			    op->name, (long long)d, (long long)in->dims[d], i, (long long)out->dims[i]);
			return -1;
		}
	}
	return 0;
}

/* torch.aten.permute: its schema, then, where the permutation is made of
 * constants and both tensors are ranked, the permutation itself. */
int
verify_permute(Op *op)
{
	const Type *in = OPND(op, 0)->type, *out = RES(op, 0)->type;
	int64_t perm[TY_MAXRANK];
	int n;

	if (verify_torch_op(op))
		return -1;
	if (tt_rank(in) < 0 || tt_rank(out) < 0
	    || (n = tv_ints(OPND(op, 1), perm, TY_MAXRANK)) < 0)
		return 0;
	return check_permutation(op, in, out, perm, n);
}

/* A function argument's torch.type_bound: a tensor type, on a tensor
 * argument (the bound a later pass may refine the argument to). */
int
verify_type_bounds(Op *func, const Type *ft)
{
	Attr *aa = op_attr(func, "arg_attrs"), *b;
	int i;

	for (i = 0; aa && aa->kind == AT_ARRAY && i < (int)aa->n && i < ft->nin; i++) {
		if (!(b = dict_get(aa->elts[i], "torch.type_bound")))
			continue;
		if (b->kind != AT_TYPE)
			op_error(func, "'torch.type_bound' must be TypeAttr");
		else if (!tt_is(b->type))
			op_error(func, "'torch.type_bound' must be of !torch.tensor/!torch.vtensor type");
		else if (!tt_is(ft->sub[i]))
			op_error(func, "'torch.type_bound' must be attached to an argument of !torch.tensor/!torch.vtensor type");
		else
			continue;
		return -1;
	}
	return 0;
}

/* Region i of op ends in a term whose operands from `from` on have the
 * types of op's results. */
static int
yields_results(Op *op, int i, const char *term, int from)
{
	Block *b = op->regs[i].first;
	Op *t = b ? block_terminator(b) : NULL;
	int j;

	if (!t || !op_is(t, term)) {
		op_error(op, "'%s' op region #%d must end in '%s'", op->name, i, term);
		return -1;
	}
	if (t->nopnds - from != op->nres) {
		op_error(t, "'%s' op yields %d values to the %d results of '%s'",
		    t->name, t->nopnds - from, op->nres, op->name);
		return -1;
	}
	for (j = 0; j < op->nres; j++)
		if (OPND(t, from + j)->type != RES(op, j)->type) {
			Buf a = {0}, c = {0};

			op_error(t, "'%s' op value #%d is '%s' but '%s' result #%d is '%s'",
			    t->name, j, type_text(OPND(t, from + j)->type, &a), op->name, j,
			    type_text(RES(op, j)->type, &c));
			buf_free(&a);
			buf_free(&c);
			return -1;
		}
	return 0;
}

/* torch.prim.If: both branches yield the results. */
int
verify_prim_if(Op *op)
{
	return yields_results(op, 0, "torch.prim.If.yield", 0)
	    || yields_results(op, 1, "torch.prim.If.yield", 0) ? -1 : 0;
}

/* torch.prim.Loop: the body takes the iteration number and the carried
 * values, and hands the carried values on; they are the results. */
int
verify_prim_loop(Op *op)
{
	Block *b = op->regs[0].first;
	int i, n = op->nopnds - 2;

	if (n < 0 || n != op->nres) {
		op_error(op, "'%s' op has %d initial values for %d results", op->name, n, op->nres);
		return -1;
	}
	if (!b || b->nargs != n + 1 || b->args[0]->type->kind != TY_TORCH_INT) {
		op_error(op, "'%s' op body must take the iteration number (!torch.int) and the %d carried values", op->name, n);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (OPND(op, i + 2)->type != RES(op, i)->type
		    || b->args[i + 1]->type != RES(op, i)->type) {
			op_error(op, "'%s' op carried value #%d has differing types", op->name, i);
			return -1;
		}
	return yields_results(op, 0, "torch.prim.Loop.condition", 1);
}

/* torch.shape.calculate, torch.dtype.calculate: the body yields the
 * results; the other region yields shapes or dtypes, one per result. */
int
verify_calculate(Op *op)
{
	int shape = strstr(op->name, "shape") != NULL;
	Op *t;

	if (yields_results(op, 0, shape ? "torch.shape.calculate.yield"
	    : "torch.dtype.calculate.yield", 0))
		return -1;
	t = op->regs[1].first ? block_terminator(op->regs[1].first) : NULL;
	if (!t || !op_is(t, shape ? "torch.shape.calculate.yield.shapes"
	    : "torch.dtype.calculate.yield.dtypes") || t->nopnds != op->nres) {
		op_error(op, "'%s' op region #1 must end in a yield of one %s per result",
		    op->name, shape ? "shape" : "dtype");
		return -1;
	}
	return 0;
}

/* torch_c.to_builtin_tensor and from_builtin_tensor: the builtin tensor is
 * the value tensor's shape with its dtype made signless (si64 -> i64). */
int
verify_torch_c_tensor(Op *op)
{
	int to = op_is(op, "torch_c.to_builtin_tensor");
	const Type *vt = to ? OPND(op, 0)->type : RES(op, 0)->type;
	const Type *bt = to ? RES(op, 0)->type : OPND(op, 0)->type;
	const Type *d = vt->elem;
	int i, ok = vt->kind == TY_TORCH_VTENSOR && bt->kind == TY_TENSOR && d &&
		vt->ranked && bt->ranked && vt->rank == bt->rank;

	for (i = 0; ok && i < vt->rank; i++)
		ok = vt->dims[i] == bt->dims[i];
	if (ok && d->kind == TY_INT)
		ok = bt->elem->kind == TY_INT && bt->elem->width == d->width &&
			bt->elem->sign == SIGNLESS;
	else if (ok)
		ok = bt->elem == d;
	if (!ok) {
		Buf a = {0}, b = {0};
		op_error(op, "'%s' op type mismatch between '%s' and '%s'", op->name,
			type_text(OPND(op, 0)->type, &a), type_text(RES(op, 0)->type, &b));
		buf_free(&a);
		buf_free(&b);
		return -1;
	}
	return 0;
}
