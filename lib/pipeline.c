/*
 * pipeline.c - the pass manager: parses MLIR's textual pipeline syntax,
 * runs passes on the ops they anchor on, and instruments the run
 * (--print-ir-*, --verify-each, --timing, --trace).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pass.h"
#include "tool.h"

typedef struct Node Node;
struct Node {
	const PassInfo *pass;   /* a pass, or NULL for a nested op pipeline */
	char *opname;           /* nested: the op name it runs on */
	PassArgs args;
	Node **kids;
	int nkids;
	double secs;            /* --timing */
	long runs, changed;     /* --mlir-pass-statistics */
	long ops_before, ops_after;
};

struct Pipeline {
	Node *root;             /* nested on builtin.module */
};

/* ---- parsing ---- */

typedef struct P {
	const char *s, *start;
	int depth;
	int err;
} P;

static void
perr(P *p, const char *msg, const char *what)
{
	if (p->err++)
		return;
	fprintf(stderr, "error: invalid pass pipeline at column %d: %s%s%s%s\n",
	    (int)(p->s - p->start) + 1, msg, what ? " '" : "", what ? what : "",
	    what ? "'" : "");
}

static void
skipsp(P *p)
{
	while (isspace((unsigned char)*p->s))
		p->s++;
}

static char *
ident(P *p)
{
	const char *b;

	skipsp(p);
	b = p->s;
	while (*p->s && (isalnum((unsigned char)*p->s) || strchr("._-$", *p->s)))
		p->s++;
	if (p->s == b)
		return NULL;
	return strndup(b, p->s - b);
}

static Node *
node_new(void)
{
	return xcalloc(1, sizeof(Node));
}

static void
add_kid(Node *n, Node *k)
{
	n->kids = xrealloc(n->kids, mulsz(n->nkids + 1, sizeof *n->kids));
	n->kids[n->nkids++] = k;
}

static void parse_list(P *p, Node *into);

/* {key=value key2=value2} */
static void
parse_opts(P *p, Node *n)
{
	p->s++;
	for (;;) {
		skipsp(p);
		if (*p->s == '}') {
			p->s++;
			return;
		}
		char *k = ident(p);
		if (!k) {
			perr(p, "expected an option name", NULL);
			return;
		}
		skipsp(p);
		char *v = NULL;
		if (*p->s == '=') {
			p->s++;
			skipsp(p);
			const char *b = p->s;
			while (*p->s && !isspace((unsigned char)*p->s) && *p->s != '}')
				p->s++;
			v = strndup(b, p->s - b);
		}
		if (n->pass && n->pass->options) {
			const char *const *o = n->pass->options;
			while (*o && strcmp(*o, k))
				o++;
			if (!*o) {
				char msg[160];
				snprintf(msg, sizeof msg, "pass '%s' has no option", n->pass->name);
				perr(p, msg, k);
				free(k);
				free(v);
				return;
			}
		} else if (n->pass) {
			perr(p, "pass takes no options", n->pass->name);
			free(k);
			free(v);
			return;
		}
		if (!v)
			v = xstrdup("true");
		n->args.opts = xrealloc(n->args.opts, mulsz(n->args.n + 1, sizeof(PassOpt)));
		n->args.opts[n->args.n].key = k;
		n->args.opts[n->args.n++].val = v;
	}
}

/* A registered pipeline expands in place. */
static void
expand(P *p, Node *into, const PassInfo *pi)
{
	P q = {pi->pipeline, pi->pipeline, p->depth + 1, 0};

	if (q.depth > 16) {
		perr(p, "pipeline expands recursively", pi->name);
		return;
	}
	parse_list(&q, into);
	if (q.err)
		perr(p, "in the expansion of", pi->name);
}

/* Gives option o to every pass under n that takes it. */
static void
forward_opt(Node *n, const PassOpt *o)
{
	const char *const *k = n->pass ? n->pass->options : NULL;
	int i;

	while (k && *k && strcmp(*k, o->key))
		k++;
	if (k && *k) {
		n->args.opts = xrealloc(n->args.opts, mulsz(n->args.n + 1, sizeof(PassOpt)));
		n->args.opts[n->args.n].key = xstrdup(o->key);
		n->args.opts[n->args.n++].val = xstrdup(o->val);
	}
	for (i = 0; i < n->nkids; i++)
		forward_opt(n->kids[i], o);
}

