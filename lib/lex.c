/*
 * lex.c - splits MLIR text into tokens.
 *
 * The scanner is a loop over bytes with a class table; strings are scanned
 * with memchr-like loops because resource blobs can be hundreds of MB.
 */
#include <limits.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "lex.h"

enum { C_ID = 1, C_DIGIT = 2, C_IDSTART = 4, C_HEX = 8 };

static unsigned char cls[256];

static void init_cls(void)
{
	int ch;

	if (cls['a'])
		return;
	for (ch = 0; ch < 256; ch++) {
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_')
			cls[ch] |= C_ID | C_IDSTART;
		if (ch >= '0' && ch <= '9')
			cls[ch] |= C_ID | C_DIGIT | C_HEX;
		if ((ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F'))
			cls[ch] |= C_HEX;
	}
	cls['$'] |= C_ID;
	cls['.'] |= C_ID;
}

void lex_init(Lexer *lx, const char *text, size_t len)
{
	init_cls();
	lx->text = text;
	lx->end = text + len;
	lx->p = text;
	lx->linestart = text;
	lx->line = 1;
	lx->coladj = 0;
	lx->holes = NULL;
	lx->nholes = lx->hole = 0;
	lx->err = NULL;
}

void lex_reset(Lexer *lx, const char *p)
{
	const char *q;

	for (q = lx->p; q < p; q++)
		if (*q == '\n') {
			lx->line++;
			lx->linestart = q + 1;
			lx->coladj = 0;
		}
	lx->p = p;
}

int tok_is(const Tok *t, const char *s)
{
	size_t n = strlen(s);

	return t->n == n && memcmp(t->s, s, n) == 0;
}

static void skip_space(Lexer *lx)
{
	const char *p = lx->p, *e = lx->end;

	while (p < e) {
		if (*p == '\n') {
			lx->line++;
			lx->linestart = p + 1;
			lx->coladj = 0;
			p++;
		} else if (*p == ' ' || *p == '\t' || *p == '\r') {
			p++;
		} else if (*p == '/' && p + 1 < e && p[1] == '/') {
			while (p < e && *p != '\n')
				p++;
		} else {
			break;
		}
	}
	lx->p = p;
}

static Tok mk(Lexer *lx, TokKind k, const char *s)
{
	Tok t;
	size_t col;

	t.kind = k;
	t.s = s;
	t.n = (size_t)(lx->p - s);
	t.line = lx->line;
	col = (size_t)(s - lx->linestart) + lx->coladj + 1;
	t.col = col > INT_MAX ? INT_MAX : (int)col;
	return t;
}

static Tok error(Lexer *lx, const char *s, const char *msg)
{
	Tok t = mk(lx, T_ERROR, s);

	lx->err = msg;
	return t;
}

/* The first '"', '\\' or newline in [p, e), or e. */
static const char *string_stop(const char *p, const char *e)
{
#if defined(__SSE2__)
	const __m128i quote = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'),
		nl = _mm_set1_epi8('\n');

	for (; e - p >= 16; p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)p);
		int m = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
			_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bs)),
			_mm_cmpeq_epi8(v, nl)));

		if (m)
			return p + __builtin_ctz((unsigned)m);
	}
#endif
	while (p < e && *p != '"' && *p != '\\' && *p != '\n')
		p++;
	return p;
}

/* A string body: returns the closing quote, or NULL at a newline/EOF. */
static const char *scan_string(const char *p, const char *e)
{
	while (p < e) {
		const char *q = string_stop(p, e);

		if (q >= e || *q == '\n')
			return NULL;
		if (*q == '"')
			return q;
		p = q + 2;   /* the escape's first char; \XX is checked later */
	}
	return NULL;
}

static Tok lex_string(Lexer *lx, const char *s)
{
	const char *q = scan_string(s + 1, lx->end);
	Tok t;

	if (!q) {
		const char *nl = memchr(s, '\n', (size_t)(lx->end - s));

		lx->p = nl ? nl : lx->end;
		return error(lx, lx->p, "expected '\"' in string literal");
	}
	lx->p = q + 1;
	t = mk(lx, T_STR, s);
	/* a placeholder: what follows on its line is further right */
	while (lx->hole < lx->nholes && lx->text + lx->holes[lx->hole].at < s)
		lx->hole++;
	if (lx->hole < lx->nholes && lx->text + lx->holes[lx->hole].at == s)
		lx->coladj += lx->holes[lx->hole++].extra;
	return t;
}

