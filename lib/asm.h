/*
 * asm.h - helpers for the custom assembly forms of ops.
 *
 * The parser (parse*.c, sharing parse.h) and print.c own the Parser and
 * Printer; the asm_*.c files use only the functions below to read and
 * write each op's custom form.  A custom parser is called after the op
 * name (the `%r = ` part is already read, so it knows how many results to
 * make) and returns the op built with p_make(), or NULL after p_error().  A custom printer is called after the
 * op name has been printed and prints the rest of the line.
 *
 * Every parse helper returns 0 on success and -1 after reporting the first
 * error; the parser stops at the first error, so callers just propagate.
 */
#ifndef FX_ASM_H
#define FX_ASM_H

#include "ir.h"
#include "lex.h"

/* An operand not yet resolved to a value: %name or %name#N. */
typedef struct OpRef {
	const char *name;   /* interned, without % */
	int idx;            /* result number, 0 when no #N */
	Tok tok;            /* for diagnostics */
} OpRef;

/* A block argument declared by the op's syntax: %name: T {attrs} loc(..) */
typedef struct ArgDef {
	OpRef ref;
	Type *type;
	Attr *attrs;        /* AT_DICT or NULL */
	Loc *loc;           /* NULL: location of the name */
} ArgDef;

/* Attributes collected while parsing, added to the op by p_make(). */
typedef struct AttrList {
	int n, cap;
	NamedAttr *v;
} AttrList;
void attrlist_add(AttrList *l, const char *name, Attr *a);
Attr *attrlist_get(const AttrList *l, const char *name);

/* ---- parsing ---- */

