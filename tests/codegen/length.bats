#!/usr/bin/env bats
# A dynamic length (`?` at a dimension other than the batch's) compiled
# once into functions at fixed lengths of the range (tools/codegen/seqpad.c):
# the range's top, and by default about a quarter of it, and so on: every
# tensor laid out for that length, reductions along the length stopping
# at the call's, sizes read as data computed from it; the runtime picks
# the shortest that holds the call, copies inputs in and results out
# (formats/fxvm.md, "Dynamic length").  What keeps elements from staying
# in place is refused at the op.

load ../vmrun/helpers   # pack_refuses
setup() { T=$BATS_TEST_TMPDIR; }

# func MAX ARGS RTYPE BODY: f.mlir, a function of x : tensor<1x?xf32> (%n
# its length, checked to be in [1, MAX]) and ARGS, with that body, its
# result %r : tensor<RTYPE>
func() {
  cat > "$T/f.mlir" <<MLIR
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<1x?xf32>$2) -> tensor<$3> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<1x?xf32>
  %cmax = arith.constant $1 : index
  %lo = arith.cmpi sge, %n, %c1 : index
  %hi = arith.cmpi sle, %n, %cmax : index
  %ok = arith.andi %lo, %hi : i1
  cf.assert %ok, "input 0: dimension 1 (n) must be in [1, $1]"
$4
  return %r : tensor<$3>
}
MLIR
}

# copy_fn: f.mlir, the function whose result is a copy of x
copy_fn() {
  func 64 "" "1x?xf32" '
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x?xf32>) outs(%x : tensor<1x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x?xf32>'
}

# ew_fn MAX OP: f.mlir, the function whose result is x OP x (an arith
# op), for lengths up to MAX
ew_fn() {
  func "$1" "" "1x?xf32" "
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\"]} ins(%x : tensor<1x?xf32>) outs(%x : tensor<1x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.$2 %a, %a : f32
    linalg.yield %v : f32
  } -> tensor<1x?xf32>"
}

# refuses BODY WHY: a function of result 1x?xf32 refused, naming why
refuses() {
  func 64 "" "1x?xf32" "$1"
  run bin/codegen "$T/f.mlir" -o "$T/out"
  echo "$output"
  [ "$status" -eq 1 ]
  [ ! -e "$T/out" ]
  [[ "$output" == *"f.mlir:"*"error: codegen: a dynamic length is compiled only where every tensor keeps its elements in place at every length: $2"* ]]
}

# The mean, the max and a softmax-weighted sum over the length: x - mean,
# reduced by max, plus sum(softmax(x) * x) -- each wrong if the padding
# took part (zeros beat negative numbers, the mean divides by n).
STATS='
  %c0f = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %n64 = arith.index_cast %n : index to i64
  %e1 = tensor.empty() : tensor<1xf32>
  %z = linalg.fill ins(%c0f : f32) outs(%e1 : tensor<1xf32>) -> tensor<1xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<1xf32>) -> tensor<1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<1x?xf32>) outs(%z : tensor<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  %en = tensor.empty(%n) : tensor<1x?xf32>
  %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<1x?xf32>, tensor<1xf32>) outs(%en : tensor<1x?xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %nf = arith.sitofp %n64 : i64 to f32
    %mean = arith.divf %s, %nf : f32
    %v = arith.subf %a, %mean : f32
    linalg.yield %v : f32
  } -> tensor<1x?xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%d : tensor<1x?xf32>) outs(%m0 : tensor<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maxf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<1xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %mx : tensor<1x?xf32>, tensor<1xf32>) outs(%en : tensor<1x?xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<1x?xf32>
  %den = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<1x?xf32>) outs(%z : tensor<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  %num = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]} ins(%ex, %x : tensor<1x?xf32>, tensor<1x?xf32>) outs(%z : tensor<1xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %o : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%mx, %num, %den : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) outs(%e1 : tensor<1xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %q = arith.divf %b, %c : f32
    %v = arith.addf %a, %q : f32
    linalg.yield %v : f32
  } -> tensor<1xf32>'

