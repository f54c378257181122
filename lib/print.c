/*
 * print.c - writes the IR as MLIR text, byte for byte as mlir-opt-16 does.
 *
 * Printing is two passes over the module.  The first names every value
 * and block (MLIR's SSANameState) and, printing into a scratch buffer,
 * collects the affine maps and resources in order of first use; the second
 * prints the `#map` aliases, the ops, and the resource section.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"

/* A scoped set of used SSA names: counts, undone by a log. */
typedef struct NameSet {
	char **keys;
	int *cnt;
	size_t cap, n;
	char **log;
	int nlog, clog;
} NameSet;

struct Printer {
	Buf *b;
	PrintOpts o;
	int indent;
	PMap ids;        /* Value / Block -> id + 1 */
	PMap names;      /* Value -> name */
	NameSet used;
	int collect;     /* first pass: gather aliases, print to scratch */
	AffMap **maps;
	int nmaps, cmaps;
	const char **encs;   /* sparse encodings of tensor types: #sparse aliases */
	int nencs, cencs;
	Resource **res;
	int nres, cres;
	PMap resset;     /* Resource -> 1: those in res */
	const char *dialect;   /* default dialect: prefix elided in op names */
	char **owned;
	int nowned, cowned;
};

const PrintOpts *pr_opts(Printer *pr) { return &pr->o; }
void pr_puts(Printer *pr, const char *s) { buf_puts(pr->b, s); }

void pr_printf(Printer *pr, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < (int)sizeof tmp) {
		buf_put(pr->b, tmp, (size_t)n);
		return;
	}
	{
		char *big = xmalloc((size_t)n + 1);

		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		buf_put(pr->b, big, (size_t)n);
		free(big);
	}
}

/* ---- name sets ---- */

static size_t strhash(const char *s)
{
	size_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static size_t ns_find(NameSet *s, const char *k)
{
	size_t i;

	for (i = strhash(k) & (s->cap - 1); s->keys[i]; i = (i + 1) & (s->cap - 1))
		if (strcmp(s->keys[i], k) == 0)
			break;
	return i;
}

static int ns_has(NameSet *s, const char *k)
{
	size_t i;

	if (!s->cap)
		return 0;
	i = ns_find(s, k);
	return s->keys[i] && s->cnt[i] > 0;
}

static void ns_add(NameSet *s, char *k)
{
	size_t i;

	if ((s->n + 1) * 2 > s->cap) {
		NameSet o = *s;

		s->cap = o.cap ? o.cap * 2 : 64;
		s->keys = xcalloc(s->cap, sizeof *s->keys);
		s->cnt = xcalloc(s->cap, sizeof *s->cnt);
		for (i = 0; i < o.cap; i++)
			if (o.keys[i]) {
				size_t j = ns_find(s, o.keys[i]);

				s->keys[j] = o.keys[i];
				s->cnt[j] = o.cnt[i];
			}
		free(o.keys);
		free(o.cnt);
	}
	i = ns_find(s, k);
	if (!s->keys[i]) {
		s->keys[i] = k;
		s->n++;
	}
	s->cnt[i]++;
	PUSH(s->log, s->nlog, s->clog, s->keys[i]);
}

static void ns_undo(NameSet *s, int mark)
{
	while (s->nlog > mark) {
		size_t i = ns_find(s, s->log[--s->nlog]);

		s->cnt[i]--;
	}
}

static void ns_free(NameSet *s)
{
	free(s->keys);
	free(s->cnt);
	free(s->log);
}

/* ---- naming (MLIR's SSANameState) ---- */

typedef struct NameCtx {
	Region *r;
	int nextval, nextarg, nextconf;
	int scope;            /* used-name log mark of the parent scope */
} NameCtx;

typedef struct Counters {
	int nextval, nextarg, nextconf;
} Counters;

static char *own(Printer *pr, char *s)
{
	PUSH(pr->owned, pr->nowned, pr->cowned, s);
	return s;
}

/* MLIR's sanitizeIdentifier: keep [A-Za-z0-9$._-], hex-escape the rest,
 * and never start with a digit (it could clash with a number). */
static char *sanitize(const char *name)
{
	static const char hx[] = "0123456789ABCDEF";
	size_t n = strlen(name), i;
	char *o = xmalloc(3 * n + 2), *q = o;

	if (name[0] >= '0' && name[0] <= '9')
		*q++ = '_';
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)name[i];

		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
				(ch >= '0' && ch <= '9') || strchr("$._-", ch)) {
			*q++ = (char)ch;
		} else if (ch == ' ') {
			*q++ = '_';
		} else {
			if (ch >> 4)
				*q++ = hx[ch >> 4];
			*q++ = hx[ch & 15];
		}
	}
	*q = 0;
	return o;
}

static const char *unique_name(Printer *pr, Counters *c, const char *hint)
{
	char *name = own(pr, sanitize(hint)), *probe;
	size_t n;

	if (!ns_has(&pr->used, name)) {
		ns_add(&pr->used, name);
		return name;
	}
	n = strlen(name);
	probe = own(pr, xmalloc(n + 24));
	do
		snprintf(probe, n + 24, "%s_%d", name, c->nextconf++);
	while (ns_has(&pr->used, probe));
	ns_add(&pr->used, probe);
	return probe;
}

static void set_name(Printer *pr, Counters *c, Value *v, const char *hint)
{
	if (!hint || !*hint) {
		*pmap_slot(&pr->ids, v, 1) = (void *)(intptr_t)(c->nextval++ + 1);
		return;
	}
	*pmap_slot(&pr->names, v, 1) = (void *)unique_name(pr, c, hint);
}

static void name_op(Printer *pr, Counters *c, Op *op)
{
	char buf[64];
	const char *hint = NULL;

	if (!op->nres)
		return;
	if (!pr->o.generic && op_multi_result_name(op, 0, buf, sizeof buf)) {
		int i;

		for (i = 0; i < op->nres; i++)
			set_name(pr, c, RES(op, i),
			    op_multi_result_name(op, i, buf, sizeof buf));
		return;
	}
	if (!pr->o.generic)
		hint = op_result_hint(op, 0, buf, sizeof buf);
	set_name(pr, c, RES(op, 0), hint);
}

/* whether op's results were named one by one (%values, %indices), not
 * as one group (%0:2, %0#1) */
static int named_apart(Printer *pr, Op *op)
{
	return op->nres > 1 && pmap_get(&pr->names, RES(op, 1)) != NULL;
}

static void name_region(Printer *pr, Counters *c, Region *r)
{
	Block *b;
	Op *op;
	int i, bid = 0;

	for (b = r->first; b; b = b->next) {
		*pmap_slot(&pr->ids, b, 1) = (void *)(intptr_t)(bid++ + 1);
		for (i = 0; i < b->nargs; i++) {
			const char *hint = NULL;
			char buf[32];

			if (!pr->o.generic)
				hint = op_blockarg_hint(r->parent, b, i);
			if (!hint && b == r->first) {
				snprintf(buf, sizeof buf, "arg%d", c->nextarg++);
				hint = buf;
			}
			set_name(pr, c, b->args[i], hint);
		}
		for (op = b->first; op; op = op->next)
			name_op(pr, c, op);
	}
}