Ctx *p_ctx(Parser *p);
void *p_alloc(Parser *p, size_t n);              /* zeroed, lives with ctx */
const Tok *p_tok(Parser *p);                     /* the current token */
Loc *p_loc(Parser *p);                           /* its location */
int p_error(Parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int p_error_at(Parser *p, const Tok *t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int p_is(Parser *p, const char *s);      /* the token spells s */
int p_eat(Parser *p, const char *s);     /* consumes it if so: 1, else 0 */
int p_expect(Parser *p, const char *s);  /* else "expected 's'" */
void p_skip(Parser *p);                  /* consumes any token */

int p_keyword(Parser *p, const char **kw);       /* bare id, interned */
int p_int(Parser *p, int64_t *v);                /* [-]digits */
int p_string(Parser *p, const char **s, size_t *n);   /* decoded, arena */
int p_symbol(Parser *p, const char **name);      /* @name, interned */
Type *p_type(Parser *p);
/* Comma-separated types (at least one), into an arena array. */
int p_types(Parser *p, Type ***v, int *n);
/* `(T, U)` possibly empty, or a single type without parentheses. */
int p_type_group(Parser *p, Type ***v, int *n);
/* `(ins) -> outs` as two lists. */
int p_functional(Parser *p, Type ***in, int *nin, Type ***out, int *nout);
/* type: the type of an untyped literal, or NULL for the default. */
Attr *p_attr(Parser *p, Type *type);
/* An optional `{a = 1, b}`; entries are added to l. */
int p_attr_dict(Parser *p, AttrList *l);
/* An optional `attributes {...}`. */
int p_attr_dict_kw(Parser *p, AttrList *l);

int p_is_opref(Parser *p);
int p_opref(Parser *p, OpRef *r);
/* Comma-separated operands; none when the token isn't a %name. */
int p_oprefs(Parser *p, OpRef **v, int *n);
Value *p_resolve(Parser *p, const OpRef *r, Type *t);
/* Resolves n refs against nt types; errors when the counts differ. */
int p_resolve_list(Parser *p, int n, const OpRef *r, int nt, Type *const *t,
	Value **out);

/* `%name: T {attrs} loc(...)`; attrs and loc only when allowed. */
int p_argdef(Parser *p, ArgDef *a, int with_attrs);
/* A `{...}` region; args, if nargs >= 0, become the entry block's
 * arguments (the op's syntax declared them). */
int p_region(Parser *p, Region *r, int nargs, const ArgDef *args);
/* Moves the blocks of r into region i of op. */
void p_take_region(Op *op, int i, Region *r);
/* Creates op, adds attributes, makes sure it got nres results. */
Op *p_make(Parser *p, const OpInfo *info, int nopnds, Value *const *opnds,
	int nres, Type *const *restypes, int nregs, Loc *loc, AttrList *al);

/* The default torch form's operands, `%a, %b {attrs} : T, U`, resolved
 * into *vals (asm_torch.c); pr_torch_operands prints them. */
int p_torch_operands(Parser *p, AttrList *al, Value ***vals, int *n);

/* ---- printing ---- */

const PrintOpts *pr_opts(Printer *pr);
void pr_puts(Printer *pr, const char *s);
void pr_printf(Printer *pr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pr_value(Printer *pr, Value *v);
void pr_operands(Printer *pr, Op *op, int from, int n);  /* %a, %b */
void pr_type(Printer *pr, const Type *t);
void pr_operand_types(Printer *pr, Op *op, int from, int n);  /* T, U */
void pr_result_types(Printer *pr, Op *op);               /* T, U */
void pr_attr(Printer *pr, const Attr *a);
/* An int, float or bool literal without its `: type`. */
void pr_attr_value(Printer *pr, const Attr *a);
void pr_string(Printer *pr, const char *s, size_t n);    /* quoted */
void pr_symbol(Printer *pr, const char *name);           /* @name */
/* ` {a = 1}` without the names in elide (NULL-ended); kw adds
 * ` attributes`. Prints nothing when no attribute is left. */
void pr_attr_dict(Printer *pr, Op *op, const char *const *elide, int kw);
void pr_attr_entries(Printer *pr, const Attr *dict);     /* {a = 1} */
/* `%arg0: T {attrs} loc(...)` for a block argument. */
void pr_argdef(Printer *pr, Value *arg, const Attr *attrs);
/* A region; entry_args: print the entry block's label and arguments. */
void pr_region(Printer *pr, Region *r, int entry_args);
/* `(T, U) -> R` for the op's operands [from, from+n) and results. */
void pr_functional(Printer *pr, Op *op, int from, int n);
void pr_torch_operands(Printer *pr, Op *op);  /* ` %a, %b {attrs} : T, U` */
/* ` ATTR {rest of the dict}`: the attribute name first, without its name. */
void pr_lead_attr(Printer *pr, Op *op, const char *name);
/* affine_map<...> in place, never a #map alias (torch.bind_symbolic_shape) */
void pr_affine_map_inline(Printer *pr, const AffMap *m);
/* `{region 0} {attrs} : R` */
void pr_region_tail(Printer *pr, Op *op, int entry_args);
/* A line break, then the op's indentation plus extra spaces. */
void pr_newline(Printer *pr, int extra);

/* ---- the custom forms (asm_*.c), named in ops.def ---- */

#define ASM(x) \
	Op *asm_parse_##x(Parser *p, const OpInfo *info, int nres, Loc *loc); \
	void asm_print_##x(Printer *pr, Op *op);
/* builtin and func */
ASM(module) ASM(func) ASM(return) ASM(call)
/* torch */
ASM(torch) ASM(tconst) ASM(tnone) ASM(tlist) ASM(tliteral) ASM(tcopy)
ASM(toverwrite) ASM(toperator) ASM(tassert) ASM(tif) ASM(tloop) ASM(tloopcond)
ASM(tcalc) ASM(tcscalar)
/* torch module structure (asm_torch_module.c) */
ASM(tclass) ASM(tmember) ASM(tnnmodule) ASM(tslot) ASM(tglobal)
ASM(tinit) ASM(tinitslots) ASM(tlparams) ASM(tsymint) ASM(tbindshape) ASM(tdict)
/* arith and math */
ASM(aconst) ASM(same) ASM(cmp) ASM(select)
/* `%x : T to R`: arith casts, tensor.cast, torch casts */
ASM(cast)
/* tensor */
ASM(empty) ASM(reshape) ASM(slice) ASM(insert_slice) ASM(tdim)
ASM(extract) ASM(insert) ASM(from_elements) ASM(splat) ASM(pad)
ASM(generate) ASM(yield) ASM(treshape)
ASM(concat)
/* linalg */
ASM(named) ASM(generic_linalg) ASM(lindex) ASM(transpose) ASM(broadcast)
ASM(fxsym) ASM(fxglobal) ASM(fxindex) ASM(fxconst) ASM(fxview) ASM(fxdispatch) ASM(fxcopy) ASM(fxfill)
#undef ASM

#endif
