/*
 * dispatch.c - dispatch region formation: which linalg ops get a kernel,
 * which ones are fused into it; kbuild.c builds the kernel IR of each.
 *
 * Needs: one func.func of static-shaped linalg-on-tensors (torch-lower's
 * output).  Guarantees: every tensor value is either materialized (a
 * buffer: argument, global, kernel output) or computed inside the kernels
 * that read it.  Roots (reductions, contractions, multi-result ops) get a
 * kernel; elementwise producers are inlined into their consumers (and
 * recomputed, which beats a round trip through memory); a root's chain of
 * single-use elementwise consumers becomes its epilogue; reshapes are
 * index arithmetic, never copies.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

VInfo *vinfo(Gen *g, Value *v)
{
	void **s = pmap_slot(&g->vi, v, 1);

	if (!*s) {
		VInfo *vi = arena_alloc(g->c, sizeof *vi);

		vi->result = -1;
		*s = vi;
	}
	return *s;
}

int all_parallel(const SOp *s)
{
	int i;

	for (i = 0; i < s->nloops; i++)
		if (s->red[i])
			return 0;
	return 1;
}

/* Is map a permutation of all its dims (every result a distinct dim)? */
int is_perm(const AffMap *m)
{
	uint64_t seen = 0;
	int i;

	if (m->nres != m->ndims || m->ndims > 63)
		return 0;
	for (i = 0; i < m->nres; i++) {
		if (m->res[i]->kind != AFF_DIM || (seen >> m->res[i]->v & 1))
			return 0;
		seen |= 1ull << m->res[i]->v;
	}
	return 1;
}

/* An elementwise op: one result, all loops parallel, the output a
 * permutation, so an element of the result can be computed alone. */
static int is_elementwise(Gen *g, Op *op)
{
	SOp s;

	if (!op || op->nres != 1 || wino_is(op, "input") || wino_is(op, "output"))
		return 0;   /* wino.c's transforms: kernels of their own */
	if (!op_is(op, "linalg.generic") && !op_is(op, "linalg.copy") &&
			!op_is(op, "linalg.transpose") && !op_is(op, "linalg.broadcast"))
		return 0;
	if (linalg_view(g->c, op, &s))
		return diag_errors--, 0;   /* reported again when built */
	return all_parallel(&s) && is_perm(s.maps[s.nin]);
}

/* tensor.cast, or torch-lower's cast between ui8 and i8 tensors at a
 * signature: the same elements, viewed under another type. */
int is_same_index_view(const Op *op)
{
	Type *a, *b;

	if (op_is(op, "tensor.cast"))
		return 1;
	if (!op_is(op, "builtin.unrealized_conversion_cast") || op->nopnds != 1 || op->nres != 1)
		return 0;
	a = OPND(op, 0)->type, b = RES(op, 0)->type;
	return a->kind == TY_TENSOR && b->kind == TY_TENSOR && ty_static(a) && ty_static(b) &&
		a->rank == b->rank &&
		(!a->rank || !memcmp(a->dims, b->dims, sizeof *a->dims * (size_t)a->rank)) &&
		a->elem->kind == TY_INT && b->elem->kind == TY_INT && a->elem->width == b->elem->width;
}

int is_view_op(const Op *op)
{
	return op && (op_is(op, "tensor.expand_shape") || op_is(op, "tensor.collapse_shape") ||
		is_same_index_view(op));
}

Value *view_source(Value *v)
{
	if (!is_view_op(v->def))
		return NULL;
	return OPND(v->def, 0);
}

/* A body with math beyond abs and square roots (exp, tanh, erf...): a
 * value read more than once is worth a buffer then, not recomputing. */
static int expensive(Op *op)
{
	Op *b;
	int c;

	if (!op->nregs || !op->regs[0].first)
		return 0;
	for (b = op->regs[0].first->first; b; b = b->next) {
		c = kop_of(b);
		if (kop_math(c) && c != kop.absf && c != kop.sqrt && c != kop.rsqrt)
			return 1;
	}
	return 0;
}

/* ---- planning ---- */

Op *single_user(Value *v)
{
	return v->uses && !v->uses->next ? v->uses->owner : NULL;
}

/* a tensor of 8-bit integers (a quantize's result) or of bf16 (autocast's) */
static int narrow(const Value *v)
{
	return v->type->kind == TY_TENSOR && ((v->type->elem->kind == TY_INT && v->type->elem->width == 8) ||
		v->type->elem->kind == TY_BF16);
}