@test "reductions along the length stop at the call's length; a size read as data is the call's" {
  func 64 "" "1xf32" "$STATS"
  bin/codegen "$T/f.mlir" | bin/vmpack -o "$T/m.vmfb"
  # x = -1, -2, -3: mean -2, max(x - mean) 1; softmax-weighted sum
  # (e^-1 * -1 + e^-2 * -2 + e^-3 * -3) / (e^-1 + e^-2 + e^-3) = -1.4247
  run bin/vmrun "$T/m.vmfb" --input=1x3xf32=-1,-2,-3
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"1xf32=-0.424"* ]]
  # one element: max 0, weighted sum -5
  run bin/vmrun "$T/m.vmfb" --input=1x1xf32=-5
  echo "$output"
  [[ "$output" == *"1xf32=-5"* ]]
  # the longest of @main.seq16, the shortest of @main.seq (padded to 64)
  # and the longest: x = -1, ..., -1, -17: max(x - mean) 16 / n, the
  # softmax-weighted sum -1 - 16 e^-16 / (n - 1 + e^-16)
  for n in 16 17 64; do
    run bin/vmrun "$T/m.vmfb" --input="1x${n}xf32=$(seq -s, 2 $n | sed 's/[0-9]*/-1/g'),-17"
    echo "$output"
    [ "$status" -eq 0 ]
    got=$(sed -n 's/^1xf32=//p' <<< "$output")
    awk -v g="$got" -v n=$n 'BEGIN { w = 16 / n - 1; exit !(g - w < 1e-5 && w - g < 1e-5) }'
  done
}

@test "kernels read the call's length and stop their loops there: elementwise rows, masked reductions" {
  func 64 "" "1xf32" "$STATS"
  bin/codegen --dump-dispatches "$T/f.mlir" > "$T/d.txt"
  cat "$T/d.txt"
  # the top's function (64) and the one for 16: the kernels of %d and %ex
  # stop at n along their one varying dimension (loop 1), and so do the
  # masked reductions (max, the sums): every kernel but the last (%r)
  for L in 16 64; do
    [ "$(grep -c "loop 1 of $L stops at ceil((1 \* n + 0) / 1), n the call's length" "$T/d.txt")" -ge 3 ]
  done
  [ "$(grep -c 'in  [0-9]*: tensor<1xi64>' "$T/d.txt")" -ge 6 ]
  # and what they compute there is the call's (the first test's numbers
  # at lengths 1, 3, 16, 17, 64 hold with the bounds)
}

@test "an input carrying codegen's own length attributes is refused" {
  copy_fn
  for a in length_sizes length_loops; do
    sed "s/iterator_types = \[\"parallel\", \"parallel\"\]}/iterator_types = [\"parallel\", \"parallel\"], fxpipe.$a = array<i64: 0, 1, 1, 0>}/" "$T/f.mlir" > "$T/g.mlir"
    grep -q "fxpipe.$a" "$T/g.mlir"
    run bin/codegen "$T/g.mlir" -o "$T/out"
    echo "$output"
    [ "$status" -eq 1 ]
    [ ! -e "$T/out" ]
    [[ "$output" == *"g.mlir:"*"error: attribute 'fxpipe.$a' is codegen's own (a dynamic length's padding): an input may not carry it"* ]]
  done
}

@test "a length outside the range is an error naming the input and dimension, and writes no result" {
  ew_fn 64 addf
  bin/codegen "$T/f.mlir" | bin/vmpack -o "$T/m.vmfb"
  run bin/vmrun "$T/m.vmfb" --input=1x2xf32=1,2
  [[ "$output" == *"1x2xf32=[2 4]"* ]]
  run bin/vmrun "$T/m.vmfb" --input="1x65xf32=0" --output="@$T/y.npy"
  echo "$output"
  [ "$status" -ne 0 ]
  [[ "$output" == *"input 0: dimension 1 is 65, must be in [1, 64]"* ]]
  [ ! -e "$T/y.npy" ]
  run bin/vmrun "$T/m.vmfb" --input="2x3xf32=0"
  echo "$output"
  [ "$status" -ne 0 ]
  [[ "$output" == *"input 0: dimension 0 is 2, the function expects 1"* ]]
}

@test "vmpack --dump shows a length's range, its padded function and each value's sizes in n" {
  copy_fn
  bin/codegen "$T/f.mlir" | bin/vmpack -o "$T/m.vmfb"
  run bin/vmpack --dump "$T/m.vmfb"
  echo "$output"
  [[ "$output" == *"@main(tensor<1x?xf32>) -> (tensor<1x?xf32>)"* ]]
  [[ "$output" == *"length n in [1, 64], run as @main.seq16 (padded to n = 16), @main.seq (padded to n = 64)"* ]]
  [[ "$output" == *"arg 0: [1, n]"* ]]
  [[ "$output" == *"@main.seq16(tensor<1x16xf32>, tensor<1xi64>) -> (tensor<1x16xf32>)"* ]]
  [[ "$output" == *"@main.seq(tensor<1x64xf32>, tensor<1xi64>) -> (tensor<1x64xf32>)"* ]]
  # one function at the top alone
  bin/codegen --length-ratio=0 "$T/f.mlir" | bin/vmpack -o "$T/one.vmfb"
  run bin/vmpack --dump "$T/one.vmfb"
  [[ "$output" == *"length n in [1, 64], run as @main.seq (padded to n = 64)"* ]]
  [[ "$output" != *"seq16"* ]]
  run bin/vmrun "$T/one.vmfb" --input=1x3xf32=1,2,3
  [[ "$output" == *"1x3xf32=[1 2 3]"* ]]
}

@test "codegen --length-ratio sets the lengths of the padded functions, and refuses nonsense" {
  func 4096 "" "1x?xf32" '
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x?xf32>) outs(%x : tensor<1x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x?xf32>'
  run bin/codegen "$T/f.mlir" -o "$T/m.fxvm"
  grep -q 'tops = array<i64: 16, 64, 256, 1024, 4096>' "$T/m.fxvm"
  bin/codegen --length-ratio=10 "$T/f.mlir" -o "$T/m.fxvm"
  grep -q 'tops = array<i64: 48, 416, 4096>' "$T/m.fxvm"
  for r in 1 -2 x 2000; do
    run bin/codegen --length-ratio=$r "$T/f.mlir" -o "$T/out"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"--length-ratio wants 0 or a ratio in [2, 1024], not '$r'"* ]]
    [ ! -e "$T/out" ]
  done
}

