/*
 * ir.h - the fxpipe IR: operations, values, types, attributes, locations.
 *
 * Every tool includes this header.  The IR follows MLIR's model: an op has
 * operands, results, attributes, regions of blocks, and successors; values
 * keep use lists.  Everything is allocated from the context's arena and
 * freed with ctx_free(); erasing an op unlinks it, it does not free it.
 *
 * Types are uniqued by the context: two types are equal iff the pointers are
 * equal.  Attributes are plain trees compared with attr_eq().
 */
#ifndef FX_IR_H
#define FX_IR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

typedef struct Ctx Ctx;
typedef struct Type Type;
typedef struct Attr Attr;
typedef struct NamedAttr NamedAttr;
typedef struct AffExpr AffExpr;
typedef struct AffMap AffMap;
typedef struct Loc Loc;
typedef struct Value Value;
typedef struct Use Use;
typedef struct Op Op;
typedef struct Block Block;
typedef struct Region Region;
typedef struct OpInfo OpInfo;
typedef struct Resource Resource;

/* ---- memory (and util.h: allocation, arena, interning, Buf, PMap) ---- */

/* Big blocks straight from the kernel (bigmem.c): *len is rounded up to
 * 2 MB, the memory is zeroed and asks for huge pages; NULL on failure.
 * big_grow may move the block; big_release gives it back. */
void *big_reserve(size_t *len);
void *big_grow(void *p, size_t old, size_t *len);
void big_release(void *p, size_t len);

/* Hex blobs (hex.c): n bytes to 2n uppercase digits; 2n digits (either
 * case) to n bytes, -1 if one is not a digit. */
void hex_encode(char *out, const void *data, size_t n);
int hex_decode(void *out, const char *digits, size_t n);
/* Lets hex_decode use AVX2 where the CPU has it (the default), or not. */
void hex_use_avx2(int on);

/* ---- context ---------------------------------------------------------- */

Ctx *ctx_new(void);
void ctx_free(Ctx *c);
extern int ctx_allow_unregistered;  /* --allow-unregistered-dialect */

/* ---- types ------------------------------------------------------------ */

enum {
	DYN = -1,  /* a dynamic or unknown dimension: `?` */
};

typedef enum TypeKind {
	TY_INT,        /* i1..i64 (signless), si*, ui* */
	TY_INDEX,
	TY_F16,
	TY_BF16,
	TY_F32,
	TY_F64,
	TY_NONE,       /* builtin `none` */
	TY_FUNC,       /* (ins) -> (outs) */
	TY_TENSOR,     /* tensor<4x?xf32>, tensor<*xf32> */
	TY_VECTOR,     /* vector<2xi64> */
	TY_TUPLE,      /* tuple<...> */
	/* torch dialect */
	TY_TORCH_VTENSOR,  /* !torch.vtensor<[4,?],f32>, !torch.vtensor<*,unk> */
	TY_TORCH_TENSOR,   /* !torch.tensor<...> (non value semantic) */
	TY_TORCH_INT,
	TY_TORCH_FLOAT,
	TY_TORCH_BOOL,
	TY_TORCH_NONE,
	TY_TORCH_STR,
	TY_TORCH_DEVICE,
	TY_TORCH_NUMBER,
	TY_TORCH_GENERATOR,
	TY_TORCH_ANY,
	TY_TORCH_LIST,     /* !torch.list<T> */
	TY_TORCH_OPTIONAL, /* !torch.optional<T> */
	TY_TORCH_TUPLE,    /* !torch.tuple<T, U> */
	TY_TORCH_UNION,    /* !torch.union<T, U> */
	TY_OPAQUE,         /* an unregistered dialect type, kept as its text */
} TypeKind;

typedef enum Signedness { SIGNLESS, SIGNED, UNSIGNED } Signedness;

