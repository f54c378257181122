/* complex.c - complex tensors as pairs of reals, and quantized tensors as
 * their integers (at the end).
 *
 * fxpipe's IR has no complex element type: fx-import gives a complex64
 * (complex128) tensor of shape S the type [S..., 2] of f32 (f64), its real
 * and imaginary parts on a trailing dimension, the layout of
 * torch.view_as_real.  Every node that reads or makes a complex tensor is
 * imported here as ops on those reals, so that torch-opt and everything
 * after it see real tensors only; @main's complex arguments and results
 * are listed in its attributes fxpipe.complex_args / fxpipe.complex_results
 * (the runtime then reads and writes them as complex, formats/vmfb.md).
 *
 * A node with a complex tensor that no rule below covers is refused.
 * Dimension arguments are taken against the complex tensor's own rank
 * (negative ones too), so the pair dimension is never touched by them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fximport.h"

/* ---- what involves complex tensors ---- */

/* bit 1: a complex tensor or dtype, bit 2: a quantized one */
static int
json_complex(Imp *im, json_t *j)
{
	const char *key;
	json_t *v;
	size_t i;
	int m = 0;

	if (json_is_string(j))
		return dtype_is_complex(json_string_value(j)) | dtype_is_quant(json_string_value(j)) << 1;
	if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			m |= json_complex(im, v);
		return m;
	}
	if (!json_is_object(j))
		return 0;
	if (json_is_string(json_object_get(j, "node"))) {
		json_t *ix = json_object_get(im->byname, json_string_value(json_object_get(j, "node")));
		Node *n = ix ? &im->nodes[json_integer_value(ix)] : NULL;
		int k;
		if (n && n->done)
			for (k = 0; k < n->nres; k++)
				m |= (n->res[k]->cplx ? 1 : 0) | (n->res[k]->quant ? 2 : 0);
	}
	json_object_foreach(j, key, v)
		if (strcmp(key, "node"))
			m |= json_complex(im, v);
	return m;
}

int
complex_involved(Imp *im, Node *n)
{
	return json_complex(im, json_object_get(n->j, "args"))
	    | json_complex(im, json_object_get(n->j, "kwargs"))
	    | json_complex(im, json_object_get(n->j, "value"));
}

/* ---- values ---- */

typedef struct Cx {
	Imp *im;
	B b;
	const char *op, *path;
} Cx;

static Type *
elem_of(Value *v)
{
	return v->type->elem;
}

static int
rank_of(Value *v)
{
	return v->type->rank;
}

static Value *
to_float(Cx *x, Value *v, TypeKind fk)
{
	Value *o[5];

	if (elem_of(v)->kind == fk)
		return v;
	o[0] = v;
	o[1] = b_int(&x->b, fk == TY_F64 ? 7 : 6);     /* torch.float64, float32 */
	o[2] = b_bool(&x->b, 0);
	o[3] = b_bool(&x->b, 0);
	o[4] = b_none(&x->b);
	return b_op(&x->b, "aten.to.dtype", 5, o);
}

static Value *
select_last(Cx *x, Value *v, int k)
{
	return b_op3(&x->b, "aten.select.int", v, b_int(&x->b, rank_of(v) - 1), b_int(&x->b, k));
}

static Value *
binop(Cx *x, const char *name, Value *a, Value *b)
{
	Value *o[3] = {a, b, NULL};

	if (!strcmp(name, "aten.mul.Tensor"))
		return b_op(&x->b, name, 2, o);
	o[2] = b_int(&x->b, 1);
	return b_op(&x->b, name, 3, o);
}

/* The dims of a node's complex value, without the pair dimension. */
static int
value_dims(Cx *x, json_t *value, int64_t *dims)
{
	json_t *shape = json_object_get(value, "shape"), *d;
	size_t i;

	if (!json_is_array(shape) || json_array_size(shape) >= TORCH_MAXRANK)
		fail(x->im, x->path, "'%s': the shape of its result is not known", x->op);
	json_array_foreach(shape, i, d)
		dims[i] = json_integer_value(d);
	return (int)json_array_size(shape);
}

static Value *
broadcast(Cx *x, Value *v, int rank, const int64_t *dims)
{
	if (rank_of(v) == rank && (!rank || !memcmp(v->type->dims, dims, rank * sizeof *dims)))
		return v;
	return b_op2(&x->b, "aten.broadcast_to", v, b_ints(&x->b, rank, dims));
}

/* re + i im as [..., 2], both broadcast to dims first; im NULL is 0. */
static Value *
pair(Cx *x, Value *re, Value *im, int rank, const int64_t *dims)
{
	Value *l[2];

	re = broadcast(x, re, rank, dims);
	if (!im) {
		Value *o[6] = {re, b_none(&x->b), b_none(&x->b), b_none(&x->b),
		    b_none(&x->b), b_none(&x->b)};
		im = b_op(&x->b, "aten.zeros_like", 6, o);
	}
	l[0] = re;
	l[1] = broadcast(x, im, rank, dims);
	return b_op2(&x->b, "aten.stack", b_list(&x->b, 2, l), b_int(&x->b, rank));
}