static void name_all(Printer *pr, Op *top)
{
	NameCtx *st = NULL, x;
	int n = 0, cap = 0, i;
	Counters c = {0, 0, 0};
	int *scopes = NULL, ns = 0, cs = 0;   /* log marks of open scopes */

	PUSH(scopes, ns, cs, 0);
	for (i = top->nregs - 1; i >= 0; i--) {
		x.r = &top->regs[i];
		x.nextval = c.nextval;
		x.nextarg = c.nextarg;
		x.nextconf = c.nextconf;
		x.scope = 1;
		PUSH(st, n, cap, x);
	}
	name_op(pr, &c, top);
	/* regions pushed in order, popped last first, like MLIR's worklist;
	 * the order does not change names since counters travel with them */
	while (n) {
		Block *b;
		Op *op;

		x = st[--n];
		c.nextval = x.nextval;
		c.nextarg = x.nextarg;
		c.nextconf = x.nextconf;
		while (ns > x.scope) {
			ns--;
			ns_undo(&pr->used, scopes[ns]);
		}
		PUSH(scopes, ns, cs, pr->used.nlog);
		name_region(pr, &c, x.r);
		for (b = x.r->first; b; b = b->next)
			for (op = b->first; op; op = op->next)
				for (i = 0; i < op->nregs; i++) {
					NameCtx y = { &op->regs[i], c.nextval, c.nextarg,
						c.nextconf, ns };

					PUSH(st, n, cap, y);
				}
	}
	free(st);
	free(scopes);
}

/* The name of v's result group (or block argument), without #N. */
static void value_base(Printer *pr, Value *v)
{
	Value *base = v;
	const char *name;
	intptr_t id;

	if (v->def && v->index > 0 && !named_apart(pr, v->def))
		base = RES(v->def, 0);
	if ((name = pmap_get(&pr->names, base)))
		pr_printf(pr, "%%%s", name);
	else if ((id = (intptr_t)pmap_get(&pr->ids, base)))
		pr_printf(pr, "%%%ld", (long)(id - 1));
	else
		pr_puts(pr, "%<<UNKNOWN SSA VALUE>>");
}

void pr_value(Printer *pr, Value *v)
{
	value_base(pr, v);
	if (v->def && v->def->nres > 1 && !named_apart(pr, v->def))
		pr_printf(pr, "#%d", v->index);
}

static void pr_block_name(Printer *pr, Block *b)
{
	intptr_t id = (intptr_t)pmap_get(&pr->ids, b);

	pr_printf(pr, "^bb%ld", (long)(id ? id - 1 : 0));
}

/* ---- types ---- */

static void type_list(Buf *b, int n, Type *const *v, const char *sep);

static int is_torch(const Type *t)
{
	return t->kind >= TY_TORCH_VTENSOR && t->kind <= TY_TORCH_UNION;
}

static const char *const torch_names[] = {
	[TY_TORCH_VTENSOR] = "vtensor", [TY_TORCH_TENSOR] = "tensor",
	[TY_TORCH_INT] = "int", [TY_TORCH_FLOAT] = "float",
	[TY_TORCH_BOOL] = "bool", [TY_TORCH_NONE] = "none",
	[TY_TORCH_STR] = "str", [TY_TORCH_DEVICE] = "Device",
	[TY_TORCH_NUMBER] = "number", [TY_TORCH_GENERATOR] = "Generator",
	[TY_TORCH_ANY] = "any", [TY_TORCH_LIST] = "list",
	[TY_TORCH_OPTIONAL] = "optional", [TY_TORCH_TUPLE] = "tuple",
	[TY_TORCH_UNION] = "union",
};

/* A torch type without the `!torch.` prefix, as used inside containers. */
/* The printer of the module being printed, for the aliases of tensor
 * encodings: types print without a printer at hand. */
static Printer *enc_pr;

/* A tensor type's encoding: `#sparse` (an alias, as MLIR prints it) when
 * a module is printed, else inline. */
static void enc_out(Buf *b, const char *text)
{
	int i;

	for (i = 0; enc_pr && i < enc_pr->nencs; i++)
		if (enc_pr->encs[i] == text)
			break;
	if (enc_pr && i == enc_pr->nencs && enc_pr->collect)
		PUSH(enc_pr->encs, enc_pr->nencs, enc_pr->cencs, text);
	if (!enc_pr || i == enc_pr->nencs) {
		buf_puts(b, text);
		return;
	}
	buf_puts(b, "#sparse");
	if (i)
		buf_printf(b, "%d", i);
}

static void torch_body(Buf *b, const Type *t)
{
	int i;

	buf_puts(b, torch_names[t->kind]);
	switch (t->kind) {
	case TY_TORCH_VTENSOR: case TY_TORCH_TENSOR:
		if (!t->ranked && !t->elem)
			return;
		buf_putc(b, '<');
		if (!t->ranked) {
			buf_putc(b, '*');
		} else {
			buf_putc(b, '[');
			for (i = 0; i < t->rank; i++) {
				if (i)
					buf_putc(b, ',');
				if (t->dims[i] == DYN)
					buf_putc(b, '?');
				else
					buf_printf(b, "%lld", (long long)t->dims[i]);
			}
			buf_putc(b, ']');
		}
		buf_putc(b, ',');
		if (t->elem)
			print_type(b, t->elem);
		else
			buf_puts(b, "unk");
		if (t->text) {
			buf_putc(b, ',');
			enc_out(b, t->text);
		}
		buf_putc(b, '>');
		return;
	case TY_TORCH_LIST: case TY_TORCH_OPTIONAL:
		buf_putc(b, '<');
		print_torch_inner(b, t->elem);
		buf_putc(b, '>');
		return;
	case TY_TORCH_TUPLE: case TY_TORCH_UNION:
		buf_putc(b, '<');
		for (i = 0; i < t->nsub; i++) {
			if (i)
				buf_puts(b, ", ");
			print_torch_inner(b, t->sub[i]);
		}
		buf_putc(b, '>');
		return;
	default:
		return;
	}
}

/* A type inside a torch container, as torch-mlir prints it: torch types
 * without their `!torch.` (the opaque ones, !torch.dict<...> and the
 * like, too), others in full. */
void print_torch_inner(Buf *b, const Type *t)
{
	if (t && is_torch(t))
		torch_body(b, t);
	else if (t && t->kind == TY_OPAQUE && !strncmp(t->text, "!torch.", 7))
		buf_puts(b, t->text + 7);
	else
		print_type(b, t);
}

static void dims_x(Buf *b, const Type *t)
{
	int i;

	if (!t->ranked) {
		buf_puts(b, "*x");
		return;
	}
	for (i = 0; i < t->rank; i++) {
		if (t->dims[i] == DYN)
			buf_puts(b, "?x");
		else
			buf_printf(b, "%lldx", (long long)t->dims[i]);
	}
}

static const char *const simple_names[] = {
	[TY_INDEX] = "index", [TY_F16] = "f16", [TY_BF16] = "bf16",
	[TY_F32] = "f32", [TY_F64] = "f64", [TY_NONE] = "none",
};

static void print_functype(Buf *b, const Type *t)
{
	int nout = t->nsub - t->nin;
	Type *const *out = t->sub + t->nin;

	buf_putc(b, '(');
	type_list(b, t->nin, t->sub, ", ");
	buf_puts(b, ") -> ");
	if (nout == 1 && out[0]->kind != TY_FUNC) {
		print_type(b, out[0]);
		return;
	}
	buf_putc(b, '(');
	type_list(b, nout, out, ", ");
	buf_putc(b, ')');
}