struct Type {
	TypeKind kind;
	int width;            /* TY_INT */
	Signedness sign;      /* TY_INT */
	int ranked;           /* tensors: 0 for `*` (unranked) */
	int rank;
	const int64_t *dims;  /* rank entries, DYN for `?` */
	Type *elem;           /* element/dtype; NULL for torch `unk` */
	int nsub;             /* TY_FUNC: nin + nout; tuples, unions */
	Type *const *sub;     /* TY_FUNC: inputs then outputs */
	int nin;              /* TY_FUNC */
	const char *text;     /* TY_OPAQUE: "!dialect.name<...>"; torch
	                         tensors: their sparse encoding or NULL */
};

Type *ty_int(Ctx *c, int width, Signedness s);
Type *ty_index(Ctx *c);
Type *ty_float(Ctx *c, TypeKind k);            /* TY_F16..TY_F64 */
Type *ty_none(Ctx *c);
Type *ty_func(Ctx *c, int nin, Type *const *in, int nout, Type *const *out);
/* The most dims a tensor or vector type may have, in every tool: the
 * parser refuses more (the runtime's RT_MAX_RANK and VMFB_MAX_RANK agree). */
enum { TY_MAXRANK = 16, TY_MAXNUMEL_LOG2 = 48 };
#define TY_MAXNUMEL ((int64_t)1 << TY_MAXNUMEL_LOG2)
Type *ty_tensor(Ctx *c, int rank, const int64_t *dims, Type *elem);
Type *ty_unranked_tensor(Ctx *c, Type *elem);
Type *ty_vector(Ctx *c, int rank, const int64_t *dims, Type *elem);
Type *ty_tuple(Ctx *c, int n, Type *const *elems);
/* torch tensors: rank < 0 means unranked (`*`); dtype NULL means `unk` */
Type *ty_vtensor(Ctx *c, int rank, const int64_t *dims, Type *dtype);
Type *ty_torch_tensor(Ctx *c, int rank, const int64_t *dims, Type *dtype);
Type *ty_torch(Ctx *c, TypeKind k);            /* the scalar torch types */
Type *ty_torch_list(Ctx *c, Type *elem);
Type *ty_torch_optional(Ctx *c, Type *elem);
Type *ty_torch_tuple(Ctx *c, int n, Type *const *elems);
Type *ty_torch_union(Ctx *c, int n, Type *const *elems);
Type *ty_opaque(Ctx *c, const char *text);
/* t (a torch tensor type) with a sparse encoding, its text (`#sparse_tensor.
 * encoding<...>`) in ->text; NULL: dense */
Type *ty_torch_encoded(Ctx *c, const Type *t, const char *enc);

int ty_isfloat(const Type *t);     /* f16, bf16, f32, f64 */
int ty_isint(const Type *t);       /* TY_INT */
int ty_isintlike(const Type *t);   /* TY_INT or TY_INDEX */
int ty_isshaped(const Type *t);    /* tensor, vector, torch tensors */
int ty_istorchtensor(const Type *t);
int ty_bitwidth(const Type *t);    /* of a scalar: 1..64; index is 64 */
int64_t ty_numel(const Type *t);   /* -1 if any dim is dynamic or unranked */
int ty_static(const Type *t);      /* ranked with no dynamic dims */
int ty_check_limits(const Type *t, Buf *msg);  /* TY_MAXRANK, TY_MAXNUMEL; -1 and why */
/* !torch.vtensor <-> builtin tensor with the same shape and dtype */
Type *ty_to_vtensor(Ctx *c, Type *t);
Type *ty_to_builtin(Ctx *c, Type *t);
/* a shaped type with another element type / shape */
Type *ty_with_elem(Ctx *c, Type *shaped, Type *elem);
Type *ty_with_dims(Ctx *c, Type *shaped, int rank, const int64_t *dims);

/* ---- affine maps ------------------------------------------------------ */

typedef enum AffKind {
	AFF_DIM, AFF_SYM, AFF_CONST, AFF_ADD, AFF_MUL, AFF_MOD,
	AFF_FLOORDIV, AFF_CEILDIV,
} AffKind;

struct AffExpr {
	AffKind kind;
	int64_t v;            /* dim/symbol position, or constant */
	AffExpr *l, *r;       /* binary */
};

