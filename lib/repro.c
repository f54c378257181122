/*
 * repro.c - reproducers: a stage of a pipe that fails or crashes saves
 * the input it read and prints the one command that replays it.
 *
 * The input of a stage in the middle of a pipe is gone once the stage
 * has read it, so when a tool that read standard input exits with a
 * non-zero status (an error, an internal error) or is killed by a
 * crash signal, its input is written to a new file and a note says
 *
 *	torch-lower: note: reproduce with: torch-lower --flag /tmp/fxpipe-repro.Ab12Cd/torch-lower.mlir
 *
 * Where it goes: --reproducer=FILE (any input); else $FXPIPE_REPRO_DIR
 * (any input; set but empty turns reproducers off); else, for standard
 * input only, a fresh directory under $TMPDIR (default /tmp).  An input
 * named on the command line is not copied unless asked: the command
 * that failed replays it.  An empty input (a stage before this one
 * failed) makes no reproducer.
 *
 * A pipe's resource blobs were taken out of the text as they arrived
 * (textin.c); they are written back as hex, so the file reads as the
 * input did.  The writing uses only open, write and close, for it runs
 * in a signal handler too.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir.h"
#include "tool.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>
#endif

static char **r_argv;
static int r_argc;
static const char *r_file;          /* --reproducer=FILE */
static const char *r_inpath;        /* the input's name as the tool got it */
static const char *r_text;
static size_t r_len;
static char r_base[4096];           /* where a new directory goes */
static const char *r_ext = ".mlir";
static volatile sig_atomic_t r_busy;

static void
put(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w, n -= (size_t)w;
	}
}

static void
puts_fd(int fd, const char *s)
{
	put(fd, s, strlen(s));
}

/* hex_encode (lib/hex.c) in chunks: no allocation, so a signal handler
 * may call it */
static void
put_hex(int fd, const uint8_t *p, size_t n)
{
	char buf[8192];

	while (n) {
		size_t k = n < sizeof buf / 2 ? n : sizeof buf / 2;

		hex_encode(buf, p, k);
		put(fd, buf, 2 * k);
		p += k, n -= k;
	}
}

/* The input as it was read: the text, each blob's "" placeholder
 * replaced by its hex (alignment word first, as MLIR writes it). */
static int
write_input(int fd)
{
	const TextBlob *b;
	int n = text_blobs(r_text, &b);
	size_t at = 0;

	if (n && !text_blobs_whole())
		return -1;
	for (int i = 0; i < n; i++) {
		uint8_t align[4] = { (uint8_t)b[i].align, (uint8_t)(b[i].align >> 8),
			(uint8_t)(b[i].align >> 16), (uint8_t)(b[i].align >> 24) };

		put(fd, r_text + at, b[i].at - at);
		put(fd, "\"0x", 3);
		put_hex(fd, align, 4);
		put_hex(fd, b[i].data, b[i].size);
		put(fd, "\"", 1);
		at = b[i].at + 2;
	}
	put(fd, r_text + at, r_len - at);
	return 0;
}

/* Shell-quotes s onto fd when it has anything but safe characters. */
static void
put_word(int fd, const char *s)
{
	const char *safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		"0123456789-_=+./:,@%";

	if (*s && strspn(s, safe) == strlen(s)) {
		puts_fd(fd, s);
		return;
	}
	put(fd, "'", 1);
	for (; *s; s++) {
		if (*s == '\'')
			puts_fd(fd, "'\\''");
		else
			put(fd, s, 1);
	}
	put(fd, "'", 1);
}

/* Writes the reproducer and prints the note; path is a buffer that
 * receives the file's name. */
