/* strided.c - which storage element each element of a view is, so that
 * aten.as_strided (and as_strided_copy) of a view reads what it reads in
 * PyTorch.
 *
 * as_strided(x, size, stride, off) reads x's STORAGE: element (i0, ..)
 * is storage[off + sum(ij * stride[j])], off being x's own storage offset
 * when none is given.  The storage of a view is its base's.  So for each
 * node this file keeps, where it can prove it, a Layout: the node's
 * sizes, strides and storage offset over the storage of a root node (a
 * graph input, a weight, or an op's freshly allocated result), computed
 * from the root by PyTorch's own rules for each view op (slice multiplies
 * a stride by its step and adds start * stride to the offset, expand
 * gives stride 0, view restrides as PyTorch's computeStride, ...).  Every
 * computed layout must equal the sizes and strides the exporter recorded
 * for the node, or it is dropped.
 *
 * A root's storage is its elements in the order of its recorded strides
 * (dense: a permutation of row-major strides; a weight or input laid out
 * channels-last, or a copy to memory_format=channels_last), from offset
 * 0.  as_strided of a node with a layout then becomes as_strided of the
 * root permuted to storage order, with the absolute storage offset:
 * torch-opt reads that operand flattened (lib/torch/decompose_strided.c).
 * A node without a layout (an op not listed here, a root not dense, a
 * slot written in place) keeps the row-major check of call.c. */
#include <stdlib.h>
#include <string.h>

#include "fximport.h"

#define R TORCH_MAXRANK

struct Layout {
	int r;
	int64_t size[R], stride[R], off;
	Node *root;        /* whose storage this reads */
	int perm[R];       /* a root's own: its dims, outermost in storage first */
	unsigned writes;   /* the root's slot writes when this was made */
};

static int
aint(json_t *a, int64_t *v)
{
	if (!a || !jtag_is(a, "int") || !json_is_integer(json_object_get(a, "value")))
		return 0;
	*v = json_integer_value(json_object_get(a, "value"));
	return 1;
}

static int
anone(json_t *a)
{
	return !a || jtag_is(a, "none");
}

/* An int list's items; -1 when not a list of ints or too long. */
static int
aints(json_t *a, int64_t *v, int max)
{
	json_t *items = a && jtag_is(a, "list") ? list_items(a) : NULL, *it;
	size_t i;

	if (!items || json_array_size(items) > (size_t)max)
		return -1;
	json_array_foreach(items, i, it)
		if (!aint(it, &v[i]))
			return -1;
	return (int)json_array_size(items);
}

/* dim wrapped into [0, r), or -1 */
static int
wrap(int64_t d, int r)
{
	if (d < 0)
		d += r;
	return d >= 0 && d < r ? (int)d : -1;
}

/* The node's recorded shape and strides: their count, or -1. */
static int
recorded(Node *nd, int64_t *size, int64_t *stride)
{
	json_t *v = json_object_get(nd->j, "value");
	json_t *sh = json_object_get(v, "shape"), *st = json_object_get(v, "strides");
	size_t i, r;

	if (!jtag_is(v, "tensor") || !json_is_array(sh) || !json_is_array(st)
	    || (r = json_array_size(sh)) != json_array_size(st) || r > R)
		return -1;
	for (i = 0; i < r; i++) {
		json_t *a = json_array_get(sh, i), *b = json_array_get(st, i);
		if (!json_is_integer(a) || !json_is_integer(b))
			return -1;
		size[i] = json_integer_value(a);
		stride[i] = json_integer_value(b);
	}
	return (int)r;
}

static int
unwritten(Node *nd)
{
	return nd->nres == 1 && nd->res[0]->writes == 0 && !nd->res[0]->written_via_view;
}

/* A root's storage order from its strides: the dims of size > 1 by
 * falling stride must have the row-major strides of their sizes (dense,
 * no overlap); size-1 dims go first, where they move nothing. */