/* v is computed from constants alone (seen: the values known so, or
 * known not: their own address) */
static int of_constants(Value *v, PMap *seen)
{
	void **slot = pmap_slot(seen, v, 0);
	int i, r = 1;

	if (slot)
		return *slot == v;
	if (!v->def)
		r = 0;
	else if (kop_of(v->def) != kop.constant)
		for (i = 0; i < v->def->nopnds && r; i++)
			r = of_constants(OPND(v->def, i), seen);
	*pmap_slot(seen, v, 1) = r ? v : (void *)seen;
	return r;
}

/* Follows a root's result through single-use views and elementwise ops
 * that read it with a permutation: they become the root's epilogue.
 * Returns the last op of the chain (the root itself when none); where
 * the chain passes a tensor of 8-bit integers or of bf16, the last such:
 * the quantized (rounded) tensor is the buffer, its readers dequantize
 * (widen) it as they load it, and read a quarter (half) of the floats'
 * bytes (a GEMM may take the integers or the bf16 themselves:
 * gemm_plan.c). */
static Op *epilogue_chain(Gen *g, Op *root, Op *fn)
{
	Op *end = root, *last8 = NULL;
	Value *v = RES(root, 0);

	for (;;) {
		Op *u = single_user(v);
		SOp s;
		int i, ok = 1;

		if (v != RES(root, 0) && narrow(v))
			last8 = end;
		if (!u || vinfo(g, v)->result >= 0)
			break;
		if (is_view_op(u)) {
			v = RES(u, 0);
			continue;
		}
		/* a pad that is a buffer anyway: the chain stores inside it */
		if (op_is(u, "tensor.insert_slice") && OPND(u, 0) == v && u->parent == root->parent &&
				vinfo(g, RES(u, 0))->mat && !vinfo(g, RES(u, 0))->claimed &&
				vinfo(g, RES(u, 0))->result < 0 && pad_value(g, u)) {
			end = u;
			break;
		}
		if (!is_elementwise(g, u) || linalg_view(g->c, u, &s) || u->parent != root->parent ||
				vinfo(g, RES(u, 0))->claimed)
			break;
		for (i = 0; i < u->nopnds; i++)
			if (OPND(u, i) == v && (i >= s.nin || !is_perm(s.maps[i])))
				ok = 0;
		if (!ok)
			break;
		end = u;
		v = RES(u, 0);
	}
	return last8 ? last8 : end;
}

static void count_uses(Gen *g, Op *fn)
{
	Block *b = fn->regs[0].first;
	Op *op;
	int i;

	for (op = b->first; op; op = op->next)
		for (i = 0; i < op->nres; i++) {
			Use *u;
			VInfo *vi = vinfo(g, RES(op, i));

			for (u = RES(op, i)->uses; u; u = u->next)
				vi->uses++;
		}
}

/* Tensors read inside bodies by tensor.extract need a buffer. */
static int mark_extracts(Op *op, void *env)
{
	Gen *g = env;

	if (op_is(op, "tensor.extract"))
		vinfo(g, OPND(op, 0))->mat = 1;
	if (wino_is_fix(op))
		wino_fix_buffers(g, op);
	return 0;
}

static int is_root(Gen *g, Op *op)
{
	if (!(op->info && (op->info->traits & TR_STRUCTURED)))
		return 0;
	if (op_is(op, "linalg.fill"))
		return 0;
	return !is_elementwise(g, op);
}

/* A root: its result materialized, or with an epilogue chain, the chain's
 * end (which its kernel computes). */
static void plan_root(Gen *g, Op *op, Op *fn)
{
	VInfo *vi = vinfo(g, RES(op, 0));
	int i;

	vi->root = 1;
	if (op->nres != 1) {
		for (i = 0; i < op->nres; i++)
			vinfo(g, RES(op, i))->mat = 1;
		return;
	}
	vi->chain_end = epilogue_chain(g, op, fn);
	if (vi->chain_end != op) {
		VInfo *ei = vinfo(g, RES(vi->chain_end, 0));
		Value *cv = RES(op, 0);
		Op *cu;

		/* a later root cannot take these into its own chain */
		while ((cu = single_user(cv)) && cu != vi->chain_end) {
			vinfo(g, RES(cu, 0))->claimed = 1;
			cv = RES(cu, 0);
		}
		ei->claimed = 1;

		ei->mat = 1;
		ei->absorbed = 1;
		ei->chain_root = op;
		vi->absorbed = 1;
	} else {
		vi->mat = 1;
	}
}

