# fxpipe - build, test, install.  `make` builds every tool into bin/.
.SUFFIXES:

PREFIX  = /usr/local
DESTDIR =
CC      = cc
LLVM_CONFIG = llvm-config-16
# A Python that can import torch (Debian's python3-torch lives in /usr/bin).
PYTHON != for p in $${PYTHON:-} python3 /usr/bin/python3; do \
	  $$p -c 'import torch' >/dev/null 2>&1 && { echo $$p; break; }; done; true
CFLAGS  = -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Wno-unused-parameter \
	  -Wno-sign-compare -Wno-missing-field-initializers
LDLIBS  = -lm
ifeq ($(SANITIZE),1)
CFLAGS += -O1 -fsanitize=address,undefined -fno-omit-frame-pointer \
	  -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
BUILD = build/asan
else
BUILD = build/opt
endif

LIBSRC := $(sort $(wildcard lib/*.c lib/torch/*.c lib/rt/*.c))
LIBOBJ := $(LIBSRC:lib/%.c=$(BUILD)/lib/%.o)
CTOOLS := $(notdir $(patsubst %/,%,$(dir $(wildcard tools/*/main.c))))
PYTOOLS := $(foreach d,$(notdir $(wildcard tools/*)),$(if $(wildcard tools/$(d)/$(d)),$(d)))
BINS := $(CTOOLS:%=bin/%) $(PYTOOLS:%=bin/%)
MODE_STAMP = bin/.mode-$(notdir $(BUILD))

all: $(BINS)

$(BUILD)/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -Ilib -c $< -o $@

$(BUILD)/tools/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -Ilib -c $< -o $@

$(BUILD)/libfx.a: $(LIBOBJ)
	@rm -f $@
	ar rcs $@ $(LIBOBJ)

# Switching between the plain and the sanitizer build relinks every tool.
$(MODE_STAMP):
	@mkdir -p bin
	@rm -f bin/.mode-*
	@touch $@

.SECONDEXPANSION:
bin/%: $$(subst .c,.o,$$(addprefix $(BUILD)/,$$(wildcard tools/$$*/*.c tools/$$*/*/*.c))) $(BUILD)/libfx.a $(MODE_STAMP)
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(BUILD)/libfx.a $(LDLIBS) $(TOOL_LIBS_$*)

# Python tools: a launcher that runs the tool with the Python that has torch.
$(PYTOOLS:%=bin/%): bin/%: tools/%/$$*
	@mkdir -p bin
	@test -n "$(PYTHON)" || { echo "warning: no Python with torch found; $@ will need PYTHON=" >&2; }
	printf '#!/bin/sh\nexec %s %s "$$@"\n' "$(or $(PYTHON),python3)" "$(CURDIR)/$<" > $@
	chmod +x $@

# torch-opt's convert-torch-to-linalg pass runs torch-lower's lowerings.
bin/torch-opt: $(patsubst %.c,$(BUILD)/%.o,$(filter-out tools/torch-lower/main.c,$(wildcard tools/torch-lower/*.c)))

TOOL_LIBS_fx-import = -ljansson
TOOL_LIBS_codegen = $(shell $(LLVM_CONFIG) --ldflags --libs) -lpthread
$(BUILD)/tools/codegen/%.o: CFLAGS += -Itools/codegen $(filter -I%,$(shell $(LLVM_CONFIG) --cflags))
TOOL_LIBS_vmrun = -lpthread -ldl

-include $(shell find build -name '*.d' 2>/dev/null)

UNITTESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/*.c))
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libfx.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -Ilib -o $@ $< $(BUILD)/libfx.a $(LDLIBS)

check: all $(UNITTESTS)
	@PYTHON="$(PYTHON)" BUILD="$(BUILD)" SANITIZE="$(SANITIZE)" sh tests/run.sh

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	for t in $(CTOOLS); do cp bin/$$t $(DESTDIR)$(PREFIX)/bin/; done
	for t in $(PYTOOLS); do \
	  mkdir -p $(DESTDIR)$(PREFIX)/lib/fxpipe/$$t; \
	  cp -R tools/$$t/. $(DESTDIR)$(PREFIX)/lib/fxpipe/$$t/; \
	  rm -rf $(DESTDIR)$(PREFIX)/lib/fxpipe/$$t/__pycache__; \
	  printf '#!/bin/sh\nexec %s %s "$$@"\n' "$(or $(PYTHON),python3)" \
	    "$(PREFIX)/lib/fxpipe/$$t/$$t" > $(DESTDIR)$(PREFIX)/bin/$$t; \
	  chmod +x $(DESTDIR)$(PREFIX)/bin/$$t; \
	done
	cp man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

clean:
	rm -rf build bin tests/out

.PHONY: all check install clean

# The README's first command: the main job on a bundled example, the seed's
# LinearModule, through every stage, and its result next to PyTorch's.
demo: all
	@mkdir -p build/demo
	bin/fx-export examples/linear.py:make_model -o build/demo/linear.json
	bin/fx-import build/demo/linear.json | bin/torch-opt | bin/torch-lower | \
	  bin/codegen --target=cpu | bin/vmpack -o build/demo/linear.vmfb
	@$(or $(PYTHON),python3) examples/eager.py examples/linear.py:make_model build/demo
	@echo 'fxpipe:  '"$$(bin/vmrun build/demo/linear.vmfb --input=@build/demo/in0.npy)"
	bin/vmrun build/demo/linear.vmfb --input=@build/demo/in0.npy --expected_output=@build/demo/out0.npy

# `make bench`: the models' latency against PyTorch eager, ONNX Runtime and
# torch.compile (Inductor with freezing), memory, compile times, and GFLOP/s
# against the machine's FMA peak; the
# table goes to standard output and build/bench.txt.  bench/run.sh says how.
bench: all
	@PYTHON="$(PYTHON)" sh bench/run.sh

# `make fuzz-diff N=20000 SEED=7`: the differential tester (tests/diff/fuzz.py),
# N random programs and chains through the whole pipe against PyTorch
# eager; with SANITIZE=1, on the ASan/UBSan build.  make check runs a
# short slice of it (tests/diff/fuzz.bats).
# `make fuzz-diff-dynamic N=300 SEED=7`: its dynamic batch mode (fuzz.py
# --dynamic-batch): each program exported once with dimension 0 of its
# inputs one symbol batch, compiled once and run at batches 0, 1, 3, 8,
# 9, 17 and the export's (those in range) against eager, or refused by
# codegen as not computed item by item; outcomes counted, a wrong number
# printed with its replay command.  Needs PyTorch 2: TORCH2_PYTHON, by
# default .venv/bin/python (scripts/setup.sh); skipped without it.
# `make fuzz-diff-length N=300 SEED=7`: its dynamic length mode (fuzz.py
# --dynamic-length): dimension 1 the symbol seq in [1, 40], run at
# lengths 1, 2, 5, 15, 16, 17, 33, 40 and the export's, or refused by
# codegen as not keeping elements in place; needs PyTorch 2 as above.
N = 1000
SEED = 1
TORCH2_PYTHON ?= .venv/bin/python
fuzz-diff: all
	@$(or $(PYTHON),python3) tests/diff/fuzz.py --seed $(SEED) --count $(N) --quiet

fuzz-diff-dynamic: all
	@if [ -x "$(TORCH2_PYTHON)" ]; then \
	  $(TORCH2_PYTHON) tests/diff/fuzz.py --dynamic-batch --seed $(SEED) --count $(N) --quiet; \
	else echo "fuzz-diff-dynamic: skipped: no PyTorch 2 python $(TORCH2_PYTHON) (scripts/setup.sh)"; fi

fuzz-diff-length: all
	@if [ -x "$(TORCH2_PYTHON)" ]; then \
	  $(TORCH2_PYTHON) tests/diff/fuzz.py --dynamic-length --seed $(SEED) --count $(N) --quiet; \
	else echo "fuzz-diff-length: skipped: no PyTorch 2 python $(TORCH2_PYTHON) (scripts/setup.sh)"; fi

# `make fuzz-int8 N=200 SEED=7`: random int8 convolutions and linear
# layers (PT2E, both quantizers) on codegen's int8 kernels and its f32
# ones against eager (tests/diff/qfuzz.py); make check runs a short slice
# (tests/diff/qfuzz.bats).  Needs PyTorch 2 with torchao as above.
fuzz-int8: all
	@if [ -x "$(TORCH2_PYTHON)" ]; then \
	  $(TORCH2_PYTHON) tests/diff/qfuzz.py --seed $(SEED) --count $(N); \
	else echo "fuzz-int8: skipped: no PyTorch 2 python $(TORCH2_PYTHON) (scripts/setup.sh)"; fi

# `make fuzz-conv N=2000 SEED=7`: random f32 convolutions, most of few
# pixels and many channels (the ones codegen reads through their taps),
# against eager (tests/diff/convfuzz.py); make check runs a short slice
# (tests/diff/convfuzz.bats).
fuzz-conv: all
	@$(or $(PYTHON),python3) tests/diff/convfuzz.py --seed $(SEED) --count $(N)

# `make fuzz-bf16 N=1000 SEED=7`: random convolutions and linear layers
# under bf16 autocast on codegen's bf16 kernels (AMX, vdpbf16ps) and its
# f32 ones against eager under autocast (tests/diff/bf16fuzz.py); make
# check runs a short slice (tests/diff/bf16fuzz.bats).
fuzz-bf16: all
	@$(or $(PYTHON),python3) tests/diff/bf16fuzz.py --seed $(SEED) --count $(N)

.PHONY: demo bench fuzz-diff fuzz-diff-dynamic fuzz-diff-length fuzz-int8 fuzz-conv fuzz-bf16

# `make iree-check`: tests/e2e/iree.bats, the five test models lowered by
# torch-lower --mlir-dialect-version=upstream through IREE's iree-compile
# (llvm-cpu) and iree-run-module against PyTorch eager.  It installs PyPI's
# iree-base-compiler and iree-base-runtime into .iree-venv/ (ignored) on
# its first run; make check does not (its iree.bats skips without them).
IREE_VENV = .iree-venv
$(IREE_VENV)/bin/iree-run-module:
	$(or $(PYTHON),python3) -m venv $(IREE_VENV)
	$(IREE_VENV)/bin/pip install iree-base-compiler iree-base-runtime
iree-check: all $(IREE_VENV)/bin/iree-run-module
	PYTHON="$(PYTHON)" IREE_BIN=$(IREE_VENV)/bin bats tests/e2e/iree.bats

.PHONY: iree-check

# `make fuzz T=ir SECONDS=60`: coverage-guided fuzzing of one reader with
# clang's libFuzzer under ASan and UBSan (tests/fuzz/README.md): the
# targets ir, fxjson, vmfb, npy and textin, built into build/fuzz/ (lib/
# and the tools' sources compiled again with -fsanitize=fuzzer-no-link,
# LLVM not linked), run on tests/fuzz/corpus/T/ (read only: what the
# fuzzer adds goes to build/fuzz/corpus/T/) with tests/fuzz/T.dict; crash
# inputs go to $(FUZZ_OUT)/T/.  FUZZ_ARGS adds libFuzzer flags, e.g.
# FUZZ_ARGS='-fork=1 -ignore_crashes=1' to go on past a known crash.
# An input that runs longer than 10 s is reported as a hang (-timeout=10).
# `make fuzz-smoke` runs each target for FUZZ_SMOKE seconds.
# clang-16 where installed (scripts/setup.sh), else clang.
FUZZ_CC != command -v clang-16 2>/dev/null || command -v clang 2>/dev/null || echo clang
FUZZ_BUILD = build/fuzz
FUZZ_OUT = /tmp/fxpipe-fuzz
FUZZ_TARGETS = ir fxjson vmfb npy textin safetensors
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS = -std=c11 -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer \
	  -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
	  -Wno-missing-field-initializers $(FUZZ_SAN)
T = ir
SECONDS = 60
FUZZ_SMOKE = 20
FUZZ_ARGS =
FUZZ_LIB := $(LIBSRC:lib/%.c=$(FUZZ_BUILD)/lib/%.o)

$(FUZZ_BUILD)/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -Ilib -c $< -o $@

$(FUZZ_BUILD)/tools/%.o: tools/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -Ilib -c $< -o $@

$(FUZZ_BUILD)/libfx.a: $(FUZZ_LIB)
	@rm -f $@
	ar rcs $@ $(FUZZ_LIB)

# What each target links besides its harness and lib/.
FUZZ_OBJS_fxjson = $(patsubst %.c,$(FUZZ_BUILD)/%.o,$(filter-out %/main.c,$(wildcard tools/fx-import/*.c)))
FUZZ_OBJS_vmfb = $(FUZZ_BUILD)/tools/vmpack/dump.o
FUZZ_OBJS_npy = $(FUZZ_BUILD)/tools/vmrun/npy.o $(FUZZ_BUILD)/tools/vmrun/tensor.o
FUZZ_OBJS_textin = $(FUZZ_OBJS_npy)
FUZZ_LIBS_fxjson = -ljansson -Wl,--wrap=open,--wrap=tool_fail
FUZZ_LIBS_vmfb = -lpthread -ldl
FUZZ_LIBS_npy = -lpthread -ldl -Wl,--wrap=rt_alloc
FUZZ_LIBS_textin = $(FUZZ_LIBS_npy)

$(FUZZ_BUILD)/fuzz-%: tests/fuzz/%.c $$(FUZZ_OBJS_$$*) $(FUZZ_BUILD)/libfx.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -MMD -MP -Ilib -o $@ $< \
	  $(FUZZ_OBJS_$*) $(FUZZ_BUILD)/libfx.a -lm $(FUZZ_LIBS_$*)

fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz-%)

fuzz: $(FUZZ_BUILD)/fuzz-$(T)
	@mkdir -p $(FUZZ_BUILD)/corpus/$(T) $(FUZZ_OUT)/$(T)
	$(FUZZ_BUILD)/fuzz-$(T) -max_total_time=$(SECONDS) -close_fd_mask=3 -timeout=10 \
	  -artifact_prefix=$(FUZZ_OUT)/$(T)/ -print_final_stats=1 \
	  $(if $(wildcard tests/fuzz/$(T).dict),-dict=tests/fuzz/$(T).dict) \
	  $(FUZZ_ARGS) $(FUZZ_BUILD)/corpus/$(T) tests/fuzz/corpus/$(T)

fuzz-smoke: fuzz-build
	@rc=0; for t in $(FUZZ_TARGETS); do \
	  $(MAKE) --no-print-directory fuzz T=$$t SECONDS=$(FUZZ_SMOKE) \
	    FUZZ_ARGS='-seed=1 $(FUZZ_ARGS)' || { echo "fuzz-smoke: $$t failed" >&2; rc=1; }; \
	done; exit $$rc

.PHONY: fuzz fuzz-build fuzz-smoke
# Objects are kept between builds; the mode stamp is not secondary, so
# that a missing one (after a build of the other mode) relinks the tools.
TOOLOBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tools/*/*.c tools/*/*/*.c))
.SECONDARY: $(LIBOBJ) $(TOOLOBJ)

# libfxrt.so: the runtime (lib/rt/, which needs nothing else of lib/) as a
# shared library for programs outside fxpipe, and for the Python package
# python/fxpipe.  Its objects are built again position independent in
# $(BUILD)/pic; it exports fxrt.h's functions only (lib/rt/fxrt.map) under
# the soname libfxrt.so.$(FXRT_ABI).  Under SANITIZE=1 it is built with
# ASan and UBSan like the rest, so only a sanitized program (the C example)
# can load it.  examples/run.c, a C program over fxrt.h, is built by make
# check and tested by tests/rt/.
FXRT_ABI = 0
FXRT_VERSION = 0.1.0
PYTHONDIR = $(PREFIX)/lib/fxpipe/python
RTPIC := $(patsubst lib/%.c,$(BUILD)/pic/lib/%.o,$(wildcard lib/rt/*.c))
FXRT_SO = $(BUILD)/libfxrt.so.$(FXRT_ABI)

$(BUILD)/pic/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fPIC -MMD -MP -Ilib -c $< -o $@

$(FXRT_SO): $(RTPIC) lib/rt/fxrt.map
	$(CC) $(LDFLAGS) -shared -Wl,-soname,libfxrt.so.$(FXRT_ABI) \
	  -Wl,--version-script=lib/rt/fxrt.map -Wl,--no-undefined -o $@ $(RTPIC) \
	  -lm -lpthread -ldl

$(BUILD)/libfxrt.so: $(FXRT_SO)
	ln -sf $(notdir $<) $@

# The example links the build tree's library (rpath: runs without
# LD_LIBRARY_PATH); tests/rt/install.bats builds it again against an
# installed copy with pkg-config.
$(BUILD)/examples/run: examples/run.c $(BUILD)/libfxrt.so
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -Ilib/rt -o $@ $< -L$(BUILD) -lfxrt -Wl,-rpath,$(CURDIR)/$(BUILD)

fxrt: $(BUILD)/libfxrt.so $(BUILD)/examples/run
all: $(BUILD)/libfxrt.so
check: $(BUILD)/examples/run
install: install-fxrt

# The Python package learns where its library and tools are from
# _paths.py, written here with the installed locations (PREFIX, not
# DESTDIR: where they will be used from).
install-fxrt: all
	mkdir -p $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/share/man/man3 $(DESTDIR)$(PYTHONDIR)/fxpipe
	cp $(FXRT_SO) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libfxrt.so.$(FXRT_ABI) $(DESTDIR)$(PREFIX)/lib/libfxrt.so
	cp lib/rt/fxrt.h $(DESTDIR)$(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(FXRT_VERSION)|' \
	  lib/rt/fxrt.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/fxrt.pc
	cp man/*.3 $(DESTDIR)$(PREFIX)/share/man/man3/
	cp python/fxpipe/*.py $(DESTDIR)$(PYTHONDIR)/fxpipe/
	printf 'LIB = %s\nBIN = %s\nPYLIB = %s\n' "'$(PREFIX)/lib/libfxrt.so.$(FXRT_ABI)'" \
	  "'$(PREFIX)/bin'" "'$(PREFIX)/lib/fxpipe/fx-export'" > $(DESTDIR)$(PYTHONDIR)/fxpipe/_paths.py

.PHONY: fxrt install-fxrt
.SECONDARY: $(RTPIC)
