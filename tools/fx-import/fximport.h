/*
 * fximport.h - the insides of fx-import, shared by its files.
 *
 * fx-import reads an fxpipe-fx-json document (formats/fx-json.md) and the
 * safetensors file beside it, and builds the torch dialect module that
 * torch-mlir's FX importer would build: one func.func @main whose body
 * follows the FX nodes in order.  Each FX node's results live in Slots;
 * a slot holds a value-semantic !torch.vtensor until an in-place op
 * mutates it, from then on a !torch.tensor handle that every later use
 * reads with torch.copy.to_vtensor.
 */
#ifndef FX_IMPORT_H
#define FX_IMPORT_H

#include <jansson.h>

#include "ir.h"
#include "optable.h"
#include "torch/torch.h"   /* TORCH_MAXRANK: the most dimensions a tensor has */

/* A schema type, from "Optional[List[int]]" (lib/torch_ops.def) or
 * "int[]?" (PyTorch's schema syntax, in the JSON's operators). */
typedef enum SKind {
	SK_TENSOR, SK_INT, SK_FLOAT, SK_BOOL, SK_STR, SK_SCALAR, SK_DEVICE,
	SK_GENERATOR, SK_LIST, SK_OPTIONAL, SK_ANY,
} SKind;

typedef struct SType {
	SKind k;
	struct SType *elem;   /* SK_LIST, SK_OPTIONAL */
	int len;              /* SK_LIST: the N of int[N], else 0 */
} SType;

typedef struct Param {
	const char *name;
	SType *type;
	json_t *dflt;         /* tagged arg, or NULL when required */
	int kwonly, mutable;
} Param;

typedef struct Schema {
	int n;
	Param *p;
	int nrets;
	SType **rets;
} Schema;

/* Where a tensor lives: its value, or once mutated its !torch.tensor. */
typedef struct Slot {
	Value *v;
	Value *h;
	/* Aliasing, for what this importer cannot express: an in-place op
	 * writes one slot only.  A view's base (its root), the base's write
	 * count when the view was made or last written, and whether the slot
	 * was written through one of its views (then reading it is wrong). */
	const char *name;      /* the node, for messages */
	struct Slot *base;
	unsigned writes, base_writes;
	int written_via_view;
	int cplx;              /* a complex tensor, as [..., 2] reals (complex.c) */
	/* a quantized tensor, as its integers: scale and zero point, one
	 * pair (qaxis -1) or tensors along dim qaxis */
	int quant, qaxis;
	double qscale;
	int64_t qzp;
	Value *qscales, *qzps;
} Slot;

typedef struct Node {
	const char *name;
	json_t *j;
	int idx;
	int done;              /* imported: its results are usable */
	int nres;
	Slot **res;            /* one per result */
	Slot **unpacked;       /* a list result, unpacked at its first getitem */
	int nunpacked;
	struct Layout *lay;    /* strided.c: where its elements are in storage */
} Node;

/* Safetensors file, mapped read-only. */
typedef struct Weights {
	const char *path;
	const unsigned char *map;
	size_t size;
	const unsigned char *data; /* start of the data section */
	size_t datasize;
	json_t *header;            /* the file's JSON header */
	json_t *decl;              /* name -> index into weights.tensors */
	json_t *res;               /* name -> Resource pointer (as integer) */
} Weights;

typedef struct Imp {
	Ctx *c;
	const char *file;      /* the JSON's name, for messages */
	json_t *root;
	int aten;              /* graph "aten" (else "torch") */
	Node *nodes;
	int nnodes;
	json_t *byname;        /* node name -> index */
	Block *body;
	Loc *loc;              /* the current node's location */
	Weights w;
	/* the complex arguments and results of @main (fxpipe.complex_args,
	 * fxpipe.complex_results) */
	int64_t *cx_args, *cx_res;
	int ncx_args, ncx_res;
	/* the document's symbols (symbolic.c): names, ranges, torch.symbolic_int */
	int nsyms;
	const char **sym_names;
	int64_t *sym_min, *sym_max;
	Value **sym_vals;
} Imp;

