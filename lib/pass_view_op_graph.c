/*
 * pass_view_op_graph.c - view-op-graph: the anchor's ops as a Graphviz
 * DOT graph on standard error, as mlir-opt's --view-op-graph writes it.
 *
 * needs:       nothing.
 * guarantees:  the IR is unchanged.
 * invalidates: nothing.
 *
 * As in MLIR's ViewOpGraph.cpp: an op with regions is a cluster, each
 * region a cluster inside it, with an invisible anchor node for the
 * edges that reach it; every other op, and each block argument, a node
 * labelled with the op's name, its result types and its attributes
 * (each cut to max-label-len characters, elements attributes of more
 * than 16 elements elided); an edge per operand, labelled with its
 * number when the op has several; control-flow edges, dashed, from a
 * terminator to its successors' first ops.
 */
#include <string.h>

#include "pass.h"

typedef struct G {
	FILE *f;
	Buf edges;        /* written after the nodes, as MLIR does */
	PMap node;        /* Value* or Op* -> node id (as a pointer) */
	int next;         /* ids: v1, v2, ... */
	int maxlen, attrs, dataflow, cflow, types;
} G;

static int
boolopt(const PassArgs *a, const char *key, int dflt)
{
	const char *v = pass_opt(a, key, NULL);

	return v ? !strcmp(v, "true") || !strcmp(v, "1") : dflt;
}

/* s into b as DOT string contents, cut to max characters ("..."). */
static void
put_cut(G *g, Buf *b, const char *s)
{
	size_t n = strlen(s);
	int cut = g->maxlen > 0 && n > (size_t)g->maxlen;

	if (cut)
		n = g->maxlen;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '"' || s[i] == '\\')
			buf_printf(b, "\\%c", s[i]);
		else if (s[i] == '\n')
			buf_puts(b, "\\n");
		else
			buf_putc(b, s[i]);
	if (cut)
		buf_puts(b, "...");
}

static void
put_type(G *g, Buf *b, const Type *t)
{
	Buf s = {0};

	print_type(&s, t);
	buf_putc(&s, 0);
	put_cut(g, b, s.p);
	buf_free(&s);
}

static void
put_attr(G *g, Buf *b, const Attr *a)
{
	Buf s = {0};

	if ((a->kind == AT_DENSE || a->kind == AT_DENSE_RESOURCE) && a->type
	    && ty_numel(a->type) > 16) {
		buf_puts(&s, "dense_resource<__elided__> : ");
		print_type(&s, a->type);
	} else {
		print_attr(&s, a);
	}
	buf_putc(&s, 0);
	put_cut(g, b, s.p);
	buf_free(&s);
}

/* "name : (types)" and, below, "attr: value" lines */
static void
label(G *g, Buf *b, Op *op)
{
	buf_puts(b, op->name);
	if (g->types) {
		buf_puts(b, " : (");
		for (int i = 0; i < op->nres; i++) {
			if (i)
				buf_puts(b, ", ");
			put_type(g, b, RES(op, i)->type);
		}
		buf_puts(b, ")");
	}
	if (g->attrs && op->nattrs) {
		buf_puts(b, "\\n");
		for (int i = 0; i < op->nattrs; i++) {
			buf_printf(b, "\\n%s: ", op->attrs[i].name);
			put_attr(g, b, op->attrs[i].val);
		}
	}
}

static int
new_node(G *g, const void *key, const char *lbl, const char *shape, int indent)
{
	int id = ++g->next;

	if (key)
		*pmap_slot(&g->node, key, 1) = (void *)(intptr_t)id;
	fprintf(g->f, "%*sv%d [label = \"%s\", shape = %s];\n", indent, "", id, lbl, shape);
	return id;
}

static int
id_of(G *g, const void *key)
{
	return (int)(intptr_t)pmap_get(&g->node, key);
}

static void emit_op(G *g, Op *op, int indent);

