/*
 * check.c - the lowered module, checked before it is printed against the
 * rules mlir-opt-16 enforces on the ops the lowerings build and that
 * lib's verifier leaves out: element kinds of arith ops, matmul shapes,
 * reshape reassociations, transpose permutations, static slice bounds and
 * the loops of a linalg.generic that no operand gives an extent.
 * A failure is torch-lower's bug, reported at the op as an internal error
 * (exit 1, nothing printed), never invalid IR with exit 0.
 */
#include <stdint.h>
#include <string.h>

#include "lower.h"

static const char *const int_ops[] = {
	"arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui",
	"arith.remsi", "arith.remui", "arith.andi", "arith.ori", "arith.xori",
	"arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui", "arith.shli",
	"arith.shrsi", "arith.shrui", "arith.floordivsi", "arith.ceildivsi",
	"arith.cmpi", "math.absi", "math.ipowi", NULL,
};

static const char *const float_ops[] = {
	"arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf",
	"arith.maxf", "arith.minf", "arith.negf", "arith.cmpf", NULL,
};

const OpTable check_optables[] = {
	OPTABLE("integer-only op", int_ops, ""),
	OPTABLE("float-only op", float_ops, ""),
	{NULL},
};

static int
listed(const Op *op, const char *const *names)
{
	for (; *names; names++)
		if (op_is(op, *names))
			return 1;
	return 0;
}

static Type *
elem(const Type *t)
{
	return ty_isshaped(t) ? t->elem : (Type *)t;
}

/* every operand an integer (index) or every one a float */
static int
check_kinds(Op *op)
{
	int want_int = listed(op, int_ops), i;

	if (!want_int && !listed(op, float_ops))
		return 0;
	for (i = 0; i < op->nopnds; i++) {
		Type *t = elem(OPND(op, i)->type);
		if (want_int ? !ty_isintlike(t) : !ty_isfloat(t))
			return -1;
	}
	return 0;
}

/* [B..] M x K, K x N -> M x N */
static int
check_matmul(Op *op)
{
	Type *a, *b, *c;
	int r, i;

	if (op->nopnds != 3)
		return -1;
	a = OPND(op, 0)->type;
	b = OPND(op, 1)->type;
	c = OPND(op, 2)->type;
	r = op_is(op, "linalg.batch_matmul") ? 3 : 2;
	if (a->rank != r || b->rank != r || c->rank != r)
		return -1;
	for (i = 0; i < r - 2; i++)
		if (a->dims[i] != c->dims[i] || b->dims[i] != c->dims[i])
			return -1;
	return a->dims[r - 2] != c->dims[r - 2] || b->dims[r - 1] != c->dims[r - 1] ||
		a->dims[r - 1] != b->dims[r - 2] ? -1 : 0;
}

/* the groups of the larger type's dims, in order, one per smaller dim,
 * each multiplying to it (dynamic where one of its dims is) */
static int
check_reshape(Op *op)
{
	Attr *re = op_attr(op, "reassociation");
	Type *in = OPND(op, 0)->type, *out = op->res[0].type;
	Type *big = op_is(op, "tensor.collapse_shape") ? in : out;
	Type *small = big == in ? out : in;
	int64_t next = 0;
	size_t g, k;

	if (!re || re->kind != AT_ARRAY || (int)re->n != small->rank)
		return -1;
	if (small->rank == 0) {   /* [] : 0-d to and from all-ones */
		for (k = 0; k < (size_t)big->rank; k++)
			if (big->dims[k] != 1)
				return -1;
		return 0;
	}
	for (g = 0; g < re->n; g++) {
		Attr *grp = re->elts[g];
		int64_t p = 1;
		int dyn = 0;
		if (grp->kind != AT_ARRAY || !grp->n)
			return -1;
		for (k = 0; k < grp->n; k++) {
			if (grp->elts[k]->kind != AT_INT || grp->elts[k]->i != next ||
					next >= big->rank)
				return -1;
			if (big->dims[next] == DYN)
				dyn = 1;
			else
				p *= big->dims[next];
			next++;
		}
		/* a group with a `?` is one, as upstream MLIR has it */
		if (dyn ? small->dims[g] != DYN : p != small->dims[g])
			return -1;
	}
	return next == big->rank ? 0 : -1;
}

