/* kernels.c - hand-written CPU kernels for the vmrun tests, in the fxvm
 * kernel ABI (formats/fxvm.md).  gen.sh compiles this file several ways
 * (gcc -fno-pic, gcc -fPIC -fno-plt, clang's default) so that the loader
 * meets every relocation type the x86-64 backends emit. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#define KERNEL(name) void name(void *const *b, int64_t wx, int64_t wy, int64_t wz, \
	int64_t nx, int64_t ny, int64_t nz)

/* o = a + c over 1000 floats, 64 per workgroup: grid [16, 1, 1]. */
KERNEL(add_1000)
{
	const float *a = b[0], *c = b[1];
	float *o = b[2];
	int64_t lo = wx * 64, hi = lo + 64 < 1000 ? lo + 64 : 1000;

	for (int64_t i = lo; i < hi; i++)
		o[i] = a[i] + c[i];
}

/* One element per workgroup of a 3-D grid [8, 4, 2] over 2x4x8 floats:
 * o = 2a + the workgroup's id, so that a misplaced workgroup shows. */
KERNEL(grid3d)
{
	const float *a = b[0];
	float *o = b[1];
	int64_t i = (wz * ny + wy) * nx + wx;

	o[i] = 2 * a[i] + (float)(wx + 10 * wy + 100 * wz);
}

/* o = expf(a) over 6 floats (a libm call). */
KERNEL(exp_6)
{
	const float *a = b[0];
	float *o = b[1];

	for (int i = 0; i < 6; i++)
		o[i] = expf(a[i]);
}

/* .rodata: a table, a jump table, pointers to tables (R_X86_64_64). */
static const float table[8] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f};
static const float tens[4] = {10, 20, 30, 40};
static const float *const tables[2] = {table, tens};

__attribute__((noinline)) static float
pick(int k, float x)
{
	switch (k) {
	case 0: return x + 1000;
	case 1: return x * 3;
	case 2: return x - 7;
	case 3: return -x;
	case 4: return x * x;
	case 5: return x / 4;
	case 6: return x + 0.25f;
	default: return 0;
	}
}

/* Takes a table's address as an argument (R_X86_64_32 with -fno-pic). */
#if defined(__clang__)
__attribute__((noinline)) static float
#else
__attribute__((noipa)) static float
#endif
second(const float *p)
{
	return p[1];
}

/* o[i] = pick(idx[i] % 7, table[idx[i] % 8]) + tables[i % 2][i % 4]
 * + second(tens) over 8 i32 indices. */
KERNEL(lookup_8)
{
	const int32_t *idx = b[0];
	float *o = b[1];

	for (int i = 0; i < 8; i++) {
		int k = idx[i] & 0xffff;
		o[i] = pick(k % 7, table[k % 8]) + tables[i % 2][i % 4] + second(tens);
	}
}

/* y[1x3] = x[1x4] @ w[4x3] + bias[3] (the seed LinearModule). */
KERNEL(linear)
{
	const float *x = b[0], *w = b[1], *bias = b[2];
	float *y = b[3];

	for (int j = 0; j < 3; j++) {
		float s = bias[j];
		for (int k = 0; k < 4; k++)
			s += x[k] * w[k * 3 + j];
		y[j] = s;
	}
}

/* A function pointer taken at run time (GOTPCREL with -fPIC) and memcpy,
 * memset: o = tanhf(a) over 6 floats, via a scratch copy. */
KERNEL(tanh_6)
{
	float (*volatile f)(float) = tanhf;
	float tmp[8];

	memset(tmp, 0, sizeof tmp);
	memcpy(tmp, b[0], 6 * sizeof(float));
	for (int i = 0; i < 6; i++)
		((float *)b[1])[i] = f(tmp[i]);
}

/* Writes its workgroup id to every element it owns: o[i] = i / 250 over
 * 1000 i32 with grid [4, 1, 1], for the thread tests. */
KERNEL(owner_1000)
{
	int32_t *o = b[0];

	for (int64_t i = wx * 250; i < (wx + 1) * 250; i++)
		o[i] = (int32_t)(i / 250 + 1000 * wx);
}
