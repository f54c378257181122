/*
 * decompose_linalg.c - contractions to mm and bmm: matmul of every rank
 * pair (1-D operands gain and lose a dim, batch dims broadcast with
 * expand and fold into one with view), linear as a matmul with the
 * transposed weight plus the bias, addmm and baddbmm with their scales;
 * conv1d/2d/3d as the convolution they name (as torch-mlir does).
 */
#include <string.h>

#include "decompose.h"

static int64_t
prod(const int64_t *d, int n)
{
	int64_t p = 1;
	int i;

	for (i = 0; i < n; i++) {
		if (d[i] == DYN)
			return DYN;
		p *= d[i];
	}
	return p;
}

/* [batch..., r, c] as [B, r, c] after expanding batch to `batch`. */
static Value *
batched(B *b, Value *x, int nb, const int64_t *batch)
{
	Type *t = x->type;
	int64_t d[TORCH_MAXRANK], v[3];
	int r = t->rank, i;

	for (i = 0; i < nb; i++)
		d[i] = batch[i];
	d[nb] = t->dims[r - 2];
	d[nb + 1] = t->dims[r - 1];
	if (r != nb + 2 || !dims_eq(t->dims, d, nb + 2))
		x = b_op3(b, "aten.expand", x, b_ints(b, nb + 2, d), b_bool(b, 0));
	v[0] = prod(batch, nb);
	v[1] = d[nb];
	v[2] = d[nb + 1];
	return d_view(b, x, 3, v);
}

/* a @ b with a of rank >= 3 and b 2-D: rows fold into one dim. */
static Value *
fold_rows(B *b, Value *a, Value *m, Type *rt)
{
	Type *t = a->type;
	int64_t d[2] = {prod(t->dims, t->rank - 1), t->dims[t->rank - 1]};
	Value *x = d_view(b, a, 2, d);

	if (!x)
		return NULL;
	return d_view(b, b_op2(b, "aten.mm", x, m), rt->rank, rt->dims);
}

/* The general case: both at least 1-D, one at least 3-D. */
static Value *
batch_matmul(B *b, Value *a, Value *m, Type *rt)
{
	int ra = tt_rank(a->type), rm = tt_rank(m->type), nb;
	int64_t batch[TORCH_MAXRANK];

	if (ra == 1)
		a = b_op2(b, "aten.unsqueeze", a, b_int(b, 0));
	if (rm == 1)
		m = b_op2(b, "aten.unsqueeze", m, b_int(b, 1));
	Type ba = {.kind = TY_TORCH_VTENSOR, .ranked = 1, .rank = a->type->rank - 2,
		.dims = a->type->dims};
	Type bm = {.kind = TY_TORCH_VTENSOR, .ranked = 1, .rank = m->type->rank - 2,
		.dims = m->type->dims};
	if ((nb = tt_broadcast(&ba, &bm, batch)) < 0 || prod(batch, nb) == DYN)
		return NULL;
	Value *x = batched(b, a, nb, batch), *y = batched(b, m, nb, batch);
	if (!x || !y)
		return NULL;
	return d_view(b, b_op2(b, "aten.bmm", x, y), rt->rank, rt->dims);
}

/* a @ m by PyTorch's matmul rules; NULL when ranks are unknown. */
static Value *
matmul(B *b, Value *a, Value *m, Type *rt)
{
	int ra = tt_rank(a->type), rm = tt_rank(m->type);

	if (ra < 1 || rm < 1)
		return NULL;
	if (ra == 2 && rm == 2)
		return b_op2(b, "aten.mm", a, m);
	/* equal static batches: bmm as it is (torch-mlir's form) */
	if (ra == 3 && rm == 3 && a->type->dims[0] != DYN && a->type->dims[0] == m->type->dims[0])
		return b_op2(b, "aten.bmm", a, m);
	if (tt_rank(rt) < 0)
		return NULL;
	if (ra == 1 && rm == 1) {
		Value *v[2] = {b_op2(b, "aten.mul.Tensor", a, m), b_none(b)};
		return b_op(b, "aten.sum", 2, v);
	}
	if (ra == 1 && rm == 2)
		return b_op2(b, "aten.squeeze.dim", b_op2(b, "aten.mm",
		    b_op2(b, "aten.unsqueeze", a, b_int(b, 0)), m), b_int(b, 0));
	if (rm == 1 && ra == 2)
		return b_op2(b, "aten.squeeze.dim", b_op2(b, "aten.mm", a,
		    b_op2(b, "aten.unsqueeze", m, b_int(b, 1))), b_int(b, 1));
	if (rm == 2 && ra >= 3)
		return fold_rows(b, a, m, rt);
	return batch_matmul(b, a, m, rt);
}

