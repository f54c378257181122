/*
 * pass_reduce_op_variants.c - torch-reduce-op-variants.
 *
 * needs:       a func.func of torch ops, value and non-value tensors mixed
 *              (what fx-import prints).
 * guarantees:  every trailing-underscore in-place op (`relu_`, `add_`,
 *              `copy_`, ...) and every `out=` form (a torch.operator
 *              "aten.X.out") becomes its value-semantic op on
 *              copy.to_vtensor'ed operands, followed by copy.to_tensor,
 *              copy.to_vtensor and torch.overwrite.tensor.contents into
 *              the mutated tensor, whose handle replaces the op's result
 *              (torch-mlir's ReduceOpVariants); a promoted result is
 *              cast into the mutated tensor's dtype (to.dtype) where
 *              PyTorch allows the cast.  In-place views (`squeeze_`,
 *              `t_`, ...) become the view op on the same handle when
 *              nothing uses the handle after them.  Value-semantic ops
 *              with non-value operands read them through copy.to_vtensor
 *              (lists and optionals of them rebuilt of the copies) and,
 *              for non-value results, hand their result back through
 *              copy.to_tensor.  A torch.operator naming a registered aten
 *              op becomes that op; torch.tensor.literal a vtensor.literal
 *              copied into a fresh tensor; CPU flash attention whose
 *              logsumexp is unused, scaled_dot_product_attention.
 *              Refused with an error, where a guess could be wrong: a list
 *              or optional of non-value tensors not built here or that a
 *              list op may change; a cast PyTorch refuses; norms that may
 *              update running statistics held in non-value tensors.
 * invalidates: op identities; the result names of replaced ops.
 */
#include <string.h>

#include "decompose.h"
#include "pass.h"
#include "torch.h"

static Type *
vt_of(Ctx *c, const Type *t)
{
	return tt_vt(c, tt_rank(t), t->dims, t->elem);
}

static Value *
to_vtensor(Ctx *c, Op *at, Value *v)
{
	Type *t;
	Op *op;

	if (v->type->kind != TY_TORCH_TENSOR)
		return v;
	t = vt_of(c, v->type);
	op = op_new(c, "torch.copy.to_vtensor", 1, &v, 1, &t, 0, at->loc);
	op_insert_before(at, op);
	return RES(op, 0);
}

static Value *
to_tensor(Ctx *c, Op *at, Value *v, Type *t)
{
	Op *op = op_new(c, "torch.copy.to_tensor", 1, &v, 1, &t, 0, at->loc);

	op_insert_before(at, op);
	return RES(op, 0);
}

/* Does t hold non-value tensors: !torch.tensor, or a list or optional
 * of them? */
static int
holds_nonvalue(const Type *t)
{
	if (t->kind == TY_TORCH_LIST || t->kind == TY_TORCH_OPTIONAL)
		return t->elem && holds_nonvalue(t->elem);
	return t->kind == TY_TORCH_TENSOR;
}

/* t with its non-value tensors made value tensors. */
static Type *
valued(Ctx *c, Type *t)
{
	if (t->kind == TY_TORCH_LIST)
		return ty_torch_list(c, valued(c, t->elem));
	if (t->kind == TY_TORCH_OPTIONAL)
		return ty_torch_optional(c, valued(c, t->elem));
	return t->kind == TY_TORCH_TENSOR ? vt_of(c, t) : t;
}

/* Can the non-value tensors v holds be read at the op?  Only when v is
 * built here, element by element: a list or optional from outside (an
 * argument, a call's result) hides which tensors it holds. */
static int
readable(Value *v)
{
	Op *d = v->def;
	int i;

	if (v->type->kind == TY_TORCH_TENSOR || !holds_nonvalue(v->type))
		return 1;
	if (d && op_is(d, "torch.derefine"))
		return readable(OPND(d, 0));
	if (!d || !op_is(d, "torch.prim.ListConstruct") || d_list_mutable(v))
		return 0;
	for (i = 0; i < d->nopnds; i++)
		if (!readable(OPND(d, i)))
			return 0;
	return 1;
}