void print_type(Buf *b, const Type *t)
{
	static const char *const sign[] = { "i", "si", "ui" };

	if (!t) {
		buf_puts(b, "<<NULL TYPE>>");
		return;
	}
	switch (t->kind) {
	case TY_INT:
		buf_printf(b, "%s%d", sign[t->sign], t->width);
		return;
	case TY_FUNC:
		print_functype(b, t);
		return;
	case TY_TENSOR: case TY_VECTOR:
		buf_puts(b, t->kind == TY_TENSOR ? "tensor<" : "vector<");
		dims_x(b, t);
		print_type(b, t->elem);
		buf_putc(b, '>');
		return;
	case TY_TUPLE:
		buf_puts(b, "tuple<");
		type_list(b, t->nsub, t->sub, ", ");
		buf_putc(b, '>');
		return;
	case TY_OPAQUE:
		buf_puts(b, t->text);
		return;
	default:
		break;
	}
	if (is_torch(t)) {
		buf_puts(b, "!torch.");
		torch_body(b, t);
		return;
	}
	buf_puts(b, simple_names[t->kind]);
}

static void type_list(Buf *b, int n, Type *const *v, const char *sep)
{
	int i;

	for (i = 0; i < n; i++) {
		if (i)
			buf_puts(b, sep);
		print_type(b, v[i]);
	}
}

void pr_type(Printer *pr, const Type *t) { print_type(pr->b, t); }

/* ---- floats (llvm::APFloat::toString as MLIR's printFloatValue uses it) ---- */

static int type_precision(const Type *t)
{
	switch (t ? t->kind : TY_F64) {
	case TY_F16: return 11;
	case TY_BF16: return 8;
	case TY_F32: return 24;
	default: return 53;
	}
}

static int roundtrips(const char *s, double v, const Type *t)
{
	double back = t && t->kind == TY_F32 ? (double)strtof(s, NULL)
		: fp_round(strtod(s, NULL), t);

	return fp_bits(back, t) == fp_bits(v, t);
}

/* A little unsigned bignum, enough for any double's exact value. */
typedef struct Big {
	uint32_t w[128];
	int n;
} Big;

static void big_mul(Big *b, uint32_t m)
{
	uint64_t carry = 0;
	int i;

	for (i = 0; i < b->n; i++) {
		uint64_t x = (uint64_t)b->w[i] * m + carry;

		b->w[i] = (uint32_t)x;
		carry = x >> 32;
	}
	if (carry && b->n < 128)
		b->w[b->n++] = (uint32_t)carry;
}

static uint32_t big_divmod(Big *b, uint32_t d)
{
	uint64_t r = 0;
	int i;

	for (i = b->n - 1; i >= 0; i--) {
		uint64_t x = r << 32 | b->w[i];

		b->w[i] = (uint32_t)(x / d);
		r = x % d;
	}
	while (b->n && !b->w[b->n - 1])
		b->n--;
	return (uint32_t)r;
}

static int big_bits(const Big *b)
{
	int bits = 32 * (b->n - 1);
	uint32_t top = b->n ? b->w[b->n - 1] : 0;

	if (!b->n)
		return 0;
	while (top) {
		bits++;
		top >>= 1;
	}
	return bits;
}

static const struct { TypeKind k; int man, expbits; } float_formats[] = {
	{TY_F16, 10, 5}, {TY_BF16, 7, 8}, {TY_F32, 23, 8}, {TY_F64, 52, 11},
};

/* The digits of |v| as llvm::APFloat::toString finds them: the exact
 * value, first cut to about P digits by truncating division, then
 * rounded half-up to P digits, trailing zeros dropped.  Digits come most
 * significant first; *exp is the power of ten of the last one. */
static int apfloat_digits(double v, const Type *t, int P, char *dig, int *exp)
{
	int man = 52, eb = 11, i, nd = 0, bias, e2, tz = 0;
	uint64_t bits = fp_bits(v, t), m;
	Big b;
	char rev[1200];

	for (i = 0; i < 4; i++)
		if (t && t->kind == float_formats[i].k) {
			man = float_formats[i].man;
			eb = float_formats[i].expbits;
		}
	bias = (1 << (eb - 1)) - 1;
	m = bits & ((1ull << man) - 1);
	e2 = (int)((bits >> man) & ((1u << eb) - 1));
	if (e2) {
		m |= 1ull << man;
		e2 = e2 - bias - man;
	} else {
		e2 = 1 - bias - man;
	}
	while (!(m & 1)) {
		m >>= 1;
		tz++;
	}
	e2 += tz;
	memset(&b, 0, sizeof b);
	b.w[0] = (uint32_t)m;
	b.w[1] = (uint32_t)(m >> 32);
	b.n = b.w[1] ? 2 : 1;
	*exp = 0;
	for (i = 0; i < (e2 > 0 ? e2 : -e2); i++)
		big_mul(&b, e2 > 0 ? 2 : 5);
	if (e2 < 0)
		*exp = e2;
	{
		int have = big_bits(&b), need = (P * 196 + 58) / 59, tens;

		tens = have > need ? (have - need) * 59 / 196 : 0;
		*exp += tens;
		while (tens--)
			big_divmod(&b, 10);
	}
	while (b.n) {
		uint32_t d = big_divmod(&b, 10);

		if (!nd && !d)
			(*exp)++;
		else if (nd < (int)sizeof rev)
			rev[nd++] = (char)('0' + d);
	}
	if (nd > P) {
		int first = nd - P;

		if (rev[first - 1] < '5') {
			while (first < nd && rev[first] == '0')
				first++;
		} else {
			for (i = first; i < nd && rev[i] == '9'; i++)
				first++;
			if (first == nd) {
				*exp += first;
				dig[0] = '1';
				return 1;
			}
			rev[first]++;
		}
		*exp += first;
		memmove(rev, rev + first, (size_t)(nd - first));
		nd -= first;
	}
	for (i = 0; i < nd; i++)
		dig[i] = rev[nd - 1 - i];
	return nd;
}

/* MLIR's first try: 6 significant digits, padded to `d.dddddde+XX`. */
static void sci_form(char *out, size_t cap, double v, const Type *t)
{
	char dig[48];
	int exp, nd, e, i;
	char *o = out;

	if (signbit(v))
		*o++ = '-';
	if (v == 0) {
		snprintf(o, cap - (size_t)(o - out), "0.000000e+00");
		return;
	}
	nd = apfloat_digits(v, t, 6, dig, &exp);
	e = exp + nd - 1;
	*o++ = dig[0];
	*o++ = '.';
	for (i = 1; i < 7; i++)
		*o++ = i < nd ? dig[i] : '0';
	snprintf(o, cap - (size_t)(o - out), "e%c%02d", e < 0 ? '-' : '+', abs(e));
}

/* The natural-precision form: enough digits to round-trip, trailing
 * zeros dropped, scientific only when padding would exceed 3 zeros. */