struct AffMap {
	int ndims, nsyms, nres;
	AffExpr **res;
};

AffExpr *aff_dim(Ctx *c, int i);
AffExpr *aff_sym(Ctx *c, int i);
AffExpr *aff_const(Ctx *c, int64_t v);
AffExpr *aff_bin(Ctx *c, AffKind k, AffExpr *l, AffExpr *r);
AffMap *affmap_new(Ctx *c, int ndims, int nsyms, int nres, AffExpr **res);
AffMap *affmap_identity(Ctx *c, int n);
/* (d0..dn-1) -> (d[perm[0]], ...) ; perm may select a subset (nres < n) */
AffMap *affmap_select(Ctx *c, int ndims, int nres, const int *perm);
int aff_eq(const AffExpr *a, const AffExpr *b);
int affmap_eq(const AffMap *a, const AffMap *b);
int affmap_is_identity(const AffMap *m);

/* ---- attributes ------------------------------------------------------- */

typedef enum AttrKind {
	AT_UNIT,          /* present, no value */
	AT_INT,           /* 3 : i64, true (i1); type NULL means i64 */
	AT_FLOAT,         /* 1.0 : f32 */
	AT_STR,           /* "text" (type optional) */
	AT_ARRAY,         /* [a, b] */
	AT_DICT,          /* {a = 1, b} */
	AT_DENSE,         /* dense<...> : tensor<...> */
	AT_DENSE_RESOURCE,/* dense_resource<name> : tensor<...> */
	AT_DENSE_ARRAY,   /* array<i64: 1, 2> */
	AT_AFFINE_MAP,    /* affine_map<...> */
	AT_SYMREF,        /* @name or @a::@b */
	AT_TYPE,          /* a type used as an attribute */
	AT_OPAQUE,        /* #dialect.name<...>, kept as its text */
} AttrKind;

struct NamedAttr {
	const char *name;   /* interned */
	Attr *val;
};

struct Attr {
	AttrKind kind;
	Type *type;         /* INT, FLOAT, DENSE*, TYPE; STR when typed */
	int64_t i;          /* INT */
	double f;           /* FLOAT (exact for every float type) */
	const char *s;      /* STR (may hold NULs: see n), SYMREF root, OPAQUE */
	size_t n;           /* STR byte length; DENSE data bytes; counts */
	Attr **elts;        /* ARRAY elements, SYMREF nested refs (n of them) */
	NamedAttr *dict;    /* DICT entries (n of them) */
	/* DENSE: n bytes of little-endian packed elements, i1 one byte each;
	 * splat: a single element repeated. */
	const uint8_t *data;
	int splat;
	const int64_t *ints;  /* DENSE_ARRAY values (n of them); f64 bits for
	                         float arrays */
	Resource *res;        /* DENSE_RESOURCE */
	AffMap *map;          /* AFFINE_MAP */
};

/* Blob named by dense_resource, printed in {-# dialect_resources #-}. */
struct Resource {
	const char *name;    /* unique key, interned */
	const char *dialect; /* "builtin" */
	uint8_t *data;       /* owned by ctx */
	size_t size;
	uint32_t align;
	int mut;             /* data may be written: the context's, or decoded
	                        from a pipe; not a borrowed mapping */
	/* A lazy resource has no data until it is needed: fill writes its
	 * size bytes.  The printer fills a scratch block for each in turn;
	 * dense_bytes gives it data of its own. */
	void (*fill)(void *arg, uint8_t *dst);
	void *fill_arg;
	Ctx *ctx;
	/* A lazy resource's fill may read src; readers counts those that
	 * will.  The printer uses both to give data back once the last one
	 * that needs it is written (PrintOpts.release); queued and printed
	 * are its marks. */
	Resource *src;
	int readers, queued, printed;
	Resource *next;
};

