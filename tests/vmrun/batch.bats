#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# Dynamic batch (formats/fxvm.md, "Dynamic batch"): a body-less function
# with fxvm.batch, run as static chunk functions.  codegen compiles
# tanh(x @ w + b) at 16, 8, 2 and 1 rows and an elementwise add at 8 and 1
# rows into one module; the declarations are added to its fxvm text:
#   @main   x: ?x5 (k = 1), w, b unbatched; batch 1..64, chunks 8, 1
#   @pairs  the same with k = 2 (chunks @f16, @f2); batch 0..unbounded
#   @add    two batched inputs; batch 1..64, chunks 8, 1
# Batched results are checked against @main.batch1 run item by item.
load helpers

W="--input=5x3xf32=0.1,0.2,0.3,-0.1,0.5,0.2,0.3,0.1,-0.4,0.2,0.2,0.2,0.1,0.0,-0.3"
B="--input=3xf32=0.5,-1,0"

# linalg N: the two functions at N rows, @fN and @gN
linalg() {
  sed "s/NN/$1/g" <<'EOF'
  func.func @fNN(%x: tensor<NNx5xf32>, %w: tensor<5x3xf32>, %b: tensor<3xf32>) -> tensor<NNx3xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<NNx3xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<NNx3xf32>) -> tensor<NNx3xf32>
    %2 = linalg.matmul ins(%x, %w : tensor<NNx5xf32>, tensor<5x3xf32>) outs(%1 : tensor<NNx3xf32>) -> tensor<NNx3xf32>
    %3 = linalg.generic {indexing_maps = [#map, #mapb, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %b : tensor<NNx3xf32>, tensor<3xf32>) outs(%0 : tensor<NNx3xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %4 = arith.addf %in, %in_0 : f32
      %5 = math.tanh %4 : f32
      linalg.yield %5 : f32
    } -> tensor<NNx3xf32>
    return %3 : tensor<NNx3xf32>
  }
  func.func @gNN(%x: tensor<NNx3xf32>, %y: tensor<NNx3xf32>) -> tensor<NNx3xf32> {
    %0 = tensor.empty() : tensor<NNx3xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<NNx3xf32>, tensor<NNx3xf32>) outs(%0 : tensor<NNx3xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %2 = arith.addf %in, %in_0 : f32
      linalg.yield %2 : f32
    } -> tensor<NNx3xf32>
    return %1 : tensor<NNx3xf32>
  }
EOF
}

setup_file() {
  D="$BATS_FILE_TMPDIR"
  {
    echo '#map = affine_map<(d0, d1) -> (d0, d1)>'
    echo '#mapb = affine_map<(d0, d1) -> (d1)>'
    echo 'module {'
    for n in 16 8 2 1; do linalg $n; done
    echo '}'
  } > "$D/chunks.mlir"
  bin/codegen --target=cpu "$D/chunks.mlir" |
    sed 's/@f8\b/@main.batch8/g; s/@f1\b/@main.batch1/g' |
    awk '/^  func.func @f16/ && !done {
      print "  func.func @main(tensor<?x5xf32>, tensor<5x3xf32>, tensor<3xf32>) -> tensor<?x3xf32> attributes {fxvm.batch = {min = 1 : i64, max = 64 : i64, sizes = array<i64: 8, 1>, functions = [@main.batch8, @main.batch1]}}"
      print "  func.func @pairs(tensor<?x5xf32>, tensor<5x3xf32>, tensor<3xf32>) -> tensor<?x3xf32> attributes {fxvm.batch = {min = 0 : i64, max = 9223372036854775807 : i64, sizes = array<i64: 8, 1>, functions = [@f16, @f2]}}"
      print "  func.func @add(tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32> attributes {fxvm.batch = {min = 1 : i64, max = 64 : i64, sizes = array<i64: 8, 1>, functions = [@g8, @g1]}}"
      done = 1 }
      { print }' > "$D/batch.fxvm"
  bin/vmpack "$D/batch.fxvm" -o "$D/batch.vmfb"
}