static int
dense_order(int r, const int64_t *size, const int64_t *stride, int *perm)
{
	int k, j, m = 0;
	int64_t want = 1;

	for (k = 0; k < r; k++)
		if (size[k] == 1)
			perm[m++] = k;
	for (k = 0; k < r; k++) {
		if (size[k] == 1)
			continue;
		for (j = m; j > 0 && size[perm[j - 1]] != 1 && stride[perm[j - 1]] < stride[k]; j--)
			perm[j] = perm[j - 1];
		perm[j] = k, m++;
	}
	for (j = r - 1; j >= 0 && size[perm[j]] != 1; j--) {
		if (stride[perm[j]] != want)
			return 0;
		want *= size[perm[j]] > 1 ? size[perm[j]] : 1;   /* PyTorch's: 0 steps as 1 */
	}
	return 1;
}

static int
is_row_major(int r, const int *perm, const int64_t *size)
{
	int k, last = -1;

	for (k = 0; k < r; k++) {
		if (size[perm[k]] == 1)
			continue;
		if (perm[k] < last)
			return 0;
		last = perm[k];
	}
	return 1;
}

static int
same_order(int r, const int *a, const int *b, const int64_t *size)
{
	int i = 0, j = 0;

	for (;;) {
		while (i < r && size[a[i]] == 1)
			i++;
		while (j < r && size[b[j]] == 1)
			j++;
		if (i == r || j == r)
			return i == r && j == r;
		if (a[i++] != b[j++])
			return 0;
	}
}

static Layout *
new_root(Imp *im, Node *nd, int r, const int64_t *size, const int64_t *stride, const int *perm)
{
	Layout *L = arena_alloc(im->c, sizeof *L);

	L->r = r;
	memcpy(L->size, size, r * sizeof *size);
	memcpy(L->stride, stride, r * sizeof *stride);
	memcpy(L->perm, perm, r * sizeof *perm);
	L->root = nd;
	L->writes = 0;
	return L;
}

/* The layout of a node that no tracked view op made: a root when it
 * owns its storage (a graph input, a weight, an op that is no view) and
 * its recorded strides are row-major (or, for an input or a weight,
 * dense in another order); else NULL. */
static Layout *
root_layout(Imp *im, Node *nd)
{
	const char *op = json_string_value(json_object_get(nd->j, "op"));
	const char *target = json_string_value(json_object_get(nd->j, "target"));
	int64_t size[R], stride[R];
	int perm[R], r, own;

	if (nd->lay)
		return nd->lay;
	if (!unwritten(nd) || nd->res[0]->base || !op || !target)
		return NULL;
	own = !strcmp(op, "placeholder") || !strcmp(op, "get_attr");
	if (!own && strcmp(op, "call_function"))
		return NULL;
	if (!own && (!strcmp(target, "operator.getitem") || strncmp(target, "aten.", 5)
	    || is_view(target)))
		return NULL;
	if ((r = recorded(nd, size, stride)) < 0 || !dense_order(r, size, stride, perm))
		return NULL;
	if (!own && !is_row_major(r, perm, size))
		return NULL;
	return nd->lay = new_root(im, nd, r, size, stride, perm);
}

/* The layout of the tensor an op's operand is, or NULL. */
static Layout *
layout_of(Imp *im, json_t *arg)
{
	Node *nd;
	Layout *L;

	if (!arg || !(jtag_is(arg, "tensor") || jtag_is(arg, "node")))
		return NULL;
	nd = node_ref(im, arg, "");
	if (nd->nres != 1 || !unwritten(nd))
		return NULL;
	L = nd->lay ? nd->lay : root_layout(im, nd);
	if (!L || !unwritten(L->root) || L->root->res[0]->writes != L->writes)
		return NULL;
	return L;
}

/* PyTorch's computeStride: the strides of a view of (osz, ost) to nsz,
 * or 0 when the view is impossible without a copy. */
