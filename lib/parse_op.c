/*
 * parse_op.c - blocks, regions and operations: block labels and
 * arguments, regions (with the scope each opens), the generic op form and
 * the dispatch to an op's custom form (the op table's hooks, asm_*.c),
 * results and their binding, and p_make, which builds an op for both.
 */
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static BlockRef *block_ref(Parser *p, const Tok *t)
{
	Blocks *bs = p->blocks;
	const char *name = tok_intern(p, t, 0);
	BlockRef r;
	void **slot;

	if (!bs) {
		p_error_at(p, t, "blocks are only allowed inside regions");
		return NULL;
	}
	slot = pmap_slot(&bs->at, name, 1);
	if (*slot)
		return &bs->v[(intptr_t)*slot - 1];
	*slot = (void *)(intptr_t)(bs->n + 1);
	r.name = name;
	r.b = block_new(p->c);
	r.defined = 0;
	r.tok = *t;
	PUSH(bs->v, bs->n, bs->cap, r);
	return &bs->v[bs->n - 1];
}

int p_argdef(Parser *p, ArgDef *a, int with_attrs)
{
	memset(a, 0, sizeof *a);
	if (p_opref(p, &a->ref))
		return -1;
	if (a->ref.idx)
		return p_error_at(p, &a->ref.tok, "invalid block argument name");
	if (p_expect(p, ":") || !(a->type = p_type(p)))
		return -1;
	if (with_attrs && p_is(p, "{")) {
		AttrList l = {0, 0, NULL};

		if (p_attr_dict(p, &l) == 0)
			a->attrs = at_dict(p->c, l.n, l.v);
		free(l.v);
		if (p->err)
			return -1;
	}
	if (p_is(p, "loc") && !(a->loc = parse_loc(p)))
		return -1;
	return 0;
}

static int add_args(Parser *p, Block *b, int n, const ArgDef *args)
{
	int i;

	for (i = 0; i < n; i++) {
		Loc *l = args[i].loc ? args[i].loc : tok_loc(p, &args[i].ref.tok);
		Value *v = block_add_arg(p->c, b, args[i].type, l);

		if (define_name(p, &args[i].ref.tok, args[i].ref.name, 1, &v))
			return -1;
	}
	return 0;
}

/* `^bb1(%a: T, ...):`, the label current. */
static Block *parse_label(Parser *p, Region *r)
{
	Tok t = p->tok;
	BlockRef *br = block_ref(p, &t);
	ArgDef a;

	if (!br)
		return NULL;
	if (br->defined)
		return p_error(p, "redefinition of block '%.*s'", (int)t.n, t.s), NULL;
	br->defined = 1;
	region_append(r, br->b);
	p_skip(p);
	if (p_eat(p, "(")) {
		int n = 0;

		while (!p_is(p, ")") && !p->err) {
			if (n++ && p_expect(p, ","))
				return NULL;
			if (p_argdef(p, &a, 0) || add_args(p, br->b, 1, &a))
				return NULL;
		}
		if (p_expect(p, ")"))
			return NULL;
	}
	if (p_expect(p, ":"))
		return NULL;
	return br->b;
}

/* Ops until `}` or the next label. */
static int parse_block_body(Parser *p, Block *b)
{
	while (!p->err && !p_is(p, "}") && p->tok.kind != T_CARET) {
		Op *op;

		if (p->tok.kind == T_EOF)
			return p_error(p, "expected '}' to end region");
		if (!(op = parse_op(p)))
			return -1;
		op_append(b, op);
	}
	return p->err ? -1 : 0;
}

static int region_blocks(Parser *p, Region *r, int nargs, const ArgDef *args)
{
	Block *b;

	if (nargs >= 0 || !p_is(p, "}")) {
		if (p->tok.kind == T_CARET) {
			if (nargs > 0)
				return p_error(p, "invalid block name in region with named arguments");
			if (!(b = parse_label(p, r)))
				return -1;
		} else {
			b = block_new(p->c);
			region_append(r, b);
			if (nargs > 0 && add_args(p, b, nargs, args))
				return -1;
		}
		if (parse_block_body(p, b))
			return -1;
	}
	while (p->tok.kind == T_CARET) {
		if (!(b = parse_label(p, r)) || parse_block_body(p, b))
			return -1;
	}
	return 0;
}

int p_region(Parser *p, Region *r, int nargs, const ArgDef *args)
{
	Blocks bs = {0}, *saved = p->blocks;
	const OpInfo *cur = p->cur;
	int i, rc = -1;

	memset(r, 0, sizeof *r);
	if (p_is(p, "{") && p->depth >= 200)
		return p_error(p, "regions nested too deeply");
	if (p_expect(p, "{"))
		return -1;
	p->depth++;
	p->blocks = &bs;
	scope_push(p, cur && (cur->traits & TR_ISOLATED));
	if (region_blocks(p, r, nargs, args) == 0 && p_expect(p, "}") == 0) {
		rc = 0;
		for (i = 0; i < bs.n; i++)
			if (!bs.v[i].defined) {
				rc = p_error_at(p, &bs.v[i].tok, "reference to an undefined block");
				break;
			}
	}
	scope_pop(p);
	if (p->err)
		rc = -1;
	free(bs.v);
	pmap_free(&bs.at);
	p->blocks = saved;
	p->depth--;
	return rc;
}

