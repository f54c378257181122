/* test_crc.c - lib/rt/vmfb.c's crc32c against a bit-at-a-time reference
 * and the check value of CRC-32C ("123456789" -> E3069283), on every
 * length up to a few blocks of its three-stream loop and at every
 * alignment; crc32c_combine on random splits; the three-stream loop's
 * constants.  Prints "ok", or each failure and exits 1. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/vmfb.h"

static int fails;

static uint32_t
slow(uint32_t crc, const uint8_t *p, size_t n)
{
	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
	}
	return ~crc;
}

static void
expect(const char *what, size_t n, uint32_t got, uint32_t want)
{
	if (got != want && fails++ < 20)
		printf("%s, %zu bytes: %08X, want %08X\n", what, n, got, want);
}

int
main(void)
{
	enum { N = 3 * 3 * 4096 + 200 };
	uint8_t *buf = malloc(N + 64);
	uint32_t seed = 12345;

	for (size_t i = 0; i < N + 64; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (uint8_t)(seed >> 16);
	}
	expect("check value", 9, crc32c(0, "123456789", 9), 0xE3069283u);
	expect("check value, table", 9, crc32c_soft(0, "123456789", 9), 0xE3069283u);
	/* the constants crc_hard's streams are joined with */
	expect("x^(8*4096)", 4096, crc32c_x8n(4096), 0x35D73A62u);
	expect("x^(8*8192)", 8192, crc32c_x8n(8192), 0x28461564u);
	for (size_t n = 0; n <= N; n += n < 300 ? 1 : n < 3 * 4096 - 64 ? 97 : 1 + n % 13) {
		size_t off = n % 61;
		uint32_t want = slow(0, buf + off, n);

		expect("crc32c", n, crc32c(0, buf + off, n), want);
		expect("crc32c_soft", n, crc32c_soft(0, buf + off, n), want);
		/* continued from a crc, and joined from two halves */
		size_t a = n ? (size_t)(seed = seed * 1103515245u + 12345u) % (n + 1) : 0;
		expect("crc32c continued", n, crc32c(crc32c(0, buf + off, a), buf + off + a, n - a), want);
		expect("crc32c_combine", n, crc32c_combine(crc32c(0, buf + off, a),
		    crc32c(0, buf + off + a, n - a), n - a), want);
	}
	free(buf);
	if (fails) {
		printf("%d failures\n", fails);
		return 1;
	}
	puts("ok");
	return 0;
}
