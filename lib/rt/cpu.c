/* cpu.c - which x86-64 features this machine has, by LLVM's names, read
 * with cpuid (and xgetbv for the register state the OS saves). */
#include <stdio.h>
#include <string.h>

#include "rt.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { EAX, EBX, ECX, EDX };
enum { OS_NONE, OS_YMM, OS_ZMM, OS_AMX, ALWAYS };

typedef struct Feature {
	const char *name;
	unsigned leaf, sub;
	unsigned char reg, bit, os;
} Feature;

static const Feature features[] = {
	{"64bit", 0, 0, 0, 0, ALWAYS}, {"x87", 1, 0, EDX, 0, 0}, {"cx8", 1, 0, EDX, 8, 0},
	{"cmov", 1, 0, EDX, 15, 0}, {"mmx", 1, 0, EDX, 23, 0}, {"fxsr", 1, 0, EDX, 24, 0},
	{"sse", 1, 0, EDX, 25, 0}, {"sse2", 1, 0, EDX, 26, 0},
	{"sse3", 1, 0, ECX, 0, 0}, {"pclmul", 1, 0, ECX, 1, 0}, {"ssse3", 1, 0, ECX, 9, 0},
	{"fma", 1, 0, ECX, 12, OS_YMM}, {"cx16", 1, 0, ECX, 13, 0}, {"sse4.1", 1, 0, ECX, 19, 0},
	{"sse4.2", 1, 0, ECX, 20, 0}, {"crc32", 1, 0, ECX, 20, 0}, {"movbe", 1, 0, ECX, 22, 0},
	{"popcnt", 1, 0, ECX, 23, 0}, {"aes", 1, 0, ECX, 25, 0}, {"xsave", 1, 0, ECX, 26, 0},
	{"avx", 1, 0, ECX, 28, OS_YMM}, {"f16c", 1, 0, ECX, 29, OS_YMM}, {"rdrnd", 1, 0, ECX, 30, 0},
	{"fsgsbase", 7, 0, EBX, 0, 0}, {"sgx", 7, 0, EBX, 2, 0}, {"bmi", 7, 0, EBX, 3, 0},
	{"avx2", 7, 0, EBX, 5, OS_YMM}, {"bmi2", 7, 0, EBX, 8, 0}, {"invpcid", 7, 0, EBX, 10, 0},
	{"rtm", 7, 0, EBX, 11, 0}, {"avx512f", 7, 0, EBX, 16, OS_ZMM},
	{"evex512", 7, 0, EBX, 16, OS_ZMM}, {"avx512dq", 7, 0, EBX, 17, OS_ZMM},
	{"rdseed", 7, 0, EBX, 18, 0}, {"adx", 7, 0, EBX, 19, 0},
	{"avx512ifma", 7, 0, EBX, 21, OS_ZMM}, {"clflushopt", 7, 0, EBX, 23, 0},
	{"clwb", 7, 0, EBX, 24, 0}, {"avx512cd", 7, 0, EBX, 28, OS_ZMM}, {"sha", 7, 0, EBX, 29, 0},
	{"avx512bw", 7, 0, EBX, 30, OS_ZMM}, {"avx512vl", 7, 0, EBX, 31, OS_ZMM},
	{"prefetchwt1", 7, 0, ECX, 0, 0}, {"avx512vbmi", 7, 0, ECX, 1, OS_ZMM},
	{"pku", 7, 0, ECX, 3, 0}, {"waitpkg", 7, 0, ECX, 5, 0},
	{"avx512vbmi2", 7, 0, ECX, 6, OS_ZMM}, {"shstk", 7, 0, ECX, 7, 0},
	{"gfni", 7, 0, ECX, 8, 0}, {"vaes", 7, 0, ECX, 9, OS_YMM},
	{"vpclmulqdq", 7, 0, ECX, 10, OS_YMM}, {"avx512vnni", 7, 0, ECX, 11, OS_ZMM},
	{"avx512bitalg", 7, 0, ECX, 12, OS_ZMM}, {"avx512vpopcntdq", 7, 0, ECX, 14, OS_ZMM},
	{"rdpid", 7, 0, ECX, 22, 0}, {"kl", 7, 0, ECX, 23, 0}, {"cldemote", 7, 0, ECX, 25, 0},
	{"movdiri", 7, 0, ECX, 27, 0}, {"movdir64b", 7, 0, ECX, 28, 0}, {"enqcmd", 7, 0, ECX, 29, 0},
	{"uintr", 7, 0, EDX, 5, 0}, {"avx512vp2intersect", 7, 0, EDX, 8, OS_ZMM},
	{"serialize", 7, 0, EDX, 14, 0}, {"tsxldtrk", 7, 0, EDX, 16, 0}, {"pconfig", 7, 0, EDX, 18, 0},
	{"amx-bf16", 7, 0, EDX, 22, OS_AMX}, {"avx512fp16", 7, 0, EDX, 23, OS_ZMM},
	{"amx-tile", 7, 0, EDX, 24, OS_AMX}, {"amx-int8", 7, 0, EDX, 25, OS_AMX},
	{"raoint", 7, 1, EAX, 3, 0}, {"avxvnni", 7, 1, EAX, 4, OS_YMM},
	{"avx512bf16", 7, 1, EAX, 5, OS_ZMM}, {"cmpccxadd", 7, 1, EAX, 7, 0},
	{"amx-fp16", 7, 1, EAX, 21, OS_AMX}, {"hreset", 7, 1, EAX, 22, 0},
	{"avxifma", 7, 1, EAX, 23, OS_YMM}, {"avxvnniint8", 7, 1, EDX, 4, OS_YMM},
	{"avxneconvert", 7, 1, EDX, 5, OS_YMM}, {"prefetchi", 7, 1, EDX, 14, 0},
	{"xsaveopt", 13, 1, EAX, 0, 0}, {"xsavec", 13, 1, EAX, 1, 0}, {"xsaves", 13, 1, EAX, 3, 0},
	{"ptwrite", 0x14, 0, EBX, 4, 0}, {"widekl", 0x19, 0, EBX, 2, 0},
	{"sahf", 0x80000001, 0, ECX, 0, 0}, {"lzcnt", 0x80000001, 0, ECX, 5, 0},
	{"sse4a", 0x80000001, 0, ECX, 6, 0}, {"prfchw", 0x80000001, 0, ECX, 8, 0},
	{"xop", 0x80000001, 0, ECX, 11, OS_YMM}, {"lwp", 0x80000001, 0, ECX, 15, 0},
	{"fma4", 0x80000001, 0, ECX, 16, OS_YMM}, {"tbm", 0x80000001, 0, ECX, 21, 0},
	{"mwaitx", 0x80000001, 0, ECX, 29, 0}, {"clzero", 0x80000008, 0, EBX, 0, 0},
	{"rdpru", 0x80000008, 0, EBX, 4, 0}, {"wbnoinvd", 0x80000008, 0, EBX, 9, 0},
};