setup() {
  T="$BATS_TEST_TMPDIR"
  D="$BATS_FILE_TMPDIR"
  M="$D/batch.vmfb"
}

# values N: N rows of 5 inputs, comma-separated
values() {
  awk -v n="$1" 'BEGIN { for (i = 0; i < n * 5; i++) printf "%s%g", i ? "," : "", (i * 37 % 23) / 10 - 1 }'
}

# expected N: @main.batch1 run on each of the N rows, as N rows of 3
expected() {
  local v r out=""
  v=$(values "$1")
  for ((r = 0; r < $1; r++)); do
    row=$(echo "$v" | cut -d, -f$((r * 5 + 1))-$((r * 5 + 5)))
    res=$(bin/vmrun "$M" --function=main.batch1 --input=1x5xf32="$row" $W $B)
    res=${res#1x3xf32=[}
    out+="${out:+,}$(echo "${res%]}" | tr ' ' ,)"
  done
  echo "$out"
}

@test "a batched function runs any batch in range as chunks, matching the batch-1 function item by item" {
  for n in 1 3 8 9 17 64; do
    run bin/vmrun "$M" --input="${n}x5xf32=$(values $n)" $W $B --expected_output="${n}x3xf32=$(expected $n)"
    [ "$status" -eq 0 ]
    [ "$output" = "[SUCCESS] all function outputs matched their expected values" ]
  done
  # .npy in and out, the result with its real shape
  run bin/vmrun "$M" --input="3x5xf32=$(values 3)" $W $B --output=@"$T/y.npy"
  [ "$status" -eq 0 ]
  run bin/vmrun "$M" --input=@"$T/y.npy" --input=@"$T/y.npy" --function=add
  [ "$status" -eq 0 ]
  [[ "$output" == "3x3xf32=["* ]]
}

@test "chunks whose rows are not 64-byte aligned (20-byte inputs, 12-byte results) go through staging" {
  # batch 9: the second chunk starts at byte 160 of x and 96 of the result
  run bin/vmrun "$M" --input="9x5xf32=$(values 9)" $W $B --threads=1
  [ "$status" -eq 0 ]
  want=$(expected 9)
  run bin/vmrun "$M" --input="9x5xf32=$(values 9)" $W $B --expected_output="9x3xf32=$want" --threads=3
  [ "$status" -eq 0 ]
}

@test "k = 2 rows per item: the chunk functions' dimension 0 is twice their size; batch 0 runs nothing" {
  for n in 1 3 9; do
    run bin/vmrun "$M" --function=pairs --input="$((2 * n))x5xf32=$(values $((2 * n)))" $W $B \
      --expected_output="$((2 * n))x3xf32=$(expected $((2 * n)))"
    [ "$status" -eq 0 ]
  done
  run bin/vmrun "$M" --function=pairs --input=0x5xf32 $W $B
  [ "$status" -eq 0 ]
  [ "$output" = "0x3xf32=" ]
  run bin/vmrun "$M" --function=pairs --input=7x5xf32 $W $B
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: input 0: dimension 0 is 7, must be 2 × a batch at least 0" ]
}

@test "a batch out of range, or batched inputs that disagree, fail with the input and dimension and write nothing" {
  run bin/vmrun "$M" --input=65x5xf32 $W $B --output=@"$T/y.npy"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: input 0: dimension 0 is 65, must be in [1, 64]" ]
  [ ! -e "$T/y.npy" ]
  run bin/vmrun "$M" --input=0x5xf32 $W $B --output=@"$T/y.npy"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: input 0: dimension 0 is 0, must be in [1, 64]" ]
  [ ! -e "$T/y.npy" ]
  run bin/vmrun "$M" --function=add --input=3x3xf32 --input=5x3xf32 --output=@"$T/y.npy"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: input 1: dimension 0 is 5, must equal 3 (the batch of input 0)" ]
  [ ! -e "$T/y.npy" ]
  run bin/vmrun "$M" --function=add --input=3x3xf32 --input=3x4xf32
  [ "$output" = "vmrun: error: input 1: dimension 1 is 4, the function expects 3" ]
  run bin/vmrun "$M" --input=5xf32 $W $B
  [ "$output" = "vmrun: error: input 0: rank is 1, the function expects 2 (?x5xf32)" ]
  run bin/vmrun "$M" --input=2x5xf32 --input=5x4xf32 $B
  [ "$output" = "vmrun: error: input 1: dimension 1 is 4, the function expects 3" ]
}

