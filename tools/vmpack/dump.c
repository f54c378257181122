/* dump.c - vmpack --dump: a .vmfb's contents in text, like
 * iree-dump-module.  The file is checked whole (vmfb_check) first. */
#include <stdio.h>
#include <string.h>

#include "pack.h"
#include "rt/vmfb.h"

/* A grid at the call's length: each axis that depends on it. */
static void
dump_grid(FILE *f, const Vmfb *v, const VmfbInst *in)
{
	const VmfbGrid *g = &v->grids[in->grid - 1];
	static const char axis[] = "xyz";

	fprintf(f, "      workgroups at length n (b%u):", v->binds[in->b + g->binding]);
	for (int a = 0, first = 1; a < 3; a++)
		if (g->c[a]) {
			fprintf(f, "%s %c min(%u, ceil((%lld n %c %lld) / %lld))", first ? "" : ",", axis[a],
			    a == 0 ? in->x : a == 1 ? in->y : in->z, (long long)g->c[a], g->d[a] < 0 ? '-' : '+',
			    (long long)(g->d[a] < 0 ? -g->d[a] : g->d[a]), (long long)g->q[a]);
			first = 0;
		}
	fprintf(f, "\n");
}

static void
type_str(const Vmfb *v, uint32_t ti, char *buf, size_t n)
{
	const VmfbType *t = &v->types[ti];
	size_t k = snprintf(buf, n, "tensor<");

	for (uint32_t d = 0; d < t->rank && k < n; d++)
		if (v->dims[t->first_dim + d] == VMFB_DYN)
			k += snprintf(buf + k, n - k, "?x");
		else
			k += snprintf(buf + k, n - k, "%lldx", (long long)v->dims[t->first_dim + d]);
	if (k < n)
		snprintf(buf + k, n - k, "%s>", vmfb_dtype_name(t->dtype));
}

static void
signature(FILE *f, const Vmfb *v, const VmfbFunc *fn)
{
	char ts[512];

	fprintf(f, "  @%s(", vmfb_str(v, fn->name));
	for (uint32_t i = 0; i < fn->nargs; i++) {
		type_str(v, fn->first_arg + i, ts, sizeof ts);
		fprintf(f, "%s%s", i ? ", " : "", ts);
	}
	fprintf(f, ") -> (");
	for (uint32_t i = 0; i < fn->nresults; i++) {
		type_str(v, fn->first_result + i, ts, sizeof ts);
		fprintf(f, "%s%s", i ? ", " : "", ts);
	}
	fprintf(f, ")\n");
}

/* A batched function: its range and chunks; 0 if fn is none. */
static int
batched(FILE *f, const Vmfb *v, const VmfbFunc *fn)
{
	for (size_t i = 0; i < v->nbatch; i++) {
		const VmfbBatch *b = &v->batch[i];
		if (&v->funcs[b->func] != fn)
			continue;
		fprintf(f, "    batch in [%lld, ", (long long)b->min);
		fprintf(f, b->max == INT64_MAX ? "unbounded)" : "%lld]", (long long)b->max);
		fprintf(f, ", chunks");
		for (uint32_t j = 0; j < b->nchunks; j++) {
			const VmfbChunk *c = &v->chunks[b->first_chunk + j];
			fprintf(f, "%s %llu (@%s%s)", j ? "," : "", (unsigned long long)c->size,
			    vmfb_str(v, v->funcs[c->func].name),
			    c->flags & VMFB_CHUNK_BOUNDED ? ", bounded: also fewer items" : "");
		}
		fprintf(f, "\n");
		return 1;
	}
	return 0;
}

/* A function of a dynamic length: its range, its values' sizes in n (B
 * the batch) and its padded function; 0 if fn is none. */
