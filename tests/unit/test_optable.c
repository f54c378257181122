/* test_optable.c - every name-keyed side table of lib names declared ops
 * (or documented torch.operator names) only; and the checker itself finds
 * a bad key in each key form.  Prints each bad key and exits 1 if any. */
#include <stdio.h>

#include "ir.h"
#include "optable.h"
#include "tool.h"

typedef struct Row {
	int x;
	const char *op;
} Row;

static const Row good[] = {
	{0, "aten.relu"}, {0, "aten.add.Tensor|aten.mul.Tensor"},
	{0, "aten.scaled_dot_product_attention"}, {0, NULL},
};
static const char *const good_names[] = {"linalg.conv_*", "arith.addf", NULL};
/* one bad name each; the last is declared but not under the prefix */
static const Row bad[] = {
	{0, "aten.relux"}, {0, "aten.add.Tensor|aten.mulx"}, {0, "arith.maxf"},
};
static const char *const bad_names[] = {"linalg.convx_*", "arith.maximumx"};

/* The checker's own cases; its reports of the bad keys go to /dev/null. */
static int
checker(void)
{
	const OpTable ok[] = {
		OPTABLE_AT("row", good, Row, op, "torch."),
		OPTABLE("name", good_names, ""), {NULL},
	};
	const OpTable no[] = {
		OPTABLE_AT("row", bad, Row, op, "torch."),
		OPTABLE("name", bad_names, ""), {NULL},
	};
	int nok = optable_check_list(ok), nno;

	fflush(stderr);
	if (!freopen("/dev/null", "w", stderr))
		return 1;
	nno = optable_check_list(no);
	if (nok || nno != 5) {
		printf("checker: %d bad keys in good tables, %d of 5 in bad ones\n", nok, nno);
		return 1;
	}
	return 0;
}

int
main(void)
{
	int i, n = 0;

	tool_name = "test_optable";
	for (i = 0; optable_lib[i]; i++)
		n += optable_check_list(optable_lib[i]);
	if (n || checker())
		return 1;
	puts("ok");
	return 0;
}
