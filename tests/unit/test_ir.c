/* test_ir.c - unit tests of the IR library's core: uniqued types, use
 * lists, attributes, float bits, the op table, util.h's containers, a
 * pipe's blobs given to the parser.  Prints one line per failed check and
 * exits 1 if any failed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static int failed;

#define CHECK(cond) do { if (!(cond)) { \
	printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	failed = 1; } } while (0)

static void
types(Ctx *c)
{
	int64_t d[2] = {4, 3}, e[2] = {DYN, 3};
	Type *f32 = ty_float(c, TY_F32);

	CHECK(ty_tensor(c, 2, d, f32) == ty_tensor(c, 2, d, f32));
	CHECK(ty_tensor(c, 2, d, f32) != ty_tensor(c, 2, e, f32));
	CHECK(ty_vtensor(c, 2, d, f32) != ty_tensor(c, 2, d, f32));
	CHECK(ty_int(c, 64, SIGNED) != ty_int(c, 64, SIGNLESS));
	CHECK(ty_torch_list(c, ty_torch(c, TY_TORCH_INT))
	    == ty_torch_list(c, ty_torch(c, TY_TORCH_INT)));
	CHECK(ty_numel(ty_tensor(c, 2, d, f32)) == 12);
	CHECK(ty_numel(ty_tensor(c, 2, e, f32)) == -1);
	CHECK(ty_numel(ty_vtensor(c, -1, NULL, NULL)) == -1);
	Type *vt = ty_vtensor(c, 2, d, ty_int(c, 64, SIGNED));
	CHECK(ty_to_builtin(c, vt) == ty_tensor(c, 2, d, ty_int(c, 64, SIGNLESS)));
	CHECK(ty_to_vtensor(c, ty_to_builtin(c, vt)) == vt);
	Type *in[2] = {f32, f32};
	CHECK(ty_func(c, 2, in, 1, in) == ty_func(c, 2, in, 1, in));
	CHECK(ty_func(c, 2, in, 1, in) != ty_func(c, 1, in, 2, in));
}

static void
floats(Ctx *c)
{
	Type *f16 = ty_float(c, TY_F16), *bf16 = ty_float(c, TY_BF16),
	     *f32 = ty_float(c, TY_F32), *f64 = ty_float(c, TY_F64);

	CHECK(fp_bits(1.0, f16) == 0x3c00);
	CHECK(fp_bits(1.0, bf16) == 0x3f80);
	CHECK(fp_bits(1.0, f32) == 0x3f800000);
	CHECK(fp_bits(-0.0, f32) == 0x80000000);
	CHECK(fp_bits(INFINITY, f16) == 0x7c00);
	CHECK(fp_from_bits(0x3555, f16) == fp_round(1.0 / 3, f16));
	CHECK(isnan(fp_from_bits(0x7fc00000, f32)));
	CHECK(fp_round(0.1, f32) == (double)0.1f);
	CHECK(fp_round(0.1, f64) == 0.1);
	CHECK(fp_from_bits(1, f16) == ldexp(1, -24));
	CHECK(attr_eq(at_float(c, NAN, f32), at_float(c, NAN, f32)));
	CHECK(!attr_eq(at_float(c, 0.0, f32), at_float(c, -0.0, f32)));
}

static void
attrs(Ctx *c)
{
	Type *i8 = ty_int(c, 8, SIGNLESS), *f32 = ty_float(c, TY_F32);
	int64_t d[1] = {3};
	float data[3] = {1, 2, 3};

	CHECK(at_int(c, 255, i8)->i == -1);
	CHECK(at_int(c, 255, ty_int(c, 8, UNSIGNED))->i == 255);
	CHECK(at_bool(c, 5)->i == 1);
	Attr *dn = at_dense(c, ty_tensor(c, 1, d, f32), data, sizeof data, 0);
	CHECK(dense_numel(dn) == 3);
	CHECK(dense_get_f(dn, 2) == 3.0);
	CHECK(dense_get_i(dn, 1) == 2);
	Resource *r = resource_new(c, "builtin", "w", data, sizeof data, 64);
	Resource *r2 = resource_new(c, "builtin", "w", data, sizeof data, 64);
	CHECK(r != r2 && strcmp(r->name, r2->name) != 0);
	CHECK(resource_get(c, "w") == r);
	Attr *dr = at_dense_resource(c, ty_tensor(c, 1, d, f32), r);
	CHECK(dense_get_f(dr, 1) == 2.0);
	CHECK(intern(c, "abc") == intern(c, "abc"));
	AffMap *id = affmap_identity(c, 3);
	CHECK(affmap_is_identity(id));
	int perm[2] = {1, 0};
	CHECK(!affmap_is_identity(affmap_select(c, 2, 2, perm)));
	CHECK(affmap_eq(id, affmap_identity(c, 3)));
}

static void
uses(Ctx *c)
{
	Type *f32 = ty_float(c, TY_F32);
	Block *b = block_new(c);
	Value *x = block_add_arg(c, b, f32, NULL), *y = block_add_arg(c, b, f32, NULL);
	Value *xx[2] = {x, x};
	Op *add = op_new(c, "arith.addf", 2, xx, 1, &f32, 0, NULL);
	Op *neg = op_new(c, "arith.negf", 1, (Value *[]){RES(add, 0)}, 1, &f32, 0, NULL);

	op_append(b, add);
	op_append(b, neg);
	CHECK(add->info && add->info->nopnds == 2);
	CHECK(!value_use_empty(x) && !value_has_one_use(x));
	CHECK(value_has_one_use(RES(add, 0)));
	value_replace_all_uses(x, y);
	CHECK(value_use_empty(x) && OPND(add, 0) == y && OPND(add, 1) == y);
	op_replace(neg, (Value *[]){y});
	CHECK(b->last == add && add->next == NULL);
	CHECK(value_use_empty(RES(add, 0)));
	op_erase(add);
	CHECK(b->first == NULL && value_use_empty(y));
	CHECK(opinfo_lookup("torch.aten.mm") && opinfo_lookup("torch.aten.mm")->sig);
	CHECK(opinfo_lookup("torch.aten.no_such_op") == NULL);
	CHECK(op_has(op_new(c, "torch.aten.relu_", 0, NULL, 0, NULL, 0, NULL), TR_INPLACE));
}

/* hex_decode with and without AVX2 against a byte at a time, over every
 * length to 200 and a bad digit at every place. */
