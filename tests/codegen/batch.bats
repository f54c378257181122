#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# codegen compiles a dynamic batch only where it proves every batch item is
# computed on its own (tools/codegen/batch.c); every other use of the batch
# is refused at the op that makes it, never compiled into a wrong number.

setup() { T=$BATS_TEST_TMPDIR; }

# func RTYPE BODY: f.mlir, a function of x : tensor<?x4xf32> (%n its batch)
# with that body, its result %r : tensor<RTYPE>
func() {
  cat > "$T/f.mlir" <<MLIR
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<?x4xf32>) -> tensor<$1> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
$2
  return %r : tensor<$1>
}
MLIR
}

# refuses RTYPE BODY WHY: that function is refused, naming why
refuses() {
  func "$1" "$2"
  run bin/codegen "$T/f.mlir" -o "$T/out"
  echo "$output"
  [ "$status" -eq 1 ]
  [ ! -e "$T/out" ]
  [[ "$output" == *"f.mlir:"*"error: codegen: a dynamic batch is compiled only where every batch item is computed on its own: $3"* ]]
}

# runs BODY WANT: the function of result ?x4xf32 compiled, run at batch 3
# on 1..12, prints WANT
runs() {
  func ?x4xf32 "$1"
  bin/codegen "$T/f.mlir" | bin/vmpack -o "$T/m.vmfb"
  run bin/vmrun "$T/m.vmfb" --input=3x4xf32=1,2,3,4,5,6,7,8,9,10,11,12
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"$2"* ]]
}

# %f: x's items interleaved (?x4 as ?x2x2, transposed to 2x?x2, collapsed
# to 2B x 2: each item's rows apart)
INTERLEAVE='
  %e0 = tensor.expand_shape %x [[0], [1, 2]] : tensor<?x4xf32> into tensor<?x2x2xf32>
  %t0 = tensor.empty(%n) : tensor<2x?x2xf32>
  %t = linalg.transpose ins(%e0 : tensor<?x2x2xf32>) outs(%t0 : tensor<2x?x2xf32>) permutation = [1, 0, 2]
  %f = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x?x2xf32> into tensor<?x2xf32>
  %c2 = arith.constant 2 : index
  %m = arith.muli %n, %c2 : index'

@test "a sum over the batch is refused" {
  refuses 4xf32 '
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<?x4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>' "a result that does not depend on the batch"
}

@test "the batch size read as data (a mean over the batch) is refused" {
  refuses ?x4xf32 '
  %i = arith.index_cast %n : index to i64
  %d = arith.sitofp %i : i64 to f32
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.divf %a, %d : f32
    linalg.yield %s : f32
  } -> tensor<?x4xf32>' "'arith.sitofp' reads the batch"
}

@test "a loop that reads another batch item (every item from item 0) is refused" {
  refuses ?x4xf32 '
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<?x4xf32>' "its loops do not keep the batch's items apart"
}

@test "a slice of part of the batch is refused" {
  refuses ?x4xf32 '
  %c1 = arith.constant 1 : index
  %m = arith.subi %n, %c1 : index
  %r = tensor.extract_slice %x[1, 0] [%m, 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>' "a slice that takes part of the batch"
}

@test "a body that reads the batch index is refused" {
  refuses ?x4xf32 '
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %b = linalg.index 0 : index
    %bi = arith.index_cast %b : index to i32
    %bf = arith.sitofp %bi : i32 to f32
    %s = arith.addf %a, %bf : f32
    linalg.yield %s : f32
  } -> tensor<?x4xf32>' "its body reads the batch's index"
}

@test "a check that fails for every batch is refused" {
  refuses ?x4xf32 '
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %a = arith.cmpi sge, %n, %c3 : index
  cf.assert %a, "at least 3"
  %b = arith.cmpi sle, %n, %c2 : index
  cf.assert %b, "at most 2"
  %r = tensor.cast %x : tensor<?x4xf32> to tensor<?x4xf32>' "this check fails for every batch"
}

@test "two dynamic dimensions besides the batch, of lengths the checks let differ, are refused as not supported yet" {
  cat > "$T/f.mlir" <<'MLIR'
func.func @main(%x: tensor<2x?x?xf32>) -> tensor<2x?x?xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %n = tensor.dim %x, %c1 : tensor<2x?x?xf32>
  %k = tensor.dim %x, %c2 : tensor<2x?x?xf32>
  %a = arith.cmpi sle, %n, %c64 : index
  cf.assert %a, "dimension 1 at most 64"
  %b = arith.cmpi sle, %k, %c64 : index
  cf.assert %b, "dimension 2 at most 64"
  return %x : tensor<2x?x?xf32>
}
MLIR
  run bin/codegen "$T/f.mlir"
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"codegen: dimension 1 of argument 0 and dimension 2 of argument 0 are dynamic, of lengths the checks let differ (0 and 1): one dynamic length per function is supported yet"* ]]
}

@test "a result that interleaves the batch's items is refused" {
  refuses ?x2xf32 "$INTERLEAVE
  %r = tensor.cast %f : tensor<?x2xf32> to tensor<?x2xf32>" \
    "a result whose batch items are interleaved with other rows"
}

