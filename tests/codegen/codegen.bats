#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# codegen: errors, --emit, and numbers.  The numeric tests here run
# codegen's output with fxvm-interp (a test-only interpreter of the host
# program that loads the kernels from a shared object linked from
# --emit=obj), so they need neither vmpack nor vmrun.  The op fixtures of
# tests/torch-lower and the five test models go through the real vmpack and
# vmrun in tests/e2e.

setup_file() {
  export INTERP="$BATS_FILE_TMPDIR/fxvm-interp"
  san=
  [ "${SANITIZE:-0}" = 1 ] && san="-fsanitize=address,undefined"
  cc -O1 $san -Ilib tests/codegen/fxvm-interp.c "${BUILD:-build/opt}/libfx.a" -lm -ldl -lpthread -o "$INTERP"
}

setup() {
  T="$BATS_TEST_TMPDIR"
  IN="$BATS_TEST_DIRNAME/inputs"
  PY="${PYTHON:-/usr/bin/python3}"
}

need_numpy() {
  "$PY" -c "import numpy" 2>/dev/null || skip "$PY cannot import numpy"
}

# for_interp FILE [CODEGEN FLAGS]: $T/m.mlir (the host program) and
# $T/k.so (its kernels) for fxvm-interp
for_interp() {
  local f=$1
  shift
  bin/codegen "$@" "$f" -o "$T/m.mlir"
  bin/codegen "$@" --emit=obj "$f" -o "$T/k.o"
  cc -shared -o "$T/k.so" "$T/k.o" -Wl,-z,notext
}

@test "an unsupported op is an error at its location, exit 1, no output" {
  run --separate-stderr bin/codegen "$IN/unsupported.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [[ "$stderr" == *"unsupported.mlir:3:8: error: unsupported op 'linalg.pooling_nhwc_max'"* ]]
}

@test "a named op whose cast is not cast_signed is refused, not computed as signed" {
  run --separate-stderr bin/codegen "$IN/matmul-cast-unsigned.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [[ "$stderr" == *"matmul-cast-unsigned.mlir:5:8: error: 'linalg.matmul' with cast = #linalg.type_fn<cast_unsigned> is not supported"* ]]
  sed 's/cast_unsigned/cast_signed/' "$IN/matmul-cast-unsigned.mlir" | bin/codegen > /dev/null
}

@test "-o is atomic: nothing is written on error" {
  run bin/codegen "$IN/unsupported.mlir" -o "$T/out.mlir"
  [ "$status" -eq 1 ]
  [ ! -e "$T/out.mlir" ]
}

@test "bad options are errors" {
  run bin/codegen --target=tpu "$IN/seed-linear-linalg.mlir"
  [ "$status" -eq 1 ]
  run bin/codegen --emit=bogus "$IN/seed-linear-linalg.mlir"
  [ "$status" -eq 1 ]
  run --separate-stderr bin/codegen --llvm-passes=bogus "$IN/seed-linear-linalg.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [[ "$stderr" == *"unknown pass name 'bogus'"* ]]
  run bin/codegen --jobs=0 "$IN/seed-linear-linalg.mlir"
  [ "$status" -eq 1 ]
}

@test "--llvm-passes runs the given pipeline instead of the default ones" {
  bin/codegen --llvm-passes='default<O1>' --emit=llvm "$IN/seed-linear-linalg.mlir" > "$T/o1.ll"
  bin/codegen --emit=llvm "$IN/seed-linear-linalg.mlir" > "$T/dflt.ll"
  bin/codegen -O0 --emit=llvm "$IN/seed-linear-linalg.mlir" > "$T/o0.ll"
  grep -q '^define void @dispatch_0(ptr' "$T/o1.ll"
  ! cmp -s "$T/o0.ll" "$T/o1.ll"
}