static unsigned long long
xcr0(void)
{
	unsigned a, b, c, d, lo, hi;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)))  /* OSXSAVE */
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (unsigned long long)hi << 32 | lo;
}

/* Linux hands out AMX tile state only on request. */
static int
amx_permitted(void)
{
	static int state;   /* 0 unknown, 1 yes, 2 no */

	if (!state) {
#ifdef SYS_arch_prctl
		state = syscall(SYS_arch_prctl, 0x1023 /* ARCH_REQ_XCOMP_PERM */, 18) == 0 ? 1 : 2;
#else
		state = 2;
#endif
	}
	return state == 1;
}

static int
has(const Feature *f)
{
	unsigned r[4] = {0}, max = __get_cpuid_max(f->leaf & 0x80000000u, NULL);
	unsigned long long x;

	if (f->os == ALWAYS)
		return 1;
	if (max < f->leaf || !__get_cpuid_count(f->leaf, f->sub, &r[0], &r[1], &r[2], &r[3]))
		return 0;
	if (!(r[f->reg] >> f->bit & 1))
		return 0;
	x = f->os ? xcr0() : 0;
	switch (f->os) {
	case OS_YMM: return (x & 6) == 6;
	case OS_ZMM: return (x & 0xe6) == 0xe6;
	case OS_AMX: return (x & 0x60000) == 0x60000 && amx_permitted();
	}
	return 1;
}

int
rt_cpu_has(const char *name)
{
	for (size_t i = 0; i < sizeof features / sizeof *features; i++)
		if (!strcmp(features[i].name, name))
			return has(&features[i]);
	return -1;
}

int
rt_cpu_amd(void)
{
	unsigned a, b, c, d;

	/* "AuthenticAMD" in ebx, edx, ecx */
	return __get_cpuid(0, &a, &b, &c, &d) && b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163;
}
#else
int
rt_cpu_has(const char *name)
{
	return -1;
}

int
rt_cpu_amd(void)
{
	return 0;
}
#endif

int
rt_cpu_check(const char *list, RtError *e)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");
		char name[64];
		if (n && *p == '+') {
			if (n - 1 >= sizeof name) {
				snprintf(e->msg, sizeof e->msg, "unknown CPU feature '%.*s'", (int)n, p);
				return -1;
			}
			memcpy(name, p + 1, n - 1);
			name[n - 1] = 0;
			switch (rt_cpu_has(name)) {
			case -1:
				snprintf(e->msg, sizeof e->msg, "unknown CPU feature '%s'", name);
				return -1;
			case 0:
				snprintf(e->msg, sizeof e->msg,
				    "the module's kernels need the CPU feature '%s', which this machine lacks", name);
				return -1;
			}
		} else if (n && *p != '-') {
			snprintf(e->msg, sizeof e->msg, "CPU feature '%.*s' does not start with + or -", (int)n, p);
			return -1;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}