static int
view_strides(int orank, const int64_t *osz, const int64_t *ost, int nrank,
	const int64_t *nsz, int64_t *nst)
{
	int64_t numel = 1, chunk, tn = 1, vn = 1;
	int td, vd = nrank - 1, k, same = orank == nrank;

	for (k = 0; k < orank; k++)
		numel *= osz[k];
	if (orank == 0) {
		for (k = 0; k < nrank; k++)
			nst[k] = 1;
		return 1;
	}
	if (numel == 0) {
		for (k = 0; same && k < orank; k++)
			same = osz[k] == nsz[k];
		if (same) {
			memcpy(nst, ost, orank * sizeof *ost);
			return 1;
		}
		for (k = nrank - 1; k >= 0; k--)
			nst[k] = k == nrank - 1 ? 1 : (nsz[k + 1] > 1 ? nsz[k + 1] : 1) * nst[k + 1];
		return 1;
	}
	chunk = ost[orank - 1];
	for (td = orank - 1; td >= 0; td--) {
		tn *= osz[td];
		if (td == 0 || (osz[td - 1] != 1 && ost[td - 1] != tn * chunk)) {
			while (vd >= 0 && (vn < tn || nsz[vd] == 1)) {
				nst[vd] = vn * chunk;
				vn *= nsz[vd];
				vd--;
			}
			if (vn != tn)
				return 0;
			if (td > 0) {
				chunk = ost[td - 1];
				tn = 1;
				vn = 1;
			}
		}
	}
	return vd == -1;
}

static void
drop_dim(Layout *L, int d)
{
	memmove(L->size + d, L->size + d + 1, (L->r - d - 1) * sizeof *L->size);
	memmove(L->stride + d, L->stride + d + 1, (L->r - d - 1) * sizeof *L->stride);
	L->r--;
}

/* The layout op `base` (aten.BASE.overload) gives its result from its
 * operand's layout *L (updated in place); 0 when not known. */