/* An FX tensor argument: its value, whether complex, its complex rank. */
static Value *
arg_value(Cx *x, json_t *arg, const char *path, int *cplx)
{
	Slot *s;

	if (!jtag_is(arg, "tensor") && !jtag_is(arg, "node"))
		fail(x->im, path, "'%s' on complex tensors: expected a tensor here", x->op);
	s = tensor_slot(x->im, arg, path);
	if (s->h)   /* its read would come after the ops made here */
		fail(x->im, path, "'%s' on complex tensors: an operand written by an in-place op "
		    "is not supported", x->op);
	*cplx = s->cplx;
	return slot_read(x->im, s);
}

/* The real and imaginary parts of a tensor argument in fk (imag NULL for
 * a real tensor). */
static Value *
scalar_of(Cx *x, json_t *v, const char *path, TypeKind fk)
{
	Value *o[6] = {b_ints(&x->b, 0, NULL), b_float(&x->b, jfloatval(x->im, v, path)),
	    b_int(&x->b, fk == TY_F64 ? 7 : 6), b_none(&x->b), b_none(&x->b), b_none(&x->b)};

	return b_op(&x->b, "aten.full", 6, o);
}

static void
parts(Cx *x, json_t *arg, const char *path, TypeKind fk, Value **re, Value **im)
{
	int cplx;
	Value *v;

	/* a Python number: PyTorch's wrapped scalar, (v, 0) or (real, imag) */
	if (jtag_is(arg, "int") || jtag_is(arg, "float")) {
		*re = scalar_of(x, json_object_get(arg, "value"), path, fk), *im = NULL;
		return;
	}
	if (jtag_is(arg, "complex")) {
		*re = scalar_of(x, json_object_get(arg, "real"), path, fk);
		*im = scalar_of(x, json_object_get(arg, "imag"), path, fk);
		return;
	}
	v = to_float(x, arg_value(x, arg, path, &cplx), fk);
	if (!cplx) {
		*re = v, *im = NULL;
		return;
	}
	*re = select_last(x, v, 0);
	*im = select_last(x, v, 1);
}

/* The argument as a complex tensor of fk pairs. */
static Value *
as_pairs(Cx *x, json_t *arg, const char *path, TypeKind fk)
{
	int cplx;
	Value *v = arg_value(x, arg, path, &cplx);

	v = to_float(x, v, fk);
	return cplx ? v : pair(x, v, NULL, rank_of(v), v->type->dims);
}

/* |z| computed in f64 (no overflow of re^2 for any f32), in fk */
static Value *
cx_abs(Cx *x, Value *re, Value *im, TypeKind fk)
{
	Value *r = to_float(x, re, TY_F64), *i = to_float(x, im, TY_F64);
	Value *s = binop(x, "aten.add.Tensor", binop(x, "aten.mul.Tensor", r, r),
	    binop(x, "aten.mul.Tensor", i, i));

	return to_float(x, b_op1(&x->b, "aten.sqrt", s), fk);
}

/* ---- results ---- */

static json_t *
node_value(Cx *x, Node *n)
{
	json_t *v = json_object_get(n->j, "value");

	if (!jtag_is(v, "tensor"))
		fail(x->im, x->path, "'%s' on complex tensors: expected one tensor result", x->op);
	return v;
}

static int
value_complex(json_t *v)
{
	return dtype_is_complex(json_string_value(json_object_get(v, "dtype")));
}

/* the real dtype of the node's (complex or real) floating result */
static TypeKind
value_fk(Cx *x, json_t *v)
{
	const char *d = json_string_value(json_object_get(v, "dtype"));

	if (d && (!strcmp(d, "complex128") || !strcmp(d, "float64")))
		return TY_F64;
	if (d && (!strcmp(d, "complex64") || !strcmp(d, "float32")))
		return TY_F32;
	fail(x->im, x->path, "'%s' on complex tensors: result dtype '%s' is not supported",
	    x->op, d ? d : "?");
}

static void
set_value(Cx *x, Node *n, Value *v, int cplx)
{
	Imp *im = x->im;
	json_t *val = node_value(x, n);
	Type *want = vtensor_of(im, val, 0, pkey(im, x->path, "value"));

	if (v->type->rank != want->rank || (want->rank && memcmp(v->type->dims, want->dims,
	    want->rank * sizeof *want->dims)) || v->type->elem != want->elem)
		fail(im, x->path, "internal: '%s' on complex tensors made the wrong type", x->op);
	n->nres = 1;
	n->res = arena_alloc(im->c, sizeof *n->res);
	n->res[0] = slot_new(im, v);
	n->res[0]->name = n->name;
	n->res[0]->cplx = cplx;
}

/* ---- the ops ---- */

static int64_t
arg_int(Cx *x, json_t *a, int i)
{
	json_t *v = json_array_get(a, i);

	if (!jtag_is(v, "int"))
		fail(x->im, x->path, "'%s' on complex tensors: argument %d must be a constant int",
		    x->op, i);
	return json_integer_value(json_object_get(v, "value"));
}

static int64_t
norm_dim(Cx *x, int64_t d, int rank)
{
	if (d < -rank || d >= rank || rank == 0)
		fail(x->im, x->path, "'%s': dimension %lld is out of range for a complex tensor "
		    "of %d dimensions", x->op, (long long)d, rank);
	return d < 0 ? d + rank : d;
}

