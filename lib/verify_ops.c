/*
 * verify_ops.c - each op's own rules, attached to the op table by name
 * (verify_hooks) or, for every torch.aten op, checked against its schema.
 */
#include <string.h>

#include "optable.h"
#include "verify.h"

/* Prints t into a static rotating buffer, for messages. */
static const char *
tystr(const Type *t)
{
	static Buf b[4];
	static int k;

	k = (k + 1) % 4;
	b[k].n = 0;
	if (t)
		print_type(&b[k], t);
	else
		buf_puts(&b[k], "<null>");
	return b[k].p;
}

static Type *
func_type(Op *f)
{
	Attr *a = op_attr(f, "function_type");

	return a && a->kind == AT_TYPE && a->type->kind == TY_FUNC ? a->type : NULL;
}

static int
verify_func(Op *op)
{
	Type *ft = func_type(op);
	Block *entry = op->nregs ? op->regs[0].first : NULL;
	int i;

	if (!op_sym_name(op)) {
		op_error(op, "'func.func' op requires attribute 'sym_name'");
		return -1;
	}
	if (!ft) {
		op_error(op, "'func.func' op requires a function type 'function_type'");
		return -1;
	}
	if (verify_type_bounds(op, ft))
		return -1;
	if (!entry)
		return 0;
	if (entry->nargs != ft->nin) {
		op_error(op, "entry block must have %d arguments to match function signature", ft->nin);
		return -1;
	}
	for (i = 0; i < ft->nin; i++)
		if (entry->args[i]->type != ft->sub[i]) {
			op_error(op, "type of entry block argument #%d('%s') must match the type of the corresponding argument in function signature('%s')",
			    i, tystr(entry->args[i]->type), tystr(ft->sub[i]));
			return -1;
		}
	return 0;
}

static int
verify_return(Op *op)
{
	Op *f = block_parent_op(op->parent);
	Type *ft;
	int i, nout;

	if (!f || !op_is(f, "func.func") || !(ft = func_type(f))) {
		op_error(op, "'func.return' op expects parent op 'func.func'");
		return -1;
	}
	nout = ft->nsub - ft->nin;
	if (op->nopnds != nout) {
		op_error(op, "'func.return' op has %d operands, but enclosing function (@%s) returns %d",
		    op->nopnds, op_sym_name(f), nout);
		return -1;
	}
	for (i = 0; i < nout; i++)
		if (OPND(op, i)->type != ft->sub[ft->nin + i]) {
			op_error(op, "type of return operand %d ('%s') doesn't match function result type ('%s') in function @%s",
			    i, tystr(OPND(op, i)->type), tystr(ft->sub[ft->nin + i]), op_sym_name(f));
			return -1;
		}
	return 0;
}

static int
verify_call(Op *op)
{
	Attr *callee = op_attr(op, "callee");
	Op *m = op_ancestor(op, "builtin.module"), *f;
	Type *ft;
	int i;

	if (!callee || callee->kind != AT_SYMREF)
		return -1;      /* verify_needs said so */
	if (!m || !(f = symtab_lookup(m, callee->s)) || !(ft = func_type(f))) {
		op_error(op, "'func.call' op '%s' does not reference a valid function", callee->s);
		return -1;
	}
	if (op->nopnds != ft->nin || op->nres != ft->nsub - ft->nin) {
		op_error(op, "'func.call' op incorrect number of operands or results for callee");
		return -1;
	}
	for (i = 0; i < op->nopnds; i++)
		if (OPND(op, i)->type != ft->sub[i]) {
			op_error(op, "'func.call' op operand type mismatch: expected operand type '%s', but provided '%s' for operand number %d",
			    tystr(ft->sub[i]), tystr(OPND(op, i)->type), i);
			return -1;
		}
	for (i = 0; i < op->nres; i++)
		if (op->res[i].type != ft->sub[ft->nin + i]) {
			op_error(op, "'func.call' op result type mismatch at index %d", i);
			return -1;
		}
	return 0;
}

/* Elementwise arith/math ops: every operand and result of one type. */
static int
verify_same_type(Op *op)
{
	Type *t = op->nres ? op->res[0].type : OPND(op, 0)->type;
	int i;

	if (op_is(op, "math.fpowi") || !op->nopnds)
		return 0;

	for (i = 0; i < op->nopnds; i++)
		if (OPND(op, i)->type != t) {
			op_error(op, "'%s' op requires the same type for all operands and results", op->name);
			return -1;
		}
	return 0;
}

