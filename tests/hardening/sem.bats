#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# Issue 17, semantic limits: too many dims, too many elements, affine
# constants that overflow, and pooling/convolution arithmetic on untrusted
# sizes are each one clean error (exit 1, FILE:LINE:COL, empty stdout),
# never a crash, a hang or undefined behaviour.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs-sem"
  T="$BATS_TEST_TMPDIR"
}

# dims N: "1,1,...,1" with N ones; sep as the second argument
ones() { local s="1" i; for ((i = 1; i < $1; i++)); do s+="${2:-,}1"; done; echo "$s"; }

# a function adding two rank-N torch tensors and summing the result
rank_input() {
  local d; d=$(ones "$1")
  local t="!torch.vtensor<[$d],f32>"
  cat <<EOF
func.func @f(%arg0: $t, %arg1: $t) -> $t {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %arg0, %arg1, %int1 : $t, $t, !torch.int -> $t
  %true = torch.constant.bool true
  %none = torch.constant.none
  %1 = torch.aten.sum.dim_IntList %0, %none, %true, %none : $t, !torch.none, !torch.bool, !torch.none -> $t
  return %1 : $t
}
EOF
}

@test "rank 16 is accepted by torch-opt and torch-lower" {
  rank_input 16 > "$T/r16.mlir"
  bin/torch-opt "$T/r16.mlir" > /dev/null
  bin/torch-lower "$T/r16.mlir" > /dev/null
}

@test "a torch tensor of rank 17 or 70 is an error in torch-opt, torch-lower and codegen, not a crash" {
  for n in 17 70; do
    rank_input $n > "$T/r$n.mlir"
    for tool in torch-opt torch-lower codegen; do
      run --separate-stderr bin/$tool "$T/r$n.mlir"
      echo "$tool rank $n: $status $stderr"
      [ "$status" -eq 1 ]
      [ -z "$output" ]
      [ "$stderr" = "$T/r$n.mlir:1:36: error: rank $n exceeds the maximum of 16" ]
    done
  done
}

@test "a builtin tensor of rank 70 is an error at its type" {
  t="tensor<$(ones 70 x)xf32>"
  printf 'func.func @f(%%arg0: %s) -> %s {\n  return %%arg0 : %s\n}\n' "$t" "$t" "$t" > "$T/b.mlir"
  for tool in torch-opt torch-lower codegen; do
    run --separate-stderr bin/$tool "$T/b.mlir"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "$stderr" = "$T/b.mlir:1:21: error: rank 70 exceeds the maximum of 16" ]
  done
}

@test "a tensor of 10^27 elements is an error naming the count" {
  t='!torch.vtensor<[1000000000,1000000000,1000000000],f32>'
  printf 'func.func @f(%%arg0: %s) -> %s {\n  return %%arg0 : %s\n}\n' "$t" "$t" "$t" > "$T/big.mlir"
  for tool in torch-opt torch-lower; do
    run --separate-stderr bin/$tool "$T/big.mlir"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "$stderr" = "$T/big.mlir:1:36: error: '$t' has 1e+27 elements, more than the 2^48 supported" ]
  done
  t='tensor<0x1000000000x1000000000xf32>'
  printf 'func.func @f(%%arg0: %s) -> %s {\n  return %%arg0 : %s\n}\n' "$t" "$t" "$t" > "$T/zero.mlir"
  run --separate-stderr bin/codegen "$T/zero.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [[ "$stderr" == "$T/zero.mlir:1:21: error: '$t' has dims whose nonzero product is 1e+18, "* ]]
}

@test "2^48 elements are accepted, 2^48 + 1 are not" {
  for n in 281474976710656 281474976710657; do
    t="!torch.vtensor<[$n],i1>"
    printf 'func.func @f(%%arg0: %s) -> %s {\n  return %%arg0 : %s\n}\n' "$t" "$t" "$t" > "$T/e.mlir"
    run --separate-stderr bin/torch-opt "$T/e.mlir"
    if [ $n = 281474976710656 ]; then [ "$status" -eq 0 ]; else
      [ "$status" -eq 1 ]
      [[ "$stderr" == *"has 2.81e+14 elements, more than the 2^48 supported" ]]
    fi
  done
}

@test "a broadcast whose inferred result has 10^24 elements is an error at the op" {
  cat > "$T/bc.mlir" <<'EOF'
func.func @f(%arg0: !torch.vtensor<[1000000,1,1000000,1],f32>, %arg1: !torch.vtensor<[1000000,1,1000000],f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %arg0, %arg1, %int1 : !torch.vtensor<[1000000,1,1000000,1],f32>, !torch.vtensor<[1000000,1,1000000],f32>, !torch.int -> !torch.vtensor
  return %0 : !torch.vtensor
}
EOF
  run --separate-stderr bin/torch-opt "$T/bc.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "$T/bc.mlir:3:8: error: 'torch.aten.add.Tensor' result #0: '!torch.vtensor<[1000000,1000000,1000000,1000000],f32>' has 1e+24 elements, more than the 2^48 supported" ]
}

