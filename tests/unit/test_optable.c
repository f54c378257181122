/* test_optable.c - every name-keyed side table of lib names declared ops
 * (or documented torch.operator names) only; prints each bad key and
 * exits 1 if any.  Tools check their own tables at start-up. */
#include <stdio.h>

#include "ir.h"
#include "optable.h"
#include "tool.h"

int
main(void)
{
	int i, bad = 0;

	tool_name = "test_optable";
	for (i = 0; optable_lib[i]; i++)
		bad += optable_check_list(optable_lib[i]);
	if (bad)
		return 1;
	puts("ok");
	return 0;
}
