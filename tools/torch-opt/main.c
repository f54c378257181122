/*
 * torch-opt - the optimizer and pass driver, like mlir-opt and iree-opt.
 * Reads IR (a file or stdin), runs a pass pipeline, writes IR to stdout or
 * -o FILE.  With no -p it runs the default pipeline for the input's level.
 */
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "pass.h"
#include "tool.h"

#ifndef FXPIPE_VERSION
#define FXPIPE_VERSION "0.1.0"
#endif

typedef struct Opts {
	const char *input, *output, *pipeline;
	int split, list, dump_pipeline, verify_diags;
	int debuginfo;              /* --print-debuginfo 1, --no-debuginfo -1 */
	Buf extra;                  /* --PASSNAME flags, as a bare list */
	const char *before[64], *after[64];
	char *names[2];             /* storage behind before and after */
	int nbefore, nafter;
	PipelineOpts pl;
} Opts;

static const char usage[] =
"usage: torch-opt [options] [FILE|-]\n"
"  -p, --pass-pipeline=PIPELINE  passes to run, e.g. 'canonicalize,cse' or\n"
"                                'builtin.module(func.func(cse))'; '' only\n"
"                                parses, verifies and prints\n"
"  --NAME[=OPTS]                 append the registered pass NAME (or a\n"
"                                torch-mlir alias), OPTS as in NAME{OPTS}\n"
"  -o FILE                       write to FILE (atomically) instead of stdout\n"
"  --reproducer=FILE             on failure, save the input to FILE and print\n"
"                                the command that replays it\n"
"  --split-input-file            treat '// -----' chunks as separate inputs\n"
"  --list-passes                 list the registered passes and pipelines\n"
"  --print-ir-before=P[,P]       dump the module before pass P\n"
"  --print-ir-after=P[,P]        dump the module after pass P\n"
"  --print-ir-before-all         dump before every pass\n"
"  --print-ir-after-all          dump after every pass\n"
"  --print-ir-after-change       dump after every pass that changed the IR\n"
"  --print-ir-after-failure      dump when a pass fails\n"
"  --verify-each[=0|1]           verify after each pass (default 1)\n"
"  --timing                      per-pass wall time on stderr\n"
"  --trace=FILE                  append each pass as a Chrome trace event\n"
"                                to FILE (Perfetto; stages may share it)\n"
"  --mlir-pass-statistics        per pass: runs, runs that changed the IR,\n"
"                                ops before and after, on stderr\n"
"  --print-debuginfo             print locations (--mlir-print-debuginfo)\n"
"  --no-debuginfo                print none (default: those the input gave,\n"
"                                unless the output is a terminal)\n"
"  --mlir-print-op-generic       print every op in the generic form\n"
"  --allow-unregistered-dialect  accept ops of unknown dialects\n"
"  --dump-pass-pipeline          print the parsed pipeline on stderr\n"
"  --mlir-elide-elementsattrs-if-larger=N\n"
"                                in --print-ir-* dumps, literals of more than\n"
"                                N elements print as dense_resource<__elided__>\n"
"                                (default 16; 0 prints them whole)\n"
"  --verify-diagnostics          check the diagnostics against the input's\n"
"                                expected-error/warning/note/remark comments\n"
"  --mlir-print-local-scope      print affine maps inline, not as #map aliases\n"
"  --version                     print the version and exit\n"
"  --mlir-disable-threading, --mlir-print-ir-module-scope\n"
"                                accepted: passes run on one thread and\n"
"                                dumps are whole modules already\n"
"Long options take one dash or two (-split-input-file, -canonicalize,\n"
"-pass-pipeline=...), and --mlir-print-ir-* are --print-ir-*, as in mlir-opt.\n";

static void
split_names(const char *v, const char **into, int *n, char **store)
{
	char *s = xstrdup(v), *tok, *save;

	free(*store);
	*store = s;
	*n = 0;
	for (tok = strtok_r(s, ",", &save); tok && *n < 63; tok = strtok_r(NULL, ",", &save))
		into[(*n)++] = tok;
	into[*n] = NULL;
}