/* The complex rank of the node's first tensor argument. */
static int
self_rank(Cx *x, json_t *a)
{
	int cplx;
	Value *v = arg_value(x, json_array_get(a, 0), x->path, &cplx);

	return cplx ? rank_of(v) - 1 : rank_of(v);
}

static void
set_int(json_t *a, int i, int64_t v)
{
	json_array_set_new(a, i, tag_int(v));
}

/* Views and copies that move elements, not values: the same op on the
 * pairs, with dimension arguments made non-negative against the complex
 * rank, and sizes given the pair dimension. */
static int
structural(Cx *x, Node *n, json_t *a, int na)
{
	const char *op = x->op;
	json_t *val = node_value(x, n), *l, *it;
	int r, rr, cplx, k;
	int64_t dims[TORCH_MAXRANK];
	size_t i;

	static const char *const ops[] = {
		"aten.select.int", "aten.slice.Tensor", "aten.squeeze.dim", "aten.narrow",
		"aten.unsqueeze", "aten.transpose.int", "aten.permute", "aten.flip", "aten.view",
		"aten._unsafe_view", "aten.reshape", "aten.expand", "aten.squeeze.dims",
		"aten.clone", "aten.alias", "aten.detach", "aten.lift_fresh_copy",
		"aten.contiguous", "aten.squeeze", NULL,
	};

	for (k = 0; ops[k] && strcmp(ops[k], op); k++)
		;
	if (!ops[k] || !value_complex(val))
		return 0;
	arg_value(x, json_array_get(a, 0), x->path, &cplx);
	if (!cplx)
		return 0;
	r = self_rank(x, a);
	rr = value_dims(x, val, dims);
	if (!strcmp(op, "aten.select.int") || !strcmp(op, "aten.slice.Tensor")
	    || !strcmp(op, "aten.squeeze.dim") || !strcmp(op, "aten.narrow")) {
		set_int(a, 1, norm_dim(x, arg_int(x, a, 1), r));
	} else if (!strcmp(op, "aten.unsqueeze")) {
		set_int(a, 1, norm_dim(x, arg_int(x, a, 1), r + 1));
	} else if (!strcmp(op, "aten.transpose.int")) {
		set_int(a, 1, norm_dim(x, arg_int(x, a, 1), r));
		set_int(a, 2, norm_dim(x, arg_int(x, a, 2), r));
	} else if (!strcmp(op, "aten.permute") || !strcmp(op, "aten.flip")) {
		if (!(l = list_items(json_array_get(a, 1))))
			fail(x->im, x->path, "'%s': expected a list of dims", op);
		json_t *nl = tag_list();
		json_array_foreach(l, i, it) {
			if (!jtag_is(it, "int"))
				fail(x->im, x->path, "'%s': expected constant dims", op);
			json_array_append_new(list_items(nl), tag_int(norm_dim(x,
			    json_integer_value(json_object_get(it, "value")), r)));
		}
		if (!strcmp(op, "aten.permute"))
			json_array_append_new(list_items(nl), tag_int(r));
		json_array_set_new(a, 1, nl);
	} else if (!strcmp(op, "aten.view") || !strcmp(op, "aten._unsafe_view")
	    || !strcmp(op, "aten.reshape") || !strcmp(op, "aten.expand")
	    || !strcmp(op, "aten.squeeze.dims")) {
		/* the recorded result shape, and the pairs */
		json_t *nl = tag_list();
		for (k = 0; k < rr; k++)
			json_array_append_new(list_items(nl), tag_int(dims[k]));
		json_array_append_new(list_items(nl), tag_int(2));
		while (json_array_size(a) > 1)
			json_array_remove(a, 1);
		json_array_append_new(a, nl);
		if (!strcmp(op, "aten.squeeze.dims"))
			x->op = "aten.view";
		else if (!strcmp(op, "aten.expand"))
			json_array_append_new(a, tag_bool(0));
	}
	(void)na;
	import_call(x->im, n, x->op, a, json_object(), x->path);
	n->res[0]->cplx = 1;
	return 1;
}

/* view_as_real, view_as_complex, real, imag, conj */
static int
views(Cx *x, Node *n, json_t *a)
{
	const char *op = x->op;
	json_t *val = node_value(x, n);
	int cplx;
	Value *v;

	if (!strcmp(op, "aten.view_as_real") || !strcmp(op, "aten.view_as_complex")) {
		v = arg_value(x, json_array_get(a, 0), x->path, &cplx);
		if (cplx == !strcmp(op, "aten.view_as_complex"))
			fail(x->im, x->path, "'%s' of a %s tensor", op, cplx ? "complex" : "real");
		set_value(x, n, v, !cplx);
		return 1;
	}
	if (!strcmp(op, "aten.real") || !strcmp(op, "aten.imag")) {
		v = arg_value(x, json_array_get(a, 0), x->path, &cplx);
		if (!cplx)
			return 0;
		set_value(x, n, select_last(x, v, !strcmp(op, "aten.imag")), 0);
		return 1;
	}
	if (!strcmp(op, "aten._conj") || !strcmp(op, "aten.conj")
	    || !strcmp(op, "aten.conj_physical") || !strcmp(op, "aten._conj_physical")
	    || !strcmp(op, "aten.resolve_conj") || !strcmp(op, "aten.resolve_neg")
	    || !strcmp(op, "aten.neg")) {
		Value *re, *im;
		int64_t dims[TORCH_MAXRANK];
		int r;
		v = arg_value(x, json_array_get(a, 0), x->path, &cplx);
		if (!cplx || !value_complex(val))
			return 0;
		if (!strncmp(op, "aten.resolve_", 13)) {
			set_value(x, n, v, 1);   /* the values are already resolved */
			return 1;
		}
		r = value_dims(x, val, dims);
		re = select_last(x, v, 0);
		im = b_op1(&x->b, "aten.neg", select_last(x, v, 1));
		if (!strcmp(op, "aten.neg"))
			re = b_op1(&x->b, "aten.neg", re);
		set_value(x, n, pair(x, re, im, r, dims), 1);
		return 1;
	}
	return 0;
}