static void natural_form(char *out, size_t cap, double v, const Type *t)
{
	char dig[48];
	int P = 2 + type_precision(t) * 59 / 196, i, exp, msd;
	int nd = apfloat_digits(v, t, P, dig, &exp);
	char *o = out;

	if (signbit(v))
		*o++ = '-';
	msd = exp + nd - 1;
	if ((exp >= 0 && (exp > 3 || nd + exp > P)) || (exp < 0 && msd < 0 && -msd > 3)) {
		*o++ = dig[0];
		*o++ = '.';
		if (nd == 1)
			*o++ = '0';
		for (i = 1; i < nd; i++)
			*o++ = dig[i];
		snprintf(o, cap - (size_t)(o - out), "E%c%d", msd >= 0 ? '+' : '-', abs(msd));
		return;
	}
	if (exp >= 0) {
		for (i = 0; i < nd; i++)
			*o++ = dig[i];
		for (i = 0; i < exp; i++)
			*o++ = '0';
	} else if (nd + exp > 0) {
		for (i = 0; i < nd + exp; i++)
			*o++ = dig[i];
		*o++ = '.';
		for (; i < nd; i++)
			*o++ = dig[i];
	} else {
		*o++ = '0';
		*o++ = '.';
		for (i = 0; i < -(nd + exp); i++)
			*o++ = '0';
		for (i = 0; i < nd; i++)
			*o++ = dig[i];
	}
	*o = 0;
}

static void fmt_float(char *out, size_t cap, double v, const Type *t)
{
	if (!isnan(v) && !isinf(v)) {
		sci_form(out, cap, v, t);
		if (roundtrips(out, v, t))
			return;
		natural_form(out, cap, v, t);
		if (strchr(out, '.'))
			return;
	}
	snprintf(out, cap, "0x%llX", (unsigned long long)fp_bits(v, t));
}

void print_float(Buf *b, double v, const Type *t)
{
	char tmp[64];

	fmt_float(tmp, sizeof tmp, v, t);
	buf_puts(b, tmp);
}

/* ---- attributes ---- */

static void attr_out(Printer *pr, Buf *b, const Attr *a, int elide);

static void print_string(Buf *b, const char *s, size_t n)
{
	static const char hx[] = "0123456789ABCDEF";
	size_t i;

	buf_putc(b, '"');
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '\\') {
			buf_puts(b, "\\\\");
		} else if (ch >= 0x20 && ch < 0x7F && ch != '"') {
			buf_putc(b, (char)ch);
		} else {
			buf_putc(b, '\\');
			buf_putc(b, hx[ch >> 4]);
			buf_putc(b, hx[ch & 15]);
		}
	}
	buf_putc(b, '"');
}

void pr_string(Printer *pr, const char *s, size_t n) { print_string(pr->b, s, n); }

static int bare_id(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return 0;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
				(*s >= '0' && *s <= '9') || strchr("_$.", *s)))
			return 0;
	return 1;
}

static void keyword_or_string(Buf *b, const char *s)
{
	if (bare_id(s))
		buf_puts(b, s);
	else
		print_string(b, s, strlen(s));
}

void pr_symbol(Printer *pr, const char *name)
{
	buf_putc(pr->b, '@');
	keyword_or_string(pr->b, name);
}

static void aff_out(Buf *b, const AffExpr *e, int strong)
{
	static const char *const ops[] = {
		[AFF_ADD] = " + ", [AFF_MUL] = " * ", [AFF_MOD] = " mod ",
		[AFF_FLOORDIV] = " floordiv ", [AFF_CEILDIV] = " ceildiv ",
	};
	const AffExpr *l, *r;

	switch (e->kind) {
	case AFF_DIM: buf_printf(b, "d%lld", (long long)e->v); return;
	case AFF_SYM: buf_printf(b, "s%lld", (long long)e->v); return;
	case AFF_CONST: buf_printf(b, "%lld", (long long)e->v); return;
	default: break;
	}
	l = e->l;
	r = e->r;
	if (strong)
		buf_putc(b, '(');
	if (e->kind != AFF_ADD) {
		if (e->kind == AFF_MUL && r->kind == AFF_CONST && r->v == -1) {
			buf_putc(b, '-');
			aff_out(b, l, 1);
		} else {
			aff_out(b, l, 1);
			buf_puts(b, ops[e->kind]);
			aff_out(b, r, 1);
		}
	} else if (r->kind == AFF_MUL && r->r->kind == AFF_CONST && r->r->v == -1) {
		aff_out(b, l, 0);
		buf_puts(b, " - ");
		aff_out(b, r->l, r->l->kind == AFF_ADD);
	} else if (r->kind == AFF_MUL && r->r->kind == AFF_CONST && r->r->v < -1) {
		aff_out(b, l, 0);
		buf_puts(b, " - ");
		aff_out(b, r->l, 1);
		buf_printf(b, " * %lld", -(long long)r->r->v);
	} else if (r->kind == AFF_CONST && r->v < 0) {
		aff_out(b, l, 0);
		buf_printf(b, " - %lld", -(long long)r->v);
	} else {
		aff_out(b, l, 0);
		buf_puts(b, " + ");
		aff_out(b, r, 0);
	}
	if (strong)
		buf_putc(b, ')');
}

static void affmap_out(Buf *b, const AffMap *m)
{
	int i;

	buf_putc(b, '(');
	for (i = 0; i < m->ndims; i++)
		buf_printf(b, "%sd%d", i ? ", " : "", i);
	buf_putc(b, ')');
	if (m->nsyms) {
		buf_putc(b, '[');
		for (i = 0; i < m->nsyms; i++)
			buf_printf(b, "%ss%d", i ? ", " : "", i);
		buf_putc(b, ']');
	}
	buf_puts(b, " -> (");
	for (i = 0; i < m->nres; i++) {
		if (i)
			buf_puts(b, ", ");
		aff_out(b, m->res[i], 0);
	}
	buf_putc(b, ')');
}

static int map_alias(Printer *pr, const AffMap *m)
{
	int i;

	for (i = 0; i < pr->nmaps; i++)
		if (pr->maps[i] == m || affmap_eq(pr->maps[i], m))
			return i;
	if (!pr->collect)
		return -1;
	PUSH(pr->maps, pr->nmaps, pr->cmaps, (AffMap *)m);
	return pr->nmaps - 1;
}

static void elem_out(Buf *b, const Type *et, const uint8_t *p)
{
	char tmp[64];

	if (ty_isfloat(et)) {
		uint64_t bits = 0;

		memcpy(&bits, p, elem_size(et));
		fmt_float(tmp, sizeof tmp, fp_from_bits(bits, et), et);
		buf_puts(b, tmp);
	} else if (et->kind == TY_INT && et->width == 1) {
		buf_puts(b, *p ? "true" : "false");
	} else {
		int64_t v = 0;
		size_t sz = elem_size(et);
		int w = ty_bitwidth(et);

		memcpy(&v, p, sz);
		if (et->kind == TY_INT && et->sign == UNSIGNED) {
			uint64_t u = w < 64 ? (uint64_t)v & ((1ull << w) - 1) : (uint64_t)v;

			buf_printf(b, "%llu", (unsigned long long)u);
			return;
		}
		if (w < 64 && (v >> (w - 1)) & 1)
			v |= (int64_t)(~0ull << w);   /* sign-extend */
		else if (w < 64)
			v &= (int64_t)((1ull << w) - 1);
		buf_printf(b, "%lld", (long long)v);
	}
}

static void hex_out(Buf *b, const uint8_t *p, size_t n)
{
	buf_put(b, NULL, 0);
	if (b->cap < b->n + 2 * n + 1) {
		b->cap = b->n + 2 * n + 1;
		b->p = xrealloc(b->p, b->cap);
	}
	hex_encode(b->p + b->n, p, n);
	b->n += 2 * n;
}