# an affine map with result expression $1, printed by torch-opt
affine() {
  printf '#map = affine_map<(d0) -> (%s)>\nfunc.func @f() attributes {m = #map} {\n  return\n}\n' "$1" > "$T/aff.mlir"
  run --separate-stderr bin/torch-opt -p '' "$T/aff.mlir"
}

@test "affine constant folding of INT64_MIN floordiv/ceildiv -1 is an error, not SIGFPE" {
  for op in floordiv ceildiv; do
    affine "(-9223372036854775807 - 1) $op -1"
    echo "$op: $status $stderr"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == "$T/aff.mlir:1:"*": error: affine expression -9223372036854775808 $op -1 overflows a 64-bit integer" ]]
  done
  affine "(-9223372036854775807 - 1) mod -1"
  [ "$status" -eq 0 ]
  [[ "$output" == "#map = affine_map<(d0) -> (0)>"* ]]
}

@test "affine constant folding that overflows + or * is an error" {
  for e in "9223372036854775807 + 1" "4611686018427387904 * 2" "-(-9223372036854775807 - 1)" "d0 - (-9223372036854775807 - 1)"; do
    affine "$e"
    echo "$e: $status $stderr"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == *": error: affine expression "*" overflows a 64-bit integer" ]]
  done
}

@test "affine constant folding still folds: mod and floordiv round toward -inf" {
  for c in "-7 mod 3|2" "7 mod -3|-2" "-7 floordiv 2|-4" "-7 ceildiv 2|-3" "d0 + 3 * 4|d0 + 12" \
           "(-9223372036854775807 - 1) floordiv 2|-4611686018427387904"; do
    affine "${c%%|*}"
    [ "$status" -eq 0 ]
    [[ "$output" == "#map = affine_map<(d0) -> (${c#*|})>"* ]]
  done
}

@test "max_pool2d of a 6-D tensor is an error, not a stack overflow" {
  run --separate-stderr bin/torch-lower "$IN/maxpool-6d.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "$IN/maxpool-6d.mlir:9:8: error: torch-lower: 'torch.aten.max_pool2d' needs a 3-D or 4-D input and result, not 6-D and 6-D" ]
}

@test "average pooling to a huge output is an error, not a stack overflow" {
  run --separate-stderr bin/torch-lower "$IN/avgpool-big.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "$IN/avgpool-big.mlir:9:8: error: torch-lower: 'torch.aten.avg_pool2d' output of 16384x8192 needs more than the 2^26 divisors supported" ]
  run --separate-stderr timeout 20 bin/torch-lower "$IN/adaptive-huge.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "$IN/adaptive-huge.mlir:5:8: error: torch-lower: 'torch.aten.adaptive_avg_pool2d' output of 1099511627776x1 needs more than the 2^26 divisors supported" ]
}

@test "adaptive max pooling to 2^40 windows lowers at once (no loop over the windows)" {
  run --separate-stderr timeout 20 bin/torch-lower "$IN/adaptive-max-huge.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"linalg.generic"* ]]
}

@test "a convolution whose dilation times kernel overflows int64 is an error" {
  run --separate-stderr bin/torch-lower "$IN/conv-dilation.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "$IN/conv-dilation.mlir:10:8: error: torch-lower: convolution has a bad stride, padding, dilation or output padding" ]
}

@test "torch-opt: a convolution with stride 0 is an error, not SIGFPE in shape inference" {
  run --separate-stderr bin/torch-opt "$IN/conv-stride0.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [[ "$stderr" == "$IN/conv-stride0.mlir:10:8: error: result #0 of 'torch.aten.convolution' (!torch.vtensor<[1,1,?,?],f32>) has a dynamic size where the input is static" ]]
}

@test "torch-opt: convolution sizes that overflow int64 are not inferred" {
  # stride 1 and padding 2^62: 4 + 2 * 2^62 - 3 overflows
  sed 's/%sv = torch.constant.int 0/%sv = torch.constant.int 4611686018427387904/; s/%s, %p, %d, %false/%d, %s, %d, %false/' \
    "$IN/conv-stride0.mlir" > "$T/pad.mlir"
  grep -q '%d, %s, %d, %false' "$T/pad.mlir"
  run --separate-stderr bin/torch-opt "$T/pad.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [[ "$stderr" == *"error: result #0 of 'torch.aten.convolution' (!torch.vtensor<[1,1,?,?],f32>) has a dynamic size"* ]]
}

@test "torch-lower: roll along an empty dim and of an empty tensor is the empty tensor, as in PyTorch" {
  run --separate-stderr bin/torch-lower "$IN/roll-empty.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"-> tensor<0x3xf32>"* ]]
}

@test "torch-lower: adaptive pooling to an output size of 0 is the empty tensor, as in PyTorch" {
  run --separate-stderr bin/torch-lower "$IN/adaptive-zero.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"tensor.empty() : tensor<1x2x0x3xf32>"* ]]
}

@test "torch-lower: convolution with groups = 0 is an error (PyTorch: non-positive groups)" {
  run --separate-stderr bin/torch-lower "$IN/conv-groups0.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "$IN/conv-groups0.mlir:10:8: error: torch-lower: convolution needs groups > 0, not 0" ]
}