static int
verify_empty(Op *op)
{
	Type *t = op->res[0].type;
	int i, ndyn = 0;

	if (t->kind != TY_TENSOR || !t->ranked) {
		op_error(op, "'tensor.empty' op result must be a ranked tensor");
		return -1;
	}
	for (i = 0; i < t->rank; i++)
		ndyn += t->dims[i] == DYN;
	if (ndyn != op->nopnds) {
		op_error(op, "'tensor.empty' op incorrect number of dynamic sizes, has %d, expected %d",
		    op->nopnds, ndyn);
		return -1;
	}
	return 0;
}

/* linalg structured ops: ins and outs from operand_segment_sizes; on
 * tensors each out gives a result of its type. */
static int
verify_structured(Op *op)
{
	Attr *seg = op_attr(op, "operand_segment_sizes");
	int i, nin, nout;

	if (!seg || seg->kind != AT_DENSE_ARRAY || seg->n != 2
	    || seg->ints[0] + seg->ints[1] != op->nopnds) {
		op_error(op, "'%s' op operand_segment_sizes must give the ins and outs of its %d operands",
		    op->name, op->nopnds);
		return -1;
	}
	nin = seg->ints[0];
	nout = seg->ints[1];
	int ntensor = 0;
	for (i = nin; i < nin + nout; i++)
		ntensor += OPND(op, i)->type->kind == TY_TENSOR;
	if (op->nres != ntensor) {
		op_error(op, "'%s' op expected %d results, one per tensor out, but has %d",
		    op->name, ntensor, op->nres);
		return -1;
	}
	for (i = 0; i < op->nres; i++)
		if (op->res[i].type != OPND(op, nin + i)->type) {
			op_error(op, "'%s' op result #%d type '%s' must match its out '%s'",
			    op->name, i, tystr(op->res[i].type), tystr(OPND(op, nin + i)->type));
			return -1;
		}
	return 0;
}

static int
verify_generic(Op *op)
{
	Attr *maps = op_attr(op, "indexing_maps"), *its = op_attr(op, "iterator_types");
	Block *body = op->regs[0].first;
	size_t i;

	if (verify_structured(op))
		return -1;
	if (!maps || maps->kind != AT_ARRAY || (int)maps->n != op->nopnds) {
		op_error(op, "'linalg.generic' op expected indexing_maps to have one map per operand (%d)", op->nopnds);
		return -1;
	}
	if (!its || its->kind != AT_ARRAY) {
		op_error(op, "'linalg.generic' op requires attribute 'iterator_types'");
		return -1;
	}
	for (i = 0; i < maps->n; i++) {
		AffMap *m = maps->elts[i]->kind == AT_AFFINE_MAP ? maps->elts[i]->map : NULL;
		Type *t = OPND(op, i)->type;
		int rank = ty_isshaped(t) ? t->rank : 0;
		if (!m || m->ndims != (int)its->n) {
			op_error(op, "'linalg.generic' op expected indexing_map #%zu to have %zu dim(s) to match the number of loops", i, its->n);
			return -1;
		}
		if (m->nres != rank) {
			op_error(op, "'linalg.generic' op expected operand rank (%d) to match the result rank of indexing_map #%zu (%d)", rank, i, m->nres);
			return -1;
		}
	}
	if (!body || body->nargs != op->nopnds) {
		op_error(op, "'linalg.generic' op expected as many region arguments as operands (%d)", op->nopnds);
		return -1;
	}
	for (i = 0; i < (size_t)op->nopnds; i++) {
		Type *t = OPND(op, i)->type, *e = ty_isshaped(t) ? t->elem : t;
		if (body->args[i]->type != e) {
			op_error(op, "'linalg.generic' op expected type of bb argument #%zu ('%s') to match element or self type of the corresponding operand ('%s')",
			    i, tystr(body->args[i]->type), tystr(e));
			return -1;
		}
	}
	return 0;
}

static int
verify_yield(Op *op)
{
	Op *p = block_parent_op(op->parent);
	Attr *seg = p ? op_attr(p, "operand_segment_sizes") : NULL;
	int i, nin;

	if (!p || !op_is(p, "linalg.generic") || !seg || seg->kind != AT_DENSE_ARRAY)
		return 0;
	nin = seg->ints[0];
	if (op->nopnds != seg->ints[1]) {
		op_error(op, "'linalg.yield' op expected number of yield values (%d) to match the number of outs (%d)",
		    op->nopnds, (int)seg->ints[1]);
		return -1;
	}
	for (i = 0; i < op->nopnds; i++) {
		Type *t = OPND(p, nin + i)->type;
		if (OPND(op, i)->type != (ty_isshaped(t) ? t->elem : t)) {
			op_error(op, "'linalg.yield' type of yield operand %d ('%s') doesn't match the element type of the enclosing linalg.generic op ('%s')",
			    i + 1, tystr(OPND(op, i)->type), tystr(ty_isshaped(t) ? t->elem : t));
			return -1;
		}
	}
	return 0;
}