static void
parse_elem(P *p, Node *into)
{
	char *name = ident(p);
	Node *n;

	if (!name) {
		perr(p, "expected a pass or op name", NULL);
		return;
	}
	skipsp(p);
	if (*p->s == '(') {
		n = node_new();
		n->opname = name;
		p->s++;
		parse_list(p, n);
		skipsp(p);
		if (*p->s != ')')
			perr(p, "expected ')'", NULL);
		else
			p->s++;
		add_kid(into, n);
		return;
	}
	const PassInfo *pi = pass_lookup(name);
	if (!pi) {
		perr(p, "unknown pass", name);
		free(name);
		return;
	}
	free(name);
	if (pi->pipeline) {
		int first = into->nkids;
		expand(p, into, pi);
		if (!p->err && *p->s == '{') {
			/* a pipeline's options go to each pass of it that has them */
			Node opts = {.pass = pi};
			parse_opts(p, &opts);
			for (int i = 0; i < opts.args.n; i++) {
				for (int k = first; k < into->nkids; k++)
					forward_opt(into->kids[k], &opts.args.opts[i]);
				free((char *)opts.args.opts[i].key);
				free((char *)opts.args.opts[i].val);
			}
			free(opts.args.opts);
		}
		return;
	}
	n = node_new();
	n->pass = pi;
	if (*p->s == '{')
		parse_opts(p, n);
	add_kid(into, n);
}

static void
parse_list(P *p, Node *into)
{
	skipsp(p);
	if (!*p->s || *p->s == ')')
		return;
	for (;;) {
		parse_elem(p, into);
		if (p->err)
			return;
		skipsp(p);
		if (*p->s != ',')
			return;
		p->s++;
	}
}

/* Bare lists: function-anchored passes go into func.func(...) nests. */
static void
anchor_bare(Node *root)
{
	Node **kids = root->kids;
	int n = root->nkids, i;
	Node *fn = NULL;

	root->kids = NULL;
	root->nkids = 0;
	for (i = 0; i < n; i++) {
		Node *k = kids[i];
		if (k->pass && k->pass->anchor && !strcmp(k->pass->anchor, "func.func")) {
			if (!fn) {
				fn = node_new();
				fn->opname = xstrdup("func.func");
				add_kid(root, fn);
			}
			add_kid(fn, k);
			continue;
		}
		fn = NULL;
		add_kid(root, k);
	}
	free(kids);
}

Pipeline *
pipeline_parse(const char *text)
{
	P p = {text, text, 0, 0};
	Pipeline *pl = xcalloc(1, sizeof *pl);
	Node *root = node_new();

	root->opname = xstrdup("builtin.module");
	pl->root = root;
	skipsp(&p);
	if (!strncmp(p.s, "builtin.module", 14) && p.s[14] == '(') {
		p.s += 15;
		parse_list(&p, root);
		skipsp(&p);
		if (!p.err && *p.s != ')')
			perr(&p, "expected ')'", NULL);
		else if (!p.err)
			p.s++;
	} else {
		parse_list(&p, root);
		anchor_bare(root);
	}
	skipsp(&p);
	if (!p.err && *p.s)
		perr(&p, "unexpected text", p.s);
	if (p.err) {
		pipeline_free(pl);
		return NULL;
	}
	return pl;
}

static void
node_free(Node *n)
{
	int i;

	for (i = 0; i < n->nkids; i++)
		node_free(n->kids[i]);
	for (i = 0; i < n->args.n; i++) {
		free((char *)n->args.opts[i].key);
		free((char *)n->args.opts[i].val);
	}
	free(n->kids);
	free(n->opname);
	free(n->args.opts);
	free(n);
}

void
pipeline_free(Pipeline *pl)
{
	if (!pl)
		return;
	node_free(pl->root);
	free(pl);
}