static int
flag(const char *a, const char *name)
{
	return !strcmp(a, name);
}

static void
parse_args(int argc, char **argv, Opts *o)
{
	const char *v;
	int i;

	o->pl.verify_each = 1;
	o->pl.elide_larger = 16;    /* dumps elide weights, as issue 23 asks */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i] = tool_long_option(argv[i]);
		char *eq;
		if (flag(a, "-h") || flag(a, "--help")) {
			fputs(usage, stdout);
			exit(0);
		} else if (flag(a, "--version")) {
			puts("torch-opt (fxpipe) " FXPIPE_VERSION);
			exit(0);
		} else if ((v = tool_optval(argc, argv, &i, "-p"))
		    || (v = tool_optval(argc, argv, &i, "--pass-pipeline")))
			o->pipeline = v;
		else if ((v = tool_optval(argc, argv, &i, "-o")))
			o->output = v;
		else if ((v = tool_optval(argc, argv, &i, "--reproducer")))
			tool_repro_file(v);
		else if ((v = tool_optval(argc, argv, &i, "--trace")))
			ctrace_open(v);
		else if ((v = tool_optval(argc, argv, &i, "--print-ir-before")))
			split_names(v, o->before, &o->nbefore, &o->names[0]);
		else if ((v = tool_optval(argc, argv, &i, "--print-ir-after")))
			split_names(v, o->after, &o->nafter, &o->names[1]);
		else if (flag(a, "--print-ir-before-all")) {
			o->before[0] = "all";
			o->nbefore = 1;
		} else if (flag(a, "--print-ir-after-all"))
			o->pl.print_after_all = 1;
		else if (flag(a, "--print-ir-after-change"))
			o->pl.print_after_change = 1;
		else if (flag(a, "--print-ir-after-failure"))
			o->pl.print_after_failure = 1;
		else if (flag(a, "--verify-each") || flag(a, "--verify-each=1")
		    || flag(a, "--verify-each=true"))
			o->pl.verify_each = 1;
		else if (flag(a, "--verify-each=0") || flag(a, "--verify-each=false")
		    || flag(a, "--no-verify-each"))
			o->pl.verify_each = 0;
		else if (flag(a, "--timing") || flag(a, "--mlir-timing"))
			o->pl.timing = 1;
		else if (flag(a, "--mlir-pass-statistics"))
			o->pl.statistics = 1;
		else if (flag(a, "--list-passes"))
			o->list = 1;
		else if (flag(a, "--split-input-file"))
			o->split = 1;
		else if (flag(a, "--print-debuginfo") || flag(a, "--mlir-print-debuginfo"))
			o->pl.print.debuginfo = o->debuginfo = 1;
		else if (flag(a, "--no-debuginfo"))
			o->pl.print.debuginfo = 0, o->debuginfo = -1;
		else if (flag(a, "--mlir-print-op-generic"))
			o->pl.print.generic = 1;
		else if (flag(a, "--allow-unregistered-dialect"))
			ctx_allow_unregistered = 1;
		else if ((v = tool_optval(argc, argv, &i, "--mlir-elide-elementsattrs-if-larger"))) {
			char *e;
			long n = strtol(v, &e, 10);
			if (!*v || *e || n < 0)
				tool_fail("bad value '%s' for --mlir-elide-elementsattrs-if-larger (a count of elements)", v);
			o->pl.elide_larger = n;
		} else if (flag(a, "--verify-diagnostics"))
			o->verify_diags = 1;
		else if (flag(a, "--dump-pass-pipeline"))
			o->dump_pipeline = 1;
		else if (flag(a, "--mlir-disable-threading")
		    || flag(a, "--print-ir-module-scope"))
			;   /* we run on one thread and dump whole modules anyway */
		else if (flag(a, "--mlir-print-local-scope"))
			o->pl.print.local_scope = 1;
		else if (a[0] == '-' && a[1] == '-' && pass_lookup(a + 2)) {
			if (o->extra.n)
				buf_putc(&o->extra, ',');
			buf_puts(&o->extra, a + 2);
		} else if (a[0] == '-' && a[1] == '-' && (eq = strchr(a, '='))) {
			/* --NAME=OPTS: the pass NAME with options {OPTS} */
			char *name = strndup(a + 2, eq - a - 2);
			int known = pass_lookup(name) != NULL;
			if (known) {
				if (o->extra.n)
					buf_putc(&o->extra, ',');
				buf_puts(&o->extra, name);
				buf_putc(&o->extra, '{');
				buf_puts(&o->extra, eq + 1);
				buf_putc(&o->extra, '}');
			}
			free(name);
			if (!known)
				tool_fail("unknown option '%s' (see --help)", a);
		} else if (a[0] == '-' && a[1])
			tool_fail("unknown option '%s' (see --help)", a);
		else if (o->input)
			tool_fail("more than one input file");
		else
			o->input = a;
	}
	if (!o->input)
		o->input = "-";
	o->pl.print_before = o->nbefore ? o->before : NULL;
	o->pl.print_after = o->nafter ? o->after : NULL;
	o->pl.dump = stderr;
	if (o->extra.n && o->pipeline)
		tool_fail("give passes either with -p or as --NAME flags, not both");
	if (o->extra.n)
		o->pipeline = o->extra.p;
}

