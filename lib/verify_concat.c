/*
 * verify_concat.c - tensor.concat as MLIR's tensor dialect checks it: at
 * least one input, every input ranked with the result's rank and element
 * type, dim below the rank, the non-concatenated sizes that are static
 * equal, and the result's static sizes those the inputs give (the
 * concatenated one their sum where all are static).  The messages
 * contain MLIR's wording.
 */
#include <stdio.h>

#include "verify.h"

int
verify_concat(Op *op)
{
	Type *rt = op->res[0].type, *t;
	Attr *da = op_attr(op, "dim");
	int64_t sizes[TY_MAXRANK], dim;
	int i, k;
	Buf b1 = {0}, b2 = {0};

	if (op->nopnds < 1) {
		op_error(op, "'tensor.concat' op requires at least one input");
		return -1;
	}
	if (rt->kind != TY_TENSOR || !rt->ranked) {
		op_error(op, "'tensor.concat' op result #0 must be ranked tensor of any type values");
		return -1;
	}
	for (i = 0; i < op->nopnds; i++) {
		t = OPND(op, i)->type;
		if (t->kind != TY_TENSOR || !t->ranked) {
			op_error(op, "'tensor.concat' op operand #%d must be variadic of ranked "
				"tensor of any type values", i);
			return -1;
		}
		if (t->rank != rt->rank) {
			op_error(op, "'tensor.concat' op rank of concatenated inputs must match result rank");
			return -1;
		}
	}
	for (i = 0; i < op->nopnds; i++)
		if (OPND(op, i)->type->elem != rt->elem) {
			op_error(op, "'tensor.concat' op inputs and result element type must match");
			return -1;
		}
	dim = da ? da->i : 0;
	if (dim < 0 || dim >= rt->rank) {
		op_error(op, "'tensor.concat' op concatenation dim must be less than the tensor rank");
		return -1;
	}
	for (k = 0; k < rt->rank; k++) {
		int64_t s = k == dim ? 0 : DYN;
		for (i = 0; i < op->nopnds; i++) {
			int64_t d = OPND(op, i)->type->dims[k];
			if (k == dim)
				s = s == DYN || d == DYN ? DYN : s + d;
			else if (d != DYN && s != DYN && d != s) {
				op_error(op, "'tensor.concat' op static concatenation size mismatch "
					"along non-concatenated dimension %d", k);
				return -1;
			} else if (d != DYN)
				s = d;
		}
		sizes[k] = s;
	}
	for (k = 0; k < rt->rank; k++)
		if (sizes[k] != DYN && rt->dims[k] != DYN && sizes[k] != rt->dims[k]) {
			/* the inferred type, written as the printer writes types */
			char inf[TY_MAXRANK * 21 + 16];
			int n = snprintf(inf, sizeof inf, "tensor<");
			for (i = 0; i < rt->rank; i++)
				n += sizes[i] == DYN ? snprintf(inf + n, sizeof inf - n, "?x") :
					snprintf(inf + n, sizeof inf - n, "%lldx", (long long)sizes[i]);
			op_error(op, "'tensor.concat' op result type %s does not match inferred "
				"shape %s%s> static sizes", type_text(rt, &b1), inf,
				type_text(rt->elem, &b2));
			buf_free(&b1);
			buf_free(&b2);
			return -1;
		}
	return 0;
}
