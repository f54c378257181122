/*
 * pack.c - fxvm IR to .vmfb (formats/vmfb.md).
 *
 * Walks the module once: executables (each object checked by linking it
 * as the runtime will), kernels, globals, then every function's host
 * program, turning each buffer value into a (base, index, offset, size)
 * record with views folded in.  Every rule of formats/fxvm.md the runtime
 * relies on is checked here first, with the op's location.  The file is
 * then written in one pass: header, section table, the small sections,
 * the objects and the constants straight from the parsed blobs.
 */
#include <stdlib.h>
#include <string.h>

#include "pack.h"
#include "rt/rt.h"
#include "rt/vmfb.h"
#include "tool.h"
#include "util.h"

typedef struct Piece {
	const void *p;
	size_t n;
} Piece;

typedef struct Pack {
	Ctx *c;
	Op *mod;
	int tgt;              /* TARGET_* */
	Buf strs, target;
	PMap strmap;                /* interned string -> offset + 1 */
	Buf types, dims, funcs, bufs, insts, binds, execs, kerns, globals;
	Buf kinfo;                  /* VmfbKernInfo per kernel */
	Buf batch, chunks;          /* VmfbBatch, VmfbChunk (fxvm.batch) */
	Buf length;                 /* VmfbLength (fxvm.length) */
	Buf grids;                  /* VmfbGrid (a dispatch's grid_length) */
	PMap funcidx;               /* interned function name -> index + 1 */
	int has_kinfo;              /* any kernel says more than its name */
	PMap syms;                  /* interned name -> executable/kernel/global op */
	PMap symidx;                /* op -> index + 1 in its table */
	Piece *objs;                /* per executable */
	Piece *cpieces;             /* per global: its bytes */
	const char **cres;          /* per global: dense_resource<NAME>'s NAME, or NULL */
	uint32_t *chash;            /* per global: the CRC-32C of its bytes */
	int *calias;                /* per global: the earlier global whose bytes
	                             * it shares (the same offset), or -1 */
	void **owned;               /* splats written out: freed at the end */
	int nobjs, nglobals, nowned, nparams;
	uint64_t nconsts;
	PMap vbuf;                  /* Value -> buffer number + 1, per function */
} Pack;

#define COUNT(b, T) ((uint32_t)((b).n / sizeof(T)))
#define AT(b, T, i) (((T *)(b).p)[i])

static int
fail(Op *op, const char *fmt, const char *a)
{
	op_error(op, fmt, a);
	return -1;
}

static uint32_t
str(Pack *pk, const char *s)
{
	const char *k = intern(pk->c, s);
	void **slot = pmap_slot(&pk->strmap, k, 1);
	uint32_t off;

	if (*slot)
		return (uint32_t)(uintptr_t)*slot - 1;
	if (pk->strs.n == 0)
		buf_putc(&pk->strs, 0);
	off = (uint32_t)pk->strs.n;
	buf_put(&pk->strs, s, strlen(s) + 1);
	*slot = (void *)(uintptr_t)(off + 1);
	return off;
}

static int
dtype_of(const Type *t)
{
	switch (t->kind) {
	case TY_F16: return DT_F16;
	case TY_BF16: return DT_BF16;
	case TY_F32: return DT_F32;
	case TY_F64: return DT_F64;
	case TY_INT:
		if (t->width == 1)
			return DT_BOOL;
		switch (t->width) {
		case 8: return t->sign == UNSIGNED ? DT_U8 : DT_I8;
		case 16: return t->sign == UNSIGNED ? DT_U16 : DT_I16;
		case 32: return t->sign == UNSIGNED ? DT_U32 : DT_I32;
		case 64: return t->sign == UNSIGNED ? DT_U64 : DT_I64;
		}
		return 0;
	default:
		return 0;
	}
}

/* The byte size of a buffer type, or -1 after an error at op. */
static int64_t
buf_size(Op *op, const Type *t)
{
	int dt;
	Buf b = {0};
	int64_t n;

	if (t->kind != TY_TENSOR || !ty_static(t) || t->rank > VMFB_MAX_RANK
	    || !(dt = dtype_of(t->elem))) {
		print_type(&b, t);
		buf_putc(&b, 0);
		op_error(op, "'%s' is not a buffer type (a static tensor of rank <= 16 "
		    "of f16, bf16, f32, f64, i1 or 8- to 64-bit integers)", b.p);
		buf_free(&b);
		return -1;
	}
	n = ty_numel(t);
	if (n < 0 || n > ((int64_t)1 << 56) / 8)
		return fail(op, "tensor of %s elements is too large", "so many");
	return n * (int64_t)vmfb_dtype_size(dt);
}

/* Appends a VmfbType; returns its index or -1.  complex: the type is
 * [..., 2] of f32 or f64 (real, imaginary) and is recorded as c64 or c128
 * of the leading dims (fxpipe.complex_args, fxpipe.complex_results). */
static int
add_type_cx(Pack *pk, Op *op, const Type *t, int complex)
{
	int64_t size = buf_size(op, t);
	VmfbType vt = {0};

	if (size < 0)
		return -1;
	vt.dtype = dtype_of(t->elem);
	vt.rank = t->rank;
	vt.first_dim = COUNT(pk->dims, int64_t);
	vt.nbytes = size;
	if (complex) {
		if (!t->rank || t->dims[t->rank - 1] != 2 || (vt.dtype != DT_F32 && vt.dtype != DT_F64))
			return fail(op, "a complex argument or result must be [..., 2] of f32 or "
			    "f64%s", "");
		vt.dtype = vt.dtype == DT_F32 ? DT_C64 : DT_C128;
		vt.rank--;
	}
	if (vt.rank)
		buf_put(&pk->dims, t->dims, vt.rank * sizeof(int64_t));
	buf_put(&pk->types, &vt, sizeof vt);
	return COUNT(pk->types, VmfbType) - 1;
}

static int
add_type(Pack *pk, Op *op, const Type *t)
{
	return add_type_cx(pk, op, t, 0);
}

/* 1 if index i is listed in the function's array attribute name; -1 if
 * the attribute is malformed. */
static int
listed(Op *fn, const char *name, int i, int n)
{
	Attr *a = op_attr(fn, name);

	if (!a)
		return 0;
	if (a->kind != AT_DENSE_ARRAY)
		return -1;
	for (size_t k = 0; k < a->n; k++) {
		if (a->ints[k] < 0 || a->ints[k] >= n)
			return -1;
		if (a->ints[k] == i)
			return 1;
	}
	return 0;
}

static const char *
str_attr(Pack *pk, Op *op, const char *name)
{
	Attr *a = op_attr(op, name);

	return a && a->kind == AT_STR ? arena_strndup(pk->c, a->s, a->n) : NULL;
}

static int
int_attr(Op *op, const char *name, int64_t *v)
{
	Attr *a = op_attr(op, name);

	if (!a || a->kind != AT_INT)
		return fail(op, "needs an integer attribute '%s'", name);
	*v = a->i;
	return 0;
}

/* The op a symbol ref attribute names, checked to be of kind opname. */
static Op *
sym_attr(Pack *pk, Op *op, const char *name, const char *opname)
{
	Attr *a = op_attr(op, name);
	Op *def;

	if (!a || a->kind != AT_SYMREF) {
		fail(op, "needs a symbol attribute '%s'", name);
		return NULL;
	}
	def = pmap_get(&pk->syms, intern(pk->c, a->s));
	if (!def || !op_is(def, opname)) {
		op_error(op, "'@%s' is not an %s in this module", a->s, opname);
		return NULL;
	}
	return def;
}

static int
sym_index(Pack *pk, Op *def)
{
	return (int)(uintptr_t)pmap_get(&pk->symidx, def) - 1;
}

/* ---- module-level ops ---- */

static int
check_object(Op *op, const void *p, size_t n)
{
#if defined(__x86_64__)
	char msg[400];

	if (rt_object_check(p, n, NULL, msg, sizeof msg))
		return fail(op, "kernel object: %s", msg);
#endif
	return 0;
}

