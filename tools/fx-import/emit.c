/* emit.c - ops appended to @main's body at the current node's location:
 * constants right before their use, lists, and the reads and writes of
 * mutated tensors. */
#include "fximport.h"

Op *
emit(Imp *im, const char *name, int n, Value *const *opnds, int nres,
	Type *const *types)
{
	Op *op = op_new(im->c, name, n, opnds, nres, types, 0, im->loc);

	op_append(im->body, op);
	return op;
}

Value *
emit1(Imp *im, const char *name, int n, Value *const *opnds, Type *t)
{
	return RES(emit(im, name, n, opnds, 1, &t), 0);
}

static Value *
constant(Imp *im, const char *name, TypeKind k, Attr *a)
{
	Op *op = emit(im, name, 0, NULL, 1, (Type *[]){ty_torch(im->c, k)});

	if (a)
		op_set_attr(im->c, op, "value", a);
	return RES(op, 0);
}

Value *
c_int(Imp *im, int64_t v)
{
	return constant(im, "torch.constant.int", TY_TORCH_INT, at_int(im->c, v, NULL));
}

Value *
c_float(Imp *im, double v)
{
	return constant(im, "torch.constant.float", TY_TORCH_FLOAT,
	    at_float(im->c, v, ty_float(im->c, TY_F64)));
}

Value *
c_bool(Imp *im, int v)
{
	return constant(im, "torch.constant.bool", TY_TORCH_BOOL, at_bool(im->c, v));
}

Value *
c_str(Imp *im, const char *s)
{
	return constant(im, "torch.constant.str", TY_TORCH_STR, at_str(im->c, s));
}

Value *
c_device(Imp *im, const char *s)
{
	return constant(im, "torch.constant.device", TY_TORCH_DEVICE, at_str(im->c, s));
}

Value *
c_none(Imp *im)
{
	return constant(im, "torch.constant.none", TY_TORCH_NONE, NULL);
}

Value *
list_construct(Imp *im, int n, Value *const *elts, Type *elem)
{
	return emit1(im, "torch.prim.ListConstruct", n, elts, ty_torch_list(im->c, elem));
}

/* The element type torch-mlir gives a list of this schema type's items. */
Type *
torch_list_elem(Imp *im, SType *t)
{
	switch (t->k) {
	case SK_TENSOR:
		return ty_vtensor(im->c, -1, NULL, NULL);
	case SK_INT:
		return ty_torch(im->c, TY_TORCH_INT);
	case SK_FLOAT:
		return ty_torch(im->c, TY_TORCH_FLOAT);
	case SK_BOOL:
		return ty_torch(im->c, TY_TORCH_BOOL);
	case SK_STR:
		return ty_torch(im->c, TY_TORCH_STR);
	case SK_SCALAR:
		return ty_torch(im->c, TY_TORCH_NUMBER);
	case SK_DEVICE:
		return ty_torch(im->c, TY_TORCH_DEVICE);
	case SK_OPTIONAL:
		return ty_torch_optional(im->c, torch_list_elem(im, t->elem));
	case SK_LIST:
		return ty_torch_list(im->c, torch_list_elem(im, t->elem));
	default:
		return ty_torch(im->c, TY_TORCH_ANY);
	}
}

Slot *
slot_new(Imp *im, Value *v)
{
	Slot *s = arena_alloc(im->c, sizeof *s);

	s->v = v;
	return s;
}

/* A mutated tensor is read fresh right before each use. */
Value *
slot_read(Imp *im, Slot *s)
{
	Type *t;

	if (s->written_via_view || (s->base && s->base_writes != s->base->writes))
		fail(im, NULL, "node '%s' is read after an in-place op wrote into %s; "
		    "the graph needs functionalization (fx-export functionalizes aten graphs)",
		    s->name ? s->name : "?", s->written_via_view ? "a view of it"
		    : "the tensor it is a view of");
	if (!s->h)
		return s->v;
	t = s->h->type;
	t = ty_vtensor(im->c, t->ranked ? t->rank : -1, t->dims, t->elem);
	return emit1(im, "torch.copy.to_vtensor", 1, &s->h, t);
}

/* The !torch.tensor an in-place op writes: made when first mutated. */
Value *
slot_handle(Imp *im, Slot *s)
{
	Type *t;

	if (s->h)
		return s->h;
	t = s->v->type;
	if (t->kind != TY_TORCH_VTENSOR)
		return s->v;
	t = ty_torch_tensor(im->c, t->ranked ? t->rank : -1, t->dims, t->elem);
	s->h = emit1(im, "torch.copy.to_tensor", 1, &s->v, t);
	return s->h;
}