static int
apply_view(const char *base, const char *ovl, Node *nd, Bound *b, int n, Layout *L)
{
	int64_t a, c, e, v[R], st[R], sz[R];
	int k, d, m;

#define IS(s) (!strcmp(base, s))
	if (IS("alias") || IS("detach") || IS("lift_fresh"))
		return 1;
	if (IS("slice") && !strcmp(ovl, "Tensor") && n >= 5) {
		if (!aint(b[1].arg, &a) || (d = wrap(a, L->r)) < 0)
			return 0;
		a = 0, e = INT64_MAX, c = 1;
		if ((!anone(b[2].arg) && !aint(b[2].arg, &a)) || (!anone(b[3].arg) && !aint(b[3].arg, &e))
		    || !aint(b[4].arg, &c) || c <= 0)
			return 0;
		if (a < 0)
			a += L->size[d];
		if (e < 0)
			e += L->size[d];
		if (a < 0)
			a = 0;
		else if (a >= L->size[d])
			a = L->size[d];
		if (e < a)
			e = a;
		else if (e >= L->size[d])
			e = L->size[d];
		L->off += a * L->stride[d];
		L->size[d] = (e - a + c - 1) / c;
		L->stride[d] *= c;
		return 1;
	}
	if (IS("narrow") && !strcmp(ovl, "") && n >= 4) {
		if (!aint(b[1].arg, &a) || (d = wrap(a, L->r)) < 0 || !aint(b[2].arg, &c)
		    || !aint(b[3].arg, &e))
			return 0;
		if (c < 0)
			c += L->size[d];
		if (c < 0 || e < 0 || c + e > L->size[d])
			return 0;
		L->off += c * L->stride[d];
		L->size[d] = e;
		return 1;
	}
	if (IS("select") && !strcmp(ovl, "int") && n >= 3) {
		if (!aint(b[1].arg, &a) || (d = wrap(a, L->r)) < 0 || !aint(b[2].arg, &c))
			return 0;
		if (c < 0)
			c += L->size[d];
		if (c < 0 || c >= L->size[d])
			return 0;
		L->off += c * L->stride[d];
		drop_dim(L, d);
		return 1;
	}
	if (IS("permute") && n >= 2) {
		int seen[R] = {0};
		if (aints(b[1].arg, v, R) != L->r)
			return 0;
		for (k = 0; k < L->r; k++) {
			if ((d = wrap(v[k], L->r)) < 0 || seen[d]++)
				return 0;
			sz[k] = L->size[d], st[k] = L->stride[d];
		}
		memcpy(L->size, sz, L->r * sizeof *sz);
		memcpy(L->stride, st, L->r * sizeof *st);
		return 1;
	}
	if ((IS("transpose") && !strcmp(ovl, "int") && n >= 3) || IS("t") || IS("numpy_T")) {
		if (IS("numpy_T")) {
			for (k = 0; k < L->r / 2; k++) {
				a = L->size[k], L->size[k] = L->size[L->r - 1 - k], L->size[L->r - 1 - k] = a;
				a = L->stride[k], L->stride[k] = L->stride[L->r - 1 - k], L->stride[L->r - 1 - k] = a;
			}
			return 1;
		}
		if (IS("t")) {
			if (L->r > 2)
				return 0;
			if (L->r < 2)
				return 1;
			d = 0, m = 1;
		} else {
			if (!aint(b[1].arg, &a) || !aint(b[2].arg, &c)
			    || (d = wrap(a, L->r > 0 ? L->r : 1)) < 0 || (m = wrap(c, L->r > 0 ? L->r : 1)) < 0)
				return 0;
			if (L->r == 0)
				return 1;
		}
		a = L->size[d], L->size[d] = L->size[m], L->size[m] = a;
		a = L->stride[d], L->stride[d] = L->stride[m], L->stride[m] = a;
		return 1;
	}
	if (IS("expand") && n >= 2) {
		int nd_ = aints(b[1].arg, v, R);
		if (nd_ < L->r)
			return 0;
		for (k = nd_ - 1; k >= 0; k--) {
			int dim = L->r - 1 - (nd_ - 1 - k);
			int64_t s = dim >= 0 ? L->size[dim] : 1;
			int64_t t;
			if (dim >= 0)
				t = L->stride[dim];
			else if (k + 1 < nd_)
				t = sz[k + 1] * st[k + 1];
			else
				return 0;   /* a 0-d operand: not worked out here */
			if (v[k] == -1) {
				if (dim < 0)
					return 0;
				v[k] = s;
			}
			if (v[k] < 0)
				return 0;
			if (s != v[k]) {
				if (s != 1)
					return 0;
				s = v[k], t = 0;
			}
			sz[k] = s, st[k] = t;
		}
		L->r = nd_;
		memcpy(L->size, sz, nd_ * sizeof *sz);
		memcpy(L->stride, st, nd_ * sizeof *st);
		return 1;
	}
	if (IS("squeeze")) {
		if (!strcmp(ovl, "")) {
			for (k = L->r - 1; k >= 0; k--)
				if (L->size[k] == 1)
					drop_dim(L, k);
			return 1;
		}
		if (!strcmp(ovl, "dim") && n >= 2) {
			if (!aint(b[1].arg, &a))
				return 0;
			if (L->r == 0)
				return a == 0 || a == -1;
			if ((d = wrap(a, L->r)) < 0)
				return 0;
			if (L->size[d] == 1)
				drop_dim(L, d);
			return 1;
		}
		return 0;
	}
	if (IS("unsqueeze") && n >= 2) {
		if (!aint(b[1].arg, &a) || (d = wrap(a, L->r + 1)) < 0 || L->r >= R)
			return 0;
		e = d >= L->r ? 1 : L->size[d] * L->stride[d];
		memmove(L->size + d + 1, L->size + d, (L->r - d) * sizeof *L->size);
		memmove(L->stride + d + 1, L->stride + d, (L->r - d) * sizeof *L->stride);
		L->size[d] = 1, L->stride[d] = e;
		L->r++;
		return 1;
	}
	if (IS("diagonal") && n >= 4) {
		int64_t ds;
		if (!aint(b[1].arg, &a) || !aint(b[2].arg, &c) || !aint(b[3].arg, &e) || L->r < 2
		    || (d = wrap(c, L->r)) < 0 || (m = wrap(e, L->r)) < 0 || d == m)
			return 0;
		if (a >= 0) {
			ds = L->size[m] - a < L->size[d] ? L->size[m] - a : L->size[d];
		} else {
			ds = L->size[d] + a < L->size[m] ? L->size[d] + a : L->size[m];
		}
		if (ds < 0)
			ds = 0;
		if (ds > 0)
			L->off += a >= 0 ? a * L->stride[m] : -a * L->stride[d];
		e = L->stride[d] + L->stride[m];
		drop_dim(L, d > m ? d : m);
		drop_dim(L, d > m ? m : d);
		L->size[L->r] = ds, L->stride[L->r] = e;
		L->r++;
		return 1;
	}
	if (IS("unfold") && n >= 4) {
		if (L->r == 0 || L->r >= R || !aint(b[1].arg, &a) || (d = wrap(a, L->r)) < 0
		    || !aint(b[2].arg, &c) || !aint(b[3].arg, &e) || c < 0 || e <= 0 || c > L->size[d])
			return 0;
		L->size[L->r] = c, L->stride[L->r] = L->stride[d];
		L->size[d] = (L->size[d] - c) / e + 1;
		L->stride[d] *= e;
		L->r++;
		return 1;
	}
	if (IS("as_strided") && n >= 4) {
		if ((m = aints(b[1].arg, sz, R)) < 0 || aints(b[2].arg, st, R) != m)
			return 0;
		if (!anone(b[3].arg) && !aint(b[3].arg, &L->off))
			return 0;
		L->r = m;
		memcpy(L->size, sz, m * sizeof *sz);
		memcpy(L->stride, st, m * sizeof *st);
		return 1;
	}
	if (IS("_reshape_alias") && n >= 3) {
		if ((m = aints(b[1].arg, sz, R)) < 0 || aints(b[2].arg, st, R) != m)
			return 0;
		L->r = m;
		memcpy(L->size, sz, m * sizeof *sz);
		memcpy(L->stride, st, m * sizeof *st);
		return 1;
	}
	if (IS("view") || IS("_unsafe_view")) {
		/* the sizes asked for (a -1 resolved) are the recorded ones */
		int64_t rs[R], rst[R], on = 1, nn = 1;
		if (!(IS("view") ? !strcmp(ovl, "") : 1) || (m = recorded(nd, rs, rst)) < 0)
			return 0;
		for (k = 0; k < L->r; k++)
			on *= L->size[k];
		for (k = 0; k < m; k++)
			nn *= rs[k];
		if (on != nn || !view_strides(L->r, L->size, L->stride, m, rs, st))
			return 0;
		L->r = m;
		memcpy(L->size, rs, m * sizeof *rs);
		memcpy(L->stride, st, m * sizeof *st);
		return 1;
	}
#undef IS
	return 0;
}