static int
of_length(FILE *f, const Vmfb *v, const VmfbFunc *fn)
{
	for (size_t i = 0; i < v->nlength; i++) {
		const VmfbLength *l = &v->length[i];
		const int64_t *pr = v->dims + l->first_pair;
		if (&v->funcs[l->func] != fn)
			continue;
		size_t k = i;
		while (k + 1 < v->nlength && v->length[k + 1].func == l->func)
			k++;
		fprintf(f, "    length n in [%lld, %lld], run as", (long long)l->min,
		    (long long)v->length[k].max);
		for (size_t j = i; j <= k; j++)
			fprintf(f, "%s @%s (padded to n = %lld)", j > i ? "," : "",
			    vmfb_str(v, v->funcs[v->length[j].padded].name), (long long)v->length[j].max);
		fprintf(f, "\n");
		for (uint32_t j = 0; j < fn->nargs + fn->nresults; j++) {
			const VmfbType *t = &v->types[j < fn->nargs ? fn->first_arg + j
			    : fn->first_result + j - fn->nargs];
			fprintf(f, "    %s %u: [", j < fn->nargs ? "arg" : "result",
			    j < fn->nargs ? j : j - fn->nargs);
			for (uint32_t d = 0; d < t->rank; d++, pr += 2) {
				fprintf(f, "%s", d ? ", " : "");
				if (pr[0] < 0)
					fprintf(f, "B");
				else if (!pr[0])
					fprintf(f, "%lld", (long long)pr[1]);
				else if (pr[0] == 1 && !pr[1])
					fprintf(f, "n");
				else
					fprintf(f, "%lld*n%+lld", (long long)pr[0], (long long)pr[1]);
			}
			fprintf(f, "]\n");
		}
		return 1;
	}
	return 0;
}

/* " WHAT [a, b, c]" */
static void
ints(FILE *f, const char *what, const int64_t *d, uint32_t n)
{
	fprintf(f, "%s [", what);
	for (uint32_t j = 0; j < n; j++)
		fprintf(f, "%s%lld", j ? ", " : "", (long long)d[j]);
	fprintf(f, "]");
}

static void
function(FILE *f, const Vmfb *v, const VmfbFunc *fn)
{
	static const char *const bases[] = {"arg", "result", "arena", "constant"};
	const VmfbBuf *b = v->bufs + fn->first_buf;

	signature(f, v, fn);
	if (batched(f, v, fn) || of_length(f, v, fn))
		return;
	fprintf(f, "    arena %llu bytes, %u buffers, %u instructions\n",
	    (unsigned long long)fn->arena_size, fn->nbufs, fn->ninsts);
	for (uint32_t i = 0; i < fn->nbufs; i++) {
		fprintf(f, "    b%u = %s", i, bases[b[i].base]);
		if (b[i].base == BASE_CONST)
			fprintf(f, " @%s", vmfb_str(v, v->globals[b[i].index].name));
		else if (b[i].base != BASE_ARENA)
			fprintf(f, " %u", b[i].index);
		fprintf(f, "[%llu, %llu)\n", (unsigned long long)b[i].offset,
		    (unsigned long long)(b[i].offset + b[i].size));
	}
	for (uint32_t i = 0; i < fn->ninsts; i++) {
		const VmfbInst *in = &v->insts[fn->first_inst + i];
		switch (in->op) {
		case INST_DISPATCH:
			fprintf(f, "    dispatch @%s[%u, %u, %u](", vmfb_str(v, v->kerns[in->a].name),
			    in->x, in->y, in->z);
			for (uint32_t j = 0; j < in->c; j++)
				fprintf(f, "%sb%u", j ? ", " : "", v->binds[in->b + j]);
			fprintf(f, ")\n");
			if (in->grid)
				dump_grid(f, v, in);
			break;
		case INST_COPY:
			fprintf(f, "    copy b%u -> b%u, %llu bytes\n", in->a, in->b, (unsigned long long)in->n);
			break;
		case INST_FILL:
			fprintf(f, "    fill b%u with 0x%0*llx", in->a, (int)in->c * 2, (unsigned long long)in->n);
			if (in->x) {   /* its interior: offsets and sizes in a shape */
				const int64_t *d = v->dims + in->y;

				ints(f, " outside offsets", d + in->x, in->x);
				ints(f, " sizes", d + 2 * in->x, in->x);
				ints(f, " of", d, in->x);
			}
			fprintf(f, "\n");
			break;
		}
	}
}