@test "the chunk functions stay callable; --benchmark, --profile, --stats and --trace run a batched function" {
  run bin/vmrun "$M" --function=main.batch8 --input="8x5xf32=$(values 8)" $W $B
  [ "$status" -eq 0 ]
  [[ "$output" == "8x3xf32=["* ]]
  run bin/vmrun "$M" --input="17x5xf32=$(values 17)" $W $B --benchmark=3 --profile --stats --trace="$T/t.json"
  [ "$status" -eq 0 ]
  [[ "$output" == *"@main: 3 runs after 1 warm-up, latency"* ]]
  [[ "$output" == *"dispatch_"*"_matmul_add"* ]]
  [[ "$output" == *"vmrun: @main: peak "* ]]
  python3 -m json.tool "$T/t.json" > /dev/null
  grep -q '"name":"@main run 3"' "$T/t.json"
}

@test "vmpack --dump shows the symbolic signature, the range and the chunks" {
  run bin/vmpack --dump "$M"
  [ "$status" -eq 0 ]
  [[ "$output" == *"  @main(tensor<?x5xf32>, tensor<5x3xf32>, tensor<3xf32>) -> (tensor<?x3xf32>)
    batch in [1, 64], chunks 8 (@main.batch8), 1 (@main.batch1)"* ]]
  [[ "$output" == *"    batch in [0, unbounded), chunks 8 (@f16), 1 (@f2)"* ]]
  [[ "$output" == *" batch "*"crc32c "* ]]
  [[ "$output" == *" chunks "*"crc32c "* ]]
}

@test "vmpack refuses a malformed fxvm.batch at the declaration, writing nothing" {
  F="$D/batch.fxvm"
  line=$(grep -n '@main(' "$F" | cut -d: -f1)
  pack_refuses '/@main(/s/sizes = array<i64: 8, 1>/sizes = array<i64: 1, 8>/' "$F" \
    "error: fxvm.batch: the last of the sizes must be 1"
  [[ "${lines[0]}" == "$T/refused.mlir:$line:3: error: "* ]]
  [ ! -e "$T/refused.vmfb" ]
  pack_refuses '/@main(/s/sizes = array<i64: 8, 1>/sizes = array<i64: 8, 8, 1>/; /@main(/s/\[@main.batch8/[@main.batch8, @main.batch8/' "$F" \
    "error: fxvm.batch: the sizes must be strictly decreasing"
  pack_refuses '/@main(/s/sizes = array<i64: 8, 1>/sizes = array<i64: 8, 2>/' "$F" \
    "error: fxvm.batch: the last of the sizes must be 1"
  pack_refuses '/@main(/s/@main.batch1\]/@f2]/' "$F" \
    "error: fxvm.batch: argument 0 of @f2 has 2 rows per batch item (dimension 0 2 for 1), the first chunk 1"
  pack_refuses '/@main(/s/-> tensor<?x3xf32>/-> tensor<8x3xf32>/' "$F" \
    "error: fxvm.batch: every result must be batched (? at dimension 0)"
  pack_refuses '/@main(/s/@main.batch1\]/@nosuch]/' "$F" \
    "error: fxvm.batch: '@nosuch' is not a function with a body in this module"
  pack_refuses '/@main(/s/@main.batch1\]/@pairs]/' "$F" \
    "error: fxvm.batch: '@pairs' is not a function with a body in this module"
  pack_refuses '/@main(/s/, @main.batch1\]/]/' "$F" \
    "error: fxvm.batch: as many functions as sizes"
  pack_refuses '/@main(/s/tensor<5x3xf32>/tensor<5x4xf32>/' "$F" \
    "error: fxvm.batch: argument 1 of @main.batch8 does not fit the declaration's type: the same but dimension 0 a multiple of 8 where batched"
  pack_refuses '/@main(/s/@main.batch1\]/@g1]/' "$F" \
    "error: fxvm.batch: @g1 takes 2 and returns 1 values, the declaration 3 and 1"
  pack_refuses '/@add(/s/(tensor<?x3xf32>, tensor<?x3xf32>)/(tensor<8x3xf32>, tensor<8x3xf32>)/; /@add(/s/sizes = array<i64: 8, 1>/sizes = array<i64: 1>/; /@add(/s/@g8, //' "$F" \
    "error: fxvm.batch: no argument is batched (? at dimension 0): the batch of a call is read from them"
  pack_refuses '/@main(/s/min = 1/min = 65/' "$F" \
    "error: fxvm.batch: min must be >= 0 and max >= min"
  pack_refuses '/@main(/s/functions = /funcs = /' "$F" \
    "error: fxvm.batch must be {min = N : i64, max = N : i64, sizes = array<i64: S, ..., 1>, functions = [@f, ...]}"
  pack_refuses '/@main(/s/@main(/@f16(/' "$F" "redefinition of symbol named 'f16'"
}

@test "the runtime checks a batched function's records" {
  cp "$M" "$T/m.vmfb"
  # batch record 0 (@main): no chunks
  python3 tests/vmrun/src/vmfb-patch.py "$T/m.vmfb" 15 0 8 0
  run bin/vmrun "$T/m.vmfb" --input=1x5xf32 $W $B
  [ "$status" -eq 1 ]
  [[ "$output" == *"corrupt module: @main: chunks "*" are out of range" ]]
  cp "$M" "$T/m.vmfb"
  # chunk 1 of @main (16-byte records: the second half of record 0) made size 2
  python3 tests/vmrun/src/vmfb-patch.py "$T/m.vmfb" 16 0 16 2
  run bin/vmrun "$T/m.vmfb" --input=1x5xf32 $W $B
  [ "$status" -eq 1 ]
  [[ "$output" == *"corrupt module: @main: chunk 1 "*" is out of range or order" ]]
}

@test "on CUDA (tests/cuda's emulated driver) the chunks run the same way" {
  command -v llc-16 >/dev/null || skip "llc-16 (Debian's llvm-16) is not installed"
  /usr/bin/python3 -c 'import numpy' 2>/dev/null || skip "no numpy for tests/cuda/emu.py"
  bin/codegen --target=cuda "$D/chunks.mlir" |
    awk '/^  func.func @f16/ && !done {
      print "  func.func @main(tensor<?x5xf32>, tensor<5x3xf32>, tensor<3xf32>) -> tensor<?x3xf32> attributes {fxvm.batch = {min = 1 : i64, max = 64 : i64, sizes = array<i64: 8, 1>, functions = [@f8, @f1]}}"
      done = 1 } { print }' > "$T/cuda.fxvm"
  bin/vmpack "$T/cuda.fxvm" -o "$T/cuda.vmfb"
  /usr/bin/python3 -c "import sys; sys.path.insert(0, 'tests/cuda'); import emu
open('$T/k.ll', 'w').write(emu.to_host(emu.sh('bin/codegen', '--target=cuda', '--emit=llvm', '$D/chunks.mlir')))"
  llc-16 -O2 -filetype=obj -relocation-model=pic "$T/k.ll" -o "$T/k.o"
  mkdir -p "$T/fake"
  cc -shared -fPIC -O1 tests/cuda/fakecuda.c "$T/k.o" -lpthread -lm -o "$T/fake/libcuda.so.1"
  for n in 3 17; do
    LD_LIBRARY_PATH="$T/fake" bin/vmrun "$T/cuda.vmfb" --device=cuda --input="${n}x5xf32=$(values $n)" $W $B \
      --output=@"$T/y.npy"
    run bin/vmrun "$M" --input="${n}x5xf32=$(values $n)" $W $B --expected_output=@"$T/y.npy"
    [ "$status" -eq 0 ]
  done
}