static Value *scalar_op(Cx *, const char *, Value *, double);

/* p q, p - q, p + q where a NULL is an exact 0 (a missing part): p 0 is
 * still NaN where p is not finite */
static Value *
cmul(Cx *x, Value *p, Value *q)
{
	if (!p || !q)
		return p || q ? scalar_op(x, "aten.mul.Scalar", p ? p : q, 0.0) : NULL;
	return binop(x, "aten.mul.Tensor", p, q);
}

static Value *
cadd(Cx *x, Value *p, Value *q, int sub)
{
	if (!q)
		return p;
	if (!p)
		return sub ? b_op1(&x->b, "aten.neg", q) : q;
	return binop(x, sub ? "aten.sub.Tensor" : "aten.add.Tensor", p, q);
}

/*
 * mul, add, sub of tensors (complex by either operand), as PyTorch's
 * kernels compute them: a real operand is the complex (r, 0), a product is
 * (ar br - ai bi, ar bi + ai br) in full, and a + b is a + alpha b with the
 * complex alpha (1, 0).  The terms with a zero change nothing where the
 * values are finite; where one is inf or NaN they carry NaN into the other
 * part as eager's do (c + c of (NaN, 1) is (NaN, NaN)).
 */
static int
arith(Cx *x, Node *n, json_t *a)
{
	const char *op = x->op;
	json_t *val = node_value(x, n);
	Value *ar, *ai, *br, *bi, *re, *im;
	int64_t dims[TORCH_MAXRANK];
	TypeKind fk;
	int r, sub;

	if (strcmp(op, "aten.mul.Tensor") && strcmp(op, "aten.add.Tensor")
	    && strcmp(op, "aten.sub.Tensor"))
		return 0;
	if (!value_complex(val))
		return 0;
	if (strcmp(op, "aten.mul.Tensor") && !(jtag_is(json_array_get(a, 2), "int")
	    && arg_int(x, a, 2) == 1))
		fail(x->im, x->path, "'%s' on complex tensors: only alpha=1 is supported", op);
	fk = value_fk(x, val);
	r = value_dims(x, val, dims);
	parts(x, json_array_get(a, 0), x->path, fk, &ar, &ai);
	parts(x, json_array_get(a, 1), x->path, fk, &br, &bi);
	sub = !strcmp(op, "aten.sub.Tensor");
	if (!strcmp(op, "aten.mul.Tensor")) {
		/* (ar + i ai)(br + i bi); one op a statement, in order */
		Value *p = cmul(x, ar, br), *q = cmul(x, ai, bi);

		re = cadd(x, p, q, 1);
		p = cmul(x, ar, bi), q = cmul(x, ai, br);
		im = cadd(x, p, q, 0);
	} else {
		/* a + alpha b, alpha b = (br - 0 bi, bi + 0 br) */
		Value *q = cmul(x, NULL, bi), *tr, *ti;

		tr = cadd(x, br, q, 1);
		q = cmul(x, NULL, br);
		ti = cadd(x, bi, q, 0);
		re = cadd(x, ar, tr, sub);
		im = cadd(x, ai, ti, sub);
	}
	set_value(x, n, pair(x, re, im, r, dims), 1);
	return 1;
}

/* complex(re, im), polar(abs, angle), abs and angle of complex tensors */
static int
makers(Cx *x, Node *n, json_t *a)
{
	const char *op = x->op;
	json_t *val = node_value(x, n);
	Value *p, *q, *re, *im;
	int64_t dims[TORCH_MAXRANK];
	TypeKind fk;
	int r, cplx;

	if (strcmp(op, "aten.complex") && strcmp(op, "aten.polar") && strcmp(op, "aten.abs")
	    && strcmp(op, "aten.angle"))
		return 0;
	fk = value_fk(x, val);
	r = value_dims(x, val, dims);
	if (!strcmp(op, "aten.complex") || !strcmp(op, "aten.polar")) {
		p = to_float(x, arg_value(x, json_array_get(a, 0), x->path, &cplx), fk);
		q = to_float(x, arg_value(x, json_array_get(a, 1), x->path, &cplx), fk);
		if (!strcmp(op, "aten.complex")) {
			re = p, im = q;
		} else {
			re = binop(x, "aten.mul.Tensor", p, b_op1(&x->b, "aten.cos", q));
			im = binop(x, "aten.mul.Tensor", p, b_op1(&x->b, "aten.sin", q));
		}
		set_value(x, n, pair(x, re, im, r, dims), 1);
		return 1;
	}
	if (!strcmp(op, "aten.abs") || !strcmp(op, "aten.angle")) {
		arg_value(x, json_array_get(a, 0), x->path, &cplx);
		if (!cplx || value_complex(val))
			return 0;
		parts(x, json_array_get(a, 0), x->path, fk, &re, &im);
		set_value(x, n, !strcmp(op, "aten.abs") ? cx_abs(x, re, im, fk)
		    : b_op2(&x->b, "aten.atan2", im, re), 0);
		return 1;
	}
	return 0;
}

