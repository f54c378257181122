/*
 * fma-peak.c - the f32 FMA peak of one core, in GFLOP/s: chains of
 * independent fused multiply-adds in 12 vector registers (enough to cover
 * the FMA latency on two ports), AVX-512 where the compiler targets it,
 * else AVX2.  Build: cc -O2 -mavx512f -mfma fma-peak.c (or -mavx2 -mfma).
 * With -DPEAK_BF16 -mavx512bf16, the same for AVX-512 BF16's dot product
 * (vdpbf16ps: pairs of bf16 products added into f32, two FLOPs a pair);
 * with -DPEAK_F16 -mavx512fp16, for AVX-512 FP16's FMA (vfmadd231ph, f16
 * throughout): what a bf16 or f16 kernel could reach on this core, beside
 * the f32 peak (issue 25: on Intel family 6 model 207 the bf16 dot product
 * reaches half the f32 peak, the f16 FMA twice it).
 */
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

#if defined(PEAK_BF16)
typedef __m512 V;
#define W 32    /* products a lane pair */
#define SET1 _mm512_set1_ps
/* x, y: bf16 pairs, both halves normal numbers */
#define XY(x, y) V x = _mm512_castsi512_ps(_mm512_set1_epi32(0x3f803f80)), \
	y = _mm512_castsi512_ps(_mm512_set1_epi32(0x33803380 + (int)seed))
#define FMA(a, x, y) _mm512_dpbf16_ps(a, (__m512bh)(x), (__m512bh)(y))
#define ADD _mm512_add_ps
#define SUM _mm512_reduce_add_ps
#define ISA "avx512_bf16 vdpbf16ps"
#elif defined(PEAK_F16)
typedef __m512h V;
#define W 32
#define SET1(v) _mm512_set1_ph((_Float16)(v))
#define XY(x, y) V x = SET1(0.999f), y = SET1(seed * 1e-3f)
#define FMA _mm512_fmadd_ph
#define ADD _mm512_add_ph
#define SUM(v) ((float)_mm512_reduce_add_ph(v))
#define ISA "avx512_fp16 vfmadd231ph"
#elif defined(__AVX512F__)
typedef __m512 V;
#define W 16
#define SET1 _mm512_set1_ps
#define XY(x, y) V x = SET1(0.999999f), y = SET1(seed * 1e-7f)
#define FMA _mm512_fmadd_ps
#define ADD _mm512_add_ps
#define SUM _mm512_reduce_add_ps
#define ISA "avx512"
#else
typedef __m256 V;
#define W 8
#define SET1 _mm256_set1_ps
#define XY(x, y) V x = SET1(0.999999f), y = SET1(seed * 1e-7f)
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
	XY(x, y);
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
