/*
 * parse.h - what the parser's files (parse*.c) share: the Parser with its
 * scopes and pending references, the nesting bounds, and the functions
 * one of these files calls in another.  The op forms (asm_*.c) see only
 * asm.h.
 */
#ifndef FX_PARSE_H
#define FX_PARSE_H

#include "asm.h"

/* Nesting bounds, so that no input runs the recursive descent (or the
 * printer and the walkers after it) out of stack: attributes, locations
 * and affine expressions count on p->depth together with ops and regions,
 * types on their own. */
enum {
	MAXNEST = 1000,
	MAXTYPENEST = 256,
};

/* A name bound in a scope: one value per result, placeholders pending. */
typedef struct Entry Entry;
struct Entry {
	const char *name;
	int depth;
	Entry *prev;          /* the binding this one shadows */
	int n, cap;
	Value **vals;
	Tok *use;             /* use token of a pending placeholder */
	unsigned char *pending;
};

typedef struct Scope {
	int isolated;
	int n, cap;
	Entry **defs;
} Scope;

/* Block labels of the region being parsed. */
typedef struct BlockRef {
	const char *name;
	Block *b;
	int defined;
	Tok tok;
} BlockRef;

typedef struct Blocks {
	int n, cap;
	BlockRef *v;
	PMap at;              /* name -> index in v + 1 */
} Blocks;

typedef struct LocRef {
	Loc *ph;
	const char *name;
	Tok tok;
} LocRef;

typedef struct ResRef {
	Attr *a;
	const char *key;
	Tok tok;
} ResRef;

struct Parser {
	Ctx *c;
	Lexer lx;
	Tok tok;
	const char *file;
	int err;
	PMap names;           /* interned name -> Entry (innermost binding) */
	Scope *scopes;
	int nscopes, scap;
	Blocks *blocks;       /* of the region being parsed */
	const OpInfo *cur;    /* op whose regions are being parsed */
	PMap aliases;         /* interned "#x" / "!x" -> Attr / Type / Loc */
	PMap locph;           /* placeholder Loc -> 1 */
	LocRef *locrefs;
	int nlocrefs, clocrefs;
	ResRef *resrefs;
	int nresrefs, cresrefs;
	PMap resources;       /* interned key -> Resource */
	const TextBlob *taken;  /* the blobs taken out of the text (textin.c), */
	int ntaken;             /* sorted by offset */
	LexHole *blobs;       /* where they were, for the lexer's columns */
	int depth;            /* nesting, against stack exhaustion */
	int tdepth;           /* type nesting, likewise */
	int tmax, amax;       /* the deepest type / attribute level reached,
	                         aliases' insides counted */
	PMap adepth;          /* alias key -> levels of its type / attribute */
	PMap locseen;         /* Loc -> its levels (loc_levels) */
	PMap affd;            /* AffExpr -> its levels, when more than 1 */
};

/* ---- parse.c: tokens, literals, the top level ---- */

Loc *tok_loc(Parser *p, const Tok *t);     /* t's FILE:LINE:COL */
/* t's text from byte skip on, interned. */
const char *tok_intern(Parser *p, const Tok *t, size_t skip);
/* A string token's body (from byte skip) decoded into the arena. */
int decode_string(Parser *p, const Tok *t, size_t skip,
	const char **out, size_t *outn);
/* An integer token's value, hex allowed; sets *ovf on overflow. */
uint64_t tok_uint(const Tok *t, int *ovf);
/* Location l's levels, or -1 past MAXNEST or in a cycle of aliases. */
int loc_levels(PMap *seen, Loc *l, int level);

/* ---- parse_type.c ---- */

/* Counts the levels inside alias key, used at level at, into *max; -1
 * past limit. */
int alias_nest(Parser *p, const char *key, int at, int *max, int limit);
/* `!foo.bar<...>` or `#foo.bar<...>` (the token current) as text. */
const char *opaque_text(Parser *p);

/* ---- parse_affine.c ---- */

AffMap *parse_affine_map(Parser *p);       /* after `affine_map<` */

/* ---- parse_loc.c ---- */

Loc *parse_loc(Parser *p);                 /* `loc(...)`, the keyword current */

/* ---- parse_ssa.c ---- */

/* A region's scope; an isolated one hides the names outside it. */
void scope_push(Parser *p, int isolated);
/* Ends the innermost scope; in an isolated one, a placeholder still
 * pending is an error. */
void scope_pop(Parser *p);
void type_str(Buf *b, const Type *t);      /* for messages */
/* Binds name (results [0, n) of vals) in the current scope. */
int define_name(Parser *p, const Tok *at, const char *name, int n,
	Value **vals);

/* ---- parse_op.c ---- */

Op *parse_op(Parser *p);   /* one op, results and location included */

#endif