@test "--emit=llvm and --emit=asm print the kernels" {
  bin/codegen --emit=llvm "$IN/seed-linear-linalg.mlir" | grep -q '^define void @dispatch_0(ptr'
  bin/codegen --emit=asm --cpu=skylake-avx512 "$IN/seed-linear-linalg.mlir" | grep -q '^dispatch_0:'
}

@test "--emit shows the code the module holds: each kernel through its own pipeline" {
  # two-pipelines.mlir has kernels of both kinds: a GEMM and a depthwise
  # convolution (vectorized by codegen: the short pipeline) and a row
  # reduction (a loop nest: O3).  Every function of --emit=obj is the
  # same machine code as in the module's objects, and --emit=llvm is one
  # module that llvm-as reads.
  bin/codegen --cpu=skylake-avx512 "$IN/two-pipelines.mlir" -o "$T/m.mlir"
  bin/codegen --cpu=skylake-avx512 --emit=obj "$IN/two-pipelines.mlir" -o "$T/e.o"
  bin/codegen --cpu=skylake-avx512 --emit=llvm "$IN/two-pipelines.mlir" | /usr/lib/llvm-16/bin/llvm-as -o /dev/null
  "$PY" -c "
import re, sys
s = open('$T/m.mlir').read()
objs = re.findall(r'kernels[_0-9]*: \"0x([0-9A-F]+)\"', s)
assert len(objs) == 2, len(objs)
for i, h in enumerate(objs):
    open('$T/k%d.o' % i, 'wb').write(bytes.fromhex(h)[4:])
"
  syms=$(nm "$T/e.o" | awk '$2 == "T" || $2 == "t" { print $3 }')
  [ "$(echo "$syms" | wc -l)" -ge 8 ]
  dis() { objdump -d --no-show-raw-insn --no-addresses --disassemble="$2" "$1" | tail -n +7 | sed 's/[0-9a-f]* </</'; }
  for f in $syms; do
    a=$(dis "$T/e.o" "$f")
    b=$(dis "$T/k0.o" "$f")
    [ -n "$b" ] || b=$(dis "$T/k1.o" "$f")
    [ -n "$a" ] && [ "$a" = "$b" ] || { echo "$f differs"; diff <(echo "$a") <(echo "$b") | head; false; }
  done
}

@test "--cpu and --features reach the module and the object" {
  bin/codegen --cpu=skylake-avx512 --features=+avx512f,+fma "$IN/seed-linear-linalg.mlir" > "$T/m.mlir"
  # the CPU's instruction sets, those --features names last, as it says
  grep -q 'fxvm.cpu = "skylake-avx512", fxvm.features = "+cx16,+sahf,+popcnt,+sse3,+ssse3,+sse4.1,+sse4.2,+avx,+avx2,+f16c,+bmi,+bmi2,+lzcnt,+movbe,+avx512bw,+avx512cd,+avx512dq,+avx512vl,+avx512f,+fma"' "$T/m.mlir"
}

@test "the output reads back: torch-opt parses and verifies it, and prints it unchanged" {
  bin/codegen "$IN/seed-linear-linalg.mlir" > "$T/a.mlir"
  bin/torch-opt -p '' "$T/a.mlir" > "$T/b.mlir"
  bin/torch-opt -p '' "$T/b.mlir" | diff - "$T/b.mlir"
}

@test "the seed LinearModule computes input @ weight + bias" {
  need_numpy
  "$PY" -c "
import numpy as np
r = np.random.RandomState(0)
r.randn(4, 3).astype(np.float32).tofile('$T/w'); r.randn(3).astype(np.float32).tofile('$T/b')
r.randn(4).astype(np.float32).tofile('$T/x')"
  for_interp "$IN/seed-linear-linalg.mlir"
  "$INTERP" "$T/m.mlir" "$T/k.so" main "$T/w" "$T/b" "$T/x" -- "$T/y0" "$T/y1"
  "$PY" -c "
import numpy as np
w = np.fromfile('$T/w', np.float32).reshape(4, 3); b = np.fromfile('$T/b', np.float32)
x = np.fromfile('$T/x', np.float32)
assert np.allclose(np.fromfile('$T/y0', np.float32), x @ w + b, rtol=1e-5, atol=1e-6)
assert (np.fromfile('$T/y1', np.float32) == x).all()"
}

