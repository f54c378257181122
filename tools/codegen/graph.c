/*
 * graph.c - --dump-dispatch-graph=FILE: each function's dispatches as a
 * Graphviz DOT graph.  A node per dispatch (its display name, bytes and
 * FLOPs, as --dump-dispatches and vmrun --profile name them), the
 * function's arguments, constants and results; an edge per buffer a
 * dispatch reads, from the dispatch that wrote it (through views), with
 * its type and size.  The file appears whole or not at all.
 */
#include <stdint.h>
#include <string.h>

#include "gen.h"
#include "tool.h"

/* The buffer v is a view of, or v. */
static Value *base(Value *v)
{
	Value *s;

	while (v->def && (s = view_source(v)))
		v = s;
	return v;
}

static void put_label(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	fputc('"', f);
}

/* 1234567 as "1.2 M" */
static void human(Buf *b, int64_t n, const char *unit)
{
	static const char *const pre[] = { "", "k", "M", "G", "T" };
	double x = (double)n;
	int i = 0;

	while (x >= 1000 && i < 4)
		x /= 1000, i++;
	buf_printf(b, i ? "%.1f %s%s" : "%.0f %s%s", x, pre[i], unit);
}

/* The step of fp before step `before` that wrote v's buffer, or -1. */
static int producer(FnPlan *fp, int before, Value *v)
{
	for (int i = before - 1; i >= 0; i--) {
		Kernel *k = fp->st[i].k;
		for (int j = 0; k && j < k->nbind; j++)
			if (k->bind[j].out && base(k->bind[j].val) == v)
				return i;
	}
	return -1;
}

/* The constants' node numbers (as pointers), in the order first read. */
static PMap cnum;

/* The edge into node `to` of the buffer v, from whatever gave it. */
static void edge(FILE *f, int fn, FnPlan *fp, int before, Value *v, const char *to, const char *extra)
{
	Value *b = base(v);
	int p = producer(fp, before, b);
	Buf l = { 0 };

	if (p >= 0)
		fprintf(f, "    f%d_d%d -> %s", fn, p, to);
	else if (!b->def)
		fprintf(f, "    f%d_arg%d -> %s", fn, b->index, to);
	else
		fprintf(f, "    f%d_c%d -> %s", fn, (int)(intptr_t)pmap_get(&cnum, b), to);
	print_type(&l, v->type);
	buf_puts(&l, "\n");
	human(&l, ty_numel(v->type) * (int64_t)elem_size(v->type->elem), "B");
	buf_puts(&l, extra);
	buf_putc(&l, 0);
	fputs(" [label = ", f);
	put_label(f, l.p);
	fputs("];\n", f);
	buf_free(&l);
}

/* The constants the dispatches read, a node each. */
static void constants(FILE *f, int fn, FnPlan *fp)
{
	int n = 0;

	for (int i = 0; i < fp->n; i++) {
		Kernel *k = fp->st[i].k;
		for (int j = 0; k && j < k->nbind; j++) {
			Value *b = base(k->bind[j].val);
			Buf l = { 0 };
			void **slot;

			if (k->bind[j].out || !b->def || producer(fp, i, b) >= 0 || pmap_get(&cnum, b))
				continue;
			slot = pmap_slot(&cnum, b, 1);
			*slot = (void *)(intptr_t)++n;
			buf_printf(&l, "%s\n", b->def->name);
			print_type(&l, b->type);
			buf_putc(&l, 0);
			fprintf(f, "    f%d_c%d [shape = note, label = ", fn, n);
			put_label(f, l.p);
			fputs("];\n", f);
			buf_free(&l);
		}
	}
}

static void function(Gen *g, FILE *f, int fn, Op *op, FnPlan *fp)
{
	Block *bl = op->regs[0].first;
	Op *ret = bl->last && op_is(bl->last, "func.return") ? bl->last : NULL;
	const char *sym = op_sym_name(op);
	char to[64];

	fprintf(f, "  subgraph cluster_f%d {\n    label = ", fn);
	put_label(f, sym ? sym : "?");
	fputs(";\n", f);
	for (int i = 0; i < bl->nargs; i++) {
		Buf l = { 0 };

		buf_printf(&l, "%%arg%d\n", i);
		print_type(&l, bl->args[i]->type);
		buf_putc(&l, 0);
		fprintf(f, "    f%d_arg%d [shape = ellipse, label = ", fn, i);
		put_label(f, l.p);
		fputs("];\n", f);
		buf_free(&l);
	}
	constants(f, fn, fp);
	for (int i = 0; i < fp->n; i++) {
		Kernel *k = fp->st[i].k;
		Buf l = { 0 };

		if (!k->display)
			kernel_label(g, k);
		buf_printf(&l, "%s\n", k->display);
		human(&l, k->bytes, "B, ");
		human(&l, k->flops, "FLOP");
		buf_putc(&l, 0);
		fprintf(f, "    f%d_d%d [shape = box, label = ", fn, i);
		put_label(f, l.p);
		fputs("];\n", f);
		buf_free(&l);
		snprintf(to, sizeof to, "f%d_d%d", fn, i);
		for (int j = 0; j < k->nbind; j++)
			if (!k->bind[j].out)
				edge(f, fn, fp, i, k->bind[j].val, to, "");
	}
	fprintf(f, "    f%d_ret [shape = ellipse, label = \"return\"];\n", fn);
	snprintf(to, sizeof to, "f%d_ret", fn);
	for (int i = 0; ret && i < ret->nopnds; i++) {
		char extra[32];

		snprintf(extra, sizeof extra, "\nresult %d", i);
		edge(f, fn, fp, fp->n, OPND(ret, i), to, extra);
	}
	fputs("  }\n", f);
}

void dispatch_graph(Gen *g, const char *path, Op **fns, FnPlan *plans, int nf)
{
	FILE *f = tool_open_out(path);

	fputs("digraph G {\n  compound = true;\n  node [fontname = \"monospace\"];\n"
		"  edge [fontname = \"monospace\", fontsize = 10];\n", f);
	for (int i = 0; i < nf; i++)
		function(g, f, i, fns[i], &plans[i]);
	fputs("}\n", f);
	tool_commit(f);
	pmap_free(&cnum);
}