static int
add_executable(Pack *pk, Op *op)
{
	const char *fmt = str_attr(pk, op, "format");
	Attr *obj = op_attr(op, "object");
	VmfbExec e = {0};
	const void *p;
	size_t n;

	if (!fmt || (strcmp(fmt, "elf-x86_64") && strcmp(fmt, "ptx")))
		return fail(op, "format must be \"elf-x86_64\" or \"ptx\"%s", "");
	e.format = !strcmp(fmt, "ptx") ? FMT_PTX : FMT_ELF_X86_64;
	if (e.format != (pk->tgt == TARGET_CPU ? FMT_ELF_X86_64 : FMT_PTX))
		return fail(op, "a %s object in a module for another target", fmt);
	if (!obj || (obj->kind != AT_DENSE && obj->kind != AT_DENSE_RESOURCE)
	    || !obj->type || !obj->type->elem || obj->type->elem->kind != TY_INT
	    || obj->type->elem->width != 8 || (obj->kind == AT_DENSE && obj->splat))
		return fail(op, "needs an 'object' of bytes (dense_resource<...> : tensor<Nxui8>)%s", "");
	p = dense_bytes(obj, &n);
	if (!p || (ty_numel(obj->type) >= 0 && (size_t)ty_numel(obj->type) != n))
		return fail(op, "the object's blob is missing or its size does not match its type%s", "");
	if (e.format == FMT_PTX && (n == 0 || ((const char *)p)[n - 1]))
		return fail(op, "PTX text must end with a NUL byte%s", "");
	if (e.format == FMT_ELF_X86_64 && check_object(op, p, n))
		return -1;
	e.name = str(pk, op_sym_name(op));
	e.section = pk->nobjs;     /* an object number until the layout */
	pk->objs = xrealloc(pk->objs, (pk->nobjs + 1) * sizeof *pk->objs);
	pk->objs[pk->nobjs++] = (Piece){p, n};
	buf_put(&pk->execs, &e, sizeof e);
	return 0;
}

/* A kernel's optional display_name, source, bytes and flops (codegen's). */
static int
add_kinfo(Pack *pk, Op *op)
{
	VmfbKernInfo ki = {0};
	static const char *const strs[] = {"display_name", "source"}, *const ints[] = {"bytes", "flops"};
	uint32_t *sf[] = {&ki.display, &ki.source};
	uint64_t *intf[] = {&ki.bytes, &ki.flops};

	for (int i = 0; i < 2; i++) {
		Attr *a = op_attr(op, strs[i]);
		if (!a)
			continue;
		if (a->kind != AT_STR)
			return fail(op, "'%s' must be a string", strs[i]);
		*sf[i] = str(pk, arena_strndup(pk->c, a->s, a->n));
		pk->has_kinfo = 1;
	}
	for (int i = 0; i < 2; i++) {
		Attr *a = op_attr(op, ints[i]);
		if (!a)
			continue;
		if (a->kind != AT_INT || a->i < 0)
			return fail(op, "'%s' must be an integer >= 0", ints[i]);
		*intf[i] = a->i;
		pk->has_kinfo = 1;
	}
	buf_put(&pk->kinfo, &ki, sizeof ki);
	return 0;
}

static int
add_kernel(Pack *pk, Op *op)
{
	VmfbKern k = {0};
	const char *sym = str_attr(pk, op, "symbol");
	Op *ex = sym_attr(pk, op, "executable", "fxvm.executable");
	int64_t nb;
	Attr *block = op_attr(op, "block"), *shared = op_attr(op, "shared");

	if (!ex || int_attr(op, "bindings", &nb))
		return -1;
	if (!sym || !*sym)
		return fail(op, "needs a string attribute 'symbol'%s", "");
	if (nb < 0 || nb > 65536)
		return fail(op, "'bindings' must be 0 to 65536%s", "");
	k.name = str(pk, op_sym_name(op));
	k.exec = sym_index(pk, ex);
	k.symbol = str(pk, sym);
	k.nbindings = nb;
	if (block) {
		if (block->kind != AT_DENSE_ARRAY || block->n != 3)
			return fail(op, "'block' must be array<i64: x, y, z>%s", "");
		for (int i = 0; i < 3; i++) {
			if (block->ints[i] < 1 || block->ints[i] > 1024)
				return fail(op, "'block' sizes must be 1 to 1024%s", "");
			k.block[i] = block->ints[i];
		}
	}
	if (shared) {
		if (shared->kind != AT_INT || shared->i < 0 || shared->i > UINT32_MAX)
			return fail(op, "'shared' must be a byte count%s", "");
		k.shared = shared->i;
	}
#if defined(__x86_64__)
	if (pk->tgt == TARGET_CPU) {
		/* Link once more to look the symbol up: cheap, and exact. */
		Piece *o = &pk->objs[sym_index(pk, ex)];
		char msg[400];
		/* one that does not load was reported by check_object */
		if (rt_object_check(o->p, o->n, sym, msg, sizeof msg) == 1) {
			op_error(op, "the object of '@%s' has no global function '%s'", op_sym_name(ex), sym);
			return -1;
		}
	}
#endif
	buf_put(&pk->kerns, &k, sizeof k);
	return add_kinfo(pk, op);
}

static int
add_global(Pack *pk, Op *op)
{
	Attr *ta = op_attr(op, "type"), *val = op_attr(op, "value");
	Type *t;
	VmfbGlobal g = {0};
	int ti;
	const uint8_t *p;
	size_t n;
	int64_t size;

	if (!val || (val->kind != AT_DENSE && val->kind != AT_DENSE_RESOURCE))
		return fail(op, "needs a 'value' (dense<...> or dense_resource<...>)%s", "");
	t = ta && ta->kind == AT_TYPE ? ta->type : val->type;
	if ((ti = add_type(pk, op, t)) < 0)
		return -1;
	size = AT(pk->types, VmfbType, ti).nbytes;
	/* checked before a splat is written out in memory */
	if ((uint64_t)size > VMFB_MAX_CONSTS - (pk->nconsts + VMFB_ALIGN - 1) / VMFB_ALIGN * VMFB_ALIGN
	    || pk->nconsts > VMFB_MAX_CONSTS) {
		char msg[160];
		snprintf(msg, sizeof msg, "%lld bytes (after %llu bytes of constants before it)",
		    (long long)size, (unsigned long long)pk->nconsts);
		return fail(op, "the constant's %s exceed vmpack's limit of 2^36 bytes (64 GiB) of constants", msg);
	}
	p = dense_bytes(val, &n);
	if (val->kind == AT_DENSE && val->splat && val->type && ty_static(val->type)) {
		size_t es = elem_size(val->type->elem), total = (size_t)ty_numel(val->type) * es;
		uint8_t *q;
		if (n != es || total != (size_t)size)
			return fail(op, "the splat value does not fill the global's type%s", "");
		/* malloc, not the context's arena: too little memory is an
		 * error here, not an abort */
		if (!(q = malloc(total ? total : 1))) {
			char msg[64];
			snprintf(msg, sizeof msg, "%zu", total);
			return fail(op, "cannot allocate the %s bytes of the splat constant", msg);
		}
		pk->owned = xrealloc(pk->owned, (pk->nowned + 1) * sizeof *pk->owned);
		pk->owned[pk->nowned++] = q;
		for (size_t i = 0; i < total; i += es)
			memcpy(q + i, p, es);
		p = q, n = total;
	}
	if ((n && !p) || n != (size_t)size) {
		char msg[64];
		snprintf(msg, sizeof msg, "%zu", n);
		return fail(op, "the value has %s bytes, its type needs a different size", msg);
	}
	g.name = str(pk, op_sym_name(op));
	g.type = ti;
	g.size = size;
	pk->cpieces = xrealloc(pk->cpieces, (pk->nglobals + 1) * sizeof *pk->cpieces);
	pk->cres = xrealloc(pk->cres, (pk->nglobals + 1) * sizeof *pk->cres);
	pk->chash = xrealloc(pk->chash, (pk->nglobals + 1) * sizeof *pk->chash);
	pk->calias = xrealloc(pk->calias, (pk->nglobals + 1) * sizeof *pk->calias);
	/* bytes equal to an earlier global's are stored once (the weights
	 * of a dynamic batch's chunk functions, zero biases) */
	pk->chash[pk->nglobals] = crc32c(0, p, n);
	pk->calias[pk->nglobals] = -1;
	for (int k = 0; k < pk->nglobals; k++)
		if (pk->calias[k] < 0 && pk->chash[k] == pk->chash[pk->nglobals] && pk->cpieces[k].n == n
		    && (!n || !memcmp(pk->cpieces[k].p, p, n))) {
			pk->calias[pk->nglobals] = k;
			break;
		}
	if (pk->calias[pk->nglobals] >= 0) {
		g.offset = AT(pk->globals, VmfbGlobal, pk->calias[pk->nglobals]).offset;
	} else {
		g.offset = (pk->nconsts + VMFB_ALIGN - 1) & ~(uint64_t)(VMFB_ALIGN - 1);
		pk->nconsts = g.offset + size;
	}
	pk->cres[pk->nglobals] = val->kind == AT_DENSE_RESOURCE && val->res ? val->res->name : NULL;
	pk->cpieces[pk->nglobals++] = (Piece){p, n};
	buf_put(&pk->globals, &g, sizeof g);
	return 0;
}

