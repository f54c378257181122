/*
 * infer.c - shape and dtype inference: finds the rule for an op in the
 * tables of infer_elementwise.c, infer_shape.c and infer_nn.c, and the
 * helpers the rules share.
 */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "infer.h"

typedef struct Slot {
	const char *name;
	const InferRule *rule;
} Slot;

static Slot *slots;
static size_t nslots;

static void
add_rules(const InferRule *r)
{
	size_t i;

	for (; r->name; r++) {
		i = hash_bytes(r->name, strlen(r->name), 0) & (nslots - 1);
		while (slots[i].name && strcmp(slots[i].name, r->name))
			i = (i + 1) & (nslots - 1);
		slots[i].name = r->name;
		slots[i].rule = r;
	}
}

static const InferRule *
find_rule(const char *name)
{
	size_t i;

	if (!slots) {
		optable_require(infer_elementwise_optables);
		optable_require(infer_shape_optables);
		optable_require(infer_nn_optables);
		nslots = 2048;
		slots = xcalloc(nslots, sizeof *slots);
		add_rules(infer_elementwise);
		add_rules(infer_shape);
		add_rules(infer_nn);
	}
	i = hash_bytes(name, strlen(name), 0) & (nslots - 1);
	for (; slots[i].name; i = (i + 1) & (nslots - 1))
		if (!strcmp(slots[i].name, name))
			return slots[i].rule;
	return NULL;
}

/* prim ops with a tensor result. */
static int
infer_prim(Ctx *c, Op *op, Type **out)
{
	Type *t;

	if (op_is(op, "torch.prim.NumToTensor.Scalar")) {
		t = OPND(op, 0)->type;
		t = t->kind == TY_TORCH_INT ? dt_i64(c) : t->kind == TY_TORCH_FLOAT
		    ? dt_f32(c) : t->kind == TY_TORCH_BOOL ? dt_bool(c) : NULL;
		return t && out_set(c, op, out, 0, 0, NULL, t);
	}
	if (op_is(op, "torch.prim.ListUnpack"))
		return infer_list_unpack(c, op, out);
	if (op_is(op, "torch.copy.to_vtensor") || op_is(op, "torch.copy.to_tensor")) {
		t = OPND(op, 0)->type;
		return out_like(c, op, out, 0, t, tt_dtype(t));
	}
	return 0;
}

int
torch_infer(Ctx *c, Op *op, Type **out)
{
	const char *name = torch_opname(op);
	const InferRule *r;

	if (!name)
		return infer_prim(c, op, out);
	if (!(r = find_rule(name)))
		return 0;
	return r->fn(c, op, out, r->arg);
}

/* ---- helpers ---- */

int
out_set(Ctx *c, Op *op, Type **out, int i, int rank, const int64_t *dims,
	Type *dtype)
{
	if (i < op->nres && tt_is(RES(op, i)->type))
		out[i] = tt_make(c, RES(op, i)->type, rank, dims, dtype);
	return 1;
}

int
out_like(Ctx *c, Op *op, Type **out, int i, const Type *t, Type *dtype)
{
	if (!tt_is(t))
		return out_set(c, op, out, i, -1, NULL, dtype);
	return out_set(c, op, out, i, tt_rank(t), t->dims, dtype);
}

Type *
opt_dtype(Ctx *c, Value *v, Type *d)
{
	int64_t code;

	if (!v || tv_none(v))
		return d;
	if (!tv_int(v, &code))
		return NULL;
	return dt_from_code(c, code);
}

int
reduce_dims(const Type *t, const int *mask, int keep, int64_t *dims)
{
	int i, n = 0;

	for (i = 0; i < t->rank; i++) {
		if (!mask[i])
			dims[n++] = t->dims[i];
		else if (keep)
			dims[n++] = 1;
	}
	return n;
}

int
dim_mask(Value *v, int rank, int *mask)
{
	int64_t d[TORCH_MAXRANK];
	int i, n;

	for (i = 0; i < rank; i++)
		mask[i] = 0;
	if (!v || tv_none(v))
		n = 0;
	else if (tv_int(v, &d[0]))
		n = 1;
	else if ((n = tv_ints(v, d, TORCH_MAXRANK)) < 0)
		return -1;
	if (n == 0) {
		for (i = 0; i < rank; i++)
			mask[i] = 1;
		return 0;
	}
	for (i = 0; i < n; i++) {
		int64_t k = tt_dim(d[i], rank);
		if (k < 0)
			return -1;
		mask[k] = 1;
	}
	return 0;
}