/* "aten.slice.Tensor" -> "slice" and "Tensor"; "aten.permute" -> "permute", "" */
static int
split_name(const char *opname, char *base, char *ovl, size_t max)
{
	const char *p = opname, *dot;

	if (strncmp(p, "aten.", 5))
		return 0;
	p += 5;
	dot = strchr(p, '.');
	if ((dot ? (size_t)(dot - p) : strlen(p)) >= max || (dot && strlen(dot + 1) >= max))
		return 0;
	snprintf(base, max, "%.*s", dot ? (int)(dot - p) : (int)strlen(p), p);
	snprintf(ovl, max, "%s", dot ? dot + 1 : "");
	if (!strcmp(ovl, "default"))
		ovl[0] = 0;
	return 1;
}

/* clone and _to_copy to memory_format channels_last(_3d): a root whose
 * storage is in NHWC (NDHWC) order, when its recorded strides say so. */
static Layout *
format_copy(Imp *im, Node *nd, const char *base, Bound *b, int n)
{
	static const int cl2[] = {0, 2, 3, 1}, cl3[] = {0, 2, 3, 4, 1};
	json_t *mf = NULL;
	const char *f;
	int64_t size[R], stride[R];
	int perm[R], r, k;

	if (strcmp(base, "clone") && strcmp(base, "_to_copy"))
		return NULL;
	for (k = 1; k < n; k++)
		if (jtag_is(b[k].arg, "memory_format"))
			mf = b[k].arg;
	f = mf ? json_string_value(json_object_get(mf, "value")) : NULL;
	if (!f || !unwritten(nd) || (r = recorded(nd, size, stride)) < 0
	    || !dense_order(r, size, stride, perm))
		return NULL;
	if (!((!strcmp(f, "channels_last") && r == 4 && same_order(r, perm, cl2, size))
	    || (!strcmp(f, "channels_last_3d") && r == 5 && same_order(r, perm, cl3, size))))
		return NULL;
	return new_root(im, nd, r, size, stride, perm);
}