@test "the batch may sit at another dimension inside the function (a transpose there and back)" {
  runs '
  %t0 = tensor.empty(%n) : tensor<4x?xf32>
  %t = linalg.transpose ins(%x : tensor<?x4xf32>) outs(%t0 : tensor<4x?xf32>) permutation = [1, 0]
  %u0 = tensor.empty(%n) : tensor<?x4xf32>
  %r = linalg.transpose ins(%t : tensor<4x?xf32>) outs(%u0 : tensor<?x4xf32>) permutation = [1, 0]' \
    "3x4xf32=[1 2 3 4][5 6 7 8][9 10 11 12]"
}

@test "the batch's items may be interleaved inside the function (batch x heads flattened the other way) and come back apart" {
  runs "$INTERLEAVE"'
  %g0 = tensor.empty(%m) : tensor<?x2xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%f : tensor<?x2xf32>) outs(%g0 : tensor<?x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<?x2xf32>
  %u = tensor.expand_shape %g [[0, 1], [2]] : tensor<?x2xf32> into tensor<2x?x2xf32>
  %v0 = tensor.empty(%n) : tensor<?x2x2xf32>
  %v = linalg.transpose ins(%u : tensor<2x?x2xf32>) outs(%v0 : tensor<?x2x2xf32>) permutation = [1, 0, 2]
  %r = tensor.collapse_shape %v [[0], [1, 2]] : tensor<?x2x2xf32> into tensor<?x4xf32>' \
    "3x4xf32=[1 4 9 16][25 36 49 64][81 100 121 144]"
}

@test "an op that meets the batch's items in two different layouts is refused" {
  refuses ?x2xf32 "$INTERLEAVE"'
  %h = tensor.collapse_shape %e0 [[0, 1], [2]] : tensor<?x2x2xf32> into tensor<?x2xf32>
  %g0 = tensor.empty(%m) : tensor<?x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%f, %h : tensor<?x2xf32>, tensor<?x2xf32>) outs(%g0 : tensor<?x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x2xf32>' "its operands hold the batch's items in different layouts"
}

@test "the chunk functions' equal constants are one global, vmpack stores equal globals once, and --params keeps working" {
  func ?x4xf32 '  %w = arith.constant dense<[1.5, 2.5, 3.5, 4.5]> : tensor<4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %w : tensor<?x4xf32>, tensor<4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x4xf32>'
  bin/codegen "$T/f.mlir" > "$T/m.fxvm"
  # codegen: one global, read by both chunk functions (batch 8 and 1)
  [ "$(grep -c 'fxvm.global' "$T/m.fxvm")" -eq 1 ]
  [ "$(grep -c 'fxvm.constant @cst0 ' "$T/m.fxvm")" -eq 2 ]
  # vmpack: a second global of the same bytes, read by batch 1's function,
  # is stored once too
  awk '/fxvm.global @cst0 /{print; sub(/@cst0/, "@cst1")} /func.func @main.batch1/{b=1}
       b && /fxvm.constant @cst0 /{sub(/@cst0/, "@cst1")} {print}' "$T/m.fxvm" > "$T/m2.fxvm"
  [ "$(grep -c 'fxvm.global' "$T/m2.fxvm")" -eq 2 ]
  bin/vmpack "$T/m2.fxvm" -o "$T/m.vmfb"
  run bin/vmpack --dump "$T/m.vmfb"
  echo "$output"
  [ "$(grep -c '@cst[01]: tensor<4xf32>, 16 bytes at constants+0$' <<< "$output")" -eq 2 ]
  [[ "$output" == *"constants: 16 bytes"* ]]
  bin/vmpack --params="$T/p.safetensors" "$T/m2.fxvm" -o "$T/p.vmfb"
  want="9x4xf32=$(printf '[1.5 2.5 3.5 4.5]%.0s' 1 2 3 4 5 6 7 8 9)"
  [ "$(bin/vmrun "$T/m.vmfb" --input=9x4xf32=1)" = "$want" ]
  [ "$(bin/vmrun "$T/p.vmfb" --parameters="$T/p.safetensors" --input=9x4xf32=1)" = "$want" ]
}

@test "a weight packed alike for both chunk functions is one resource and one global" {
  # a GEMM of the batch by a 64x64 weight: its pack is the same copy at
  # batch 8 and at batch 1 (a GEMM at both)
  cat > "$T/g.mlir" <<'MLIR'
func.func @main(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %w = arith.constant dense_resource<w> : tensor<64x64xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<?x64xf32>, tensor<64x64xf32>) outs(%f : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}
MLIR
  {
    echo '{-#'
    echo '  dialect_resources: { builtin: { w: "0x04000000'"$("${PYTHON:-/usr/bin/python3}" -c '
import struct; print("".join(struct.pack("<f", (i % 37) / 8.0).hex().upper() for i in range(4096)))')"'" } }'
    echo '#-}'
  } >> "$T/g.mlir"
  bin/codegen --dump-dispatches "$T/g.mlir" | grep -q "gemm:"
  bin/codegen "$T/g.mlir" > "$T/g.fxvm"
  [ "$(grep -c 'fxvm.global' "$T/g.fxvm")" -eq 1 ]
  [ "$(grep -c '_packed_b: "0x' "$T/g.fxvm")" -eq 1 ]
  bin/vmpack "$T/g.fxvm" -o "$T/g.vmfb"
  want=$("${PYTHON:-/usr/bin/python3}" -c '
w = [[(i * 64 + j) % 37 / 8.0 for j in range(64)] for i in range(64)]
print(" ".join("%g" % sum(w[k][j] for k in range(64)) for j in range(64)))')
  run bin/vmrun "$T/g.vmfb" --input=9x64xf32=1
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == "9x64xf32=[$want]"* ]]
}

