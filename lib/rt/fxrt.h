/*
 * fxrt.h - libfxrt, the fxpipe runtime as a shared library: load a .vmfb
 * module (vmpack's output), list its functions and their signatures, run
 * one on tensors.  Link with `pkg-config --cflags --libs fxrt`; see fxrt(3).
 *
 *   RtError e;
 *   RtModule *m = rt_load_file("m.vmfb", &(RtOptions){.threads = 0}, &e);
 *   if (!m) { fprintf(stderr, "%s\n", e.msg); exit(1); }
 *   RtFunction *f = rt_lookup(m, "main");
 *   RtTensor in[2] = {...}, out[1] = {0};       // out[i].data NULL: allocated
 *   if (rt_invoke(f, in, 2, out, 1, &e)) fprintf(stderr, "%s\n", e.msg);
 *   rt_tensor_free(&out[0]);
 *   rt_unload(m);
 *
 * Loading maps the file read-only, checks every offset, size and checksum
 * in it, links the kernel objects in process (our own ELF loader: no
 * linker or compiler at run time) and decodes each function's host program
 * into an instruction array.  Constants are pointers into the mapping.
 * Invoking allocates nothing but the results the caller did not provide
 * (each function's arena is allocated at its first invocation and reused).
 * A module runs one invocation at a time (a module lock serializes them);
 * different modules run in parallel.
 *
 * Every failure returns NULL or -1 with a message in RtError, never
 * aborts; messages name the input and dimension ("input 1: dimension 0 is
 * 5, the function expects 4").  Inputs and results are numbered from 0.
 *
 * The ABI: RtTensor, RtError and RtOptions are laid out as declared here;
 * a change to any of them, or to a function's meaning, bumps
 * FXRT_ABI_VERSION and the soname (libfxrt.so.FXRT_ABI_VERSION).
 */
#ifndef FXRT_H
#define FXRT_H

#include <stddef.h>
#include <stdint.h>

#define FXRT_ABI_VERSION 0

