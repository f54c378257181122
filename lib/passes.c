/* passes.c - the registry of passes and named pipelines. */
#include <stdlib.h>
#include <string.h>

#include "pass.h"

extern const PassInfo pass_canonicalize, pass_cse, pass_dce,
	pass_symbol_dce, pass_inline, pass_view_op_graph;
/* torch level (lib/torch/) */
extern const PassInfo pass_torch_refine_types, pass_torch_verify_backend_contract,
	pass_torch_reduce_op_variants, pass_torch_maximize_value_semantics,
	pass_torch_decompose, pass_torch_decompose_complex_ops, pass_torch_fold_batchnorm, pass_torch_fold_constants,
	pass_torch_backend_pipeline, pass_torch_lower_to_backend_contract,
	pass_torch_verify_backend_contract_no_decompositions;
/* torch-lower's lowerings as a pass and the TorchConversion passes around
 * it (tools/torch-lower/pass*.c): only the tools that link them
 * (torch-opt) have them; elsewhere their entries are NULL. */
extern const PassInfo pass_convert_torch_to_linalg __attribute__((weak)),
	pass_torch_func_backend_type_conversion __attribute__((weak)),
	pass_torch_finalizing_backend_type_conversion __attribute__((weak)),
	pass_torch_backend_to_linalg_on_tensors_backend_pipeline __attribute__((weak)),
	pass_decompose_tensor_concat __attribute__((weak));

static const PassInfo *const registry[] = {
	&pass_canonicalize,
	&pass_cse,
	&pass_dce,
	&pass_inline,
	&pass_symbol_dce,
	&pass_view_op_graph,
	&pass_torch_reduce_op_variants,
	&pass_torch_maximize_value_semantics,
	&pass_torch_refine_types,
	&pass_torch_decompose,
	&pass_torch_decompose_complex_ops,
	&pass_torch_fold_batchnorm,
	&pass_torch_fold_constants,
	&pass_torch_backend_pipeline,
	&pass_torch_verify_backend_contract,
	&pass_torch_lower_to_backend_contract,
	&pass_torch_verify_backend_contract_no_decompositions,
	&pass_convert_torch_to_linalg,
	&pass_torch_func_backend_type_conversion,
	&pass_torch_finalizing_backend_type_conversion,
	&pass_torch_backend_to_linalg_on_tensors_backend_pipeline,
	&pass_decompose_tensor_concat,
};

enum { NPASS = sizeof registry / sizeof *registry };

/* torch-mlir's names for passes that behave as ours. */
static const struct {
	const char *alias, *name;
} aliases[] = {
	/* none now: torch-decompose-complex-ops is a pass of its own */
};

enum { NALIAS = sizeof aliases / sizeof *aliases };

static const PassInfo *
lookup_exact(const char *name)
{
	int i;

	for (i = 0; i < NPASS; i++)
		if (registry[i] && !strcmp(registry[i]->name, name))
			return registry[i];
	return NULL;
}

const PassInfo *
pass_lookup(const char *name)
{
	int i;

	for (i = 0; i < NALIAS; i++)
		if (!strcmp(aliases[i].alias, name))
			return lookup_exact(aliases[i].name);
	return lookup_exact(name);
}

void
pass_list(FILE *f)
{
	int i;

	fputs("Passes:\n", f);
	for (i = 0; i < NPASS; i++)
		if (registry[i] && !registry[i]->pipeline)
			fprintf(f, "  %-34s %s\n", registry[i]->name, registry[i]->summary);
	fputs("Pipelines:\n", f);
	for (i = 0; i < NPASS; i++)
		if (registry[i] && registry[i]->pipeline)
			fprintf(f, "  %-34s %s\n", registry[i]->name, registry[i]->summary);
	if (NALIAS)
		fputs("Aliases (torch-mlir's names):\n", f);
	for (i = 0; i < NALIAS; i++)
		fprintf(f, "  %-34s = %s\n", aliases[i].alias, aliases[i].name);
}

const char *
pass_opt(const PassArgs *a, const char *key, const char *dflt)
{
	int i;

	for (i = 0; a && i < a->n; i++)
		if (!strcmp(a->opts[i].key, key))
			return a->opts[i].val;
	return dflt;
}

long
pass_opt_int(const PassArgs *a, const char *key, long dflt)
{
	const char *v = pass_opt(a, key, NULL);

	return v ? strtol(v, NULL, 10) : dflt;
}
