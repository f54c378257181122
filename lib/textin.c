/*
 * textin.c - reads MLIR text from a pipe, taking the resource blobs out
 * as they arrive.
 *
 * A module's weights come at its end as hex strings hundreds of MB long:
 *
 *	{-#
 *	  dialect_resources: {
 *	    builtin: {
 *	      conv_w: "0x04000000ABCD..."
 *
 * Read whole, the text would hold twice the bytes of the data, all in
 * fresh pages, and the pages a process touches for the first time are
 * what a pipeline of these tools spends most of its time on.  So each
 * string value of a dialect_resources group is decoded while it is read,
 * into one growing region, and the text keeps an empty string "" in its
 * place; parse_module takes the data from there (text_blobs) and
 * counts the bytes the placeholder lost in the columns of what follows it
 * on its line.  A string that is not a valid blob (an odd number of
 * digits, a stray character, a newline before its end) is put back as
 * digits, for the parser to report it where it would have.
 *
 * The metadata section is found at the start of a line, where "{-#"
 * cannot be inside a string or a comment; anything else (no section, or
 * one that does not start a line) is kept as it is.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "ir.h"
#include "tool.h"

enum { CHUNK = 1 << 20 };

/* Where the reader is: in the text around the section, in the section,
 * or in the digits of a blob. */
enum { BODY, META, BLOB };
/* Where it is inside the section, between bytes. */
enum { M_NORMAL, M_STR, M_ESC, M_COMMENT, M_SLASH, M_HASH, M_HASHDASH,
	M_QUOTE, M_QUOTE0 };

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZING 1
#else
#define SANITIZING 0
#endif

enum { REGION = 1 << 30, ALIGN = 64 };

enum { PAGE = 2 << 20 };   /* big_reserve's alignment: a huge page */

typedef struct BlobRegion BlobRegion;
struct BlobRegion {
	BlobRegion *next;
	char *base;
	size_t cap;
	int big;        /* big_reserve'd, else malloc'd */
	uint32_t *live; /* big: per 2 MB page, the blobs not yet done on it */
};

typedef struct Reader {
	Buf text;
	int state, sub;
	int k;          /* BODY: bytes of "{-#" matched at a line start, -1 mid-line */
	int depth;      /* META: braces open inside the section */
	int colon;      /* META: the last token was ':' */
	int ident;      /* META: the last byte was part of an identifier */
	int resgroup;   /* META: inside dialect_resources */
	char key[24];   /* META: the identifier being read at depth 0 */
	int keyn;

	/* BLOB */
	size_t digits;  /* after "0x" */
	int odd;        /* a digit waiting for its pair, or -1 */
	uint8_t head[4];
	int headn;
	size_t size;    /* data bytes so far */

	BlobRegion *regions;
	size_t used;    /* in regions (the newest) */
	uint8_t *data;  /* the blob being read */

	TextBlob *blobs;
	int nblobs, capblobs;
} Reader;

/* Bytes of the newest region in use. */
static size_t
filled(const Reader *r)
{
	if (!r->regions)
		return 0;
	if (r->data)
		return (size_t)(r->data - (uint8_t *)r->regions->base) + r->size;
	return r->used;
}

static size_t
page_up(size_t n)
{
	return (n + PAGE - 1) & ~(size_t)(PAGE - 1);
}

/*
 * Pages touched for the first time cost more than the decoding that fills
 * them (the kernel zeroes them; in a VM the host may have to back them
 * anew), and the reader of a pipe is the slow end of it: so a thread of its
 * own faults in the pages of the newest region ahead of the decoder
 * (MADV_POPULATE_WRITE), on the core the writer upstream leaves idle.
 * It never writes the memory; what it faulted in past the end of the data
 * is given back when the read is over.
 */
enum { AHEAD = 16 << 20 };

typedef struct Ahead {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	char *base;     /* the region being filled; NULL: none */
	size_t want;    /* fault in up to here */
	size_t done;    /* faulted in up to here */
	int stop, on;
} Ahead;