/* ---- host programs ---- */

static int
buf_of(Pack *pk, Op *op, Value *v, VmfbBuf *out)
{
	uint32_t idx = (uint32_t)(uintptr_t)pmap_get(&pk->vbuf, v);
	const VmfbFunc *f = &AT(pk->funcs, VmfbFunc, COUNT(pk->funcs, VmfbFunc) - 1);

	if (!idx)
		return fail(op, "an operand is not an fxvm buffer%s", "");
	*out = AT(pk->bufs, VmfbBuf, f->first_buf + idx - 1);
	return (int)idx - 1;
}

static int
new_buf(Pack *pk, Value *v, VmfbBuf b)
{
	VmfbFunc *f = &AT(pk->funcs, VmfbFunc, COUNT(pk->funcs, VmfbFunc) - 1);

	buf_put(&pk->bufs, &b, sizeof b);
	f = &AT(pk->funcs, VmfbFunc, COUNT(pk->funcs, VmfbFunc) - 1);
	f->nbufs++;
	*pmap_slot(&pk->vbuf, v, 1) = (void *)(uintptr_t)f->nbufs;
	return 0;
}

static int
writable(Op *op, const VmfbBuf *b)
{
	if (b->base != BASE_ARENA && b->base != BASE_RESULT)
		return fail(op, "writes a read-only buffer (an argument or a constant)%s", "");
	return 0;
}

/* Fill value bits for the element type. */
static int
fill_bits(Op *op, Attr *a, const Type *et, uint64_t *bits)
{
	if (!a || (a->kind != AT_INT && a->kind != AT_FLOAT))
		return fail(op, "needs a scalar 'value' attribute%s", "");
	if (ty_isfloat(et)) {
		double v = a->kind == AT_FLOAT ? a->f : (double)a->i;
		*bits = fp_bits(v, et);
	} else {
		int64_t v = a->kind == AT_INT ? a->i : (int64_t)a->f;
		int w = et->width == 1 ? 8 : et->width;
		if (et->width == 1)
			v = v != 0;
		*bits = w == 64 ? (uint64_t)v : (uint64_t)v & (((uint64_t)1 << w) - 1);
	}
	return 0;
}

/* A dispatch's grid at the call's length (formats/fxvm.md): grid_length
 * = array<i64: c, d, q per axis> with length = the operand holding n. */
static int
grid_length(Pack *pk, Op *op, VmfbInst *in)
{
	Attr *gl = op_attr(op, "grid_length"), *ln = op_attr(op, "length");
	VmfbGrid g = {0};
	Type *t;

	if (!gl && !ln)
		return 0;
	if (!gl || gl->kind != AT_DENSE_ARRAY || gl->n != 9 || !ln || ln->kind != AT_INT)
		return fail(op, "needs both 'grid_length' = array<i64: c, d, q per axis> and 'length' = "
		    "the operand holding the length%s", "");
	if (ln->i < 0 || ln->i >= op->nopnds || (t = OPND(op, ln->i)->type)->kind != TY_TENSOR
	    || t->rank != 1 || t->dims[0] != 1 || dtype_of(t->elem) != DT_I64)
		return fail(op, "'length' must name an operand of type tensor<1xi64>%s", "");
	g.binding = (uint32_t)ln->i;
	for (int a = 0; a < 3; a++) {
		g.c[a] = gl->ints[3 * a], g.d[a] = gl->ints[3 * a + 1], g.q[a] = gl->ints[3 * a + 2];
		if (g.c[a] < 0 || (!g.c[a] && (g.d[a] || g.q[a])) || (g.c[a] && g.q[a] < 1))
			return fail(op, "grid_length: each axis is 0, 0, 0 (static) or c > 0, d, q > 0%s", "");
	}
	buf_put(&pk->grids, &g, sizeof g);
	in->grid = (uint32_t)COUNT(pk->grids, VmfbGrid);
	return 0;
}