static void
node_print(FILE *f, const Node *n)
{
	int i;

	if (n->pass) {
		fputs(n->pass->name, f);
		if (n->args.n) {
			fputc('{', f);
			for (i = 0; i < n->args.n; i++)
				fprintf(f, "%s%s=%s", i ? " " : "", n->args.opts[i].key,
				    n->args.opts[i].val);
			fputc('}', f);
		}
		return;
	}
	fprintf(f, "%s(", n->opname);
	for (i = 0; i < n->nkids; i++) {
		if (i)
			fputc(',', f);
		node_print(f, n->kids[i]);
	}
	fputc(')', f);
}

void
pipeline_print(FILE *f, const Pipeline *pl)
{
	node_print(f, pl->root);
	fputc('\n', f);
}

/* ---- running ---- */

typedef struct Run {
	Ctx *c;
	Op *module;
	const PipelineOpts *o;
	Node *timed[256];
	int ntimed;
} Run;

static int
listed(const char **names, const char *name)
{
	for (; names && *names; names++)
		if (!strcmp(*names, name) || !strcmp(*names, "all"))
			return 1;
	return 0;
}

/* IR dumps always show the whole module, so that a dump can be fed back
 * to torch-opt (resources and all). */
static void
dump(Run *r, const char *when, const Node *n, Op *op)
{
	const char *sym = op_sym_name(op);

	fprintf(r->o->dump, "// -----// IR Dump %s %s (%s)%s%s //----- //\n",
	    when, n->pass->name, op->name, sym ? " @" : "", sym ? sym : "");
	PrintOpts po = r->o->print;

	po.elide_larger = r->o->elide_larger;
	print_module(r->o->dump, r->module, &po);
	fflush(r->o->dump);
}

static int run_node(Run *r, Node *n, Op *op);

static int
count_one(Op *op, void *env)
{
	++*(long *)env;
	return 0;
}

/* The ops under op, op itself included. */
static long
count_ops(Op *op)
{
	long n = 0;

	op_walk(op, count_one, &n);
	return n;
}

static int
run_pass(Run *r, Node *n, Op *op)
{
	const PipelineOpts *o = r->o;
	double t0, t1;
	int rc;

	if (n->pass->anchor && strcmp(n->pass->anchor, op->name)) {
		fprintf(stderr, "error: pass '%s' runs on '%s', not on '%s'\n",
		    n->pass->name, n->pass->anchor, op->name);
		return -1;
	}
	if (listed(o->print_before, n->pass->name))
		dump(r, "Before", n, op);
	n->args.changed = 0;
	if (o->statistics)
		n->ops_before += count_ops(op);
	t0 = tool_now();
	rc = n->pass->run(r->c, op, &n->args);
	t1 = tool_now();
	n->secs += t1 - t0;
	ctrace_span(n->pass->name, "pass", t0, t1);
	if (o->statistics) {
		n->runs++;
		n->changed += n->args.changed != 0;
		if (rc == 0)
			n->ops_after += count_ops(op);
	}
	if (rc != 0) {
		if (o->print_after_failure)
			dump(r, "After Failed", n, op);
		return -1;
	}
	if (o->print_after_all || listed(o->print_after, n->pass->name)
	    || (o->print_after_change && n->args.changed))
		dump(r, "After", n, op);
	if (o->verify_each && verify(r->module) != 0) {
		fprintf(stderr, "error: the IR does not verify after pass '%s'\n",
		    n->pass->name);
		if (o->print_after_failure)
			dump(r, "After Failed", n, op);
		return -1;
	}
	return 0;
}

/* --trace: the nested pipeline's run on one op, around its passes */
static void
trace_nest(Op *op, double t0)
{
	const char *sym = op_sym_name(op);
	char name[200];

	snprintf(name, sizeof name, "%s%s%s", op->name, sym ? " @" : "", sym ? sym : "");
	ctrace_span(name, "pipeline", t0, tool_now());
}