@test "a 256x320x288 matmul through the micro-kernel, on 2 threads" {
  need_numpy
  cat > "$T/mm.mlir" <<'MLIR'
func.func @main(%a: tensor<256x288xf32>, %b: tensor<288x320xf32>) -> tensor<256x320xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<256x320xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<256x320xf32>) -> tensor<256x320xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<256x288xf32>, tensor<288x320xf32>) outs(%1 : tensor<256x320xf32>) -> tensor<256x320xf32>
  return %2 : tensor<256x320xf32>
}
MLIR
  bin/codegen --dump-dispatches "$T/mm.mlir" | grep -q 'gemm micro-kernel'
  for_interp "$T/mm.mlir"
  "$PY" -c "
import numpy as np
r = np.random.RandomState(1)
r.randn(256, 288).astype(np.float32).tofile('$T/a'); r.randn(288, 320).astype(np.float32).tofile('$T/b')"
  THREADS=2 "$INTERP" "$T/m.mlir" "$T/k.so" main "$T/a" "$T/b" -- "$T/c"
  "$PY" -c "
import numpy as np
a = np.fromfile('$T/a', np.float32).reshape(256, 288); b = np.fromfile('$T/b', np.float32).reshape(288, 320)
c = np.fromfile('$T/c', np.float32).reshape(256, 320)
assert np.abs(c - a @ b).max() < 1e-3, np.abs(c - a @ b).max()"
}

@test "a batch matmul whose B panels the micro-kernel prefetches, zmm and ymm tiles, matches numpy on 2 threads" {
  need_numpy
  # B is 3.5 MB (packed by a kernel of its own): each tile prefetches the
  # next B panel (past the last of batch 0 is batch 1's first), half of it
  # by M's panel parity with 50 rows and 32-wide tiles, all of it with 7
  # rows or 16-wide ones; workgroups share B panels in turn
  for m in 50 7; do
    sed "s/MM/$m/g" > "$T/bmm.mlir" <<'MLIR'
func.func @main(%a: tensor<2xMMx2304xf32>, %b: tensor<2x2304x96xf32>) -> tensor<2xMMx96xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<2xMMx96xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2xMMx96xf32>) -> tensor<2xMMx96xf32>
  %2 = linalg.batch_matmul ins(%a, %b : tensor<2xMMx2304xf32>, tensor<2x2304x96xf32>) outs(%1 : tensor<2xMMx96xf32>) -> tensor<2xMMx96xf32>
  return %2 : tensor<2xMMx96xf32>
}
MLIR
    "$PY" -c "
import numpy as np
r = np.random.RandomState($m)
r.randn(2, $m, 2304).astype(np.float32).tofile('$T/a'); r.randn(2, 2304, 96).astype(np.float32).tofile('$T/b')"
    for cpu in host x86-64-v3; do
      bin/codegen --cpu=$cpu --emit=llvm "$T/bmm.mlir" | grep -q 'call void @llvm.prefetch'
      bin/codegen --cpu=$cpu --emit=llvm "$T/bmm.mlir" | grep -q 'define internal.*@gemm.mk.*\.pf('
      for_interp "$T/bmm.mlir" --cpu=$cpu
      rm -f "$T/c"
      THREADS=2 "$INTERP" "$T/m.mlir" "$T/k.so" main "$T/a" "$T/b" -- "$T/c"
      "$PY" -c "
import numpy as np
a = np.fromfile('$T/a', np.float32).reshape(2, $m, 2304); b = np.fromfile('$T/b', np.float32).reshape(2, 2304, 96)
c = np.fromfile('$T/c', np.float32).reshape(2, $m, 96)
assert np.abs(c - a @ b).max() < 1e-2, np.abs(c - a @ b).max()"
    done
  done
}