/* v read as a value just before `at`: tensors through copy.to_vtensor,
 * lists and optionals of them built again from those copies (readable()
 * said how).  Reading at the op is what the op itself does. */
static Value *
read_value(Ctx *c, Op *at, Value *v)
{
	Op *d = v->def, *nop;
	int i;

	if (v->type->kind == TY_TORCH_TENSOR)
		return to_vtensor(c, at, v);
	if (!holds_nonvalue(v->type) || !d)
		return v;
	if (op_is(d, "torch.derefine")) {
		Value *x = OPND(d, 0);
		Type *t;
		if (!holds_nonvalue(x->type))
			return v;       /* None: nothing to read */
		x = read_value(c, at, x);
		t = ty_torch_optional(c, x->type);
		nop = op_new(c, "torch.derefine", 1, &x, 1, &t, 0, d->loc);
	} else {
		Value *e[d->nopnds + 1];
		Type *t = valued(c, v->type);
		for (i = 0; i < d->nopnds; i++)
			e[i] = read_value(c, at, OPND(d, i));
		nop = op_new(c, "torch.prim.ListConstruct", d->nopnds, e, 1, &t, 0, d->loc);
	}
	op_insert_before(at, nop);
	return RES(nop, 0);
}

/* 0, or -1 after saying which operand of op cannot be read as a value. */
static int
check_readable(Op *op)
{
	char buf[128];
	int i;

	for (i = 0; i < op->nopnds; i++) {
		Buf b = {0};
		if (readable(OPND(op, i)))
			continue;
		print_type(&b, OPND(op, i)->type);
		snprintf(buf, sizeof buf, "%.*s", (int)b.n, b.p);
		buf_free(&b);
		op_error(op, "failed to legalize operation '%s' that was explicitly marked "
		    "illegal: operand #%d (%s) holds non-value tensors not built "
		    "element by element in this function, so they cannot be read as values",
		    op->name, i, buf);
		return -1;
	}
	return 0;
}

/* A copy of op named name on value-semantic operands (the first n of
 * op's), with vtensor results. */
static Op *
value_op(Ctx *c, Op *op, const char *name, int n)
{
	Value *v[n + 1];
	Type *t[op->nres + 1];
	Op *nop;
	int i;

	for (i = 0; i < n; i++)
		v[i] = read_value(c, op, OPND(op, i));
	for (i = 0; i < op->nres; i++)
		t[i] = tt_is(RES(op, i)->type) ? vt_of(c, RES(op, i)->type) : RES(op, i)->type;
	nop = op_new(c, name, n, v, op->nres, t, 0, op->loc);
	for (i = 0; i < op->nattrs; i++)
		if (strcmp(op->attrs[i].name, "name"))
			op_set_attr(c, nop, op->attrs[i].name, op->attrs[i].val);
	op_insert_before(op, nop);
	return nop;
}

static void
replace_by_results(Ctx *c, Op *op, Op *by)
{
	Value *v[op->nres + 1];
	int i;

	for (i = 0; i < op->nres; i++)
		v[i] = RES(by, i);
	torch_replace(c, op, v);
}

/* The value op overwrites `dst`: to_tensor, to_vtensor, overwrite. */
static void
overwrite(Ctx *c, Op *at, Value *val, Value *dst)
{
	Value *v[2];
	Op *ow;

	v[0] = to_vtensor(c, at, to_tensor(c, at, val, dst->type));
	v[1] = dst;
	ow = op_new(c, "torch.overwrite.tensor.contents", 2, v, 0, NULL, 0, at->loc);
	op_insert_before(at, ow);
}

/* op's results replaced by the mutated handle dst. */
static int
int_dtype(const Type *d)
{
	return d->kind == TY_INT && !dt_isbool(d);
}