static int
host_op(Pack *pk, Op *op, VmfbFunc *fn, Type *const *restys)
{
	VmfbBuf b = {0}, src;
	VmfbInst in = {0};
	int64_t size, v;

	if (op_is(op, "fxvm.result")) {
		if (int_attr(op, "index", &v))
			return -1;
		if (v < 0 || v >= fn->nresults)
			return fail(op, "result index out of range%s", "");
		if (RES(op, 0)->type != restys[v])
			return fail(op, "its type is not that of the function's result%s", "");
		b = (VmfbBuf){BASE_RESULT, v, 0, AT(pk->types, VmfbType, fn->first_result + v).nbytes};
		return new_buf(pk, RES(op, 0), b);
	}
	if (op_is(op, "fxvm.alloc")) {
		if (int_attr(op, "offset", &v) || (size = buf_size(op, RES(op, 0)->type)) < 0)
			return -1;
		if (v < 0 || v % VMFB_ALIGN)
			return fail(op, "arena offset must be a non-negative multiple of 64%s", "");
		if ((uint64_t)v > fn->arena_size || (uint64_t)size > fn->arena_size - v)
			return fail(op, "the buffer does not fit in the function's fxvm.arena%s", "");
		return new_buf(pk, RES(op, 0), (VmfbBuf){BASE_ARENA, 0, v, size});
	}
	if (op_is(op, "fxvm.constant")) {
		Op *g = sym_attr(pk, op, "global", "fxvm.global");
		if (!g || (size = buf_size(op, RES(op, 0)->type)) < 0)
			return -1;
		int gi = sym_index(pk, g);
		if ((uint64_t)size != AT(pk->globals, VmfbGlobal, gi).size)
			return fail(op, "its type's size is not that of the global%s", "");
		return new_buf(pk, RES(op, 0), (VmfbBuf){BASE_CONST, gi, 0, size});
	}
	if (op_is(op, "fxvm.view")) {
		if (buf_of(pk, op, OPND(op, 0), &src) < 0 || int_attr(op, "offset", &v)
		    || (size = buf_size(op, RES(op, 0)->type)) < 0)
			return -1;
		if (v < 0 || (uint64_t)v > src.size || (uint64_t)size > src.size - v)
			return fail(op, "the view is not inside its buffer%s", "");
		src.offset += v;
		src.size = size;
		return new_buf(pk, RES(op, 0), src);
	}
	if (op_is(op, "fxvm.dispatch")) {
		Op *k = sym_attr(pk, op, "kernel", "fxvm.kernel");
		Attr *wg = op_attr(op, "grid");
		if (!k)
			return -1;
		int ki = sym_index(pk, k);
		if (!wg || wg->kind != AT_DENSE_ARRAY || wg->n != 3)
			return fail(op, "needs 'grid' = array<i64: X, Y, Z>%s", "");
		for (int i = 0; i < 3; i++)
			if (wg->ints[i] < 1 || wg->ints[i] > UINT32_MAX)
				return fail(op, "workgroup counts must be 1 to 2^32-1%s", "");
		if ((uint32_t)op->nopnds != AT(pk->kerns, VmfbKern, ki).nbindings)
			return fail(op, "binds a different number of buffers than the kernel's 'bindings'%s", "");
		in = (VmfbInst){INST_DISPATCH, ki, COUNT(pk->binds, uint32_t), op->nopnds,
		    wg->ints[0], wg->ints[1], wg->ints[2], 0, 0};
		if (grid_length(pk, op, &in))
			return -1;
		for (int i = 0; i < op->nopnds; i++) {
			int bi = buf_of(pk, op, OPND(op, i), &src);
			uint32_t u = bi;
			if (bi < 0)
				return -1;
			buf_put(&pk->binds, &u, sizeof u);
		}
	} else if (op_is(op, "fxvm.copy")) {
		VmfbBuf dst;
		int s = buf_of(pk, op, OPND(op, 0), &src), d = buf_of(pk, op, OPND(op, 1), &dst);
		if (s < 0 || d < 0 || writable(op, &dst))
			return -1;
		if (src.size != dst.size)
			return fail(op, "source and destination differ in size%s", "");
		in = (VmfbInst){INST_COPY, s, d, 0, 0, 0, 0, 0, src.size};
	} else if (op_is(op, "fxvm.fill")) {
		int d = buf_of(pk, op, OPND(op, 0), &b);
		uint64_t bits;
		if (d < 0 || writable(op, &b) || buf_size(op, OPND(op, 0)->type) < 0
		    || fill_bits(op, op_attr(op, "value"), OPND(op, 0)->type->elem, &bits))
			return -1;
		in = (VmfbInst){INST_FILL, d, 0, elem_size(OPND(op, 0)->type->elem), 0, 0, 0, 0, bits};
		if (b.size % in.c)
			return fail(op, "fills a view that is not whole elements%s", "");
		Attr *a = op_attr(op, "interior");
		if (a) {
			/* the box it need not fill: its tensor's dims, then the
			 * box's offsets and sizes (the verifier checked them) */
			Type *t = OPND(op, 0)->type;
			in.x = (uint32_t)t->rank;
			in.y = COUNT(pk->dims, int64_t);
			buf_put(&pk->dims, t->dims, t->rank * sizeof(int64_t));
			buf_put(&pk->dims, a->ints, a->n * sizeof(int64_t));
		}
	} else if (op_is(op, "func.return")) {
		if (op->nopnds != (int)fn->nresults)
			return fail(op, "returns a different number of values than the function type%s", "");
		for (int i = 0; i < op->nopnds; i++) {
			Op *d = OPND(op, i)->def;
			Attr *ix = d ? op_attr(d, "index") : NULL;
			if (!d || !op_is(d, "fxvm.result") || !ix || ix->i != i)
				return fail(op, "each returned value must be the fxvm.result of its index%s", "");
		}
		return 0;
	} else {
		return fail(op, "'%s' is not an fxvm host program op", op->name);
	}
	buf_put(&pk->insts, &in, sizeof in);
	AT(pk->funcs, VmfbFunc, COUNT(pk->funcs, VmfbFunc) - 1).ninsts++;
	return 0;
}

static int
add_function(Pack *pk, Op *op)
{
	Attr *ft = op_attr(op, "function_type"), *arena = op_attr(op, "fxvm.arena");
	Block *b;
	VmfbFunc f = {0};
	int rc = 0;

	if (!op->nregs || !op->regs[0].first)
		return 0;   /* a declaration */
	b = op->regs[0].first;
	if (b->next)
		return fail(op, "a host program is one block%s", "");
	if (!ft || ft->kind != AT_TYPE || ft->type->kind != TY_FUNC)
		return fail(op, "has no function_type%s", "");
	if (arena && (arena->kind != AT_INT || arena->i < 0 || arena->i > ((int64_t)1 << 48)))
		return fail(op, "fxvm.arena must be a byte count%s", "");
	f.name = str(pk, op_sym_name(op));
	*pmap_slot(&pk->funcidx, intern(pk->c, op_sym_name(op)), 1) =
	    (void *)(uintptr_t)(COUNT(pk->funcs, VmfbFunc) + 1);
	f.arena_size = arena ? arena->i : 0;
	f.first_arg = COUNT(pk->types, VmfbType);
	f.nargs = ft->type->nin;
	for (int i = 0; i < ft->type->nin; i++) {
		int cx = listed(op, "fxpipe.complex_args", i, ft->type->nin);
		if (cx < 0)
			return fail(op, "fxpipe.complex_args must be an array<i64> of argument "
			    "numbers%s", "");
		if (add_type_cx(pk, op, ft->type->sub[i], cx) < 0)
			return -1;
	}
	f.first_result = COUNT(pk->types, VmfbType);
	f.nresults = ft->type->nsub - ft->type->nin;
	for (uint32_t i = 0; i < f.nresults; i++) {
		int cx = listed(op, "fxpipe.complex_results", i, f.nresults);
		if (cx < 0)
			return fail(op, "fxpipe.complex_results must be an array<i64> of result "
			    "numbers%s", "");
		if (add_type_cx(pk, op, ft->type->sub[ft->type->nin + i], cx) < 0)
			return -1;
	}
	f.first_buf = COUNT(pk->bufs, VmfbBuf);
	f.first_inst = COUNT(pk->insts, VmfbInst);
	buf_put(&pk->funcs, &f, sizeof f);
	pmap_free(&pk->vbuf);
	memset(&pk->vbuf, 0, sizeof pk->vbuf);
	for (int i = 0; i < b->nargs; i++)
		new_buf(pk, b->args[i], (VmfbBuf){BASE_ARG, i, 0,
		    AT(pk->types, VmfbType, f.first_arg + i).nbytes});
	for (Op *o = b->first; o; o = o->next) {
		VmfbFunc *fp = &AT(pk->funcs, VmfbFunc, COUNT(pk->funcs, VmfbFunc) - 1);
		if (host_op(pk, o, fp, ft->type->sub + ft->type->nin))
			rc = -1;
	}
	return rc;
}

/* ---- batched functions (fxvm.batch) ---- */

typedef struct BatchAttr {
	int64_t min, max;
	Attr *sizes, *fns;
	int bounded;          /* the first function takes the item count */
} BatchAttr;

static int
batch_attr(Op *op, BatchAttr *ba)
{
	Attr *a = op_attr(op, "fxvm.batch"), *mn, *mx;

	if (!a || a->kind != AT_DICT || !(mn = dict_get(a, "min")) || mn->kind != AT_INT
	    || !(mx = dict_get(a, "max")) || mx->kind != AT_INT
	    || !(ba->sizes = dict_get(a, "sizes")) || ba->sizes->kind != AT_DENSE_ARRAY
	    || !(ba->fns = dict_get(a, "functions")) || ba->fns->kind != AT_ARRAY)
		return fail(op, "fxvm.batch must be {min = N : i64, max = N : i64, sizes = "
		    "array<i64: S, ..., 1>, functions = [@f, ...]}%s", "");
	ba->min = mn->i, ba->max = mx->i;
	if (ba->min < 0 || ba->max < ba->min)
		return fail(op, "fxvm.batch: min must be >= 0 and max >= min%s", "");
	if (ba->sizes->n == 0 || ba->sizes->ints[ba->sizes->n - 1] != 1)
		return fail(op, "fxvm.batch: the last of the sizes must be 1%s", "");
	for (size_t i = 1; i < ba->sizes->n; i++)
		if (ba->sizes->ints[i] >= ba->sizes->ints[i - 1])
			return fail(op, "fxvm.batch: the sizes must be strictly decreasing%s", "");
	if (ba->fns->n != ba->sizes->n)
		return fail(op, "fxvm.batch: as many functions as sizes%s", "");
	for (size_t i = 0; i < ba->fns->n; i++)
		if (ba->fns->elts[i]->kind != AT_SYMREF || ba->fns->elts[i]->n)
			return fail(op, "fxvm.batch: functions must be [@f, ...]%s", "");
	if ((mn = dict_get(a, "bounded")) && (mn->kind != AT_INT || mn->type->width != 1))
		return fail(op, "fxvm.batch: bounded must be true or false%s", "");
	ba->bounded = mn && mn->i;
	if (ba->bounded && ba->sizes->n < 2)
		return fail(op, "fxvm.batch: bounded needs a first chunk larger than 1%s", "");
	return 0;
}