@test "a padded convolution's im2col panels as masked loads match numpy, whole and partial panels, stride 1 and 2, zmm and ymm" {
  need_numpy
  # the pack reads the input without the clamps that the padding's range
  # test keeps idle: one masked load per vector across the padding and the
  # rows' ends (two and a shuffle at stride 2, where scalar tests find
  # the lanes on one row: 40 wide, both ways); a 17x19 output leaves the
  # last panel partial (a second range test), 16x16 fills 8 panels; in
  # zmm the GEMM kernel packs B itself, in ymm the operands trade places
  # and a pack kernel (a loop nest) packs A
  for c in 17x19x1 16x16x1 9x40x2; do
    IFS=x read -r h w s <<< "$c"
    ih=$(((h - 1) * s + 1)) iw=$(((w - 1) * s + 1))
    sed "s/HH/$h/g; s/WW/$w/g; s/IH/$ih/g; s/IW/$iw/g; s/PH/$((ih + 2))/g; s/PW/$((iw + 2))/g; s/SS/$s/g" > "$T/pc.mlir" <<'MLIR'
func.func @main(%x: tensor<1x8xIHxIWxf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16xHHxWWxf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x8xIHxIWxf32> to tensor<1x8xPHxPWxf32>
  %0 = tensor.empty() : tensor<1x16xHHxWWxf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x16xHHxWWxf32>) -> tensor<1x16xHHxWWxf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<SS> : vector<2xi64>} ins(%p, %w : tensor<1x8xPHxPWxf32>, tensor<16x8x3x3xf32>) outs(%1 : tensor<1x16xHHxWWxf32>) -> tensor<1x16xHHxWWxf32>
  return %2 : tensor<1x16xHHxWWxf32>
}
MLIR
    "$PY" -c "
import numpy as np
r = np.random.RandomState($h)
r.randn(1, 8, $ih, $iw).astype(np.float32).tofile('$T/x'); r.randn(16, 8, 3, 3).astype(np.float32).tofile('$T/w')"
    for cpu in host x86-64-v3; do
      bin/codegen --cpu=$cpu --emit=llvm "$T/pc.mlir" | grep -q 'call .*@llvm.masked.load'
      for_interp "$T/pc.mlir" --cpu=$cpu
      rm -f "$T/c"
      THREADS=2 "$INTERP" "$T/m.mlir" "$T/k.so" main "$T/x" "$T/w" -- "$T/c"
      "$PY" -c "
import numpy as np
x = np.fromfile('$T/x', np.float32).reshape(8, $ih, $iw); w = np.fromfile('$T/w', np.float32).reshape(16, 8, 3, 3)
xp = np.pad(x, ((0, 0), (1, 1), (1, 1)))
ref = np.zeros((16, $h, $w))
for ky in range(3):
    for kx in range(3):
        ref += np.einsum('oc,cyx->oyx', w[:, :, ky, kx], xp[:, ky:ky + ($h - 1) * $s + 1:$s, kx:kx + ($w - 1) * $s + 1:$s])
c = np.fromfile('$T/c', np.float32).reshape(16, $h, $w)
assert np.abs(c - ref).max() < 1e-4, np.abs(c - ref).max()"
    done
  done
}

