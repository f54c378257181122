/* contract.c - is an op allowed by the backend contract? */
#include <string.h>

#include "contract.h"
#include "optable.h"

static const char *const ops[] = {
#define C(name) name,
#include "contract.def"
#undef C
	/* structure that torch-lower handles itself */
	"func.func", "func.return", "func.call", "builtin.module",
	"torch.constant.int", "torch.constant.float", "torch.constant.bool",
	"torch.constant.none", "torch.constant.str", "torch.constant.device",
	"torch.prim.ListConstruct", "torch.vtensor.literal",
	/* torch.export's symbolic shapes: torch-lower checks the inputs
	 * against them */
	"torch.symbolic_int", "torch.bind_symbolic_shape",
	/* and the int arithmetic of dynamic sizes */
	"torch.aten.size.int", "torch.aten.add.int", "torch.aten.sub.int",
	"torch.aten.mul.int", "torch.aten.floordiv.int",
	NULL,
};

const OpTable contract_optables[] = {
	OPTABLE("backend contract row", ops, ""),
	{NULL},
};

int
contract_allows(const char *opname)
{
	int i;

	optable_require(contract_optables);
	for (i = 0; ops[i]; i++)
		if (!strcmp(ops[i], opname))
			return 1;
	return 0;
}