Attr *at_unit(Ctx *c);
Attr *at_int(Ctx *c, int64_t v, Type *t);    /* t NULL: i64 */
Attr *at_bool(Ctx *c, int v);
Attr *at_float(Ctx *c, double v, Type *t);   /* rounds v to t's precision */
Attr *at_str(Ctx *c, const char *s);
Attr *at_strn(Ctx *c, const char *s, size_t n);
Attr *at_array(Ctx *c, int n, Attr **elts);  /* copies elts */
Attr *at_i64_array(Ctx *c, int n, const int64_t *v);  /* [1, 2] of i64 */
Attr *at_dict(Ctx *c, int n, const NamedAttr *d);
Attr *at_dense(Ctx *c, Type *t, const void *data, size_t nbytes, int splat);
Attr *at_dense_resource(Ctx *c, Type *t, Resource *r);
Attr *at_dense_array(Ctx *c, Type *elem, int n, const int64_t *v);
Attr *at_affine_map(Ctx *c, AffMap *m);
Attr *at_symref(Ctx *c, const char *name);
Attr *at_type(Ctx *c, Type *t);
Attr *at_opaque(Ctx *c, const char *text);
int attr_eq(const Attr *a, const Attr *b);
Attr *dict_get(const Attr *dict, const char *name);

/* Element access for DENSE attrs (and DENSE_RESOURCE), converted. */
int64_t dense_numel(const Attr *a);
double dense_get_f(const Attr *a, int64_t i);
int64_t dense_get_i(const Attr *a, int64_t i);
const uint8_t *dense_bytes(const Attr *a, size_t *n);  /* raw payload */
/* Bytes of one element of a scalar type (i1 is 1). */
size_t elem_size(const Type *t);

Resource *resource_new(Ctx *c, const char *dialect, const char *name,
	const void *data, size_t size, uint32_t align);   /* copies data; name
	                                                     uniqued if taken */
/* As resource_new, with size bytes left for the caller to fill. */
Resource *resource_alloc(Ctx *c, const char *dialect, const char *name,
	size_t size, uint32_t align);
/* As resource_new, taking data (malloc'd) rather than copying it. */
Resource *resource_adopt(Ctx *c, const char *dialect, const char *name,
	void *data, size_t size, uint32_t align);
/* As resource_new, pointing at data, which the caller keeps alive as long
 * as the context and which is never written through the resource. */
Resource *resource_borrow(Ctx *c, const char *dialect, const char *name,
	const void *data, size_t size, uint32_t align);
/* As resource_new, with data computed by fill(arg, dst) only when it is
 * needed (see struct Resource); arg lives as long as the context. */
Resource *resource_lazy(Ctx *c, const char *dialect, const char *name,
	size_t size, uint32_t align, void (*fill)(void *arg, uint8_t *dst), void *arg);
Resource *resource_get(Ctx *c, const char *name);
Resource *resource_list(Ctx *c);

/* float helpers: round a double to a type's precision; bits <-> value */
double fp_round(double v, const Type *t);
uint64_t fp_bits(double v, const Type *t);
double fp_from_bits(uint64_t bits, const Type *t);

/* ---- locations -------------------------------------------------------- */

typedef enum LocKind { LOC_UNKNOWN, LOC_FILE, LOC_NAME, LOC_FUSED,
	LOC_CALLSITE } LocKind;

struct Loc {
	LocKind kind;
	const char *file;  /* FILE: file name; NAME: the name */
	int line, col;
	Loc *child;        /* NAME: child location (may be NULL); CALLSITE: callee */
	Loc *caller;       /* CALLSITE */
	int n;
	Loc **locs;        /* FUSED */
	Attr *meta;        /* FUSED metadata (may be NULL) */
	int implicit;      /* FILE: the parser's position of an op or
	                      argument written without loc(...) */
};

Loc *loc_unknown(Ctx *c);
Loc *loc_file(Ctx *c, const char *file, int line, int col);
Loc *loc_name(Ctx *c, const char *name, Loc *child);
Loc *loc_fused(Ctx *c, int n, Loc **locs, Attr *meta);
Loc *loc_callsite(Ctx *c, Loc *callee, Loc *caller);
/* The first file location inside l, or NULL. */
const Loc *loc_filepos(const Loc *l);

/* ---- values and uses -------------------------------------------------- */

