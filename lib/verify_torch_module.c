/*
 * verify_torch_module.c - the rules of torch's module structure: what a
 * class type and an nn_module object may hold and how their members and
 * slots agree, what a method may name, how the global slots are
 * initialized, and what a symbolic shape binds.  Bound by name in
 * verify_hooks (verify_ops.c).
 */
#include <string.h>

#include "torch/torch.h"
#include "verify.h"

/* The module (symbol table) that holds op. */
static Op *
symtab_of(Op *op)
{
	Op *p = op;

	while ((p = p->parent ? block_parent_op(p->parent) : NULL))
		if (op_has(p, TR_SYMTAB))
			return p;
	return NULL;
}

static const char *
str_attr(Op *op, const char *name)
{
	Attr *a = op_attr(op, name);

	return a && a->kind == AT_STR ? a->s : "";
}

static Type *
type_attr(Op *op, const char *name)
{
	Attr *a = op_attr(op, name);

	return a && a->kind == AT_TYPE ? a->type : NULL;
}

/* The class name of a !torch.nn.Module<"name"> type, n bytes long; NULL
 * for any other type. */
static const char *
module_class(const Type *t, int *n)
{
	static const char pre[] = "!torch.nn.Module<\"";
	const char *s;

	if (!t || t->kind != TY_OPAQUE || strncmp(t->text, pre, sizeof pre - 1))
		return NULL;
	s = t->text + sizeof pre - 1;
	*n = (int)(strchr(s, '"') - s);
	return s;
}

/* Every op of region 0 is a `want`; the others are reported. */
static int
only_holds(Op *op, const char *want, const char *where)
{
	int bad = 0;

	for (Block *b = op->regs[0].first; b; b = b->next)
		for (Op *o = b->first; o; o = o->next)
			if (!op_is(o, want)) {
				op_error(o, "'%s' op is not allowed inside %s", o->name, where);
				bad = 1;
			}
	return bad ? -1 : 0;
}

/* The i-th member named kind (torch.attr) of a class type, or NULL. */
static Op *
nth_member(Op *cls, const char *kind, int i)
{
	for (Op *o = cls->regs[0].first ? cls->regs[0].first->first : NULL; o; o = o->next)
		if (op_is(o, kind) && i-- == 0)
			return o;
	return NULL;
}

static int
count_ops(Op *op, const char *kind)
{
	int n = 0;

	while (op && nth_member(op, kind, n))
		n++;
	return n;
}

/* torch.class_type: attrs and methods only, each name once. */
int
verify_class_type(Op *op)
{
	for (Op *a = op->regs[0].first ? op->regs[0].first->first : NULL; a; a = a->next) {
		if (!op_is(a, "torch.attr") && !op_is(a, "torch.method")) {
			op_error(a, "'%s' op is not allowed inside `torch.class_type`", a->name);
			return -1;
		}
		for (Op *b = a->next; b; b = b->next)
			if ((op_is(b, "torch.attr") || op_is(b, "torch.method"))
			    && !strcmp(str_attr(a, "name"), str_attr(b, "name"))) {
				op_error(op, "'%s' op has duplicate attr/method with name '%s'",
				    op->name, str_attr(a, "name"));
				op_note(a, "see first conflicting attr/method here");
				op_note(b, "see second conflicting attr/method here");
				return -1;
			}
	}
	return 0;
}

/* torch.method: names a private, defined func.func of the module whose
 * first argument is an object of the method's class. */
int
verify_method(Op *op)
{
	Attr *f = op_attr(op, "function");
	Op *cls = op->parent ? block_parent_op(op->parent) : NULL, *m = symtab_of(op), *fn;
	Attr *ft;
	Buf b = {0};
	int n;
	const char *c;

	if (!f || f->kind != AT_SYMREF || !m || !(fn = symtab_lookup(m, f->s))
	    || !op_is(fn, "func.func")) {
		op_error(op, "'@%s' does not reference a valid function", f && f->kind == AT_SYMREF ? f->s : "?");
		return -1;
	}
	if (strcmp(str_attr(fn, "sym_visibility"), "private")) {
		op_error(op, "'@%s' must reference a private function", f->s);
		return -1;
	}
	if (!fn->regs[0].first) {
		op_error(op, "'@%s' must reference a function that is defined (not merely declared)", f->s);
		return -1;
	}
	ft = op_attr(fn, "function_type");
	if (cls && op_is(cls, "torch.class_type") && ft && ft->kind == AT_TYPE
	    && (!ft->type->nin || !(c = module_class(ft->type->sub[0], &n))
	    || (int)strlen(op_sym_name(cls)) != n || strncmp(c, op_sym_name(cls), n))) {
		buf_printf(&b, "!torch.nn.Module<\"%s\">", op_sym_name(cls));
		op_error(op, "the referenced function '%s' must have a first argument of type '%s'", f->s, b.p);
		buf_free(&b);
		return -1;
	}
	return 0;
}

