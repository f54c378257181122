/*
 * table.c - the lowering table: one row per torch op.  Elementwise ops have
 * their rows in ew.c, beside their bodies.  lib/contract.def lists the same
 * ops (a test holds `torch-lower --list-ops` equal to it).
 */
#include <string.h>

#include "lower.h"

const void *ew_lookup(const char *name);
const char *ew_name(int i);

const Row lower_table[] = {
	/* reductions: arg says which reduction (reduce.c) */
	{"torch.aten.sum", lower_reduce, "sum"},
	{"torch.aten.sum.dim_IntList", lower_reduce, "sum"},
	{"torch.aten.mean", lower_reduce, "mean"},
	{"torch.aten.mean.dim", lower_reduce, "mean"},
	{"torch.aten.prod", lower_reduce, "prod"},
	{"torch.aten.prod.dim_int", lower_reduce, "prod"},
	{"torch.aten.amax", lower_reduce, "max"},
	{"torch.aten.amin", lower_reduce, "min"},
	{"torch.aten.max", lower_reduce, "max"},
	{"torch.aten.min", lower_reduce, "min"},
	{"torch.aten.any", lower_reduce, "any"},
	{"torch.aten.any.dim", lower_reduce, "any"},
	{"torch.aten.all", lower_reduce, "all"},
	{"torch.aten.all.dim", lower_reduce, "all"},
	{"torch.aten.max.dim", lower_maxdim, "max"},
	{"torch.aten.min.dim", lower_maxdim, "min"},
	{"torch.aten.argmax", lower_argmax, "max"},
	{"torch.aten.argmin", lower_argmax, "min"},
	{"torch.aten.var.correction", lower_var, "var"},
	{"torch.aten.std.correction", lower_var, "std"},
	{"torch.aten.linalg_vector_norm", lower_norm, NULL},
	{"torch.aten.cumsum", lower_cumsum, NULL},
	{"torch.aten.logsumexp", lower_logsumexp, NULL},
	/* contraction */
	{"torch.aten.mm", lower_mm, "linalg.matmul"},
	{"torch.aten.bmm", lower_mm, "linalg.batch_matmul"},
	{"torch.aten.convolution", lower_conv, NULL},
	{"torch.aten.embedding", lower_embedding, NULL},
	/* pooling */
	{"torch.aten.max_pool2d", lower_maxpool, NULL},
	{"torch.aten.max_pool2d_with_indices", lower_maxpool, NULL},
	{"torch.aten.avg_pool2d", lower_avgpool, NULL},
	{"torch.aten.adaptive_avg_pool2d", lower_adaptive, "avg"},
	{"torch.aten.adaptive_max_pool2d", lower_adaptive, "max"},
	/* data movement and creation */
	{"torch.aten.view", lower_view, NULL},
	{"torch.aten.squeeze.dim", lower_view, NULL},
	{"torch.aten.squeeze", lower_view, NULL},
	{"torch.aten.unsqueeze", lower_view, NULL},
	{"torch.aten.permute", lower_permute, NULL},
	{"torch.aten.transpose.int", lower_transpose, NULL},
	{"torch.aten.expand", lower_expand, NULL},
	{"torch.aten.broadcast_to", lower_expand, NULL},
	{"torch.aten.slice.Tensor", lower_slice, NULL},
	{"torch.aten.select.int", lower_select, NULL},
	{"torch.aten.narrow", lower_narrow, NULL},
	{"torch.aten.cat", lower_cat, NULL},
	{"torch.aten.flip", lower_flip, NULL},
	{"torch.aten.roll", lower_roll, NULL},
	{"torch.aten.repeat", lower_repeat, NULL},
	{"torch.aten.constant_pad_nd", lower_pad, NULL},
	{"torch.aten.reflection_pad1d", lower_refpad, "reflect"},
	{"torch.aten.reflection_pad2d", lower_refpad, "reflect"},
	{"torch.aten.replication_pad2d", lower_refpad, "replicate"},
	{"torch.aten.index_select", lower_index_select, NULL},
	{"torch.aten.gather", lower_gather, NULL},
	{"torch.aten.index.Tensor", lower_index, NULL},
	{"torch.aten.index_put", lower_index_put, NULL},
	{"torch.aten.scatter.src", lower_scatter, "src"},
	{"torch.aten.scatter.value", lower_scatter, "value"},
	{"torch.aten.scatter_add", lower_scatter, "add"},
	{"torch.aten.tril", lower_tri, "tril"},
	{"torch.aten.triu", lower_tri, "triu"},
	{"torch.aten.arange.start_step", lower_arange, NULL},
	{"torch.aten.full", lower_full, NULL},
	{"torch.aten.to.dtype", lower_to, NULL},
	{"torch.aten.view.dtype", lower_view_dtype, NULL},
	{NULL, NULL, NULL},
};

const OpTable lower_optables[] = {OPTABLE("lowering", lower_table, ""), {NULL}};

const Row *
row_find(const Row *tab, const char *name)
{
	for (; tab->name; tab++)
		if (!strcmp(tab->name, name))
			return tab;
	return NULL;
}

const Row *
lower_lookup(const char *name)
{
	static Row ew;
	const Row *r;
	const void *e;

	if ((r = row_find(lower_table, name)))
		return r;
	if ((e = ew_lookup(name))) {
		ew.name = name;
		ew.fn = lower_ew;
		ew.arg = e;
		return &ew;
	}
	return NULL;
}

void
lower_list(FILE *f)
{
	const Row *r;
	const char *n;
	int i;

	for (i = 0; (n = ew_name(i)); i++)
		fprintf(f, "%s\n", n);
	for (r = lower_table; r->name; r++)
		fprintf(f, "%s\n", r->name);
}