/* Nested lists over the shape, one dimension per level. */
static void dense_list(Buf *b, const Type *t, const uint8_t *data, int dim,
	int64_t *idx)
{
	int64_t i;
	size_t es = elem_size(t->elem);

	if (dim == t->rank) {
		elem_out(b, t->elem, data + (size_t)*idx * es);
		(*idx)++;
		return;
	}
	buf_putc(b, '[');
	for (i = 0; i < t->dims[dim]; i++) {
		if (i)
			buf_puts(b, ", ");
		dense_list(b, t, data, dim + 1, idx);
	}
	buf_putc(b, ']');
}

static void dense_out(Buf *b, const Attr *a)
{
	const Type *t = a->type;
	int64_t numel = ty_numel(t), idx = 0;
	size_t es = elem_size(t->elem);
	int isbool = t->elem->kind == TY_INT && t->elem->width == 1;

	buf_puts(b, "dense<");
	if (numel == 0) {
		/* nothing between the brackets */
	} else if (a->splat || numel == 1) {
		elem_out(b, t->elem, a->data);
	} else if (numel > 100 && !isbool && a->n == (size_t)numel * es) {
		buf_puts(b, "\"0x");
		hex_out(b, a->data, a->n);
		buf_putc(b, '"');
	} else {
		dense_list(b, t, a->data, 0, &idx);
	}
	buf_puts(b, "> : ");
	print_type(b, t);
}

static void dense_array_out(Buf *b, const Attr *a)
{
	char tmp[64];
	size_t i;

	buf_puts(b, "array<");
	print_type(b, a->type);
	for (i = 0; i < a->n; i++) {
		buf_puts(b, i ? ", " : ": ");
		if (ty_isfloat(a->type)) {
			double f;

			memcpy(&f, &a->ints[i], sizeof f);
			fmt_float(tmp, sizeof tmp, f, a->type);
			buf_puts(b, tmp);
		} else if (a->type->kind == TY_INT && a->type->width == 1) {
			buf_puts(b, a->ints[i] ? "true" : "false");
		} else {
			buf_printf(b, "%lld", (long long)a->ints[i]);
		}
	}
	buf_putc(b, '>');
}

static void dict_out(Printer *pr, Buf *b, const NamedAttr *d, size_t n);

static void number_out(Buf *b, const Attr *a, int elide)
{
	char tmp[64];
	const Type *t = a->type;

	if (a->kind == AT_FLOAT) {
		fmt_float(tmp, sizeof tmp, a->f, t);
		buf_puts(b, tmp);
		if (elide && (!t || t->kind == TY_F64))
			return;
	} else {
		if (t && t->kind == TY_INT && t->width == 1) {
			buf_puts(b, a->i ? "true" : "false");
			return;
		}
		if (t && t->kind == TY_INT && t->sign == UNSIGNED)
			buf_printf(b, "%llu", (unsigned long long)a->i);
		else
			buf_printf(b, "%lld", (long long)a->i);
		if (elide && (!t || (t->kind == TY_INT && t->width == 64 && t->sign == SIGNLESS)))
			return;
	}
	buf_puts(b, " : ");
	if (t)
		print_type(b, t);
	else
		buf_puts(b, a->kind == AT_FLOAT ? "f64" : "i64");
}

static void note_resource(Printer *pr, Resource *r)
{
	void **slot;

	if (!pr || !pr->collect || !r || (!r->data && !r->fill))
		return;
	slot = pmap_slot(&pr->resset, r, 1);
	if (*slot)
		return;
	*slot = (void *)1;
	PUSH(pr->res, pr->nres, pr->cres, r);
}

/* elide: the `: i64` / `: f64` of a number may go (array elements). */
static void attr_out(Printer *pr, Buf *b, const Attr *a, int elide)
{
	size_t i;
	int k;

	switch (a->kind) {
	case AT_UNIT: buf_puts(b, "unit"); return;
	case AT_INT: case AT_FLOAT: number_out(b, a, elide); return;
	case AT_STR:
		print_string(b, a->s, a->n);
		if (a->type) {
			buf_puts(b, " : ");
			print_type(b, a->type);
		}
		return;
	case AT_ARRAY:
		buf_putc(b, '[');
		for (i = 0; i < a->n; i++) {
			if (i)
				buf_puts(b, ", ");
			attr_out(pr, b, a->elts[i], 1);
		}
		buf_putc(b, ']');
		return;
	case AT_DICT: dict_out(pr, b, a->dict, a->n); return;
	case AT_DENSE:
	case AT_DENSE_RESOURCE:
		/* -mlir-elide-elementsattrs-if-larger=N, in dumps: as MLIR */
		if (pr && pr->o.elide_larger > 0 && a->type
		    && ty_numel(a->type) > pr->o.elide_larger) {
			buf_puts(b, "dense_resource<__elided__> : ");
			print_type(b, a->type);
			return;
		}
		if (a->kind == AT_DENSE) {
			dense_out(b, a);
			return;
		}
		note_resource(pr, a->res);
		buf_puts(b, "dense_resource<");
		keyword_or_string(b, a->res ? a->res->name : "?");
		buf_puts(b, "> : ");
		print_type(b, a->type);
		return;
	case AT_DENSE_ARRAY: dense_array_out(b, a); return;
	case AT_AFFINE_MAP:
		if (pr && (k = map_alias(pr, a->map)) >= 0) {
			buf_puts(b, "#map");
			if (k)
				buf_printf(b, "%d", k);
			return;
		}
		buf_puts(b, "affine_map<");
		affmap_out(b, a->map);
		buf_putc(b, '>');
		return;
	case AT_SYMREF:
		buf_putc(b, '@');
		keyword_or_string(b, a->s);
		for (i = 0; i < a->n; i++) {
			buf_puts(b, "::@");
			keyword_or_string(b, a->elts[i]->s);
		}
		return;
	case AT_TYPE: print_type(b, a->type); return;
	case AT_OPAQUE: buf_puts(b, a->s); return;
	}
}

static int na_cmp(const void *x, const void *y)
{
	const NamedAttr *a = x, *b = y;

	return strcmp(a->name, b->name);
}

/* Entries sorted by name, as MLIR's DictionaryAttr keeps them. */
static NamedAttr *sorted(const NamedAttr *d, size_t n)
{
	NamedAttr *v = xmalloc(sizeof *v * (n ? n : 1));

	if (n)
		memcpy(v, d, sizeof *v * n);
	qsort(v, n, sizeof *v, na_cmp);
	return v;
}

static void entry_out(Printer *pr, Buf *b, const NamedAttr *e)
{
	keyword_or_string(b, e->name);
	if (e->val->kind == AT_UNIT)
		return;
	buf_puts(b, " = ");
	attr_out(pr, b, e->val, 0);
}

static void dict_out(Printer *pr, Buf *b, const NamedAttr *d, size_t n)
{
	NamedAttr *v = sorted(d, n);
	size_t i;

	buf_putc(b, '{');
	for (i = 0; i < n; i++) {
		if (i)
			buf_puts(b, ", ");
		entry_out(pr, b, &v[i]);
	}
	buf_putc(b, '}');
	free(v);
}

void print_attr(Buf *b, const Attr *a) { attr_out(NULL, b, a, 0); }
void pr_attr(Printer *pr, const Attr *a) { attr_out(pr, pr->b, a, 0); }
void pr_attr_value(Printer *pr, const Attr *a) { attr_out(pr, pr->b, a, 1); }
void pr_attr_entries(Printer *pr, const Attr *d) { dict_out(pr, pr->b, d->dict, d->n); }