/* A declared type with `?` anywhere: VMFB_DYN there, 0 bytes. */
static int
add_dyn_type(Pack *pk, Op *op, Type *t, int complex)
{
	int64_t dims[VMFB_MAX_RANK];
	int ti, dyn = 0;

	if (t->kind != TY_TENSOR || !t->ranked || t->rank > VMFB_MAX_RANK)
		return add_type_cx(pk, op, t, complex);
	for (int i = 0; i < t->rank; i++)
		dims[i] = t->dims[i] == DYN ? 1 : t->dims[i];
	if ((ti = add_type_cx(pk, op, ty_with_dims(pk->c, t, t->rank, dims), complex)) < 0)
		return -1;
	for (int i = 0; i < t->rank; i++)
		if (t->dims[i] == DYN)
			AT(pk->dims, int64_t, AT(pk->types, VmfbType, ti).first_dim + i) = VMFB_DYN, dyn = 1;
	if (dyn)
		AT(pk->types, VmfbType, ti).nbytes = 0;
	return ti;
}

/* A declared argument or result type: batched (? at dimension 0 only)
 * is recorded with VMFB_DYN there and 0 bytes; any other is a buffer type. */
static int
add_decl_type(Pack *pk, Op *op, Type *t, int complex, int result)
{
	int batched = t->kind == TY_TENSOR && t->rank > 0 && t->rank <= VMFB_MAX_RANK && t->dims[0] == DYN;

	if (result && !batched)
		return fail(op, "fxvm.batch: every result must be batched (? at dimension 0)%s", "");
	if (!batched)
		return add_type_cx(pk, op, t, complex);
	for (int i = 1; i < t->rank; i++)
		if (t->dims[i] == DYN) {   /* not a buffer type: add_type_cx says why */
			int64_t dims[VMFB_MAX_RANK];

			memcpy(dims, t->dims, t->rank * sizeof *dims);
			dims[0] = 1;
			return add_type_cx(pk, op, ty_with_dims(pk->c, t, t->rank, dims), complex);
		}
	return add_dyn_type(pk, op, t, complex);
}

/* Chunk function fi of `size` items against the declaration f: k0 is
 * the rows per item of each batched value in the first chunk. */
static int
check_chunk_sig(Pack *pk, Op *op, const VmfbFunc *f, uint32_t fi, int64_t size, int64_t *k0, int bounded)
{
	const VmfbFunc *cf = &AT(pk->funcs, VmfbFunc, fi);
	const char *cn = &pk->strs.p[cf->name];
	Vmfb v = {.types = (const VmfbType *)pk->types.p, .dims = (const int64_t *)pk->dims.p};
	char msg[400];

	if (cf->nargs != f->nargs + bounded || cf->nresults != f->nresults) {
		snprintf(msg, sizeof msg, "@%s takes %u and returns %u values, the declaration %u%s and %u",
		    cn, cf->nargs, cf->nresults, f->nargs, bounded ? " (and the item count)" : "", f->nresults);
		return fail(op, "fxvm.batch: %s", msg);
	}
	const VmfbType *lt = &AT(pk->types, VmfbType, cf->first_arg + f->nargs);
	if (bounded && (lt->dtype != DT_I64 || lt->rank != 1 || AT(pk->dims, int64_t, lt->first_dim) != 1)) {
		snprintf(msg, sizeof msg, "the last argument of @%s must be the item count, tensor<1xi64>", cn);
		return fail(op, "fxvm.batch: %s", msg);
	}
	for (uint32_t i = 0; i < f->nargs + f->nresults; i++) {
		int arg = i < f->nargs;
		uint32_t j = arg ? i : i - f->nargs;
		int64_t k = vmfb_batch_rows(&v, (arg ? f->first_arg : f->first_result) + j,
		    (arg ? cf->first_arg : cf->first_result) + j, size);
		if (k >= 0 && (k0[i] < 0 || k == k0[i])) {
			k0[i] = k;
			continue;
		}
		if (k > 0)
			snprintf(msg, sizeof msg, "%s %u of @%s has %lld rows per batch item (dimension 0 "
			    "%lld for %lld), the first chunk %lld", arg ? "argument" : "result", j, cn,
			    (long long)k, (long long)(k * size), (long long)size, (long long)k0[i]);
		else
			snprintf(msg, sizeof msg, "%s %u of @%s does not fit the declaration's type: "
			    "the same but dimension 0 a multiple of %lld where batched", arg ? "argument"
			    : "result", j, cn, (long long)size);
		return fail(op, "fxvm.batch: %s", msg);
	}
	return 0;
}

/* Has the declaration f (its arguments added) a batched argument? */
static int
dynamic_args(const Pack *pk, const VmfbFunc *f)
{
	for (uint32_t i = 0; i < f->nargs; i++) {
		const VmfbType *t = &AT(pk->types, VmfbType, f->first_arg + i);
		if (t->rank && AT(pk->dims, int64_t, t->first_dim) == VMFB_DYN)
			return 1;
	}
	return 0;
}

/* Is function fi a batched function's declaration (no body)? */
static int
declared(const Pack *pk, uint32_t fi)
{
	for (uint32_t i = 0; i < COUNT(pk->batch, VmfbBatch); i++)
		if (AT(pk->batch, VmfbBatch, i).func == fi)
			return 1;
	return 0;
}

static int
add_batched(Pack *pk, Op *op)
{
	Attr *ft = op_attr(op, "function_type");
	const char *name = op_sym_name(op);
	BatchAttr ba;
	VmfbFunc f = {0};
	VmfbBatch b = {0};
	int64_t *k0;
	int rc = 0;

	if (batch_attr(op, &ba))
		return -1;
	if (!ft || ft->kind != AT_TYPE || ft->type->kind != TY_FUNC)
		return fail(op, "has no function_type%s", "");
	if (pmap_get(&pk->funcidx, intern(pk->c, name)) || pmap_get(&pk->syms, intern(pk->c, name)))
		return fail(op, "fxvm.batch: the name '@%s' is taken", name);
	f.name = str(pk, name);
	f.nargs = ft->type->nin;
	f.nresults = ft->type->nsub - ft->type->nin;
	f.first_arg = COUNT(pk->types, VmfbType);
	for (uint32_t i = 0; i < f.nargs; i++)
		if (add_decl_type(pk, op, ft->type->sub[i], listed(op, "fxpipe.complex_args", i, f.nargs) > 0, 0) < 0)
			return -1;
	if (!dynamic_args(pk, &f))
		return fail(op, "fxvm.batch: no argument is batched (? at dimension 0): the batch "
		    "of a call is read from them%s", "");
	f.first_result = COUNT(pk->types, VmfbType);
	for (uint32_t i = 0; i < f.nresults; i++)
		if (add_decl_type(pk, op, ft->type->sub[f.nargs + i],
		    listed(op, "fxpipe.complex_results", i, f.nresults) > 0, 1) < 0)
			return -1;
	f.first_buf = COUNT(pk->bufs, VmfbBuf);
	f.first_inst = COUNT(pk->insts, VmfbInst);
	k0 = xcalloc(f.nargs + f.nresults + 1, sizeof *k0);
	for (uint32_t i = 0; i < f.nargs + f.nresults; i++)
		k0[i] = -1;
	b = (VmfbBatch){COUNT(pk->funcs, VmfbFunc), COUNT(pk->chunks, VmfbChunk), ba.sizes->n, 0, ba.min, ba.max};
	for (size_t i = 0; i < ba.fns->n && !rc; i++) {
		const char *cn = ba.fns->elts[i]->s;
		uint32_t fi = (uint32_t)(uintptr_t)pmap_get(&pk->funcidx, intern(pk->c, cn));
		int bounded = ba.bounded && i == 0;
		VmfbChunk c = {ba.sizes->ints[i], fi - 1, bounded ? VMFB_CHUNK_BOUNDED : 0};
		if (!fi || declared(pk, fi - 1))
			rc = fail(op, "fxvm.batch: '@%s' is not a function with a body in this module", cn);
		else
			rc = check_chunk_sig(pk, op, &f, fi - 1, ba.sizes->ints[i], k0, bounded);
		buf_put(&pk->chunks, &c, sizeof c);
	}
	free(k0);
	if (rc)
		return -1;
	*pmap_slot(&pk->funcidx, intern(pk->c, name), 1) = (void *)(uintptr_t)(b.func + 1);
	buf_put(&pk->funcs, &f, sizeof f);
	buf_put(&pk->batch, &b, sizeof b);
	return 0;
}