/* Slot i against attr i of the class: the same name, a value the attr's
 * type holds. */
static int
slot_matches(Op *slot, Op *attr, int i)
{
	Type *t = type_attr(attr, "type");
	Buf b = {0};

	if (!strcmp(str_attr(slot, "name"), str_attr(attr, "name")) && t
	    && (OPND(slot, 0)->type == t || torch_subtype(OPND(slot, 0)->type, t)))
		return 0;
	op_error(slot, "'torch.slot' op is expected to match type and name of '\"torch.attr\"() <{name = \"%s\", type = %s}> : () -> ()'",
	    str_attr(attr, "name"), t ? type_text(t, &b) : "?");
	op_note(attr, "see torch.attr at corresponding index %d here", i);
	buf_free(&b);
	return -1;
}

/* torch.nn_module: slots only, one per attr of its class, in order. */
int
verify_nn_module(Op *op)
{
	const char *c;
	char name[256];
	int n, i;
	Op *cls, *m = symtab_of(op);

	if (only_holds(op, "torch.slot", "'torch.nn_module'"))
		return -1;
	if (!(c = module_class(RES(op, 0)->type, &n)) || n >= (int)sizeof name) {
		op_error(op, "'%s' op result must be a !torch.nn.Module", op->name);
		return -1;
	}
	memcpy(name, c, n);
	name[n] = 0;
	if (!m || !(cls = symtab_lookup(m, name)) || !op_is(cls, "torch.class_type")) {
		op_error(op, "'%s' does not reference a valid class type", name);
		return -1;
	}
	if (count_ops(op, "torch.slot") != count_ops(cls, "torch.attr")) {
		op_error(op, "number of 'torch.slot's in a 'torch.nn_module' must match number of 'torch.attr's in the corresponding 'torch.class_type'");
		return -1;
	}
	for (i = 0; nth_member(op, "torch.slot", i); i++)
		if (slot_matches(nth_member(op, "torch.slot", i), nth_member(cls, "torch.attr", i), i))
			return -1;
	return 0;
}

/* The ops a module initializer may hold: those that build the values
 * TorchScript's importer gives global slots. */
static int
allowed_in_initializer(const Op *o)
{
	static const char *const ok[] = {
		"torch.initialize.global_slots", "torch.prim.TupleConstruct",
		"torch.prim.ListConstruct", "torch.prim.DictConstruct",
		"torch.constant.none", "torch.constant.str", "torch.constant.int",
		"torch.constant.float", "torch.constant.bool",
		"torch.linear_params.create", "torch.per_tensor_affine.create",
		"torch.tensor.literal", NULL,
	};
	int i;

	for (i = 0; ok[i]; i++)
		if (op_is(o, ok[i]))
			return 1;
	return 0;
}

/* Is slot name among the first n of names? */
static int
named_in(Attr *names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (names->elts[i]->kind == AT_SYMREF && !strcmp(names->elts[i]->s, name))
			return 1;
	return 0;
}