static Tok lex_number(Lexer *lx, const char *s)
{
	const char *p = s, *e = lx->end;

	if (p + 1 < e && p[0] == '0' && p[1] == 'x' && p + 2 < e &&
			(cls[(unsigned char)p[2]] & C_HEX)) {
		p += 2;
		while (p < e && (cls[(unsigned char)*p] & C_HEX))
			p++;
		lx->p = p;
		return mk(lx, T_INT, s);
	}
	while (p < e && (cls[(unsigned char)*p] & C_DIGIT))
		p++;
	if (p >= e || *p != '.') {
		lx->p = p;
		return mk(lx, T_INT, s);
	}
	p++;
	while (p < e && (cls[(unsigned char)*p] & C_DIGIT))
		p++;
	if (p < e && (*p == 'e' || *p == 'E')) {
		const char *q = p + 1;

		if (q < e && (*q == '+' || *q == '-'))
			q++;
		if (q < e && (cls[(unsigned char)*q] & C_DIGIT)) {
			while (q < e && (cls[(unsigned char)*q] & C_DIGIT))
				q++;
			p = q;
		}
	}
	lx->p = p;
	return mk(lx, T_FLOAT, s);
}

/* The identifier after a sigil: %x, ^bb, #map, !torch.vtensor, @f. */
static Tok lex_prefixed(Lexer *lx, const char *s, TokKind k)
{
	const char *p = s + 1, *e = lx->end;

	if (k == T_AT && p < e && *p == '"') {
		const char *q = scan_string(p + 1, e);

		if (!q) {
			lx->p = e;
			return error(lx, s, "expected '\"' in string literal");
		}
		lx->p = q + 1;
		return mk(lx, k, s);
	}
	while (p < e && ((cls[(unsigned char)*p] & C_ID) || *p == '-'))
		p++;
	if (p == s + 1) {
		lx->p = p;
		return error(lx, s, "invalid identifier");
	}
	lx->p = p;
	return mk(lx, k, s);
}

static const char *const puncts[] = {
	"{-#", "#-}", "...", "->", "::",
	"(", ")", "[", "]", "{", "}", "<", ">", ",", ":", "=", "?", "*",
	"+", "-", "|",
};

static Tok lex_punct(Lexer *lx, const char *s)
{
	size_t i, left = (size_t)(lx->end - s);

	for (i = 0; i < sizeof puncts / sizeof *puncts; i++) {
		size_t n = strlen(puncts[i]);

		if (n <= left && memcmp(s, puncts[i], n) == 0) {
			lx->p = s + n;
			return mk(lx, T_PUNCT, s);
		}
	}
	lx->p = s + 1;
	return error(lx, s, "unexpected character");
}

Tok lex_next(Lexer *lx)
{
	const char *s;
	unsigned char ch;

	skip_space(lx);
	s = lx->p;
	if (s >= lx->end)
		return mk(lx, T_EOF, s);
	ch = (unsigned char)*s;
	if (cls[ch] & C_IDSTART) {
		const char *p = s + 1;

		while (p < lx->end && (cls[(unsigned char)*p] & C_ID))
			p++;
		lx->p = p;
		return mk(lx, T_IDENT, s);
	}
	if (cls[ch] & C_DIGIT)
		return lex_number(lx, s);
	switch (ch) {
	case '"': return lex_string(lx, s);
	case '%': return lex_prefixed(lx, s, T_PCT);
	case '^': return lex_prefixed(lx, s, T_CARET);
	case '@': return lex_prefixed(lx, s, T_AT);
	case '!': return lex_prefixed(lx, s, T_BANG);
	case '#':
		if (s + 2 < lx->end && s[1] == '-' && s[2] == '}')
			break;
		return lex_prefixed(lx, s, T_HASH);
	}
	return lex_punct(lx, s);
}