/* norms of complex tensors: the same norm of |z| */
static int
norms(Cx *x, Node *n, json_t *a)
{
	const char *op = x->op;
	json_t *val = node_value(x, n);
	TypeKind fk;
	Value *re, *im;
	int cplx;

	if (strcmp(op, "aten.linalg_vector_norm") && strcmp(op, "aten.norm.Scalar")
	    && strcmp(op, "aten.norm.ScalarOpt_dim") && strcmp(op, "aten.frobenius_norm.dim"))
		return 0;
	arg_value(x, json_array_get(a, 0), x->path, &cplx);
	if (!cplx || value_complex(val))
		return 0;
	if (!strcmp(op, "aten.linalg_vector_norm") && !jtag_is(json_array_get(a, 4), "none"))
		fail(x->im, x->path, "'%s' of a complex tensor with a dtype: not supported", op);
	fk = value_fk(x, val);
	parts(x, json_array_get(a, 0), x->path, fk, &re, &im);
	import_call_self(x->im, n, op, a, json_object(), x->path, cx_abs(x, re, im, fk));
	return 1;
}

/* cat: every operand as pairs of the result's dtype */
static int
cat(Cx *x, Node *n, json_t *a)
{
	json_t *val = node_value(x, n), *l = list_items(json_array_get(a, 0)), *it;
	int64_t dims[TORCH_MAXRANK];
	Value **v;
	TypeKind fk;
	size_t i, k = 0;
	int r;

	if (strcmp(x->op, "aten.cat") || !l || !value_complex(val))
		return 0;
	fk = value_fk(x, val);
	r = value_dims(x, val, dims);
	v = arena_alloc(x->im->c, (json_array_size(l) + 1) * sizeof *v);
	json_array_foreach(l, i, it) {
		/* PyTorch skips 1-d empty operands (legacy behaviour) */
		json_t *s = json_object_get(json_object_get(node_ref(x->im, it, x->path)->j,
		    "value"), "shape");
		if (json_array_size(s) == 1 && json_integer_value(json_array_get(s, 0)) == 0)
			continue;
		v[k++] = as_pairs(x, it, x->path, fk);
	}
	if (!k)
		fail(x->im, x->path, "'%s' of only empty 1-d tensors on complex values: not "
		    "supported", x->op);
	set_value(x, n, b_op2(&x->b, "aten.cat", b_list(&x->b, k, v),
	    b_int(&x->b, norm_dim(x, arg_int(x, a, 1), r))), 1);
	return 1;
}

/* _to_copy and to.dtype to or between complex dtypes */
static int
convert(Cx *x, Node *n, json_t *a)
{
	json_t *val = node_value(x, n);

	if (strcmp(x->op, "aten._to_copy") && strcmp(x->op, "aten.to.dtype"))
		return 0;
	if (!value_complex(val))
		return 0;
	set_value(x, n, as_pairs(x, json_array_get(a, 0), x->path, value_fk(x, val)), 1);
	return 1;
}

/* ---- the discrete Fourier transform, as matmuls ---- */

/* cos and -sin of 2 pi j k / n times scale, as an [n, m] literal of fk:
 * computed in double from j k mod n, exact at the quarter turns. */
static Value *
dft_matrix(Cx *x, int64_t n, int64_t m, double scale, int sine, TypeKind fk)
{
	size_t es = fk == TY_F64 ? 8 : 4, nb = (size_t)n * m * es;
	unsigned char *d = malloc(nb ? nb : 1);
	int64_t j, k, dims[2] = {n, m};

	if (!d)
		fail(x->im, x->path, "out of memory");
	for (j = 0; j < n; j++)
		for (k = 0; k < m; k++) {
			int64_t t = (int64_t)((__int128)j * k % n);
			double v;
			if ((4 * t) % n == 0) {
				int q = (int)(4 * t / n);   /* 0..3 quarter turns */
				v = sine ? (q == 1 ? -1 : q == 3 ? 1 : 0) : (q == 0 ? 1 : q == 2 ? -1 : 0);
			} else {
				double th = 2 * M_PI * (double)t / (double)n;
				v = sine ? -sin(th) : cos(th);
			}
			v *= scale;
			if (fk == TY_F64)
				memcpy(d + (j * m + k) * es, &v, es);
			else {
				float f = (float)v;
				memcpy(d + (j * m + k) * es, &f, es);
			}
		}
	return b_literal_take(&x->b, ty_vtensor(x->im->c, 2, dims, ty_float(x->im->c, fk)),
	    d, nb, "fxpipe_dft");
}

static Value *
mm(Cx *x, Value *a, Value *m)
{
	return b_op2(&x->b, "aten.matmul", a, m);
}

static Value *
swap(Cx *x, Value *v, int d, int e)
{
	if (d == e)
		return v;
	return b_op3(&x->b, "aten.transpose.int", v, b_int(&x->b, d), b_int(&x->b, e));
}

