/*
 * fma-peak.c - the f32 FMA peak of one core, in GFLOP/s: chains of
 * independent fused multiply-adds in 12 vector registers (enough to cover
 * the FMA latency on two ports), AVX-512 where the compiler targets it,
 * else AVX2.  Build: cc -O2 -mavx512f -mfma fma-peak.c (or -mavx2 -mfma).
 */
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

#ifdef __AVX512F__
typedef __m512 V;
#define W 16
#define SET1 _mm512_set1_ps
#define FMA _mm512_fmadd_ps
#define ADD _mm512_add_ps
#define SUM _mm512_reduce_add_ps
#define ISA "avx512"
#else
typedef __m256 V;
#define W 8
#define SET1 _mm256_set1_ps
#define FMA _mm256_fmadd_ps
#define ADD _mm256_add_ps
#define ISA "avx2"
static float SUM(V v) { float f[8], s = 0; _mm256_storeu_ps(f, v); for (int i = 0; i < 8; i++) s += f[i]; return s; }
#endif
#define NACC 12  /* the a0..a11 of run() */

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

/* n iterations of NACC independent FMAs, in named variables so that they
 * live in registers; the result keeps them alive */
static float run(long n, float seed)
{
	V x = SET1(0.999999f), y = SET1(seed * 1e-7f);
	V a0 = SET1(seed), a1 = SET1(seed + 1), a2 = SET1(seed + 2), a3 = SET1(seed + 3);
	V a4 = SET1(seed + 4), a5 = SET1(seed + 5), a6 = SET1(seed + 6), a7 = SET1(seed + 7);
	V a8 = SET1(seed + 8), a9 = SET1(seed + 9), a10 = SET1(seed + 10), a11 = SET1(seed + 11);
	long i;

	for (i = 0; i < n; i++) {
		a0 = FMA(a0, x, y); a1 = FMA(a1, x, y); a2 = FMA(a2, x, y); a3 = FMA(a3, x, y);
		a4 = FMA(a4, x, y); a5 = FMA(a5, x, y); a6 = FMA(a6, x, y); a7 = FMA(a7, x, y);
		a8 = FMA(a8, x, y); a9 = FMA(a9, x, y); a10 = FMA(a10, x, y); a11 = FMA(a11, x, y);
	}
	a0 = ADD(ADD(ADD(a0, a1), ADD(a2, a3)), ADD(ADD(a4, a5), ADD(a6, a7)));
	return SUM(ADD(a0, ADD(ADD(a8, a9), ADD(a10, a11))));
}

int main(void)
{
	long n = 1L << 20;
	double t, best = 0;
	float sink = 0;
	int rep;

	sink += run(n, 1);  /* warm up, let the clock settle */
	for (rep = 0; rep < 5; rep++) {
		double gf;

		t = now();
		sink += run(n * 8, (float)rep);
		t = now() - t;
		gf = 2.0 * W * NACC * (double)n * 8 / t / 1e9;
		if (gf > best)
			best = gf;
	}
	printf("%.1f %s%s\n", best, ISA, sink == 12345.f ? " " : "");
	return 0;
}