static int
matmul_op(B *b, Op *op)
{
	Type *rt = RES(op, 0)->type;
	Value *v = matmul(b, OPND(op, 0), OPND(op, 1), rt);

	if (!v)
		return 0;
	/* an mm or bmm in the op's place keeps its non-value result type, as
	 * torch-mlir's does (a cast would leave it for maximize-value-semantics) */
	if (rt->kind == TY_TORCH_TENSOR && v->def && (op_is(v->def, "torch.aten.mm")
	    || op_is(v->def, "torch.aten.bmm")))
		value_set_type(v, rt);
	d_done(b, op, v);
	return 1;
}

static int
linear(B *b, Op *op)
{
	Value *x = OPND(op, 0), *w = OPND(op, 1), *bias = OPND(op, 2), *y;
	int rw = tt_rank(w->type);

	if (rw < 1 || tt_rank(x->type) < 1)
		return 0;
	if (rw == 2)
		w = d_transpose(b, w, 0, 1);
	if (!(y = matmul(b, x, w, RES(op, 0)->type)))
		return 0;
	if (!tv_none(bias))
		y = d_add(b, y, bias);
	d_done(b, op, y);
	return 1;
}

static int
is_one(Value *v)
{
	double f;

	return tv_float(v, &f) && f == 1;
}

/* A scale of an integer addmm, baddbmm, addbmm: PyTorch converts it to
 * the integer type (truncating 1.5 to 1); NULL when not a constant. */
Value *
d_int_scale(B *b, Value *v)
{
	int64_t i;
	double f;

	if (tv_int(v, &i))
		return v;
	if (!tv_float(v, &f) || !(f > -9.2e18 && f < 9.2e18))
		return NULL;
	return b_int(b, (int64_t)f);
}

/* beta * self + alpha * (m1 @ m2), mm or bmm by name. */
static int
scaled(B *b, Op *op, const char *mm)
{
	Value *self = OPND(op, 0), *beta = OPND(op, 3), *alpha = OPND(op, 4), *y;
	Type *dt = tt_dtype(RES(op, 0)->type);
	double f;

	/* a float scale would make an integer result float */
	if (!dt || (!dt_isfloat(dt) && (!(beta = d_int_scale(b, beta))
	    || !(alpha = d_int_scale(b, alpha)))))
		return 0;
	y = b_op2(b, mm, OPND(op, 1), OPND(op, 2));
	if (!is_one(alpha))
		y = b_op2(b, "aten.mul.Scalar", y, alpha);
	if (!(tv_float(beta, &f) && f == 0))
		y = b_op3(b, "aten.add.Tensor", y, self, beta);
	d_done(b, op, y);
	return 1;
}

static int addmm(B *b, Op *op) { return scaled(b, op, "aten.mm"); }
static int baddbmm(B *b, Op *op) { return scaled(b, op, "aten.bmm"); }

/* convNd(x, w, bias, stride, padding, dilation, groups): convolution, not
 * transposed, no output padding; k spatial dims. */
static int
conv_nd(B *b, Op *op, int k)
{
	static const int64_t zeros[3];
	Value *v[9];
	int i;

	if (op->nopnds != 7)
		return 0;
	for (i = 0; i < 6; i++)
		v[i] = OPND(op, i);
	v[6] = b_bool(b, 0);
	v[7] = b_ints(b, k, zeros);
	v[8] = OPND(op, 6);
	d_done(b, op, b_op(b, "aten.convolution", 9, v));
	return 1;
}

static int conv1d(B *b, Op *op) { return conv_nd(b, op, 1); }
static int conv2d(B *b, Op *op) { return conv_nd(b, op, 2); }
static int conv3d(B *b, Op *op) { return conv_nd(b, op, 3); }

const Decomp decomp_linalg[] = {
	{"aten.matmul", matmul_op}, {"aten.linear", linear},
	{"aten.addmm", addmm}, {"aten.baddbmm", baddbmm}, {"aten.mv", matmul_op},
	{"aten.dot", matmul_op}, {"aten.conv1d", conv1d}, {"aten.conv2d", conv2d},
	{"aten.conv3d", conv3d},
	{NULL, NULL},
};

const OpTable decomp_linalg_optables[] = {
	OPTABLE("decomposition", decomp_linalg, "torch."),
	{NULL},
};