@test "a gather at indices computed in the padding (1 / 0) is given index 0 there, not a trap" {
  func 64 ", %t: tensor<10xf32>" "1x?xf32" '
  %e = tensor.empty(%n) : tensor<1x?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x?xf32>) outs(%e : tensor<1x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %inv = arith.divf %one, %a : f32
    %i = arith.fptosi %inv : f32 to i64
    %j = arith.index_cast %i : i64 to index
    %g = tensor.extract %t[%j] : tensor<10xf32>
    linalg.yield %g : f32
  } -> tensor<1x?xf32>'
  bin/codegen "$T/f.mlir" | bin/vmpack -o "$T/m.vmfb"
  # 1 / 0.5 = 2, 1 / 0.25 = 4, 1 / 1 = 1
  run bin/vmrun "$T/m.vmfb" --input=1x3xf32=0.5,0.25,1 --input=10xf32=0,10,20,30,40,50,60,70,80,90
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"1x3xf32=[20 40 10]"* ]]
  # an index out of the table in the call's elements still stops it
  run bin/vmrun "$T/m.vmfb" --input=1x2xf32=0.5,0.01 --input=10xf32=0,10,20,30,40,50,60,70,80,90
  echo "$output"
  [ "$status" -ne 0 ]
}

@test "a dynamic length needs a declared maximum" {
  cat > "$T/f.mlir" <<'MLIR'
func.func @main(%x: tensor<1x?xf32>) -> tensor<1x?xf32> {
  return %x : tensor<1x?xf32>
}
MLIR
  run bin/codegen "$T/f.mlir" -o "$T/out"
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"error: codegen: a dynamic length needs a range of at most 65535 (fx-export --dynamic 0:1:NAME=MIN..MAX): argument 0, dimension 1"* ]]
  [ ! -e "$T/out" ]
}

@test "a rank-reducing slice keeps the dimensions MLIR matches: [1, n, 1] to [1, n] keeps the first 1, over the whole range" {
  # dropping the first 1 instead ([n, 1]) found a size that differs from
  # the type's 1 at every length but 1: a range of 1 to 1, and an
  # fxvm.length that vmpack refused (the differential tester's length mode),
  # or a refusal
  func 64 "" "1x?xf32" '
  %e = tensor.expand_shape %x [[0], [1, 2]] : tensor<1x?xf32> into tensor<1x?x1xf32>
  %r = tensor.extract_slice %e[0, 0, 0] [1, %n, 1] [1, 1, 1] : tensor<1x?x1xf32> to tensor<1x?xf32>'
  bin/codegen "$T/f.mlir" -o "$T/m.fxvm"
  grep -q 'max = 64 : i64, min = 1 : i64' "$T/m.fxvm"
  bin/vmpack "$T/m.fxvm" -o "$T/m.vmfb"
  run bin/vmrun "$T/m.vmfb" --input=1x5xf32=1,2,3,4,5
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"1x5xf32=[1 2 3 4 5]"* ]]
}