/* ---- functions of a dynamic length (fxvm.length) ---- */

/* Pairs (c, d) of a value's sizes: array<i64: c0, d0, c1, d1, ...>, one
 * pair per dimension of type t. */
static int
length_pairs(Pack *pk, Op *op, Attr *a, Type *t, const char *what, size_t j)
{
	if (!a || a->kind != AT_DENSE_ARRAY || t->kind != TY_TENSOR || !t->ranked
	    || a->n != 2 * (size_t)t->rank) {
		char msg[200];
		snprintf(msg, sizeof msg, "%s %zu: sizes must be array<i64: c, d, ...>, a pair per "
		    "dimension of its tensor type", what, j);
		return fail(op, "fxvm.length: %s", msg);
	}
	for (size_t i = 0; i < a->n; i += 2) {
		int64_t c = a->ints[i], d = a->ints[i + 1];
		int dyn = t->dims[i / 2] == DYN;
		if (c < -1 || (c == -1 && d) || (c == 0 && (dyn || d != t->dims[i / 2])) || (c != 0 && !dyn)) {
			char msg[200];
			snprintf(msg, sizeof msg, "%s %zu, dimension %zu: (%lld, %lld) does not fit its "
			    "type (`?` where c is not 0; c = -1: the batch, d 0)", what, j, i / 2,
			    (long long)c, (long long)d);
			return fail(op, "fxvm.length: %s", msg);
		}
	}
	buf_put(&pk->dims, a->ints, a->n * sizeof *a->ints);
	return 0;
}

/* The padded function against the declaration f and its pairs: one
 * argument more (the length, i64 [1]), as many results, each dimension
 * c × max + d, static d, or the batch. */
static int
padded_fits(Pack *pk, Op *op, const VmfbFunc *f, const VmfbLength *l, const char *pn)
{
	const VmfbFunc *pf = &AT(pk->funcs, VmfbFunc, l->padded);
	const int64_t *pr = &AT(pk->dims, int64_t, l->first_pair);
	char msg[300];

	if (pf->nargs != f->nargs + 1 || pf->nresults != f->nresults) {
		snprintf(msg, sizeof msg, "@%s must take one argument more (the length) and return "
		    "as many values", pn);
		return fail(op, "fxvm.length: %s", msg);
	}
	const VmfbType *lt = &AT(pk->types, VmfbType, pf->first_arg + f->nargs);
	if (lt->dtype != DT_I64 || lt->rank != 1 || AT(pk->dims, int64_t, lt->first_dim) != 1) {
		snprintf(msg, sizeof msg, "the last argument of @%s must be the length, tensor<1xi64>", pn);
		return fail(op, "fxvm.length: %s", msg);
	}
	for (uint32_t j = 0; j < f->nargs + f->nresults; j++) {
		int arg = j < f->nargs;
		uint32_t jj = arg ? j : j - f->nargs;
		const VmfbType *t = &AT(pk->types, VmfbType, (arg ? f->first_arg : f->first_result) + jj);
		const VmfbType *p = &AT(pk->types, VmfbType, (arg ? pf->first_arg : pf->first_result) + jj);
		for (uint32_t d = 0; d < t->rank; d++, pr += 2) {
			int64_t want = VMFB_DYN;
			if (pr[0] >= 0 && (__builtin_mul_overflow(pr[0], l->max, &want)
			    || __builtin_add_overflow(want, pr[1], &want) || want < 0))
				want = INT64_MAX;   /* fits nothing */
			if (t->dtype == p->dtype && t->rank == p->rank
			    && AT(pk->dims, int64_t, p->first_dim + d) == want)
				continue;
			snprintf(msg, sizeof msg, "%s %u of @%s does not fit: dimension %u must be %lld",
			    arg ? "argument" : "result", jj, pn, d, (long long)want);
			return fail(op, "fxvm.length: %s", msg);
		}
	}
	return 0;
}

/* fxvm.length's functions: one symbol, or an array of them with tops
 * (array<i64>, ascending, the last max): the k-th runs the lengths
 * after tops[k - 1] up to tops[k]; their count (at most 64), or -1. */
static int
length_pieces(Op *op, Attr *fn, Attr *tops, int64_t min, int64_t max, Attr **fns, int64_t *top)
{
	if (fn->kind == AT_SYMREF && !fn->n && !tops) {
		fns[0] = fn, top[0] = max;
		return 1;
	}
	if (fn->kind != AT_ARRAY || !fn->n || fn->n > 64 || !tops || tops->kind != AT_DENSE_ARRAY
	    || tops->n != fn->n)
		return fail(op, "fxvm.length: function must be @f, or [@f, ...] with tops = "
		    "array<i64: ...>, one per function%s", "");
	for (size_t k = 0; k < fn->n; k++) {
		fns[k] = fn->elts[k], top[k] = tops->ints[k];
		if (fns[k]->kind != AT_SYMREF || fns[k]->n)
			return fail(op, "fxvm.length: function must be symbols%s", "");
		if (top[k] < min || (k && top[k] <= top[k - 1]) || (k + 1 == fn->n) != (top[k] == max)
		    || top[k] > max) {
			char msg[200];
			snprintf(msg, sizeof msg, "tops must ascend from min, the last max (%lld), not "
			    "%lld at %zu", (long long)max, (long long)top[k], k);
			return fail(op, "fxvm.length: %s", msg);
		}
	}
	return (int)fn->n;
}

