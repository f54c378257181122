#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# Hand-written torch IR that torch-lower once turned into invalid linalg
# (written with exit 0) or crashed on: it must refuse at the op with
# FILE:LINE:COL: error and write nothing, or write IR mlir-opt-16 accepts.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
  T="$BATS_TEST_TMPDIR"
}

# refuses FILE LINE:COL TEXT: exit 1, no output, the error at the op
refuses() {
  run --separate-stderr bin/torch-lower "$IN/$1"
  echo "$stderr"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [[ "$stderr" == "$IN/$1:$2: error: torch-lower: "*"$3"* ]]
}

# lowers FILE: exit 0 and mlir-opt-16 accepts the output
lowers() {
  bin/torch-lower "$IN/$1" > "$T/out.mlir"
  command -v mlir-opt-16 >/dev/null || skip "mlir-opt-16 is not installed"
  mlir-opt-16 "$T/out.mlir" > /dev/null
}

@test "mm whose declared result shape is wrong is an error, not invalid linalg.matmul" {
  refuses mm-wrong-shape.mlir 3:10 "shapes do not agree"
}

@test "convolution whose declared result shape is wrong is an error" {
  refuses conv-wrong-shape.mlir 10:10 "shapes do not agree"
}

@test "convolution with groups 0 is an error, not SIGFPE" {
  refuses conv-groups-0.mlir 9:10 "groups > 0"
}

@test "bitwise_not of a float is an error, not arith.xori on f32" {
  refuses bitwise-not-float.mlir 3:10 "only defined for integer and bool"
}

@test "permute of a 0-d tensor is valid IR" {
  lowers permute-0d.mlir
}

@test "adaptive pooling to size 0 gives the empty tensor, no SIGFPE" {
  lowers adaptive-pool-0.mlir
}

@test "select past the end of its dim is an error, not an out-of-bounds slice" {
  refuses select-out-of-range.mlir 5:10 "out of range"
}

@test "cat whose operands do not fill the declared result is an error" {
  refuses cat-wrong-shape.mlir 5:10 "do not fill the result"
}

@test "arange whose declared length is wrong is an error" {
  refuses arange-wrong-length.mlir 7:10 "do not agree"
}

@test "a lowering that refuses always says why (it exited 1 silently)" {
  refuses norm-int.mlir 8:10 "cannot lower 'torch.aten.linalg_vector_norm'"
}

@test "what lib's verifier lets through and mlir-opt-16 rejects is an internal error, not output" {
  for f in "$IN"/invalid/*.mlir; do
    run --separate-stderr bin/torch-lower "$f"
    echo "$f: $stderr"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == "$f:2:8: error: torch-lower: internal error: "*"is not valid as lowered"* ]]
    if command -v mlir-opt-16 >/dev/null; then
      run mlir-opt-16 "$f"
      [ "$status" -ne 0 ]
    fi
  done
}

@test "a static slice out of bounds (mlir-opt-16 lets it through) is an internal error" {
  run --separate-stderr bin/torch-lower "$IN/extract-slice-bounds.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [[ "$stderr" == *"extract-slice-bounds.mlir:2:8: error: torch-lower: internal error: 'tensor.extract_slice'"* ]]
}

@test "reflection padding as wide as the input is an error (it read a wrong element)" {
  refuses reflect-pad-too-wide.mlir 6:10 "do not fit the input"
}

@test "negative padding past the input's size is an error" {
  refuses pad-past-empty.mlir 6:10 "do not agree with the input"
}

@test "max_pool2d whose declared result shape is wrong is an error" {
  refuses maxpool-wrong-shape.mlir 10:10 "does not agree with its window"
}