/* The value nop computes, in the dtype of dst, which it overwrites.
 * PyTorch computes an in-place or out= op in the promoted dtype and casts
 * the result to the written tensor's (add_ of f32 by f64 adds in f64):
 * the value op keeps its own result type and a to.dtype follows.  NULL,
 * after an error, where PyTorch refuses the cast (a float result into an
 * integer tensor, a number into bool). */
static Value *
in_dst_dtype(Ctx *c, Op *op, Op *nop, Value *dst)
{
	Type *t[nop->nres + 1], *want = tt_dtype(dst->type), *got;
	Value *v[5];
	Op *to;
	int i;

	for (i = 0; i < nop->nres; i++)
		t[i] = RES(nop, i)->type;
	if (!want || !torch_infer(c, nop, t) || !tt_is(t[0]) || !(got = tt_dtype(t[0]))
	    || got == want)
		return RES(nop, 0);
	/* PyTorch's can_cast: bool into anything, an integer into an integer
	 * or a float, a float into a float (complex: not taken here) */
	if (!dt_isbool(got) && !(int_dtype(got) && (int_dtype(want) || dt_isfloat(want)))
	    && !(dt_isfloat(got) && dt_isfloat(want))) {
		op_error(op, "'%s' writes a result of dtype code %d into a tensor of dtype "
		    "code %d, a cast PyTorch refuses", op->name, dt_code(got), dt_code(want));
		return NULL;
	}
	value_set_type(RES(nop, 0), t[0]);
	B b = b_at(c, op);
	v[0] = RES(nop, 0), v[1] = b_int(&b, dt_code(want)), v[2] = v[3] = b_bool(&b, 0);
	v[4] = b_none(&b);
	t[0] = vt_of(c, dst->type);
	to = op_new(c, "torch.aten.to.dtype", 5, v, 1, t, 0, op->loc);
	op_insert_before(op, to);
	return RES(to, 0);
}

static int
mutate(Ctx *c, Op *op, const char *name, int n, Value *dst)
{
	Op *nop = value_op(c, op, name, n);
	Value *vals[1] = {dst}, *val;

	if (dst->type->kind != TY_TORCH_TENSOR || op->nres != 1) {
		replace_by_results(c, op, nop);
		return 0;
	}
	if (!(val = in_dst_dtype(c, op, nop, dst)))
		return -1;
	overwrite(c, op, val, dst);
	if (RES(op, 0)->type != dst->type) {
		/* the result has other static info than the handle */
		Type *t = RES(op, 0)->type;
		Op *cast = op_new(c, "torch.tensor_static_info_cast", 1, vals, 1, &t, 0, op->loc);
		op_insert_before(op, cast);
		vals[0] = RES(cast, 0);
	}
	torch_replace(c, op, vals);
	return 0;
}

/* "torch.aten.add_.Tensor" -> "torch.aten.add.Tensor" */
static const OpInfo *
value_variant(Ctx *c, const char *name)
{
	char buf[160];
	const char *base = name + strlen("torch.aten.");
	size_t n = strcspn(base, ".");

	if (n < 2 || base[n - 1] != '_' || strlen(name) >= sizeof buf)
		return NULL;
	if (!strcmp(name, "torch.aten.bernoulli_.float"))   /* not bernoulli.float */
		return opinfo_lookup("torch.aten.bernoulli.p");
	if (!strcmp(name, "torch.aten.normal_"))
		return opinfo_lookup("torch.aten.normal_functional");
	snprintf(buf, sizeof buf, "torch.aten.%.*s%s", (int)n - 1, base, base + n);
	return opinfo_lookup(buf);
}

/* Is every use of op's operand 0 but op itself an op before it in its
 * block?  An in-place view (t_, squeeze_) changes the shape of that very
 * handle, so a later use must see the view: we only rename the result. */