#ifdef __cplusplus
extern "C" {
#endif

#define RT_MAX_RANK 16

typedef enum RtDtype {
	RT_F16 = 1, RT_BF16, RT_F32, RT_F64, RT_BOOL,
	RT_I8, RT_I16, RT_I32, RT_I64, RT_U8, RT_U16, RT_U32, RT_U64,
	RT_C64, RT_C128,    /* complex64, complex128: (real, imaginary) pairs */
} RtDtype;

typedef enum RtDevice { RT_DEVICE_AUTO = 0, RT_DEVICE_CPU, RT_DEVICE_CUDA } RtDevice;

typedef struct RtError {
	char msg[512];
} RtError;

typedef struct RtOptions {
	int threads;        /* worker threads; 0: one per core; 1: inline */
	RtDevice device;    /* AUTO: the module's target */
} RtOptions;

/* A dense row-major tensor.  data must be 64-byte aligned for inputs. */
typedef struct RtTensor {
	RtDtype dtype;
	int rank;
	int64_t dims[RT_MAX_RANK];
	void *data;
	size_t nbytes;
} RtTensor;

typedef struct RtModule RtModule;
typedef struct RtFunction RtFunction;

RtModule *rt_load_file(const char *path, const RtOptions *o, RtError *e);  /* "-": stdin */
/* A module packed with vmpack --params: its external constants are the
 * tensors of the safetensors file params (mapped read-only; each checked
 * by name, size and checksum).  params NULL: as rt_load_file. */
RtModule *rt_load_file_params(const char *path, const char *params, const RtOptions *o, RtError *e);
RtModule *rt_load_memory(const void *p, size_t n, const RtOptions *o, RtError *e);  /* copies */
void rt_unload(RtModule *m);

const char *rt_module_target(const RtModule *m);     /* "cpu", "cuda" */
const char *rt_module_features(const RtModule *m);   /* "+avx2,+fma" or "" */
int rt_module_threads(const RtModule *m);
int rt_function_count(const RtModule *m);
RtFunction *rt_function_at(RtModule *m, int i);
RtFunction *rt_lookup(RtModule *m, const char *name);   /* NULL if none */

const char *rt_function_name(const RtFunction *f);
int rt_function_nargs(const RtFunction *f);
int rt_function_nresults(const RtFunction *f);
/* The i-th argument's or result's type, data NULL. */
void rt_function_arg(const RtFunction *f, int i, RtTensor *t);
void rt_function_result(const RtFunction *f, int i, RtTensor *t);
size_t rt_function_arena(const RtFunction *f);
/* A function with a dynamic batch (formats/fxvm.md, "Dynamic batch"):
 * 1, with the batch sizes it takes in [*min, *max] (max INT64_MAX:
 * unbounded; either pointer may be NULL); 0 for a static function.
 * Its batched arguments and results have dims[0] = -1 in rt_function_arg
 * and rt_function_result (rt_type_str prints "?x5xf32"); rt_invoke takes
 * inputs of any batch n in range, dimension 0 of a batched input being
 * k * n (k rows per item, that of the module; k = 1 mostly), the same n
 * for all, and gives results of dimension 0 k * n.  It runs the static
 * chunk functions the module lists, largest chunks first, on views of the
 * inputs and results; a view that is not 64-byte aligned goes through an
 * aligned copy kept by the function (the only memory it may allocate
 * besides the results).  rt_function_arena is then the chunk functions'
 * arenas summed, and rt_profile, rt_profile_entry profile the chunk
 * functions' dispatches, in chunk order. */
int rt_function_batch(const RtFunction *f, int64_t *min, int64_t *max);
/* A function of a dynamic length (formats/fxvm.md, "Dynamic length"): 1,
 * with the lengths it takes in [*min, *max]; 0 otherwise.  Its arguments
 * and results have dims -1 where they depend on the length (or on the
 * batch of its padded function); rt_invoke reads the length from the
 * inputs, copies them into layouts for the longest length (kept by the
 * function between calls), runs the padded function and copies its
 * results out at the call's sizes.  Profiles, traces and arenas are
 * those of the padded function. */
int rt_function_length(const RtFunction *f, int64_t *min, int64_t *max);

/* Runs f.  in: nin tensors matching f's arguments.  out: nout (== f's
 * result count) tensors; each with data NULL gets a fresh 64-byte aligned
 * allocation (free with rt_tensor_free), otherwise data must hold nbytes
 * >= the result's size.  Either way dtype, rank, dims and nbytes are set. */
int rt_invoke(RtFunction *f, const RtTensor *in, int nin, RtTensor *out, int nout, RtError *e);

/* Times every dispatch of f's later invocations (CPU); -1: no memory. */
int rt_profile(RtFunction *f, int on);
/* The i-th dispatch of f in program order: its kernel (its display name,
 * dispatch_3_matmul_add@m.py:12, when the module has one), how often it ran
 * and the seconds it took; 0 past the last. */
int rt_profile_entry(const RtFunction *f, int i, const char **kernel, uint64_t *calls, double *secs);

/* Tensors */
size_t rt_dtype_size(RtDtype d);            /* 0 if unknown */
const char *rt_dtype_name(RtDtype d);       /* "f32", "i1", "ui8", ... */
int64_t rt_numel(const RtTensor *t);
void *rt_alloc(size_t n);                    /* 64-byte aligned, NULL on failure */
void rt_free(void *p);                       /* frees what rt_alloc or rt_invoke allocated */
void rt_tensor_free(RtTensor *t);            /* frees data, sets it NULL */
/* "2x3xf32" into buf. */
void rt_type_str(const RtTensor *t, char *buf, size_t n);

/* CPU features in LLVM spelling ("avx512f"): 1 present, 0 absent,
 * -1 unknown to the runtime.  Unknown names make a module unloadable. */
int rt_cpu_has(const char *feature);
int rt_cpu_count(void);     /* the CPUs this process may run on, 1..256 */
/* Checks a "+a,+b,-c" list: 0 if all present, else -1 with a message. */
int rt_cpu_check(const char *features, RtError *e);

/* FXRT_ABI_VERSION of the library loaded (a caller built against another
 * header, or binding it at run time, checks this). */
int rt_abi_version(void);

#ifdef __cplusplus
}
#endif

#endif