static int
run_nested(Run *r, Node *n, Op *op)
{
	int i, k;

	for (i = 0; i < op->nregs; i++)
		for (Block *b = op->regs[i].first; b; b = b->next)
			for (Op *o = b->first; o; o = o->next) {
				if (strcmp(o->name, n->opname))
					continue;
				double t0 = tool_now();
				for (k = 0; k < n->nkids; k++)
					if (run_node(r, n->kids[k], o) != 0)
						return -1;
				trace_nest(o, t0);
			}
	return 0;
}

static int
run_node(Run *r, Node *n, Op *op)
{
	if (n->pass)
		return run_pass(r, n, op);
	return run_nested(r, n, op);
}

static void
collect(Run *r, Node *n)
{
	int i;

	if (n->pass && r->ntimed < 256)
		r->timed[r->ntimed++] = n;
	for (i = 0; i < n->nkids; i++)
		collect(r, n->kids[i]);
}

void
timing_report(FILE *f, double total, int n, const char *const *names, const double *secs)
{
	int i;

	fprintf(f,
	    "===-------------------------------------------------------------------------===\n"
	    "                         ... Execution time report ...\n"
	    "===-------------------------------------------------------------------------===\n"
	    "  Total Execution Time: %.4f seconds\n\n"
	    "  ----Wall Time----  ----Name----\n", total);
	for (i = 0; i < n; i++)
		fprintf(f, "    %.4f (%5.1f%%)  %s\n", secs[i],
		    total > 0 ? 100 * secs[i] / total : 0.0, names[i]);
	fprintf(f, "    %.4f (100.0%%)  Total\n", total);
}

static void
report_timing(Run *r, double total)
{
	const char *names[256];
	double secs[256];
	int i;

	for (i = 0; i < r->ntimed; i++) {
		names[i] = r->timed[i]->pass->name;
		secs[i] = r->timed[i]->secs;
	}
	timing_report(stderr, total, r->ntimed, names, secs);
}

/* What each pass did, in MLIR's report form; the counts are ours: the
 * ops a pass found and left on its anchors, and how many of its runs
 * changed the IR. */
static void
report_statistics(FILE *f, Node *n, int depth)
{
	int i;

	if (n->pass) {
		fprintf(f, "%*s%s\n", 2 * depth, "", n->pass->name);
		fprintf(f, "%*s(runs)       %ld - anchors the pass ran on\n", 2 * depth + 2, "", n->runs);
		fprintf(f, "%*s(changed)    %ld - runs that changed the IR\n", 2 * depth + 2, "", n->changed);
		fprintf(f, "%*s(ops-before) %ld - ops under its anchors before it ran\n", 2 * depth + 2, "", n->ops_before);
		fprintf(f, "%*s(ops-after)  %ld - ops under its anchors after it ran\n", 2 * depth + 2, "", n->ops_after);
		return;
	}
	fprintf(f, "%*s'%s' Pipeline\n", 2 * depth, "", n->opname);
	for (i = 0; i < n->nkids; i++)
		report_statistics(f, n->kids[i], depth + 1);
}

int
pipeline_run(Ctx *c, Pipeline *pl, Op *module, const PipelineOpts *o)
{
	Run r = {c, module, o, {0}, 0};
	double t0 = tool_now();
	int rc, k;

	if (strcmp(module->name, "builtin.module")) {
		fprintf(stderr, "error: the pipeline runs on 'builtin.module', not '%s'\n",
		    module->name);
		return -1;
	}
	rc = 0;
	for (k = 0; k < pl->root->nkids && rc == 0; k++)
		rc = run_node(&r, pl->root->kids[k], module);
	ctrace_span("builtin.module", "pipeline", t0, tool_now());
	if (o->timing) {
		collect(&r, pl->root);
		report_timing(&r, tool_now() - t0);
	}
	if (o->statistics) {
		fprintf(stderr,
		    "===-------------------------------------------------------------------------===\n"
		    "                         ... Pass statistics report ...\n"
		    "===-------------------------------------------------------------------------===\n");
		report_statistics(stderr, pl->root, 0);
	}
	return rc;
}