static int
add_length(Pack *pk, Op *op)
{
	Attr *ft = op_attr(op, "function_type"), *a = op_attr(op, "fxvm.length");
	Attr *mn, *mx, *fn, *as, *rs, *fns[64];
	const char *name = op_sym_name(op);
	VmfbFunc f = {0};
	VmfbLength l = {0};
	int64_t top[64];
	int np;
	uint32_t pi, pairs;

	if (!a || a->kind != AT_DICT || !(mn = dict_get(a, "min")) || mn->kind != AT_INT
	    || !(mx = dict_get(a, "max")) || mx->kind != AT_INT
	    || !(fn = dict_get(a, "function"))
	    || !(as = dict_get(a, "arguments")) || as->kind != AT_ARRAY
	    || !(rs = dict_get(a, "results")) || rs->kind != AT_ARRAY)
		return fail(op, "fxvm.length must be {min = N : i64, max = N : i64, function = @f, "
		    "arguments = [array<i64: ...>, ...], results = [...]}%s", "");
	if (mn->i < 0 || mx->i < mn->i || mx->i > INT32_MAX)
		return fail(op, "fxvm.length: min must be >= 0 and max in [min, 2^31)%s", "");
	if ((np = length_pieces(op, fn, dict_get(a, "tops"), mn->i, mx->i, fns, top)) < 0)
		return -1;
	if (!ft || ft->kind != AT_TYPE || ft->type->kind != TY_FUNC)
		return fail(op, "has no function_type%s", "");
	if (pmap_get(&pk->funcidx, intern(pk->c, name)) || pmap_get(&pk->syms, intern(pk->c, name)))
		return fail(op, "fxvm.length: the name '@%s' is taken", name);
	f.name = str(pk, name);
	f.nargs = ft->type->nin;
	f.nresults = ft->type->nsub - ft->type->nin;
	if (as->n != f.nargs || rs->n != f.nresults)
		return fail(op, "fxvm.length: a sizes array per argument and per result%s", "");
	f.first_arg = COUNT(pk->types, VmfbType);
	for (uint32_t i = 0; i < f.nargs; i++)
		if (add_dyn_type(pk, op, ft->type->sub[i], listed(op, "fxpipe.complex_args", i, f.nargs) > 0) < 0)
			return -1;
	f.first_result = COUNT(pk->types, VmfbType);
	for (uint32_t i = 0; i < f.nresults; i++)
		if (add_dyn_type(pk, op, ft->type->sub[f.nargs + i],
		    listed(op, "fxpipe.complex_results", i, f.nresults) > 0) < 0)
			return -1;
	f.first_buf = COUNT(pk->bufs, VmfbBuf);
	f.first_inst = COUNT(pk->insts, VmfbInst);
	pairs = COUNT(pk->dims, int64_t);
	for (uint32_t i = 0; i < f.nargs + f.nresults; i++)
		if (length_pairs(pk, op, i < f.nargs ? as->elts[i] : rs->elts[i - f.nargs],
		    ft->type->sub[i], i < f.nargs ? "argument" : "result", i < f.nargs ? i : i - f.nargs))
			return -1;
	for (int k = 0; k < np; k++) {
		pi = (uint32_t)(uintptr_t)pmap_get(&pk->funcidx, intern(pk->c, fns[k]->s));
		if (!pi)
			return fail(op, "fxvm.length: '@%s' is not a function of this module", fns[k]->s);
		l = (VmfbLength){COUNT(pk->funcs, VmfbFunc), pi - 1, pairs, 0,
		    k ? top[k - 1] + 1 : mn->i, top[k]};
		if (padded_fits(pk, op, &f, &l, fns[k]->s))
			return -1;
		buf_put(&pk->length, &l, sizeof l);
	}
	*pmap_slot(&pk->funcidx, intern(pk->c, name), 1) = (void *)(uintptr_t)(l.func + 1);
	buf_put(&pk->funcs, &f, sizeof f);
	return 0;
}

/* ---- the module ---- */

static int
read_target(Pack *pk, Op *m, VmfbTarget *t)
{
	Attr *ta = op_attr(m, "fxvm.target"), *cpu = op_attr(m, "fxvm.cpu"),
	    *feat = op_attr(m, "fxvm.features");
	const char *target = ta && ta->kind == AT_STR ? ta->s : NULL;

	if (!target || (strcmp(target, "cpu") && strcmp(target, "cuda")))
		return fail(m, "the module needs fxvm.target = \"cpu\" or \"cuda\"%s", "");
	pk->tgt = t->target = !strcmp(target, "cpu") ? TARGET_CPU : TARGET_CUDA;
	if ((cpu && cpu->kind != AT_STR) || (feat && feat->kind != AT_STR))
		return fail(m, "fxvm.cpu and fxvm.features must be strings%s", "");
	t->cpu = str(pk, cpu ? cpu->s : "");
	t->features = str(pk, feat ? feat->s : "");
	if (feat && pk->tgt == TARGET_CPU) {
		char *list = xstrdup(feat->s), *save, *tok;
		int rc = 0;
		for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if ((*tok != '+' && *tok != '-') || (*tok == '+' && rt_cpu_has(tok + 1) < 0)) {
				rc = fail(m, "fxvm.features: unknown CPU feature '%s' (formats/fxvm.md)", tok);
				break;
			}
		}
		free(list);
		return rc;
	}
	return 0;
}

static int
collect(Pack *pk, Op *m)
{
	Block *b = m->regs[0].first;
	int rc = 0;

	if (!b)
		return 0;
	for (Op *op = b->first; op; op = op->next) {
		const char *name = op_sym_name(op);
		if (op_is(op, "func.func"))
			continue;
		if (!op_is(op, "fxvm.executable") && !op_is(op, "fxvm.kernel") && !op_is(op, "fxvm.global")) {
			rc = fail(op, "'%s' does not belong in an fxvm module", op->name);
			continue;
		}
		if (!name) {
			rc = fail(op, "has no sym_name%s", "");
			continue;
		}
		*pmap_slot(&pk->syms, intern(pk->c, name), 1) = op;
	}
	if (rc)
		return rc;
	/* In dependency order: kernels name executables, batched functions
	 * (declarations) the functions with a body. */
	static const char *const order[] = {"fxvm.executable", "fxvm.global", "fxvm.kernel", "func.func"};
	for (int k = 0; k < 6; k++) {
		int n = 0;
		for (Op *op = b->first; op; op = op->next) {
			if (k >= 4) {
				if (op_is(op, "func.func") && (!op->nregs || !op->regs[0].first)
				    && op_attr(op, k == 4 ? "fxvm.batch" : "fxvm.length")
				    && (k == 4 ? add_batched(pk, op) : add_length(pk, op)))
					rc = -1;
				continue;
			}
			if (!op_is(op, order[k]))
				continue;
			*pmap_slot(&pk->symidx, op, 1) = (void *)(uintptr_t)(++n);
			if (k == 0 ? add_executable(pk, op) : k == 1 ? add_global(pk, op)
			    : k == 2 ? add_kernel(pk, op) : add_function(pk, op))
				rc = -1;
		}
		if (rc)
			return rc;   /* later kinds name earlier ones */
	}
	return rc;
}

/* ---- writing ---- */

typedef struct Out {
	FILE *f;
	uint64_t at;
} Out;

static void
put(Out *o, const void *p, size_t n)
{
	if (n)
		fwrite(p, 1, n, o->f);
	o->at += n;
}

static void
pad_to(Out *o, uint64_t at)
{
	static const uint8_t zero[VMFB_ALIGN];

	while (o->at < at) {
		size_t n = at - o->at < sizeof zero ? at - o->at : sizeof zero;
		put(o, zero, n);
	}
}

/* Is global g's data also a later global's? */
static int
used_later(const Pack *pk, int g)
{
	for (int k = g + 1; k < pk->nglobals; k++)
		if (pk->cpieces[k].p == pk->cpieces[g].p)
			return 1;
	return 0;
}