@test "a slice at an offset of the length (the last element) is refused" {
  refuses '
  %c1i = arith.constant 1 : index
  %last = arith.subi %n, %c1i : index
  %r = tensor.extract_slice %x[0, %last] [1, %c1i] [1, 1] : tensor<1x?xf32> to tensor<1x?xf32>' \
    "a slice whose offset or stride depends on the length"
}

@test "a pad after the end of the length is refused (the padding would hold it)" {
  refuses '
  %c0f = arith.constant 0.0 : f32
  %r = tensor.pad %x low[0, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c0f : f32
  } : tensor<1x?xf32> to tensor<1x?xf32>' \
    "a pad after the end of the length"
}

@test "a reshape that puts a fixed size before the length in its group is refused" {
  func 64 "" "?xf32" '
  %e = tensor.empty(%n) : tensor<2x?xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x?xf32>) outs(%e : tensor<2x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x?xf32>
  %r = tensor.collapse_shape %b [[0, 1]] : tensor<2x?xf32> into tensor<?xf32>'
  run bin/codegen "$T/f.mlir" -o "$T/out"
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"a reshape that does not keep the length first in its group"* ]]
  [ ! -e "$T/out" ]
}

@test "vmpack refuses an fxvm.length whose sizes do not fit the declared types" {
  copy_fn
  bin/codegen "$T/f.mlir" -o "$T/m.fxvm"
  grep -q 'arguments = \[array<i64: 0, 1, 1, 0>\]' "$T/m.fxvm"
  sed 's/arguments = \[array<i64: 0, 1, 1, 0>\]/arguments = [array<i64: 0, 1, 0, 5>]/' "$T/m.fxvm" > "$T/bad.fxvm"
  run bin/vmpack "$T/bad.fxvm" -o "$T/m.vmfb"
  echo "$output"
  [ "$status" -ne 0 ]
  [[ "$output" == *"fxvm.length: argument 0, dimension 1: (0, 5) does not fit its type"* ]]
  [ ! -e "$T/m.vmfb" ]
}

@test "vmpack refuses an fxvm.length whose padded function does not fit its sizes" {
  copy_fn
  bin/codegen --length-ratio=0 "$T/f.mlir" -o "$T/m.fxvm"
  sed 's/max = 64 : i64/max = 63 : i64/' "$T/m.fxvm" > "$T/bad.fxvm"
  run bin/vmpack "$T/bad.fxvm" -o "$T/m.vmfb"
  echo "$output"
  [ "$status" -ne 0 ]
  [[ "$output" == *"fxvm.length: argument 0 of @main.seq does not fit: dimension 1 must be 63"* ]]
  [ ! -e "$T/m.vmfb" ]
  # several: each against its top; the tops ascending to max
  bin/codegen "$T/f.mlir" -o "$T/m.fxvm"
  grep -q 'tops = array<i64: 16, 64>' "$T/m.fxvm"
  sed 's/tops = array<i64: 16, 64>/tops = array<i64: 24, 64>/' "$T/m.fxvm" > "$T/bad.fxvm"
  run bin/vmpack "$T/bad.fxvm" -o "$T/m.vmfb"
  echo "$output"
  [[ "$output" == *"fxvm.length: argument 0 of @main.seq16 does not fit: dimension 1 must be 24"* ]]
  [ ! -e "$T/m.vmfb" ]
  sed 's/tops = array<i64: 16, 64>/tops = array<i64: 16, 60>/' "$T/m.fxvm" > "$T/bad.fxvm"
  run bin/vmpack "$T/bad.fxvm" -o "$T/m.vmfb"
  echo "$output"
  [[ "$output" == *"fxvm.length: tops must ascend from min, the last max (64), not 60 at 1"* ]]
  sed 's/, tops = array<i64: 16, 64>//' "$T/m.fxvm" > "$T/bad.fxvm"
  run bin/vmpack "$T/bad.fxvm" -o "$T/m.vmfb"
  echo "$output"
  [[ "$output" == *"fxvm.length: function must be @f, or [@f, ...] with tops"* ]]
  [ ! -e "$T/m.vmfb" ]
}