@test "integer average pooling: i64 window sums divided by their sizes, truncated" {
  need_numpy
  "$PY" -c "
import numpy as np
np.random.RandomState(1).randint(-50, 50, (1, 2, 4, 4)).astype(np.int64).tofile('$T/x')"
  for_interp "$IN/avgpool-i64.mlir"
  "$INTERP" "$T/m.mlir" "$T/k.so" main "$T/x" -- "$T/y"
  "$PY" -c "
import numpy as np
x = np.fromfile('$T/x', np.int64).reshape(1, 2, 4, 4)
s = x.reshape(1, 2, 2, 2, 2, 2).sum(axis=(3, 5))
d = np.array([[4, 3], [2, 1]])
want = np.sign(s) * (np.abs(s) // d)
got = np.fromfile('$T/y', np.int64).reshape(want.shape)
assert (got == want).all(), (got, want)"
}

@test "reshapes of empty tensors compile, and their kernels store nothing" {
  for_interp "$IN/empty-reshape.mlir"
  : > "$T/a"; : > "$T/b"
  "$INTERP" "$T/m.mlir" "$T/k.so" main "$T/a" "$T/b" -- "$T/y0" "$T/y1" "$T/y2"
  [ ! -s "$T/y0" ] && [ ! -s "$T/y1" ] && [ ! -s "$T/y2" ]
}

@test "an f16 to integer conversion that LLVM 16's vectorizer mangled compiles for every x86 CPU" {
  for cpu in x86-64 x86-64-v3 skylake-avx512 znver4 sapphirerapids; do
    run bin/codegen --cpu=$cpu tests/codegen/inputs/f16-to-u8-vectorized.mlir -o "$BATS_TEST_TMPDIR/m.fxvm"
    [ "$status" -eq 0 ] || { echo "$cpu: $output" | head -5; false; }
  done
}

@test "a dense_resource without a blob reads, but codegen refuses to compile it" {
  cat > "$T/nodata.mlir" <<'MLIR'
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %cst = arith.constant dense_resource<w> : tensor<4xf32>
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0, %cst : tensor<4xf32>, tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %2 = arith.addf %in, %in_0 : f32
    linalg.yield %2 : f32
  } -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
MLIR
  bin/torch-opt -p '' "$T/nodata.mlir" > /dev/null
  run --separate-stderr bin/codegen --target=cpu "$T/nodata.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "$T/nodata.mlir: error: dense_resource 'w' has no data: the input holds no blob for it (was it cut short?)" ]
}

@test "an op codegen cannot emit in a reduction's body is an error at it, not a crash" {
  cat > "$T/red.mlir" <<'MLIR'
func.func @main(%x: tensor<1x4xf32>) -> tensor<1xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<1x4xf32>) outs(%m0 : tensor<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maximumf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<1xf32>
  return %m : tensor<1xf32>
}
MLIR
  run bin/codegen "$T/red.mlir" -o "$T/red.out"
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"red.mlir:5:"*"error: unsupported operation 'arith.maximumf'"* ]]
  [[ "$output" != *"internal error"* ]]
  [ ! -e "$T/red.out" ]
}

