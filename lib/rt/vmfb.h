/*
 * vmfb.h - the .vmfb container (formats/vmfb.md): the records vmpack
 * writes and the runtime reads, and the checker that validates a whole
 * file before anything in it is used.
 *
 * Every multi-byte field is little-endian; every section starts at a
 * multiple of 64 bytes, so the record arrays can be read in place.
 */
#ifndef FX_RT_VMFB_H
#define FX_RT_VMFB_H

#include <stddef.h>
#include <stdint.h>

#define VMFB_MAGIC "\x89" "FXVMFB\n"
#define VMFB_VERSION 1
#define VMFB_ALIGN 64
#define VMFB_MAX_RANK 16
/* header flags: some globals' bytes are external parameters (a
 * safetensors file given at load); a reader that does not know a flag
 * refuses the module */
#define VMFB_F_PARAMS 1u
/* vmpack writes at most this many bytes of constants (64 GiB) */
#define VMFB_MAX_CONSTS ((uint64_t)1 << 36)

typedef struct VmfbHeader {
	uint8_t magic[8];
	uint32_t version;
	uint32_t header_size;      /* sizeof(VmfbHeader) */
	uint64_t file_size;
	uint64_t table_offset;     /* the section table */
	uint32_t nsections;
	uint32_t entry_size;       /* sizeof(VmfbSection) */
	uint32_t table_crc;        /* crc32c of the section table */
	uint32_t flags;            /* VMFB_F_* */
	uint8_t reserved[12];
	uint32_t header_crc;       /* crc32c of the 60 bytes before it */
} VmfbHeader;

enum {
	SEC_STRS = 1,    /* NUL-terminated strings, named by byte offset */
	SEC_TARGET,      /* one VmfbTarget */
	SEC_TYPES,       /* VmfbType[] */
	SEC_DIMS,        /* int64_t[] */
	SEC_FUNCS,       /* VmfbFunc[] */
	SEC_BUFS,        /* VmfbBuf[] */
	SEC_INSTS,       /* VmfbInst[] */
	SEC_BINDS,       /* uint32_t[]: buffer numbers, function-relative */
	SEC_EXECS,       /* VmfbExec[] */
	SEC_KERNS,       /* VmfbKern[] */
	SEC_GLOBALS,     /* VmfbGlobal[] */
	SEC_CONSTS,      /* the globals' bytes */
	SEC_OBJECT,      /* one executable's object (any number of these) */
	SEC_KINFO,       /* VmfbKernInfo[], one per kernel; optional */
	SEC_BATCH,       /* VmfbBatch[]: batched functions; optional, with CHUNKS */
	SEC_CHUNKS,      /* VmfbChunk[]: their chunk functions; optional, with BATCH */
	SEC_LENGTH,      /* VmfbLength[]: functions of a dynamic length; optional */
	SEC_GRID,        /* VmfbGrid[]: grids sized at the call's length; optional */
	SEC_NKINDS
};

typedef struct VmfbSection {
	uint32_t kind;
	uint32_t flags;            /* 0 */
	uint64_t offset, size;
	uint32_t crc;              /* crc32c of the section's bytes */
	uint32_t reserved;
} VmfbSection;

enum { TARGET_CPU = 1, TARGET_CUDA = 2 };

typedef struct VmfbTarget {
	uint32_t target;           /* TARGET_* */
	uint32_t cpu;              /* string: fxvm.cpu, or "" */
	uint32_t features;         /* string: fxvm.features, or "" */
	uint32_t reserved;
} VmfbTarget;

/* Element types; the numbers are the format's (rt.h's RtDtype). */
enum {
	DT_F16 = 1, DT_BF16, DT_F32, DT_F64, DT_BOOL,
	DT_I8, DT_I16, DT_I32, DT_I64, DT_U8, DT_U16, DT_U32, DT_U64,
	DT_C64, DT_C128,   /* complex: (real, imaginary) pairs of f32, f64 */
	DT_COUNT
};

typedef struct VmfbType {
	uint32_t dtype;
	uint32_t rank;
	uint32_t first_dim;        /* into DIMS */
	uint32_t reserved;
	uint64_t nbytes;
} VmfbType;

