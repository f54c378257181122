/* vmrun.h - vmrun's tensor I/O: --input/--expected_output text, .npy and
 * raw files in; printed text, .npy and raw files out. */
#ifndef VMRUN_H
#define VMRUN_H

#include <stdio.h>

#include "rt/rt.h"

/* Element access, converted. */
double elem_f(const RtTensor *t, int64_t i);
int64_t elem_i(const RtTensor *t, int64_t i);
uint64_t elem_u(const RtTensor *t, int64_t i);
int is_float(RtDtype d);
int is_unsigned(RtDtype d);
int is_complex(RtDtype d);     /* elem_f(t, i) then reads part i (re, im, re, ...) */

/* Parses an --input or --expected_output value (SHAPExTYPE=v,v,...,
 * @file.npy, SHAPExTYPE=@file.bin) into t (data from rt_alloc).  what
 * names it in messages ("input 1").  0, or -1 with a message in err. */
int tensor_parse(const char *spec, RtTensor *t, const char *what, char *err, size_t errn);

/* Prints "2x3xf32=[1 2 3][4 5 6]" and a newline; at most max elements. */
void tensor_print(FILE *f, const RtTensor *t, int64_t max);

/* npy.c: .npy files. */
int npy_read(const char *path, RtTensor *t, char *err, size_t errn);
int npy_write(const char *path, const RtTensor *t, char *err, size_t errn);
int is_npy(const void *p, size_t n);

/* trace.c: --trace=FILE.  trace_open checks the path and opens its
 * temporary (before anything runs); trace_start turns tracing on for f;
 * trace_run closes each invocation; trace_close writes the file. */
typedef struct Trace Trace;
Trace *trace_open(const char *path);
void trace_start(Trace *t, RtFunction *f);
void trace_run(Trace *t, double t0, double t1);
void trace_close(Trace *t, int threads);

/* f16 and bf16 bits <-> float */
float half_to_float(uint16_t h);
uint16_t float_to_half(float f);
float bf16_to_float(uint16_t h);
uint16_t float_to_bf16(float f);

#endif
