/* json.c - typed access to the JSON document; every failure names the
 * JSON path of the offending value, e.g. nodes[12].args[1]. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fximport.h"
#include "tool.h"

_Noreturn void
fail(Imp *im, const char *path, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (path && *path)
		tool_fail("%s: %s: error: %s", im->file, path, msg);
	tool_fail("%s: error: %s", im->file, msg);
}

static const char *
type_name(json_type t)
{
	static const char *const names[] = {
		[JSON_OBJECT] = "an object", [JSON_ARRAY] = "an array",
		[JSON_STRING] = "a string", [JSON_INTEGER] = "an integer",
		[JSON_REAL] = "a number", [JSON_TRUE] = "a boolean",
		[JSON_FALSE] = "a boolean", [JSON_NULL] = "null",
	};
	return names[t];
}

static int
is_type(json_t *v, json_type t)
{
	if (t == JSON_TRUE || t == JSON_FALSE)
		return json_is_boolean(v);
	if (t == JSON_REAL)
		return json_is_number(v);
	return json_typeof(v) == t;
}

const char *
pkey(Imp *im, const char *path, const char *key)
{
	size_t n = strlen(path) + strlen(key) + 2;
	char *s = arena_alloc(im->c, n);

	snprintf(s, n, "%s%s%s", path, *path ? "." : "", key);
	return s;
}

const char *
pidx(Imp *im, const char *path, int i)
{
	size_t n = strlen(path) + 24;
	char *s = arena_alloc(im->c, n);

	snprintf(s, n, "%s[%d]", path, i);
	return s;
}

json_t *
jopt(Imp *im, json_t *obj, const char *key, json_type t, const char *path)
{
	json_t *v;

	if (!json_is_object(obj))
		fail(im, path, "expected an object");
	v = json_object_get(obj, key);
	if (v && !is_type(v, t))
		fail(im, pkey(im, path, key), "expected %s, not %s", type_name(t),
		    type_name(json_typeof(v)));
	return v;
}

json_t *
jreq(Imp *im, json_t *obj, const char *key, json_type t, const char *path)
{
	json_t *v = jopt(im, obj, key, t, path);

	if (!v)
		fail(im, path, "missing '%s'", key);
	return v;
}

const char *
jstr(Imp *im, json_t *obj, const char *key, const char *path)
{
	return json_string_value(jreq(im, obj, key, JSON_STRING, path));
}

int64_t
jint(Imp *im, json_t *obj, const char *key, const char *path)
{
	return json_integer_value(jreq(im, obj, key, JSON_INTEGER, path));
}

const char *
jtag(Imp *im, json_t *arg, const char *path)
{
	return jstr(im, arg, "type", path);
}

int
jtag_is(json_t *arg, const char *tag)
{
	const char *t = json_string_value(json_object_get(arg, "type"));

	return t && !strcmp(t, tag);
}

double
jfloatval(Imp *im, json_t *v, const char *path)
{
	const char *s;

	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_boolean(v))
		return json_is_true(v);
	s = json_string_value(v);
	if (s && !strcmp(s, "inf"))
		return INFINITY;
	if (s && !strcmp(s, "-inf"))
		return -INFINITY;
	if (s && !strcmp(s, "nan"))
		return NAN;
	fail(im, path, "expected a number, \"inf\", \"-inf\" or \"nan\"");
}

static json_t *
tag(const char *t)
{
	json_t *o = json_object();

	json_object_set_new(o, "type", json_string(t));
	return o;
}

json_t *
tag_int(int64_t v)
{
	json_t *o = tag("int");

	json_object_set_new(o, "value", json_integer(v));
	return o;
}

json_t *
tag_float(double v)
{
	json_t *o = tag("float");

	json_object_set_new(o, "value", isfinite(v) ? json_real(v)
	    : json_string(isnan(v) ? "nan" : v > 0 ? "inf" : "-inf"));
	return o;
}

json_t *
tag_bool(int v)
{
	json_t *o = tag("bool");

	json_object_set_new(o, "value", json_boolean(v));
	return o;
}

json_t *
tag_none(void)
{
	return tag("none");
}

json_t *
tag_str(const char *s)
{
	json_t *o = tag("str");

	json_object_set_new(o, "value", json_string(s));
	return o;
}

json_t *
tag_list(void)
{
	json_t *o = tag("list");

	json_object_set_new(o, "items", json_array());
	return o;
}

/* The items of a "list" or "tuple" arg, or NULL. */
json_t *
list_items(json_t *list)
{
	json_t *it;

	if (!jtag_is(list, "list") && !jtag_is(list, "tuple"))
		return NULL;
	it = json_object_get(list, "items");
	return json_is_array(it) ? it : NULL;
}