static int elided(const char *name, const char *const *elide)
{
	for (; elide && *elide; elide++)
		if (strcmp(*elide, name) == 0)
			return 1;
	return 0;
}

/* linalg's generic form wants opaque iterator types, our IR has strings. */
static void iterators_out(Printer *pr, const Attr *a)
{
	size_t i;

	buf_putc(pr->b, '[');
	for (i = 0; i < a->n; i++) {
		if (i)
			buf_puts(pr->b, ", ");
		if (a->elts[i]->kind == AT_STR)
			pr_printf(pr, "#linalg.iterator_type<%s>", a->elts[i]->s);
		else
			pr_attr(pr, a->elts[i]);
	}
	buf_putc(pr->b, ']');
}

void pr_attr_dict(Printer *pr, Op *op, const char *const *elide, int kw)
{
	NamedAttr *v = sorted(op->attrs, (size_t)op->nattrs);
	int i, n = 0;

	for (i = 0; i < op->nattrs; i++) {
		if (elided(v[i].name, elide))
			continue;
		pr_puts(pr, n++ ? ", " : kw ? " attributes {" : " {");
		if (pr->o.generic && op_is(op, "linalg.generic") &&
				strcmp(v[i].name, "iterator_types") == 0 &&
				v[i].val->kind == AT_ARRAY) {
			pr_puts(pr, "iterator_types = ");
			iterators_out(pr, v[i].val);
			continue;
		}
		entry_out(pr, pr->b, &v[i]);
	}
	if (n)
		pr_puts(pr, "}");
	free(v);
}

/* ---- locations ---- */

static void loc_inner(Buf *b, const Loc *l)
{
	int i;

	switch (l->kind) {
	case LOC_UNKNOWN:
		buf_puts(b, "unknown");
		return;
	case LOC_FILE:
		print_string(b, l->file, strlen(l->file));
		buf_printf(b, ":%d:%d", l->line, l->col);
		return;
	case LOC_NAME:
		print_string(b, l->file, strlen(l->file));
		if (l->child) {
			buf_putc(b, '(');
			loc_inner(b, l->child);
			buf_putc(b, ')');
		}
		return;
	case LOC_FUSED:
		buf_puts(b, "fused");
		if (l->meta) {
			buf_putc(b, '<');
			print_attr(b, l->meta);
			buf_putc(b, '>');
		}
		buf_putc(b, '[');
		for (i = 0; i < l->n; i++) {
			if (i)
				buf_puts(b, ", ");
			loc_inner(b, l->locs[i]);
		}
		buf_putc(b, ']');
		return;
	case LOC_CALLSITE:
		buf_puts(b, "callsite(");
		loc_inner(b, l->child);
		buf_puts(b, " at ");
		loc_inner(b, l->caller);
		buf_putc(b, ')');
		return;
	}
}

void print_loc(Buf *b, const Loc *l)
{
	buf_puts(b, "loc(");
	if (l)
		loc_inner(b, l);
	else
		buf_puts(b, "unknown");
	buf_putc(b, ')');
}

static void pr_loc(Printer *pr, const Loc *l)
{
	if (!pr->o.debuginfo)
		return;
	if (pr->o.debuginfo == DEBUGINFO_CARRY &&
			(!l || l->kind == LOC_UNKNOWN || (l->kind == LOC_FILE && l->implicit)))
		return;
	buf_putc(pr->b, ' ');
	print_loc(pr->b, l);
}

/* ---- operands, regions, ops ---- */

void pr_operands(Printer *pr, Op *op, int from, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (i)
			pr_puts(pr, ", ");
		pr_value(pr, OPND(op, from + i));
	}
}

void pr_operand_types(Printer *pr, Op *op, int from, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (i)
			pr_puts(pr, ", ");
		pr_type(pr, OPND(op, from + i)->type);
	}
}

void pr_result_types(Printer *pr, Op *op)
{
	int i;

	for (i = 0; i < op->nres; i++) {
		if (i)
			pr_puts(pr, ", ");
		pr_type(pr, RES(op, i)->type);
	}
}

void pr_functional(Printer *pr, Op *op, int from, int n)
{
	pr_puts(pr, "(");
	pr_operand_types(pr, op, from, n);
	pr_puts(pr, ") -> ");
	if (op->nres == 1 && RES(op, 0)->type->kind != TY_FUNC) {
		pr_type(pr, RES(op, 0)->type);
		return;
	}
	pr_puts(pr, "(");
	pr_result_types(pr, op);
	pr_puts(pr, ")");
}

void pr_argdef(Printer *pr, Value *arg, const Attr *attrs)
{
	pr_value(pr, arg);
	pr_puts(pr, ": ");
	pr_type(pr, arg->type);
	if (attrs && attrs->kind == AT_DICT && attrs->n) {
		pr_puts(pr, " ");
		pr_attr_entries(pr, attrs);
	}
	if (arg->loc)
		pr_loc(pr, arg->loc);
}

static void print_op(Printer *pr, Op *op);

static void indent(Printer *pr, int n)
{
	while (n-- > 0)
		buf_putc(pr->b, ' ');
}

void pr_affine_map_inline(Printer *pr, const AffMap *m)
{
	buf_puts(pr->b, "affine_map<");
	affmap_out(pr->b, m);
	buf_putc(pr->b, '>');
}

void pr_lead_attr(Printer *pr, Op *op, const char *name)
{
	const char *elide[] = { name, NULL };
	Attr *a = op_attr(op, name);

	pr_puts(pr, " ");
	if (a)
		pr_attr(pr, a);
	pr_attr_dict(pr, op, elide, 0);
}

void pr_region_tail(Printer *pr, Op *op, int entry_args)
{
	pr_region(pr, &op->regs[0], entry_args);
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_result_types(pr, op);
}

/* A new line at the current indentation plus extra: for custom forms that
 * spread over lines (torch.initialize.global_slots). */
void pr_newline(Printer *pr, int extra)
{
	buf_putc(pr->b, '\n');
	indent(pr, pr->indent + extra);
}

/* The predecessors of a region's blocks, each list in block order without
 * repeats: built once per region, as a scan per block is quadratic. */
typedef struct Preds {
	int *start;      /* block i's are blk[start[i] .. start[i+1]) */
	Block **blk;
} Preds;

static void preds_build(Preds *ps, Region *r, int nb)
{
	PMap idx = {0};
	Block *x, **order = xcalloc((size_t)nb, sizeof *order);
	int *last = xmalloc(mulsz((size_t)nb, sizeof *last));
	int *fill, i, j, k, pass;

	ps->start = xcalloc((size_t)nb + 1, sizeof *ps->start);
	for (i = 0, x = r->first; x; x = x->next, i++) {
		*pmap_slot(&idx, x, 1) = (void *)(intptr_t)(i + 1);
		order[i] = x;
	}
	fill = xcalloc((size_t)nb + 1, sizeof *fill);
	ps->blk = NULL;
	/* counts, then the lists: a successor outside the region is none */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < nb; i++)
			last[i] = -1;
		for (i = 0; i < nb; i++) {
			Op *t = order[i]->last;

			for (j = 0; t && j < t->nsuccs; j++) {
				k = (int)(intptr_t)pmap_get(&idx, t->succs[j]) - 1;
				if (k < 0 || last[k] == i)
					continue;
				last[k] = i;
				if (pass == 0)
					ps->start[k + 1]++;
				else
					ps->blk[ps->start[k] + fill[k]++] = order[i];
			}
		}
		if (pass == 0) {
			for (i = 0; i < nb; i++)
				ps->start[i + 1] += ps->start[i];
			ps->blk = xcalloc((size_t)ps->start[nb] + 1, sizeof *ps->blk);
		}
	}
	free(fill);
	free(last);
	free(order);
	pmap_free(&idx);
}