struct Use {
	Value *val;
	Op *owner;
	Use *next, **prevp;  /* in val's use list */
};

struct Value {
	Type *type;
	Op *def;             /* defining op, or NULL for a block argument */
	Block *block;        /* block argument's block */
	int index;           /* result or argument number */
	Use *uses;
	const char *hint;    /* preferred SSA name (without %), or NULL */
	Loc *loc;            /* block arguments: their location */
};

int value_has_one_use(const Value *v);
int value_use_empty(const Value *v);
void value_replace_all_uses(Value *from, Value *to);
void value_set_type(Value *v, Type *t);

/* ---- operations, blocks, regions -------------------------------------- */

struct Region {
	Op *parent;
	Block *first, *last;
};

struct Block {
	Region *parent;
	Block *prev, *next;
	int nargs, argcap;
	Value **args;
	Op *first, *last;
};

struct Op {
	const OpInfo *info;  /* NULL when unregistered */
	const char *name;    /* interned "dialect.op" */
	int nopnds, nres, nregs, nsuccs, nattrs, attrcap;
	Use *opnds;
	Value *res;
	Region *regs;
	Block **succs;
	NamedAttr *attrs;
	Loc *loc;
	Block *parent;
	Op *prev, *next;
	uint32_t ord;        /* position in its block; valid only inside verify() */
};

/* Creation: operands and result types are copied. */
Op *op_new(Ctx *c, const char *name, int nopnds, Value *const *opnds,
	int nres, Type *const *restypes, int nregs, Loc *loc);
Op *op_clone(Ctx *c, Op *op, Value *(*map)(void *env, Value *v), void *env);
void op_set_operands(Ctx *c, Op *op, int n, Value *const *vals);
void op_set_operand(Op *op, int i, Value *v);
void op_set_successors(Ctx *c, Op *op, int n, Block *const *succs);
#define OPND(op, i) ((op)->opnds[i].val)
#define RES(op, i) (&(op)->res[i])

Attr *op_attr(const Op *op, const char *name);
void op_set_attr(Ctx *c, Op *op, const char *name, Attr *a);  /* NULL removes */
int op_is(const Op *op, const char *name);   /* compares op->name */

/* Placement. */
void op_insert_before(Op *before, Op *op);
void op_insert_after(Op *after, Op *op);
void op_append(Block *b, Op *op);
void op_unlink(Op *op);
/* Unlink op and drop its operands' uses; its results must be unused. */
void op_erase(Op *op);
/* Replace every use of op's results by vals (nres of them), then erase. */
void op_replace(Op *op, Value *const *vals);
/* Drop all operand uses of op and everything nested in it. */
void op_drop_uses(Op *op);

Block *block_new(Ctx *c);
Value *block_add_arg(Ctx *c, Block *b, Type *t, Loc *loc);
void block_erase_arg(Block *b, int i);   /* arg must be unused */
void region_append(Region *r, Block *b);
void block_unlink(Block *b);
Op *block_terminator(Block *b);          /* last op if it is a terminator */
Op *block_parent_op(const Block *b);

/* The innermost enclosing op of op with the given name, or NULL. */
Op *op_ancestor(Op *op, const char *name);
/* Walks op and everything nested, pre-order; fn returns nonzero to skip
 * the op's regions.  Safe against erasing the op being visited. */
void op_walk(Op *op, int (*fn)(Op *, void *), void *env);
/* Walks in post-order; fn may erase the visited op. */
void op_walk_post(Op *op, void (*fn)(Op *, void *), void *env);

/* ---- the op table (ops.c) --------------------------------------------- */