/* the chain members get no kernel of their own */
static void absorb_chains(Gen *g, Block *b)
{
	Op *op;

	for (op = b->first; op; op = op->next) {
		VInfo *vi;
		Op *x;
		Value *v;

		if (!op->nres || !(vi = vinfo(g, RES(op, 0)))->root || !vi->chain_end ||
				vi->chain_end == op)
			continue;
		v = RES(op, 0);
		while ((x = single_user(v)) && x != vi->chain_end) {
			vinfo(g, RES(x, 0))->absorbed = 1;
			v = RES(x, 0);
		}
		vinfo(g, RES(vi->chain_end, 0))->absorbed = 1;
	}
}

static void plan_values(Gen *g, Op *fn)
{
	Block *b = fn->regs[0].first;
	Op *op, *ret = block_terminator(b);
	int i;

	count_uses(g, fn);
	for (i = 0; i < b->nargs; i++)
		vinfo(g, b->args[i])->mat = 1;
	op_walk(fn, mark_extracts, g);
	if (ret)
		for (i = 0; i < ret->nopnds; i++)
			if (vinfo(g, OPND(ret, i))->result < 0)
				vinfo(g, OPND(ret, i))->result = i;
	/* a depthwise convolution's padded input is a buffer, so that its
	 * loads need no bounds test per element; the producer's kernel
	 * stores inside it (epilogue_chain) */
	for (op = b->first; op; op = op->next)
		if (!strncmp(op->name, "linalg.depthwise_conv", 21) && op->nopnds &&
				OPND(op, 0)->def && op_is(OPND(op, 0)->def, "tensor.insert_slice"))
			vinfo(g, OPND(op, 0))->mat = 1;
	for (op = b->first; op; op = op->next) {
		if (op_is(op, "arith.constant") && op->nres == 1 &&
				RES(op, 0)->type->kind == TY_TENSOR) {
			Attr *a = op_attr(op, "value");

			if (!(a && a->kind == AT_DENSE && a->splat))
				vinfo(g, RES(op, 0))->mat = 1;
			continue;
		}
		if (is_root(g, op)) {
			plan_root(g, op, fn);
			continue;
		}
		if (is_elementwise(g, op)) {
			VInfo *vi = vinfo(g, RES(op, 0));

			if (vi->uses > 1 && expensive(op))
				vi->mat = 1;
		}
	}
	absorb_chains(g, b);
	/* a quantize (or a rounding to bf16) of data that no root's
	 * epilogue computes (of the network's input) is a buffer too: a
	 * convolution's im2col would compute it again for every window that
	 * reads the element; not one of constants (a weight's), which a GEMM
	 * packs at compile time */
	{
		PMap seen = {0};

		for (op = b->first; op; op = op->next)
			if (op->nres == 1 && is_elementwise(g, op) && narrow(RES(op, 0)) &&
					!vinfo(g, RES(op, 0))->absorbed && !vinfo(g, RES(op, 0))->claimed &&
					!of_constants(RES(op, 0), &seen))
				vinfo(g, RES(op, 0))->mat = 1;
		pmap_free(&seen);
	}
	/* returned values that are not buffers or views of buffers */
	if (ret)
		for (i = 0; i < ret->nopnds; i++) {
			Value *v = OPND(ret, i), *s;

			while ((s = view_source(v)))
				v = s;
			if (!vinfo(g, v)->mat)
				vinfo(g, v)->mat = 1;
		}
}

/* ---- kernels and plans ---- */

static int body_macs(Op *op);

/* 1 if a linalg.generic has a reduction iterator */
static int has_reduction(Op *op)
{
	Attr *it = op_attr(op, "iterator_types");

	if (!it || it->kind != AT_ARRAY)
		return 0;
	for (size_t i = 0; i < it->n; i++)
		if (it->elts[i]->kind == AT_STR && !strcmp(it->elts[i]->s, "reduction"))
			return 1;
	return 0;
}