static int
handle_dead_after(Op *op)
{
	for (Use *u = OPND(op, 0)->uses; u; u = u->next) {
		Op *o = u->owner, *p;
		if (o == op)
			continue;
		if (o->parent != op->parent)
			return 0;
		for (p = o->next; p && p != op; p = p->next)
			;
		if (!p)
			return 0;
	}
	return 1;
}

static int
inplace(Ctx *c, Op *op)
{
	const OpInfo *vi = value_variant(c, op->name);
	Op *nop;

	if (!vi) {
		op_error(op, "'%s' is not supported", op->name + 6);
		return -1;
	}
	if (vi->traits & TR_VIEW) {
		if (!handle_dead_after(op)) {
			op_error(op, "'%s' changes the shape of a tensor that is used after it; "
			    "not supported", op->name + 6);
			return -1;
		}
		nop = op_clone(c, op, NULL, NULL);
		nop->name = vi->name;
		nop->info = vi;
		op_insert_before(op, nop);
		replace_by_results(c, op, nop);
		return 0;
	}
	return mutate(c, op, vi->name, op->nopnds, OPND(op, 0));
}

/* torch.operator "aten.X.out": the functional op takes every operand but
 * the last (`out`). */
static const OpInfo *
out_variant(const char *name, int n)
{
	static const char *const sfx[] = {"", ".Tensor", ".Scalar", ".int", ".dim",
		".self", ".dim_IntList", NULL};
	char buf[160];
	size_t len = strlen(name);
	const OpInfo *info;
	int i;

	if (len < 5 || len > 120 || strcmp(name + len - 4, ".out"))
		return NULL;
	for (i = 0; sfx[i]; i++) {
		snprintf(buf, sizeof buf, "torch.%.*s%s", (int)len - 4, name, sfx[i]);
		if ((info = opinfo_lookup(buf)) && info->nopnds == n - 1
		    && (info->traits & TR_VALUESEM))
			return info;
	}
	return NULL;
}

/* The same op under another name, attributes but `name` kept. */
static Op *
renamed(Ctx *c, Op *op, const OpInfo *info)
{
	Value *v[op->nopnds + 1];
	Type *t[op->nres + 1];
	Op *nop;
	int i;

	for (i = 0; i < op->nopnds; i++)
		v[i] = OPND(op, i);
	for (i = 0; i < op->nres; i++)
		t[i] = RES(op, i)->type;
	nop = op_new(c, info->name, op->nopnds, v, op->nres, t, 0, op->loc);
	for (i = 0; i < op->nattrs; i++)
		if (strcmp(op->attrs[i].name, "name"))
			op_set_attr(c, nop, op->attrs[i].name, op->attrs[i].val);
	op_insert_before(op, nop);
	replace_by_results(c, op, nop);
	return nop;
}

/* torch.operator "aten.arange.start_out" (or .out) of int constants: the
 * arange in out's dtype, viewed to out's shape, overwrites out.  PyTorch
 * keeps out's shape when the count is its element count (and writes it
 * row-major); else it resizes out: left, refused. */
static int
arange_out(Ctx *c, Op *op)
{
	const char *name = torch_opname(op);
	int full = name && !strcmp(name, "aten.arange.start_out"), n = op->nopnds, k;
	int64_t a[3] = {0, 0, 1}, count;
	Value *out, *r, *vals[1];
	Type *t;
	B b;

	if (!name || (!full && strcmp(name, "aten.arange.out")) || n != (full ? 4 : 2)
	    || op->nres != 1)
		return 0;
	out = OPND(op, n - 1);
	if (out->type->kind != TY_TORCH_TENSOR || !ty_static(out->type) || !tt_dtype(out->type)
	    || dt_code(tt_dtype(out->type)) < 0)
		return 0;
	for (k = 0; k < n - 1; k++)
		if (!tv_int(OPND(op, k), &a[full ? k : 1]))
			return 0;
	if (a[2] == 0 || (a[2] > 0 && a[1] < a[0]) || (a[2] < 0 && a[1] > a[0]))
		return 0;
	count = a[2] > 0 ? (a[1] - a[0] + a[2] - 1) / a[2] : (a[0] - a[1] - a[2] - 1) / -a[2];
	if (count != ty_numel(out->type))
		return 0;
	b = b_at(c, op);
	r = b_op(&b, "aten.arange.start_step", 7, (Value *[]){b_int(&b, a[0]), b_int(&b, a[1]),
	    b_int(&b, a[2]), b_int(&b, dt_code(tt_dtype(out->type))), b_none(&b), b_none(&b),
	    b_none(&b)});
	r = b_op(&b, "aten.view", 2, (Value *[]){r, b_ints(&b, out->type->rank, out->type->dims)});
	overwrite(c, op, r, out);
	vals[0] = out;
	if ((t = RES(op, 0)->type) != out->type) {
		Op *cast = op_new(c, "torch.tensor_static_info_cast", 1, vals, 1, &t, 0, op->loc);
		op_insert_before(op, cast);
		vals[0] = RES(cast, 0);
	}
	torch_replace(c, op, vals);
	return 1;
}