enum {
	TR_PURE = 1 << 0,         /* no side effects */
	TR_TERMINATOR = 1 << 1,
	TR_ISOLATED = 1 << 2,     /* IsolatedFromAbove */
	TR_COMMUTATIVE = 1 << 3,
	TR_ELEMENTWISE = 1 << 4,
	TR_CONSTANT = 1 << 5,     /* ConstantLike: folds to its value attr */
	TR_SYMBOL = 1 << 6,       /* defines sym_name */
	TR_SYMTAB = 1 << 7,       /* SymbolTable (module) */
	TR_NOTERM = 1 << 8,       /* regions need no terminator */
	TR_INPLACE = 1 << 9,      /* torch trailing-underscore in-place variant */
	TR_VALUESEM = 1 << 10,    /* torch: HasValueSemantics */
	TR_VIEW = 1 << 11,        /* torch: view-like */
	TR_STRUCTURED = 1 << 12,  /* linalg structured op: ins/outs */
	TR_MUTABLE = 1 << 13,     /* torch: writes an operand */
	TR_GRAPH = 1 << 14,       /* region is a graph region (no dominance) */
};

typedef struct Parser Parser;
typedef struct Printer Printer;

/* Custom assembly: parse after the op name (results are already known by
 * count); returns the op or NULL after reporting an error. */
typedef Op *(*ParseFn)(Parser *p, const OpInfo *info, int nres, Loc *loc);
typedef void (*PrintFn)(Printer *pr, Op *op);
/* Returns 0 if ok, else reports with op_error and returns -1. */
typedef int (*VerifyFn)(Op *op);
/* Folding: on success fills out[] (op->nres entries) with either
 * existing values (outv) or constant attributes (outa), returns 1. */
typedef int (*FoldFn)(Ctx *c, Op *op, Value **outv, Attr **outa);

/* A torch aten op's schema, generated from PyTorch's registry. */
typedef struct TorchSig {
	const char *args;     /* e.g. "Tensor self,Tensor other,Scalar alpha=1" */
	const char *rets;     /* e.g. "Tensor" */
} TorchSig;

struct OpInfo {
	const char *name;
	int nopnds, nres;     /* -1: variadic */
	int nregs;
	unsigned traits;
	ParseFn parse;        /* NULL: generic form only */
	PrintFn print;
	VerifyFn verify;
	FoldFn fold;
	const struct AttrNeed *needs; /* required attributes (verify.h) */
	const TorchSig *sig;
	int code;             /* this row's number: 0 .. opinfo_count() - 1 */
};

const OpInfo *opinfo_lookup(const char *name);
/* Op codes: every declared op has a small integer, fixed for a build, so
 * that a pass or tool can keep per-op data in an array indexed by
 * info->code (filled once from a name-keyed table) instead of comparing
 * names per op. */
int opinfo_count(void);
const OpInfo *opinfo_at(int code);
int op_has(const Op *op, unsigned trait);
/* Default SSA name for an op's result i (e.g. "cst", "c0", "int1"), or
 * NULL; written into buf. */
const char *op_result_hint(Op *op, int i, char *buf, size_t n);
/* result i's name where a multi-result op's results are named one by one
 * (result_names.c); NULL where they print as one group %0:N */
const char *op_multi_result_name(Op *op, int i, char *buf, size_t n);
/* Default name for argument i of block b, owned by op (e.g. "in", "out"
 * for linalg.generic, "arg" for func.func's entry block), or NULL. */
const char *op_blockarg_hint(Op *op, Block *b, int i);

/* ---- diagnostics (diag.c) --------------------------------------------- */

/* "FILE:LINE:COL: error: msg" on stderr, with the op's location; used by
 * the verifier and passes.  Counts errors. */