static int
check_transpose(Op *op)
{
	Attr *p = op_attr(op, "permutation");
	Type *in = OPND(op, 0)->type, *out = op->res[0].type;
	size_t i;

	if (!p || p->kind != AT_DENSE_ARRAY || !p->n || (int)p->n != in->rank ||
			out->rank != in->rank)
		return -1;
	for (i = 0; i < p->n; i++)
		if (p->ints[i] < 0 || p->ints[i] >= in->rank ||
				out->dims[i] != in->dims[p->ints[i]])
			return -1;
	return 0;
}

/* offsets + (sizes - 1) * strides inside the sliced tensor */
static int
check_slice(Op *op)
{
	Attr *off = op_attr(op, "static_offsets"), *sz = op_attr(op, "static_sizes");
	Attr *st = op_attr(op, "static_strides");
	Type *t = op_is(op, "tensor.extract_slice") ? OPND(op, 0)->type : op->res[0].type;
	size_t i;

	if (!off || !sz || !st || (int)off->n != t->rank || sz->n != off->n || st->n != off->n)
		return -1;
	for (i = 0; i < off->n; i++) {
		if (t->dims[i] == DYN || off->ints[i] == INT64_MIN || sz->ints[i] == INT64_MIN ||
				st->ints[i] == INT64_MIN)
			continue;
		if (off->ints[i] < 0 || sz->ints[i] < 0 || (sz->ints[i] &&
				off->ints[i] + (sz->ints[i] - 1) * st->ints[i] >= t->dims[i]))
			return -1;
	}
	return 0;
}

/* Every loop of a generic is a bare dim of some indexing map: else its
 * extent follows from no operand (mlir-opt: "expected the shape-to-loops
 * map to be non-null"). */
static int
check_loops(Op *op)
{
	Attr *maps = op_attr(op, "indexing_maps");
	Attr *its = op_attr(op, "iterator_types");
	size_t i;
	int j, d, n, seen[64];

	if (!maps || maps->kind != AT_ARRAY || !its || its->kind != AT_ARRAY)
		return -1;
	n = (int)its->n;
	if (n > 64)
		return -1;
	memset(seen, 0, sizeof seen);
	for (i = 0; i < maps->n; i++) {
		AffMap *m = maps->elts[i]->kind == AT_AFFINE_MAP ? maps->elts[i]->map : NULL;
		if (!m || m->ndims != n)
			return -1;
		for (j = 0; j < m->nres; j++)
			if (m->res[j]->kind == AFF_DIM)
				seen[m->res[j]->v] = 1;
	}
	for (d = 0; d < n; d++)
		if (!seen[d])
			return -1;
	return 0;
}

static int
check_one(Op *op, void *env)
{
	int *bad = env, rc;

	if (*bad)
		return 1;
	rc = check_kinds(op);

	if (!rc && (op_is(op, "linalg.matmul") || op_is(op, "linalg.batch_matmul")))
		rc = check_matmul(op);
	else if (!rc && (op_is(op, "tensor.expand_shape") || op_is(op, "tensor.collapse_shape")))
		rc = check_reshape(op);
	else if (!rc && op_is(op, "linalg.generic"))
		rc = check_loops(op);
	else if (!rc && op_is(op, "linalg.transpose"))
		rc = check_transpose(op);
	else if (!rc && (op_is(op, "tensor.extract_slice") || op_is(op, "tensor.insert_slice")))
		rc = check_slice(op);
	if (rc) {
		op_error(op, "torch-lower: internal error: '%s' is not valid as lowered", op->name);
		*bad = 1;
	}
	return *bad;
}

int
lower_check(Op *m)
{
	int bad = 0;

	op_walk(m, check_one, &bad);
	return bad ? -1 : 0;
}
