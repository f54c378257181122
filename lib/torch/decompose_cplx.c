/*
 * decompose_cplx.c - the vector norms of torch.norm as linalg_vector_norm.
 *
 * Complex tensors never reach torch-opt: fx-import gives them as pairs of
 * reals and imports the ops on them as real ops (tools/fx-import/complex.c);
 * a norm of a complex tensor arrives as a norm of its magnitudes, and
 * aten.norm is how torch.norm and Tensor.norm reach an aten graph:
 *
 *   norm.Scalar(x, p)                       linalg_vector_norm(x, p, None, False)
 *   norm.ScalarOpt_dim(x, p, dim, keepdim)  linalg_vector_norm(x, p ?: 2, dim, keepdim)
 *
 * PyTorch's norm is linalg_vector_norm for these forms (every p, inf, -inf
 * and 0 included); an empty dim list reduces every dim there, as None does
 * (torch.norm(x) of a complex x is norm.ScalarOpt_dim with dim []).  Left
 * alone: non-float inputs (PyTorch refuses them) and a non-constant dim list.
 */
#include "decompose.h"

static int
norm_as_vector_norm(B *b, Op *op, Value *p, Value *dim, Value *keep)
{
	Type *dt = tt_dtype(OPND(op, 0)->type);
	Value *v[5];

	if (!dt || !dt_isfloat(dt))
		return 0;
	v[0] = OPND(op, 0);
	v[1] = p && !tv_none(p) ? p : b_int(b, 2);
	v[2] = dim ? dim : b_none(b);
	v[3] = keep ? keep : b_bool(b, 0);
	v[4] = b_none(b);
	d_done(b, op, b_op(b, "aten.linalg_vector_norm", 5, v));
	return 1;
}

static int
norm_scalar(B *b, Op *op)
{
	return norm_as_vector_norm(b, op, OPND(op, 1), NULL, NULL);
}

static int
norm_dim(B *b, Op *op)
{
	int64_t d[TORCH_MAXRANK];
	int keep;

	int n = tv_ints(OPND(op, 2), d, TORCH_MAXRANK);

	if (n < 0 || !tv_bool(OPND(op, 3), &keep))
		return 0;
	return norm_as_vector_norm(b, op, OPND(op, 1), n ? OPND(op, 2) : b_none(b), OPND(op, 3));
}

const Decomp decomp_cplx[] = {
	{"aten.norm.Scalar", norm_scalar}, {"aten.norm.ScalarOpt_dim", norm_dim},
	{NULL, NULL},
};

const OpTable decomp_cplx_optables[] = {
	OPTABLE("decomposition", decomp_cplx, "torch."),
	{NULL},
};