void op_error(Op *op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void op_note(Op *op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void loc_error(const Loc *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void loc_diag(const Loc *l, const char *kind, const char *fmt, va_list ap);
extern int diag_errors;
extern const char *diag_fallback_file;   /* for ops with unknown location */
/* When set, each diagnostic goes to it instead of stderr (torch-opt's
 * --verify-diagnostics); errors are still counted. */
extern void (*diag_hook)(const Loc *l, const char *kind, const char *msg);

/* ---- text form (parse.c, print.c) -------------------------------------- */

/* Parses a whole file; returns the top-level builtin.module (wrapping the
 * file's ops when it has no single module), or NULL after errors.  A text
 * from text_read_stream is parsed with its blobs (text_blobs). */
Op *parse_module(Ctx *c, const char *file, const char *text, size_t len);
/* A resource blob taken out of text read from a pipe (textin.c): the
 * text has an empty string "" at offset at instead of its hex string,
 * which was extra bytes longer; its data is decoded already. */
typedef struct TextBlob {
	size_t at, extra;
	const uint8_t *data;
	size_t size;
	uint32_t align;
} TextBlob;
/* parse_module for a text with n blobs taken out (sorted by at), which
 * outlive every context parsed from it. */
Op *parse_module_blobs(Ctx *c, const char *file, const char *text, size_t len,
	const TextBlob *b, int n);
/* Reads all of fd, a pipe, taking the resource blobs out as they arrive;
 * the text is malloc'd and NUL-terminated.  text_release frees the blobs. */
char *text_read_stream(int fd, const char *path, size_t *len);
void text_release(void);
/* The blobs taken out of text, if text_read_stream returned it last and
 * they are not released: their number, the array in *b; else 0. */
int text_blobs(const char *text, const TextBlob **b);
/* Set (by tool_repro_init): the blobs read from a pipe stay as they were
 * read, for a reproducer to write them back; no pass writes them in place. */
extern int text_blobs_kept;
/* 0 once text_blob_done has given any blob's pages back. */
int text_blobs_whole(void);
/* Says that the blob at data (from text_read_stream; anything else is
 * ignored) is needed no more: the pages that only it and other such blobs
 * used go back to the system, for the next process of a pipeline to take
 * them while they are warm (a virtual machine's first touch of a page
 * costs more than the work done on it). */
void text_blob_done(const void *data);
/* The same for every blob but those at keep[0..n) (which it sorts). */
void text_blobs_only(const void **keep, int n);

enum { DEBUGINFO_CARRY = 2 };

typedef struct PrintOpts {
	int debuginfo;   /* print loc(...): 1 every one; 2 (DEBUGINFO_CARRY)
	                    those the input gave (or passes derived from
	                    them), not positions in the input's text */
	int generic;     /* generic op form */
	int release;     /* the last print: each resource's data read from a
	                    pipe is given back once written (text_blob_done) */
	int encoder;     /* a big resource section is encoded by a thread of
	                    its own while this one writes (worth it when the
	                    section is costly to make: lazy resources) */
	int local_scope; /* affine maps inline, no #map aliases */
	long elide_larger; /* >0: elements attrs with more elements print as
	                      dense_resource<__elided__> (not readable back) */
	int mlir_version;  /* the MLIR release whose syntax to print: 0 or 16
	                      as mlir-opt-16 reads it; from 19 expand_shape
	                      has its output_shape */
} PrintOpts;
void print_module(FILE *f, Op *module, const PrintOpts *o);
/* Prints one op (and its regions) into b, for diagnostics and tests. */
void print_op_buf(Buf *b, Op *op, const PrintOpts *o);
void print_type(Buf *b, const Type *t);
void print_torch_inner(Buf *b, const Type *t);  /* `int`, not `!torch.int` */
void print_attr(Buf *b, const Attr *a);
void print_loc(Buf *b, const Loc *l);
/* A float value as MLIR prints it (1.000000e+00, 0x7FC00000), no type. */
void print_float(Buf *b, double v, const Type *t);

/* ---- verifier (verify.c) ----------------------------------------------- */

/* Verifies op and all it contains: counts and traits from the op table,
 * the op's verify hook, dominance, terminators, symbol uniqueness.
 * Returns 0 when valid. */
int verify(Op *op);
/* A dense_resource whose key no dialect_resources section held reads, as
 * in mlir-opt, as a handle without data; what compiles a module needs the
 * bytes.  One error naming the input (the likely cause is an input cut
 * short, not the op) and the first such key; the number of them. */
int verify_resource_data(Op *top, const char *input);

/* ---- symbols ----------------------------------------------------------- */

const char *op_sym_name(const Op *op);            /* sym_name or NULL */
Op *symtab_lookup(Op *symtab, const char *name);   /* module, "@"-less name */

#endif
