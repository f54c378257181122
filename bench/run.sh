#!/bin/sh
# run.sh - `make bench`: measures the FMA peak, makes PyTorch use OpenBLAS
# where Debian has it (its default, the netlib reference BLAS, is not what
# PyTorch runs on anywhere else), and runs bench/bench.py.
cd "$(dirname "$0")/.." || exit 1
PY=${PYTHON:-/usr/bin/python3}
"$PY" -c 'import torch, numpy' 2>/dev/null || { echo "bench: $PY cannot import torch and numpy (set PYTHON=)" >&2; exit 1; }
mkdir -p build/bench
# peak FLAGS FEATURE: bench/fma-peak.c built with FLAGS and run, where
# /proc/cpuinfo lists FEATURE: "GFLOP/s ISA"
peak() {
	grep -qw "$2" /proc/cpuinfo && cc -O2 $1 bench/fma-peak.c -o build/bench/fma-peak-$2 &&
		build/bench/fma-peak-$2
}
# the FMA peak: AVX-512 and AVX2 where the CPU has them, the better of the two
# (AMD's Zen 4 runs AVX-512 in two halves)
best=
for isa in "-mavx512f -mfma:avx512f" "-mavx2 -mfma:avx2"; do
	r=$(peak "${isa%:*}" "${isa#*:}") || continue
	if [ -z "$best" ] || [ "$(echo "$r $best" | awk '{print ($1 > $3)}')" = 1 ]; then best=$r; fi
done
export FMA_PEAK="$best"
# the low-precision peaks where the CPU has them (issue 25's rows): the
# bf16 dot product, the f16 FMA and AMX's bf16 tiles, beside the f32 one
low=
for isa in "-DPEAK_BF16 -mavx512f -mavx512bf16:avx512_bf16" "-DPEAK_F16 -mavx512f -mavx512fp16:avx512_fp16" \
		"-DPEAK_AMX -mamx-tile -mamx-bf16:amx_bf16"; do
	r=$(peak "${isa%:*}" "${isa#*:}") || continue
	low="$low${low:+, }$r"
done
export LOW_PEAK="$low"
# OpenBLAS for PyTorch: libopenblas0-pthread installs it beside the reference
# BLAS; the alternatives system may still point libblas.so.3 elsewhere
ob=/usr/lib/x86_64-linux-gnu/openblas-pthread
if [ -e "$ob/libblas.so.3" ]; then
	export LD_LIBRARY_PATH="$ob${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" BENCH_BLAS=openblas-pthread
else
	export BENCH_BLAS="$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null) (install libopenblas0-pthread for OpenBLAS)"
fi
exec "$PY" bench/bench.py build/bench