@test "a convolution and a matmul whose output starts as the bias (torch-mlir's form) are GEMMs, the bias in the epilogue, and match numpy" {
  need_numpy
  # torch-mlir (and torch-lower with a dynamic batch) broadcast the bias
  # into the output before the sum: the accumulator starts from 0 and the
  # bias is added after, as with a linalg.fill of 0 and a bias add after
  # (a 7x13x37 matmul stays a loop nest, the bias after the sum too); a
  # batch-1 linear, and C + A B with C an argument, alike
  cat > "$T/b.mlir" <<'MLIR'
func.func @main(%x: tensor<2x5x9x11xf32>, %w: tensor<19x5x3x3xf32>, %b: tensor<19xf32>, %a: tensor<64x96xf32>, %v: tensor<96x80xf32>, %c: tensor<80xf32>, %s: tensor<7x13xf32>, %t: tensor<13x37xf32>, %u: tensor<37xf32>, %q: tensor<1x96xf32>, %cc: tensor<64x80xf32>) -> (tensor<2x19x7x9xf32>, tensor<64x80xf32>, tensor<7x37xf32>, tensor<1x80xf32>, tensor<64x80xf32>) {
  %0 = tensor.empty() : tensor<2x19x7x9xf32>
  %1 = linalg.broadcast ins(%b : tensor<19xf32>) outs(%0 : tensor<2x19x7x9xf32>) dimensions = [0, 2, 3]
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x5x9x11xf32>, tensor<19x5x3x3xf32>) outs(%1 : tensor<2x19x7x9xf32>) -> tensor<2x19x7x9xf32>
  %3 = tensor.empty() : tensor<64x80xf32>
  %4 = linalg.broadcast ins(%c : tensor<80xf32>) outs(%3 : tensor<64x80xf32>) dimensions = [0]
  %5 = linalg.matmul ins(%a, %v : tensor<64x96xf32>, tensor<96x80xf32>) outs(%4 : tensor<64x80xf32>) -> tensor<64x80xf32>
  %6 = tensor.empty() : tensor<7x37xf32>
  %7 = linalg.broadcast ins(%u : tensor<37xf32>) outs(%6 : tensor<7x37xf32>) dimensions = [0]
  %8 = linalg.matmul ins(%s, %t : tensor<7x13xf32>, tensor<13x37xf32>) outs(%7 : tensor<7x37xf32>) -> tensor<7x37xf32>
  %9 = tensor.empty() : tensor<1x80xf32>
  %10 = linalg.broadcast ins(%c : tensor<80xf32>) outs(%9 : tensor<1x80xf32>) dimensions = [0]
  %11 = linalg.matmul ins(%q, %v : tensor<1x96xf32>, tensor<96x80xf32>) outs(%10 : tensor<1x80xf32>) -> tensor<1x80xf32>
  %12 = linalg.matmul ins(%a, %v : tensor<64x96xf32>, tensor<96x80xf32>) outs(%cc : tensor<64x80xf32>) -> tensor<64x80xf32>
  return %2, %5, %8, %11, %12 : tensor<2x19x7x9xf32>, tensor<64x80xf32>, tensor<7x37xf32>, tensor<1x80xf32>, tensor<64x80xf32>
}
MLIR
  run bin/codegen --dump-dispatches "$T/b.mlir"
  [ "$status" -eq 0 ]
  [ "$(grep -c 'gemm micro-kernel' <<< "$output")" -eq 4 ]
  "$PY" -c "
import numpy as np
r = np.random.RandomState(3)
for n, s in (('x', (2, 5, 9, 11)), ('w', (19, 5, 3, 3)), ('b', (19,)), ('a', (64, 96)), ('v', (96, 80)), ('c', (80,)),
             ('s', (7, 13)), ('t', (13, 37)), ('u', (37,)), ('q', (1, 96)), ('cc', (64, 80))):
    r.randn(*s).astype(np.float32).tofile('$T/' + n)"
  for_interp "$T/b.mlir"
  THREADS=2 "$INTERP" "$T/m.mlir" "$T/k.so" main "$T/x" "$T/w" "$T/b" "$T/a" "$T/v" "$T/c" "$T/s" "$T/t" "$T/u" "$T/q" "$T/cc" -- "$T/o1" "$T/o2" "$T/o3" "$T/o4" "$T/o5"
  "$PY" -c "
import numpy as np
f = lambda n, s: np.fromfile('$T/' + n, np.float32).reshape(s)
x, w, b = f('x', (2, 5, 9, 11)), f('w', (19, 5, 3, 3)), f('b', (19,))
ref = np.zeros((2, 19, 7, 9)) + b[None, :, None, None]
for ky in range(3):
    for kx in range(3):
        ref += np.einsum('oc,ncyx->noyx', w[:, :, ky, kx], x[:, :, ky:ky + 7, kx:kx + 9])
for got, want in ((f('o1', (2, 19, 7, 9)), ref),
                  (f('o2', (64, 80)), f('a', (64, 96)) @ f('v', (96, 80)) + f('c', (80,))),
                  (f('o3', (7, 37)), f('s', (7, 13)) @ f('t', (13, 37)) + f('u', (37,))),
                  (f('o4', (1, 80)), f('q', (1, 96)) @ f('v', (96, 80)) + f('c', (80,))),
                  (f('o5', (64, 80)), f('a', (64, 96)) @ f('v', (96, 80)) + f('cc', (64, 80)))):
    assert np.abs(got - want).max() < 1e-4, np.abs(got - want).max()"
}

