/*
 * elf.c - links an x86-64 ELF relocatable object (as LLVM or GCC emit it,
 * with or without -fPIC) into this process: lays its allocated sections
 * out in one mapping (code pages, then data pages), resolves undefined
 * symbols against a fixed table (the C math library, memcpy, memmove,
 * memset and a few compiler helpers), applies the relocations, and makes
 * the code read-only and executable.  Every header, offset, size and index
 * in the object is checked first: a bad object is an error, not a crash.
 *
 * References to the table's functions that must fit in 32 bits (calls,
 * -fno-pic addresses) go through 16-byte stubs beside the code when the
 * function is out of reach; GOT-relative loads get a GOT in the data pages.
 * Objects with 32-bit absolute relocations (-fno-pic) are mapped in the
 * low 2 GiB (MAP_32BIT).
 */
#include <elf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_impl.h"

#ifndef SHT_X86_64_UNWIND
#define SHT_X86_64_UNWIND 0x70000001
#endif
#ifndef R_X86_64_GOTPCRELX
#define R_X86_64_GOTPCRELX 41
#define R_X86_64_REX_GOTPCRELX 42
#endif

/* ---- the symbols kernels may call ---- */

#if defined(__FLT16_MAX__)
static float ext_hf(_Float16 x) { return x; }
static _Float16 trunc_sf(float x) { return (_Float16)x; }
static _Float16 trunc_df(double x) { return (_Float16)x; }
#endif
extern float __powisf2(float, int);
extern double __powidf2(double, int);

#define F(name) {#name, (void *)name}
#define FD(name) F(name), F(name##f)
static const struct Import {
	const char *name;
	void *addr;
} imports[] = {
	F(memcpy), F(memmove), F(memset),
	FD(exp), FD(exp2), FD(expm1), FD(exp10), FD(log), FD(log2), FD(log10), FD(log1p),
	FD(pow), FD(sqrt), FD(cbrt), FD(sin), FD(cos), FD(tan), FD(sincos), FD(asin),
	FD(acos), FD(atan), FD(atan2), FD(sinh), FD(cosh), FD(tanh), FD(asinh),
	FD(acosh), FD(atanh), FD(erf), FD(erfc), FD(tgamma), FD(lgamma), FD(fabs),
	FD(floor), FD(ceil), FD(round), FD(roundeven), FD(trunc), FD(rint),
	FD(nearbyint), FD(fmod), FD(remainder), FD(fmin), FD(fmax), FD(fma),
	FD(copysign), FD(ldexp), FD(frexp), FD(hypot), FD(lround), FD(llround),
	FD(lrint), FD(llrint),
	{"__powisf2", (void *)__powisf2}, {"__powidf2", (void *)__powidf2},
#if defined(__FLT16_MAX__)
	{"__extendhfsf2", (void *)ext_hf}, {"__gnu_h2f_ieee", (void *)ext_hf},
	{"__truncsfhf2", (void *)trunc_sf}, {"__gnu_f2h_ieee", (void *)trunc_sf},
	{"__truncdfhf2", (void *)trunc_df},
#endif
};
#undef F
#undef FD

static void *
import_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof imports / sizeof *imports; i++)
		if (!strcmp(imports[i].name, name))
			return imports[i].addr;
	return NULL;
}

/* ---- the loader ---- */

typedef struct Link {
	RtObject *o;
	char *err;
	size_t errn;
	const uint8_t *img;
	size_t n;
	Elf64_Ehdr eh;
	Elf64_Shdr *sh;         /* eh.e_shnum headers */
	const char *shstr;
	size_t nshstr;
	int symtab;             /* section index */
	size_t *secoff;         /* per section: offset in mem, or SIZE_MAX */
	int32_t *got, *stub;    /* per symbol: slot number or -1 */
	int ngot, nstub;
	size_t code, data;      /* bytes of each group */
	size_t gotoff, stuboff;
	uint64_t *commonoff;    /* per symbol: data offset of a COMMON symbol */
	int low;                /* needs MAP_32BIT */
} Link;