# x * x over the batch
SQUARE='
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %a, %a : f32
    linalg.yield %v : f32
  } -> tensor<?x4xf32>'

@test "the chunk of 8 also runs a remainder of 2 to 7 items, its kernels stopping at the call's items; a body that may trap keeps the chunks of 1" {
  func ?x4xf32 "$SQUARE"
  bin/codegen --dump-dispatches "$T/f.mlir" > "$T/d.txt"
  grep -q "loop 0 of 8 stops at ceil((1 \* n + 0) / 1), n the call's length or a bounded chunk's items" "$T/d.txt"
  bin/codegen "$T/f.mlir" > "$T/c.fxvm"
  grep -q 'fxvm.batch = {bounded = true, functions = \[@main.batch8, @main.batch1\]' "$T/c.fxvm"
  grep -q 'func.func @main.batch8(%arg0: tensor<8x4xf32>, %arg1: tensor<1xi64>) -> tensor<8x4xf32>' "$T/c.fxvm"
  bin/vmpack "$T/c.fxvm" -o "$T/m.vmfb"
  bin/vmpack --dump "$T/m.vmfb" | grep -q 'chunks 8 (@main.batch8, bounded: also fewer items), 1 (@main.batch1)'
  # every batch: the items squared; 3 items by one call of the chunk of 8
  # (dispatch_0, bounded at 3), none of the chunk of 1 (dispatch_1)
  for b in 1 2 3 7 8 9 11 16 23; do
    vals=$(seq -s, 1 $((4 * b))) sq=$(seq 1 $((4 * b)) | awk '{ printf "%s%d", (NR > 1 ? "," : ""), $1 * $1 }')
    run bin/vmrun "$T/m.vmfb" --input="${b}x4xf32=$vals" --expected_output="${b}x4xf32=$sq"
    echo "$b: $output"
    [ "$status" -eq 0 ]
  done
  run --separate-stderr bin/vmrun "$T/m.vmfb" --input="3x4xf32=$(seq -s, 1 12)" --profile
  echo "$stderr"
  [[ "$stderr" == *"%      1  dispatch_0_mul"* ]]
  [[ "$stderr" == *"%      0  dispatch_1_mul"* ]]
  # vmpack's checks: the first function takes the count only when bounded
  sed 's/bounded = true, //' "$T/c.fxvm" > "$T/bad.fxvm"
  run bin/vmpack "$T/bad.fxvm" -o "$T/bad.vmfb"
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"error: fxvm.batch: @main.batch8 takes 2 and returns 1 values, the declaration 1 and 1"* ]]
  sed 's/bounded = true/bounded = 3 : i64/' "$T/c.fxvm" > "$T/bad.fxvm"
  run bin/vmpack "$T/bad.fxvm" -o "$T/bad.vmfb"
  [[ "$output" == *"error: fxvm.batch: bounded must be true or false"* ]]
  [ ! -e "$T/bad.vmfb" ]
  # the runtime's: the chunk of 1 (the second half of the 32-byte record
  # 0 the patch counts in) marked bounded, behind valid checksums
  cp "$T/m.vmfb" "$T/t.vmfb"
  python3 tests/vmrun/src/vmfb-patch.py "$T/t.vmfb" 16 0 28 1
  run bin/vmrun "$T/t.vmfb" --input=3x4xf32=1
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"corrupt module: @main: chunk 1 has flags 1 (bounded: only the first of several)" ]]
  # a gather by data in the body: padding items could hold any index, so
  # no bounded chunk (8s and 1s only)
  func ?x4xf32 '
  %tbl = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = arith.fptosi %a : f32 to i32
    %j = arith.index_cast %i : i32 to index
    %v = tensor.extract %tbl[%j] : tensor<4xf32>
    linalg.yield %v : f32
  } -> tensor<?x4xf32>'
  bin/codegen "$T/f.mlir" > "$T/g.fxvm"
  grep -q 'fxvm.batch = {functions = \[@main.batch8, @main.batch1\]' "$T/g.fxvm"
  bin/vmpack "$T/g.fxvm" -o "$T/g.vmfb"
  run bin/vmrun "$T/g.vmfb" --input=3x4xf32=0,1,2,3,3,2,1,0,1,1,1,1
  echo "$output"
  [ "$output" = "3x4xf32=[1 2 3 4][4 3 2 1][2 2 2 2]" ]
}
