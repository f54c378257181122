/* diag.c - user-facing diagnostics: FILE:LINE:COL: error: message. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

int diag_errors;
const char *diag_fallback_file;

/* Names the place of l the way MLIR does: the first file location inside
 * it; for a name location with nothing below it, the name. */
static void
where(const Loc *l, FILE *f)
{
	const Loc *fl = loc_filepos(l);

	if (fl)
		fprintf(f, "%s:%d:%d: ", fl->file, fl->line, fl->col);
	else if (l && l->kind == LOC_NAME)
		fprintf(f, "%s: ", l->file);
	else if (diag_fallback_file)
		fprintf(f, "%s: ", diag_fallback_file);
	else
		fputs("<unknown>: ", f);
}

void (*diag_hook)(const Loc *l, const char *kind, const char *msg);

void
loc_diag(const Loc *l, const char *kind, const char *fmt, va_list ap)
{
	if (diag_hook) {
		char *msg = NULL;
		if (vasprintf(&msg, fmt, ap) < 0)
			msg = NULL;
		diag_hook(l, kind, msg ? msg : fmt);
		free(msg);
		if (!strcmp(kind, "error"))
			diag_errors++;
		return;
	}
	fflush(stdout);
	where(l, stderr);
	fprintf(stderr, "%s: ", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	if (!strcmp(kind, "error"))
		diag_errors++;
}

void
loc_error(const Loc *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	loc_diag(l, "error", fmt, ap);
	va_end(ap);
}

void
op_error(Op *op, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	loc_diag(op->loc, "error", fmt, ap);
	va_end(ap);
}

void
op_note(Op *op, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	loc_diag(op->loc, "note", fmt, ap);
	va_end(ap);
}