/* ---- json.c: typed access, failing with the JSON path ---- */
_Noreturn void fail(Imp *im, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
json_t *jreq(Imp *im, json_t *obj, const char *key, json_type t, const char *path);
json_t *jopt(Imp *im, json_t *obj, const char *key, json_type t, const char *path);
const char *jstr(Imp *im, json_t *obj, const char *key, const char *path);
const char *jtag(Imp *im, json_t *arg, const char *path);   /* arg's "type" */
int jtag_is(json_t *arg, const char *tag);
double jfloatval(Imp *im, json_t *v, const char *path);     /* number or "inf".. */
int64_t jint(Imp *im, json_t *obj, const char *key, const char *path);
/* "%s.key" / "%s[i]" into a fresh arena string */
const char *pkey(Imp *im, const char *path, const char *key);
const char *pidx(Imp *im, const char *path, int i);
json_t *tag_int(int64_t v);
json_t *tag_float(double v);
json_t *tag_bool(int v);
json_t *tag_none(void);
json_t *tag_str(const char *s);
json_t *tag_list(void);      /* append items with json_array_append_new */
json_t *list_items(json_t *list);

/* ---- types.c: dtypes, tensor types, enums ---- */
Type *dtype_type(Imp *im, const char *dtype, const char *path);
size_t dtype_size(const char *dtype);        /* 0 if unknown */
/* A JSON shape, checked: at most TORCH_MAXRANK sizes >= 0 whose size in
 * bytes (elements of elsize bytes) fits in int64_t; its element count. */
uint64_t shape_numel(Imp *im, json_t *shape, size_t elsize, const char *path);
/* The same for a value's shape, whose entries may also be symbolic sizes
 * (strings, symbolic.c): those count as 1 and are not checked against
 * the size limit, whose bound is then only the static dimensions'. */
void shape_check(Imp *im, json_t *shape, size_t elsize, const char *path);
int dtype_enum(const char *dtype);
int dtype_is_complex(const char *dtype);     /* complex64, complex128 */
int dtype_is_quant(const char *dtype);       /* qint8, quint8, qint32 */           /* PyTorch's ScalarType, -1 */
int64_t enum_value(Imp *im, json_t *arg, const char *path);  /* dtype etc. */
Type *value_type(Imp *im, json_t *value, int handle, const char *path);
Type *vtensor_of(Imp *im, json_t *value, int handle, const char *path);

/* ---- emit.c: building ops at the end of the body ---- */
Op *emit(Imp *im, const char *name, int n, Value *const *opnds, int nres,
	Type *const *types);
Value *emit1(Imp *im, const char *name, int n, Value *const *opnds, Type *t);
Value *c_int(Imp *im, int64_t v);
Value *c_float(Imp *im, double v);
Value *c_bool(Imp *im, int v);
Value *c_str(Imp *im, const char *s);
Value *c_none(Imp *im);
Value *c_device(Imp *im, const char *s);
Value *list_construct(Imp *im, int n, Value *const *elts, Type *elem);
Slot *slot_new(Imp *im, Value *v);
Value *slot_read(Imp *im, Slot *s);           /* a vtensor */
Value *slot_handle(Imp *im, Slot *s);         /* a !torch.tensor */
Type *torch_list_elem(Imp *im, SType *t);

/* ---- schema.c ---- */
SType *stype_parse(const char *s, size_t n);
Schema *schema_from_sig(Imp *im, const OpInfo *info, json_t *jop);
Schema *schema_from_json(Imp *im, json_t *jop, const char *path);
Schema *schema_any(Imp *im, int nargs, json_t *kwargs);

/* ---- args.c: FX arguments to torch values ---- */
Node *node_ref(Imp *im, json_t *arg, const char *path);
Slot *tensor_slot(Imp *im, json_t *arg, const char *path);
Value *import_arg(Imp *im, json_t *arg, SType *t, const char *opname,
	const char *path);
int arg_fits(Imp *im, json_t *arg, SType *t);

/* ---- call.c: one op from a schema and bound arguments ---- */
/* An argument bound to its schema parameter (or the default). */
typedef struct Bound {
	json_t *arg;
	const char *path;
} Bound;
int is_view(const char *opname);   /* its result aliases operand 0 */
/* Imports `opname` (without "torch.", e.g. "aten.add.Tensor") with FX
 * args/kwargs: a registered op, or torch.operator when it has no row. */
void import_call(Imp *im, Node *n, const char *opname, json_t *args,
	json_t *kwargs, const char *path);
int call_fits(Imp *im, const char *opname, json_t *args, json_t *kwargs);
/* import_call with operand 0 taken from self instead of args[0]. */
void import_call_self(Imp *im, Node *n, const char *opname, json_t *args,
	json_t *kwargs, const char *path, Value *self);
/* The op's arguments bound to its schema: a fresh positional array of
 * *n JSON args (defaults filled in), borrowed from args and kwargs. */
json_t *bound_args(Imp *im, const char *opname, json_t *args, json_t *kwargs,
	const char *path, int *n);
void set_results(Imp *im, Node *n, Op *op, Slot *mutated);
Value *import_literal(Imp *im, const char *wname, const char *path);

/* ---- aten.c, torchfn.c, modules.c: node kinds ---- */
void import_aten_node(Imp *im, Node *n, const char *path);
/* The op names of the import tables, checked at start-up (optable.h). */
extern const OpTable torchfn_optables[], modules_optables[];
void import_getitem(Imp *im, Node *n, const char *path);
/* A list-valued node's items as slots (s->unpacked), by one
 * torch.prim.ListUnpack made at the first use; its length from the JSON. */
void list_unpack(Imp *im, Node *s, const char *path);
void import_torch_function(Imp *im, Node *n, const char *path);
void import_torch_method(Imp *im, Node *n, const char *path);
void import_module(Imp *im, Node *n, const char *path);
void import_tensor_index(Imp *im, Node *n, const char *path);

/* ---- complex.c: complex tensors as pairs of reals ---- */
/* 1 if node n reads or makes a complex tensor (or names a complex dtype),
 * 2 if a quantized one. */
int complex_involved(Imp *im, Node *n);
/* Imports an aten node that involves complex tensors, or fails. */
void import_complex(Imp *im, Node *n, const char *opname, json_t *args,
	json_t *kwargs, const char *path);

/* ---- strided.c: storage layouts of views, for as_strided ---- */
typedef struct Layout Layout;
/* After a call is imported: the node's layout, from its operand's. */
void layout_note(Imp *im, Node *n, const char *opname, Bound *b, int nargs);
/* as_strided(_copy) whose operand's storage is known: its layout and the
 * absolute storage offset it reads from; else NULL. */
const Layout *as_strided_source(Imp *im, const char *opname, Bound *b, int nargs,
	int64_t *off);
Value *storage_of(Imp *im, const Layout *l);   /* the storage, permuted */

/* ---- symbolic.c: dynamic dimensions ---- */
void symbols_read(Imp *im);            /* the top-level symbols table */
void symbols_emit(Imp *im);            /* a torch.symbolic_int each */
/* 1 if shape entry d is a symbolic size (a valid expression), 0 if not a
 * string; fails naming path on a bad expression. */
int shape_dim_symbolic(Imp *im, json_t *d, const char *path);
/* torch.bind_symbolic_shape for v when the tensor value has symbolic sizes */
void bind_symbolic_shape(Imp *im, Value *v, json_t *value, const char *path);

/* ---- weights.c ---- */
void weights_open(Imp *im);
void weights_close(Imp *im);
/* a one-element float or integer weight's value (a get_attr's target) */
int weight_scalar(Imp *im, const char *name, double *out);

#endif