static int
has_torch(Op *op, void *env)
{
	int *found = env;

	if (!strncmp(op->name, "torch.", 6) || !strncmp(op->name, "torch_c.", 8))
		*found = 1;
	return *found;
}

/* The default pipeline for the input's level: torch IR goes to the backend
 * contract, anything else gets the generic cleanups. */
static const char *
default_pipeline(Op *module)
{
	int torch = 0;

	op_walk(module, has_torch, &torch);
	if (torch && pass_lookup("torch-backend-pipeline"))
		return "torch-backend-pipeline";
	return "canonicalize,cse";
}

/* ---- --verify-diagnostics: expected-error/warning/note/remark comments,
 * matched as mlir-opt matches them ---- */

typedef struct Expect {
	const char *kind;     /* "error", "warning", "note", "remark" */
	int line, at, col;    /* the line it names; where it is written */
	char *text;           /* between {{ and the last }}, for messages */
	regex_t re;
	int matched;
} Expect;

static struct {
	const char *file;
	Expect *e;
	int n, failed;
} vd;

/* The message pattern: literal text, with {{regex}} parts. */
static int
compile_expect(Expect *e)
{
	Buf b = {0};
	const char *p = e->text;
	int rc;

	while (*p) {
		const char *q = strstr(p, "{{");
		const char *lit_end = q ? q : p + strlen(p);
		for (; p < lit_end; p++) {
			if (strchr(".[]()*+?{}|^$\\", *p))
				buf_putc(&b, '\\');
			buf_putc(&b, *p);
		}
		if (!q)
			break;
		const char *r = strstr(q + 2, "}}");
		if (!r)
			return -1;
		buf_putc(&b, '(');
		buf_put(&b, q + 2, r - q - 2);
		buf_putc(&b, ')');
		p = r + 2;
	}
	buf_putc(&b, 0);
	rc = regcomp(&e->re, b.p, REG_EXTENDED | REG_NOSUB);
	buf_free(&b);
	return rc ? -1 : 0;
}

/* The line an `@below` expectation on the line before p (numbered line)
 * is for. */
static int
below_target(const char *p, const char *end, int line)
{
	for (; p < end; line++) {
		const char *eol = memchr(p, '\n', end - p);
		size_t n = (eol ? eol : end) - p;

		if (!memmem(p, n, "expected-", 9))
			return line;
		p = eol ? eol + 1 : end;
	}
	return line;
}

