/*
 * hex.c - hexadecimal encoding and decoding of byte blobs.
 *
 * Resource blobs (the weights of a model) travel between the tools as hex
 * text hundreds of MB long, so these are the hot loops of parsing and
 * printing: 16 bytes at a time with SSE2 where the compiler targets it
 * (every x86-64), decoding 32 at a time with AVX2 where the CPU has it,
 * a table per digit elsewhere.
 */
#include <stdatomic.h>
#include <stdint.h>

#include "ir.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HEX_AVX2 1
#endif

static const char hexdig[] = "0123456789ABCDEF";

/* Each character's value plus one, 0 for a non-digit: a constant table,
 * so that threads decoding at once need no lazy set-up. */
#define DIG(c, v) [c] = (v) + 1
static const unsigned char dec_tab[256] = {
	DIG('0', 0), DIG('1', 1), DIG('2', 2), DIG('3', 3), DIG('4', 4),
	DIG('5', 5), DIG('6', 6), DIG('7', 7), DIG('8', 8), DIG('9', 9),
	DIG('a', 10), DIG('b', 11), DIG('c', 12), DIG('d', 13), DIG('e', 14), DIG('f', 15),
	DIG('A', 10), DIG('B', 11), DIG('C', 12), DIG('D', 13), DIG('E', 14), DIG('F', 15),
};
#undef DIG

void hex_encode(char *out, const void *data, size_t n)
{
	const uint8_t *in = data;
	size_t i = 0;

#if defined(__SSE2__)
	{
		const __m128i lo4 = _mm_set1_epi8(0x0F), nine = _mm_set1_epi8(9),
			zero = _mm_set1_epi8('0'), gap = _mm_set1_epi8('A' - '0' - 10);

		for (; i + 16 <= n; i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(in + i));
			__m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), lo4);
			__m128i lo = _mm_and_si128(v, lo4);
			__m128i a = _mm_unpacklo_epi8(hi, lo), b = _mm_unpackhi_epi8(hi, lo);

			a = _mm_add_epi8(_mm_add_epi8(a, zero),
				_mm_and_si128(_mm_cmpgt_epi8(a, nine), gap));
			b = _mm_add_epi8(_mm_add_epi8(b, zero),
				_mm_and_si128(_mm_cmpgt_epi8(b, nine), gap));
			_mm_storeu_si128((__m128i *)(out + 2 * i), a);
			_mm_storeu_si128((__m128i *)(out + 2 * i + 16), b);
		}
	}
#endif
	for (; i < n; i++) {
		out[2 * i] = hexdig[in[i] >> 4];
		out[2 * i + 1] = hexdig[in[i] & 15];
	}
}

#if defined(__SSE2__)
/* The value of each of 16 hex digits; sets *bad where one is not a digit. */
static inline __m128i nibbles(__m128i c, __m128i *bad)
{
	/* (c - lo) < n, unsigned, as a signed compare shifted by 128 */
	const __m128i bias = _mm_set1_epi8((char)0x80);
	__m128i d = _mm_sub_epi8(c, _mm_set1_epi8('0'));
	__m128i l = _mm_sub_epi8(_mm_or_si128(c, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
	__m128i isd = _mm_cmplt_epi8(_mm_xor_si128(d, bias), _mm_set1_epi8((char)(0x80 + 10)));
	__m128i isl = _mm_cmplt_epi8(_mm_xor_si128(l, bias), _mm_set1_epi8((char)(0x80 + 6)));

	*bad = _mm_or_si128(*bad, _mm_andnot_si128(_mm_or_si128(isd, isl),
		_mm_set1_epi8(-1)));
	return _mm_or_si128(_mm_and_si128(isd, d),
		_mm_and_si128(isl, _mm_add_epi8(l, _mm_set1_epi8(10))));
}

/* 16 digits (as nibbles) to 8 bytes in the low 16-bit lanes' low bytes. */
static inline __m128i pairs(__m128i nib)
{
	__m128i hi = _mm_slli_epi16(_mm_and_si128(nib, _mm_set1_epi16(0x00FF)), 4);

	return _mm_or_si128(hi, _mm_srli_epi16(nib, 8));
}
#endif

#if HEX_AVX2
/* 32 digits' values; sets *bad where one is not a digit (as nibbles). */
__attribute__((target("avx2")))
static inline __m256i nibbles32(__m256i c, __m256i *bad)
{
	const __m256i bias = _mm256_set1_epi8((char)0x80);
	__m256i d = _mm256_sub_epi8(c, _mm256_set1_epi8('0'));
	__m256i l = _mm256_sub_epi8(_mm256_or_si256(c, _mm256_set1_epi8(0x20)), _mm256_set1_epi8('a'));
	__m256i isd = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x80 + 10)), _mm256_xor_si256(d, bias));
	__m256i isl = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x80 + 6)), _mm256_xor_si256(l, bias));

	*bad = _mm256_or_si256(*bad, _mm256_andnot_si256(_mm256_or_si256(isd, isl),
		_mm256_set1_epi8(-1)));
	return _mm256_or_si256(_mm256_and_si256(isd, d),
		_mm256_and_si256(isl, _mm256_add_epi8(l, _mm256_set1_epi8(10))));
}