void p_take_region(Op *op, int i, Region *r)
{
	Region *dst = &op->regs[i];
	Block *b;

	dst->first = r->first;
	dst->last = r->last;
	dst->parent = op;
	for (b = dst->first; b; b = b->next)
		b->parent = dst;
	r->first = r->last = NULL;
}

/* Sets al's attributes on the new op as op_set_attr one by one would (a
 * later one of a name replaces the value, in the first's place), but
 * with a map of the names, not a scan of the op's attributes per name. */
static void set_attrs(Parser *p, Op *op, const AttrList *al)
{
	PMap pos = {0};
	NamedAttr *v;
	void **slot;
	int i, n = 0;

	if (op->nattrs || al->n < 16) {
		for (i = 0; i < al->n; i++)
			op_set_attr(p->c, op, al->v[i].name, al->v[i].val);
		return;
	}
	v = p_alloc(p, sizeof *v * (size_t)al->n);
	for (i = 0; i < al->n; i++) {
		slot = pmap_slot(&pos, intern(p->c, al->v[i].name), 1);
		if (*slot) {
			v[(intptr_t)*slot - 1].val = al->v[i].val;
			continue;
		}
		*slot = (void *)(intptr_t)(n + 1);
		v[n++] = al->v[i];
	}
	pmap_free(&pos);
	op->attrs = v;
	op->nattrs = n;
	op->attrcap = al->n;
}

Op *p_make(Parser *p, const OpInfo *info, int nopnds, Value *const *opnds,
	int nres, Type *const *restypes, int nregs, Loc *loc, AttrList *al)
{
	Op *op;

	if (nres && !restypes) {
		free(al ? al->v : NULL);
		p_error(p, "'%s' op has no results to bind", info->name);
		return NULL;
	}
	op = op_new(p->c, info->name, nopnds, opnds, nres, restypes, nregs, loc);

	if (al) {
		set_attrs(p, op, al);
		free(al->v);
	}
	return op;
}

/* ---- operations ---- */

/* linalg's generic form spells iterator types as opaque attrs; ours are
 * strings (parse_hash_attr converts), nothing else to do here. */

static int parse_successors(Parser *p, Block ***v, int *n)
{
	Block **a = NULL;
	int cap = 0;

	*n = 0;
	do {
		BlockRef *br;

		if (p->tok.kind != T_CARET)
			return free(a), p_error(p, "expected block name");
		if (!(br = block_ref(p, &p->tok)))
			return free(a), -1;
		PUSH(a, *n, cap, br->b);
		p_skip(p);
	} while (p_eat(p, ","));
	*v = p_alloc(p, sizeof *a * (size_t)*n);
	memcpy(*v, a, sizeof *a * (size_t)*n);
	free(a);
	return p_expect(p, "]");
}

static int generic_regions(Parser *p, Region **regs, int *nregs)
{
	Region *v = NULL, r;
	int cap = 0;

	*nregs = 0;
	do {
		if (p_region(p, &r, -1, NULL)) {
			free(v);
			return -1;
		}
		PUSH(v, *nregs, cap, r);
	} while (p_eat(p, ","));
	*regs = p_alloc(p, sizeof r * (size_t)*nregs);
	if (*nregs)
		memcpy(*regs, v, sizeof r * (size_t)*nregs);
	free(v);
	return p_expect(p, ")");
}

static Op *parse_generic_op(Parser *p, const Tok *nt, int nres, Loc *loc)
{
	const char *name;
	const OpInfo *info;
	OpRef *refs;
	Block **succs = NULL;
	Region *regs = NULL;
	AttrList al = {0, 0, NULL};
	Type **in, **out;
	int nref, nsucc = 0, nregs = 0, nin, nout, i;
	Value **vals;
	Op *op;

	if (decode_string(p, nt, 0, &name, NULL))
		return NULL;
	name = intern(p->c, name);
	info = opinfo_lookup(name);
	if (!info && !ctx_allow_unregistered) {
		const char *dot = strchr(name, '.');

		p_error_at(p, nt, "unregistered operation '%s' found in dialect ('%.*s') that does not allow unknown operations",
			name, dot ? (int)(dot - name) : 0, name);
		return NULL;
	}
	p_skip(p);
	if (p_expect(p, "(") || p_oprefs(p, &refs, &nref) || p_expect(p, ")"))
		return NULL;
	if (p_eat(p, "[") && parse_successors(p, &succs, &nsucc))
		return NULL;
	if (p_eat(p, "(")) {
		const OpInfo *saved = p->cur;

		p->cur = info;
		i = generic_regions(p, &regs, &nregs);
		p->cur = saved;
		if (i)
			return NULL;
	}
	if (p_attr_dict(p, &al) || p_expect(p, ":"))
		return free(al.v), NULL;
	if (p_functional(p, &in, &nin, &out, &nout))
		return free(al.v), NULL;
	vals = p_alloc(p, sizeof *vals * (size_t)(nref + 1));
	if (p_resolve_list(p, nref, refs, nin, in, vals))
		return free(al.v), NULL;
	if (nres && nout != nres) {
		free(al.v);
		p_error_at(p, nt, "operation defines %d results but was provided %d to bind", nout, nres);
		return NULL;
	}
	op = op_new(p->c, name, nref, vals, nout, out, nregs, loc);
	set_attrs(p, op, &al);
	free(al.v);
	for (i = 0; i < nregs; i++)
		p_take_region(op, i, &regs[i]);
	if (info && (info->traits & TR_SYMTAB) && nregs && !op->regs[0].first)
		region_append(&op->regs[0], block_new(p->c));
	if (nsucc)
		op_set_successors(p->c, op, nsucc, succs);
	return op;
}