/* Reads the expectations of one chunk (its text padded to file lines). */
static void
collect_expects(const char *text, size_t len)
{
	static const char *const kinds[] = {"error", "warning", "note", "remark"};
	const char *p = text, *end = text + len;
	int line = 1, k;

	for (; p < end; line++) {
		const char *eol = memchr(p, '\n', end - p);
		const char *next = eol ? eol + 1 : end;
		size_t n = (eol ? eol : end) - p;
		char *l = strndup(p, n), *m;
		for (m = l; (m = strstr(m, "expected-")); m++) {
			const char *q = m + 9;
			for (k = 0; k < 4; k++)
				if (!strncmp(q, kinds[k], strlen(kinds[k])))
					break;
			if (k == 4)
				continue;
			q += strlen(kinds[k]);
			while (*q == ' ')
				q++;
			int target = line;
			if (*q == '@') {
				q++;
				if (!strncmp(q, "above", 5)) {
					target = line - 1;
					q += 5;
				} else if (!strncmp(q, "below", 5)) {
					/* as in MLIR: the next line that holds no
					 * expectation of its own */
					target = below_target(next, end, line + 1);
					q += 5;
				} else if ((*q == '+' || *q == '-') && isdigit((unsigned char)q[1])) {
					char *e;
					long d = strtol(q + 1, &e, 10);
					target = *q == '+' ? line + (int)d : line - (int)d;
					q = e;
				} else {
					fprintf(stderr, "%s:%d:%d: error: expected '@above', '@below' or '@+N'/'@-N'\n",
					    vd.file, line, (int)(q - l) + 1);
					vd.failed = 1;
					continue;
				}
				while (*q == ' ')
					q++;
			}
			const char *o = strstr(q, "{{"), *c = NULL, *r;
			for (r = o ? o + 2 : NULL; r && (r = strstr(r, "}}")); r += 2)
				c = r;
			if (!o || o != q || !c) {
				fprintf(stderr, "%s:%d:%d: error: expected {{message}} after 'expected-%s'\n",
				    vd.file, line, (int)(m - l) + 1, kinds[k]);
				vd.failed = 1;
				continue;
			}
			vd.e = xrealloc(vd.e, mulsz(vd.n + 1, sizeof *vd.e));
			Expect *e = &vd.e[vd.n];
			memset(e, 0, sizeof *e);
			e->kind = kinds[k];
			e->line = target;
			e->at = line;
			e->col = (int)(m - l) + 1;
			e->text = strndup(o + 2, c - o - 2);
			if (compile_expect(e) != 0) {
				fprintf(stderr, "%s:%d:%d: error: invalid regex in 'expected-%s {{%s}}'\n",
				    vd.file, line, (int)(m - l) + 1, kinds[k], e->text);
				free(e->text);
				vd.failed = 1;
				continue;
			}
			vd.n++;
		}
		free(l);
		p = next;
	}
}

static void
verify_hook(const Loc *l, const char *kind, const char *msg)
{
	const Loc *fl = loc_filepos(l);
	int i;

	if (fl && !strcmp(fl->file, vd.file))
		for (i = 0; i < vd.n; i++) {
			Expect *e = &vd.e[i];
			if (!e->matched && e->line == fl->line && !strcmp(e->kind, kind)
			    && regexec(&e->re, msg, 0, NULL, 0) == 0) {
				e->matched = 1;
				return;
			}
		}
	/* unexpected: say so at its place, as mlir-opt does */
	if (fl)
		fprintf(stderr, "%s:%d:%d: error: unexpected %s: %s\n", fl->file, fl->line,
		    fl->col, kind, msg);
	else
		fprintf(stderr, "%s: error: unexpected %s: %s\n", vd.file, kind, msg);
	vd.failed = 1;
}

/* Ends one chunk's check: expectations nothing produced fail it. */
static void
finish_expects(void)
{
	int i;

	for (i = 0; i < vd.n; i++) {
		Expect *e = &vd.e[i];
		if (!e->matched) {
			fprintf(stderr, "%s:%d:%d: error: expected %s \"%s\" was not produced\n",
			    vd.file, e->at, e->col, e->kind, e->text);
			vd.failed = 1;
		}
		regfree(&e->re);
		free(e->text);
	}
	free(vd.e);
	vd.e = NULL;
	vd.n = 0;
}

