/* canon_tensor.c - canonicalization of tensor ops. */
#include "canon.h"

const CanonRule canon_tensor_rules[] = {
	{NULL, NULL},
};
