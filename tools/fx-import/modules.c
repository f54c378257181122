/* modules.c - call_module of a standard layer: its aten op, with the
 * arguments taken from the module's recorded config and its weights as
 * literals.  Each row spells the op's arguments:
 *   $N     the call's N-th argument
 *   @w     the module's weight w; @w? is none when the module has none
 *   %key   the config value key; %key|LIT when it is missing or None
 *   LIT    false, true, none, an int or a float
 * and names the op to use instead when a config flag is true (inplace,
 * return_indices). */
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "fximport.h"

typedef struct Mod {
	const char *cls;
	const char *op;
	const char *spec;
	const char *flag, *flagop;
} Mod;

#define CONV "$0,@weight,@bias?,%stride,%padding,%dilation,false,%output_padding,%groups"
#define CONVT "$0,@weight,@bias?,%stride,%padding,%dilation,true,%output_padding,%groups"
#define BN "$0,@weight?,@bias?,@running_mean?,@running_var?,false,%momentum|0.1,%eps,true"
#define MAXPOOL "$0,%kernel_size,%stride,%padding,%dilation,%ceil_mode"
#define AVGPOOL "$0,%kernel_size,%stride,%padding,%ceil_mode,%count_include_pad"

static const Mod mods[] = {
	{"Linear", "aten.linear", "$0,@weight,@bias?"},
	{"Conv1d", "aten.convolution", CONV},
	{"Conv2d", "aten.convolution", CONV},
	{"Conv3d", "aten.convolution", CONV},
	{"ConvTranspose1d", "aten.convolution", CONVT},
	{"ConvTranspose2d", "aten.convolution", CONVT},
	{"ConvTranspose3d", "aten.convolution", CONVT},
	{"BatchNorm1d", "aten.batch_norm", BN},
	{"BatchNorm2d", "aten.batch_norm", BN},
	{"BatchNorm3d", "aten.batch_norm", BN},
	{"LayerNorm", "aten.layer_norm", "$0,%normalized_shape,@weight?,@bias?,%eps,true"},
	{"GroupNorm", "aten.group_norm", "$0,%num_groups,@weight?,@bias?,%eps,true"},
	{"Embedding", "aten.embedding", "@weight,$0,%padding_idx|-1,%scale_grad_by_freq,%sparse"},
	{"ReLU", "aten.relu", "$0", "inplace", "aten.relu_"},
	{"ReLU6", "aten.hardtanh", "$0,0.0,6.0", "inplace", "aten.hardtanh_"},
	{"Hardtanh", "aten.hardtanh", "$0,%min_val,%max_val", "inplace", "aten.hardtanh_"},
	{"LeakyReLU", "aten.leaky_relu", "$0,%negative_slope", "inplace", "aten.leaky_relu_"},
	{"ELU", "aten.elu", "$0,%alpha,1,1", "inplace", "aten.elu_"},
	{"GELU", "aten.gelu", "$0,%approximate|\"none\""},
	{"SiLU", "aten.silu", "$0", "inplace", "aten.silu_"},
	{"Hardswish", "aten.hardswish", "$0", "inplace", "aten.hardswish_"},
	{"Hardsigmoid", "aten.hardsigmoid", "$0", "inplace", "aten.hardsigmoid_"},
	{"Mish", "aten.mish", "$0", "inplace", "aten.mish_"},
	{"Sigmoid", "aten.sigmoid", "$0"},
	{"Tanh", "aten.tanh", "$0"},
	{"Softmax", "aten.softmax.int", "$0,%dim,none"},
	{"LogSoftmax", "aten.log_softmax.int", "$0,%dim,none"},
	{"Flatten", "aten.flatten.using_ints", "$0,%start_dim,%end_dim"},
	{"Dropout", "aten.dropout", "$0,%p,false"},
	{"Dropout1d", "aten.dropout", "$0,%p,false"},
	{"Dropout2d", "aten.dropout", "$0,%p,false"},
	{"MaxPool1d", "aten.max_pool1d", MAXPOOL, "return_indices", "aten.max_pool1d_with_indices"},
	{"MaxPool2d", "aten.max_pool2d", MAXPOOL, "return_indices", "aten.max_pool2d_with_indices"},
	{"MaxPool3d", "aten.max_pool3d", MAXPOOL, "return_indices", "aten.max_pool3d_with_indices"},
	{"AvgPool1d", "aten.avg_pool1d", AVGPOOL},
	{"AvgPool2d", "aten.avg_pool2d", AVGPOOL ",%divisor_override|none"},
	{"AvgPool3d", "aten.avg_pool3d", AVGPOOL ",%divisor_override|none"},
	{"AdaptiveAvgPool1d", "aten.adaptive_avg_pool1d", "$0,%output_size"},
	{"AdaptiveAvgPool2d", "aten.adaptive_avg_pool2d", "$0,%output_size"},
	{"AdaptiveAvgPool3d", "aten.adaptive_avg_pool3d", "$0,%output_size"},
	{"Identity", NULL, "$0"},
};

const OpTable modules_optables[] = {
	OPTABLE_AT("module row", mods, Mod, op, "torch."),
	OPTABLE_AT("module row", mods, Mod, flagop, "torch."),
	{NULL},
};

static const Mod *
find_mod(const char *cls)
{
	const char *dot = strrchr(cls, '.');
	size_t i;

	if (strncmp(cls, "torch.nn.", 9))
		return NULL;
	for (i = 0; i < sizeof mods / sizeof *mods; i++)
		if (!strcmp(mods[i].cls, dot + 1))
			return &mods[i];
	return NULL;
}