/* torch.operator "aten._scaled_dot_product_flash_attention_for_cpu"(q, k,
 * v, dropout_p, is_causal, attn_mask, scale) whose logsumexp (result #1)
 * is unused: its output is scaled_dot_product_attention(q, k, v,
 * attn_mask, dropout_p, is_causal, scale, enable_gqa=False), the op
 * PyTorch's CPU dispatch chose it for. */
static int
flash_cpu(Ctx *c, Op *op)
{
	const char *name = torch_opname(op);
	Value *v[8];
	Type *t;
	Op *nop;
	B b;

	if (name && !strncmp(name, "torch.", 6))
		name += 6;   /* torch-mlir names it either way */
	if (!name || strcmp(name, "aten._scaled_dot_product_flash_attention_for_cpu")
	    || op->nopnds != 7 || op->nres != 2 || RES(op, 1)->uses)
		return 0;
	b = b_at(c, op);
	v[0] = OPND(op, 0), v[1] = OPND(op, 1), v[2] = OPND(op, 2);
	v[3] = OPND(op, 5), v[4] = OPND(op, 3), v[5] = OPND(op, 4);
	v[6] = OPND(op, 6), v[7] = b_bool(&b, 0);
	t = RES(op, 0)->type;
	nop = op_new(c, "torch.aten.scaled_dot_product_attention", 8, v, 1, &t, 0, op->loc);
	op_insert_before(op, nop);
	torch_replace(c, op, (Value *[]){RES(nop, 0), NULL});
	return 1;
}

static int reduce_op(Ctx *c, Op *op, int *changed);

/* A torch.operator: an out= form, or a registered op under its name. */
static int
generic(Ctx *c, Op *op, int *changed)
{
	const char *name = torch_opname(op);
	char buf[160];
	const OpInfo *info;

	if (!name || strlen(name) > 140 || op->nregs)
		return 0;
	if (arange_out(c, op) || flash_cpu(c, op)) {
		*changed = 1;
		return 0;
	}
	if ((info = out_variant(name, op->nopnds)) && op->nopnds > 0) {
		*changed = 1;
		return mutate(c, op, info->name, op->nopnds - 1, OPND(op, op->nopnds - 1));
	}
	snprintf(buf, sizeof buf, "torch.%s", name);
	if (!(info = opinfo_lookup(buf)) || (info->nopnds >= 0 && info->nopnds != op->nopnds)
	    || (info->nres >= 0 && info->nres != op->nres))
		return 0;
	*changed = 1;
	return reduce_op(c, renamed(c, op, info), changed);
}

static int
has_nonvalue(Op *op)
{
	int i;

	for (i = 0; i < op->nopnds; i++)
		if (holds_nonvalue(OPND(op, i)->type))
			return 1;
	for (i = 0; i < op->nres; i++)
		if (RES(op, i)->type->kind == TY_TORCH_TENSOR)
			return 1;
	return 0;
}

