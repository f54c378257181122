/* optable.c - checks the keys of name-keyed side tables (optable.h). */
#include <string.h>

#include "ir.h"
#include "optable.h"
#include "tool.h"

static const char *const torch_operators[] = {
#define TORCH_OPERATOR(name) name,
#include "torch_operator.def"
#undef TORCH_OPERATOR
	NULL,
};

int
torch_operator_known(const char *name)
{
	int i;

	for (i = 0; torch_operators[i]; i++)
		if (!strcmp(torch_operators[i], name))
			return 1;
	return 0;
}

/* Is some declared op named by full, a name n long ending in '*'? */
static int
prefixes_some(const char *full, size_t n)
{
	int i;

	for (i = 0; i < opinfo_count(); i++)
		if (!strncmp(opinfo_at(i)->name, full, n - 1))
			return 1;
	return 0;
}

static int
known(const char *full)
{
	size_t n = strlen(full);

	if (n && full[n - 1] == '*')
		return prefixes_some(full, n);
	if (opinfo_lookup(full))
		return 1;
	return !strncmp(full, "torch.", 6) && torch_operator_known(full + 6);
}

/* One name of a key: the n bytes at s. */
static int
check_name(const OpTable *t, const char *s, size_t n)
{
	char full[256];

	if (snprintf(full, sizeof full, "%s%.*s", t->prefix, (int)n, s)
	    >= (int)sizeof full || !known(full)) {
		tool_err("internal: %s for undeclared op '%s'", t->what, full);
		return 1;
	}
	return 0;
}

static int
check_key(const OpTable *t, const char *key)
{
	const char *bar;
	int bad = 0;

	for (; (bar = strchr(key, '|')); key = bar + 1)
		bad += check_name(t, key, bar - key);
	return bad + check_name(t, key, strlen(key));
}

int
optable_check(const OpTable *t)
{
	const char *row = t->rows, *key;
	size_t i;
	int bad = 0;

	for (i = 0; i < t->n; i++, row += t->size) {
		memcpy(&key, row + t->off, sizeof key);
		if (key)
			bad += check_key(t, key);
	}
	return bad;
}

int
optable_check_list(const OpTable *list)
{
	int bad = 0;

	for (; list->what; list++)
		bad += optable_check(list);
	return bad;
}

/* Lists already checked: a caller may require its list at every use. */
static const OpTable *done[64];
static int ndone;

void
optable_require(const OpTable *list)
{
	int i, bad;

	for (i = 0; i < ndone; i++)
		if (done[i] == list)
			return;
	if ((bad = optable_check_list(list)))
		tool_fail("internal: %d side table key(s) name no declared op", bad);
	if (ndone < (int)(sizeof done / sizeof *done))
		done[ndone++] = list;
}