static void
write_file(Pack *pk, FILE *f)
{
	/* STRS .. GLOBALS, objects, KINFO, BATCH and CHUNKS if any, CONSTS */
	enum { NSMALL = SEC_GLOBALS };
	Buf *small[NSMALL + 1], *extra[5];
	uint32_t xkind[5], nx = 0;
	if (pk->has_kinfo)
		extra[nx] = &pk->kinfo, xkind[nx++] = SEC_KINFO;
	if (pk->batch.n) {
		extra[nx] = &pk->batch, xkind[nx++] = SEC_BATCH;
		extra[nx] = &pk->chunks, xkind[nx++] = SEC_CHUNKS;
	}
	if (pk->length.n)
		extra[nx] = &pk->length, xkind[nx++] = SEC_LENGTH;
	if (pk->grids.n)
		extra[nx] = &pk->grids, xkind[nx++] = SEC_GRID;
	uint32_t nsec = NSMALL + pk->nobjs + nx + 1, xfirst = NSMALL + pk->nobjs;
	VmfbSection *sec = xcalloc(nsec, sizeof *sec);
	VmfbHeader h = {0};
	uint64_t at;
	Out o = {f, 0};
	static const uint8_t zero[VMFB_ALIGN];

	small[SEC_STRS] = &pk->strs, small[SEC_TARGET] = &pk->target;
	small[SEC_TYPES] = &pk->types, small[SEC_DIMS] = &pk->dims;
	small[SEC_FUNCS] = &pk->funcs, small[SEC_BUFS] = &pk->bufs;
	small[SEC_INSTS] = &pk->insts, small[SEC_BINDS] = &pk->binds;
	small[SEC_EXECS] = &pk->execs, small[SEC_KERNS] = &pk->kerns;
	small[SEC_GLOBALS] = &pk->globals;
	/* The executables name their object sections by table index. */
	for (int i = 0; i < pk->nobjs; i++)
		AT(pk->execs, VmfbExec, i).section = NSMALL + i;
	at = sizeof h + (uint64_t)nsec * sizeof *sec;
	for (uint32_t i = 0; i < nsec; i++) {
		at = (at + VMFB_ALIGN - 1) & ~(uint64_t)(VMFB_ALIGN - 1);
		sec[i].offset = at;
		if (i < NSMALL) {
			sec[i].kind = i + 1;
			sec[i].size = small[i + 1]->n;
			sec[i].crc = crc32c(0, small[i + 1]->p, small[i + 1]->n);
		} else if (i >= xfirst && i < nsec - 1) {
			sec[i].kind = xkind[i - xfirst];
			sec[i].size = extra[i - xfirst]->n;
			sec[i].crc = crc32c(0, extra[i - xfirst]->p, extra[i - xfirst]->n);
		} else if (i < nsec - 1) {
			sec[i].kind = SEC_OBJECT;
			sec[i].size = pk->objs[i - NSMALL].n;
			sec[i].crc = crc32c(0, pk->objs[i - NSMALL].p, sec[i].size);
		} else {
			/* each global's crc is its chash: joined, not read again */
			uint32_t crc = 0;
			uint64_t off = 0;
			sec[i].kind = SEC_CONSTS;
			sec[i].size = pk->nconsts;
			for (int g = 0; g < pk->nglobals; g++) {
				const VmfbGlobal *vg = &AT(pk->globals, VmfbGlobal, g);
				if (vg->param || pk->calias[g] >= 0)
					continue;
				while (off < vg->offset) {
					size_t z = vg->offset - off < sizeof zero ? vg->offset - off : sizeof zero;
					crc = crc32c(crc, zero, z);
					off += z;
				}
				crc = crc32c_combine(crc, pk->chash[g], pk->cpieces[g].n);
				off += pk->cpieces[g].n;
			}
			sec[i].crc = crc;
		}
		at += sec[i].size;
	}
	memcpy(h.magic, VMFB_MAGIC, 8);
	h.version = VMFB_VERSION;
	h.header_size = sizeof h;
	h.file_size = at;
	h.table_offset = sizeof h;
	h.nsections = nsec;
	h.entry_size = sizeof *sec;
	h.flags = pk->nparams ? VMFB_F_PARAMS : 0;
	h.table_crc = crc32c(0, sec, nsec * sizeof *sec);
	h.header_crc = crc32c(0, &h, offsetof(VmfbHeader, header_crc));
	put(&o, &h, sizeof h);
	put(&o, sec, nsec * sizeof *sec);
	for (uint32_t i = 0; i < nsec; i++) {
		pad_to(&o, sec[i].offset);
		if (i < NSMALL) {
			put(&o, small[i + 1]->p, small[i + 1]->n);
		} else if (i >= xfirst && i < nsec - 1) {
			put(&o, extra[i - xfirst]->p, extra[i - xfirst]->n);
		} else if (i < nsec - 1) {
			put(&o, pk->objs[i - NSMALL].p, pk->objs[i - NSMALL].n);
			text_blob_done(pk->objs[i - NSMALL].p);
		} else {
			for (int g = 0; g < pk->nglobals; g++) {
				if (AT(pk->globals, VmfbGlobal, g).param)
					continue;
				if (pk->calias[g] < 0) {
					pad_to(&o, sec[i].offset + AT(pk->globals, VmfbGlobal, g).offset);
					put(&o, pk->cpieces[g].p, pk->cpieces[g].n);
				}
				/* written: its pages can hold the file's next ones */
				if (!used_later(pk, g))
					text_blob_done(pk->cpieces[g].p);
			}
		}
	}
	free(sec);
}

/* --params: the globals that go to the parameters file get its tensor's
 * name and checksum; the others are laid out again in the constants. */
static void
externalize(Pack *pk, const char *path)
{
	ParamGlobal *pg = xcalloc(pk->nglobals + 1, sizeof *pg);

	for (int i = 0; i < pk->nglobals; i++) {
		const VmfbGlobal *g = &AT(pk->globals, VmfbGlobal, i);
		const VmfbType *t = &AT(pk->types, VmfbType, g->type);
		pg[i] = (ParamGlobal){.sym = &pk->strs.p[g->name], .resource = pk->cres[i],
		    .p = pk->cpieces[i].p, .n = pk->cpieces[i].n, .dtype = t->dtype,
		    .rank = (int)t->rank, .dims = &AT(pk->dims, int64_t, t->first_dim)};
	}
	params_place(path, pg, pk->nglobals);
	pk->nconsts = 0;
	for (int i = 0; i < pk->nglobals; i++) {
		VmfbGlobal *g = &AT(pk->globals, VmfbGlobal, i);
		pk->calias[i] = -1;     /* each laid out on its own again */
		if (pg[i].key) {
			g->param = str(pk, pg[i].key);
			g->crc = pg[i].crc;
			g->offset = 0;
			pk->nparams++;
		} else {
			g->offset = (pk->nconsts + VMFB_ALIGN - 1) & ~(uint64_t)(VMFB_ALIGN - 1);
			pk->nconsts = g->offset + g->size;
		}
	}
	for (int i = 0; i < pk->nglobals; i++)
		free(pg[i].own);
	free(pg);
}

int
pack_module(Ctx *c, Op *m, const char *outpath, const char *params)
{
	Pack pk = {0};
	VmfbTarget t = {0};
	int rc = -1;
	FILE *f;

	pk.c = c;
	pk.mod = m;
	buf_putc(&pk.strs, 0);
	if (read_target(&pk, m, &t))
		goto done;
	buf_put(&pk.target, &t, sizeof t);
	if (collect(&pk, m) || diag_errors)
		goto done;
	if (COUNT(pk.funcs, VmfbFunc) == 0) {
		fail(m, "the module has no functions to pack%s", "");
		goto done;
	}
	if (params)
		externalize(&pk, params);
	f = tool_open_out(outpath);
	write_file(&pk, f);
	tool_commit(f);
	rc = 0;
done:
	buf_free(&pk.strs);
	buf_free(&pk.target);
	buf_free(&pk.types);
	buf_free(&pk.dims);
	buf_free(&pk.funcs);
	buf_free(&pk.bufs);
	buf_free(&pk.insts);
	buf_free(&pk.binds);
	buf_free(&pk.execs);
	buf_free(&pk.kerns);
	buf_free(&pk.kinfo);
	buf_free(&pk.batch);
	buf_free(&pk.chunks);
	buf_free(&pk.length);
	buf_free(&pk.grids);
	pmap_free(&pk.funcidx);
	buf_free(&pk.globals);
	pmap_free(&pk.strmap);
	pmap_free(&pk.syms);
	pmap_free(&pk.symidx);
	pmap_free(&pk.vbuf);
	free(pk.objs);
	free(pk.cpieces);
	free(pk.cres);
	free(pk.chash);
	free(pk.calias);
	for (int i = 0; i < pk.nowned; i++)
		free(pk.owned[i]);
	free(pk.owned);
	return rc;
}