static void
reproduce(void)
{
	char path[sizeof r_base + 64];
	const char *dir = getenv("FXPIPE_REPRO_DIR");
	int fd, stdin_in = !r_inpath || !strcmp(r_inpath, "-");

	if (!r_argv || !r_text || !r_len || r_busy)
		return;
	r_busy = 1;
	if (r_file) {
		if (strlen(r_file) >= sizeof path)
			return;
		strcpy(path, r_file);
	} else if (dir) {
		if (!*dir || strlen(dir) + strlen(tool_name) + 16 >= sizeof path)
			return;
		strcpy(path, dir);
		strcat(path, "/");
		strcat(path, tool_name);
		strcat(path, "-XXXXXX");
	} else if (stdin_in && r_base[0]) {
		strcpy(path, r_base);
		if (!mkdtemp(path))
			return;
		strcat(path, "/");
		strcat(path, tool_name);
	} else {
		return;
	}
	if (dir && !r_file) {
		strcat(path, r_ext);
		fd = mkstemps(path, (int)strlen(r_ext));
	} else {
		if (!r_file)
			strcat(path, r_ext);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	}
	if (fd < 0)
		return;
	if (write_input(fd) != 0) {
		close(fd);
		unlink(path);
		return;
	}
	close(fd);

	/* the command: the tool's own words, the input replaced by the copy */
	puts_fd(2, tool_name);
	puts_fd(2, ": note: reproduce with: ");
	put_word(2, r_argv[0]);
	for (int i = 1; i < r_argc; i++) {
		const char *a = r_argv[i];

		if (a == r_inpath)
			continue;
		if (!strncmp(a, "--reproducer", 12) || !strncmp(a, "-reproducer", 11)) {
			if (!strchr(a, '=') && i + 1 < r_argc)
				i++;
			continue;
		}
		put(2, " ", 1);
		put_word(2, a);
	}
	put(2, " ", 1);
	put_word(2, path);
	put(2, "\n", 1);
}

static void
at_exit(int status, void *arg)
{
	(void)arg;
	if (status != 0)
		reproduce();
}

#ifdef __SANITIZE_ADDRESS__
/* AddressSanitizer catches the crash signals itself and reports; the
 * reproducer comes after its report. */
static void
on_sanitizer_death(void)
{
	reproduce();
}
#else
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

static void
on_crash(int sig)
{
	puts_fd(2, tool_name);
	puts_fd(2, ": internal error: ");
	puts_fd(2, sig == SIGSEGV ? "segmentation fault" : sig == SIGBUS ? "bus error" :
	    sig == SIGFPE ? "arithmetic exception" : sig == SIGILL ? "illegal instruction" :
	    "aborted");
	puts_fd(2, " (a bug: please report it with the reproducer)\n");
	reproduce();
	signal(sig, SIG_DFL);
	raise(sig);
}
#endif

void
tool_repro_init(int argc, char **argv, const char *ext)
{
	const char *t = getenv("TMPDIR");

	r_argc = argc;
	r_argv = argv;
	text_blobs_kept = !(getenv("FXPIPE_REPRO_DIR") && !*getenv("FXPIPE_REPRO_DIR"));
	if (ext)
		r_ext = ext;
	if (!t || !*t || strlen(t) + 32 >= sizeof r_base)
		t = "/tmp";
	strcpy(r_base, t);
	strcat(r_base, "/fxpipe-repro.XXXXXX");
	on_exit(at_exit, NULL);
#ifdef __SANITIZE_ADDRESS__
	__sanitizer_set_death_callback(on_sanitizer_death);
#else
	for (size_t i = 0; i < sizeof crash_signals / sizeof *crash_signals; i++)
		signal(crash_signals[i], on_crash);
#endif
}

void
tool_repro_file(const char *file)
{
	r_file = file;
}

void
tool_repro_input(const char *path, const char *text, size_t len)
{
	if (r_text)
		return;
	r_inpath = path;
	r_text = text;
	r_len = len;
	/* the tests' way to see a crash's reproducer */
	if (r_argv && getenv("FX_TEST_CRASH_AFTER_READ"))
		raise(SIGSEGV);
}

void
tool_repro_skip(void)
{
	r_text = NULL;
}

int
tool_repro_holds(const char *text)
{
	return r_argv && text && text == r_text;
}