/* The op's info for a custom-form name, trying the default dialects. */
static const OpInfo *custom_info(const Tok *t)
{
	static const char *const prefixes[] = { "", "func.", "builtin." };
	char buf[256];
	size_t i;

	for (i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
		const OpInfo *info;

		if (strlen(prefixes[i]) + t->n >= sizeof buf)
			break;
		snprintf(buf, sizeof buf, "%s%.*s", prefixes[i], (int)t->n, t->s);
		if ((info = opinfo_lookup(buf)) && info->parse)
			return info;
	}
	return NULL;
}

static Op *parse_custom_op(Parser *p, const Tok *nt, int nres, Loc *loc)
{
	const OpInfo *info = custom_info(nt), *saved = p->cur;
	Op *op;

	if (!info) {
		p_error_at(p, nt, "custom op '%.*s' is unknown", (int)nt->n, nt->s);
		return NULL;
	}
	p_skip(p);
	p->cur = info;
	op = info->parse(p, info, nres, loc);
	p->cur = saved;
	if (!op && !p->err)
		p_error_at(p, nt, "failed to parse '%s'", info->name);
	if (op && nres && op->nres != nres) {
		p_error_at(p, nt, "operation defines %d results but was provided %d to bind",
			op->nres, nres);
		return NULL;
	}
	return p->err ? NULL : op;
}

typedef struct ResGroup {
	Tok tok;
	const char *name;
	int n;
} ResGroup;

/* `%a, %b:2 =` */
static int parse_results(Parser *p, ResGroup **v, int *ng, int *total)
{
	ResGroup *a = NULL, g;
	int cap = 0;

	*ng = *total = 0;
	if (p->tok.kind != T_PCT)
		return 0;
	do {
		if (p->tok.kind != T_PCT)
			return free(a), p_error(p, "expected SSA operand");
		g.tok = p->tok;
		g.name = tok_intern(p, &p->tok, 1);
		g.n = 1;
		p_skip(p);
		if (p_eat(p, ":")) {
			int64_t n;

			if (p->tok.kind != T_INT || p_int(p, &n) || n < 1 || n > 1 << 20)
				return free(a), p_error(p, "expected integer number of results");
			g.n = (int)n;
		}
		PUSH(a, *ng, cap, g);
		*total += g.n;
	} while (p_eat(p, ","));
	*v = a;
	return p_expect(p, "=");
}

static int bind_results(Parser *p, Op *op, ResGroup *g, int ng)
{
	int i, k = 0;

	for (i = 0; i < ng; i++) {
		Value **vals = p_alloc(p, sizeof *vals * (size_t)g[i].n);
		int j;

		for (j = 0; j < g[i].n; j++)
			vals[j] = RES(op, k + j);
		if (define_name(p, &g[i].tok, g[i].name, g[i].n, vals))
			return -1;
		k += g[i].n;
	}
	return 0;
}

Op *parse_op(Parser *p)
{
	ResGroup *groups = NULL;
	int ng, nres;
	Tok nt;
	Loc *loc;
	Op *op = NULL;

	if (++p->depth > 400)
		return p_error(p, "operations nested too deeply"), NULL;
	if (parse_results(p, &groups, &ng, &nres))
		goto out;
	nt = p->tok;
	loc = tok_loc(p, &nt);
	if (nt.kind == T_STR)
		op = parse_generic_op(p, &nt, nres, loc);
	else if (nt.kind == T_IDENT)
		op = parse_custom_op(p, &nt, nres, loc);
	else
		p_error(p, nres ? "expected operation name in quotes" : "expected operation name");
	if (!op)
		goto out;
	if (p_is(p, "loc")) {
		Loc *l = parse_loc(p);

		if (!l) {
			op = NULL;
			goto out;
		}
		op->loc = l;
	}
	if (bind_results(p, op, groups, ng))
		op = NULL;
out:
	free(groups);
	p->depth--;
	return p->err ? NULL : op;
}