static json_t *
literal(const char *s)
{
	size_t n = strlen(s);

	if (!strcmp(s, "false") || !strcmp(s, "true"))
		return tag_bool(s[0] == 't');
	if (!strcmp(s, "none"))
		return tag_none();
	if (s[0] == '"') {
		char *t = xstrdup(s + 1);
		json_t *j;
		t[n - 2] = 0;
		j = tag_str(t);
		free(t);
		return j;
	}
	if (strchr(s, '.'))
		return tag_float(strtod(s, NULL));
	return tag_int(strtoll(s, NULL, 10));
}

/* Conv padding given as 'valid' or 'same': the explicit numbers. */
static json_t *
conv_padding(Imp *im, json_t *cfg, const char *mode, const char *path)
{
	json_t *k = list_items(json_object_get(cfg, "kernel_size"));
	json_t *d = list_items(json_object_get(cfg, "dilation"));
	json_t *l = tag_list();
	size_t i;

	if (!k || !d || json_array_size(k) != json_array_size(d))
		fail(im, path, "padding '%s' needs kernel_size and dilation", mode);
	for (i = 0; i < json_array_size(k); i++) {
		int64_t ks = json_integer_value(json_object_get(json_array_get(k, i), "value"));
		int64_t dl = json_integer_value(json_object_get(json_array_get(d, i), "value"));
		if (!strcmp(mode, "same") && (dl * (ks - 1)) % 2)
			fail(im, path, "padding 'same' with an even kernel is not supported");
		json_array_append_new(list_items(l), tag_int(strcmp(mode, "same") ? 0 : dl * (ks - 1) / 2));
	}
	return l;
}

static json_t *
config_item(Imp *im, json_t *cfg, const char *item, const char *path)
{
	const char *bar = strchr(item, '|');
	char *key = arena_strndup(im->c, item, bar ? (size_t)(bar - item) : strlen(item));
	json_t *v = json_object_get(cfg, key);
	const char *cp = pkey(im, pkey(im, path, "module.config"), key);

	if ((!v || jtag_is(v, "none")) && bar)
		return literal(bar + 1);
	if (!v)
		fail(im, pkey(im, path, "module.config"), "missing '%s'", key);
	if (!strcmp(key, "padding") && jtag_is(v, "str"))
		return conv_padding(im, cfg, jstr(im, v, "value", cp), cp);
	return json_incref(v);
}

static json_t *
weight_item(Imp *im, json_t *ws, const char *item, const char *path)
{
	size_t n = strlen(item);
	int opt = item[n - 1] == '?';
	char *key = arena_strndup(im->c, item, n - opt);
	json_t *name = json_object_get(ws, key), *w;

	if (!json_is_string(name)) {
		if (!opt)
			fail(im, pkey(im, path, "module.weights"), "missing '%s'", key);
		return tag_none();
	}
	w = json_object();
	json_object_set_new(w, "type", json_string("weight"));
	json_object_set(w, "name", name);
	return w;
}

static json_t *
spec_item(Imp *im, Node *n, json_t *m, const char *item, const char *path)
{
	json_t *args = json_object_get(n->j, "args");
	const char *mp = pkey(im, path, "module");

	if (item[0] == '$') {
		json_t *a = json_array_get(args, atoi(item + 1));
		if (!a)
			fail(im, pkey(im, path, "args"), "expected argument %d", atoi(item + 1));
		return json_incref(a);
	}
	if (item[0] == '@')
		return weight_item(im, jreq(im, m, "weights", JSON_OBJECT, mp), item + 1, path);
	if (item[0] == '%')
		return config_item(im, jreq(im, m, "config", JSON_OBJECT, mp), item + 1, path);
	return literal(item);
}

static json_t *
build_args(Imp *im, Node *n, json_t *m, const char *spec, const char *path)
{
	json_t *args = json_array();
	const char *p, *e;

	for (p = spec; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		json_array_append_new(args, spec_item(im, n, m,
		    arena_strndup(im->c, p, e - p), path));
	}
	return args;
}

static int
flag_set(json_t *m, const char *flag)
{
	json_t *v;

	if (!flag)
		return 0;
	v = json_object_get(json_object_get(m, "config"), flag);
	return json_is_true(json_object_get(v, "value"));
}

void
import_module(Imp *im, Node *n, const char *path)
{
	json_t *m = jreq(im, n->j, "module", JSON_OBJECT, path);
	const char *cls = jstr(im, m, "class", pkey(im, path, "module"));
	const Mod *mod = find_mod(cls);
	json_t *pm = json_object_get(json_object_get(m, "config"), "padding_mode");
	json_t *args;

	if (!mod)
		fail(im, pkey(im, path, "module.class"), "module '%s' is not supported at the "
		    "torch level; export an aten graph (fx-export --graph aten)", cls);
	const char *pmode = json_string_value(json_object_get(pm, "value"));

	if (pm && (!pmode || strcmp(pmode, "zeros")))
		fail(im, pkey(im, path, "module.config.padding_mode"),
		    "padding_mode '%s' is not supported", pmode ? pmode : "?");
	args = build_args(im, n, m, mod->spec, path);
	if (!mod->op) {   /* Identity */
		Node *src = node_ref(im, json_array_get(args, 0), pidx(im, pkey(im, path, "args"), 0));
		n->nres = src->nres;
		n->res = src->res;
		return;
	}
	import_call(im, n, flag_set(m, mod->flag) ? mod->flagop : mod->op, args,
	    json_object(), path);
	json_decref(args);
}
