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
 * reaches half the f32 peak, the f16 FMA twice it).  With -DPEAK_AMX
 * -mamx-tile -mamx-bf16, AMX's tdpbf16ps on four 16x16 f32 tiles (the
 * layout of codegen's bf16 micro-kernel), its operands in tile registers.
 */
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

#if defined(PEAK_AMX)
#include <sys/syscall.h>
#include <unistd.h>
#define ISA "amx_bf16 tdpbf16ps"
#define FLOPS (4 * 16 * 16 * 32 * 2)   /* an iteration's: four tiles of 16x16 sums of 32 products */
#elif defined(PEAK_BF16)
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
#ifndef FLOPS
#define FLOPS (2 * W * NACC)
#endif

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

#if defined(PEAK_AMX)
/* n iterations of four tdpbf16ps into tiles 0-3 from A tiles 4-5 and B
 * tiles 6-7 (Linux grants the tile state on request: arch_prctl) */
static float run(long n, float seed)
{
	static unsigned short ab[4][16 * 32];
	static float c[16 * 16];
	unsigned char cfg[64] = { 1 };
	long i;
	int t;

	if (syscall(SYS_arch_prctl, 0x1023 /* ARCH_REQ_XCOMP_PERM */, 18 /* XTILEDATA */)) {
		fprintf(stderr, "fma-peak: the OS does not grant AMX's tile state\n");
		_exit(1);
	}
	for (t = 0; t < 8; t++)
		cfg[16 + 2 * t] = 64, cfg[48 + t] = 16;
	for (i = 0; i < 4 * 16 * 32; i++)
		ab[i / 512][i % 512] = (unsigned short)(0x3f80 + (i & 7) + (int)seed);
	_tile_loadconfig(cfg);
	_tile_zero(0);
	_tile_zero(1);
	_tile_zero(2);
	_tile_zero(3);
	_tile_loadd(4, ab[0], 64);
	_tile_loadd(5, ab[1], 64);
	_tile_loadd(6, ab[2], 64);
	_tile_loadd(7, ab[3], 64);
	for (i = 0; i < n; i++) {
		_tile_dpbf16ps(0, 4, 6); _tile_dpbf16ps(1, 4, 7);
		_tile_dpbf16ps(2, 5, 6); _tile_dpbf16ps(3, 5, 7);
	}
	_tile_stored(0, c, 64);
	_tile_release();
	return c[0];
}
#else
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
#endif

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
		gf = (double)FLOPS * (double)n * 8 / t / 1e9;
		if (gf > best)
			best = gf;
	}
	printf("%.1f %s%s\n", best, ISA, sink == 12345.f ? " " : "");
	return 0;
}