/* torch.constant.*: the result type and value kind of each */
static const struct {
	const char *op;
	TypeKind ty;
	AttrKind at;
} constants[] = {
	{"torch.constant.int", TY_TORCH_INT, AT_INT},
	{"torch.constant.float", TY_TORCH_FLOAT, AT_FLOAT},
	{"torch.constant.bool", TY_TORCH_BOOL, AT_INT},
	{"torch.constant.str", TY_TORCH_STR, AT_STR},
	{"torch.constant.device", TY_TORCH_DEVICE, AT_STR},
	{"torch.constant.none", TY_TORCH_NONE, AT_UNIT},
};

static int
verify_torch_constant(Op *op)
{
	size_t i;

	for (i = 0; i < sizeof constants / sizeof *constants; i++) {
		if (!op_is(op, constants[i].op))
			continue;
		Attr *v = op_attr(op, "value");
		if (op->res[0].type->kind != constants[i].ty
		    || (constants[i].at != AT_UNIT && (!v || v->kind != constants[i].at))) {
			op_error(op, "'%s' op has a result of type '%s' or a value that does not fit it",
			    op->name, tystr(op->res[0].type));
			return -1;
		}
	}
	return 0;
}

/* ---- torch.aten ops against their schema ---- */

/* Does type t fit the schema type s (e.g. "Optional[List[int]]")? */
/* A Scalar: a number, or a union of numbers (!torch.union<float, int>). */
static int
is_scalar(const Type *t)
{
	int i;

	if (t->kind == TY_TORCH_UNION) {
		for (i = 0; i < t->nsub; i++)
			if (!is_scalar(t->sub[i]))
				return 0;
		return t->nsub > 0;
	}
	return t->kind == TY_TORCH_INT || t->kind == TY_TORCH_FLOAT
	    || t->kind == TY_TORCH_BOOL || t->kind == TY_TORCH_NUMBER;
}

static int
fits(const Type *t, const char *s, size_t n)
{
#define IS(lit) (n == sizeof(lit) - 1 && !strncmp(s, lit, n))
	if (t->kind == TY_TORCH_ANY)
		return 1;
	if (n > 9 && !strncmp(s, "Optional[", 9)) {
		if (t->kind == TY_TORCH_NONE)
			return 1;
		if (t->kind == TY_TORCH_OPTIONAL)
			return fits(t->elem, s + 9, n - 10);
		return fits(t, s + 9, n - 10);
	}
	if (n > 5 && !strncmp(s, "List[", 5))
		return t->kind == TY_TORCH_LIST;
	if (IS("Tensor"))
		return ty_istorchtensor(t);
	if (IS("int"))
		return t->kind == TY_TORCH_INT;
	if (IS("float"))
		return t->kind == TY_TORCH_FLOAT;
	if (IS("bool"))
		return t->kind == TY_TORCH_BOOL;
	if (IS("str"))
		return t->kind == TY_TORCH_STR;
	if (IS("Device"))
		return t->kind == TY_TORCH_DEVICE;
	if (IS("Generator"))
		return t->kind == TY_TORCH_GENERATOR;
	if (IS("Scalar"))
		return is_scalar(t);
	return 1;   /* generic `t` and the rest: anything */
#undef IS
}

/* A none result where the schema says Tensor: the gradients that an
 * op's output_mask leaves uncomputed (convolution_backward), as
 * torch-mlir types them. */
static int
undefined_ok(Op *op, int i)
{
	return op->res[i].type->kind == TY_TORCH_NONE
	    && strstr(op->info->sig->args, "List[bool] output_mask") != NULL;
}

static const char *
describe(const char *s, size_t n, char *buf, size_t bn)
{
	snprintf(buf, bn, "%.*s", (int)n, s);
	return buf;
}