typedef struct VmfbFunc {
	uint32_t name;
	uint32_t first_arg, nargs;         /* into TYPES */
	uint32_t first_result, nresults;   /* into TYPES */
	uint32_t first_buf, nbufs;         /* into BUFS */
	uint32_t first_inst, ninsts;       /* into INSTS */
	uint32_t reserved;
	uint64_t arena_size;
} VmfbFunc;

enum { BASE_ARG = 0, BASE_RESULT, BASE_ARENA, BASE_CONST };

typedef struct VmfbBuf {
	uint32_t base;             /* BASE_* */
	uint32_t index;            /* argument, result or global number */
	uint64_t offset, size;     /* bytes of the base */
} VmfbBuf;

enum { INST_DISPATCH = 1, INST_COPY, INST_FILL };

typedef struct VmfbInst {
	uint32_t op;               /* INST_* */
	uint32_t a, b, c;
	uint32_t x, y, z;
	uint32_t grid;             /* DISPATCH: 0, or 1 + its VmfbGrid; else 0 */
	uint64_t n;
	/* DISPATCH: a kernel, b first binding (into BINDS), c count, x y z grid
	 * COPY:     a source buffer, b destination buffer, n bytes
	 * FILL:     a destination buffer, c element bytes (1 2 4 8), n pattern */
} VmfbInst;

enum { FMT_ELF_X86_64 = 1, FMT_PTX = 2 };

typedef struct VmfbExec {
	uint32_t name;
	uint32_t format;           /* FMT_* */
	uint32_t section;          /* a SEC_OBJECT entry of the table */
	uint32_t reserved;
} VmfbExec;

typedef struct VmfbKern {
	uint32_t name;
	uint32_t exec;
	uint32_t symbol;           /* string */
	uint32_t nbindings;
	uint32_t block[3];         /* CUDA threads per block; 0 on CPU */
	uint32_t shared;           /* CUDA shared bytes */
} VmfbKern;

/* What a kernel is, for people and profilers (codegen computes it). */
typedef struct VmfbKernInfo {
	uint32_t display;          /* string: dispatch_12_conv_2d@m.py:92, or "" */
	uint32_t source;           /* string: its root op's FILE:LINE:COL, or "" */
	uint64_t bytes;            /* its bindings' bytes per dispatch, 0 unknown */
	uint64_t flops;            /* per dispatch (formats/vmfb.md), 0 unknown */
	uint64_t reserved;
} VmfbKernInfo;

/* A function with a dynamic batch (fxvm.batch): its Function record (no
 * buffers or instructions; VMFB_DYN at dimension 0 of each batched
 * argument and result type) and the static functions that run it in
 * chunks, largest first, the last of size 1. */
#define VMFB_DYN (-1)
typedef struct VmfbBatch {
	uint32_t func;             /* its declaration, into FUNCS */
	uint32_t first_chunk, nchunks;     /* into CHUNKS */
	uint32_t reserved;
	int64_t min, max;          /* the batch sizes it takes */
} VmfbBatch;

/* A bounded chunk's function takes one argument more, last: the items
 * it computes (i64 [1], 1 to size), its buffers laid out for size; only
 * the first chunk may be one, and it then also runs a remainder of more
 * items than the next chunk's size. */
#define VMFB_CHUNK_BOUNDED 1u
typedef struct VmfbChunk {
	uint64_t size;             /* batch items per call */
	uint32_t func;             /* the static function run on them */
	uint32_t flags;            /* VMFB_CHUNK_* */
} VmfbChunk;

/* A function with a dynamic length (fxvm.length): its Function record (no
 * buffers or instructions; VMFB_DYN at every dimension but the static
 * ones), the function that runs it on its arguments laid out at the
 * range's top length L (its arguments one more: the length, i64 [1]), and
 * per dimension of each argument, then each result, a pair (c, d) in
 * DIMS: c > 0: c × n + d at length n (the padded function's size c × L
 * + d); c = 0: d, static; c = -1 (d = 0): the batch, as the padded
 * function (batched) takes it.  A function may have several records,
 * consecutive, their ranges adjacent and ascending, each with a padded
 * function of its own (laid out at its max): a call runs the one whose
 * range holds its length. */
typedef struct VmfbLength {
	uint32_t func;             /* its declaration, into FUNCS */
	uint32_t padded;           /* the function run, into FUNCS */
	uint32_t first_pair;       /* into DIMS, 2 per dimension */
	uint32_t reserved;
	int64_t min, max;          /* the lengths it runs, max = L */
} VmfbLength;