/* `  // pred: ^bb0` after a non-entry block's label, block i of its
 * region. */
static void pred_comment(Printer *pr, const Preds *ps, int bi)
{
	int n = ps->start[bi + 1] - ps->start[bi], i;
	Block **preds = ps->blk + ps->start[bi];

	if (!n) {
		pr_puts(pr, "  // no predecessors");
	} else {
		pr_puts(pr, n == 1 ? "  // pred: " : "");
		if (n > 1)
			pr_printf(pr, "  // %d preds: ", n);
		for (i = 0; i < n; i++) {
			if (i)
				pr_puts(pr, ", ");
			pr_block_name(pr, preds[i]);
		}
	}
}

static void print_block(Printer *pr, Block *b, int label, const Preds *ps,
	int bi)
{
	Op *op;
	int i;

	if (label) {
		indent(pr, pr->indent);
		pr_block_name(pr, b);
		if (b->nargs) {
			pr_puts(pr, "(");
			for (i = 0; i < b->nargs; i++) {
				if (i)
					pr_puts(pr, ", ");
				pr_argdef(pr, b->args[i], NULL);
			}
			pr_puts(pr, ")");
		}
		pr_puts(pr, ":");
		if (b != b->parent->first)
			pred_comment(pr, ps, bi);
		pr_puts(pr, "\n");
	}
	pr->indent += 2;
	for (op = b->first; op; op = op->next)
		print_op(pr, op);
	pr->indent -= 2;
}

void pr_region(Printer *pr, Region *r, int entry_args)
{
	Preds ps = { NULL, NULL };
	Block *b;
	int nb = 0, i;

	for (b = r->first; b; b = b->next)
		nb++;
	if (nb > 1)
		preds_build(&ps, r, nb);
	pr_puts(pr, "{\n");
	for (i = 0, b = r->first; b; b = b->next, i++)
		print_block(pr, b, b != r->first || (entry_args && b->nargs), &ps, i);
	indent(pr, pr->indent);
	pr_puts(pr, "}");
	free(ps.start);
	free(ps.blk);
}

static void print_generic(Printer *pr, Op *op)
{
	int i;

	print_string(pr->b, op->name, strlen(op->name));
	pr_puts(pr, "(");
	pr_operands(pr, op, 0, op->nopnds);
	pr_puts(pr, ")");
	if (op->nsuccs) {
		pr_puts(pr, " [");
		for (i = 0; i < op->nsuccs; i++) {
			if (i)
				pr_puts(pr, ", ");
			pr_block_name(pr, op->succs[i]);
		}
		pr_puts(pr, "]");
	}
	if (op->nregs) {
		pr_puts(pr, " (");
		for (i = 0; i < op->nregs; i++) {
			if (i)
				pr_puts(pr, ", ");
			pr_region(pr, &op->regs[i], 1);
		}
		pr_puts(pr, ")");
	}
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_functional(pr, op, 0, op->nopnds);
}

static void print_op_name(Printer *pr, Op *op)
{
	size_t n = strlen(pr->dialect);

	if (strncmp(op->name, pr->dialect, n) == 0 && op->name[n] == '.')
		pr_puts(pr, op->name + n + 1);
	else
		pr_puts(pr, op->name);
}

static void print_op(Printer *pr, Op *op)
{
	const char *saved = pr->dialect;

	indent(pr, pr->indent);
	if (op->nres && named_apart(pr, op)) {
		int i;

		for (i = 0; i < op->nres; i++) {
			pr_puts(pr, i ? ", " : "");
			value_base(pr, RES(op, i));
		}
		pr_puts(pr, " = ");
	} else if (op->nres) {
		value_base(pr, RES(op, 0));
		if (op->nres > 1)
			pr_printf(pr, ":%d", op->nres);
		pr_puts(pr, " = ");
	}
	if (pr->o.generic || !op->info || !op->info->print) {
		print_generic(pr, op);
	} else {
		print_op_name(pr, op);
		/* regions see the op's default dialect, as MLIR's
		 * OpAsmOpInterface gives it: only func.func and the module
		 * have one */
		pr->dialect = op_is(op, "func.func") ? "func"
		    : op_is(op, "builtin.module") ? "builtin" : "";
		op->info->print(pr, op);
		pr->dialect = saved;
	}
	pr_loc(pr, op->loc);
	if (pr->indent)
		pr_puts(pr, "\n");
	if (pr->collect && pr->b->n > 1 << 16)
		pr->b->n = 0;
}

/* ---- entry points ---- */

static void printer_init(Printer *pr, Buf *b, const PrintOpts *o)
{
	memset(pr, 0, sizeof *pr);
	pr->b = b;
	if (o)
		pr->o = *o;
	pr->dialect = "builtin";
}

static void printer_free(Printer *pr)
{
	int i;

	for (i = 0; i < pr->nowned; i++)
		free(pr->owned[i]);
	free(pr->owned);
	pmap_free(&pr->ids);
	pmap_free(&pr->names);
	ns_free(&pr->used);
	free(pr->maps);
	free(pr->encs);
	free(pr->res);
	pmap_free(&pr->resset);
}

/* Names values, then prints once into a scratch buffer to find the
 * aliases and resources in order of first use. */
static void prepare(Printer *pr, Op *op)
{
	Buf scratch = {0}, *out = pr->b;

	name_all(pr, op);
	pr->b = &scratch;
	pr->collect = 1;
	print_op(pr, op);
	pr->collect = 0;
	pr->b = out;
	buf_free(&scratch);
}

static void print_aliases(Printer *pr)
{
	int i;

	for (i = 0; i < pr->nmaps; i++) {
		pr_puts(pr, "#map");
		if (i)
			pr_printf(pr, "%d", i);
		pr_puts(pr, " = affine_map<");
		affmap_out(pr->b, pr->maps[i]);
		pr_puts(pr, ">\n");
	}
	for (i = 0; i < pr->nencs; i++) {
		pr_puts(pr, "#sparse");
		if (i)
			pr_printf(pr, "%d", i);
		pr_printf(pr, " = %s\n", pr->encs[i]);
	}
}

void print_op_buf(Buf *b, Op *op, const PrintOpts *o)
{
	Printer pr;

	printer_init(&pr, b, o);
	prepare(&pr, op);
	pr.nmaps = 0;     /* inline maps: no alias lines here */
	print_op(&pr, op);
	printer_free(&pr);
}

/*
 * The resource section is most of a model's text (the weights, in hex).
 * A big one is produced by a second thread (lazy resources filled, data
 * encoded, data given back) into a ring of buffers while this one writes
 * them out, for the encoding not to wait on the pipe nor the pipe on it.
 */
enum { CHUNK = 128 << 10,       /* bytes of data encoded at a time */
	RBUF = 4 * CHUNK, NRING = 6, RING_MIN = 8 << 20 };

