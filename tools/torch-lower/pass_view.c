/*
 * pass_view.c - convert-torch-to-linalg's own rows (view helper): ops the
 * torch-lower tool does not lower, taken by the pass only.
 */
#include <string.h>

#include "lower.h"
#include "pass.h"

extern const Row ew_pass_table[];   /* ew.c */

const Row *
pass_view_lookup(const char *name)
{
	const Row *r;

	for (r = ew_pass_table; r->name; r++)
		if (!strcmp(r->name, name))
			return r;
	return NULL;
}
