/*
 * result_names.c - the names MLIR gives the results of a torch.aten op
 * with more than one result.  torch-mlir declares each aten op in ODS
 * with its results named after the PyTorch schema's returns ("values",
 * "indices" of max.dim), or result0, result1, ... where the schema leaves
 * them unnamed, and MLIR's printer names a fixed multi-result op's
 * results by those: "%values, %indices = torch.aten.max.dim ...", not
 * "%0:2 = ...".  Ops with a variable number of results (prim.ListUnpack,
 * prim.If, torch.operator) keep the %0:N form.
 */
#include <stdio.h>
#include <string.h>

#include "ir.h"

/* the schemas' named returns (PyTorch's native_functions.yaml); a row
 * names each result, comma-separated */
static const struct {
	const char *op, *names;
} named[] = {
	{"torch.aten.max.dim", "values,indices"},
	{"torch.aten.max.names_dim", "values,indices"},
	{"torch.aten.min.dim", "values,indices"},
	{"torch.aten.min.names_dim", "values,indices"},
	{"torch.aten.median.dim", "values,indices"},
	{"torch.aten.median.names_dim", "values,indices"},
	{"torch.aten.nanmedian.dim", "values,indices"},
	{"torch.aten.nanmedian.names_dim", "values,indices"},
	{"torch.aten.mode", "values,indices"},
	{"torch.aten.mode.dimname", "values,indices"},
	{"torch.aten.kthvalue", "values,indices"},
	{"torch.aten.kthvalue.dimname", "values,indices"},
	{"torch.aten.sort", "values,indices"},
	{"torch.aten.sort.stable", "values,indices"},
	{"torch.aten.sort.dimname", "values,indices"},
	{"torch.aten.sort.dimname_stable", "values,indices"},
	{"torch.aten.topk", "values,indices"},
	{"torch.aten.cummax", "values,indices"},
	{"torch.aten.cummax.dimname", "values,indices"},
	{"torch.aten.cummin", "values,indices"},
	{"torch.aten.cummin.dimname", "values,indices"},
	{"torch.aten.aminmax", "min,max"},
	{"torch.aten.frexp.Tensor", "mantissa,exponent"},
	{"torch.aten.slogdet", "sign,logabsdet"},
	{"torch.aten.linalg_slogdet", "sign,logabsdet"},
	{"torch.aten.qr", "Q,R"},
	{"torch.aten.linalg_qr", "Q,R"},
	{"torch.aten.geqrf", "a,tau"},
	{"torch.aten.svd", "U,S,V"},
	{"torch.aten.linalg_svd", "U,S,Vh"},
	{"torch.aten._linalg_svd", "U,S,Vh"},
	{"torch.aten.linalg_eig", "eigenvalues,eigenvectors"},
	{"torch.aten.linalg_eigh", "eigenvalues,eigenvectors"},
	{"torch.aten._linalg_eigh", "eigenvalues,eigenvectors"},
	{"torch.aten.symeig", "eigenvalues,eigenvectors"},
	{"torch.aten.triangular_solve", "solution,cloned_coefficient"},
	{"torch.aten.linalg_lu_factor", "LU,pivots"},
	{"torch.aten.linalg_lu_factor_ex", "LU,pivots,info"},
	{"torch.aten.linalg_lu", "P,L,U"},
	{"torch.aten.lu_unpack", "P,L,U"},
	{"torch.aten.linalg_cholesky_ex", "L,info"},
	{"torch.aten.linalg_inv_ex", "inverse,info"},
	{"torch.aten.nll_loss_forward", "output,total_weight"},
	{"torch.aten.nll_loss2d_forward", "output,total_weight"},
	{"torch.aten.log_sigmoid_forward", "output,buffer"},
	{"torch.aten.histogram.bins_tensor", "hist,bin_edges"},
	{"torch.aten.histogram.bin_ct", "hist,bin_edges"},
};

/* The name of result i of op, or NULL where MLIR would print the op's
 * results as one group (%0:N): buf holds it. */
const char *
op_multi_result_name(Op *op, int i, char *buf, size_t n)
{
	const char *s, *e;
	size_t k, len;

	if (op->nres < 2 || !op->info || op->info->nres != op->nres
	    || !op->info->sig
	    || strncmp(op->name, "torch.aten.", 11) != 0)
		return NULL;
	for (k = 0; k < sizeof named / sizeof *named; k++) {
		if (!op_is(op, named[k].op))
			continue;
		for (s = named[k].names; i > 0 && s; i--)
			if ((s = strchr(s, ',')))
				s++;
		if (!s)
			return NULL;
		e = strchr(s, ',');
		len = e ? (size_t)(e - s) : strlen(s);
		snprintf(buf, n, "%.*s", (int)len, s);
		return buf;
	}
	snprintf(buf, n, "result%d", i);
	return buf;
}