typedef struct Ring {
	char *buf[NRING];
	size_t len[NRING];
	int full[NRING];     /* filled and not yet written */
	int head;            /* the buffer being filled */
	size_t n;            /* bytes in it */
	int done;            /* no more to come */
	pthread_mutex_t mu;
	pthread_cond_t cv;
} Ring;

/* Where the section goes: f itself, or the ring. */
typedef struct Sink {
	FILE *f;
	Ring *ring;
} Sink;

/* The buffer being filled is ready; wait for the next to be free. */
static void ring_publish(Ring *r)
{
	pthread_mutex_lock(&r->mu);
	r->len[r->head] = r->n;
	r->full[r->head] = 1;
	pthread_cond_broadcast(&r->cv);
	r->head = (r->head + 1) % NRING;
	while (r->full[r->head])
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);
	r->n = 0;
}

/* Room for n bytes (at most RBUF) to be filled, then sink_commit'd. */
static char *sink_reserve(Sink *s, size_t n)
{
	static char direct[RBUF];

	if (!s->ring)
		return direct;
	if (RBUF - s->ring->n < n)
		ring_publish(s->ring);
	return s->ring->buf[s->ring->head] + s->ring->n;
}

static void sink_commit(Sink *s, const char *p, size_t n)
{
	if (!s->ring)
		fwrite(p, 1, n, s->f);
	else
		s->ring->n += n;
}

static void sink_put(Sink *s, const char *p, size_t n)
{
	while (n) {
		size_t k = n < RBUF ? n : RBUF;

		char *q = sink_reserve(s, k);

		memcpy(q, p, k);
		sink_commit(s, q, k);
		p += k;
		n -= k;
	}
}

static void sink_puts(Sink *s, const char *p)
{
	sink_put(s, p, strlen(p));
}

/* Streams "0x" + alignment (LE) + data in hex. */
static void resource_out(Sink *s, const Resource *r)
{
	static uint8_t *scratch;
	static size_t scratch_n;
	const uint8_t *data = r->data;
	size_t i;
	uint8_t al[4];
	Buf b = {0};

	buf_puts(&b, "      ");
	keyword_or_string(&b, r->name);
	al[0] = (uint8_t)r->align;
	al[1] = (uint8_t)(r->align >> 8);
	al[2] = (uint8_t)(r->align >> 16);
	al[3] = (uint8_t)(r->align >> 24);
	buf_printf(&b, ": \"0x%02X%02X%02X%02X", al[0], al[1], al[2], al[3]);
	sink_put(s, b.p, b.n);
	buf_free(&b);
	if (!data) {
		/* lazy: computed into one block reused for each */
		if (scratch_n < r->size) {
			free(scratch);
			scratch = xmalloc(r->size);
			scratch_n = r->size;
		}
		r->fill(r->fill_arg, scratch);
		data = scratch;
	}
	for (i = 0; i < r->size; i += CHUNK) {
		size_t k = r->size - i < CHUNK ? r->size - i : CHUNK;
		char *out = sink_reserve(s, 2 * k);

		hex_encode(out, data + i, k);
		sink_commit(s, out, 2 * k);
	}
	sink_puts(s, "\"");
}

/* Gives r's data back when nothing printed after this needs it. */
static void release(Resource *r)
{
	if (r->data && r->readers <= 0 && (r->printed || !r->queued))
		text_blob_done(r->data);
}

typedef struct Section {
	Sink sink;
	Printer *pr;
} Section;

static void *section_out(void *arg)
{
	Section *sec = arg;
	Printer *pr = sec->pr;
	Sink *s = &sec->sink;
	int i;

	sink_puts(s, "\n{-#\n  dialect_resources: {\n    builtin: {\n");
	for (i = 0; i < pr->nres; i++) {
		Resource *r = pr->res[i];

		resource_out(s, r);
		sink_puts(s, i + 1 < pr->nres ? ",\n" : "\n");
		if (pr->o.release) {
			/* its digits are out of it: the data can go, and its
			 * source's when this was the last reader */
			r->printed = 1;
			release(r);
			if (r->src) {
				r->src->readers--;
				release(r->src);
			}
		}
	}
	sink_puts(s, "    }\n  }\n#-}\n");
	if (s->ring) {
		if (s->ring->n)
			ring_publish(s->ring);
		pthread_mutex_lock(&s->ring->mu);
		s->ring->done = 1;
		pthread_cond_broadcast(&s->ring->cv);
		pthread_mutex_unlock(&s->ring->mu);
	}
	return NULL;
}

/* Writes the ring's buffers as they fill, until the producer is done. */
static void ring_drain(Ring *r, FILE *f)
{
	int i = 0;

	for (;;) {
		pthread_mutex_lock(&r->mu);
		while (!r->full[i] && !r->done)
			pthread_cond_wait(&r->cv, &r->mu);
		if (!r->full[i]) {
			pthread_mutex_unlock(&r->mu);
			return;
		}
		pthread_mutex_unlock(&r->mu);
		fwrite(r->buf[i], 1, r->len[i], f);
		pthread_mutex_lock(&r->mu);
		r->full[i] = 0;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		i = (i + 1) % NRING;
	}
}

static void print_resources(FILE *f, Printer *pr)
{
	Section sec = { { f, NULL }, pr };
	size_t total = 0;
	Ring ring;
	pthread_t th;
	int i;

	if (!pr->nres)
		return;
	for (i = 0; i < pr->nres; i++) {
		pr->res[i]->queued = 1;
		total += pr->res[i]->size;
	}
	if (pr->o.release) {
		/* what the output does not need can go now (a batch norm's
		 * statistics once folded) */
		const void **keep = xmalloc(mulsz((size_t)pr->nres * 2 + 1, sizeof *keep));
		int n = 0;

		for (i = 0; i < pr->nres; i++) {
			if (pr->res[i]->data)
				keep[n++] = pr->res[i]->data;
			if (pr->res[i]->src && pr->res[i]->src->data)
				keep[n++] = pr->res[i]->src->data;
		}
		text_blobs_only(keep, n);
		free(keep);
	}
	if (!pr->o.encoder || total < RING_MIN) {
		section_out(&sec);
		return;
	}
	memset(&ring, 0, sizeof ring);
	pthread_mutex_init(&ring.mu, NULL);
	pthread_cond_init(&ring.cv, NULL);
	for (i = 0; i < NRING; i++)
		ring.buf[i] = xmalloc(RBUF);
	sec.sink.ring = &ring;
	if (pthread_create(&th, NULL, section_out, &sec) != 0) {
		sec.sink.ring = NULL;
		section_out(&sec);
	} else {
		ring_drain(&ring, f);
		pthread_join(th, NULL);
	}
	for (i = 0; i < NRING; i++)
		free(ring.buf[i]);
	pthread_mutex_destroy(&ring.mu);
	pthread_cond_destroy(&ring.cv);
}

void print_module(FILE *f, Op *module, const PrintOpts *o)
{
	Printer pr;
	Buf b = {0};

	printer_init(&pr, &b, o);
	if (!o || !o->local_scope)
		enc_pr = &pr;
	prepare(&pr, module);
	if (o && o->local_scope)
		pr.nmaps = 0;     /* -mlir-print-local-scope: maps inline */
	else
		print_aliases(&pr);
	print_op(&pr, module);
	enc_pr = NULL;
	buf_putc(&b, '\n');
	fwrite(b.p, 1, b.n, f);
	buf_free(&b);
	print_resources(f, &pr);
	printer_free(&pr);
}
