/* canon_list.c - canonicalization of list ops. */
#include "canon.h"

const CanonRule canon_list_rules[] = {
	{NULL, NULL},
};