@test "long sums are added in a cascade: within a few roundings of float64, where one running sum is 1e-5 off (1e-14 in f64)" {
  need_numpy
  bin/codegen --dump-dispatches "$IN/long-sums.mlir" | grep -q 'grid \[4,'
  # every loop vectorizes where asked: LLVM warns of none (a masked sum
  # as a select of the accumulator did not vectorize)
  run --separate-stderr bin/codegen "$IN/long-sums.mlir" -o "$T/quiet.mlir"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  for_interp "$IN/long-sums.mlir"
  "$PY" -c "
import numpy as np
r = np.random.RandomState(3)
for n, s, t in ('x', (300, 7, 300), 'f4'), ('r', (3, 200000), 'f4'), ('t', (4, 20000, 32), 'f4'), ('n', (4, 30000, 10), 'f8'):
    r.rand(*s).astype(t).tofile('$T/' + n)"
  "$INTERP" "$T/m.mlir" "$T/k.so" main "$T/x" "$T/r" "$T/t" "$T/n" -- "$T/a" "$T/b" "$T/c" "$T/d" "$T/e"
  "$PY" -c "
import numpy as np
def ld(n, s, t='f4'): return np.fromfile('$T/' + n, t).reshape(s).astype(np.float64)
x, r = ld('x', (300, 7, 300)), ld('r', (3, 200000))
t, n = ld('t', (4, 20000, 32)), ld('n', (4, 30000, 10), 'f8')
n128 = np.fromfile('$T/n', 'f8').reshape(4, 30000, 10).astype(np.longdouble)
for got, want, tol in ((ld('a', ()), (x * x).sum(), 1e-6), (ld('b', (3,)), r.sum(1), 1e-6),
                       (ld('c', (4, 32)), t.sum(1), 1e-6), (ld('d', (4, 10), 'f8'), n128.sum(1), 2e-15),
                       (ld('e', (3,)), np.where(r > 0.5, r * r, 0).sum(1), 1e-6)):
    err = float((np.abs(got - want) / want).max())
    print(want.shape, err)
    assert err < tol, (want.shape, err)"
}

@test "a triangular sum (cumsum) runs as a scan: a million-long row in time, bit for bit the running sum in double" {
  need_numpy
  for_interp "$IN/cumsum-scan.mlir"
  "$PY" -c "
import numpy as np
np.random.RandomState(4).randn(2, 1000000).astype(np.float32).tofile('$T/x')"
  # the triangle: 1e12 steps, hours
  timeout 60 "$INTERP" "$T/m.mlir" "$T/k.so" main "$T/x" -- "$T/y"
  "$PY" -c "
import numpy as np
x = np.fromfile('$T/x', np.float32).reshape(2, 1000000)
want = np.cumsum(x.astype(np.float64), 1).astype(np.float32)
got = np.fromfile('$T/y', np.float32).reshape(2, 1000000)
assert got.tobytes() == want.tobytes(), np.abs(got - want).max()"
}

@test "cumprod's triangular product runs as a scan too: 400000-long rows in time, bit for bit the running product in double" {
  need_numpy
  for_interp "$IN/cumprod-scan.mlir"
  "$PY" -c "
import numpy as np
(1 + 1e-3 * np.random.RandomState(5).randn(2, 400000)).astype(np.float32).tofile('$T/x')"
  # the triangle: 3e11 steps
  timeout 60 "$INTERP" "$T/m.mlir" "$T/k.so" main "$T/x" -- "$T/y"
  "$PY" -c "
import numpy as np
x = np.fromfile('$T/x', np.float32).reshape(2, 400000)
want = np.cumprod(x.astype(np.float64), 1).astype(np.float32)
got = np.fromfile('$T/y', np.float32).reshape(2, 400000)
assert np.isfinite(want).all() and want.std() > 0.1, want.std()
assert got.tobytes() == want.tobytes(), np.abs(got - want).max()"
}