static void *
ahead_run(void *arg)
{
	Ahead *a = arg;

	pthread_mutex_lock(&a->mu);
	for (;;) {
		char *base;
		size_t at;
		int bad;

		while (!a->stop && (!a->base || a->done >= a->want))
			pthread_cond_wait(&a->cv, &a->mu);
		if (a->stop)
			break;
		base = a->base;
		at = a->done;
		pthread_mutex_unlock(&a->mu);
		bad = madvise(base + at, PAGE, MADV_POPULATE_WRITE) != 0;
		pthread_mutex_lock(&a->mu);
		if (bad)
			break;   /* an older kernel: the decoder faults them in */
		if (a->base == base)
			a->done = at + PAGE;
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

/* The decoder has filled region g up to fill bytes. */
static void
ahead_at(Ahead *a, BlobRegion *g, size_t fill)
{
	size_t want;

	if (!a->on || !g || !g->big)
		return;
	want = fill + AHEAD < g->cap ? (fill + AHEAD) & ~(size_t)(PAGE - 1) : g->cap;
	pthread_mutex_lock(&a->mu);
	if (a->base != g->base) {
		a->base = g->base;
		a->done = page_up(fill);
		a->want = 0;
	}
	if (want > a->want) {
		a->want = want;
		if (a->want > a->done)
			pthread_cond_signal(&a->cv);
	}
	pthread_mutex_unlock(&a->mu);
}

static void
ahead_start(Ahead *a)
{
	memset(a, 0, sizeof *a);
	if (SANITIZING)
		return;
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	a->on = pthread_create(&a->th, NULL, ahead_run, a) == 0;
	if (!a->on) {
		pthread_mutex_destroy(&a->mu);
		pthread_cond_destroy(&a->cv);
	}
}

/* Stops the thread; gives back what it faulted in past fill. */
static void
ahead_stop(Ahead *a, BlobRegion *g, size_t fill)
{
	size_t from;

	if (!a->on)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = 1;
	pthread_cond_signal(&a->cv);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->th, NULL);
	from = page_up(fill);
	if (g && g->big && a->base == g->base && a->done > from)
		madvise(g->base + from, a->done - from, MADV_DONTNEED);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
}

static int
is_ident(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.';
}

/* A region for a blob of at least need bytes: reserved address space
 * that blobs are packed into, or (under AddressSanitizer, or when that
 * fails) a malloc'd block for this blob alone. */
static BlobRegion *
new_region(Reader *r, size_t need)
{
	BlobRegion *g = xmalloc(sizeof *g);
	size_t cap = need > REGION / 4 ? mulsz(need, 4) : REGION;

	g->big = 0;
	g->base = NULL;
	if (!SANITIZING && (g->base = big_reserve(&cap)))
		g->big = 1;
	if (!g->base) {
		cap = need > 4096 ? need : 4096;
		g->base = xmalloc(cap);
	}
	g->cap = cap;
	g->live = NULL;
	g->next = r->regions;
	r->regions = g;
	r->used = 0;
	return g;
}

/* Room for n more bytes of the blob being read, which stays contiguous:
 * a malloc'd one doubles, one that outgrows its region moves. */
static uint8_t *
blob_room(Reader *r, size_t n)
{
	BlobRegion *g = r->regions;
	size_t at = (size_t)(r->data - (uint8_t *)g->base), need;

	if (r->size + n < r->size)
		tool_fail("out of memory");
	need = r->size + n;
	if (g->cap - at >= need)
		return r->data + r->size;
	if (!g->big) {
		size_t cap = g->cap;

		while (cap < need)
			cap = mulsz(cap, 2);
		g->base = xrealloc(g->base, cap);
		g->cap = cap;
		r->data = (uint8_t *)g->base;
		return r->data + r->size;
	}
	g = new_region(r, need);
	memcpy(g->base, r->data, r->size);
	r->data = (uint8_t *)g->base;
	return r->data + r->size;
}

/* Starts a blob: its data begins at the next 64-byte boundary of the
 * newest big region, or in a region of its own. */
static void
blob_start(Reader *r)
{
	BlobRegion *g = r->regions;
	size_t at = (r->used + ALIGN - 1) & ~(size_t)(ALIGN - 1);

	r->state = BLOB;
	r->digits = 0;
	r->odd = -1;
	r->headn = 0;
	r->size = 0;
	if (!g || !g->big || at >= g->cap)
		g = new_region(r, 0), at = 0;
	r->data = (uint8_t *)g->base + at;
}

/* Decoded bytes: the 4 of the alignment, then data. */
static void
blob_bytes(Reader *r, const uint8_t *b, size_t n)
{
	while (n && r->headn < 4) {
		r->head[r->headn++] = *b++;
		n--;
	}
	if (n) {
		memcpy(blob_room(r, n), b, n);
		r->size += n;
	}
}

/* Decodes the digits [p, e) of the blob being read; -1, with nothing of
 * them taken, if one is not a digit. */
static int
blob_digits(Reader *r, const char *p, const char *e)
{
	size_t size = r->size, digits = r->digits, pairs;
	int headn = r->headn, odd = r->odd;
	uint8_t b;
	char two[2];

	if (r->odd >= 0 && p < e) {
		two[0] = (char)r->odd;
		two[1] = *p++;
		if (hex_decode(&b, two, 1))
			goto bad;
		r->odd = -1;
		r->digits++;
		blob_bytes(r, &b, 1);
	}
	while (e - p >= 2 && r->headn < 4) {
		if (hex_decode(&b, p, 1))
			goto bad;
		blob_bytes(r, &b, 1);
		r->digits += 2;
		p += 2;
	}
	if ((pairs = (size_t)(e - p) / 2)) {
		if (hex_decode(blob_room(r, pairs), p, pairs))
			goto bad;
		r->size += pairs;
		r->digits += 2 * pairs;
		p += 2 * pairs;
	}
	if (p < e) {
		two[0] = *p;
		two[1] = '0';
		if (hex_decode(&b, two, 1))
			goto bad;
		r->odd = (unsigned char)*p;
		r->digits++;
	}
	return 0;
bad:
	r->size = size;
	r->digits = digits;
	r->headn = headn;
	r->odd = odd;
	return -1;
}

/* The blob was not one after all: its digits go back into the text after
 * the '"0x' it started with, and the reader goes on in a string. */
static void
unblob(Reader *r)
{
	size_t n = (size_t)r->headn + r->size;
	char *out = xmalloc(2 * n + 1);

	hex_encode(out, r->head, (size_t)r->headn);
	hex_encode(out + 2 * r->headn, r->data, r->size);
	buf_put(&r->text, "\"0x", 3);
	buf_put(&r->text, out, 2 * n);
	free(out);
	if (r->odd >= 0)
		buf_putc(&r->text, r->odd);
	r->data = NULL;
	r->state = META;
	r->sub = M_STR;
}

/* The closing quote of a valid blob: the text gets its placeholder. */
static void
blob_end(Reader *r)
{
	TextBlob *b;

	if (r->nblobs == r->capblobs) {
		r->capblobs = r->capblobs ? 2 * r->capblobs : 64;
		r->blobs = xrealloc(r->blobs, mulsz((size_t)r->capblobs, sizeof *r->blobs));
	}
	b = &r->blobs[r->nblobs++];
	b->at = r->text.n;
	b->extra = r->digits + 2;   /* "0x" and the digits, lost for "" */
	b->data = r->data;
	b->size = r->size;
	b->align = (uint32_t)r->head[0] | (uint32_t)r->head[1] << 8 |
		(uint32_t)r->head[2] << 16 | (uint32_t)r->head[3] << 24;
	buf_put(&r->text, "\"\"", 2);
	r->used = filled(r);
	r->data = NULL;
	r->state = META;
	r->sub = M_NORMAL;
	r->colon = 0;
}

/* Bytes in a blob: returns how many it took. */
static size_t
blob_feed(Reader *r, const char *p, const char *e)
{
	const char *q = memchr(p, '"', (size_t)(e - p));
	const char *end = q ? q : e;

	if (blob_digits(r, p, end)) {
		unblob(r);
		return 0;
	}
	if (!q)
		return (size_t)(e - p);
	if (r->odd >= 0 || r->headn < 4) {
		unblob(r);
		return (size_t)(q - p);
	}
	blob_end(r);
	return (size_t)(q - p) + 1;
}

/* Bytes of the section, one at a time (they are few: keys and braces). */
static size_t
meta_feed(Reader *r, const char *p, const char *e)
{
	const char *s = p;

	while (p < e) {
		int c = (unsigned char)*p;

		switch (r->sub) {
		case M_STR:
		case M_ESC:
		case M_COMMENT:
			/* inside a string or a comment: a newline ends either */
			buf_putc(&r->text, c);
			p++;
			if (c == '\n' || (r->sub == M_STR && c == '"'))
				r->sub = M_NORMAL;
			else if (r->sub != M_COMMENT)
				r->sub = r->sub == M_STR && c == '\\' ? M_ESC : M_STR;
			continue;
		case M_SLASH:
		case M_HASH:
		case M_HASHDASH: {
			/* the second byte of "//", the second and third of "#-}" */
			static const char want[] = { [M_SLASH] = '/', [M_HASH] = '-', [M_HASHDASH] = '}' };
			int sub = r->sub;

			r->sub = M_NORMAL;
			if (c != want[sub])
				break;
			buf_putc(&r->text, c);
			p++;
			if (sub == M_HASHDASH) {
				/* the end of the section, at any depth as for the lexer */
				r->state = BODY;
				r->k = -1;
				return (size_t)(p - s);
			}
			r->sub = sub == M_SLASH ? M_COMMENT : M_HASHDASH;
			continue;
		}
		case M_QUOTE:
			if (c == '0') {
				p++;
				r->sub = M_QUOTE0;
				continue;
			}
			buf_putc(&r->text, '"');
			r->sub = M_STR;
			continue;
		case M_QUOTE0:
			if (c == 'x') {
				p++;
				blob_start(r);
				return (size_t)(p - s);
			}
			buf_put(&r->text, "\"0", 2);
			r->sub = M_STR;
			continue;
		}
		/* M_NORMAL */
		p++;
		if (c == '"' && r->depth == 2 && r->resgroup && r->colon) {
			r->sub = M_QUOTE;   /* held back until "0x is seen */
			r->ident = 0;
			continue;
		}
		buf_putc(&r->text, c);
		if (is_ident(c)) {
			if (r->depth == 0) {
				if (!r->ident)
					r->keyn = 0;
				if (r->keyn < (int)sizeof r->key)
					r->key[r->keyn++] = (char)c;
			}
			r->ident = 1;
			r->colon = 0;
			continue;
		}
		r->ident = 0;
		switch (c) {
		case ' ': case '\t': case '\r': case '\n':
			break;
		case ':':
			if (r->depth == 0)
				r->resgroup = r->keyn == 17 && !memcmp(r->key, "dialect_resources", 17);
			r->colon = 1;
			break;
		case '"':
			r->sub = M_STR;
			r->colon = 0;
			break;
		case '/':
			r->sub = M_SLASH;
			break;
		case '#':
			r->sub = M_HASH;
			r->colon = 0;
			break;
		case '{':
			r->depth++;
			r->colon = 0;
			break;
		case '}':
			r->depth--;
			r->colon = 0;
			break;
		default:
			r->colon = 0;
			break;
		}
	}
	return (size_t)(p - s);
}

/* Text outside the section: copied, watching for "{-#" at a line start. */
static size_t
body_feed(Reader *r, const char *p, const char *e)
{
	const char *s = p;

	while (p < e) {
		if (r->k >= 0) {
			if (*p == "{-#"[r->k]) {
				p++;
				if (++r->k == 3) {
					buf_put(&r->text, s, (size_t)(p - s));
					r->state = META;
					r->sub = M_NORMAL;
					r->depth = r->colon = r->ident = r->resgroup = r->keyn = 0;
					return (size_t)(p - s);
				}
				continue;
			}
			r->k = -1;
		}
		{
			const char *q = memchr(p, '\n', (size_t)(e - p));

			if (!q) {
				p = e;
				break;
			}
			p = q + 1;
			r->k = 0;
		}
	}
	buf_put(&r->text, s, (size_t)(p - s));
	return (size_t)(p - s);
}

static void
feed(Reader *r, const char *p, size_t n)
{
	const char *e = p + n;

	while (p < e) {
		if (r->state == BODY)
			p += body_feed(r, p, e);
		else if (r->state == META)
			p += meta_feed(r, p, e);
		else
			p += blob_feed(r, p, e);
	}
}

/* What the last read leaves for its readers: the text and its blobs by
 * offset (text_blobs, for the parser), the regions that hold their data
 * (text_release), and the blobs by address with a mark for each one done
 * (text_blob_done).  One per process: a tool reads one stream, and the
 * printers that give blobs back know a blob by its address only. */
typedef struct Held {
	const char *text;
	BlobRegion *regions;
	TextBlob *byat, *bydata;
	char *done;
	int n;
	int given_back;     /* some blob's pages may be gone */
} Held;
static Held held;

static int
by_data(const void *a, const void *b)
{
	const TextBlob *x = a, *y = b;

	return x->data < y->data ? -1 : x->data > y->data;
}

static BlobRegion *
region_of(const void *data)
{
	BlobRegion *g;

	for (g = held.regions; g; g = g->next)
		if ((const char *)data >= g->base && (const char *)data < g->base + g->cap)
			return g;
	return NULL;
}

/* Counts each blob on the pages it spans. */
static void
count_pages(void)
{
	int i;

	for (i = 0; i < held.n; i++) {
		const TextBlob *t = &held.bydata[i];
		BlobRegion *g = region_of(t->data);
		size_t a, b;

		if (!g || !g->big || !t->size)
			continue;
		if (!g->live)
			g->live = xcalloc(g->cap / PAGE, sizeof *g->live);
		a = (size_t)((const char *)t->data - g->base) / PAGE;
		b = ((size_t)((const char *)t->data - g->base) + t->size - 1) / PAGE;
		for (; a <= b; a++)
			g->live[a]++;
	}
}

void
text_blob_done(const void *data)
{
	int lo = 0, hi = held.n;
	BlobRegion *g;
	size_t a, b;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if ((const void *)held.bydata[mid].data < data)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= held.n || held.bydata[lo].data != data || held.done[lo] || !held.bydata[lo].size)
		return;
	held.done[lo] = 1;
	held.given_back = 1;
	if (!(g = region_of(data)) || !g->live)
		return;
	a = (size_t)((const char *)data - g->base) / PAGE;
	b = ((size_t)((const char *)data - g->base) + held.bydata[lo].size - 1) / PAGE;
	for (; a <= b; a++)
		if (--g->live[a] == 0)
			madvise(g->base + a * PAGE, PAGE, MADV_DONTNEED);
}