static void
hex(void)
{
	char digits[401], enc[401];
	uint8_t want[200], got[200], ref[200];
	size_t n, k;
	int v;

	for (k = 0; k < sizeof want; k++)
		want[k] = (uint8_t)(k * 37 + 11);
	hex_encode(enc, want, sizeof want);
	for (v = 0; v < 2; v++) {
		hex_use_avx2(v);
		for (n = 0; n <= sizeof want; n++) {
			memcpy(digits, enc, 2 * n);
			for (k = 0; k < 2 * n; k += 3)   /* mixed case */
				if (digits[k] >= 'A')
					digits[k] += 'a' - 'A';
			memset(got, 0, sizeof got);
			CHECK(hex_decode(got, digits, n) == 0 && !memcmp(got, want, n));
			for (k = 0; k < 2 * n; k += 7) {
				char keep = digits[k];

				digits[k] = "g/:@G`\\x00"[k % 8];
				CHECK(hex_decode(got, digits, n) == -1);
				digits[k] = keep;
			}
		}
	}
	hex_use_avx2(1);
	for (k = 0; k < sizeof ref; k++) {
		unsigned hi = (unsigned)(enc[2 * k] <= '9' ? enc[2 * k] - '0' : enc[2 * k] - 'A' + 10);
		unsigned lo = (unsigned)(enc[2 * k + 1] <= '9' ? enc[2 * k + 1] - '0' : enc[2 * k + 1] - 'A' + 10);

		ref[k] = (uint8_t)(hi << 4 | lo);
	}
	CHECK(!memcmp(ref, want, sizeof want));
}

/* PMap through several growths, and PUSH. */
static void
containers(void)
{
	static int keys[1000];
	PMap m = {0};
	int *v = NULL, n = 0, cap = 0, i;

	CHECK(pmap_get(&m, &keys[0]) == NULL && pmap_slot(&m, &keys[0], 0) == NULL);
	for (i = 0; i < 1000; i++)
		*pmap_slot(&m, &keys[i], 1) = &keys[999 - i];
	for (i = 0; i < 1000; i++)
		CHECK(pmap_get(&m, &keys[i]) == &keys[999 - i]);
	CHECK(m.n == 1000 && pmap_get(&m, &n) == NULL);
	pmap_free(&m);
	for (i = 0; i < 100; i++)
		PUSH(v, n, cap, i * i);
	CHECK(n == 100 && cap >= 100 && v[99] == 99 * 99 && v[7] == 49);
	free(v);
}

/* A blob taken out of the text (textin.c's way) given to the parser as
 * an argument: the resource borrows its data. */
static void
taken_blobs(void)
{
	static const char text[] =
		"module {\n}\n{-#\n  dialect_resources: {\n    builtin: {\n"
		"      w: \"\"\n    }\n  }\n#-}\n";
	static const uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	TextBlob b = {0};
	Ctx *c = ctx_new();
	Resource *r;

	b.at = (size_t)(strstr(text, "\"\"") - text);
	b.extra = 2 + 8 + 16;   /* "0x", the alignment and the data's digits */
	b.data = data;
	b.size = sizeof data;
	b.align = 8;
	diag_errors = 0;
	CHECK(parse_module_blobs(c, "<blobs>", text, strlen(text), &b, 1) != NULL);
	r = resource_get(c, "w");
	CHECK(r && r->data == data && r->size == sizeof data);
	ctx_free(c);
}

int
main(void)
{
	Ctx *c = ctx_new();

	hex();
	types(c);
	floats(c);
	attrs(c);
	uses(c);
	ctx_free(c);
	containers();
	taken_blobs();
	if (!failed)
		puts("ok");
	return failed;
}
