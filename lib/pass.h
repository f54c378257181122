/*
 * pass.h - passes, their registry, and the pass manager.
 *
 * A pass runs on one op (its anchor: builtin.module or func.func) and
 * returns 0 on success, -1 on failure (after reporting an error).  It sets
 * *changed when it modified the IR.  Pipelines use MLIR's textual syntax:
 *   builtin.module(func.func(canonicalize,cse),symbol-dce)
 * and a pass may take options: canonicalize{max-iterations=4}.
 */
#ifndef FX_PASS_H
#define FX_PASS_H

#include "ir.h"

typedef struct PassOpt {
	const char *key, *val;
} PassOpt;

typedef struct PassArgs {
	int n;
	PassOpt *opts;
	int changed;       /* set by the pass */
} PassArgs;

typedef struct PassInfo {
	const char *name;
	const char *summary;
	const char *anchor;          /* op name it runs on; NULL: any op */
	const char *const *options;  /* option names it accepts, NULL-ended */
	int (*run)(Ctx *c, Op *op, PassArgs *a);
	const char *pipeline;        /* a registered pipeline: its expansion */
} PassInfo;

const PassInfo *pass_lookup(const char *name);
void pass_list(FILE *f);
/* Option value, or dflt when absent. */
const char *pass_opt(const PassArgs *a, const char *key, const char *dflt);
long pass_opt_int(const PassArgs *a, const char *key, long dflt);

typedef struct PipelineOpts {
	const char **print_before;   /* pass names, NULL-ended, or NULL */
	const char **print_after;
	int print_after_all;
	int print_after_change;
	int print_after_failure;
	int verify_each;
	int timing;
	int statistics;               /* --mlir-pass-statistics */
	PrintOpts print;
	long elide_larger;            /* the dumps' elide_larger */
	FILE *dump;                   /* where --print-ir-* go (stderr) */
} PipelineOpts;

typedef struct Pipeline Pipeline;
/* Parses "builtin.module(...)" or a bare list "canonicalize,cse" (nested
 * under builtin.module, function passes under func.func).  On error
 * writes a message to stderr and returns NULL. */
Pipeline *pipeline_parse(const char *text);
int pipeline_run(Ctx *c, Pipeline *pl, Op *module, const PipelineOpts *o);
void pipeline_print(FILE *f, const Pipeline *pl);
void pipeline_free(Pipeline *pl);
/* MLIR's execution time report (-mlir-timing), on f: n named phases of
 * secs seconds each, of total. */
void timing_report(FILE *f, double total, int n, const char *const *names, const double *secs);

/* Shared rewriting helpers (rewrite.c). */
/* Folds op via its table fold hook, materializing constants; returns 1 if
 * the op was replaced. */
int fold_op(Ctx *c, Op *op);
/* Creates a constant op for attr a of type t before `before`, choosing
 * arith.constant or torch.constant.* by type; NULL if none fits. */
Value *materialize_constant(Ctx *c, Op *before, Attr *a, Type *t, Loc *loc);
/* Is op free of side effects and its results unused? */
int op_is_trivially_dead(Op *op);

#endif