/* A named op's word: torch's name where linalg's spells the layout. */
static const char *short_name(const char *n)
{
	static const struct { const char *prefix, *word; } w[] = {
		{"linalg.conv_1d", "conv1d"}, {"linalg.conv_2d", "conv2d"}, {"linalg.conv_3d", "conv3d"},
		{"linalg.depthwise_conv_1d", "dwconv1d"}, {"linalg.depthwise_conv_2d", "dwconv2d"},
		{"linalg.pooling_nchw_max", "maxpool2d"}, {"linalg.pooling_nhwc_max", "maxpool2d"},
		{"linalg.pooling_nchw_sum", "sumpool2d"}, {"linalg.pooling_nhwc_sum", "sumpool2d"},
		{"linalg.batch_matmul", "bmm"},
	};

	for (size_t i = 0; i < sizeof w / sizeof *w; i++)
		if (!strncmp(n, w[i].prefix, strlen(w[i].prefix)))
			return w[i].word;
	return n;
}

/* 1 if a body only compares its input with constants and selects: a
 * clamp, torch's relu, hardtanh (where() compares inputs: not this) */
static int body_clamps(Op *op)
{
	int cmp = 0;

	for (Op *b = op->regs[0].first->first; b; b = b->next) {
		if (op_is(b, "arith.cmpf") || op_is(b, "arith.cmpi")) {
			for (int i = 0; i < b->nopnds; i++) {
				Op *d = OPND(b, i)->def;
				cmp |= d && op_is(d, "arith.constant");
			}
		} else if (!op_is(b, "arith.select") && !op_is(b, "arith.constant") && !op_is(b, "linalg.yield")) {
			return 0;
		}
	}
	return cmp;
}

/* A region body's first op that computes, or NULL when it only yields. */
static Op *body_op(Op *op)
{
	Op *b = op->nregs && op->regs[0].first ? op->regs[0].first->first : NULL;

	while (b && (op_is(b, "linalg.yield") || op_is(b, "linalg.index") || op_is(b, "arith.constant")))
		b = b->next;
	return b;
}

/* The op as a word of its kernel's name: the FX node's name when its
 * location is one (fx-import's NameLoc), else the op's after its dialect
 * (matmul, conv_2d_nchw_fchw); a region body's first op's, its type
 * suffix dropped (arith.addf: add), or copy when the body only yields.
 * Anything but [A-Za-z0-9_] becomes _. */