@test "a length tied to the batch by a check (one symbol at two dimensions) is refused, not compiled apart" {
  cat > "$T/f.mlir" <<'MLIR'
func.func @main(%x: tensor<?x4xf32>, %y: tensor<4x?xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %x, %c0 : tensor<?x4xf32>
  %s = tensor.dim %y, %c1 : tensor<4x?xf32>
  %c64 = arith.constant 64 : index
  %lo = arith.cmpi sge, %s, %c1 : index
  %hi = arith.cmpi sle, %s, %c64 : index
  %ok = arith.andi %lo, %hi : i1
  cf.assert %ok, "input 1: dimension 1 (batch) must be in [1, 64]"
  %eq = arith.cmpi eq, %s, %b : index
  cf.assert %eq, "input 1: dimension 1 must equal batch"
  return %x : tensor<?x4xf32>
}
MLIR
  run bin/codegen "$T/f.mlir" -o "$T/out"
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"f.mlir:12:3: error: codegen: a dynamic length is compiled only where every tensor keeps its elements in place at every length: a check ties the length to the batch"* ]]
  [ ! -e "$T/out" ]
}

@test "the runtime refuses a length's pieces whose ranges are not adjacent (behind valid checksums)" {
  copy_fn
  bin/codegen "$T/f.mlir" | bin/vmpack -o "$T/m.vmfb"
  run bin/vmrun "$T/m.vmfb" --input=1x20xf32=1
  [ "$status" -eq 0 ]
  # record 1 (lengths 17..64): min, at byte 16, made 18
  cp "$T/m.vmfb" "$T/t.vmfb"
  python3 tests/vmrun/src/vmfb-patch.py "$T/t.vmfb" 17 1 16 18
  run bin/vmrun "$T/t.vmfb" --input=1x20xf32=1
  echo "$output"
  [ "$status" -ne 0 ]
  [[ "$output" == *"corrupt module: length 1: function 2 is listed twice, or its ranges are not adjacent"* ]]
}

# two2 TIE: f.mlir, x + m of x, m : tensor<1x?xf32>, each length checked
# to be in [1, 64], and with TIE, checked to be equal
two2() {
  cat > "$T/f.mlir" <<MLIR
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<1x?xf32>, %m: tensor<1x?xf32>) -> tensor<1x?xf32> {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = tensor.dim %x, %c1 : tensor<1x?xf32>
  %k = tensor.dim %m, %c1 : tensor<1x?xf32>
  %a1 = arith.cmpi sge, %n, %c1 : index
  %a2 = arith.cmpi sle, %n, %c64 : index
  %a = arith.andi %a1, %a2 : i1
  cf.assert %a, "input 0: dimension 1 must be in [1, 64]"
  %b1 = arith.cmpi sge, %k, %c1 : index
  %b2 = arith.cmpi sle, %k, %c64 : index
  %b = arith.andi %b1, %b2 : i1
  cf.assert %b, "input 1: dimension 1 must be in [1, 64]"
$1
  %e = tensor.empty(%n) : tensor<1x?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<1x?xf32>, tensor<1x?xf32>) outs(%e : tensor<1x?xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %v = arith.addf %p, %q : f32
    linalg.yield %v : f32
  } -> tensor<1x?xf32>
  return %r : tensor<1x?xf32>
}
MLIR
}

@test "two arguments of one length (a check ties them) are compiled as one length; a call where they differ is an error" {
  two2 '  %t = arith.cmpi eq, %n, %k : index
  cf.assert %t, "input 1: dimension 1 must equal input 0: dimension 1"'
  bin/codegen "$T/f.mlir" | bin/vmpack -o "$T/m.vmfb"
  run bin/vmpack --dump "$T/m.vmfb"
  [[ "$output" == *"arg 1: [1, n]"* ]]
  run bin/vmrun "$T/m.vmfb" --input=1x3xf32=1,2,3 --input=1x3xf32=10,20,30
  echo "$output"
  [[ "$output" == *"1x3xf32=[11 22 33]"* ]]
  run bin/vmrun "$T/m.vmfb" --input=1x3xf32=1,2,3 --input=1x4xf32=1 --output="@$T/y.npy"
  echo "$output"
  [ "$status" -ne 0 ]
  [[ "$output" == *"input 1: dimension 1 is 4, must be 3 (the length 3 of input 0, dimension 1)"* ]]
  [ ! -e "$T/y.npy" ]
}

