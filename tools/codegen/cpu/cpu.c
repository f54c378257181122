/*
 * cpu.c - the x86-64 target (--target=cpu): its options (--cpu and
 * --features checked by a probe compile in a child process), LLVM's X86
 * backend set up, and the kernels emitted into ELF objects.  Contractions
 * become packed GEMMs (gemm_plan.c, gemm_emit.c), everything else loop
 * nests (nest.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Support.h>

#include "cpu.h"
#include "rt/rt.h"
#include "tool.h"

static char *recorded;    /* what a module for a named CPU records
                           * (named_features), else NULL */

/* LLVM's options, set once for the process.  Loop strength reduction
 * is a sixth of the backend's time on a network's kernels and buys them
 * nothing: their address arithmetic comes out of our emitter already
 * strength-reduced (resnet50: same latency with and without it). */
static void llvm_options(void)
{
	static int done;
	const char *argv[] = { "codegen", "-disable-lsr" };

	if (!done)
		LLVMParseCommandLineOptions(2, argv, "");
	done = 1;
}

/* LLVM's options and the X86 target set up; the default triple, for
 * LLVMDisposeMessage. */
static char *x86_init(void)
{
	llvm_options();
	LLVMInitializeX86TargetInfo();
	LLVMInitializeX86Target();
	LLVMInitializeX86TargetMC();
	LLVMInitializeX86AsmPrinter();
	return LLVMGetDefaultTargetTriple();
}

/* The child of cpu_check: creates a target machine for cpu and features,
 * compiles an empty function, and exits 0; LLVM's warnings go to fd 2
 * (a pipe to the parent), and an abort is the parent's to read. */
static _Noreturn void cpu_probe(const char *triple, const char *cpu, const char *features)
{
	LLVMTargetRef target;
	LLVMTargetMachineRef tm;
	LLVMContextRef cx;
	LLVMModuleRef m;
	LLVMMemoryBufferRef buf;
	char *err = NULL;

	if (LLVMGetTargetFromTriple(triple, &target, &err))
		_exit(2);
	tm = LLVMCreateTargetMachine(target, triple, cpu, features, LLVMCodeGenLevelNone,
		LLVMRelocStatic, LLVMCodeModelLarge);
	cx = LLVMContextCreate();
	m = LLVMModuleCreateWithNameInContext("probe", cx);
	LLVMSetTarget(m, triple);
	LLVMBuilderRef b = LLVMCreateBuilderInContext(cx);
	LLVMValueRef fn = LLVMAddFunction(m, "probe", LLVMFunctionType(LLVMVoidTypeInContext(cx), NULL, 0, 0));
	LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(cx, fn, "entry"));
	LLVMBuildRetVoid(b);
	if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &err, &buf))
		_exit(3);
	_exit(0);
}

/* "'NAME' is not a recognized WHAT" in LLVM's warnings: NAME, or NULL. */
static char *unrecognized(const char *log, const char *what)
{
	const char *p = log, *q;

	while ((q = strstr(p, "' is not a recognized "))) {
		const char *start = q;
		while (start > log && start[-1] != '\'' )
			start--;
		if (!strncmp(q + 22, what, strlen(what)) && start > log)
			return strndup(start, (size_t)(q - start));
		p = q + 1;
	}
	return NULL;
}

/* --cpu and --features name an x86-64 CPU with 64-bit mode and known
 * features; else an error is printed and -1 returned. */
