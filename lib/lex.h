/*
 * lex.h - the MLIR text lexer.
 *
 * Tokens point into the input text; nothing is copied.  The parser decodes
 * strings and numbers itself, so the lexer only finds token boundaries and
 * positions (LINE:COL, 1-based, columns count bytes).
 */
#ifndef FX_LEX_H
#define FX_LEX_H

#include <stddef.h>

typedef enum TokKind {
	T_EOF,
	T_ERROR,   /* a malformed token; text says where */
	T_IDENT,   /* bare identifier: letters, digits, _ $ . */
	T_PCT,     /* %name */
	T_CARET,   /* ^bb0 */
	T_AT,      /* @name or @"quoted" */
	T_HASH,    /* #alias, #dialect.attr, #1 */
	T_BANG,    /* !alias, !dialect.type */
	T_INT,     /* 12, 0x1F */
	T_FLOAT,   /* 1.5, 2.0e-3 */
	T_STR,     /* "..." with its quotes */
	T_PUNCT,   /* ( ) [ ] { } < > , : = ? * + - -> :: ... {-# #-} | */
} TokKind;

typedef struct Tok {
	TokKind kind;
	const char *s;     /* start in the input */
	size_t n;          /* length */
	int line, col;
} Tok;

/* A string token that stands for a longer one taken out of the text
 * (textin.c): the columns after it on its line count the bytes lost. */
typedef struct LexHole {
	size_t at, extra;      /* offset in the text; bytes lost */
} LexHole;

typedef struct Lexer {
	const char *text, *end;
	const char *p;         /* next unread byte */
	const char *linestart; /* start of the line p is on */
	int line;
	size_t coladj;         /* bytes taken out of this line before p */
	const LexHole *holes;  /* sorted by at; set after lex_init */
	int nholes, hole;      /* the next one not yet passed */
	const char *err;       /* message for T_ERROR */
} Lexer;

void lex_init(Lexer *lx, const char *text, size_t len);
Tok lex_next(Lexer *lx);
/* Restarts lexing at p, which must lie on the line of the last token. */
void lex_reset(Lexer *lx, const char *p);
/* Does the token spell exactly s? */
int tok_is(const Tok *t, const char *s);

#endif