int
verify_torch_op(Op *op)
{
	const char *p = op->info->sig->args, *q;
	int i;
	char want[96];

	for (i = 0; i < op->nopnds && *p; i++, p = *q ? q + 1 : q) {
		q = strchr(p, ',');
		/* a comma inside "[...]" defaults belongs to the argument */
		const char *sp;
		if (*p == '*')
			p++;
		sp = strchr(p, ' ');
		q = sp;
		while (*q && *q != ',') {
			if (*q == '[')
				q = strchr(q, ']') ? strchr(q, ']') : q + strlen(q);
			if (*q)
				q++;
		}
		if (!fits(OPND(op, i)->type, p, sp - p)) {
			op_error(op, "'%s' op operand #%d must be '%s', but got '%s'",
			    op->name, i, describe(p, sp - p, want, sizeof want),
			    tystr(OPND(op, i)->type));
			return -1;
		}
	}
	p = op->info->sig->rets;
	for (i = 0; i < op->nres && *p; i++) {
		q = strchr(p, ',');
		size_t n = q ? (size_t)(q - p) : strlen(p);
		if (!fits(op->res[i].type, p, n) && !undefined_ok(op, i)) {
			op_error(op, "'%s' op result #%d must be '%s', but got '%s'",
			    op->name, i, describe(p, n, want, sizeof want), tystr(op->res[i].type));
			return -1;
		}
		p = q ? q + 1 : p + n;
	}
	return 0;
}

/* The attributes each custom form prints without its name (verify.h). */
const AttrNeed attr_needs[] = {
	{"arith.constant", "value", -1, -1, "an attribute"},
	{"arith.cmpf", "predicate", AT_INT, -1, "an integer"},
	{"arith.cmpi", "predicate", AT_INT, -1, "an integer"},
	{"func.call", "callee", AT_SYMREF, 0, "a flat symbol reference"},
	{"linalg.index", "dim", AT_INT, -1, "an integer"},
	{"tensor.concat", "dim", AT_INT, -1, "an integer"},
	{"tensor.expand_shape", "reassociation", AT_ARRAY, -1, "an array"},
	{"tensor.collapse_shape", "reassociation", AT_ARRAY, -1, "an array"},
	{"torch.operator", "name", AT_STR, -1, "a string"},
	{"torch.runtime.assert", "message", AT_STR, -1, "a string"},
	{"cf.assert", "msg", AT_STR, -1, "a string"},
	{"torch.class_type", "sym_name", AT_STR, -1, "a string"},
	{"torch.attr", "name", AT_STR, -1, "a string"},
	{"torch.attr", "type", AT_TYPE, -1, "a type"},
	{"torch.method", "name", AT_STR, -1, "a string"},
	{"torch.method", "function", AT_SYMREF, 0, "a flat symbol reference"},
	{"torch.slot", "name", AT_STR, -1, "a string"},
	{"torch.global_slot", "sym_name", AT_STR, -1, "a string"},
	{"torch.global_slot", "typeBound", AT_TYPE, -1, "a type"},
	{"torch.initialize.global_slots", "slotSymNames", AT_ARRAY, -1, "an array"},
	{"torch.symbolic_int", "symbol_name", AT_STR, -1, "a string"},
	{"torch.bind_symbolic_shape", "shape_expressions", AT_AFFINE_MAP, -1, "an affine map"},
	{"fxvm.executable", "sym_name", AT_STR, -1, "a string"},
	{"fxvm.kernel", "sym_name", AT_STR, -1, "a string"},
	{"fxvm.global", "sym_name", AT_STR, -1, "a string"},
	{"fxvm.global", "type", AT_TYPE, -1, "a type"},
	{"fxvm.global", "value", -1, -1, "an attribute"},
	{"fxvm.result", "index", AT_INT, -1, "an integer"},
	{"fxvm.alloc", "offset", AT_INT, -1, "an integer"},
	{"fxvm.view", "offset", AT_INT, -1, "an integer"},
	{"fxvm.constant", "global", AT_SYMREF, 0, "a flat symbol reference"},
	{"fxvm.dispatch", "kernel", AT_SYMREF, 0, "a flat symbol reference"},
	{"fxvm.dispatch", "grid", AT_DENSE_ARRAY, 3, "an array of 3 integers"},
	{"fxvm.fill", "value", -1, -1, "an attribute"},
	{NULL, NULL, 0, 0, NULL},
};

