/* tool.h - the skeleton every fxpipe tool shares: input from a file or
 * stdin, output to stdout or to -o FILE written atomically, and a final
 * check that everything reached its destination. */
#ifndef FX_TOOL_H
#define FX_TOOL_H

#include <stdio.h>
#include <stddef.h>

extern const char *tool_name;   /* set by main, used in messages */

/* "NAME: error: message" on stderr (a format that has its own "error: ",
 * FILE:LINE:COL: error: ..., is printed after "NAME: " only); tool_fail
 * also exits 1. */
void tool_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void tool_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Option parsing: argv[*i] is "NAME=VALUE" or "NAME" followed by the
 * value in argv[*i + 1] (then *i moves past it); returns the value, or NULL
 * when argv[*i] is another option.  NAME with no value left exits 1. */
const char *tool_optval(int argc, char **argv, int *i, const char *name);

/* MLIR's spellings to ours: -long-option is --long-option (one-letter
 * options such as -p, -o and -h stay), --mlir-print-ir-X is
 * --print-ir-X.  Returns a string that lives as long as the program (or
 * a itself, changed in place). */
char *tool_long_option(char *a);

/* The locations a tool prints by default (PrintOpts.debuginfo): those
 * its input gave (DEBUGINFO_CARRY) when the output goes on to another
 * tool, a file or a pipe; none on a terminal.  asked is 1 after
 * --print-debuginfo, -1 after --no-debuginfo, else 0. */
int tool_debuginfo(int asked, const char *output);

/* Reproducers (repro.c): after tool_repro_init, a failing exit or a
 * crash saves the input that tool_read or tool_map read first (for
 * standard input, or with --reproducer=FILE given to tool_repro_file,
 * or $FXPIPE_REPRO_DIR) and prints the command that replays it.  ext is
 * the saved file's extension (".mlir"). */
void tool_repro_init(int argc, char **argv, const char *ext);
void tool_repro_file(const char *file);
void tool_repro_input(const char *path, const char *text, size_t len);
/* This failure is not the input's to replay (it held nothing to work on,
 * as when a stage before failed): no reproducer. */
void tool_repro_skip(void);
/* Whether text is the input a reproducer would save (then tool_unmap
 * leaves it for the exit). */
int tool_repro_holds(const char *text);

/* Seconds on the monotonic clock (for --timing). */
double tool_now(void);

/* --trace=FILE of the compile stages (ctrace.c): Chrome trace events
 * appended to FILE, which several tools may share; t0 and t1 are
 * tool_now() times.  ctrace_span does nothing before ctrace_open.  The
 * tool's whole run is an event of its own at exit. */
void ctrace_open(const char *path);
void ctrace_span(const char *name, const char *cat, double t0, double t1);

/* Reads all of path ("-" is stdin); NUL-terminated.  Exits 1 on error. */
char *tool_read(const char *path, size_t *len);
/* The same text, but a regular file is mapped rather than copied, and the
 * resource blobs of a pipe are decoded as they arrive (textin.c): faster
 * for inputs of hundreds of MB.  Give it back with tool_unmap, after the
 * last context parsed from it. */
const char *tool_map(const char *path, size_t *len);
void tool_unmap(const char *text);

/* Output: opens path ("-" or NULL is stdout); for a file, a temporary
 * beside it that tool_commit renames into place.  tool_abort removes it. */
FILE *tool_open_out(const char *path);
/* Flushes, checks errors, renames; exits 1 on failure.  A pipe on stdout
 * is closed then (fd 1 becomes /dev/null), for its reader not to wait
 * while this process frees its memory: nothing more goes to stdout. */
void tool_commit(FILE *f);
void tool_abort(FILE *f);
/* Removes the temporary from a signal handler that ends the process
 * itself (async-signal-safe). */
void tool_drop_tmp(void);

/* -split-input-file, as mlir-opt does it: text is cut at lines that are
 * exactly "// -----" and fn runs on each chunk, padded with the newlines
 * before it so that diagnostics keep the file's line numbers, writing to
 * the FILE it is given; the outputs, "// -----" between them, go to path
 * (as tool_open_out's), a file only when every chunk succeeded.  Every
 * chunk runs, whatever the others did; -1 when fn failed on any. */
typedef int (*ToolChunkFn)(void *env, const char *text, size_t len, FILE *out);
int tool_split_input(const char *text, size_t len, ToolChunkFn fn, void *env, const char *path);

#endif