@test "two dynamic dimensions that no check ties (two lengths) are refused" {
  two2 ''
  run bin/codegen "$T/f.mlir" -o "$T/out"
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"error: codegen: dimension 1 of argument 0 and dimension 1 of argument 1 are dynamic, of lengths the checks let differ (1 and 2): one dynamic length per function is supported yet"* ]]
  [ ! -e "$T/out" ]
}

# A square of x over a range up to 65535: above 16384 elements the
# kernel's loop is split among workgroups (21845 elements each at the
# top), as many as the call's length needs
@test "a bounded loop's workgroups are sized by the call's length: the grid each call runs, vmpack --dump, vmpack's and the runtime's checks" {
  ew_fn 65535 mulf
  bin/codegen --dump-dispatches "$T/f.mlir" > "$T/d.txt"
  grep -q "its workgroups along x: ceil((1 \* n + 0) / 21845), at most 3" "$T/d.txt"
  bin/codegen "$T/f.mlir" > "$T/c.mlir"
  grep -q 'grid_length = array<i64: 1, 0, 21845, 0, 0, 0, 0, 0, 0>, length = 2 : i64' "$T/c.mlir"
  bin/vmpack "$T/c.mlir" -o "$T/m.vmfb"
  bin/vmpack --dump "$T/m.vmfb" | grep -q 'workgroups at length n (b[0-9]*): x min(3, ceil((1 n + 0) / 21845))'
  # the grid each call ran (--trace), and every element computed
  for ng in 5:1 21845:1 21846:2 30000:2 43691:3 65535:3; do
    n=${ng%:*}
    run bin/vmrun "$T/m.vmfb" --threads=2 --input="1x${n}xf32=3" --expected_output="1x${n}xf32=9" \
      --trace="$T/t.json"
    echo "$n: $output"
    [ "$status" -eq 0 ]
    [ "$(grep -o '"grid":\[[0-9,]*\]' "$T/t.json")" = "\"grid\":[${ng#*:},1,1]" ]
  done
  run bin/vmrun "$T/m.vmfb" --input=1x3xf32=1,2,-3
  [ "$output" = "1x3xf32=[1 4 9]" ]
  # vmpack's checks
  for bad in 's/, length = 2 : i64//|needs both '"'grid_length'"' = array<i64: c, d, q per axis> and '"'length'"' = the operand holding the length' \
      's/length = 2 : i64/length = 0 : i64/|'"'length'"' must name an operand of type tensor<1xi64>' \
      's/1, 0, 21845, 0/1, 0, 0, 0/|grid_length: each axis is 0, 0, 0 (static) or c > 0, d, q > 0' \
      's/0, 21845, 0, 0, 0/0, 21845, 0, 5, 0/|grid_length: each axis is 0, 0, 0 (static) or c > 0, d, q > 0'; do
    pack_refuses "${bad%%|*}" "$T/c.mlir" "error: ${bad#*|}"
    [ ! -e "$T/refused.vmfb" ]
  done
  # the runtime's, behind valid checksums: the record's binding (byte 0)
  # made the input's, its q (byte 56) 0
  cp "$T/m.vmfb" "$T/t.vmfb"
  python3 tests/vmrun/src/vmfb-patch.py "$T/t.vmfb" 18 0 0 0
  run bin/vmrun "$T/t.vmfb" --input=1x3xf32=1
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"corrupt module: @main.seq: instruction "*": grid record 0: binding 0 is not the dispatch's 8-byte length" ]]
  cp "$T/m.vmfb" "$T/t.vmfb"
  python3 tests/vmrun/src/vmfb-patch.py "$T/t.vmfb" 18 0 56 0
  run bin/vmrun "$T/t.vmfb" --input=1x3xf32=1
  echo "$output"
  [[ "$output" == *"corrupt module: @main.seq: instruction "*": grid record 0: axis 0 is (1, 0, 0), not static (0, 0, 0) or c > 0 and q > 0" ]]
}