void
layout_note(Imp *im, Node *nd, const char *opname, Bound *b, int n)
{
	char base[64], ovl[64];
	int64_t rs[R], rst[R];
	Layout *src, *L;
	int k, r;

	if (nd->nres != 1 || !split_name(opname, base, ovl, sizeof base))
		return;
	if ((nd->lay = format_copy(im, nd, base, b, n)))
		return;
	if (n < 1 || !is_view(opname) || !(src = layout_of(im, b[0].arg)))
		return;
	L = arena_alloc(im->c, sizeof *L);
	*L = *src;
	if (!apply_view(base, ovl, nd, b, n, L))
		return;
	/* proven only when it is what the exporter recorded */
	if ((r = recorded(nd, rs, rst)) != L->r)
		return;
	for (k = 0; k < r; k++)
		if (rs[k] != L->size[k] || rst[k] != L->stride[k])
			return;
	nd->lay = L;
}

const Layout *
as_strided_source(Imp *im, const char *opname, Bound *b, int n, int64_t *off)
{
	char base[64], ovl[64];
	const Layout *L;

	if (n < 4 || !split_name(opname, base, ovl, sizeof base)
	    || (strcmp(base, "as_strided") && strcmp(base, "as_strided_copy")) || ovl[0]
	    || !(L = layout_of(im, b[0].arg)))
		return NULL;
	if (anone(b[3].arg))
		*off = L->off;
	else if (!aint(b[3].arg, off))
		return NULL;
	return L;
}

/* The root of L in storage order: permuted where its strides are not
 * row-major; torch-opt flattens it. */
Value *
storage_of(Imp *im, const Layout *L)
{
	const Layout *root = L->root->lay;
	Value *x = slot_read(im, L->root->res[0]), *items[R];
	int64_t dims[R];
	int k, moved = 0;

	for (k = 0; k < root->r; k++)
		moved |= root->perm[k] != k;
	if (!moved || is_row_major(root->r, root->perm, root->size))
		return x;
	for (k = 0; k < root->r; k++) {
		dims[k] = root->size[root->perm[k]];
		items[k] = c_int(im, root->perm[k]);
	}
	return emit1(im, "torch.aten.permute", 2, (Value *[]){x,
	    list_construct(im, root->r, items, ty_torch(im->c, TY_TORCH_INT))},
	    ty_vtensor(im->c, root->r, dims, x->type->elem));
}