/* Every global slot of module m initialized by init, and nothing else. */
static int
slots_covered(Op *init, Op *m, Attr *names)
{
	int i, n = (int)names->n, bad = 0;
	Op *s;

	for (s = m->regs[0].first ? m->regs[0].first->first : NULL; s; s = s->next)
		if (op_is(s, "torch.global_slot") && !named_in(names, n, op_sym_name(s)))
			bad = 1;
	for (i = 0; i < n; i++)
		if (!(s = symtab_lookup(m, names->elts[i]->s)) || !op_is(s, "torch.global_slot"))
			bad = 1;
	if (!bad)
		return 0;
	op_error(init, "'%s' op must have one initializer for each global slot in the module", init->name);
	for (s = m->regs[0].first->first; s; s = s->next)
		if (op_is(s, "torch.global_slot") && !named_in(names, n, op_sym_name(s)))
			op_note(s, "missing global slot initializer for @%s", op_sym_name(s));
	for (i = 0; i < n; i++)
		if (!(s = symtab_lookup(m, names->elts[i]->s)) || !op_is(s, "torch.global_slot"))
			op_note(init, "unexpected global slot initializer for non-existent global slot @%s",
			    names->elts[i]->s);
	return -1;
}

/* The initial values against the slots' type bounds. */
static int
values_within_bounds(Op *init, Op *m, Attr *names)
{
	int i;

	for (i = 0; i < (int)names->n; i++) {
		Op *s = symtab_lookup(m, names->elts[i]->s);
		Type *bound = s ? type_attr(s, "typeBound") : NULL, *t = OPND(init, i)->type;
		Buf a = {0}, b = {0};

		if (!bound || t == bound || torch_subtype(t, bound))
			continue;
		op_error(init, "'%s' op initial value for global slot @%s has type '%s' which is not within the bound '%s'",
		    init->name, names->elts[i]->s, type_text(t, &a), type_text(bound, &b));
		buf_free(&a);
		buf_free(&b);
		return -1;
	}
	return 0;
}

/* torch.initialize.global_slots: each slot once, every slot of the
 * module, values within the slots' bounds. */
static int
check_initialize(Op *init, Op *m)
{
	Attr *names = op_attr(init, "slotSymNames");
	int i;

	if (!names || names->kind != AT_ARRAY || (int)names->n != init->nopnds) {
		op_error(init, "'%s' op needs one slot name per value", init->name);
		return -1;
	}
	for (i = 0; i < (int)names->n; i++)
		if (names->elts[i]->kind != AT_SYMREF || named_in(names, i, names->elts[i]->s)) {
			op_error(init, "duplicate initialization of global slot: @%s",
			    names->elts[i]->kind == AT_SYMREF ? names->elts[i]->s : "?");
			return -1;
		}
	return slots_covered(init, m, names) || values_within_bounds(init, m, names) ? -1 : 0;
}

/* torch.global_slot.module_initializer: one per module, ending in
 * torch.initialize.global_slots, holding only the ops that build slot
 * values. */
int
verify_module_initializer(Op *op)
{
	Block *b = op->regs[0].first;
	Op *m = symtab_of(op), *o, *t;
	int bad = 0;

	for (o = op->parent ? op->parent->first : NULL; o; o = o->next)
		if (o != op && op_is(o, op->name)) {
			op_error(op, "there must be only one global slot initializer");
			return -1;
		}
	t = b ? block_terminator(b) : NULL;
	if (!t || !op_is(t, "torch.initialize.global_slots")) {
		op_error(op, "'%s' op must end in torch.initialize.global_slots", op->name);
		return -1;
	}
	if (!m || check_initialize(t, m))
		return -1;
	for (o = b->first; o; o = o->next)
		if (!allowed_in_initializer(o)) {
			op_error(o, "'%s' op is not allowed in a module initializer", o->name);
			bad = 1;
		}
	return bad ? -1 : 0;
}

/* torch.bind_symbolic_shape: one torch.symbolic_int per symbol of the
 * map. */
int
verify_bind_symbolic_shape(Op *op)
{
	Attr *m = op_attr(op, "shape_expressions");
	int i;

	if (!m || m->kind != AT_AFFINE_MAP || m->map->nsyms != op->nopnds - 1) {
		op_error(op, "'%s' op requires equal number of shape symbol args and symbol args to the attached affine map, since they are 1:1 mapped", op->name);
		return -1;
	}
	for (i = 1; i < op->nopnds; i++)
		if (!OPND(op, i)->def || !op_is(OPND(op, i)->def, "torch.symbolic_int")) {
			op_error(op, "'%s' op shape symbol must be produced by a SymbolicIntOp", op->name);
			return -1;
		}
	return 0;
}
