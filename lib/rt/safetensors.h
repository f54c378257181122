/*
 * safetensors.h - a strict reader of safetensors headers, for external
 * parameters (vmpack --params, vmrun --parameters): an 8-byte little-endian
 * header length N, N bytes of JSON mapping each tensor's name to its
 * dtype, shape and data_offsets (relative to the data after the header),
 * then the data.  Needs nothing but libc: the runtime links it.
 */
#ifndef FX_RT_SAFETENSORS_H
#define FX_RT_SAFETENSORS_H

#include <stddef.h>
#include <stdint.h>

typedef struct StTensor {
	char *name;
	char dtype[8];             /* "F32", "BF16", ... */
	int rank;
	int64_t shape[16];
	uint64_t begin, end;       /* bytes of the data section */
} StTensor;

typedef struct StFile {
	const uint8_t *data;       /* the data section, inside the caller's bytes */
	uint64_t ndata;
	StTensor *t;               /* sorted by name */
	size_t n;
	char *producer;            /* __metadata__'s "producer", or NULL */
} StFile;

/* Checks p[0..n) whole: the header's JSON (an object of tensors, each with
 * exactly dtype, shape and data_offsets, and an optional __metadata__ of
 * strings), known dtypes, sizes that match the shapes, offsets inside the
 * data, no duplicate names, no overlaps and no holes.  0, or -1 with a
 * message in err ("tensor 'fc.weight': ..."). */
int st_parse(StFile *f, const uint8_t *p, size_t n, char *err, size_t errn);
const StTensor *st_find(const StFile *f, const char *name);
void st_free(StFile *f);
/* Element size of a safetensors dtype name; 0 if unknown. */
size_t st_dtype_size(const char *dtype);

#endif