/* Decodes the first 32k bytes' digits, k as large as fits n; returns
 * how many bytes, or (size_t)-1 if a digit was bad. */
__attribute__((target("avx2")))
static size_t decode_avx2(uint8_t *out, const unsigned char *in, size_t n)
{
	/* per 16-bit lane: the first digit times 16 plus the second */
	const __m256i w = _mm256_set1_epi16(0x0110);
	__m256i vbad = _mm256_setzero_si256();
	size_t i = 0;

	for (; i + 32 <= n; i += 32) {
		__m256i a = nibbles32(_mm256_loadu_si256((const __m256i *)(in + 2 * i)), &vbad);
		__m256i b = nibbles32(_mm256_loadu_si256((const __m256i *)(in + 2 * i + 32)), &vbad);
		__m256i r = _mm256_packus_epi16(_mm256_maddubs_epi16(a, w), _mm256_maddubs_epi16(b, w));

		/* packus works in 128-bit lanes: a's halves, then b's */
		_mm256_storeu_si256((__m256i *)(out + i), _mm256_permute4x64_epi64(r, 0xD8));
	}
	return _mm256_movemask_epi8(vbad) ? (size_t)-1 : i;
}

/* Set by hex_use_avx2(0); atomic, for a thread to switch it while others
 * decode.  The CPU check itself is a load (libgcc fills its answers before
 * main), so it is asked at every call rather than cached lazily. */
static atomic_int avx2_off;

void hex_use_avx2(int on)
{
	atomic_store_explicit(&avx2_off, !on, memory_order_relaxed);
}

static int use_avx2(void)
{
	return !atomic_load_explicit(&avx2_off, memory_order_relaxed)
		&& __builtin_cpu_supports("avx2");
}
#else
void hex_use_avx2(int on)
{
	(void)on;
}
#endif

int hex_decode(void *dst, const char *s, size_t n)
{
	const unsigned char *in = (const unsigned char *)s;
	uint8_t *out = dst;
	size_t i = 0;
	int bad = 0;

#if HEX_AVX2
	if (n >= 32 && use_avx2()) {
		if ((i = decode_avx2(out, in, n)) == (size_t)-1)
			return -1;
	}
#endif
#if defined(__SSE2__)
	{
		__m128i vbad = _mm_setzero_si128();

		for (; i + 16 <= n; i += 16) {
			__m128i a = nibbles(_mm_loadu_si128((const __m128i *)(in + 2 * i)), &vbad);
			__m128i b = nibbles(_mm_loadu_si128((const __m128i *)(in + 2 * i + 16)), &vbad);

			_mm_storeu_si128((__m128i *)(out + i),
				_mm_packus_epi16(pairs(a), pairs(b)));
		}
		if (_mm_movemask_epi8(vbad))
			return -1;
	}
#endif
	for (; i < n; i++) {
		int hi = dec_tab[in[2 * i]] - 1, lo = dec_tab[in[2 * i + 1]] - 1;

		bad |= hi | lo;
		out[i] = (uint8_t)((unsigned)hi << 4 | (unsigned)lo);
	}
	return bad < 0 ? -1 : 0;
}