static int cpu_check(const char *cpu, const char *features)
{
	char *triple, *name, log[4096];
	int fds[2], status;
	size_t n = 0;
	ssize_t got;
	pid_t pid;

	/* the syntax first: +name or -name, comma-separated */
	for (const char *f = features; f && *f; ) {
		size_t len = strcspn(f, ",");
		if (len < 2 || (f[0] != '+' && f[0] != '-'))
			return tool_err("malformed --features item '%.*s' (expected +name or -name)",
				(int)len, f), -1;
		f += len + (f[len] == ',');
	}
	triple = x86_init();
	fflush(stderr);
	if (pipe(fds) != 0 || (pid = fork()) < 0) {
		LLVMDisposeMessage(triple);
		return tool_err("cannot check --cpu: %s", strerror(errno)), -1;
	}
	if (pid == 0) {
		struct rlimit nocore = { 0, 0 };
		setrlimit(RLIMIT_CORE, &nocore);   /* an abort leaves no core file */
		close(fds[0]);
		dup2(fds[1], 2);
		close(fds[1]);
		cpu_probe(triple, cpu, features ? features : "");
	}
	close(fds[1]);
	/* read to the end (a child blocked on a full pipe would never exit),
	 * keeping the first part */
	for (;;) {
		char sink[4096];
		int full = n == sizeof log - 1;
		got = read(fds[0], full ? sink : log + n, full ? sizeof sink : sizeof log - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (!full)
			n += (size_t)got;
	}
	log[n] = 0;
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	LLVMDisposeMessage(triple);
	if ((name = unrecognized(log, "processor"))) {
		tool_err("unknown CPU '%s' (see llc -march=x86-64 -mcpu=help)", name);
		free(name);
		return -1;
	}
	if ((name = unrecognized(log, "feature"))) {
		tool_err("unknown CPU feature '%s' (see llc -march=x86-64 -mattr=help)", name);
		free(name);
		return -1;
	}
	if (strstr(log, "64-bit code requested"))
		return tool_err("CPU '%s'%s%s has no 64-bit mode (codegen compiles for x86-64)", cpu,
			features && *features ? " with features " : "", features ? features : ""), -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return tool_err("cannot compile for CPU '%s'%s%s", cpu,
			features && *features ? " with features " : "", features ? features : ""), -1;
	return 0;
}

static int feature(const char *list, const char *name);
static const char *next_item(const char *p);

/* The items of list (only its +name ones where plus) that no later item
 * names, appended to b: each feature once, as its last mention says. */
static void last_mentions(Buf *b, const char *list, int plus)
{
	for (const char *p = list; *p; p = next_item(p)) {
		size_t n = strcspn(p, ",");
		char name[64];

		if (n < 2 || (*p != '+' && (plus || *p != '-')))
			continue;
		snprintf(name, sizeof name, "%.*s", (int)n - 1, p + 1);
		if (feature(p + n, name) < 0)
			buf_printf(b, "%s%.*s", b->n ? "," : "", (int)n, p);
	}
}

/* e->cpu and e->features: --cpu's and --features', or the host's, with
 * --features' after the host's list (the last +name or -name of a
 * feature wins, in LLVM as in feature()): LLVM 16 calls a CPU newer
 * than it "generic" (AMD's Zen 5), whose name implies none of its
 * instruction sets.  *hostcpu: LLVM's message, for LLVMDisposeMessage;
 * *hostfeat: the host's list, for free(). */
static void cpu_names(Gen *g, E *e, char **hostcpu, char **hostfeat)
{
	if (!g->o->cpu || !strcmp(g->o->cpu, "host")) {
		char *f = LLVMGetHostCPUFeatures();
		Buf all = {0}, b = {0};

		*hostcpu = LLVMGetHostCPUName();
		e->cpu = *hostcpu;
		buf_printf(&all, "%s,%s", f, g->o->features ? g->o->features : "");
		last_mentions(&b, all.p, 0);
		buf_free(&all);
		LLVMDisposeMessage(f);
		e->features = *hostfeat = b.p ? b.p : xstrdup("");
		return;
	}
	e->cpu = g->o->cpu;
	e->features = g->o->features ? g->o->features : "";
}

/* The kernels in e's module, identical bodies merged, verified. */
static int cpu_ir(Gen *g, E *e, LLVMTargetMachineRef tm)
{
	char *err = NULL;
	int i, rc = 0;

	for (i = 0; i < g->nk && !rc; i++)
		if (cpu_kernel(e, g->k[i]))
			rc = -1;
	if (!rc)
		rc = cpu_dedupe(e, tm);
	phase_done(g, "LLVM IR");
	if (!rc && LLVMVerifyModule(e->m, LLVMReturnStatusAction, &err)) {
		tool_err("internal error: invalid LLVM IR: %s", err);
		rc = -1;
	}
	LLVMDisposeMessage(err);
	return rc;
}

static int cpu_emit(Gen *g, KObj **objs, int *nobj, const char **cpu_out, const char **feat_out)
{
	E e;
	char *err = NULL, *triple, *hostcpu = NULL, *hostfeat = NULL;
	LLVMTargetRef target;
	LLVMTargetMachineRef tm;
	LLVMTargetDataRef td;
	int rc;

	*objs = NULL;
	*nobj = 0;
	memset(&e, 0, sizeof e);
	triple = x86_init();
	if (LLVMGetTargetFromTriple(triple, &target, &err)) {
		tool_err("%s", err);
		return -1;
	}
	cpu_names(g, &e, &hostcpu, &hostfeat);
	tm = LLVMCreateTargetMachine(target, triple, e.cpu, e.features, LLVMCodeGenLevelAggressive,
		LLVMRelocStatic, LLVMCodeModelLarge);
	td = LLVMCreateTargetDataLayout(tm);
	e_open(&e, g, triple, td);
	e.maskbw = feature(recorded ? recorded : e.features, "avx512bw") == 1;
	rc = cpu_ir(g, &e, tm);
	if (!rc)
		rc = cpu_compile(&e, e.m, triple, objs, nobj);
	phase_done(g, "LLVM optimization and code generation");
	*cpu_out = xstrdup(e.cpu);
	*feat_out = xstrdup(recorded ? recorded : e.features);
	e_close(&e);
	LLVMDisposeTargetData(td);
	LLVMDisposeTargetMachine(tm);
	LLVMDisposeMessage(triple);
	if (hostcpu)
		LLVMDisposeMessage(hostcpu);
	free(hostfeat);
	pmap_free(&e.memo);
	return rc;
}

MicroKernel mk;

/* The instruction sets of the x86-64 CPU models of LLVM 16, as the
 * runtime names and checks them (lib/rt/cpu.c), so that a module built
 * with --cpu=NAME records what its kernels may use and vmrun refuses it
 * on a machine that lacks any (tests/codegen/cpu-features.bats compares
 * them with clang-16's -march=NAME).  Models whose instruction sets the
 * runtime cannot check (knl's AVX-512ER) are left out. */
#define V2 "+cx16,+sahf,+popcnt,+sse3,+ssse3,+sse4.1,+sse4.2"
#define V3 V2 ",+avx,+avx2,+fma,+f16c,+bmi,+bmi2,+lzcnt,+movbe"
#define V4 V3 ",+avx512f,+avx512bw,+avx512cd,+avx512dq,+avx512vl"
#define ICL V4 ",+avx512vnni,+avx512ifma,+avx512vbmi,+avx512vbmi2,+avx512bitalg," \
	"+avx512vpopcntdq,+gfni,+vaes,+vpclmulqdq"
#define SPR ICL ",+avx512bf16,+avx512fp16,+avxvnni,+amx-tile,+amx-int8,+amx-bf16"
#define ADL V3 ",+avxvnni,+gfni,+vaes,+vpclmulqdq"
#define K10 "+cx16,+sahf,+popcnt,+sse3,+sse4a,+lzcnt"
#define BD1 V2 ",+sse4a,+avx,+fma4,+xop,+lzcnt"
#define ZN1 V3 ",+sse4a"
static const struct { const char *cpu, *features; } isa[] = {
	{ "x86-64", "" }, { "generic", "" }, { "k8", "" }, { "opteron", "" },
	{ "athlon64", "" }, { "athlon-fx", "" }, { "k8-sse3", "+sse3" },
	{ "opteron-sse3", "+sse3" }, { "athlon64-sse3", "+sse3" }, { "nocona", "+cx16,+sse3" },
	{ "core2", "+cx16,+sahf,+sse3,+ssse3" }, { "penryn", "+cx16,+sahf,+sse3,+ssse3,+sse4.1" },
	{ "atom", "+cx16,+sahf,+sse3,+ssse3,+movbe" }, { "bonnell", "+cx16,+sahf,+sse3,+ssse3,+movbe" },
	{ "x86-64-v2", V2 }, { "nehalem", V2 }, { "corei7", V2 }, { "westmere", V2 },
	{ "silvermont", V2 ",+movbe" }, { "slm", V2 ",+movbe" }, { "goldmont", V2 ",+movbe" },
	{ "goldmont-plus", V2 ",+movbe" }, { "tremont", V2 ",+movbe,+gfni" },
	{ "sandybridge", V2 ",+avx" }, { "corei7-avx", V2 ",+avx" },
	{ "ivybridge", V2 ",+avx,+f16c" }, { "core-avx-i", V2 ",+avx,+f16c" },
	{ "x86-64-v3", V3 }, { "haswell", V3 }, { "core-avx2", V3 }, { "broadwell", V3 },
	{ "skylake", V3 }, { "alderlake", ADL }, { "raptorlake", ADL }, { "meteorlake", ADL },
	{ "sierraforest", ADL }, { "grandridge", ADL },
	{ "x86-64-v4", V4 }, { "skylake-avx512", V4 }, { "skx", V4 },
	{ "cascadelake", V4 ",+avx512vnni" }, { "cooperlake", V4 ",+avx512vnni,+avx512bf16" },
	{ "cannonlake", V4 ",+avx512ifma,+avx512vbmi" }, { "icelake-client", ICL },
	{ "icelake-server", ICL }, { "rocketlake", ICL }, { "tigerlake", ICL ",+avx512vp2intersect" },
	{ "sapphirerapids", SPR }, { "emeraldrapids", SPR }, { "graniterapids", SPR ",+amx-fp16" },
	{ "amdfam10", K10 }, { "barcelona", K10 }, { "btver1", "+cx16,+sahf,+popcnt,+sse3,+ssse3,+sse4a,+lzcnt" },
	{ "btver2", V2 ",+sse4a,+avx,+f16c,+bmi,+lzcnt,+movbe" }, { "bdver1", BD1 },
	{ "bdver2", BD1 ",+fma,+f16c,+bmi" }, { "bdver3", BD1 ",+fma,+f16c,+bmi" },
	{ "bdver4", BD1 ",+avx2,+fma,+f16c,+bmi,+bmi2,+movbe" }, { "znver1", ZN1 }, { "znver2", ZN1 },
	{ "znver3", ZN1 ",+vaes,+vpclmulqdq" },
	{ "znver4", V4 ",+sse4a,+avx512vnni,+avx512bf16,+avx512ifma,+avx512vbmi,+avx512vbmi2,"
		"+avx512bitalg,+avx512vpopcntdq,+gfni,+vaes,+vpclmulqdq" },
};

/* the item after p's in a comma-separated list */
static const char *next_item(const char *p)
{
	size_t n = strcspn(p, ",");

	return p + n + (p[n] == ',');
}

/* The last +name or -name of feature in a feature list: 1, 0, or -1
 * where it names neither. */
static int feature(const char *list, const char *name)
{
	size_t n = strlen(name);
	int on = -1;

	for (const char *p = list; p && *p; p = next_item(p))
		if ((*p == '+' || *p == '-') && !strncmp(p + 1, name, n) && (p[n + 1] == ',' || !p[n + 1]))
			on = *p == '+';
	return on;
}

/* name is on in list, or where list does not say, in dflt (NULL: off) */
static int has(const char *list, const char *dflt, const char *name)
{
	int on = feature(list, name);

	return on < 0 ? feature(dflt, name) == 1 : on == 1;
}

/* What a module for CPU cpu with --features features records: the
 * CPU's instruction sets with features' +name added and -name taken
 * away; NULL (after an error) for a CPU not in the table. */
static char *named_features(const char *cpu, const char *features)
{
	Buf all = {0}, b = {0};
	size_t i;

	for (i = 0; i < sizeof isa / sizeof *isa && strcmp(isa[i].cpu, cpu); i++)
		;
	if (i == sizeof isa / sizeof *isa) {
		tool_err("CPU '%s': codegen does not know its instruction sets, so vmrun could not "
			"check a machine against them (use --cpu=host, or a CPU model of the same "
			"family: see man codegen)", cpu);
		return NULL;
	}
	/* the CPU's, then features': each +name that no later item names */
	buf_printf(&all, "%s,%s", isa[i].features, features ? features : "");
	last_mentions(&b, all.p, 1);
	buf_free(&all);
	return b.n ? b.p : xstrdup("");
}

/* cpu (NULL: the host, by its CPUID vendor: LLVM 16 names no CPU newer
 * than Zen 4, a Zen 5 is "generic" to it) is one of AMD's Zen */
static int amd_cpu(const char *cpu)
{
	return cpu ? !strncmp(cpu, "znver", 5) : rt_cpu_amd();
}

static void cpu_options(Opts *o)
{
	const char *cpu = o->cpu && strcmp(o->cpu, "host") ? o->cpu : NULL;
	char *host;
	int wide, vnni, amx, amx8, dpbf16;

	if (o->gpu_arch)
		tool_fail("--gpu-arch is for --target=cuda");
	if ((cpu || o->features) && cpu_check(cpu ? cpu : "", o->features))
		exit(1);
	if (cpu && !(recorded = named_features(cpu, o->features)))
		exit(1);
	/* AVX-512 (zmm registers) where the features say so, else as the
	 * CPU has it */
	host = cpu ? NULL : LLVMGetHostCPUFeatures();
	wide = has(cpu ? recorded : o->features, host, "avx512f");
	vnni = has(cpu ? recorded : o->features, host, "avx512vnni") &&
		has(cpu ? recorded : o->features, host, "avx512bw");
	amx = wide && has(cpu ? recorded : o->features, host, "amx-tile") &&
		has(cpu ? recorded : o->features, host, "amx-bf16");
	amx8 = wide && has(cpu ? recorded : o->features, host, "amx-tile") &&
		has(cpu ? recorded : o->features, host, "amx-int8");
	/* vdpbf16ps where it runs at twice the f32 FMA's rate: AMD's Zen 4
	 * (225 GFLOP/s a core against the FMA's 113) and Zen 5 (447 against
	 * 240); on Intel's Sapphire
	 * Rapids it runs at half the FMA's (123 against 247), and the f32
	 * kernels on widened operands are the faster */
	dpbf16 = wide && has(cpu ? recorded : o->features, host, "avx512bf16") && (o->vdpbf16ps > 0 ||
		(o->vdpbf16ps < 0 && amd_cpu(cpu)));
	if (host)
		LLVMDisposeMessage(host);
	mk = wide ? (MicroKernel){ 32, MRCAP, 8, vnni, amx, amx8, dpbf16 } :
		(MicroKernel){ 16, 6, 6, 0, 0, 0, 0 };
}

/* --no-microkernel keeps contractions loop nests */
static int cpu_gemm(Gen *g, Kernel *k, FnPlan *fp, Op *op)
{
	int r = g->o->no_micro ? 0 : gemm_plan(g, k, fp, op);

	if (r > 0) {
		gemm_pad_columns(g, k);
		gemm_kperiod(g, k);
	}
	return r;
}

/* Channels fill whole panels, two or more: the GEMMs that store and read
 * the value channels last have its channels as N and as K, neither
 * padded nor short (mobilenet_v2's 16 and 24 channels at 112x112 and
 * 56x56 ran 10-30% slower so).  Not bf16 values where the GEMMs take
 * bf16 (AMX, AVX-512 BF16): those (gemm_plan.c's bgemm) have the
 * channels as rows and store the pixels of each contiguous. */
static int cpu_channels_last(const Value *v)
{
	const Type *t = v->type;

	if ((mk.amx || mk.dpbf16) && value_bf16_widened(v))
		return 0;
	return t->dims[1] % mk.nr == 0 && t->dims[1] >= 2 * mk.nr;
}

const Target T_cpu = {
	.name = "cpu",
	.format = "elf-x86_64",
	.options = cpu_options,
	.init = expr_init,
	.gemm = cpu_gemm,
	.channels_last = cpu_channels_last,
	.grid = loop_grid,
	.emit = cpu_emit,
};