static const char *op_word(Gen *g, Op *op)
{
	const char *n = op->name, *dot;
	char w[64], *p;
	size_t len;
	int named = 0, body = 0;

	if (wino_kind(op)) {   /* winograd_input, _contraction, _output */
		snprintf(w, sizeof w, "winograd_%s", wino_kind(op));
		return arena_strdup(g->c, w);
	} else if (op->loc && op->loc->kind == LOC_NAME && op->loc->file && *op->loc->file) {
		n = op->loc->file;
		named = 1;
	} else if (op->nregs && op->regs[0].first && (op_is(op, "linalg.generic") || op_is(op, "linalg.map"))) {
		Op *b = body_op(op);

		n = b ? b->name : "copy";
		body = b != NULL;
		if (body_macs(op) && has_reduction(op))
			n = "contract", body = 0;
		else if (body_clamps(op))
			n = "clamp", body = 0;
	} else {
		n = short_name(n);
	}
	if (!named && (dot = strchr(n, '.')))
		n = dot + 1;
	len = strlen(n);
	if (len >= sizeof w)
		len = sizeof w - 1;
	memcpy(w, n, len);
	w[len] = 0;
	/* arith's type suffixes: addf, divsi, maxui, cmpi (not fptosi) */
	if (body && !strstr(w, "to")) {
		static const char *const suf[] = {"ui", "si", "f", "i"};
		for (size_t i = 0; i < 4; i++) {
			size_t sl = strlen(suf[i]);
			if (len > sl + 1 && !strcmp(w + len - sl, suf[i])) {
				w[len - sl] = 0;
				break;
			}
		}
	}
	for (p = w; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_'))
			*p = '_';
	return arena_strdup(g->c, w);
}

/* 1 if op's region body multiplies and adds (a contraction's MAC) */
static int body_macs(Op *op)
{
	int mul = 0, add = 0;

	if (!op->nregs || !op->regs[0].first)
		return 0;
	for (Op *b = op->regs[0].first->first; b; b = b->next) {
		mul |= op_is(b, "arith.mulf") || op_is(b, "arith.muli");
		add |= op_is(b, "arith.addf") || op_is(b, "arith.addi");
	}
	return mul && add;
}

/* The op's floating-point (or integer) operations, as vmfb.md counts
 * them: 2 per multiply-accumulate of a contraction (matmul, conv, or a
 * generic reducing a product), 1 per loop iteration of any other
 * structured op that computes (elementwise: per output element;
 * reductions and pools: per element reduced), 0 for copies, fills and
 * data movement (views, pads, concats). */
static int64_t op_flops(Gen *g, Op *op)
{
	LinalgView s;
	int64_t n = 1, per;
	int red = 0;

	if (!op->info || !(op->info->traits & TR_STRUCTURED) || !linalg_viewable(op) ||
	    linalg_view(g->c, op, &s))
		return 0;
	for (int i = 0; i < s.nloops; i++) {
		red |= s.red[i];
		if (__builtin_mul_overflow(n, s.ext[i], &n))
			return INT64_MAX / 2;
	}
	if (s.body == BODY_MAC)
		per = 2;
	else if (s.body == BODY_COPY)
		per = 0;
	else if (s.body != BODY_REGION)
		per = 1;
	else if (red && body_macs(op))
		per = 2;
	else
		per = body_op(op) != NULL;
	return per * n;
}

void kernel_add_fused(Gen *g, Kernel *k, Op *op)
{
	const Loc *l = loc_filepos(op->loc);
	const char *nm = op->loc && op->loc->kind == LOC_NAME ? op->loc->file : NULL;
	const char **w = arena_alloc(g->c, sizeof *w * (size_t)(k->nwords + 1));
	int64_t fl = op_flops(g, op);

	buf_printf(&k->fused, "    %s", op->name);
	if (nm)
		buf_printf(&k->fused, " \"%s\"", nm);
	if (l)
		buf_printf(&k->fused, " at %s:%d:%d", l->file, l->line, l->col);
	buf_putc(&k->fused, '\n');
	/* the root's word first, then the others that compute, in order */
	if (op != k->root && !fl) {
		w = k->words;
		k->nwords--;
	} else if (op == k->root) {
		if (k->nwords)
			memcpy(w + 1, k->words, sizeof *w * (size_t)k->nwords);
		w[0] = op_word(g, op);
	} else {
		if (k->nwords)
			memcpy(w, k->words, sizeof *w * (size_t)k->nwords);
		w[k->nwords] = op_word(g, op);
	}
	k->words = w;
	k->nwords++;
	/* an op read without loc(...) has its place in the input's text,
	 * which names no source (a pipe's, or an intermediate file's) */
	if (l && !l->implicit && (op == k->root || !k->at))
		k->at = l;
	if (__builtin_add_overflow(k->flops, fl, &k->flops))
		k->flops = INT64_MAX / 2;
}

static int64_t ty_bytes(const Type *t)
{
	return ty_numel(t) * (int64_t)elem_size(t->elem);
}

void kernel_label(Gen *g, Kernel *k)
{
	Buf b = {0};
	int shown = 0;

	buf_puts(&b, k->name);
	/* a kernel of the target's own (a gemm's pack): its first fused line */
	if (!k->nwords && k->fused.n) {
		size_t i = 0, j;
		while (i < k->fused.n && k->fused.p[i] == ' ')
			i++;
		for (j = i; j < k->fused.n && isalnum((unsigned char)k->fused.p[j]); j++)
			;
		if (j > i)
			buf_printf(&b, "_%.*s", (int)(j - i), k->fused.p + i);
	}
	for (int i = 0; i < k->nwords && shown < 3; i++) {
		int dup = 0;
		for (int j = 0; j < i; j++)
			dup |= !strcmp(k->words[i], k->words[j]);
		if (!dup) {
			buf_printf(&b, "_%s", k->words[i]);
			shown++;
		}
	}
	if (k->at) {
		const char *base = strrchr(k->at->file, '/');
		buf_printf(&b, "@%s:%d", base ? base + 1 : k->at->file, k->at->line);
	}
	buf_putc(&b, 0);
	k->display = arena_strdup(g->c, b.p);
	buf_free(&b);
	if (k->at) {
		char s[1024];
		snprintf(s, sizeof s, "%s:%d:%d", k->at->file, k->at->line, k->at->col);
		k->source = arena_strdup(g->c, s);
	} else {
		k->source = "";
	}
	k->bytes = 0;
	for (int i = 0; i < k->nbind; i++)
		k->bytes += ty_bytes(k->bind[i].type);
}

Kernel *kernel_new(Gen *g, Op *root)
{
	Kernel *k = arena_alloc(g->c, sizeof *k);
	char name[32];

	snprintf(name, sizeof name, "dispatch_%d", g->nk);
	k->name = arena_strdup(g->c, name);
	k->root = root;
	k->grid[0] = k->grid[1] = k->grid[2] = 1;
	if (g->nk == g->ck)
		g->k = xrealloc(g->k, sizeof *g->k * (size_t)(g->ck = g->ck ? 2 * g->ck : 16));
	g->k[g->nk++] = k;
	return k;
}

int kernel_bind(Kernel *k, Value *v, Type *t, int out)
{
	for (int i = 0; i < k->nbind; i++)
		if (k->bind[i].val == v && k->bind[i].out == out)
			return i;
	k->bind = xrealloc(k->bind, sizeof *k->bind * (size_t)(k->nbind + 1));
	k->bind[k->nbind] = (KBind){ v, t, out };
	return k->nbind++;
}

KBound kernel_dims_bound(const Kernel *k, const int *ds, int n)
{
	KBound b = { 0, 0, 1 };
	int64_t inner = 1;

	if (!k->bound || !n || !k->bound[ds[0]].c || k->bound[ds[0]].q != 1)
		return b;
	for (int i = 1; i < n; i++)
		inner *= k->ext[ds[i]];
	return (KBound){ k->bound[ds[0]].c * inner, k->bound[ds[0]].d * inner, 1 };
}

void plan_push(FnPlan *fp, Kernel *k, Op *op)
{
	HostStep st = { 0, k, NULL, NULL, NULL, op };

	if (k->bound)   /* the length its bounded loops read */
		k->lenbuf = kernel_bind(k, k->len, k->len->type, 0);

	if (fp->n == fp->cap)
		fp->st = xrealloc(fp->st, sizeof *fp->st * (size_t)(fp->cap = fp->cap ? 2 * fp->cap : 16));
	fp->st[fp->n++] = st;
}

int plan_function(Gen *g, Op *fn, FnPlan *fp)
{
	Block *b = fn->regs[0].first;
	Op *op;
	int i;

	for (i = 0; i < b->nargs; i++)
		if (b->args[i]->type->kind == TY_TENSOR && !ty_static(b->args[i]->type))
			return op_error(fn, "dynamic shapes are not supported"), -1;
		else if (b->args[i]->type->kind != TY_TENSOR)
			return op_error(fn, "function arguments must be tensors"), -1;
	wino_rewrite(g, fn);
	plan_values(g, fn);
	plan_layouts(g, fn);
	for (op = b->first; op; op = op->next) {
		VInfo *vi;

		if (op_is(op, "func.return") || !op->nres)
			continue;
		for (i = 0; i < op->nres; i++)
			if (RES(op, i)->type->kind == TY_TENSOR && !ty_static(RES(op, i)->type))
				return op_error(op, "dynamic shapes are not supported"), -1;
		vi = vinfo(g, RES(op, 0));
		if (vi->root && (!vi->chain_end || vi->chain_end == op)) {
			if (build_root(g, op, fp))
				return -1;
		} else if (vi->chain_root) {
			/* dispatched where the epilogue's last operand is ready */
			if (build_root(g, vi->chain_root, fp))
				return -1;
		} else if (vi->root) {
			continue;
		} else if (vi->mat && !vi->absorbed && !op_is(op, "arith.constant") &&
				RES(op, 0)->type->kind == TY_TENSOR) {
			if (build_value(g, RES(op, 0), op, fp))
				return -1;
		} else if (!vi->mat && !vi->absorbed && RES(op, 0)->type->kind == TY_TENSOR &&
				!(op->info && (op->info->traits & (TR_STRUCTURED))) &&
				!is_view_op(op) && !op_is(op, "tensor.empty") &&
				!op_is(op, "tensor.extract_slice") && !op_is(op, "tensor.insert_slice") &&
				!op_is(op, "arith.constant")) {
			return op_error(op, "unsupported op '%s'", op->name), -1;
		}
	}
	return 0;
}