static int
by_ptr(const void *a, const void *b)
{
	const void *x = *(const void *const *)a, *y = *(const void *const *)b;

	return x < y ? -1 : x > y;
}

void
text_blobs_only(const void **keep, int n)
{
	int i;

	if (n > 1)
		qsort(keep, (size_t)n, sizeof *keep, by_ptr);
	for (i = 0; i < held.n; i++)
		if (!held.done[i] && !(n && bsearch(&held.bydata[i].data, keep, (size_t)n, sizeof *keep, by_ptr)))
			text_blob_done(held.bydata[i].data);
}

int text_blobs_kept;

int
text_blobs_whole(void)
{
	return !held.given_back;
}

int
text_blobs(const char *text, const TextBlob **b)
{
	*b = NULL;
	if (!text || text != held.text)
		return 0;
	*b = held.byat;
	return held.n;
}

char *
text_read_stream(int fd, const char *path, size_t *len)
{
	Ahead ahead;
	Reader r;
	char *chunk = xmalloc(CHUNK);
	const char *env = getenv("FX_TEST_READ_CHUNK");
	size_t most = CHUNK;

	/* tests cut the input at every byte with FX_TEST_READ_CHUNK=1 */
	if (env && atoi(env) > 0 && atoi(env) < CHUNK)
		most = (size_t)atoi(env);
	size_t off = 0;
	const char *nul;

	memset(&r, 0, sizeof r);
	ahead_start(&ahead);
	for (;;) {
		ssize_t got = read(fd, chunk, most);

		/* text has no NUL: /dev/zero is refused at once, not read
		 * until memory runs out */
		if (got > 0 && (nul = memchr(chunk, 0, (size_t)got)))
			tool_fail("%s: a NUL byte at offset %zu: not a text file", path,
				off + (size_t)(nul - chunk));
		if (got > 0)
			off += (size_t)got;
		if (got > 0) {
			feed(&r, chunk, (size_t)got);
			ahead_at(&ahead, r.regions, filled(&r));
		} else if (got == 0)
			break;
		else if (errno != EINTR)
			tool_fail("cannot read '%s': %s", path, strerror(errno));
	}
	ahead_stop(&ahead, r.regions, filled(&r));
	free(chunk);
	/* an unfinished blob or a held-back quote goes back as text */
	if (r.state == BLOB)
		unblob(&r);
	else if (r.state == META && r.sub == M_QUOTE)
		buf_putc(&r.text, '"');
	else if (r.state == META && r.sub == M_QUOTE0)
		buf_put(&r.text, "\"0", 2);
	buf_putc(&r.text, 0);
	*len = r.text.n - 1;
	text_release();
	held.regions = r.regions;
	held.text = r.text.p;
	held.byat = r.blobs;
	held.n = r.nblobs;
	held.bydata = xmalloc(mulsz((size_t)held.n + 1, sizeof *held.bydata));
	if (held.n) {
		memcpy(held.bydata, r.blobs, (size_t)held.n * sizeof *held.bydata);
		qsort(held.bydata, (size_t)held.n, sizeof *held.bydata, by_data);
	}
	held.done = xcalloc((size_t)held.n + 1, 1);
	count_pages();
	return r.text.p;
}

void
text_release(void)
{
	BlobRegion *g, *next;

	for (g = held.regions; g; g = next) {
		next = g->next;
		if (g->big)
			big_release(g->base, g->cap);
		else
			free(g->base);
		free(g->live);
		free(g);
	}
	free(held.byat);
	free(held.bydata);
	free(held.done);
	memset(&held, 0, sizeof held);
}