static int
fail(Link *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->err, l->errn, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *
secname(Link *l, int i)
{
	uint32_t off = l->sh[i].sh_name;

	if (!l->shstr || off >= l->nshstr)
		return "?";
	return l->shstr + off;
}

static Elf64_Sym
sym_at(Link *l, size_t i)
{
	Elf64_Sym s;

	memcpy(&s, (const uint8_t *)l->o->syms + i * sizeof s, sizeof s);
	return s;
}

static const char *
sym_name(Link *l, const Elf64_Sym *s)
{
	if (s->st_name >= l->o->nsymstr)
		return NULL;
	return l->o->symstr + s->st_name;
}

static int
is_string_table(Link *l, int i, const char **p, size_t *n)
{
	const Elf64_Shdr *s = &l->sh[i];

	if (s->sh_type != SHT_STRTAB || s->sh_size == 0
	    || l->img[s->sh_offset + s->sh_size - 1] != 0)
		return 0;
	*p = (const char *)l->img + s->sh_offset;
	*n = s->sh_size;
	return 1;
}

static int
read_headers(Link *l)
{
	size_t shnum;

	if (l->n < sizeof l->eh)
		return fail(l, "object of %zu bytes is shorter than an ELF header", l->n);
	memcpy(&l->eh, l->img, sizeof l->eh);
	if (memcmp(l->eh.e_ident, ELFMAG, SELFMAG))
		return fail(l, "not an ELF object (bad magic)");
	if (l->eh.e_ident[EI_CLASS] != ELFCLASS64 || l->eh.e_ident[EI_DATA] != ELFDATA2LSB
	    || l->eh.e_machine != EM_X86_64)
		return fail(l, "not a 64-bit little-endian x86-64 ELF object");
	if (l->eh.e_type != ET_REL)
		return fail(l, "ELF type %u is not a relocatable object", l->eh.e_type);
	shnum = l->eh.e_shnum;
	if (l->eh.e_shentsize != sizeof(Elf64_Shdr) || shnum == 0 || l->eh.e_shoff > l->n
	    || (l->n - l->eh.e_shoff) / sizeof(Elf64_Shdr) < shnum)
		return fail(l, "ELF section headers are not inside the object");
	if (l->eh.e_shstrndx >= shnum)
		return fail(l, "ELF section name table index %u is out of range", l->eh.e_shstrndx);
	l->sh = malloc(shnum * sizeof *l->sh);
	l->secoff = malloc(shnum * sizeof *l->secoff);
	if (!l->sh || !l->secoff)
		return fail(l, "out of memory");
	memcpy(l->sh, l->img + l->eh.e_shoff, shnum * sizeof *l->sh);
	for (size_t i = 0; i < shnum; i++) {
		Elf64_Shdr *s = &l->sh[i];
		l->secoff[i] = SIZE_MAX;
		if (s->sh_type != SHT_NOBITS && s->sh_type != SHT_NULL
		    && (s->sh_offset > l->n || s->sh_size > l->n - s->sh_offset))
			return fail(l, "ELF section %zu is not inside the object", i);
		if (s->sh_addralign > 4096 || (s->sh_addralign & (s->sh_addralign - 1)))
			return fail(l, "ELF section %zu has alignment %llu", i,
			    (unsigned long long)s->sh_addralign);
		if (s->sh_size > ((uint64_t)1 << 32))
			return fail(l, "ELF section %zu is too large", i);
	}
	if (!is_string_table(l, l->eh.e_shstrndx, &l->shstr, &l->nshstr))
		return fail(l, "ELF section name table is malformed");
	l->symtab = -1;
	for (size_t i = 0; i < shnum; i++) {
		Elf64_Shdr *s = &l->sh[i];
		if (s->sh_type != SHT_SYMTAB)
			continue;
		if (l->symtab >= 0)
			return fail(l, "two ELF symbol tables");
		if (s->sh_entsize != sizeof(Elf64_Sym) || s->sh_size % sizeof(Elf64_Sym)
		    || s->sh_link >= shnum
		    || !is_string_table(l, s->sh_link, &l->o->symstr, &l->o->nsymstr))
			return fail(l, "ELF symbol table is malformed");
		l->symtab = i;
		l->o->syms = l->img + s->sh_offset;
		l->o->nsyms = s->sh_size / sizeof(Elf64_Sym);
	}
	if (l->symtab < 0)
		return fail(l, "the object has no symbol table");
	return 0;
}

static size_t
align_up(size_t v, size_t a)
{
	return a > 1 ? (v + a - 1) & ~(a - 1) : v;
}

/* Which sections to load, and where. */
static int
layout(Link *l)
{
	for (int i = 0; i < l->eh.e_shnum; i++) {
		Elf64_Shdr *s = &l->sh[i];
		const char *name = secname(l, i);
		size_t *grp;
		if (s->sh_flags & SHF_TLS)
			return fail(l, "section '%s' is thread-local storage, which kernels may not use", name);
		if ((s->sh_type == SHT_INIT_ARRAY || s->sh_type == SHT_FINI_ARRAY
		     || s->sh_type == SHT_PREINIT_ARRAY || !strcmp(name, ".ctors")
		     || !strcmp(name, ".dtors")) && s->sh_size)
			return fail(l, "section '%s' holds static constructors, which kernels may not have", name);
		if (!(s->sh_flags & SHF_ALLOC) || s->sh_type == SHT_X86_64_UNWIND
		    || !strcmp(name, ".eh_frame") || s->sh_type == SHT_GROUP)
			continue;
		if (s->sh_type != SHT_PROGBITS && s->sh_type != SHT_NOBITS && s->sh_type != SHT_NOTE)
			return fail(l, "section '%s' has unsupported type %u", name, s->sh_type);
		grp = s->sh_flags & SHF_EXECINSTR ? &l->code : &l->data;
		*grp = align_up(*grp, s->sh_addralign);
		l->secoff[i] = *grp;
		*grp += s->sh_size;
	}
	return 0;
}

/* Counts the GOT slots and call stubs the relocations need, and lays out
 * COMMON symbols. */
static int
scan_relocs(Link *l)
{
	size_t nsyms = l->o->nsyms;

	l->got = malloc((nsyms + 1) * sizeof *l->got);
	l->stub = malloc((nsyms + 1) * sizeof *l->stub);
	l->commonoff = calloc(nsyms + 1, sizeof *l->commonoff);
	if (!l->got || !l->stub || !l->commonoff)
		return fail(l, "out of memory");
	for (size_t i = 0; i < nsyms; i++) {
		Elf64_Sym s = sym_at(l, i);
		l->got[i] = l->stub[i] = -1;
		if (s.st_shndx == SHN_COMMON) {
			uint64_t al = s.st_value ? s.st_value : 1;
			if (al > 4096 || (al & (al - 1)) || s.st_size > ((uint64_t)1 << 32))
				return fail(l, "COMMON symbol %zu is malformed", i);
			l->data = align_up(l->data, al);
			l->commonoff[i] = l->data;
			l->data += s.st_size;
		}
	}
	for (int i = 0; i < l->eh.e_shnum; i++) {
		Elf64_Shdr *s = &l->sh[i];
		if (s->sh_type == SHT_REL && s->sh_info < l->eh.e_shnum && l->secoff[s->sh_info] != SIZE_MAX)
			return fail(l, "section '%s': REL relocations (without addends) are not supported", secname(l, i));
		if (s->sh_type != SHT_RELA || s->sh_info >= l->eh.e_shnum || l->secoff[s->sh_info] == SIZE_MAX)
			continue;
		if (s->sh_entsize != sizeof(Elf64_Rela) || s->sh_size % sizeof(Elf64_Rela)
		    || s->sh_link != (unsigned)l->symtab)
			return fail(l, "relocation section '%s' is malformed", secname(l, i));
		for (size_t j = 0; j < s->sh_size / sizeof(Elf64_Rela); j++) {
			Elf64_Rela r;
			memcpy(&r, l->img + s->sh_offset + j * sizeof r, sizeof r);
			size_t si = ELF64_R_SYM(r.r_info);
			unsigned type = ELF64_R_TYPE(r.r_info);
			if (si >= nsyms)
				return fail(l, "relocation %zu in '%s' names symbol %zu of %zu", j, secname(l, i), si, nsyms);
			Elf64_Sym sym = sym_at(l, si);
			switch (type) {
			case R_X86_64_GOTPCREL: case R_X86_64_GOTPCRELX: case R_X86_64_REX_GOTPCRELX:
				if (l->got[si] < 0)
					l->got[si] = l->ngot++;
				break;
			case R_X86_64_32: case R_X86_64_32S:
				l->low = 1;
				/* fall through */
			case R_X86_64_PLT32: case R_X86_64_PC32:
				/* A function of the table may be out of 32-bit reach:
				 * such references go to a stub beside the code. */
				if (sym.st_shndx == SHN_UNDEF && si && l->stub[si] < 0)
					l->stub[si] = l->nstub++;
				break;
			}
		}
	}
	l->code = align_up(l->code, 16);
	l->stuboff = l->code;
	l->code += (size_t)l->nstub * 16;
	l->data = align_up(l->data, 8);
	l->gotoff = l->data;
	l->data += (size_t)l->ngot * 8;
	return 0;
}

static int
resolve_symbols(Link *l)
{
	RtObject *o = l->o;
	size_t page = sysconf(_SC_PAGESIZE), codepages = align_up(l->code, page);

	o->symaddr = calloc(o->nsyms + 1, sizeof *o->symaddr);
	if (!o->symaddr)
		return fail(l, "out of memory");
	for (size_t i = 1; i < o->nsyms; i++) {
		Elf64_Sym s = sym_at(l, i);
		const char *name = sym_name(l, &s);
		if (!name)
			return fail(l, "symbol %zu has a name outside the string table", i);
		if (s.st_shndx == SHN_UNDEF) {
			void *a = *name ? import_lookup(name) : NULL;
			o->symaddr[i] = (uint64_t)(uintptr_t)a;
		} else if (s.st_shndx == SHN_ABS) {
			o->symaddr[i] = s.st_value;
		} else if (s.st_shndx == SHN_COMMON) {
			o->symaddr[i] = (uint64_t)(uintptr_t)(o->mem + codepages + l->commonoff[i]);
		} else if (s.st_shndx < l->eh.e_shnum && l->secoff[s.st_shndx] != SIZE_MAX) {
			Elf64_Shdr *sec = &l->sh[s.st_shndx];
			size_t base = l->secoff[s.st_shndx] + (sec->sh_flags & SHF_EXECINSTR ? 0 : codepages);
			if (s.st_value > sec->sh_size)
				return fail(l, "symbol '%s' lies outside its section", name);
			o->symaddr[i] = (uint64_t)(uintptr_t)(o->mem + base + s.st_value);
		}
	}
	return 0;
}

/* The address of symbol si for a relocation, or an error. */
static int
sym_addr(Link *l, size_t si, uint64_t *a)
{
	Elf64_Sym s;
	const char *name;

	if (si == 0) {
		*a = 0;
		return 0;
	}
	s = sym_at(l, si);
	name = sym_name(l, &s);
	*a = l->o->symaddr[si];
	if (*a || (s.st_shndx == SHN_ABS) || (s.st_shndx == SHN_UNDEF && ELF64_ST_BIND(s.st_info) == STB_WEAK))
		return 0;
	if (s.st_shndx == SHN_UNDEF)
		return fail(l, "undefined symbol '%s' (kernels may call only the C math "
		    "library, memcpy, memmove and memset)", name);
	return fail(l, "symbol '%s' is in a section that is not loaded", name);
}

static int
put32(Link *l, uint8_t *p, int64_t v, int is_signed, const char *what)
{
	int32_t s32 = (int32_t)v;
	uint32_t u32 = (uint32_t)v;

	if (is_signed ? v != s32 : (uint64_t)v != u32)
		return fail(l, "%s relocation out of range (0x%llx)", what, (unsigned long long)v);
	memcpy(p, &u32, 4);
	return 0;
}

static int
apply_relocs(Link *l)
{
	RtObject *o = l->o;
	size_t page = sysconf(_SC_PAGESIZE), codepages = align_up(l->code, page);
	uint8_t *stubs = o->mem + l->stuboff;
	uint64_t *got = (uint64_t *)(o->mem + codepages + l->gotoff);

	for (int i = 0; i < l->eh.e_shnum; i++) {
		Elf64_Shdr *s = &l->sh[i];
		if (s->sh_type != SHT_RELA || s->sh_info >= l->eh.e_shnum || l->secoff[s->sh_info] == SIZE_MAX)
			continue;
		Elf64_Shdr *t = &l->sh[s->sh_info];
		uint8_t *tbase = o->mem + l->secoff[s->sh_info] + (t->sh_flags & SHF_EXECINSTR ? 0 : codepages);
		if (t->sh_type == SHT_NOBITS)
			return fail(l, "relocations against the empty section '%s'", secname(l, s->sh_info));
		for (size_t j = 0; j < s->sh_size / sizeof(Elf64_Rela); j++) {
			Elf64_Rela r;
			memcpy(&r, l->img + s->sh_offset + j * sizeof r, sizeof r);
			size_t si = ELF64_R_SYM(r.r_info);
			unsigned type = ELF64_R_TYPE(r.r_info);
			unsigned width = type == R_X86_64_64 || type == R_X86_64_PC64 ? 8 : 4;
			uint64_t S, P, A = (uint64_t)r.r_addend;
			uint8_t *at;
			if (type == R_X86_64_NONE)
				continue;
			if (r.r_offset > t->sh_size || t->sh_size - r.r_offset < width)
				return fail(l, "relocation %zu in '%s' is outside its section", j, secname(l, i));
			at = tbase + r.r_offset;
			if (sym_addr(l, si, &S))
				return -1;
			P = (uint64_t)(uintptr_t)at;
			if (l->stub[si] >= 0 && type != R_X86_64_64 && type != R_X86_64_PC64) {
				uint8_t *stub = stubs + (size_t)l->stub[si] * 16;
				static const uint8_t jmp[6] = {0xff, 0x25, 0, 0, 0, 0};  /* jmp *0(%rip) */
				memcpy(stub, jmp, 6);
				memcpy(stub + 6, &S, 8);
				int64_t d = (int64_t)(S + A - P);
				if (type == R_X86_64_32 || type == R_X86_64_32S || d != (int32_t)d)
					S = (uint64_t)(uintptr_t)stub;
			}
			switch (type) {
			case R_X86_64_64: {
				uint64_t v = S + A;
				memcpy(at, &v, 8);
				break;
			}
			case R_X86_64_PC64: {
				uint64_t v = S + A - P;
				memcpy(at, &v, 8);
				break;
			}
			case R_X86_64_PLT32:
			case R_X86_64_PC32:
				if (put32(l, at, (int64_t)(S + A - P), 1, "PC32"))
					return -1;
				break;
			case R_X86_64_GOTPCREL: case R_X86_64_GOTPCRELX: case R_X86_64_REX_GOTPCRELX: {
				uint64_t *slot = &got[l->got[si]];
				*slot = S;
				if (put32(l, at, (int64_t)((uint64_t)(uintptr_t)slot + A - P), 1, "GOTPCREL"))
					return -1;
				break;
			}
			case R_X86_64_32:
				if (put32(l, at, (int64_t)(S + A), 0, "32-bit absolute"))
					return -1;
				break;
			case R_X86_64_32S:
				if (put32(l, at, (int64_t)(S + A), 1, "32-bit absolute"))
					return -1;
				break;
			default:
				return fail(l, "relocation type %u in '%s' is not supported", type, secname(l, i));
			}
		}
	}
	return 0;
}

int
rt_elf_load(RtObject *o, const void *img, size_t n, char *err, size_t errn)
{
	Link l = {o, err, errn, img, n};
	size_t page = sysconf(_SC_PAGESIZE), codepages, total;
	int rc = -1;

	memset(o, 0, sizeof *o);
	o->img = img;
	o->nimg = n;
	if (read_headers(&l) || layout(&l) || scan_relocs(&l))
		goto done;
	codepages = align_up(l.code, page);
	total = codepages + align_up(l.data, page);
	if (total == 0)
		total = page;
	void *mem = mmap(NULL, total, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | (l.low ? MAP_32BIT : 0), -1, 0);
	if (mem == MAP_FAILED) {
		fail(&l, "cannot map %zu bytes for the kernels", total);
		goto done;
	}
	o->mem = mem;
	o->size = total;
	for (int i = 0; i < l.eh.e_shnum; i++) {
		Elf64_Shdr *s = &l.sh[i];
		if (l.secoff[i] == SIZE_MAX || s->sh_type == SHT_NOBITS)
			continue;
		memcpy(o->mem + l.secoff[i] + (s->sh_flags & SHF_EXECINSTR ? 0 : codepages),
		    l.img + s->sh_offset, s->sh_size);
	}
	if (resolve_symbols(&l) || apply_relocs(&l))
		goto done;
	if (codepages && mprotect(o->mem, codepages, PROT_READ | PROT_EXEC)) {
		fail(&l, "cannot make the kernels executable");
		goto done;
	}
	rc = 0;
done:
	free(l.sh);
	free(l.secoff);
	free(l.got);
	free(l.stub);
	free(l.commonoff);
	if (rc)
		rt_elf_free(o);
	return rc;
}

void *
rt_elf_sym(const RtObject *o, const char *name)
{
	for (size_t i = 1; i < o->nsyms; i++) {
		Elf64_Sym s;
		memcpy(&s, (const uint8_t *)o->syms + i * sizeof s, sizeof s);
		int bind = ELF64_ST_BIND(s.st_info), type = ELF64_ST_TYPE(s.st_info);
		if (s.st_shndx == SHN_UNDEF || (bind != STB_GLOBAL && bind != STB_WEAK)
		    || (type != STT_FUNC && type != STT_NOTYPE))
			continue;
		if (s.st_name < o->nsymstr && !strcmp(o->symstr + s.st_name, name))
			return (void *)(uintptr_t)o->symaddr[i];
	}
	return NULL;
}

/* perf's map of JIT code (perf-PID.map): "START SIZE NAME" in hex for
 * each function the object defines, so that perf report names the
 * kernels it samples. */
void
rt_elf_perf_map(const RtObject *o, FILE *f)
{
	for (size_t i = 1; i < o->nsyms; i++) {
		Elf64_Sym s;
		memcpy(&s, (const uint8_t *)o->syms + i * sizeof s, sizeof s);
		if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF ||
		    !o->symaddr[i] || !s.st_size || s.st_name >= o->nsymstr)
			continue;
		fprintf(f, "%llx %llx %s\n", (unsigned long long)o->symaddr[i],
		    (unsigned long long)s.st_size, o->symstr + s.st_name);
	}
}

void
rt_elf_free(RtObject *o)
{
	if (o->mem)
		munmap(o->mem, o->size);
	free(o->symaddr);
	memset(o, 0, sizeof *o);
}

/* The whole load, for a packer to refuse an object the loader would. */
int
rt_object_check(const void *img, size_t n, const char *sym, char *err, size_t errn)
{
	RtObject o;
	int rc = 0;

	if (rt_elf_load(&o, img, n, err, errn))
		return -1;
	if (sym && !rt_elf_sym(&o, sym))
		rc = 1;
	rt_elf_free(&o);
	return rc;
}