/* One input (or one chunk of a split input): parse, run, print into out,
 * or into the real output (-o or stdout) when out is NULL.  Returns 0 on
 * success, having printed nothing otherwise. */
static int
process(Opts *o, const char *name, const char *text, size_t len, FILE *out)
{
	Ctx *c = ctx_new();
	Op *m;
	Pipeline *pl = NULL;
	int rc = -1;

	diag_errors = 0;
	if (o->verify_diags) {
		vd.file = name;
		collect_expects(text, len);
		diag_hook = verify_hook;
	}
	m = parse_module(c, name, text, len);
	if (!m || diag_errors)
		goto done;
	if (verify(m) != 0)
		goto done;
	/* the default pipeline takes a model to compile: its weights too */
	if (!o->pipeline && verify_resource_data(m, name) != 0)
		goto done;
	const char *text_pl = o->pipeline ? o->pipeline : default_pipeline(m);
	pl = pipeline_parse(text_pl);
	if (!pl)
		goto done;
	if (o->dump_pipeline && !o->pipeline) {
		/* the default pipeline, chosen by the input's level */
		static int dumped;
		if (!dumped++)
			pipeline_print(stderr, pl);
	}
	if (pipeline_run(c, pl, m, &o->pl) != 0)
		goto done;
	/* Whatever the passes did, print only what reads back. */
	if (verify(m) != 0) {
		fprintf(stderr, "torch-opt: error: internal error: the pipeline '%s' produced invalid IR\n",
		    text_pl);
		goto done;
	}
	/* Only now, with nothing left that can fail, does output begin. */
	FILE *f = out ? out : tool_open_out(o->output);
	PrintOpts po = o->pl.print;
	po.debuginfo = tool_debuginfo(o->debuginfo, o->output);
	po.release = 1;   /* the last print of this context */
	print_module(f, m, &po);
	if (!out)
		tool_commit(f);
	rc = 0;
done:
	pipeline_free(pl);
	ctx_free(c);
	if (o->verify_diags) {
		diag_hook = NULL;
		finish_expects();
		/* a failure no diagnostic explains (printed as it was) fails */
		if (rc != 0 && !diag_errors)
			vd.failed = 1;
		/* with --verify-diagnostics, success is every diagnostic
		 * matching an expectation, whether or not the passes failed */
		return 0;
	}
	return rc;
}

/* A chunk of --split-input-file's input. */
static int
process_chunk(void *env, const char *text, size_t len, FILE *out)
{
	Opts *o = env;

	return process(o, diag_fallback_file, text, len, out);
}

int
main(int argc, char **argv)
{
	Opts o = {0};
	size_t len;
	const char *text;
	int rc;

	tool_name = "torch-opt";
	tool_repro_init(argc, argv, ".mlir");
	parse_args(argc, argv, &o);
	if (o.list) {
		pass_list(stdout);
		tool_commit(stdout);
		return 0;
	}
	if (o.pipeline) {
		Pipeline *pl = pipeline_parse(o.pipeline);
		if (!pl)
			return 1;
		if (o.dump_pipeline)
			pipeline_print(stderr, pl);
		pipeline_free(pl);
	}
	/* chunks are copies of the text: their blobs must be in them */
	text = o.split ? tool_read(o.input, &len) : tool_map(o.input, &len);
	diag_fallback_file = strcmp(o.input, "-") ? o.input : "<stdin>";
	if (!o.split) {
		rc = process(&o, diag_fallback_file, text, len, NULL);
		tool_unmap(text);
	} else {
		/* chunks print one by one, as mlir-opt's do; the exit
		 * status says a chunk failed */
		rc = tool_split_input(text, len, process_chunk, &o, o.output);
		tool_unmap(text);
	}
	buf_free(&o.extra);
	free(o.names[0]);
	free(o.names[1]);
	return rc != 0 || vd.failed ? 1 : 0;
}