/* A dispatch's grid at the call's length n, read as an i64 from one of
 * its bindings: along axis a, min(grid[a], max(1, ceil((c[a] n + d[a]) /
 * q[a]))); c[a] = 0 (d, q 0): grid[a].  Each record is one dispatch's. */
typedef struct VmfbGrid {
	uint32_t binding;          /* of the dispatch's bindings: n, an i64 [1] */
	uint32_t reserved;
	int64_t c[3], d[3], q[3];
} VmfbGrid;

typedef struct VmfbGlobal {
	uint32_t name;
	uint32_t type;             /* into TYPES */
	uint64_t offset;           /* into CONSTS, a multiple of 64; 0 if external */
	uint64_t size;
	uint32_t param;            /* string: its tensor in the parameters file; 0: in CONSTS */
	uint32_t crc;              /* external: crc32c of its bytes; else 0 */
} VmfbGlobal;

/* A checked file: pointers into it and the record counts. */
typedef struct Vmfb {
	const uint8_t *base;
	size_t size;
	const VmfbHeader *hdr;
	const VmfbSection *sec;
	uint32_t nsec;
	const char *strs; size_t nstrs;
	const VmfbTarget *target;
	const VmfbType *types; size_t ntypes;
	const int64_t *dims; size_t ndims;
	const VmfbFunc *funcs; size_t nfuncs;
	const VmfbBuf *bufs; size_t nbufs;
	const VmfbInst *insts; size_t ninsts;
	const uint32_t *binds; size_t nbinds;
	const VmfbExec *execs; size_t nexecs;
	const VmfbKern *kerns; size_t nkerns;
	const VmfbKernInfo *kinfo;  /* nkerns of them, or NULL: no section */
	const VmfbGlobal *globals; size_t nglobals;
	const uint8_t *consts; size_t nconsts;
	const VmfbBatch *batch; size_t nbatch;     /* none: NULL, 0 */
	const VmfbChunk *chunks; size_t nchunks;
	const VmfbLength *length; size_t nlength; /* none: NULL, 0 */
	const VmfbGrid *grids; size_t ngrids;     /* none: NULL, 0 */
} Vmfb;

/* Validates all of p[0..n) (64-byte aligned): header, table, checksums,
 * every record, offset, size and cross reference.  Returns 0, or -1 with a
 * message in err. */
int vmfb_check(Vmfb *v, const void *p, size_t n, char *err, size_t errn);
/* The first n bytes checked as a header (magic, version, checksum, sizes);
 * *size is the file size it declares. */
int vmfb_check_header(const void *p, size_t n, uint64_t *size, char *err, size_t errn);
/* A module read from a stream, bounded by its header's size: *p is an
 * mmap of *cap bytes (read-only) holding *n; for vmfb_check. */
int vmfb_read_fd(int fd, const char *name, uint8_t **p, size_t *n, size_t *cap, char *err, size_t errn);

const char *vmfb_str(const Vmfb *v, uint32_t off);   /* checked already */
/* Rows per batch item of a batched function's argument or result type
 * decl, from a chunk function's type chunk of `size` items (checked):
 * k >= 1 when batched, 0 when not (the types are then identical). */
int64_t vmfb_batch_rows(const Vmfb *v, uint32_t decl, uint32_t chunk, uint64_t size);
/* A dispatch's grid at length n (its VmfbGrid g, or NULL: the static
 * grid in): each axis with c > 0 at most in's, at least 1. */
void vmfb_grid_at(const VmfbGrid *g, const uint32_t in[3], int64_t n, uint32_t grid[3]);
const char *vmfb_dtype_name(uint32_t dt);            /* "f32", or NULL */
size_t vmfb_dtype_size(uint32_t dt);                 /* bytes, 0 if bad */
const char *vmfb_section_name(uint32_t kind);

uint32_t crc32c(uint32_t crc, const void *p, size_t n);
/* the crc of A then B from A's, B's and B's length */
uint32_t crc32c_combine(uint32_t crc1, uint32_t crc2, uint64_t len2);
uint32_t crc32c_soft(uint32_t crc, const void *p, size_t n);   /* without SSE4.2 */
uint32_t crc32c_x8n(uint64_t n);   /* x^(8n) mod the polynomial, reflected */

#endif