int
dump_module(FILE *f, const char *name, const void *p, size_t n, char *err, size_t errn)
{
	Vmfb v;
	char ts[512];

	if (vmfb_check(&v, p, n, err, errn))
		return -1;
	fprintf(f, "%s: fxvm module, version %u, %zu bytes%s\n", name, v.hdr->version, n,
	    v.hdr->flags & VMFB_F_PARAMS ? ", external parameters" : "");
	fprintf(f, "target: %s", v.target->target == TARGET_CPU ? "cpu" : "cuda");
	if (*vmfb_str(&v, v.target->cpu))
		fprintf(f, ", cpu %s", vmfb_str(&v, v.target->cpu));
	if (*vmfb_str(&v, v.target->features))
		fprintf(f, ", features %s", vmfb_str(&v, v.target->features));
	fprintf(f, "\n\nsections:\n");
	for (uint32_t i = 0; i < v.nsec; i++)
		fprintf(f, "  %2u %-13s offset %8llu  size %8llu  crc32c %08x\n", i,
		    vmfb_section_name(v.sec[i].kind), (unsigned long long)v.sec[i].offset,
		    (unsigned long long)v.sec[i].size, v.sec[i].crc);
	fprintf(f, "\nfunctions:\n");
	for (size_t i = 0; i < v.nfuncs; i++)
		function(f, &v, &v.funcs[i]);
	fprintf(f, "\nexecutables:\n");
	for (size_t i = 0; i < v.nexecs; i++)
		fprintf(f, "  @%s: %s, %llu bytes\n", vmfb_str(&v, v.execs[i].name),
		    v.execs[i].format == FMT_PTX ? "ptx" : "elf-x86_64",
		    (unsigned long long)v.sec[v.execs[i].section].size);
	fprintf(f, "\nkernels:\n");
	for (size_t i = 0; i < v.nkerns; i++) {
		const VmfbKern *k = &v.kerns[i];
		fprintf(f, "  @%s: @%s::%s, %u bindings", vmfb_str(&v, k->name),
		    vmfb_str(&v, v.execs[k->exec].name), vmfb_str(&v, k->symbol), k->nbindings);
		if (k->block[0])
			fprintf(f, ", block %ux%ux%u, %u shared bytes", k->block[0], k->block[1],
			    k->block[2], k->shared);
		fprintf(f, "\n");
		if (v.kinfo) {
			const VmfbKernInfo *ki = &v.kinfo[i];
			fprintf(f, "    name %s, %llu bytes, %llu flops", ki->display ? vmfb_str(&v, ki->display)
			    : vmfb_str(&v, k->name), (unsigned long long)ki->bytes, (unsigned long long)ki->flops);
			if (ki->source)
				fprintf(f, ", at %s", vmfb_str(&v, ki->source));
			fprintf(f, "\n");
		}
	}
	fprintf(f, "\nglobals:\n");
	for (size_t i = 0; i < v.nglobals; i++) {
		type_str(&v, v.globals[i].type, ts, sizeof ts);
		if (v.globals[i].param)
			fprintf(f, "  @%s: %s, %llu bytes in parameter '%s' (crc32c %08x)\n",
			    vmfb_str(&v, v.globals[i].name), ts, (unsigned long long)v.globals[i].size,
			    vmfb_str(&v, v.globals[i].param), v.globals[i].crc);
		else
			fprintf(f, "  @%s: %s, %llu bytes at constants+%llu\n", vmfb_str(&v, v.globals[i].name),
			    ts, (unsigned long long)v.globals[i].size, (unsigned long long)v.globals[i].offset);
	}
	fprintf(f, "\nconstants: %zu bytes\n", v.nconsts);
	return 0;
}