/* The DFT of (re, im) along dim d of rank r, m outputs of n inputs; the
 * inverse one (e^{+i..}) when inverse. */
static void
dft(Cx *x, Value **re, Value **im, int d, int r, int64_t n, int64_t m, double scale,
	int inverse, TypeKind fk)
{
	Value *c = dft_matrix(x, n, m, scale, 0, fk);
	Value *s = dft_matrix(x, n, m, inverse ? -scale : scale, 1, fk);
	Value *xr = swap(x, *re, d, r - 1), *xi = *im ? swap(x, *im, d, r - 1) : NULL;
	Value *yr = mm(x, xr, c), *yi = mm(x, xr, s);

	if (xi) {   /* (xr + i xi)(c + i s) */
		yr = binop(x, "aten.sub.Tensor", yr, mm(x, xi, s));
		yi = binop(x, "aten.add.Tensor", yi, mm(x, xi, c));
	}
	*re = swap(x, yr, d, r - 1);
	*im = swap(x, yi, d, r - 1);
}

/* _fft_r2c(self, dim, normalization, onesided): the last listed dim
 * real-to-complex (halved when onesided), then the others in full;
 * _fft_c2c(self, dim, normalization, forward): every listed dim in full,
 * the inverse transform unless forward.  normalization: 0 none, 1 by
 * 1/sqrt(n), 2 by 1/n, n the product of the transformed sizes. */
static int
fft(Cx *x, Node *n, json_t *a)
{
	json_t *val = node_value(x, n), *l = list_items(json_array_get(a, 1));
	Value *v, *re, *im = NULL;
	int64_t dims[TORCH_MAXRANK], norm, ds[TORCH_MAXRANK];
	int cplx, r, i, nd, c2c = !strcmp(x->op, "aten._fft_c2c"), flag;
	TypeKind fk;
	double count = 1;

	if (strcmp(x->op, "aten._fft_r2c") && !c2c)
		return 0;
	norm = arg_int(x, a, 2);
	fk = value_fk(x, val);
	value_dims(x, val, dims);
	v = arg_value(x, json_array_get(a, 0), x->path, &cplx);
	if (cplx != c2c || !jtag_is(json_array_get(a, 3), "bool") || !l || elem_of(v)->kind != fk
	    || (nd = (int)json_array_size(l)) == 0 || nd > TORCH_MAXRANK || norm < 0 || norm > 2)
		fail(x->im, x->path, "'%s': only a %s input of the result's precision, "
		    "constant dims and normalization are supported", x->op, c2c ? "complex" : "real");
	flag = json_is_true(json_object_get(json_array_get(a, 3), "value"));
	r = c2c ? rank_of(v) - 1 : rank_of(v);
	for (i = 0; i < nd; i++) {
		json_t *it = json_array_get(l, i);
		if (!jtag_is(it, "int"))
			fail(x->im, x->path, "'%s': expected constant dims", x->op);
		ds[i] = norm_dim(x, json_integer_value(json_object_get(it, "value")), r);
		count *= (double)v->type->dims[ds[i]];
	}
	for (i = 0; i < r; i++)
		if (v->type->dims[i] < 0)
			fail(x->im, x->path, "'%s': dynamic sizes are not supported", x->op);
	re = v;
	if (c2c) {
		re = select_last(x, v, 0);
		im = select_last(x, v, 1);
	}
	for (i = nd - 1; i >= 0; i--) {
		int64_t len = v->type->dims[ds[i]];
		int64_t m = !c2c && i == nd - 1 && flag ? len / 2 + 1 : len;
		/* the whole normalization on the first transform */
		double scale = i < nd - 1 ? 1 : norm == 1 ? 1 / sqrt(count) : norm == 2 ? 1 / count : 1;
		dft(x, &re, &im, (int)ds[i], r, len, m, scale, c2c && !flag, fk);
	}
	set_value(x, n, pair(x, re, im, r, dims), 1);
	return 1;
}

/* ---- quantized tensors, as their integers ---- */

static double
arg_float(Cx *x, json_t *a, int i)
{
	json_t *v = json_array_get(a, i);

	if (!jtag_is(v, "float") && !jtag_is(v, "int"))
		fail(x->im, x->path, "'%s' on quantized tensors: argument %d must be a constant "
		    "number", x->op, i);
	return jfloatval(x->im, json_object_get(v, "value"), x->path);
}

static Slot *
quant_slot(Cx *x, json_t *a, int i)
{
	json_t *arg = json_array_get(a, i);
	Slot *s;

	if (!jtag_is(arg, "tensor") && !jtag_is(arg, "node"))
		fail(x->im, x->path, "'%s': expected a tensor argument", x->op);
	s = tensor_slot(x->im, arg, x->path);
	if (s->h)
		fail(x->im, x->path, "'%s' on quantized tensors: an operand written by an in-place "
		    "op is not supported", x->op);
	return s;
}

/* The integer dtype of a quantized one and its range; the torch dtype code. */
static int
quant_range(Cx *x, json_t *val, double *lo, double *hi)
{
	const char *d = json_string_value(json_object_get(val, "dtype"));

	if (d && !strcmp(d, "qint8"))
		return *lo = -128, *hi = 127, 1;                        /* torch.int8 */
	if (d && !strcmp(d, "quint8"))
		return *lo = 0, *hi = 255, 0;                           /* torch.uint8 */
	if (d && !strcmp(d, "qint32"))
		return *lo = -2147483648.0, *hi = 2147483647.0, 3;      /* torch.int32 */
	fail(x->im, x->path, "'%s': a quantized dtype was expected", x->op);
}