/* A value-semantic op on non-value tensors. */
static void
to_value(Ctx *c, Op *op)
{
	Op *nop = value_op(c, op, op->name, op->nopnds);
	Value *vals[op->nres + 1];
	int i;

	for (i = 0; i < op->nres; i++) {
		vals[i] = RES(nop, i);
		if (RES(op, i)->type->kind == TY_TORCH_TENSOR)
			vals[i] = to_tensor(c, op, vals[i], RES(op, i)->type);
	}
	torch_replace(c, op, vals);
}

/* torch.tensor.literal: the value literal, cast to the result's static
 * info, copied into a fresh tensor, which is what the literal makes. */
static void
tensor_literal(Ctx *c, Op *op)
{
	Attr *a = op_attr(op, "value");
	Type *lt = ty_to_vtensor(c, a->type), *vt = vt_of(c, RES(op, 0)->type);
	Op *lit = op_new(c, "torch.vtensor.literal", 0, NULL, 1, &lt, 0, op->loc);
	Value *v = RES(lit, 0);

	op_set_attr(c, lit, "value", a);
	op_insert_before(op, lit);
	if (vt != lt) {
		Op *cast = op_new(c, "torch.tensor_static_info_cast", 1, &v, 1, &vt, 0, op->loc);
		op_insert_before(op, cast);
		v = RES(cast, 0);
	}
	v = to_tensor(c, op, v, RES(op, 0)->type);
	torch_replace(c, op, &v);
}

/* Norms in training update their running mean and variance in place
 * (operands 3 and 4; the flag is operand 5): a value op would lose that
 * write, which the caller of the function sees.  0, or -1 after an error. */
static int
check_running_stats(Op *op)
{
	static const char *const norms[] = {"torch.aten.batch_norm",
		"torch.aten.native_batch_norm", "torch.aten._native_batch_norm_legit",
		"torch.aten.instance_norm", NULL};
	int i, train = 1;

	for (i = 0; norms[i] && !op_is(op, norms[i]); i++)
		;
	if (!norms[i] || op->nopnds < 6 || (tv_bool(OPND(op, 5), &train) && !train))
		return 0;
	if (!holds_nonvalue(OPND(op, 3)->type) && !holds_nonvalue(OPND(op, 4)->type))
		return 0;
	op_error(op, "'%s' may update its running statistics in place (training is "
	    "not known false), a write its value-semantic form would lose", op->name);
	return -1;
}

static int
reduce_op(Ctx *c, Op *op, int *changed)
{
	if (op_is(op, "torch.tensor.literal") && op_attr(op, "value")
	    && op_attr(op, "value")->type && op_attr(op, "value")->type->kind == TY_TENSOR) {
		*changed = 1;
		tensor_literal(c, op);
		return 0;
	}
	if (op_is(op, "torch.operator"))
		return generic(c, op, changed);
	if (strncmp(op->name, "torch.aten.", 11))
		return 0;
	if (op_has(op, TR_INPLACE)) {
		*changed = 1;
		return check_readable(op) < 0 ? -1 : inplace(c, op);
	}
	if (op_has(op, TR_VALUESEM) && has_nonvalue(op)) {
		if (check_readable(op) < 0 || check_running_stats(op) < 0)
			return -1;
		*changed = 1;
		to_value(c, op);
	}
	return 0;
}

static int
run(Ctx *c, Op *fn, PassArgs *a)
{
	Block *b = fn->nregs ? fn->regs[0].first : NULL;
	Op *op, *next;
	int rc = 0;

	for (; b; b = b->next)
		for (op = b->first; op; op = next) {
			next = op->next;
			if (reduce_op(c, op, &a->changed) < 0)
				rc = -1;
		}
	return rc;
}

const PassInfo pass_torch_reduce_op_variants = {
	.name = "torch-reduce-op-variants",
	.summary = "in-place and out= variants to value-semantic ops with explicit copies",
	.anchor = "func.func",
	.run = run,
};