int
verify_needs(Op *op)
{
	const AttrNeed *r;
	int bad = 0;

	for (r = op->info->needs; r->op && strcmp(r->op, op->name) == 0; r++) {
		Attr *a = op_attr(op, r->attr);
		if (a && (r->kind < 0 || (a->kind == (AttrKind)r->kind &&
		    (r->n < 0 || a->n == (size_t)r->n))))
			continue;
		op_error(op, "'%s' op requires attribute '%s' (%s)", op->name, r->attr, r->what);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* fxvm.fill's optional interior = array<i64: offsets..., sizes...>: a box
 * of its static tensor that the fill need not reach (formats/fxvm.md) */
static int
verify_fxfill(Op *op)
{
	Attr *a = op_attr(op, "interior");
	Type *t = op->nopnds == 1 ? OPND(op, 0)->type : NULL;
	int r, i;

	if (!a)
		return 0;
	if (!t || t->kind != TY_TENSOR || !ty_static(t) || a->kind != AT_DENSE_ARRAY
	    || a->n != 2 * (size_t)(r = t->rank)) {
		op_error(op, "'fxvm.fill' op: 'interior' must be array<i64: offsets, sizes> of a "
		    "static tensor's rank, twice over");
		return -1;
	}
	for (i = 0; i < r; i++)
		if (a->ints[i] < 0 || a->ints[r + i] < 0 || a->ints[i] > t->dims[i] - a->ints[r + i]) {
			op_error(op, "'fxvm.fill' op: 'interior' dimension %d (offset %lld, size %lld) is "
			    "not inside the extent %lld", i, (long long)a->ints[i], (long long)a->ints[r + i],
			    (long long)t->dims[i]);
			return -1;
		}
	return 0;
}

const OpHook verify_hooks[] = {
	{"func.func", verify_func},
	{"func.return", verify_return},
	{"fxvm.fill", verify_fxfill},
	{"func.call", verify_call},
	{"tensor.empty", verify_empty},
	{"tensor.concat", verify_concat},
	{"linalg.generic", verify_generic},
	{"linalg.yield", verify_yield},
	{"linalg.matmul", verify_structured},
	{"linalg.batch_matmul", verify_structured},
	{"linalg.fill", verify_structured},
	{"linalg.conv_*", verify_structured},
	{"linalg.depthwise_conv_*", verify_structured},
	{"linalg.pooling_*", verify_structured},
	{"torch.constant.*", verify_torch_constant},
	{"torch.derefine", verify_derefine},
	{"torch.prim.unchecked_cast", verify_unchecked_cast},
	{"torch.tensor_static_info_cast", verify_static_info_cast},
	{"torch_c.to_builtin_tensor", verify_torch_c_tensor},
	{"torch_c.from_builtin_tensor", verify_torch_c_tensor},
	{"torch.prim.ListConstruct", verify_list_construct},
	{"torch.overwrite.tensor.contents", verify_overwrite},
	{"torch.tensor.literal", verify_literal},
	{"torch.vtensor.literal", verify_literal},
	{"torch.aten.permute", verify_permute},
	{"torch.aten._scaled_mm", verify_scaled_mm},
	{"torch.aten._scaled_mm_v2", verify_scaled_mm_v2},
	{"torch.prim.If", verify_prim_if},
	{"torch.prim.Loop", verify_prim_loop},
	{"torch.shape.calculate", verify_calculate},
	{"torch.dtype.calculate", verify_calculate},
	{"torch.class_type", verify_class_type},
	{"torch.method", verify_method},
	{"torch.nn_module", verify_nn_module},
	{"torch.global_slot.module_initializer", verify_module_initializer},
	{"torch.bind_symbolic_shape", verify_bind_symbolic_shape},
	{"arith.addf", verify_same_type}, {"arith.subf", verify_same_type},
	{"arith.mulf", verify_same_type}, {"arith.divf", verify_same_type},
	{"arith.remf", verify_same_type}, {"arith.maxf", verify_same_type},
	{"arith.minf", verify_same_type}, {"arith.negf", verify_same_type},
	{"arith.maximumf", verify_same_type}, {"arith.minimumf", verify_same_type},
	{"arith.addi", verify_same_type}, {"arith.subi", verify_same_type},
	{"arith.muli", verify_same_type}, {"arith.divsi", verify_same_type},
	{"arith.divui", verify_same_type}, {"arith.remsi", verify_same_type},
	{"arith.remui", verify_same_type}, {"arith.andi", verify_same_type},
	{"arith.ori", verify_same_type}, {"arith.xori", verify_same_type},
	{"arith.maxsi", verify_same_type}, {"arith.minsi", verify_same_type},
	{"math.*", verify_same_type},
	{NULL, NULL},
};

const OpTable verify_optables[] = {
	OPTABLE("verifier", verify_hooks, ""),
	OPTABLE_AT("required attribute", attr_needs, AttrNeed, op, ""),
	OPTABLE("constant verifier", constants, ""),
	{NULL},
};