static Value *
to_code(Cx *x, Value *v, int code)
{
	Value *o[5] = {v, b_int(&x->b, code), b_bool(&x->b, 0), b_bool(&x->b, 0), b_none(&x->b)};

	return b_op(&x->b, "aten.to.dtype", 5, o);
}

static Value *
scalar_op(Cx *x, const char *name, Value *v, double s)
{
	Value *o[3] = {v, b_float(&x->b, s), NULL};

	if (!strcmp(name, "aten.mul.Scalar"))
		return b_op(&x->b, name, 2, o);
	o[2] = b_int(&x->b, 1);
	return b_op(&x->b, name, 3, o);
}

/* [C] as [1, .., C, .., 1] for rank r along axis */
static Value *
along(Cx *x, Value *v, int r, int axis)
{
	int64_t d[TORCH_MAXRANK];
	int i;

	for (i = 0; i < r; i++)
		d[i] = i == axis ? v->type->dims[0] : 1;
	return b_op2(&x->b, "aten.view", v, b_ints(&x->b, r, d));
}

static void
set_quant(Cx *x, Node *n, Value *v, Slot *like)
{
	set_value(x, n, v, 0);
	n->res[0]->quant = 1;
	n->res[0]->qaxis = like->qaxis;
	n->res[0]->qscale = like->qscale;
	n->res[0]->qzp = like->qzp;
	n->res[0]->qscales = like->qscales;
	n->res[0]->qzps = like->qzps;
}

/* The number a one-element constant tensor argument holds (the 0-d scale
 * and zero point buffers of 1.13's reference quantized models). */
static double
arg_scalar_tensor(Cx *x, json_t *a, int i)
{
	json_t *arg = json_array_get(a, i), *ix;
	Node *w;
	double v;

	ix = json_object_get(x->im->byname, json_string_value(json_object_get(arg, "node")));
	w = ix ? &x->im->nodes[json_integer_value(ix)] : NULL;
	if (!w || strcmp(json_string_value(json_object_get(w->j, "op")), "get_attr")
	    || !weight_scalar(x->im, json_string_value(json_object_get(w->j, "target")), &v))
		fail(x->im, x->path, "'%s': argument %d must be a one-element constant tensor "
		    "(a weight)", x->op, i);
	return v;
}

/* An f32 input whose quantization is supported; s's value is its floats */
static Slot *
quant_input(Cx *x, json_t *a)
{
	Slot *s = quant_slot(x, a, 0);

	if (s->quant || s->cplx || !s->v->type->elem || s->v->type->elem->kind != TY_F32)
		fail(x->im, x->path, "'%s': only an f32 input is supported", x->op);
	return s;
}

/* The scales (argument 1), zero points (2) and axis (3) of a per-channel
 * op on s, into q: 1-d, one per element of the axis. */
static void
channel_params(Cx *x, json_t *a, Slot *s, Slot *q)
{
	Slot *sc = quant_slot(x, a, 1), *zp = quant_slot(x, a, 2);

	q->qaxis = (int)norm_dim(x, arg_int(x, a, 3), rank_of(s->v));
	if (rank_of(sc->v) != 1 || rank_of(zp->v) != 1 || sc->quant || zp->quant
	    || sc->cplx || zp->cplx || !s->v->type->dims
	    || sc->v->type->dims[0] != s->v->type->dims[q->qaxis]
	    || zp->v->type->dims[0] != s->v->type->dims[q->qaxis])
		fail(x->im, x->path, "'%s': scales and zero points must be 1-d, one per "
		    "element of the axis", x->op);
	q->qscales = sc->v, q->qzps = zp->v;
}

/*
 * quantize_per_tensor(x, scale, zp, dtype): x * (1 / scale) in f32 (the
 * reciprocal rounded to f32, as PyTorch's kernels multiply), rounded half
 * to even, + zp, clamped to the dtype's range (in f64, exact for qint32);
 * its tensor_qparams form reads the scale and zero point from their
 * one-element weights; quantize_per_channel(x, scales, zps, axis, dtype):
 * the same per element of the axis, 1 / scale as the f32 reciprocal;
 * _make_per_tensor/per_channel_quantized_tensor: the integers with their
 * parameters; int_repr: the integers; dequantize: (q - zp) in f64 (exact),
 * to f32, times the scale.
 */