static void
emit_region(G *g, Region *r, int indent)
{
	int id = ++g->next;

	fprintf(g->f, "%*ssubgraph cluster_%d {\n", indent, "", id);
	fprintf(g->f, "%*sv%d [label = \" \", shape = plain];\n%*slabel = \"\";\n",
	    indent + 2, "", ++g->next, indent + 2, "");
	for (Block *b = r->first; b; b = b->next) {
		for (int i = 0; i < b->nargs; i++) {
			char l[32];
			snprintf(l, sizeof l, "arg%d", i);
			new_node(g, b->args[i], l, "ellipse", indent + 2);
		}
		for (Op *o = b->first; o; o = o->next)
			emit_op(g, o, indent + 2);
	}
	fprintf(g->f, "%*s}\n", indent, "");
}

/* The edges into op's node, from its operands' definitions. */
static void
emit_edges(G *g, Op *op, int to)
{
	for (int i = 0; g->dataflow && i < op->nopnds; i++) {
		Value *v = OPND(op, i);
		const void *key = v->def ? (const void *)v->def : (const void *)v;
		int from = id_of(g, key);
		if (!from)
			continue;   /* defined outside the anchor */
		buf_printf(&g->edges, "  v%d -> v%d [label = \"", from, to);
		if (op->nopnds > 1)
			buf_printf(&g->edges, "%d", i);
		buf_puts(&g->edges, "\", style = solid];\n");
	}
}

/* A terminator's edges to its successors' first ops: once every op has
 * its node, as a successor may come later. */
static int
cflow_edges(Op *op, void *env)
{
	G *g = env;

	for (int i = 0; i < op->nsuccs; i++) {
		Op *first = op->succs[i]->first;
		if (first && id_of(g, first))
			buf_printf(&g->edges, "  v%d -> v%d [label = \"%d\", style = dashed];\n",
			    id_of(g, op), id_of(g, first), i);
	}
	return 0;
}

static void
emit_op(G *g, Op *op, int indent)
{
	Buf l = {0};
	int id;

	label(g, &l, op);
	buf_putc(&l, 0);
	if (!op->nregs) {
		id = new_node(g, op, l.p, "ellipse", indent);
	} else {
		fprintf(g->f, "%*ssubgraph cluster_%d {\n", indent, "", ++g->next);
		/* the anchor that edges to and from the cluster use */
		id = new_node(g, op, " ", "plain", indent + 2);
		fprintf(g->f, "%*slabel = \"%s\";\n", indent + 2, "", l.p);
		for (int i = 0; i < op->nregs; i++)
			emit_region(g, &op->regs[i], indent + 2);
		fprintf(g->f, "%*s}\n", indent, "");
	}
	buf_free(&l);
	emit_edges(g, op, id);
}

static int
run(Ctx *c, Op *op, PassArgs *a)
{
	G g = {.f = stderr};

	(void)c;
	g.maxlen = (int)pass_opt_int(a, "max-label-len", 20);
	g.attrs = boolopt(a, "print-attrs", 1);
	g.dataflow = boolopt(a, "print-data-flow-edges", 1);
	g.cflow = boolopt(a, "print-control-flow-edges", 0);
	g.types = boolopt(a, "print-result-types", 1);
	fputs("digraph G {\n  compound = true;\n", g.f);
	emit_op(&g, op, 2);
	if (g.cflow)
		op_walk(op, cflow_edges, &g);
	fwrite(g.edges.p, 1, g.edges.n, g.f);
	fputs("}\n", g.f);
	fflush(g.f);
	buf_free(&g.edges);
	pmap_free(&g.node);
	a->changed = 0;
	return 0;
}

static const char *const options[] = {
	"max-label-len", "print-attrs", "print-data-flow-edges",
	"print-control-flow-edges", "print-result-types", NULL,
};

const PassInfo pass_view_op_graph = {
	"view-op-graph",
	"print a Graphviz DOT graph of the ops on standard error",
	NULL, options, run, NULL,
};