static void
quant(Cx *x, Node *n, json_t *a)
{
	const char *op = x->op;
	json_t *val = json_object_get(n->j, "value");
	Slot *s, like = {0};
	Value *v;
	double lo, hi;
	int code;

	if (!strcmp(op, "aten.quantize_per_tensor")
	    || !strcmp(op, "aten.quantize_per_tensor.tensor_qparams")) {
		float inv;
		int qp = strcmp(op, "aten.quantize_per_tensor") != 0;
		double scale = qp ? arg_scalar_tensor(x, a, 1) : arg_float(x, a, 1);
		double zp = qp ? arg_scalar_tensor(x, a, 2) : (double)arg_int(x, a, 2);
		s = quant_input(x, a);
		code = quant_range(x, val, &lo, &hi);
		if (!(scale > 0) || !isfinite(scale) || zp < lo || zp > hi || zp != floor(zp))
			fail(x->im, x->path, "'%s': only a positive scale and a zero point in the "
			    "dtype's range are supported", op);
		inv = 1.0f / (float)scale;
		v = b_op1(&x->b, "aten.round", scalar_op(x, "aten.mul.Scalar", s->v, inv));
		v = scalar_op(x, "aten.add.Scalar", to_float(x, v, TY_F64), zp);
		v = b_op3(&x->b, "aten.clamp", v, b_float(&x->b, lo), b_float(&x->b, hi));
		like.qaxis = -1, like.qscale = scale, like.qzp = (int64_t)zp;
		set_quant(x, n, to_code(x, v, code), &like);
		return;
	}
	if (!strcmp(op, "aten.quantize_per_channel")) {
		/* per channel c: x * (1.0f / scales[c]) in f32, as per tensor */
		int r;

		s = quant_input(x, a);
		r = rank_of(s->v);
		code = quant_range(x, val, &lo, &hi);
		channel_params(x, a, s, &like);
		v = b_op1(&x->b, "aten.reciprocal", to_float(x, like.qscales, TY_F32));
		v = b_op1(&x->b, "aten.round", binop(x, "aten.mul.Tensor", s->v,
		    along(x, v, r, like.qaxis)));
		v = binop(x, "aten.add.Tensor", to_float(x, v, TY_F64),
		    along(x, to_float(x, like.qzps, TY_F64), r, like.qaxis));
		v = b_op3(&x->b, "aten.clamp", v, b_float(&x->b, lo), b_float(&x->b, hi));
		set_quant(x, n, to_code(x, v, code), &like);
		return;
	}
	if (!strcmp(op, "aten._make_per_tensor_quantized_tensor")
	    || !strcmp(op, "aten._make_per_channel_quantized_tensor")) {
		s = quant_slot(x, a, 0);
		quant_range(x, val, &lo, &hi);
		if (s->quant || s->cplx)
			fail(x->im, x->path, "'%s' of a quantized or complex tensor", op);
		if (!strcmp(op, "aten._make_per_tensor_quantized_tensor")) {
			like.qaxis = -1, like.qscale = arg_float(x, a, 1), like.qzp = arg_int(x, a, 2);
		} else {
			channel_params(x, a, s, &like);
		}
		set_quant(x, n, s->v, &like);
		return;
	}
	if (!strcmp(op, "aten.int_repr")) {
		s = quant_slot(x, a, 0);
		if (!s->quant)
			fail(x->im, x->path, "'%s' of a tensor that is not quantized", op);
		set_value(x, n, s->v, 0);
		return;
	}
	if (!strcmp(op, "aten.dequantize.self")) {
		s = quant_slot(x, a, 0);
		if (!s->quant || value_fk(x, val) != TY_F32)
			fail(x->im, x->path, "'%s': a quantized input and an f32 result expected", op);
		v = to_float(x, s->v, TY_F64);
		if (s->qaxis < 0) {
			v = scalar_op(x, "aten.sub.Scalar", v, (double)s->qzp);
			v = scalar_op(x, "aten.mul.Scalar", to_float(x, v, TY_F32), (float)s->qscale);
		} else {
			int r = rank_of(v);
			v = binop(x, "aten.sub.Tensor", v, along(x, to_float(x, s->qzps, TY_F64), r, s->qaxis));
			v = binop(x, "aten.mul.Tensor", to_float(x, v, TY_F32),
			    along(x, to_float(x, s->qscales, TY_F32), r, s->qaxis));
		}
		set_value(x, n, v, 0);
		return;
	}
	fail(x->im, x->path, "'%s' on quantized tensors is not supported (fxpipe computes "
	    "them as their integers; see man fx-import)", op);
}

void
import_complex(Imp *im, Node *n, const char *opname, json_t *args, json_t *kwargs,
	const char *path)
{
	static int (*const rules[])(Cx *, Node *, json_t *) = {
		views, arith, makers, norms, cat, convert, fft,
	};
	Op *anchor;
	Cx x = {im, {0}, opname, path};
	json_t *a;
	size_t i;
	int na;

	int kind = complex_involved(im, n);

	if (!im->aten)
		fail(im, path, "'%s' involves complex or quantized tensors, which fxpipe supports "
		    "in aten graphs only", opname);
	if (kind == 3)
		fail(im, path, "'%s' involves both complex and quantized tensors: not supported",
		    opname);
	a = bound_args(im, opname, args, kwargs, path, &na);
	/* new ops go before the anchor, which goes at the end */
	anchor = emit(im, "torch.constant.none", 0, NULL, 1,
	    (Type *[]){ty_torch(im->c, TY_TORCH_NONE)});
	x.b = b_at(im->c, anchor);
	if (kind == 2) {
		quant(&x, n, a);
	} else if (!structural(&x, n, a, na)) {
		for (i = 0; i < sizeof rules / sizeof *rules; i++)
			if (rules[i](&x, n, a))
				break;
		if (i == sizeof rules / sizeof *rules)
			fail(im, path, "'%s' on complex tensors is not supported (fxpipe computes "
			    "complex values as pairs of reals; see man fx-import)", opname);
	}
	op_erase(anchor);
	json_decref(a);
}
